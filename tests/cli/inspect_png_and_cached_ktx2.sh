# inspect describes a source image and a KTX2 file from the cache; a file that is neither is an
# error document (exit 1).
mkpng assets/a.png 16 8 1
mktga assets/c.tga
k 0 inspect assets/a.png
show
k 0 inspect --json assets/a.png
show
k 0 inspect --json assets/c.tga
expect_eq "$(j "(d['format'], d['width'], d['height'], d['channels'], d['has_alpha'])")" '["tga", 2, 2, 3, false]' "TGA"
k 0 import --json assets/a.png
ktx=$(j "d['records'][0]['entry'] + '/texture.ktx2'")
k 0 inspect "$ktx"
show
k 0 inspect --json "$ktx"
expect_eq "$(j "(d['type'], d['format'], d['vk_format'], d['srgb'], d['supercompression'])")" '["ktx2", "BC7_SRGB", 146, true, "none"]' "KTX2"
expect_eq "$(j "[(l['width'], l['height'], l['size']) for l in d['levels']]")" '[[16, 8, 128], [8, 4, 32], [4, 2, 16], [2, 1, 16], [1, 1, 16]]' "levels"
expect_eq "$(j "d['writer'].startswith('kiln ')")" true "writer"
echo "plain text" >notes.txt
k 1 inspect --json notes.txt
show
k 1 inspect --json nothere.png
show
head -c 40 "$ktx" >cut.ktx2
k 1 inspect --json cut.ktx2
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "truncated KTX2"
k 2 inspect --json a b
expect_eq "$(j "d['error']['code']")" E_USAGE "two files"
