# libkiln_rt mounts a cache with one damaged entry: the mount succeeds, kiln-rt-example says what
# it skipped (the manifest and the reason, once), the other asset loads and the damaged one fails
# with E_CACHE_CORRUPT naming manifest.json once (E_FORMAT_VERSION for a manifest of version 99).
# Before, the whole mount failed: "cannot mount ...: E_CACHE_CORRUPT: <manifest>: <manifest>: in
# <manifest>". Run through kiln-rt-example; skipped when it was not built.
need_rt_example
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
k 0 import --all
C=$W/.kiln/cache
# a.png's entry: the key its record names
key=$($PY - "$C" <<'PYEOF'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/assets/*.json"):
    r = json.load(open(f))
    if r.get("path") == "a.png":
        print(r["key"])
PYEOF
)
[ -n "$key" ] || fail "no record of a.png"
M=$C/objects/$(printf %.2s "$key")/$key/manifest.json
cp "$M" "$KILN_CLI_TMP/good.json"
damage() { # a new file renamed over the manifest, as kiln publishes
    cat >"$M.new"
    mv -f "$M.new" "$M"
}
printf '{"kiln_manifest": 1, garbage' | damage
rt 1 "$C" 'a.png#texture' 'b.png#texture'
show
show_err
expect_eq "$(grep -c manifest.json "$OUT")" 1 "the failed load names the manifest once"
: | damage
rt 1 "$C" 'a.png#texture' 'b.png#texture'
show
show_err
sed 's/"kiln_manifest": 1/"kiln_manifest": 99/' "$KILN_CLI_TMP/good.json" | damage
rt 1 "$C" 'a.png#texture' 'b.png#texture'
show
show_err
damage <"$KILN_CLI_TMP/good.json"
rt 0 "$C" 'a.png#texture' 'b.png#texture'
show
show_err
