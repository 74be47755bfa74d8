#!/usr/bin/env python3
"""threejs_load.py — three.js loads what `kiln gltf` writes (issue 24 item 3).

Every model of the corpus that kiln imports is written as a quantized, meshopt-compressed GLB
(`kiln gltf IN OUT.glb --quantize --compress`); three.js' GLTFLoader (with its meshopt decoder)
in headless Chromium renders the source and the output unlit through
tests/reference/render_threejs.mjs, the output framed by the source's bounds; compare.py then
measures the silhouette IoU and the mean colour difference of the two pictures. Fails when an
output does not load, or when a pair whose source loads differs by more than the thresholds
below; prints one line per model. Exit 77 (skip) without the corpus, node, Chromium or the npm
packages. Environment: KILN_EXE, KILN_CORPUS, KILN_SOURCE_DIR.
"""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("KILN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "tests", "reference"))
from compare import compare, load  # noqa: E402

# Quantization moves vertices by up to half a grid step (14-bit positions, 12-bit UVs): edges
# move by a pixel here and there at 128 x 128, texels by a fraction of one.
MIN_IOU = 0.97
MAX_DIFF = 6.0
SIZE = "128"


def main():
    exe = os.environ.get("KILN_EXE")
    corpus = os.environ.get("KILN_CORPUS")
    if not exe or not corpus or not os.path.isdir(os.path.join(corpus, "gltf")):
        print("SKIP: no corpus or kiln")
        return 77
    models = []
    for root, dirs, files in os.walk(os.path.join(corpus, "gltf")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".gltf", ".glb")):
                models.append(os.path.join(root, f))
    # KILN_REFERENCE_MODELS=A,B,... (the Makefile's sanitizer and shared-library stages): those
    # models only; the plain build loads them all.
    only = os.environ.get("KILN_REFERENCE_MODELS", "all")
    if only != "all":
        keep = set(only.split(","))
        models = [m for m in models if os.path.splitext(os.path.basename(m))[0] in keep]
    tmp = tempfile.mkdtemp(prefix="kiln-gltf-threejs-")
    pairs = []
    for i, m in enumerate(models):
        out = os.path.join(tmp, "%d.glb" % i)
        r = subprocess.run([exe, "gltf", m, out, "--quantize", "--compress", "--json"],
                           capture_output=True, text=True)
        if r.returncode != 0:  # the broken files kiln's importer refuses (test gltf_out)
            continue
        # What the importer leaves out on purpose (points and lines) or repairs (non-finite
        # positions) is not drawn alike: such pairs are compared but cannot fail.
        said = [w for w in json.loads(r.stdout)["warnings"]
                if "dropped" in w or "NaN or infinite" in w]
        pairs.append((m, out, os.path.join(tmp, "%d.src.png" % i),
                      os.path.join(tmp, "%d.out.png" % i), said))
    render = os.path.join(SRC, "tests", "reference", "render_threejs.mjs")
    node = os.environ.get("KILN_NODE", "node")

    def batch(jobs, name):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            json.dump(jobs, f)
        try:
            r = subprocess.run([node, render, "--batch", path], capture_output=True, text=True,
                               timeout=900)
        except FileNotFoundError:
            return None
        if r.returncode == 77:
            return None
        lines = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
        return {x["model"]: x for x in lines}

    src = batch([[m, png, "--size", SIZE, SIZE] for m, _, png, _, _ in pairs], "sources.json")
    if src is None:
        print("SKIP: node, Chromium or tests/node's npm packages are missing")
        return 77
    jobs = []
    for m, out, _, png, _ in pairs:
        job = [out, png, "--size", SIZE, SIZE]
        b = src.get(m, {}).get("bounds")
        if b and not src[m].get("error") and None not in b["min"] + b["max"]:
            job += ["--bounds", ",".join(repr(float(v)) for v in b["min"] + b["max"])]
        jobs.append(job)
    got = batch(jobs, "outputs.json")
    failed = 0
    compared = 0
    excused = 0
    for m, out, spng, opng, said in pairs:
        name = os.path.relpath(m, os.path.join(corpus, "gltf"))
        o = got.get(out, {"error": "no result"})
        if o.get("error"):
            print("FAIL %s: three.js does not load the output: %s" % (name, o["error"]))
            failed += 1
            continue
        s = src.get(m, {"error": "no result"})
        if s.get("error"):
            print("ok   %s: output loads (the source does not: %s)" % (name, s["error"][:80]))
            continue
        res, _ = compare(load(spng), load(opng), (0, 0, 0, 255))
        compared += 1
        bad = res["iou"] < MIN_IOU or res["mean_abs_diff"] > MAX_DIFF
        tag = "FAIL" if bad else "ok  "
        note = ""
        if bad and said:
            tag, note = "ok  ", " (as the importer says: %s)" % said[0]
            excused += 1
        elif bad:
            failed += 1
        print("%s %s: IoU %.4f, mean difference %.2f%s" % (tag, name, res["iou"],
                                                            res["mean_abs_diff"], note))
    print("%d outputs load in three.js; %d compared with their source, %d differ where the "
          "importer says so, %d failed" % (len(pairs), compared, excused, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
