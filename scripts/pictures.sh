#!/bin/sh
# pictures.sh KILN — the pictures docs/rendering.md, docs/ibl.md and README.md show, made from
# corpus files cooked by kiln and drawn by `kiln thumbnail` (lavapipe is enough):
# docs/pictures/models.jpg, docs/pictures/environment.jpg (the corpus sky as a cube and its
# lighting) and docs/pictures/compare_cooked.jpg (three.js on the source beside kiln on the cook;
# needs the reference renderer, tests/reference). `make pictures` runs it; the JPEGs are checked
# in small.
set -eu
kiln=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${KILN_CORPUS:-$here/../shared/corpus}
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/assets"
for m in DamagedHelmet/glTF-Binary/DamagedHelmet.glb DamagedHelmet/glTF/DamagedHelmet.gltf \
         Fox/glTF-Binary/Fox.glb CesiumMan/glTF-Binary/CesiumMan.glb BoxTextured/glTF-Binary/BoxTextured.glb; do
    [ -f "$corpus/gltf/$m" ] || continue
    d=$(dirname "$m")
    mkdir -p "$work/assets/$(dirname "$d")"
    [ -d "$work/assets/$d" ] || cp -r "$corpus/gltf/$d" "$work/assets/$d"
done
cp -r "$corpus/gltf/SheenCloth/glTF" "$work/assets/SheenCloth"
cd "$work"
"$kiln" import --all -q
t() { "$kiln" thumbnail "$@" --size 256 -q; }
t DamagedHelmet/glTF/DamagedHelmet.gltf#scene -o 1.png --camera front
t Fox/glTF-Binary/Fox.glb#scene -o 2.png --time 0.5
t CesiumMan/glTF-Binary/CesiumMan.glb#scene -o 3.png --time 1
t SheenCloth/SheenCloth.gltf#scene -o 4.png
t BoxTextured/glTF-Binary/BoxTextured.glb#material0 -o 5.png
t DamagedHelmet/glTF/DamagedHelmet.gltf#scene -o 6.png --camera front --view normals
t CesiumMan/glTF-Binary/CesiumMan.glb#scene -o 7.png --time 1 --view uv
t SheenCloth/SheenCloth.gltf#scene -o 8.png --view lod
t Fox/glTF-Binary/Fox.glb#scene -o 9.png --time 0.5 --view meshlets
t DamagedHelmet/glTF/DamagedHelmet.gltf#scene -o 10.png --camera front --view unlit
"$py" - "$here/docs/pictures/models.jpg" <<'PYEOF'
import sys
from PIL import Image
sheet = Image.new("RGB", (5 * 192, 2 * 192))
for i in range(10):
    im = Image.open(f"{i + 1}.png").convert("RGB").resize((192, 192), Image.LANCZOS)
    sheet.paste(im, ((i % 5) * 192, (i // 5) * 192))
sheet.save(sys.argv[1], quality=82, optimize=True)
PYEOF
# The corpus sky read as a panorama into a cube with its lighting: the faces -X +Z +X -Z +Y -Y,
# then +Z's specular chain (roughness 0 .. 1), the irradiance and the BRDF table.
cp "$corpus/images/hdr/hdr-rgb-arboretum.exr" assets/sky.exr
printf '{"import": {"texture": {"shape": "cube", "cube_layout": "panorama", "ibl": true}}}\n' \
    >assets/sky.exr.meta
"$kiln" import assets/sky.exr -q
n=0
for face in 1 4 0 5 2 3; do
    n=$((n + 1))
    t sky.exr#texture -o "e$n.png" --layer $face
done
for level in 0 1 2 3 4 5 6; do
    n=$((n + 1))
    t sky.exr#specular -o "e$n.png" --layer 4 --level $level
done
t sky.exr#irradiance -o e14.png --layer 4
t sky.exr#brdf -o e15.png
"$py" - "$here/docs/pictures/environment.jpg" <<'PYEOF'
import sys
from PIL import Image
sheet = Image.new("RGB", (8 * 128, 2 * 128), (24, 24, 24))
cells = [(i, 0) for i in range(6)] + [(i, 1) for i in range(7)] + [(6, 0), (7, 0)]
for k, (x, y) in enumerate(cells):
    im = Image.open(f"e{k + 1}.png").convert("RGB").resize((128, 128), Image.LANCZOS)
    sheet.paste(im, (x * 128, y * 128))
sheet.save(sys.argv[1], quality=82, optimize=True)
PYEOF
# three.js beside kiln: the comparison's own pictures of three models.
out="$work/cmp"
"$py" "$here/tests/reference/compare_cooked.py" --kiln "$kiln" --corpus "$corpus" --out "$out" \
    --models DamagedHelmet,CesiumMan,TextureTransformTest >/dev/null
"$py" - "$out" "$here/docs/pictures/compare_cooked.jpg" <<'PYEOF'
import sys
from PIL import Image
out, dst = sys.argv[1], sys.argv[2]
rows = ["DamagedHelmet", "CesiumMan_clip0_t1", "TextureTransformTest"]
sheet = Image.new("RGB", (3 * 192, len(rows) * 192))
for r, name in enumerate(rows):
    for c, kind in enumerate(["ref", "kiln", "diff"]):
        im = Image.open(f"{out}/{name}.{kind}.png").convert("RGB").resize((192, 192), Image.LANCZOS)
        sheet.paste(im, (c * 192, r * 192))
sheet.save(dst, quality=82, optimize=True)
PYEOF
echo "pictures: docs/pictures/models.jpg, docs/pictures/environment.jpg, docs/pictures/compare_cooked.jpg"
