# import --force over an entry whose stored bytes fail their own digests (a flipped byte, a zeroed
# sha256) replaces the entry with the new cook, with a warning; over an entry whose bytes pass
# their digests but differ from the new cook (a cook that is not deterministic: made here by
# rewriting an output and its manifest's digest), it keeps the stored entry, as before.
mkpng assets/a.png 16 16 1
mkpng assets/b.png 16 16 2
mkpng assets/c.png 16 16 3
k 0 import --all --json
entry() { j "[r['entry'] for r in d['records'] if r['path'] == '$1'][0]"; }
ea=$(entry a.png)
eb=$(entry b.png)
ec=$(entry c.png)
chmod -R u+w .kiln/cache/objects
flip_byte "$ea/texture.ktx2" 100
$PY - "$eb/manifest.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["outputs"][0]["sha256"] = "0" * 64
open(sys.argv[1], "w").write(json.dumps(m))
PYEOF
flip_byte "$ec/texture.ktx2" 100
$PY - "$ec/manifest.json" "$ec/texture.ktx2" <<'PYEOF'
import hashlib, json, sys
m = json.load(open(sys.argv[1]))
m["outputs"][0]["sha256"] = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
del m["outputs"][0]["xxh3_128"]  # optional: an older writer's manifest
open(sys.argv[1], "w").write(json.dumps(m))
PYEOF
k 1 cache verify
show
k 0 import --all --force
show
show_err | sort   # the assets are cooked in parallel
k 0 import --all --force --json
j "sorted((r['path'], r['unchanged']) for r in d['records'])"
k 0 cache verify
show
k 0 report --verify
show
