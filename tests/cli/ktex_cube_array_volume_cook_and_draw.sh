# A .ktex descriptor makes one texture of several images: a cube of six faces (a folder named
# by face), an array (a list), a volume (a folder of slices, sorted by name) and a raw volume.
# Each cooks into one KTX2 of its shape; the images it names are owned (not assets of their own)
# and enter its key (an edited face makes the cube stale), and so does a folder's listing (an
# added slice makes the volume stale). Each face, layer and slice at every
# level is drawn by kiln thumbnail --layer, under the validation layer, with the colour it was
# given. Broken descriptors fail with E_IMPORT_FAILED naming the field; shape array on an image
# is a settings error. Drawing is skipped without Vulkan (the cooking is checked regardless).
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
$PY - <<'PYEOF' || fail "images"
from PIL import Image
import os, struct
faces = {"px": (255, 0, 0), "nx": (0, 255, 255), "py": (0, 255, 0),
         "ny": (255, 0, 255), "pz": (0, 0, 255), "nz": (255, 255, 0)}
os.makedirs("assets/sky", exist_ok=True)
for name, c in faces.items():
    Image.new("RGB", (16, 16), c).save("assets/sky/sky_%s.png" % name)
os.makedirs("assets/ct", exist_ok=True)
for z in range(6):
    Image.new("L", (8, 8), 40 * z).save("assets/ct/slice%02d.png" % z)
for i, c in enumerate([(200, 40, 40), (40, 200, 40), (40, 40, 200)]):
    Image.new("RGB", (8, 4), c).save("assets/layer%d.png" % i)
# a raw volume: 4 x 4 x 4 bytes, slice z filled with 60 * z, after a 16-byte header
open("assets/fog.raw", "wb").write(bytes(16) + bytes(60 * z for z in range(4) for _ in range(16)))
Image.new("RGB", (8, 8), (9, 9, 9)).save("assets/odd.png")
PYEOF
printf '{"faces": "sky/"}\n' >assets/sky.ktex
printf '{"layers": ["layer0.png", "layer1.png", "layer2.png"]}\n' >assets/strip.ktex
printf '{"slices": "ct/"}\n' >assets/ct.ktex
printf '{"raw": {"file": "fog.raw", "width": 4, "height": 4, "depth": 4, "offset": 16}}\n' \
    >assets/fog.ktex
printf '{"import": {"texture": {"format": "rgba8"}}}\n' >assets/fog.ktex.meta
k 0 import --all
show
k 0 report
show
k 0 inspect 'sky.ktex#texture' --json
cooked=$(j "d['artifact']['path']")
k 0 inspect "$cooked"
show
k 0 inspect 'ct.ktex#texture' --json
k 0 inspect "$(j "d['artifact']['path']")"
show

"$KILN_EXE" thumbnail 'sky.ktex#texture' -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    echo "drawing skipped: no Vulkan" >&2
else
    for face in 0 1 2 3 4 5; do
        colour=$(face_colour $face)
        for level in 0 2 4; do
            k 0 thumbnail 'sky.ktex#texture' -o "f$face.png" --size 8 --layer $face --level $level
            near "$(pixel "f$face.png")" "$colour" || fail "face $face level $level: $(pixel "f$face.png"), want $colour"
        done
    done
    show
    for layer in 0 1 2; do
        k 0 thumbnail 'strip.ktex#texture' -o "l$layer.png" --size 8 --layer $layer
    done
    show
    near "$(pixel l1.png)" "40 200 40" || fail "layer 1: $(pixel l1.png)"
    for z in 0 3 5; do
        k 0 thumbnail 'ct.ktex#texture' -o "z$z.png" --size 8 --layer $z
        g=$((40 * z))
        near "$(pixel "z$z.png")" "$g $g $g" || fail "slice $z: $(pixel "z$z.png")"
    done
    # level 1 of a 6-slice volume has 3 slices, each the mean of two: (0+40)/2, (80+120)/2 ...
    k 0 thumbnail 'ct.ktex#texture' -o z1.png --size 8 --layer 1 --level 1
    near "$(pixel z1.png)" "100 100 100" || fail "level 1 slice 1: $(pixel z1.png)"
    k 0 thumbnail 'fog.ktex#texture' -o fog.png --size 8 --layer 2
    near "$(pixel fog.png)" "120 120 120" || fail "raw slice 2: $(pixel fog.png)"
    k 2 thumbnail 'sky.ktex#texture' -o no.png --layer 6
    show_err
    k 2 thumbnail 'ct.ktex#texture' -o no.png --layer 3 --level 1
    show_err
fi

# an edited face makes the cube stale; a slice added to the folder makes the volume stale
$PY -c "from PIL import Image; Image.new('RGB', (16, 16), (1, 2, 3)).save('assets/sky/sky_nz.png')"
$PY -c "from PIL import Image; Image.new('L', (8, 8), 250).save('assets/ct/slice06.png')"
k 0 report
show
k 0 import --all
show
k 0 inspect 'ct.ktex#texture' --json
expect_eq "$(j "d['depth']")" "7" "the volume has the new slice"

# broken descriptors and settings
printf '{"faces": ["sky/sky_px.png"]}\n' >assets/bad1.ktex
printf '{"layers": ["../outside.png"]}\n' >assets/bad2.ktex
printf '{"layers": ["layer0.png", "odd.png"]}\n' >assets/bad3.ktex
printf '{"slices": "ct/", "layers": []}\n' >assets/bad4.ktex
printf '{"raw": {"file": "fog.raw", "width": 64, "height": 4, "depth": 4}}\n' >assets/bad5.ktex
# past the texel budget: refused from the numbers, before the (small) file is read
printf '{"raw": {"file": "fog.raw", "width": 1024, "height": 1024, "depth": 128}}\n' >assets/bad6.ktex
k 1 import assets/bad1.ktex assets/bad2.ktex assets/bad3.ktex assets/bad4.ktex assets/bad5.ktex \
    assets/bad6.ktex
show
printf '{"import": {"texture": {"shape": "array"}}}\n' >assets/odd.png.meta
k 2 import assets/odd.png
show
printf '{"import": {"texture": {"shape": "cube"}}}\n' >assets/strip.ktex.meta
k 2 import assets/strip.ktex
show
