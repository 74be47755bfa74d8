# Shaders are a kind (issue 19): the test shaders of tests/shaders imported as a project folder.
# Stages come from the names (.vert, .frag, .comp, .mesh) or the .meta (the HLSL pixel shader);
# the .meta files name the variants; include_dirs in a folder.meta is root-relative. Files that
# only others include (no stage) are libraries, not assets. The broken shaders fail with the
# compiler's file:line message (a missing include, one leaving the project, a syntax error, a
# warning while warnings are errors, a wrong HLSL entry point), and nothing is published for
# them. Editing an include makes exactly the shaders that include it stale, and report --why
# names the include. The compiler's warnings are kept when they are not errors.
cp -R "$KILN_SOURCE_DIR/tests/shaders" assets/shaders
rm -f assets/shaders/CMakeLists.txt assets/shaders/check_reference.sh
printf '{"shader": {"include_dirs": ["shaders/include"]}}\n' >assets/shaders/folder.meta
k 1 import --all
show
k 0 report --verbose
show
k 1 import --all --json
expect_eq "$(j "sorted(r['path'] for r in d['records'] if r['status'] == 'failed')")" \
    '["shaders/broken/include_escape.frag", "shaders/broken/missing_include.frag", "shaders/broken/syntax_error.frag", "shaders/broken/warning.frag", "shaders/broken/wrong_entry.hlsl"]' \
    "the broken shaders, and only they, fail"
expect_eq "$(j "{r['path']: r['summary']['variants'] for r in d['records'] if r['status'] != 'failed'}")" \
    '{"shaders/flat_color.frag": 1, "shaders/meshlets.mesh": 1, "shaders/pbr_forward.frag": 4, "shaders/pbr_forward.vert": 2, "shaders/skin_vertices.comp": 1, "shaders/unlit_texture.hlsl": 1}' \
    "a variant per entry of shader.variants"
expect_eq "$(j "sorted(set(r['error']['code'] for r in d['records'] if r['status'] == 'failed'))")" \
    '["E_IMPORT_FAILED"]' "every compile failure is E_IMPORT_FAILED"
# An include edited: exactly the shaders that include it are stale.
printf '// edited\n' >>assets/shaders/include/kiln_pbr.glsl
k 0 report --why
show
k 1 report --check
printf '// edited\n' >>assets/shaders/include/kiln_frame.glsl
k 0 report --json
expect_eq "$(j "sorted(a['path'] for a in d['assets'] if a['state'] == 'stale')")" \
    '["shaders/meshlets.mesh", "shaders/pbr_forward.frag", "shaders/pbr_forward.vert"]' \
    "the includers of kiln_frame.glsl (and of kiln_pbr.glsl) are stale, nothing else"
k 1 import --all
show
# A warning kept in the manifest when warnings are not errors.
k 0 reimport assets/shaders/broken/warning.frag --set shader.warnings_as_errors=false
show
k 0 import assets/shaders/broken/warning.frag --json
expect_grep "GL_EXT_no_such_extension" "$OUT" "the compiler's warning is in the result"
# A bad setting names its field.
k 2 reimport assets/shaders/flat_color.frag --set 'shader.defines={"1X": "1"}'
show_err
k 2 reimport assets/shaders/flat_color.frag --set 'shader.include_dirs=["../outside"]'
show_err
k 2 reimport assets/shaders/flat_color.frag --set 'shader.variants={"a b": {}}'
show_err
# A library imported by name says why it is not a shader on its own.
k 2 import assets/shaders/include/kiln_pbr.glsl
show
