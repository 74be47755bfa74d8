# kiln texture IN OUT.ktx2 converts one image without a project (no .kiln/, no cache): the same
# settings and code path as an import, so the bytes equal the imported entry's texture.ktx2.
mkpng assets/a.png 13 7 3
k 0 texture assets/a.png out.ktx2
show
[ ! -e .kiln ] || fail "kiln texture made an output folder"
k 0 inspect --json out.ktx2
expect_eq "$(j "(d['format'], d['width'], d['height'], len(d['levels']))")" '["BC7_SRGB", 13, 7, 4]' "default format"
k 0 texture --json assets/a.png fast.ktx2 --format bc1 --quality fast --set texture.mipmaps=false
expect_eq "$(j "(d['summary']['format'], d['summary']['levels'], d['settings']['quality'])")" '["bc1", 1, "fast"]' "options"
k 0 inspect --json out.ktx2 --compare assets/a.png
expect_eq "$(j "d['compare']['channels'] == 3 and 30 < d['compare']['psnr'] <= 99")" true "PSNR of level 0 against the source"
k 0 texture assets/a.png exact.ktx2 --format rgba8
k 0 inspect --json exact.ktx2 --compare assets/a.png
expect_eq "$(j "d['compare']['psnr']")" 99.0 "rgba8 is lossless"
k 2 inspect --json assets/a.png --compare assets/a.png
expect_eq "$(j "d['error']['code']")" E_USAGE "--compare on an image"
k 0 import --json assets/a.png
entry=$(j "d['records'][0]['entry']")
cmp -s out.ktx2 "$entry/texture.ktx2" || fail "kiln texture and kiln import made different bytes"
k 0 texture --json assets/a.png mobile.ktx2 --platform mobile
expect_eq "$(j "d['summary']['format']")" astc4x4 "format auto on the mobile platform"
k 2 texture assets/a.png bad.ktx2 --set texture.max_size=2
expect_said "E_IMPORT_SETTINGS" "bad setting"
[ ! -e bad.ktx2 ] || fail "a refused conversion wrote its output"
k 2 texture --json assets/a.png
expect_eq "$(j "d['error']['code']")" E_USAGE "one path"
k 1 texture --json missing.png out2.ktx2
expect_eq "$(j "d['error']['code']")" E_ASSET_IO "missing input"
