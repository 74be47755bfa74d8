# kiln pack with broken assets lists every failure, not only the first (three broken .meta files
# took three runs), packs nothing and says that --keep-going packs the rest; --keep-going packs the
# assets that did not fail and exits 1. An argument that names no asset is a failure of that asset
# like a failed import; a damaged cache entry is not (pack cooks it again: issue 18). --json lists every failure with its code, path
# and message. One asset asked for exits with its own status, as kiln import PATH does.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
mkpng assets/c.png 8 8 3
mkpng assets/d.png 8 8 4
mkpng assets/e.png 8 8 5
printf '{bad' >assets/b.png.meta
printf '{"import": {"texture": {"colour": 1}}}' >assets/c.png.meta
printf '{"import": {"texture": {"max_size": 2}}}' >assets/d.png.meta
k 1 pack --all -o game.kpak
show_err
[ ! -e game.kpak ] || fail "a pack was written although assets failed"
k 1 pack --all -o game.kpak --json
j "(d['error'], [(f['path'], f['error']['code'], f['error'].get('json_pointer')) for f in d['failed']], d['totals'])"
k 1 pack --all -o game.kpak --keep-going
show
show_err
k 0 pack --verify game.kpak
k 1 pack --all -o game.kpak --keep-going --json
j "(sorted(e['name'] for e in d['entries']), d['totals']['assets'], d['totals']['failed'], [f['path'] for f in d['failed']])"
# Arguments: one names no asset; the others are packed with --keep-going.
k 1 pack a.png missing.png e.png -o two.kpak
show_err
[ ! -e two.kpak ] || fail "a pack was written although an argument failed"
k 1 pack a.png missing.png e.png -o two.kpak --keep-going --json
j "(sorted(e['name'] for e in d['entries']), [(f['path'], f['error']['code']) for f in d['failed']])"
# One asset asked for: its own status, 2 for settings.
k 2 pack b.png
show_err
# A damaged cache entry is cooked again, with a warning: every asset is packed.
rm assets/b.png.meta assets/c.png.meta assets/d.png.meta
k 0 pack --all -o game.kpak
k 0 import assets/e.png --json
entry=$(j "d['records'][0]['entry']")
chmod u+w "$entry/texture.ktx2"
flip_byte "$entry/texture.ktx2" $(($(wc -c <"$entry/texture.ktx2") - 1))
k 0 pack --all -o game.kpak --keep-going
show_err
k 0 inspect game.kpak --json
j "sorted(e['name'] for e in d['entries'])"
