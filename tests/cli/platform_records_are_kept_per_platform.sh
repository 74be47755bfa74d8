# Records are kept per platform (docs/cache.md "Records"): a mobile import after a desktop one
# leaves the desktop record as it was, so report (desktop) is still right and the runtime's
# default mount still loads the BC7 entry; report --platform mobile and a mount of the mobile
# platform answer for mobile (ASTC). Before, the mobile import replaced the one record: the
# default mount loaded ASTC.
mkpng assets/a.png 8 8 1
k 0 import --all
desktop=$(sed -n 's/.*"key": "\([0-9a-f]*\)".*/\1/p' .kiln/cache/assets/*.json)
k 0 import --all --platform mobile --json
mobile=$(j "d['records'][0]['key']")
[ "$desktop" != "$mobile" ] || fail "one key for both platforms"
expect_eq "$(sed -n 's/.*"key": "\([0-9a-f]*\)".*/\1/p' .kiln/cache/assets/*.json)" "$desktop" "desktop record intact"
k 0 report --json
expect_eq "$(j "(d['platform'], d['assets'][0]['state'], d['assets'][0]['key'] == '$desktop')")" '[null, "up_to_date", true]' "report (desktop)"
k 0 report --json --platform mobile
expect_eq "$(j "(d['platform'], d['assets'][0]['state'], d['assets'][0]['key'] == '$mobile')")" '["mobile", "up_to_date", true]' "report --platform mobile"
k 0 report --platform mobile
show
# A platform name is a folder of the cache: nothing else.
k 2 report --platform ../x
show_err
if [ -x "${KILN_RT_EXAMPLE:-}" ]; then
    # VkFormat 146: BC7 sRGB; 158: ASTC 4x4 sRGB
    "$KILN_RT_EXAMPLE" -v "$W/.kiln/cache" 'a.png#texture' >"$OUT" 2>"$ERR" || fail "default mount"
    grep -q "VkFormat 146," "$ERR" || fail "the default mount does not load BC7: $(cat "$ERR")"
    "$KILN_RT_EXAMPLE" -v --platform mobile "$W/.kiln/cache" 'a.png#texture' >"$OUT" 2>"$ERR" ||
        fail "mobile mount"
    grep -q "VkFormat 158," "$ERR" || fail "the mobile mount does not load ASTC: $(cat "$ERR")"
    "$KILN_RT_EXAMPLE" --platform ios "$W/.kiln/cache" 'a.png#texture' >"$OUT" 2>"$ERR" && fail "ios mounted"
    sed "s|$W|<W>|g" "$ERR"
fi
