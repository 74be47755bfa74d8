# A cooked file that no longer matches its cache manifest (same size, one byte changed) stops
# kiln pack with E_CACHE_CORRUPT naming the artifact and the entry; the earlier pack is left
# byte for byte as it was, and no temporary file is left beside it.
mkpng assets/a.png 16 16 1
mkpng assets/b.png 16 16 2
k 0 pack --all -o game.kpak
cp game.kpak before.kpak
k 0 import assets/b.png --json
entry=$(j "d['records'][0]['entry']")
chmod u+w "$entry/texture.ktx2"
size=$(wc -c <"$entry/texture.ktx2")
flip_byte "$entry/texture.ktx2" $((size - 1))
k 1 pack --all -o game.kpak
show_err
cmp -s game.kpak before.kpak || fail "the earlier pack changed"
expect_eq "$(ls -A)" "$(printf '.kiln\nassets\nbefore.kpak\ngame.kpak')" "files beside the pack"
k 1 pack --all -o game.kpak --json
expect_eq "$(j "d['error']['code']")" E_CACHE_CORRUPT "error code"
