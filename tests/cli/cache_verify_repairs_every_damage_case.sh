# Damage that keeps every size (so the look-ups of import and report, which compare sizes or
# answer from the record index, cannot see it) is found by `kiln cache verify` and
# `kiln report --verify`, and `kiln cache verify --repair` removes each damaged entry and cooks
# its asset again: a same-size flip of an output, a manifest whose sha256 or xxh3_128 was zeroed,
# a garbage, empty or truncated manifest, a manifest naming another key, and a record whose source
# digest was edited to another file's (the stat shortcut trusts it). After the repair nothing is
# damaged and the runtime loads every asset from the cache (issue 18 items 1 and 7).
for i in 1 2 3 4 5 6 7 8; do mkpng assets/t$i.png 16 16 $i; done
mktri assets/tri.gltf
touch -d '2020-01-01 00:00:00' assets/*   # old files: the stat shortcut trusts their records
k 0 import --all --json
entry() { j "[r['entry'] for r in d['records'] if r['path'] == '$1'][0]"; }
for i in 1 2 3 4 5 6 7; do eval "e$i=\$(entry t$i.png)"; done
em=$(entry tri.gltf)
key1=$(basename "$e1")
chmod -R u+w .kiln/cache/objects
# 1: one byte of an output flipped, size unchanged
flip_byte "$e1/texture.ktx2" 100
# 2, 3: a digest zeroed in the manifest
$PY - "$e2/manifest.json" "$e3/manifest.json" <<'PYEOF'
import json, sys
for path, field in zip(sys.argv[1:], ("sha256", "xxh3_128")):
    m = json.load(open(path))
    m["outputs"][0][field] = "0" * len(m["outputs"][0][field])
    open(path, "w").write(json.dumps(m))
PYEOF
# 4, 5, 6: a garbage, an empty and a truncated manifest
printf 'garbage, not JSON' >"$e4/manifest.json"
: >"$e5/manifest.json"
head -c 40 "$e6/manifest.json" >"$KILN_CLI_TMP/m" && cat "$KILN_CLI_TMP/m" >"$e6/manifest.json"
# 7: a manifest naming another key
$PY - "$e7/manifest.json" "$key1" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["key"] = sys.argv[2]
open(sys.argv[1], "w").write(json.dumps(m))
PYEOF
# one output of the model flipped too: an entry of several outputs
flip_byte "$em/$(ls "$em" | grep -v manifest.json | head -1)" 20
# 8: the record of t8.png given t1.png's source digest (the file's stat left as recorded)
guid8=$($PY -c "import hashlib; print(hashlib.sha256(b'kiln-guid\0t8.png').hexdigest()[:32])")
$PY - ".kiln/cache/assets/$guid8.json" "$($PY -c "import hashlib,sys; print(hashlib.sha256(open('assets/t1.png','rb').read()).hexdigest())")" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["source"]["sha256"] = sys.argv[2]
open(sys.argv[1], "r+").write(json.dumps(r, indent=2, sort_keys=True) + "\n")
PYEOF

# What kiln said before: up to date and cached (the friction); the broken manifests read as absent.
k 0 report
show
k 0 import assets/t1.png assets/t2.png assets/t3.png assets/t8.png
show
# report --verify trusts nothing recorded.
k 0 report --verify
show
k 0 report --verify --json
j "sorted((r['path'], r['state']) for r in d['assets'])"
j "[r['why'][0]['what'] for r in d['assets'] if r['path'] == 't8.png']"
j "d['totals']"
k 1 report --verify --check
# cache verify lists every damaged entry with its reason, and the record.
k 1 cache verify
show | sort   # entries come in key order, which the pipeline version decides
k 1 cache verify --json
j "sorted((x['what'], x.get('assets'), x['repaired']) for x in d['damaged'])"
j "d['totals']"
k 0 cache verify --repair --json
j "sorted((c['path'], c['status']) for c in d['cooked'])"
j "d['totals']"
# Repaired: nothing damaged, nothing stale, every entry whole, every asset loads.
k 0 report --verify
show
k 0 cache verify
show
k 0 import --all
show
if [ -x "${KILN_RT_EXAMPLE:-}" ]; then
    "$KILN_RT_EXAMPLE" "$W/.kiln/cache" t1.png#texture t2.png#texture t3.png#texture \
        t4.png#texture t5.png#texture t6.png#texture t7.png#texture t8.png#texture \
        tri.gltf#scene >"$OUT" 2>"$ERR" || { cat "$ERR" >&2; fail "the runtime did not load every asset"; }
    expect_eq "$(grep -c ': ready' "$OUT")" 9 "assets the runtime loaded"
fi
