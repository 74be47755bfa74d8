# reimport with settings that are valid JSON-wise but cannot be cooked (srgb true with bc5, a
# format without an sRGB variant): exit 2, E_IMPORT_SETTINGS at /import/texture/srgb, and the
# .meta is left exactly as it was (a value that cannot be cooked must not be written), the cache
# entry too.
mkpng assets/a.png 8 8 1
printf '{"guid": "0123456789abcdef0123456789abcdef", "import": {"texture": {"quality": "fast"}}}\n' >assets/a.png.meta
cp assets/a.png.meta "$KILN_CLI_TMP/meta.before"
k 0 import assets/a.png
k 2 reimport assets/a.png --set texture.format=bc5 --set texture.srgb=true
expect_said "E_IMPORT_SETTINGS" "code"
expect_said "srgb true is not possible with formats bc4 and bc5" "message"
cmp -s "$KILN_CLI_TMP/meta.before" assets/a.png.meta || fail "reimport with uncookable settings rewrote the .meta: $(cat assets/a.png.meta)"
k 2 reimport --json assets/a.png --set texture.format=bc5 --set texture.srgb=true
expect_grep "srgb true is not possible with formats bc4 and bc5" "$OUT" "message (json)"
expect_grep '"/import/texture/srgb"' "$OUT" "pointer (json)"
cmp -s "$KILN_CLI_TMP/meta.before" assets/a.png.meta || fail "reimport --json with uncookable settings rewrote the .meta"
k 0 report --json
expect_eq "$(j "d['assets'][0]['state']")" up_to_date "report after the refused reimport"
