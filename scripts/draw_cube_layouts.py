#!/usr/bin/python3
"""draw_cube_layouts.py — draws docs/pictures/cube_layouts.png: a labelled test cube in the
layouts kiln reads (src/process/cube_cross.c) and seen through kiln's panorama mapping
(src/process/cube_equirect.c). Uses Pillow (python3-pil).

    /usr/bin/python3 scripts/draw_cube_layouts.py [OUT.png]

Each face is drawn in its Vulkan memory orientation: row 0 (t = 0) at the top, s growing to
the right, a black corner at texel (0, 0), the arrows along +s and +t naming the world axis each
one follows (from Vulkan's face table). tests/ibl checks the same layouts geometrically (every
pair of neighbouring pixels in a cross lands on neighbouring directions)."""
import math
import sys

from PIL import Image, ImageDraw, ImageFont

FACES = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"]
COLOURS = [(230, 80, 80), (120, 30, 30), (80, 200, 80), (30, 100, 30), (80, 120, 240), (30, 40, 130)]
# Vulkan's table read backwards: the world axis along +s and along +t on each face.
S_AXIS = ["-Z", "+Z", "+X", "+X", "+X", "-X"]
T_AXIS = ["-Y", "-Y", "+Z", "-Z", "-Y", "-Y"]
CELL = 96


def font(size):
    for name in ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            pass
    return ImageFont.load_default()


BIG, SMALL = font(26), font(12)


def face_tile(f):
    """The labelled texture of face f in memory orientation."""
    im = Image.new("RGB", (CELL, CELL), COLOURS[f])
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, CELL - 1, CELL - 1], outline=(255, 255, 255))
    d.rectangle([0, 0, 9, 9], fill=(0, 0, 0))  # texel (0, 0): s = 0, t = 0
    d.text((CELL / 2, CELL / 2), FACES[f], fill=(255, 255, 255), font=BIG, anchor="mm")
    # +s along the top, +t down the left side
    d.line([14, 6, CELL - 12, 6], fill=(255, 255, 255), width=2)
    d.polygon([(CELL - 12, 2), (CELL - 4, 6), (CELL - 12, 10)], fill=(255, 255, 255))
    d.text((CELL - 8, 12), "s " + S_AXIS[f], fill=(255, 255, 255), font=SMALL, anchor="ra")
    d.line([6, 14, 6, CELL - 12], fill=(255, 255, 255), width=2)
    d.polygon([(2, CELL - 12), (6, CELL - 4), (10, CELL - 12)], fill=(255, 255, 255))
    d.text((12, CELL - 6), "t " + T_AXIS[f], fill=(255, 255, 255), font=SMALL, anchor="ld")
    return im


# (column, row, turned 180 degrees) of +X, -X, +Y, -Y, +Z, -Z: src/process/cube_cross.c
LAYOUTS = [
    ("horizontal cross (4:3)", 4, 3, [(2, 1, 0), (0, 1, 0), (1, 0, 0), (1, 2, 0), (1, 1, 0), (3, 1, 0)]),
    ("vertical cross (3:4), -Z turned", 3, 4, [(2, 1, 0), (0, 1, 0), (1, 0, 0), (1, 2, 0), (1, 1, 0), (1, 3, 1)]),
    ("horizontal strip (6:1); vertical strip (1:6): the same, downwards", 6, 1,
     [(f, 0, 0) for f in range(6)]),
]


def layout_image(cols, rows, cells, tiles):
    im = Image.new("RGB", (cols * CELL, rows * CELL), (245, 245, 245))
    for f, (cx, cy, turned) in enumerate(cells):
        t = tiles[f].rotate(180) if turned else tiles[f]
        im.paste(t, (cx * CELL, cy * CELL))
    return im


def cube_from_dir(x, y, z):
    """Vulkan's face selection (ties: X over Y over Z, as cube.c)."""
    ax, ay, az = abs(x), abs(y), abs(z)
    if ax >= ay and ax >= az:
        f, sc, tc, ma = (0, -z, -y, ax) if x >= 0 else (1, z, -y, ax)
    elif ay >= az:
        f, sc, tc, ma = (2, x, z, ay) if y >= 0 else (3, x, -z, ay)
    else:
        f, sc, tc, ma = (4, x, -y, az) if z >= 0 else (5, -x, -y, az)
    return f, 0.5 * (sc / ma + 1), 0.5 * (tc / ma + 1)


def panorama_image(tiles, w, h):
    """The test cube seen through the panorama mapping: pixel (u, v) shows the direction
    x = sin(v pi) cos(phi), y = cos(v pi), z = sin(v pi) sin(phi), phi = (u - 0.5) 2 pi."""
    im = Image.new("RGB", (w, h))
    px = im.load()
    tp = [t.load() for t in tiles]
    for j in range(h):
        theta = (j + 0.5) / h * math.pi
        for i in range(w):
            phi = ((i + 0.5) / w - 0.5) * 2 * math.pi
            f, s, t = cube_from_dir(math.sin(theta) * math.cos(phi), math.cos(theta),
                                    math.sin(theta) * math.sin(phi))
            px[i, j] = tp[f][min(CELL - 1, int(s * CELL)), min(CELL - 1, int(t * CELL))]
    d = ImageDraw.Draw(im)
    for frac, name in ((0.0, "-X"), (0.25, "-Z"), (0.5, "+X"), (0.75, "+Z"), (1.0, "-X")):
        x = min(w - 1, int(frac * w))
        d.line([x, h - 14, x, h - 1], fill=(0, 0, 0), width=2)
        d.text((min(w - 12, max(12, x)), h - 16), name, fill=(0, 0, 0), font=SMALL, anchor="md")
    return im


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "docs/pictures/cube_layouts.png"
    tiles = [face_tile(f) for f in range(6)]
    panels = [(title, layout_image(c, r, cells, tiles)) for title, c, r, cells in LAYOUTS]
    panels.append(("the test cube as a panorama: centre +X, top +Y (faces read mirrored)",
                   panorama_image(tiles, 6 * CELL, 3 * CELL)))
    pad, title_h = 16, 22
    width = max(p.width for _, p in panels) + 2 * pad
    height = sum(p.height + title_h + pad for _, p in panels) + pad
    sheet = Image.new("RGB", (width, height), (255, 255, 255))
    d = ImageDraw.Draw(sheet)
    y = pad
    for title, p in panels:
        d.text((pad, y), title, fill=(0, 0, 0), font=font(15))
        sheet.paste(p, (pad, y + title_h))
        y += p.height + title_h + pad
    sheet.save(out, optimize=True)


if __name__ == "__main__":
    main()
