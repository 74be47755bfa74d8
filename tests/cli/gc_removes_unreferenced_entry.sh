# cache gc removes the entry no asset points to any more (the source changed and was imported
# again) and keeps the current ones; report still says up_to_date.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
k 0 import --all --json
old=$(j "d['records'][0]['key']")
keep=$(j "d['records'][1]['key']")
k 0 cache gc --json
expect_eq "$(j "(d['removed'], d['kept'])")" '[[], 2]' "nothing to remove yet"
mkpng assets/a.png 8 8 3
k 0 import --all --json
new=$(j "d['records'][0]['key']")
[ "$new" != "$old" ] || fail "a changed source kept its key"
[ -d ".kiln/cache/objects/$(echo "$old" | cut -c1-2)/$old" ] || fail "the old entry is not there before gc"
k 0 cache gc
show
k 0 cache gc --json
expect_eq "$(j "(d['removed'], d['kept'], d['max_size'])")" '[[], 2, 0]' "a second gc removes nothing"
[ ! -e ".kiln/cache/objects/$(echo "$old" | cut -c1-2)/$old" ] || fail "gc kept the unreferenced entry"
for key in "$new" "$keep"; do
    [ -f ".kiln/cache/objects/$(echo "$key" | cut -c1-2)/$key/manifest.json" ] || fail "gc removed the current entry $key"
done
k 0 report --json
expect_eq "$(j "[r['state'] for r in d['assets']]")" '["up_to_date", "up_to_date"]' "report after gc"
# Removed entries are listed with their reason; check that form too.
mkpng assets/b.png 8 8 4
k 0 import --all
k 0 cache gc --json
expect_eq "$(j "[(r['key'], r['reason']) for r in d['removed']]")" "[[\"$keep\", \"unreferenced\"]]" "removed list"
expect_eq "$(j "d['freed'] == sum(r['size'] for r in d['removed']) and d['freed'] > 0")" true "freed"
