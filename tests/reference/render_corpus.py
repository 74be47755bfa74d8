#!/usr/bin/env python3
"""render_corpus.py CORPUS_GLTF_DIR OUT_DIR — renders every .gltf/.glb under the folder with
render_threejs.mjs --batch (one Chromium; 256x256, auto camera, time 0, background 32,64,96) and
prints one line per file: "ok MILLISECONDS PATH" or "FAIL PATH: MESSAGE", then a summary. Beside
each PNG its info line (.png.json: bounds, camera, warnings, page errors). Used for the lists in
docs/rendering-reference.md."""
import json
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs
                   if f.endswith((".gltf", ".glb")))
    jobs, rels = [], []
    for f in files:
        rel = os.path.relpath(f, src)
        png = os.path.join(out, rel.replace("/", "_").replace(" ", "_") + ".png")
        jobs.append([f, png, "--size", "256", "256", "--background", "32,64,96",
                     "--info", png + ".json"])
        rels.append(rel)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as t:
        json.dump(jobs, t)
    try:
        p = subprocess.run([os.environ.get("KILN_NODE", "node"),
                            os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "render_threejs.mjs"), "--batch", t.name],
                           capture_output=True, text=True)
    finally:
        os.unlink(t.name)
    if p.returncode not in (0, 1):
        print(p.stderr, file=sys.stderr)
        return p.returncode
    lines = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
    ok = 0
    for rel, info in zip(rels, lines):
        if "error" in info:
            print(f"FAIL {rel}: {info['error']}")
        else:
            ok += 1
            print(f"ok {info['time_ms']['total']} {rel}")
    print(f"{ok} of {len(rels)} rendered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
