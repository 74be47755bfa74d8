# kiln pack over a project of textures: two identical images share one payload, --compress none
# gives sizes that do not depend on libzstd, inspect lists every entry sorted by asset id, and
# pack --verify passes on the pack and names the entry whose payload a flipped byte damaged;
# a flipped byte in the table fails inspect; usage errors exit 2; an output named outside the
# project is written there (the user named it); --json documents match
# docs/schemas/pack.schema.json.
mkpng assets/a.png 16 16 1
mkpng assets/b.png 8 8 2
mkpng assets/copy/a.png 16 16 1
printf 'not an image\n' >assets/README.txt
k 0 pack --all --compress none
show
k 0 inspect .kiln/game.kpak
show
k 0 inspect .kiln/game.kpak --json
expect_eq "$(j "sorted(e['name'] for e in d['entries'] if e['shared'] or sum(1 for x in d['entries'] if x['payload'] == e['payload']) == 2)")" \
    '["a.png#texture", "copy/a.png#texture"]' "the two copies share one payload"
k 0 pack --verify .kiln/game.kpak
show
k 0 pack --all --compress zstd -o other.kpak --json
expect_eq "$(j "(d['compress'], d['totals']['entries'], d['totals']['payloads'], d['totals']['compressed'] <= 2, d['output'].endswith('/other.kpak'))")" \
    '["zstd", 3, 2, true, true]' "zstd pack totals"
k 0 pack --verify other.kpak --json
expect_eq "$(j "(d['ok'], d['entries'], d['payloads'])")" '[true, 3, 2]' "verify document"
# A byte of the last payload flipped: the table is intact, --verify names the entry.
size=$(wc -c <.kiln/game.kpak)
flip_byte .kiln/game.kpak $((size - 5))
k 0 inspect .kiln/game.kpak
k 1 pack --verify .kiln/game.kpak
show_err
k 1 pack --verify .kiln/game.kpak --json
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "verify error code"
# A byte of the table flipped: even inspect refuses it.
flip_byte other.kpak 70
k 1 inspect other.kpak
show_err
k 2 pack
show_err
k 2 pack --all a.png
show_err
k 2 pack --all --compress fast
show_err
k 2 pack --all -o
show_err
k 2 pack --verify other.kpak --all
show_err
k 0 pack --all -o "$KILN_CLI_TMP/outside.kpak"
[ -f "$KILN_CLI_TMP/outside.kpak" ] || fail "no pack written outside the project where -o said"
k 1 pack --verify missing.kpak
show_err
# --platform: the assets are imported with that platform's overrides (ASTC on mobile).
k 0 pack --all --platform mobile -o mobile.kpak --json
expect_eq "$(j "(d['platform'], d['totals']['entries'])")" '["mobile", 3]' "platform pack"
k 0 inspect mobile.kpak --json
expect_eq "$(j "d['entry_count']")" 3 "platform pack entries"
