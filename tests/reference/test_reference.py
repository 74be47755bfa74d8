#!/usr/bin/env python3
"""test_reference.py — CTest driver for the three.js reference renderer and compare.py.

    test_reference.py compare
    test_reference.py render MODEL --min-frac F --max-frac G [--twice] [--uniform r,g,b]
    test_reference.py anim MODEL T0 T1

Exit 0 pass, 1 fail, 77 skip (Chromium, node, the npm packages or the corpus missing).
"""
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

BG = (32, 64, 96)
SIZE = 192


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def skip(msg):
    print(f"SKIP: {msg}")
    sys.exit(77)


def test_compare():
    """Synthetic images whose IoU and colour difference are known by construction."""
    w, h = 10, 8
    bg = (10, 20, 30)
    a = Image.new("RGBA", (w, h), bg + (255,))
    b = Image.new("RGBA", (w, h), bg + (255,))
    # A: columns 0..5 of rows 0..3 (24 px) colour (100,100,100); B: columns 3..8 of rows 0..3
    # (24 px) colour (110,90,100). Overlap: columns 3..5 (12 px); union 36 px.
    for y in range(4):
        for x in range(6):
            a.putpixel((x, y), (100, 100, 100, 255))
        for x in range(3, 9):
            b.putpixel((x, y), (110, 90, 100, 255))
    r, diff = compare.compare(a, b, bg)
    # Over the union: 12 overlap px differ by (10,10,0); 12 A-only px differ from the background
    # by (90,80,70); 12 B-only px by (100,70,70). Per channel mean over 36 px:
    exp_rgb = [(12 * 10 + 12 * 90 + 12 * 100) / 36, (12 * 10 + 12 * 80 + 12 * 70) / 36,
               (12 * 0 + 12 * 70 + 12 * 70) / 36]
    checks = [
        (r["pixels_a"], 24), (r["pixels_b"], 24), (r["intersection"], 12), (r["union"], 36),
        (r["iou"], 12 / 36), (r["mean_abs_diff_rgb"], exp_rgb),
        (r["mean_abs_diff"], sum(exp_rgb) / 3), (r["max_abs_diff"], 100),
    ]
    for got, want in checks:
        if got != want:
            fail(f"compare: got {got}, want {want} in {r}")
    # Diff image: red A only, blue B only, grey 4*max|A-B| on the overlap, background elsewhere.
    for (x, y), want in [((0, 0), (255, 0, 0)), ((8, 3), (0, 0, 255)), ((4, 2), (40, 40, 40)),
                         ((9, 7), bg)]:
        if diff.getpixel((x, y)) != want:
            fail(f"diff pixel {(x, y)} is {diff.getpixel((x, y))}, want {want}")
    # Identical images: IoU 1, difference 0; empty ones: IoU 1 by definition.
    r2, _ = compare.compare(a, a.copy(), bg)
    if r2["iou"] != 1.0 or r2["mean_abs_diff"] != 0:
        fail(f"self comparison {r2}")
    e = Image.new("RGBA", (w, h), bg + (255,))
    r3, _ = compare.compare(e, e.copy(), bg)
    if r3["iou"] != 1.0 or r3["union"] != 0:
        fail(f"empty comparison {r3}")
    # Tolerance: a 1-level change of the background is background at --tolerance 1 only.
    n = Image.new("RGBA", (w, h), (11, 20, 30, 255))
    if compare.compare(n, e, bg)[0]["pixels_a"] != w * h:
        fail("tolerance 0 must count a 1-level change")
    if compare.compare(n, e, bg, 1)[0]["pixels_a"] != 0:
        fail("tolerance 1 must ignore a 1-level change")
    # The command line: thresholds set the exit code; sizes that differ are exit 2.
    with tempfile.TemporaryDirectory() as d:
        pa, pb, pc = (os.path.join(d, f) for f in ("a.png", "b.png", "c.png"))
        a.save(pa)
        b.save(pb)
        Image.new("RGBA", (3, 3)).save(pc)
        cmd = [sys.executable, os.path.join(HERE, "compare.py"), pa, pb, "--background", "10,20,30"]
        if subprocess.run(cmd + ["--min-iou", "0.33"], capture_output=True).returncode != 0:
            fail("IoU 1/3 must pass --min-iou 0.33")
        if subprocess.run(cmd + ["--min-iou", "0.34"], capture_output=True).returncode != 1:
            fail("IoU 1/3 must fail --min-iou 0.34")
        if subprocess.run(cmd + ["--max-diff", "50"], capture_output=True).returncode != 1:
            fail("difference 53.3 must fail --max-diff 50")
        cmd[3] = pc
        if subprocess.run(cmd, capture_output=True).returncode != 2:
            fail("sizes that differ must exit 2")
    print("compare: ok")


def render(model, out, *extra):
    cmd = [model, out, "--size", str(SIZE), str(SIZE), "--background", ",".join(map(str, BG))]
    return run_renderer(cmd + list(extra))


def run_renderer(args):
    node = os.environ.get("KILN_NODE", "node")
    cmd = [node, os.path.join(HERE, "render_threejs.mjs")] + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 77:
        skip(p.stderr.strip())
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def corpus_model(rel):
    corpus = os.environ.get("KILN_CORPUS", "")
    path = os.path.join(corpus, "gltf", rel)
    if not corpus or not os.path.exists(path):
        skip(f"corpus model {rel} not found (KILN_CORPUS={corpus!r})")
    return path


def check_sane(path, min_frac, max_frac):
    im = compare.load(path)
    w, h = im.size
    px = list(im.getdata())
    sil = compare.silhouette(px, BG, 0)
    frac = sum(sil) / len(sil)
    if not min_frac <= frac <= max_frac:
        fail(f"{path}: silhouette covers {frac:.3f} of the image, expected {min_frac}..{max_frac}")
    # The auto camera fits the bounding sphere in the view: nothing touches the border.
    border = [i for i in range(w * h) if sil[i] and (i % w in (0, w - 1) or i // w in (0, h - 1))]
    if border:
        fail(f"{path}: {len(border)} silhouette pixels on the border (camera rule broken?)")
    if px[0] != BG + (255,):
        fail(f"{path}: corner pixel {px[0]} is not the background {BG}")
    return px, sil, frac


def test_render(args):
    model = corpus_model(args[0])
    min_frac, max_frac = float(args[args.index("--min-frac") + 1]), float(
        args[args.index("--max-frac") + 1])
    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, "a.png")
        render(model, a)
        px, sil, frac = check_sane(a, min_frac, max_frac)
        colours = {p for p, s in zip(px, sil) if s}
        print(f"{args[0]}: silhouette {frac:.3f}, {len(colours)} colours")
        if "--uniform" in args:
            # Unlit base colour with no texture: every covered pixel is the sRGB encoding of the
            # factor, one colour exactly (no lighting, no antialiasing).
            want = tuple(int(x) for x in args[args.index("--uniform") + 1].split(",")) + (255,)
            if colours != {want}:
                fail(f"{args[0]}: covered colours {sorted(colours)[:8]}, want only {want}")
        elif len(colours) < 8:
            fail(f"{args[0]}: only {len(colours)} colours; the texture is missing?")
        if "--twice" in args:
            # Again in a second Chromium, through --batch after another model (a page per job
            # shares no state): the same bytes.
            b = os.path.join(d, "b.png")
            other = os.path.join(d, "other.png")
            jobs = os.path.join(d, "jobs.json")
            common = ["--size", str(SIZE), str(SIZE), "--background", ",".join(map(str, BG))]
            with open(jobs, "w") as f:
                json.dump([[corpus_model("Box/glTF/Box.gltf"), other, "--camera", "front"] + common,
                           [model, b] + common], f)
            run_renderer(["--batch", jobs])
            if open(a, "rb").read() != open(b, "rb").read():
                r, _ = compare.compare(compare.load(a), compare.load(b), BG)
                fail(f"{args[0]}: two renders differ: {r}")
    print("render: ok")


def test_anim(args):
    """Two clip times of an animated model give different images; the camera stays put."""
    model = corpus_model(args[0])
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.png"), os.path.join(d, "b.png")
        ia = render(model, a, "--time", args[1])
        ib = render(model, b, "--time", args[2])
        check_sane(a, 0.01, 0.95)
        check_sane(b, 0.01, 0.95)
        ca, cb = json.loads(ia)["camera"], json.loads(ib)["camera"]
        if ca["eye"] != cb["eye"]:
            fail("the auto camera must not depend on --time")
        r, _ = compare.compare(compare.load(a), compare.load(b), BG)
        print(f"{args[0]} t={args[1]} vs t={args[2]}: {r}")
        if r["iou"] > 0.98 and r["mean_abs_diff"] < 1:
            fail("the pose did not change with --time")
    print("anim: ok")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "compare":
        test_compare()
    elif cmd == "render":
        test_render(args)
    elif cmd == "anim":
        test_anim(args)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
