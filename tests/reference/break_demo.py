#!/usr/bin/env python3
"""break_demo.py OUT_DIR — what compare.py's measures give for deliberately broken SOURCES
(issue 20 item 5 wants thresholds that catch each): every case edits a corpus glTF (in OUT_DIR),
renders the original and the broken copy with one camera (--bounds of the original), and prints
IoU and mean colour difference. A baseline for the thresholds of the Vulkan-against-three.js
comparison; the numbers are in docs/rendering-reference.md. Needs KILN_CORPUS and python3-pil."""
import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

BG = (32, 64, 96)
COMMON = ["--size", "256", "256", "--background", "32,64,96"]


def copy_model(src_gltf, out, name):
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.dirname(src_gltf), d)
    path = os.path.join(d, os.path.basename(src_gltf))
    with open(path) as f:
        return d, path, json.load(f)


def mirrored_uv(doc, d):
    for m in doc["materials"]:
        ti = m["pbrMetallicRoughness"]["baseColorTexture"]
        ti.setdefault("extensions", {})["KHR_texture_transform"] = {"offset": [1, 0],
                                                                     "scale": [-1, 1]}
    doc.setdefault("extensionsUsed", []).append("KHR_texture_transform")


def lost_transform(doc, d):
    for m in doc["materials"]:
        for ti in [m.get("pbrMetallicRoughness", {}).get("baseColorTexture")]:
            if ti and "extensions" in ti:
                ti["extensions"].pop("KHR_texture_transform", None)


def scale_1pct(doc, d):
    s = doc["scenes"][doc.get("scene", 0)]
    doc["nodes"].append({"scale": [1.01, 1.01, 1.01], "children": s["nodes"]})
    s["nodes"] = [len(doc["nodes"]) - 1]


def flipped_winding(doc, d):
    for mesh in doc["meshes"]:
        for p in mesh["primitives"]:
            a = doc["accessors"][p["indices"]]
            bv = doc["bufferViews"][a["bufferView"]]
            fmt = {5121: "B", 5123: "H", 5125: "I"}[a["componentType"]]
            size = struct.calcsize(fmt)
            path = os.path.join(d, doc["buffers"][bv["buffer"]]["uri"])
            data = bytearray(open(path, "rb").read())
            off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
            idx = list(struct.unpack_from(f"<{a['count']}{fmt}", data, off))
            for t in range(0, len(idx) - 2, 3):
                idx[t + 1], idx[t + 2] = idx[t + 2], idx[t + 1]
            struct.pack_into(f"<{a['count']}{fmt}", data, off, *idx)
            open(path, "wb").write(data)


def dropped_morph(doc, d):
    for mesh in doc["meshes"]:
        mesh.pop("weights", None)
        for p in mesh["primitives"]:
            p.pop("targets", None)
    doc.pop("animations", None)


CASES = [
    # name, model, edit, extra render options
    ("mirrored UV", "BoxTextured/glTF/BoxTextured.gltf", mirrored_uv, []),
    ("lost texture transform", "TextureTransformTest/glTF/TextureTransformTest.gltf",
     lost_transform, ["--camera", "front"]),
    ("positions scaled 1%", "BoxTextured/glTF/BoxTextured.gltf", scale_1pct, []),
    ("flipped winding", "BoxTextured/glTF/BoxTextured.gltf", flipped_winding, []),
    ("dropped morph (t=1)", "AnimatedMorphCube/glTF/AnimatedMorphCube.gltf", dropped_morph,
     ["--time", "1"]),
]


def render(jobs, out):
    path = os.path.join(out, "jobs.json")
    json.dump(jobs, open(path, "w"))
    p = subprocess.run(["node", os.path.join(HERE, "render_threejs.mjs"), "--batch", path],
                       capture_output=True, text=True)
    if p.returncode == 77:
        print("SKIP: " + p.stderr.strip())
        sys.exit(77)
    return [json.loads(x) for x in p.stdout.splitlines() if x.strip()]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    corpus = os.path.join(os.environ["KILN_CORPUS"], "gltf")
    pairs = []
    originals = [[os.path.join(corpus, m), os.path.join(out, f"orig{i}.png")] + COMMON + x
                 for i, (_, m, _, x) in enumerate(CASES)]
    infos = render(originals, out)
    jobs = []
    for i, ((name, m, edit, extra), info) in enumerate(zip(CASES, infos)):
        d, path, doc = copy_model(os.path.join(corpus, m), out, f"case{i}")
        edit(doc, d)
        json.dump(doc, open(path, "w"))
        b = info["bounds"]
        jobs.append([path, os.path.join(out, f"broken{i}.png"), "--bounds",
                     ",".join(map(str, b["min"] + b["max"]))] + COMMON + extra)
        pairs.append((name, m, originals[i][1], jobs[-1][1]))
    # Skin at the wrong pose: the same file 0.1 s later in its clip.
    cm = os.path.join(corpus, "CesiumMan/glTF/CesiumMan.gltf")
    jobs += [[cm, os.path.join(out, "skin0.png")] + COMMON,
             [cm, os.path.join(out, "skin1.png"), "--time", "0.1"] + COMMON]
    pairs.append(("skin 0.1 s off", "CesiumMan/glTF/CesiumMan.gltf", jobs[-2][1], jobs[-1][1]))
    render(jobs, out)
    print("| break | model | IoU | mean colour difference |")
    print("|---|---|---|---|")
    for name, m, a, b in pairs:
        r, diff = compare.compare(compare.load(a), compare.load(b), BG)
        diff.save(b.replace(".png", "_diff.png"))
        print(f"| {name} | {m.split('/')[0]} | {r['iou']:.4f} | {r['mean_abs_diff']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
