# Warnings are said when an asset is cooked. A no-op import (every asset cached) does not say them
# again, unless --verbose; the JSON records and report keep them. -q / --quiet on every
# subcommand: no warnings, no progress, no line per asset; failures and errors still print.
$PY "$KILN_CLI_DIR/mkskins.py" assets/mixed.gltf 2 1 || fail "mkskins"
mkpng assets/a.png 8 8 1
k 0 import --all
show
k 0 import --all
show
k 0 import --all --verbose
show
k 0 import --all --json
expect_eq "$(j "[(r['status'], len(r['warnings'])) for r in d['records']]")" \
    '[["cached", 0], ["cached", 1]]' "cached records keep their warnings"
k 0 report --json
expect_eq "$(j "[len(r['warnings']) for r in d['assets']]")" '[0, 1]' "report keeps them"
k 0 import --all --force -q
show
show_err
k 0 import --all --force --quiet --json
expect_eq "$(j "[len(r['warnings']) for r in d['records']]")" '[0, 1]' "--quiet leaves the JSON whole"
printf '{"asset": {"version": "1.0"}}' >assets/broken.gltf
k 1 import --all -q
show
show_err
k 2 import -q
show_err
k 0 model -q assets/mixed.gltf "$KILN_CLI_TMP/out"
show
show_err
k 0 reimport -q assets/a.png --set texture.mipmaps=false
show
show_err
for cmd in "report" "meta --all" "graph --ninja -o $KILN_CLI_TMP/build.ninja" "cache gc" \
    "inspect assets/a.png" "texture assets/a.png $KILN_CLI_TMP/a.ktx2"; do
    # shellcheck disable=SC2086 # the words of cmd are its arguments
    "$KILN_EXE" $cmd -q >"$OUT" 2>"$ERR" || true
    expect_no_grep "unknown option" "$ERR" "kiln $cmd -q"
done
