# kiln thumbnail's usage errors exit 2 with E_USAGE before anything is drawn (no Vulkan needed):
# no argument, no -o, an option without its value, values out of range, an unknown option; a
# missing file is E_ASSET_IO, a file with no picture E_IMPORT_UNSUPPORTED (exit 1). Skipped when
# this kiln was built without its renderer (no Vulkan headers).
"$KILN_EXE" thumbnail x -o y.png >"$OUT" 2>"$ERR"
if grep -q "built without its Vulkan renderer" "$ERR"; then
    echo "kiln built without tools/view" >&2
    exit 77
fi
k 2 thumbnail
show_err
k 2 thumbnail a.png#texture
show_err
k 2 thumbnail a.png#texture -o
show_err
k 2 thumbnail a.png#texture -o t.png --size 0
show_err
k 2 thumbnail a.png#texture -o t.png --size 5000
show_err
k 2 thumbnail a.png#texture -o t.png --level 16
show_err
k 2 thumbnail a.png#texture -o t.png --view wireframe
show_err
k 2 thumbnail a.png#texture -o t.png --camera under
show_err
k 2 thumbnail a.png#texture -o t.png --time -1
show_err
k 2 thumbnail a.png#texture -o t.png --lod x
show_err
k 2 thumbnail a.png#texture b.png#texture -o t.png
show_err
k 2 thumbnail a.png#texture -o t.png --frobnicate
show_err
k 2 thumbnail a.png#texture -o t.png --size 0 --json
expect_eq "$(j "d['error']['code']")" "E_USAGE" "--json usage error"
k 1 thumbnail missing.ktx2 -o t.png
show_err
printf 'not a picture\n' >notes.txt
k 1 thumbnail notes.txt -o t.png
show_err
[ ! -e t.png ] || fail "a failed thumbnail left t.png"
