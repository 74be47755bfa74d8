# Cache folders that are symbolic links are refused (entries, records and gc's deletions would
# land outside the allowed folders), and special files never block kiln.
mkpng assets/a.png 8 8 1
mkdir -p "$KILN_CLI_TMP/outside" .kiln/cache
ln -s "$KILN_CLI_TMP/outside" .kiln/cache/objects
k 2 import --json --all
expect_eq "$(j "d['error']['code'] if 'error' in d else d['failed'][0]['error']['code']")" E_OUTPUT_REFUSED "symlinked objects folder"
[ -z "$(ls "$KILN_CLI_TMP/outside")" ] || fail "an entry was written through the symlink"
rm .kiln/cache/objects
k 0 import --all
mkfifo assets/pipe.png
k 1 inspect --json assets/pipe.png
expect_eq "$(j "d['error']['code']")" E_ASSET_IO "a FIFO"
