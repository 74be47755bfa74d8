# texture.shape cube makes six faces of one image: a horizontal cross is cut by its aspect
# (each face keeps its colour, drawn face by face), and the corpus sky read as a panorama
# (cube_layout panorama: it is 768x768) cooks with texture.ibl into the cube, its GGX-prefiltered
# specular chain, the irradiance cube with its spherical harmonics (key kiln.sh9) and the BRDF
# table (R16G16_SFLOAT). A square image with cube_layout auto, and ibl without a cube, are
# settings errors. Drawing is skipped without Vulkan; the sky part without the corpus.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
$PY - <<'PYEOF' || fail "cross"
from PIL import Image
# horizontal cross, 4 x 3 cells of 8: . +Y . . / -X +Z +X -Z / . -Y . .
cells = {(1, 0): (0, 255, 0), (0, 1): (0, 255, 255), (1, 1): (0, 0, 255), (2, 1): (255, 0, 0),
         (3, 1): (255, 255, 0), (1, 2): (255, 0, 255)}
im = Image.new("RGB", (32, 24), (0, 0, 0))
for (cx, cy), c in cells.items():
    im.paste(Image.new("RGB", (8, 8), c), (cx * 8, cy * 8))
im.save("assets/cross.png")
Image.new("RGB", (16, 16), (9, 9, 9)).save("assets/square.png")
PYEOF
printf '{"import": {"texture": {"shape": "cube", "format": "rgba8"}}}\n' >assets/cross.png.meta
k 0 import assets/cross.png
show
k 0 import --json assets/cross.png
expect_eq "$(j "(d['records'][0]['summary']['shape'], d['records'][0]['summary']['width'])")" \
    '["cube", 8]' "a cube of 8x8 faces"

"$KILN_EXE" thumbnail 'cross.png#texture' -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    echo "drawing skipped: no Vulkan" >&2
else
    for face in 0 1 2 3 4 5; do
        colour=$(face_colour $face)
        k 0 thumbnail 'cross.png#texture' -o "f$face.png" --size 8 --layer $face
        expect_eq "$(pixel "f$face.png")" "$colour" "face $face"
    done
fi

printf '{"import": {"texture": {"shape": "cube"}}}\n' >assets/square.png.meta
k 2 import assets/square.png
show
printf '{"import": {"texture": {"ibl": true}}}\n' >assets/square.png.meta
k 2 import assets/square.png
show

src=${KILN_CORPUS:-}/images/hdr/hdr-rgb-arboretum.exr
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src" ]; then
    echo "the sky skipped: no corpus at '${KILN_CORPUS:-}'" >&2
    return 0 2>/dev/null || exit 0
fi
cp "$src" assets/sky.exr
printf '{"import": {"texture": {"shape": "cube", "cube_layout": "panorama", "ibl": true, "max_size": 64, "quality": "fast"}}}\n' \
    >assets/sky.exr.meta
k 0 import assets/sky.exr
show
k 0 import --json assets/sky.exr
expect_eq "$(j "[len(d['records'][0]['summary']['ibl']['sh9']), d['records'][0]['summary']['ibl']['specular_levels']]")" \
    '[9, 5]' "nine coefficients, levels 64 down to 4"
k 0 inspect 'sky.exr#specular' --json
expect_eq "$(j "(d['shape'], d['faces'], len(d['levels']), d['width'])")" '["cube", 6, 5, 64]' "specular chain"
k 0 inspect 'sky.exr#irradiance' --json
expect_eq "$(j "(d['shape'], d['width'], len(d['levels']))")" '["cube", 32, 1]' "irradiance cube"
k 0 inspect 'sky.exr#brdf' --json
expect_eq "$(j "(d['format'], d['width'], d['height'])")" '["RG16F", 128, 128]' "BRDF table"
