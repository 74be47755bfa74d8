# The extension decides which importer reads a model; the bytes only confirm it or refute it, and
# a refusal names the importer that refused. A ZBrush OBJ export ends in a NUL
# byte: kiln took such a file for binary and then called it "not a glTF file" (import) or "not an
# image format" (inspect). Here a corpus OBJ with a NUL appended imports and inspects as the same
# model as the file without it. Files whose bytes contradict their extension are
# E_IMPORT_UNSUPPORTED (exit 1) from the importer the extension names: a .obj that is a PNG is
# "not an OBJ file", a .gltf that is binary gets the glTF importer's message (import and inspect
# alike), a .fbx that is OBJ text is "not an FBX file", and a .png that is OBJ text is not taken
# for a model by inspect either. Skipped without the corpus.
obj=${KILN_CORPUS:-}/obj/cube_with_vertexcolors/cube_with_vertexcolors.obj
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$obj" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
cat "$obj" >assets/plain.obj
cat "$obj" >assets/zbrush.obj
printf '\000' >>assets/zbrush.obj

k 0 import assets/zbrush.obj
show
k 0 inspect assets/zbrush.obj
show
counts="[d[k] for k in ('format', 'meshes', 'primitives', 'vertices', 'triangles', 'materials')]"
k 0 inspect --json assets/plain.obj
plain=$(j "$counts")
k 0 inspect --json assets/zbrush.obj
expect_eq "$(j "$counts")" "$plain" "the NUL-ended OBJ inspects as the plain one"
k 0 import --json assets/plain.obj
expect_eq "$(j "[r['status'] for r in d['records']]")" '["imported"]' "the plain OBJ imports"

mkpng assets/picture.obj 4 4 1
k 1 import assets/picture.obj
show
show_err
k 1 import --json assets/picture.obj
expect_eq "$(j "d['failed'][0]['error']['code']")" E_IMPORT_UNSUPPORTED "import of a PNG named .obj"
k 1 inspect assets/picture.obj
show_err
k 1 inspect --json assets/picture.obj
show

# A PNG named .gltf, and an OBJ named .gltf (which assimp would read): the glTF importer says no.
mkpng assets/binary.gltf 4 4 2
cat "$obj" >assets/text.gltf
for f in binary text; do
    k 1 import assets/$f.gltf
    show_err
    k 1 inspect assets/$f.gltf
    show_err
done
cat "$obj" >assets/text.fbx
k 1 import assets/text.fbx
show_err
k 1 inspect --json assets/text.fbx
expect_eq "$(j "d['error']['code']")" E_IMPORT_UNSUPPORTED "inspect of an OBJ named .fbx"
show
cat "$obj" >assets/text.png
k 1 inspect assets/text.png
show_err
