# A file outside the asset root is refused with E_ASSET_IO (exit 1), however it is named: from the
# project folder, with .., or absolute. A symbolic link inside the root is an asset of the root
# when it points inside it; one that points outside is refused too, unread (the read rule,
# docs/cache.md "What kiln reads"; until issue 18 it was imported, wherever it pointed).
mkpng outside.png 4 4 1
mkpng assets/a.png 4 4 2
ln -s ../outside.png assets/link.png
k 1 import outside.png
show
k 1 import --json assets/../outside.png
show
k 1 import --json "$W/outside.png"
expect_eq "$(j "d['failed'][0]['error']['code']")" E_ASSET_IO "absolute path outside the root"
expect_grep "is not inside the asset root" "$OUT" "absolute path outside the root"
k 1 import --root assets --json /etc/hostname
expect_eq "$(j "d['totals']['failed']")" 1 "a system file"
[ ! -e .kiln/cache/objects ] || [ -z "$(ls .kiln/cache/objects)" ] || fail "a refused import wrote an entry"
k 1 import --json assets/link.png
expect_eq "$(j "d['failed'][0]['error']['code']")" E_ASSET_IO "a link inside the root leading outside"
expect_grep "assets/link.png: resolves to .*/outside.png, outside .*/assets; not read" "$OUT" "a link leading outside"
ln -s a.png assets/inside.png
k 0 import --json assets/inside.png
expect_eq "$(j "d['records'][0]['path']")" inside.png "a link inside the root to a file of the root is an asset of the root"
