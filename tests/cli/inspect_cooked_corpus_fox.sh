# The corpus Fox imported as a model, then every cooked artifact of its entry inspected: each
# container passes its kind's reader and the schema, and every reference inside resolves to an
# artifact of the same entry by the asset ids `import --json` lists — the scene's mesh primitive,
# skeleton and clips, the mesh's material, the material's image, each clip's skeleton. The scene
# holds the 26 nodes under a synthetic root, parents first. No transcript is pinned (the mesh,
# skeleton and clip layouts belong to their cooks). Skipped without the corpus.
src=${KILN_CORPUS:-}/gltf/Fox/glTF-Binary/Fox.glb
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
cp "$src" assets/Fox.glb
k 0 import --json assets/Fox.glb
cp "$OUT" import.json
entry=$(j "d['records'][0]['entry']")
for f in $(j "' '.join(o['file'] for o in d['records'][0]['outputs'] if not o['file'].endswith('.ktx2'))"); do
    k 0 inspect --json "$entry/$f"
    cp "$OUT" "inspect-$f.json"
done
$PY - import.json inspect-*.json <<'PY' || fail "references between the Fox's artifacts"
import json, sys
rec = json.load(open(sys.argv[1]))["records"][0]
ids = {"0x" + o["asset_id"]: o["label"] for o in rec["outputs"]}
docs = {d["file"].rsplit("/", 1)[1]: d for d in (json.load(open(p)) for p in sys.argv[2:])}
def label(i, want):
    assert ids.get(i, "").startswith(want), f"{i} names {ids.get(i)}, not a {want}"
    return ids[i]
kinds = sorted(d["kind"] for d in docs.values())
assert kinds == ["CLIP", "CLIP", "CLIP", "MATL", "MESH", "SCEN", "SKEL"], kinds
scene = next(d["scene"] for d in docs.values() if d["kind"] == "SCEN")
nodes = scene["nodes"]
assert len(nodes) == 27 and scene["synthetic_root"] and nodes[0]["synthetic"], len(nodes)
assert all(n["parent"] is None if i == 0 else n["parent"] < i for i, n in enumerate(nodes))
assert sorted(n["source_node"] for n in nodes[1:]) == list(range(26))
drawn = [n for n in nodes if n["mesh"] is not None]
assert len(drawn) == 1 and [label(p, "mesh0/") for p in drawn[0]["primitives"]] == ["mesh0/prim0"]
assert label(drawn[0]["skeleton"], "skeleton") == "skeleton0"
assert [label(c, "clip") for c in scene["clips"]] == ["clip0", "clip1", "clip2"]
mesh = next(d["mesh"] for d in docs.values() if d["kind"] == "MESH")
assert label(mesh["material"], "material") == "material0"
mat = next(d["material"] for d in docs.values() if d["kind"] == "MATL")
assert label(mat["textures"]["base_color"]["image"], "image") == "image0"
assert all(mat["textures"][s] is None for s in ("metallic_roughness", "normal", "occlusion", "emissive"))
for d in docs.values():
    if d["kind"] == "CLIP":
        assert label(d["clip"]["skeleton"], "skeleton") == "skeleton0"
skel = next(d["skeleton"] for d in docs.values() if d["kind"] == "SKEL")
assert skel["joint_count"] == 24
print("scene: %d nodes; mesh0/prim0 -> material0 -> image0; skeleton0 used by the node and 3 clips"
      % len(nodes))
PY
