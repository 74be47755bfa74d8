# cache gc --max-size removes the least recently used entries until the cache fits; --max-size 1
# removes them all. The assets are then not imported (their sources did not change: not stale),
# and the next import cooks them again.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
mkpng assets/c.png 8 8 3
k 0 import --all
# a is used last (a cache hit refreshes its entry), so b and c are older.
sleep 0.05
k 0 import assets/a.png
k 0 report --json
size=$(j "d['cache']['size']")
k 0 cache gc --max-size $((size - 1)) --json
expect_eq "$(j "[r['reason'] for r in d['removed']]")" '["lru"]' "one entry evicted"
expect_eq "$(j "d['kept']")" 2 "two kept"
k 0 report --json
expect_eq "$(j "d['assets'][0]['state']")" up_to_date "the most recently used entry stays"
k 0 cache gc --max-size 1
show
k 0 cache gc --max-size 1 --json
expect_eq "$(j "(d['removed'], d['kept'], d['max_size'])")" '[[], 0, 1]' "empty cache"
[ -z "$(find .kiln/cache/objects -mindepth 2 -maxdepth 2)" ] || fail "entries left after --max-size 1"
k 0 report
show
k 0 report --json
expect_eq "$(j "[r['state'] for r in d['assets']]")" '["not_imported", "not_imported", "not_imported"]' "report after eviction"
k 0 import --all --json
expect_eq "$(j "[r['status'] for r in d['records']]")" '["imported", "imported", "imported"]' "import after eviction"
