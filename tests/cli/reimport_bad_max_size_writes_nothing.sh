# reimport --set texture.max_size=2 (below the minimum 4) is refused before anything is written:
# exit 2, E_IMPORT_SETTINGS at /import/texture/max_size, no .meta created or changed.
mkpng assets/a.png 8 8 1
k 0 import assets/a.png
k 2 reimport assets/a.png --set texture.max_size=2
show_err
[ ! -e assets/a.png.meta ] || fail "a refused reimport created a .meta"
k 2 reimport --json assets/a.png --set texture.max_size=2
show
printf '{"import": {"texture": {"srgb": false}}}\n' >assets/a.png.meta
cp assets/a.png.meta "$KILN_CLI_TMP/meta.before"
k 2 reimport --json assets/a.png --set texture.max_size=2
cmp -s "$KILN_CLI_TMP/meta.before" assets/a.png.meta || fail "a refused reimport changed the .meta"
k 2 reimport --json assets/a.png --set texture.nope=1
expect_eq "$(j "d['error']['json_pointer']")" /import/texture/nope "unknown field in --set"
k 2 reimport --json assets/a.png --settings '{"texture": {"max_size": "big"}}'
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_SETTINGS", "/import/texture/max_size"]' "--settings"
k 2 reimport --json assets/a.png --settings '{not json'
expect_eq "$(j "d['error']['code']")" E_IMPORT_SETTINGS "--settings syntax"
cmp -s "$KILN_CLI_TMP/meta.before" assets/a.png.meta || fail "a refused reimport changed the .meta"
k 2 reimport --json
expect_eq "$(j "d['error']['code']")" E_USAGE "reimport without a path"
k 1 reimport --json assets/none.png --set texture.mipmaps=false
expect_eq "$(j "d['error']['code']")" E_ASSET_IO "reimport of a missing file"
