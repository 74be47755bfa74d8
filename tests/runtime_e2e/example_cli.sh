#!/bin/sh
# example_cli.sh — kiln-rt-example on a project cooked by the kiln command: Fox (skin, three
# clips, a texture) and BoxTextured; several names load with their dependencies and print what
# they brought in, from the cache folder and from a pack made by `kiln pack`; an unknown name, a
# damaged file and a damaged pack print "failed" and make the exit status 1; a cooked shader (the
# golden tests/golden/shader_compute.kshader in a cache folder written here) loads and is
# counted; bad usage and what does not mount exit 2. Skipped (77) without the corpus.
# Environment: KILN_EXE (kiln), KILN_RT_EXAMPLE (kiln-rt-example), KILN_CORPUS, KILN_SOURCE_DIR.
set -u
c=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/Fox/glTF/Fox.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
: "${KILN_EXE:?}" "${KILN_RT_EXAMPLE:?}" "${KILN_SOURCE_DIR:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kiln-rt-example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# flip PATH OFFSET: inverts one byte in place
flip() {
    chmod u+w "$1"
    /usr/bin/python3 - "$1" "$2" <<'EOF' || fail "flip $*"
import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
b[o] ^= 0xFF
open(p, "wb").write(bytes(b))
EOF
}
mkdir -p "$tmp/game/assets/models/fox" "$tmp/game/assets/models/box"
cp "$c/Fox/glTF/"* "$tmp/game/assets/models/fox/"
cp "$c/BoxTextured/glTF/"* "$tmp/game/assets/models/box/"
chmod -R u+w "$tmp/game/assets"
# The box's image is its model's; a .meta of its own keeps it an asset too, loaded by its name
# below (models/box/CesiumLogoFlat.png#texture).
(cd "$tmp/game" && "$KILN_EXE" meta models/box/CesiumLogoFlat.png >"$tmp/meta.txt" 2>&1) || {
    cat "$tmp/meta.txt" >&2
    fail "kiln meta"
}
(cd "$tmp/game" && "$KILN_EXE" import --all >"$tmp/import.txt" 2>&1) || {
    cat "$tmp/import.txt" >&2
    fail "kiln import --all"
}
cache=$tmp/game/.kiln/cache
# ... and packed (before the damage below, which kiln pack would refuse)
(cd "$tmp/game" && "$KILN_EXE" pack -o game.kpak --all >"$tmp/pack.txt" 2>&1) || {
    cat "$tmp/pack.txt" >&2
    fail "kiln pack --all"
}

# run WANT ARGS...: runs the example, which must exit WANT; its stdout goes to $tmp/out.
run() {
    want=$1
    shift
    "$KILN_RT_EXAMPLE" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" != "$want" ]; then
        cat "$tmp/out" "$tmp/err" >&2
        fail "kiln-rt-example $*: exit $got, expected $want"
    fi
}
expect_out() {
    if ! diff -u "$1" "$tmp/out" >&2; then fail "$2: output differs (- expected, + got)"; fi
}

run 0 "$cache" 'models/fox/Fox.gltf#scene' 'models/box/BoxTextured.gltf#scene' \
    'models/fox/Fox.gltf#clip2' 'models/fox/Fox.gltf#material0' 'models/box/CesiumLogoFlat.png#texture'
cat >"$tmp/want" <<'END'
models/fox/Fox.gltf#scene: ready (1 meshes, 576 triangles, 1 textures, 1 materials, 24 joints, 3 clips)
models/box/BoxTextured.gltf#scene: ready (1 meshes, 12 triangles, 1 textures, 1 materials, 0 joints, 0 clips)
models/fox/Fox.gltf#clip2: ready (0 meshes, 0 triangles, 0 textures, 0 materials, 0 joints, 1 clips)
models/fox/Fox.gltf#material0: ready (0 meshes, 0 triangles, 1 textures, 1 materials, 0 joints, 0 clips)
models/box/CesiumLogoFlat.png#texture: ready (0 meshes, 0 triangles, 1 textures, 0 materials, 0 joints, 0 clips)
END
expect_out "$tmp/want" "five ready names"

# -v logs the renderer's callbacks, and every object created is destroyed again.
run 0 -v "$cache" 'models/fox/Fox.gltf#mesh0/prim0'
grep -q '^create_mesh .* vertices, 576 triangles' "$tmp/err" || fail "-v: no create_mesh line"
grep -q '^create_texture .* 1024x1024, 11 levels' "$tmp/err" || fail "-v: no create_texture line"
grep -q 'live after release: 0 textures, 0 meshes, 0 materials' "$tmp/err" || fail "-v: leaked objects"

# An unknown name fails alone; the others are still ready; exit status 1.
run 1 "$cache" 'models/fox/Fox.gltf#skeleton0' 'models/fox/Fox.gltf#nothing' 'models/box/BoxTextured.gltf#mesh0/prim0'
cat >"$tmp/want" <<'END'
models/fox/Fox.gltf#skeleton0: ready (0 meshes, 0 triangles, 0 textures, 0 materials, 24 joints, 0 clips)
models/fox/Fox.gltf#nothing: failed: E_USAGE: no mounted asset is named models/fox/Fox.gltf#nothing
models/box/BoxTextured.gltf#mesh0/prim0: ready (1 meshes, 12 triangles, 1 textures, 1 materials, 0 joints, 0 clips)
END
expect_out "$tmp/want" "one unknown name"

# A damaged texture fails its own load and the scene that needs it, with the reason.
tex=$(find "$cache/objects" -name image0.ktx2 -size +1000k | head -n 1)
[ -n "$tex" ] || fail "no Fox image0.ktx2 in the cache"
flip "$tex" 4000
run 1 "$cache" 'models/fox/Fox.gltf#scene' 'models/fox/Fox.gltf#image0' 'models/box/BoxTextured.gltf#scene'
# (checked with the manifest's XXH3-128; SHA-256 for manifests written before it)
grep -q '^models/fox/Fox.gltf#scene: failed: E_CACHE_CORRUPT: .*XXH3-128' "$tmp/out" || fail "scene: no XXH3-128 failure"
grep -q '^models/fox/Fox.gltf#image0: failed: E_CACHE_CORRUPT: .*image0.ktx2 does not match the XXH3-128' "$tmp/out" ||
    fail "image0: no XXH3-128 failure"
grep -q '^models/box/BoxTextured.gltf#scene: ready' "$tmp/out" || fail "box scene not ready"
# ... and loads with --no-verify (the flipped byte is inside BC7 blocks, which stay valid).
run 0 --no-verify "$cache" 'models/fox/Fox.gltf#image0'

# The same names from the pack of the project (what a game ships), and a damaged pack entry.
run 0 "$tmp/game/game.kpak" 'models/fox/Fox.gltf#scene' 'models/box/BoxTextured.gltf#scene'
cat >"$tmp/want" <<'END'
models/fox/Fox.gltf#scene: ready (1 meshes, 576 triangles, 1 textures, 1 materials, 24 joints, 3 clips)
models/box/BoxTextured.gltf#scene: ready (1 meshes, 12 triangles, 1 textures, 1 materials, 0 joints, 0 clips)
END
expect_out "$tmp/want" "names from a pack"
flip "$tmp/game/game.kpak" $(($(wc -c <"$tmp/game/game.kpak") / 2))
run 1 "$tmp/game/game.kpak" 'models/fox/Fox.gltf#scene' 'models/box/BoxTextured.gltf#scene'
grep -q ': failed: E_' "$tmp/out" || fail "damaged pack: no failed line"

# A cooked shader, in a cache folder laid out as kiln's (the file, its entry's manifest, the
# record): ready, counted, its create_shader logged, destroyed on release.
/usr/bin/python3 - "$KILN_SOURCE_DIR/tests/golden/shader_compute.kshader" "$tmp/shaders/cache" <<'EOF' ||
import hashlib, json, os, sys
data = open(sys.argv[1], "rb").read()
sha = hashlib.sha256(data).hexdigest()
entry = os.path.join(sys.argv[2], "objects", sha[:2], sha)
os.makedirs(entry)
os.makedirs(os.path.join(sys.argv[2], "assets"))
open(os.path.join(entry, "shader.kshader"), "wb").write(data)
out = {"file": "shader.kshader", "label": "shader", "sha256": sha, "size": len(data)}
json.dump({"kiln_manifest": 1, "key": sha, "outputs": [out]}, open(os.path.join(entry, "manifest.json"), "w"))
guid = "c0" * 16
rec = {"guid": guid, "path": "shaders/blur.comp", "key": sha}
json.dump(rec, open(os.path.join(sys.argv[2], "assets", guid + ".json"), "w"))
EOF
    fail "writing the shader's cache"
run 0 -v "$tmp/shaders/cache" 'shaders/blur.comp#shader'
cat >"$tmp/want" <<'END'
shaders/blur.comp#shader: ready (0 meshes, 0 triangles, 0 textures, 0 materials, 0 joints, 0 clips, 1 shaders)
END
expect_out "$tmp/want" "a shader"
grep -q '^create_shader .* entry "cs_main", 1 variants: default (6 words, 2 bindings)' "$tmp/err" ||
    fail "-v: no create_shader line"
grep -q 'live after release: 0 textures, 0 meshes, 0 materials, 0 shaders' "$tmp/err" ||
    fail "-v: leaked shader"

# Usage and mount errors: exit 2.
run 2 "$cache"
run 2 "$tmp/no-such-cache" 'models/fox/Fox.gltf#scene'
grep -q 'cannot mount .*E_ASSET_IO' "$tmp/err" || fail "no mount error"
run 2 "$tmp/game.kpak" 'models/fox/Fox.gltf#scene'
grep -q 'cannot mount' "$tmp/err" || fail "no pack error"
echo "ok"
