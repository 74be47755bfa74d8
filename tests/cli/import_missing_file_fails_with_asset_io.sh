# A path that names no file fails with E_ASSET_IO saying it does not exist (exit 1), whether it is
# given from the project folder or relative to the asset root; the other paths are still imported.
mkpng assets/a.png 4 4 1
k 1 import assets/missing.png
show
show_err
k 1 import --json assets/missing.png
show
# Relative to the root ("missing.png" exists neither from here nor under assets/): the message
# must say it does not exist, not that it lies outside the root.
k 1 import --json missing.png
expect_eq "$(j "d['failed'][0]['error']['code']")" E_ASSET_IO "missing.png, code"
expect_grep "does not exist" "$OUT" "missing.png, message"
k 1 import assets/a.png assets/missing.png
show
k 1 import --json assets/a.png assets/missing.png
expect_eq "$(j "[r['status'] for r in d['records']]")" '["cached", "failed"]' "records of a mixed import"
expect_eq "$(j "d['totals']")" '{"assets": 2, "cached": 1, "cached_with_warnings": 0, "failed": 1, "imported": 0, "unsupported": 0}' "totals of a mixed import"
