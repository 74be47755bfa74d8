# import --all cooks every source of a small tree (PNG, TGA, a subfolder; a .txt is ignored) and
# report --json then says every one is up_to_date, with its key and outputs.
mkpng assets/a.png 8 8 1
mkpng assets/sub/b.png 16 4 2
mktga assets/sub/c.tga
echo "readme" >assets/notes.txt
k 0 report
show
k 0 import --all
show
k 0 report
show
k 0 report --json
expect_eq "$(j "[(r['path'], r['state']) for r in d['assets']]")" \
    '[["a.png", "up_to_date"], ["sub/b.png", "up_to_date"], ["sub/c.tga", "up_to_date"]]' "states"
expect_eq "$(j "d['totals']")" \
    '{"assets": 3, "invalid": 0, "not_imported": 0, "stale": 0, "unsupported": 0, "up_to_date": 3}' "totals"
expect_eq "$(j "[o['name'] for r in d['assets'] for o in r['outputs']]")" \
    '["a.png#texture", "sub/b.png#texture", "sub/c.tga#texture"]' "output names"
expect_eq "$(j "[(r['summary']['width'], r['summary']['height'], r['summary']['levels']) for r in d['assets']]")" \
    '[[8, 8, 4], [16, 4, 5], [2, 2, 2]]' "sizes and levels"
expect_eq "$(j "d['root'] == '$W/assets' and d['cache']['path'] == '$W/.kiln/cache'")" true "folders"
# Every output the report names is in the cache with that size.
expect_eq "$(j "all(__import__('os').path.getsize('$W/.kiln/cache/objects/%s/%s/%s' % (r['key'][:2], r['key'], o['file'])) == o['size'] for r in d['assets'] for o in r['outputs'])")" true "outputs on disk"
# The import document agrees with the report.
k 0 import --all --json
expect_eq "$(j "[r['status'] for r in d['records']]")" '["cached", "cached", "cached"]' "statuses"
