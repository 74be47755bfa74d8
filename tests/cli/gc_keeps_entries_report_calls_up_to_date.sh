# gc keeps every entry an asset points to now, even when its record is stale: `kiln meta` gives a
# never-meta'd asset a fresh GUID (its old record no longer matches), yet report still calls it
# up to date, so gc must not remove its entry.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 4 4 2
k 0 import --all
k 0 meta assets/a.png
k 0 report --json
expect_eq "$(j "[r['state'] for r in d['assets']]")" '["up_to_date", "up_to_date"]' "before gc"
k 0 cache gc --json
expect_eq "$(j "len(d['removed'])")" 0 "nothing removed"
k 0 report --json
expect_eq "$(j "[r['state'] for r in d['assets']]")" '["up_to_date", "up_to_date"]' "after gc"
