#!/usr/bin/python3
"""Decodes DDS files with Pillow (Debian python3-pil), a BCn decoder that shares no code with
kiln, for test_verify_pillow. Usage: pillow_decode.py IN.dds OUT.raw [IN.dds OUT.raw ...].
Writes each image's pixels as Pillow holds them (Image.tobytes(), rows packed) and prints one
line per file: "<mode> <width> <height>" (modes: RGBA for BC1/BC7, L for BC4, RGB for BC5)."""
import sys

from PIL import Image


def main(args):
    if len(args) == 0 or len(args) % 2:
        sys.exit("usage: pillow_decode.py IN.dds OUT.raw [IN.dds OUT.raw ...]")
    for src, dst in zip(args[0::2], args[1::2]):
        with Image.open(src) as im:
            im.load()
            with open(dst, "wb") as out:
                out.write(im.tobytes())
            print(im.mode, im.size[0], im.size[1])


if __name__ == "__main__":
    main(sys.argv[1:])
