# A cooked file that no longer matches its cache manifest (same size, one byte changed: the
# import's look-up, which answers from the record index, cannot see it) is found by kiln pack, which
# warns, removes the entry, cooks the asset again and packs the new entry: the pack is byte for
# byte the one made before the damage, and the damage is gone (report --verify). A pack that fails
# (an asset whose source no longer imports) leaves the earlier pack byte for byte as it was, and
# no temporary file beside it.
mkpng assets/a.png 16 16 1
mkpng assets/b.png 16 16 2
k 0 pack --all -o game.kpak
cp game.kpak before.kpak
k 0 import assets/b.png --json
entry=$(j "d['records'][0]['entry']")
chmod u+w "$entry/texture.ktx2"
size=$(wc -c <"$entry/texture.ktx2")
flip_byte "$entry/texture.ktx2" $((size - 1))
k 0 report --verify
show
k 0 pack --all -o game.kpak
show_err
cmp -s game.kpak before.kpak || fail "the pack made over the repaired entry differs from the first"
k 0 report --verify
show
# a failing pack keeps the old one
printf 'not a png' >assets/b.png
k 1 pack --all -o game.kpak
show_err
cmp -s game.kpak before.kpak || fail "the earlier pack changed"
expect_eq "$(ls -A)" "$(printf '.kiln\nassets\nbefore.kpak\ngame.kpak')" "files beside the pack"
k 1 pack --all -o game.kpak --json
expect_eq "$(j "d['error']['code']")" E_IMPORT_UNSUPPORTED "error code"
