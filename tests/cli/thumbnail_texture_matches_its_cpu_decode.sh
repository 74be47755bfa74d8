# kiln thumbnail draws a texture headless (Vulkan; lavapipe without a GPU) under the validation
# layer (KILN_VULKAN_VALIDATION=1: any message fails the command): by NAME#label in a project, by
# its source file, and a KTX2 file alone (ASTC 4x4, which lavapipe samples only through the CPU
# fallback). The picture has the size asked for (the aspect kept), is not uniform, and at the
# texture's own size matches the CPU's decode of level 0 (kiln inspect --compare: PSNR). A level
# past the chain is E_USAGE, an asset never imported E_NOT_IMPORTED (models:
# thumbnail_model_views_clips_and_errors). Skipped without Vulkan.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
# png_rgb PATH W H: an opaque RGB PNG (alpha would show the checkerboard, which no decode has).
png_rgb() {
    mkdir -p "$(dirname "$1")"
    $PY - "$@" <<'PYEOF' || fail "png_rgb $*"
import struct, sys, zlib
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = b"".join(b"\0" + bytes(v for x in range(w) for v in
                ((x * 255) // (w - 1), (y * 255) // (h - 1), ((x // 8 + y // 8) & 1) * 200))
                for y in range(h))
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                       + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
PYEOF
}
# colours PATH: how many distinct colours a PNG written by kiln thumbnail holds (RGB, 8 bits).
colours() {
    $PY - "$1" <<'PYEOF' || fail "colours $1"
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert im.mode == "RGB", im.mode
print(len(set(im.getdata())))
PYEOF
}
png_rgb assets/tex.png 64 32
printf '{"import": {"texture": {"format": "bc7"}}}\n' >assets/tex.png.meta
"$KILN_EXE" thumbnail assets/tex.png -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    cat "$ERR" >&2
    exit 77
fi
k 1 thumbnail 'tex.png#texture' -o never.png
show_err
k 0 import --all -q
k 0 thumbnail 'tex.png#texture' -o t64.png --size 64
show
k 0 inspect t64.png --json
expect_eq "$(j "(d['width'], d['height'])")" "[64, 32]" "picture size"
expect_eq "$(j "int(d['has_alpha'])")" "0" "an opaque picture"
[ "$(colours t64.png)" -gt 100 ] || fail "the thumbnail is (nearly) uniform"
k 0 inspect 'tex.png#texture' --json
cooked=$(j "d['artifact']['path']")
k 0 inspect "$cooked" --compare t64.png --json
psnr=$(j "d['compare']['psnr']")
$PY -c "import sys; sys.exit(0 if $psnr >= 45 else 1)" || fail "PSNR $psnr dB to the CPU decode"
k 0 thumbnail assets/tex.png -o t16.png --size 16 --level 1 --json
expect_eq "$(j "(d['kind'], d['width'], d['height'], d['drawn'])")" \
    '["texture", 16, 8, "bc7 64x32, 7 levels; level 1 (32x16)"]' "level 1 by its source"
k 2 thumbnail 'tex.png#texture' -o t.png --level 7
show_err
"$KILN_EXE" texture assets/tex.png alone.ktx2 --format astc4x4 -q || fail "kiln texture"
k 0 thumbnail alone.ktx2 -o alone.png --size 64
show
k 0 inspect alone.ktx2 --compare alone.png --json
psnr=$(j "d['compare']['psnr']")
$PY -c "import sys; sys.exit(0 if $psnr >= 45 else 1)" || fail "ASTC: PSNR $psnr dB to the CPU decode"
