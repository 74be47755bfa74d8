#!/bin/sh
# pictures_vgeo.sh KILN — the pictures of docs/virtual_geometry.md "Pictures": the corpus's
# Suzanne cooked with model.virtual_geometry and drawn by `kiln thumbnail` (lavapipe is enough).
# docs/pictures/vgeo_d1.png, vgeo_d4.png, vgeo_d16.png: the cut kiln_vgeo_select makes at 1, 4
# and 16 times the framing distance, seen from the framing distance (--cut-distance), each
# cluster in its own colour; vgeo_levels.png: a cut with two DAG levels in the levels view;
# vgeo_far.png: the same three cuts as the camera really sees them (--distance), side by side.
# `make pictures-vgeo` runs it; prints what each picture drew.
set -eu
kiln=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${KILN_CORPUS:-$here/../shared/corpus}
out=$here/docs/pictures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/assets"
cp "$corpus/gltf/Suzanne/glTF/Suzanne.gltf" "$corpus/gltf/Suzanne/glTF/Suzanne.bin" "$work/assets/"
printf '{"import": {"model": {"virtual_geometry": true, "textures": false}}}\n' \
    >"$work/assets/Suzanne.gltf.meta"
cd "$work"
"$kiln" import --all -q
v='Suzanne.gltf#vgeo0/prim0'
t() { "$kiln" thumbnail "$v" --size 256 "$@"; }
t -o "$out/vgeo_d1.png" --cut-distance 1
t -o "$out/vgeo_d4.png" --cut-distance 4
t -o "$out/vgeo_d16.png" --cut-distance 16
t -o "$out/vgeo_levels.png" --cut-distance 4 --view levels
for d in 1 4 16; do
    "$kiln" thumbnail "$v" --size 256 --distance $d -o "far$d.png"
done
/usr/bin/python3 - "$out/vgeo_far.png" <<'PYEOF'
import sys
from PIL import Image
sheet = Image.new("RGB", (3 * 256, 256))
for i, d in enumerate([1, 4, 16]):
    sheet.paste(Image.open(f"far{d}.png").convert("RGB"), (i * 256, 0))
sheet.save(sys.argv[1], optimize=True)
PYEOF
echo "pictures: docs/pictures/vgeo_d1.png vgeo_d4.png vgeo_d16.png vgeo_levels.png vgeo_far.png"
