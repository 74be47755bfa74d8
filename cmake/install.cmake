# Install rules: the public headers, the two libraries, the command, a CMake package
# (find_package(kiln CONFIG): kiln::kiln and kiln::kiln_rt) and pkg-config files (kiln.pc,
# kiln_rt.pc). tests/install/install_package.sh builds a program against each of them.
include(CMakePackageConfigHelpers)
install(DIRECTORY include/kiln DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# A shared build installs libkiln.so (target kiln_shared, exported as kiln); the in-tree archive
# that tests link (target kiln, libkiln_internal.a) is never installed.
if(BUILD_SHARED_LIBS)
  set(KILN_INSTALLED_COOK kiln_shared)
  set(KILN_CONFIG_STATIC OFF)
  set(KILN_PC_REQUIRES "")           # libkiln.so carries its own core + codec
else()
  set(KILN_INSTALLED_COOK kiln)
  set(KILN_CONFIG_STATIC ON)
  set(KILN_PC_REQUIRES " kiln_rt")   # libkiln.a needs libkiln_rt.a (core, codec, readers)
endif()
install(TARGETS ${KILN_INSTALLED_COOK} kiln_rt EXPORT kilnTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT kilnTargets NAMESPACE kiln:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
configure_package_config_file(cmake/kilnConfig.cmake.in ${PROJECT_BINARY_DIR}/kilnConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kilnConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kilnConfig.cmake ${PROJECT_BINARY_DIR}/kilnConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
# The .pc files find the prefix from their own folder (${pcfiledir}), so an install moved or made
# with `cmake --install --prefix` elsewhere than CMAKE_INSTALL_PREFIX still gives right paths.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(KILN_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH kiln_pc_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" kiln_pc_up "${kiln_pc_up}")
  set(KILN_PC_PREFIX "\${pcfiledir}/${kiln_pc_up}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(KILN_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(KILN_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(cmake/kiln.pc.in ${PROJECT_BINARY_DIR}/kiln.pc @ONLY)
configure_file(cmake/kiln_rt.pc.in ${PROJECT_BINARY_DIR}/kiln_rt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kiln.pc ${PROJECT_BINARY_DIR}/kiln_rt.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
