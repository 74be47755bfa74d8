#!/usr/bin/env python3
"""compare.py — compares two renders of one model (issue 20 item 5): silhouette IoU and mean
absolute colour difference, as defined in docs/rendering-reference.md.

    compare.py A.png B.png --background r,g,b[,a] [--tolerance N] [--diff DIFF.png]
               [--min-iou X] [--max-diff Y]

Silhouette of an image: the pixels whose colour differs from the background in some channel by
more than --tolerance (default 0); R, G, B are compared, and alpha too when the background has an
alpha component. IoU = |A ∩ B| / |A ∪ B| (1.0 when both are empty). The colour difference is
the mean over the pixels of A ∪ B and over R, G, B of |A - B| (0..255); it is 0 when the union
is empty. Prints one JSON object. Exit 0; 1 when --min-iou or --max-diff is not met; 2 on bad
input (unreadable files, sizes that differ).
"""
import argparse
import json
import sys

from PIL import Image


def load(path):
    im = Image.open(path)
    im.load()
    return im.convert("RGBA")


def silhouette(px, bg, tol):
    n = len(bg)
    return [any(abs(p[c] - bg[c]) > tol for c in range(n)) for p in px]


def compare(a, b, bg, tol=0):
    """a, b: RGBA PIL images of one size; bg: (r, g, b) or (r, g, b, a). Returns (dict, diff)."""
    if a.size != b.size:
        raise ValueError(f"sizes differ: {a.size} and {b.size}")
    pa, pb = list(a.getdata()), list(b.getdata())
    sa, sb = silhouette(pa, bg, tol), silhouette(pb, bg, tol)
    inter = union = 0
    sums = [0, 0, 0]
    max_diff = 0
    diff = []
    bg_rgb = tuple(bg[:3])
    for i, (p, q) in enumerate(zip(pa, pb)):
        ia, ib = sa[i], sb[i]
        if ia and ib:
            inter += 1
        if ia or ib:
            union += 1
            d = [abs(p[c] - q[c]) for c in range(3)]
            for c in range(3):
                sums[c] += d[c]
            max_diff = max(max_diff, max(d))
            if ia and ib:
                g = min(255, 4 * max(d))
                diff.append((g, g, g))
            elif ia:
                diff.append((255, 0, 0))
            else:
                diff.append((0, 0, 255))
        else:
            diff.append(bg_rgb)
    per = [s / union if union else 0.0 for s in sums]
    result = {
        "width": a.size[0],
        "height": a.size[1],
        "pixels_a": sum(sa),
        "pixels_b": sum(sb),
        "intersection": inter,
        "union": union,
        "iou": inter / union if union else 1.0,
        "mean_abs_diff": sum(per) / 3,
        "mean_abs_diff_rgb": per,
        "max_abs_diff": max_diff,
    }
    im = Image.new("RGB", a.size)
    im.putdata(diff)
    return result, im


def parse_background(text):
    v = [int(x) for x in text.split(",")]
    if len(v) not in (3, 4) or any(x < 0 or x > 255 for x in v):
        raise ValueError("--background takes r,g,b[,a] in 0..255")
    return tuple(v)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--background", required=True)
    ap.add_argument("--tolerance", type=int, default=0)
    ap.add_argument("--diff")
    ap.add_argument("--min-iou", type=float)
    ap.add_argument("--max-diff", type=float)
    args = ap.parse_args(argv)
    try:
        bg = parse_background(args.background)
        result, diff = compare(load(args.a), load(args.b), bg, args.tolerance)
    except (OSError, ValueError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    if args.diff:
        diff.save(args.diff)
    ok = True
    if args.min_iou is not None and result["iou"] < args.min_iou:
        ok = False
    if args.max_diff is not None and result["mean_abs_diff"] > args.max_diff:
        ok = False
    result["pass"] = ok
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
