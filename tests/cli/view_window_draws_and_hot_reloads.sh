# kiln view under Xvfb (xvfb-run -a), with the Vulkan validation layer on (KILN_VULKAN_VALIDATION=1:
# any message fails the command): the corpus Fox cooked in the project is opened in a window by
# its source (its #scene), drawn for a few frames (--frames) and read back (--screenshot): the
# picture shows a model (a sane share of pixels is not the background) in its texture's orange.
# Then, while a window runs (--until-reload), `kiln reimport --set model.textures=false` cooks it
# again without textures: the window prints the reload line, and its last frame shows the fox
# grey. The controls through --keys (LOD override, auto, views, clips), a resize. Usage errors (exit 2), an asset never imported, a texture (not shown) and a clip past
# the scene's. Skipped (77) without xvfb-run, the corpus, GLFW, Vulkan or the validation layer.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
# Under ASan: what lavapipe and its LLVM JIT keep (tests/lsan.supp, as `make test-asan` sets it).
case "${LSAN_OPTIONS:-}" in
*suppressions=*) ;;
*) export LSAN_OPTIONS="suppressions=$KILN_SOURCE_DIR/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" ;;
esac
c=${KILN_CORPUS:-}/gltf/Fox/glTF
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/Fox.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
command -v xvfb-run >/dev/null 2>&1 || { echo "no xvfb-run (Debian xvfb)" >&2; exit 77; }
mkdir -p assets/fox
cp "$c/Fox.gltf" "$c/Fox.bin" "$c/Texture.png" assets/fox/
chmod u+w assets/fox/*
fox=assets/fox/Fox.gltf

# A kiln built without GLFW's or Vulkan's headers says so for any PATH: skip.
"$KILN_EXE" view x >"$OUT" 2>"$ERR"
if grep -q "built without" "$ERR"; then
    cat "$ERR" >&2
    exit 77
fi
# The options are checked before anything opens (no window system needed).
k 2 view
show_err
k 2 view "$fox" --view shaded
show_err
k 2 view "$fox" --size 800
show_err
k 2 view "$fox" --frames 0
show_err
k 1 view "$fox"
show_err

# xvfb ARGS...: xvfb-run -a with an authority file of its own in the test's folder. Without -f,
# xvfb-run makes a temporary folder and exits 5 when removing it fails at the end, which it did
# once in a loaded sanitizer run (xauth still locking the file) whatever kiln returned.
xvfb_calls=0
xvfb() {
    xvfb_calls=$((xvfb_calls + 1))
    xvfb-run -a -f "$TMPR/xauthority.$xvfb_calls" "$@"
}

# x WANT ARGS...: kiln ARGS in a fresh X server (xvfb-run -a), as k does it.
x() {
    want=$1
    shift
    xvfb "$KILN_EXE" "$@" >"$OUT" 2>"$ERR"
    got=$?
    printf '$ xvfb-run kiln %s [exit %s]\n' "$*" "$got" | norm
    [ "$got" = "$want" ] || { cat "$OUT" "$ERR" >&2; fail "kiln $*: exit $got, expected $want"; }
}
# stats PNG: "coverage mean_r_minus_b" over the pixels that are not the window's background.
stats() {
    $PY - "$1" <<'PYEOF' || fail "stats $1"
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert im.mode == "RGB", im.mode
model = rb = 0
for r, g, b in im.getdata():
    if abs(r - 48) > 2 or abs(g - 52) > 2 or abs(b - 60) > 2:
        model += 1
        rb += r - b
print("%.3f %.1f" % (model / (im.width * im.height), rb / max(model, 1)))
PYEOF
}

k 0 import --all -q
# Is there a window system, GLFW, Vulkan and the validation layer here? Else skip.
xvfb "$KILN_EXE" view "$fox" --frames 1 >"$OUT" 2>"$ERR"
if grep -q "built without\|needs GLFW\|no window system\|vulkan: \|Vulkan presentation" "$ERR"; then
    cat "$ERR" >&2
    exit 77
fi

k 1 view 'fox/Fox.gltf#image0'
show_err
x 2 view "$fox" --clip 3
show_err
x 0 view "$fox" --frames 5 --size 320x240 --screenshot before.png --json
expect_eq "$(j "(d['kind'], d['frames'], d['reloads'])")" '["scene", 5, 0]' "five frames drawn"
expect_eq "$(j "(d['view'], d['lod'], d['clip'])")" '["lit", -1, 0]' "the defaults: lit, auto LOD, clip 0"
full=$(j "d['triangles']")
# The controls, as keys pressed one a frame (--keys): two levels coarser, the LOD view, the next
# clip; then back to the automatic choice.
x 0 view "$fox" --frames 6 --size 320x240 --keys ']]5c' --json
expect_eq "$(j "(d['view'], d['lod'], d['clip'])")" '["lod", 2, 1]' "] ] 5 c"
coarse=$(j "d['triangles']")
[ "$coarse" -gt 0 ] && [ "$coarse" -lt "$full" ] || fail "LOD 2 draws $coarse triangles, level 0 $full"
x 0 view "$fox" --frames 6 --size 320x240 --keys ']]a1' --json
expect_eq "$(j "(d['view'], d['lod'], d['triangles'])")" '["lit", -1, '"$full"']' "] ] a 1"
# A resized window (--resize after the first frame): the swapchain and the target are made
# again at the new size, and the last frame has it.
x 0 view "$fox" --frames 4 --size 320x240 --resize 200x300 --screenshot resized.png
expect_eq "$($PY -c "import struct; print(*struct.unpack('>II', open('resized.png', 'rb').read()[16:24]))")" \
    "200 300" "the picture's size after --resize 200x300"
set -- $(stats resized.png)
$PY -c "import sys; sys.exit(0 if 0.03 < $1 < 0.6 else 1)" || fail "coverage $1 after the resize"
x 2 view "$fox" --keys 'x'
show_err
set -- $(stats before.png)
echo "before: coverage $1, R-B $2" >&2
$PY -c "import sys; sys.exit(0 if 0.03 < $1 < 0.6 else 1)" || fail "coverage $1 of the first picture"
$PY -c "import sys; sys.exit(0 if $2 > 40 else 1)" || fail "the fox is not orange (R-B $2)"

# Hot reload: the window runs until it has reloaded and drawn a re-import (at most 2000 frames).
xvfb "$KILN_EXE" view "$fox" --size 320x240 --until-reload --frames 2000 \
    --screenshot after.png >view.out 2>view.err &
pid=$!
i=0
until grep -q "^kiln view: " view.out 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 300 ] || { kill $pid; cat view.out view.err >&2; fail "the window did not start"; }
    sleep 0.1
done
k 0 reimport "$fox" --set model.textures=false -q
wait $pid || { cat view.out view.err >&2; fail "kiln view --until-reload exited $?"; }
echo '$ xvfb-run kiln view '"$fox"' --size 320x240 --until-reload --frames 2000 --screenshot after.png'
grep -v " on " view.out | norm
expect_grep "^kiln view: reloaded [0-9]* assets* of assets/fox/Fox.gltf#scene" view.out "the reload line"
# (LeakSanitizer's list of the suppressions it used, under ASan, is not kiln's)
grep -Ev '^(-+|Suppressions used:| *count +bytes template| +[0-9]+ +[0-9]+ .*|)$' view.err >said.err
[ ! -s said.err ] || { cat view.err >&2; fail "kiln view said something on stderr"; }
set -- $(stats after.png)
echo "after: coverage $1, R-B $2" >&2
$PY -c "import sys; sys.exit(0 if 0.03 < $1 < 0.6 else 1)" || fail "coverage $1 after the reload"
$PY -c "import sys; sys.exit(0 if abs($2) < 15 else 1)" || fail "the fox is still coloured (R-B $2)"
