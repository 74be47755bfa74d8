# reimport --set texture.mipmaps=false changes the output: the KTX2 in the cache has one level.
mkpng assets/a.png 8 8 1
k 0 import assets/a.png
k 0 reimport assets/a.png --set texture.mipmaps=false
show
k 0 reimport --json assets/a.png --set texture.mipmaps=false
expect_eq "$(j "d['record']['summary']['levels']")" 1 "summary levels"
ktx=$(j "d['record']['entry'] + '/' + d['record']['outputs'][0]['file']")
k 0 inspect --json "$ktx"
expect_eq "$(j "len(d['levels'])")" 1 "KTX2 levels"
expect_eq "$(j "(d['width'], d['height'], d['format'])")" '[8, 8, "BC7_SRGB"]' "KTX2 header"
# The first reimport, from 4 levels, said changed.
mkpng assets/b.png 8 8 2
k 0 import assets/b.png
k 0 reimport --json assets/b.png --set texture.mipmaps=false
expect_eq "$(j "(d['record']['status'], d['record']['unchanged'])")" '["imported", false]' "changed"
expect_eq "$(j "d['previous_key'] != d['record']['key']")" true "new key"
k 0 report --json
expect_eq "$(j "[r['state'] for r in d['assets']]")" '["up_to_date", "up_to_date"]' "report"
