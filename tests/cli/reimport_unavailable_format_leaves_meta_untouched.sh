# reimport --set texture.format=bc7 in a build without a BC7 encoder: exit 2, E_IMPORT_SETTINGS
# "format bc7 is not available in this build" at /import/texture/format, and the .meta is left
# exactly as it was (a value that cannot be cooked must not be written), the cache entry too.
mkpng assets/a.png 8 8 1
printf '{"guid": "0123456789abcdef0123456789abcdef", "import": {"texture": {"quality": "fast"}}}\n' >assets/a.png.meta
cp assets/a.png.meta "$KILN_CLI_TMP/meta.before"
k 0 import assets/a.png
k 2 reimport assets/a.png --set texture.format=bc7
expect_said "E_IMPORT_SETTINGS" "code"
expect_said "format bc7 is not available in this build" "message"
cmp -s "$KILN_CLI_TMP/meta.before" assets/a.png.meta || fail "reimport with an unavailable format rewrote the .meta: $(cat assets/a.png.meta)"
k 2 reimport --json assets/a.png --set texture.format=bc7
expect_grep "format bc7 is not available in this build" "$OUT" "message (json)"
expect_grep '"/import/texture/format"' "$OUT" "pointer (json)"
cmp -s "$KILN_CLI_TMP/meta.before" assets/a.png.meta || fail "reimport --json with an unavailable format rewrote the .meta"
k 0 report --json
expect_eq "$(j "d['assets'][0]['state']")" up_to_date "report after the refused reimport"
