# kiln_view_shaders.cmake — cooks tools/view/shaders with the kiln just built and packs them:
#   cmake -DKILN=kiln -DSHADERS=dir -DWORK=scratch-project -DPACK=out.kpak -P kiln_view_shaders.cmake
# The shaders are a project's assets (assets/shaders/<file>, each with kiln's default settings),
# so that they are named "shaders/<file>#shader" in the pack, as kiln thumbnail loads them.
# The pack's bytes depend only on the shaders and kiln (asset ids come from the paths).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/assets/shaders)
file(GLOB shaders ${SHADERS}/*)
file(COPY ${shaders} DESTINATION ${WORK}/assets/shaders)
execute_process(COMMAND ${KILN} pack --all -q -o ${PACK}.tmp WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln pack of the renderer's shaders failed (${rc})")
endif()
file(RENAME ${PACK}.tmp ${PACK})
