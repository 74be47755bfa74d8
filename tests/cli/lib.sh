# lib.sh — helpers for the command-line cases (tests/cli/<case>.sh), sourced by run_case.sh.
#
# A case runs in a fresh project folder ($W, the current folder: sources go to assets/, output to
# .kiln/) inside a scratch folder $KILN_CLI_TMP that run_case.sh removes afterwards. What it
# prints on stdout is its transcript, compared with expected/<case>.out when that file exists;
# `fail` ends the case at once. Helpers:
#   k WANT ARGS...   run kiln ARGS; the case fails unless it exits WANT. Prints "$ kiln ARGS [exit N]"
#                    to the transcript. With --json, stdout must be one document; run_case.sh checks
#                    each against its schema (docs/schemas/, chosen by validate.py --auto) at the end.
#   show / show_err  the last run's stdout / stderr, normalised (norm), into the transcript
#   j EXPR           a Python expression over the last stdout parsed as JSON (d); prints the value
#   expect_eq GOT WANT WHAT, expect_grep / expect_no_grep PATTERN FILE WHAT,
#   expect_said PATTERN WHAT (stdout or stderr of the last run)
#   mkpng PATH W H SEED, mktga PATH, flip_byte PATH OFFSET   make or change source images
#   mktri PATH       a glTF of one triangle (node "tri", buffer in a data URI)
# Exit status of a case: 0 pass, 1 fail, 77 skip.

PY=/usr/bin/python3
: "${KILN_EXE:?KILN_EXE must name the kiln command}"
OUT=$KILN_CLI_TMP/stdout
ERR=$KILN_CLI_TMP/stderr
W=$(pwd -P)
TMPR=$(cd "$KILN_CLI_TMP" && pwd -P)

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# Paths of this run, keys and digests (which change with zlib, settings defaults or the pipeline
# version) and byte counts of the cache: replaced, so the transcripts pin what matters.
norm() {
    sed -e "s|$W|<W>|g" -e "s|$TMPR|<TMP>|g" -e "s|$KILN_CLI_TMP|<TMP>|g" \
        -e 's/[0-9a-f]\{64\}/<sha256>/g' -e 's|objects/[0-9a-f][0-9a-f]/|objects/<xx>/|g' \
        -e 's/\(^\| \)[0-9a-f]\{12\} /\1<key> /' \
        -e 's/\(cache\|freed\) [0-9][0-9.]* \(bytes\|byte\|KiB\|MiB\|GiB\|TiB\)/\1 <n> bytes/g' \
        -e 's/--max-size [0-9]\{3,\}/--max-size <n>/'
}

# need_rt_example: skips the case (77) when kiln-rt-example was not built.
need_rt_example() {
    if [ ! -x "${KILN_RT_EXAMPLE:-}" ]; then
        echo "no kiln-rt-example at '${KILN_RT_EXAMPLE:-}'" >&2
        exit 77
    fi
}

# rt WANT ARGS...: kiln-rt-example ARGS (the runtime over a mounted cache or folder); its exit
# status must be WANT. The command line goes into the transcript; stdout and stderr into $OUT
# and $ERR.
rt() {
    want=$1
    shift
    "$KILN_RT_EXAMPLE" "$@" >"$OUT" 2>"$ERR"
    got=$?
    printf '$ kiln-rt-example %s [exit %s]\n' "$*" "$got" | norm
    [ "$got" = "$want" ] || { cat "$ERR" >&2; fail "kiln-rt-example $*: exit $got, expected $want"; }
}

k() {
    want=$1
    shift
    "$KILN_EXE" "$@" >"$OUT" 2>"$ERR"
    got=$?
    printf '$ kiln %s [exit %s]\n' "$*" "$got" | norm
    if [ "$got" != "$want" ]; then
        echo "--- stdout" >&2
        head -c 4000 "$OUT" >&2
        echo "--- stderr" >&2
        head -c 4000 "$ERR" >&2
        fail "kiln $*: exit $got, expected $want"
    fi
    for a in "$@"; do
        if [ "$a" = "--json" ]; then
            [ -s "$OUT" ] || fail "kiln $*: --json printed nothing on stdout"
            # Kept for run_case.sh, which validates them all in one go (jsonschema is slow to load).
            n=$(($(wc -l <"$KILN_CLI_TMP/json/index") + 1))
            cp "$OUT" "$KILN_CLI_TMP/json/$n.json"
            printf '%s.json: kiln %s\n' "$n" "$*" >>"$KILN_CLI_TMP/json/index"
            break
        fi
    done
    return 0
}

show() { norm <"$OUT"; }
show_err() { norm <"$ERR"; }

j() {
    $PY - "$OUT" "$1" <<'EOF' || fail "j $1: cannot evaluate over the last stdout"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
v = eval(sys.argv[2], {"d": d})
print(v if isinstance(v, str) else json.dumps(v, sort_keys=True))
EOF
}

expect_eq() {
    [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

expect_grep() {
    grep -q -- "$1" "$2" || { cat "$2" >&2; fail "$3: '$1' not found"; }
}

# expect_said PATTERN WHAT: the last run said PATTERN on stdout or stderr (human forms).
expect_said() {
    cat "$OUT" "$ERR" >"$KILN_CLI_TMP/said"
    expect_grep "$1" "$KILN_CLI_TMP/said" "$2"
}

expect_no_grep() {
    if grep -q -- "$1" "$2"; then cat "$2" >&2; fail "$3: '$1' found"; fi
}

# mkpng PATH WIDTH HEIGHT SEED: an 8-bit RGBA PNG whose pixels depend on SEED (zlib + struct only).
mkpng() {
    mkdir -p "$(dirname "$1")"
    $PY - "$@" <<'EOF' || fail "mkpng $*"
import struct, sys, zlib
path, w, h, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = b"".join(b"\0" + bytes((x * 7 + y * 13 + seed * 31 + c * 50) & 255
                              for x in range(w) for c in range(4)) for y in range(h))
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
with open(path, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
EOF
}

# mkshaders: the repository's test shaders (tests/shaders, without the broken ones and the
# build files) in assets/shaders, their includes found in shaders/include (a folder.meta).
mkshaders() {
    cp -R "$KILN_SOURCE_DIR/tests/shaders" assets/shaders || fail "mkshaders"
    rm -rf assets/shaders/broken assets/shaders/CMakeLists.txt assets/shaders/check_reference.sh
    printf '{"shader": {"include_dirs": ["shaders/include"]}}\n' >assets/shaders/folder.meta
}

# mktextures NAME...: an 8x8 PNG assets/textures/NAME.png per name, each of other bytes (equal
# ones would share a key, and which copy an import reports as cooked would depend on timing).
mktextures() {
    _seed=1
    for _t in "$@"; do
        mkpng "assets/textures/$_t.png" 8 8 $_seed
        _seed=$((_seed + 1))
    done
}

# mktga PATH: a 2x2 uncompressed 24-bit TGA, written byte by byte.
mktga() {
    mkdir -p "$(dirname "$1")"
    printf '\000\000\002\000\000\000\000\000\000\000\000\000\002\000\002\000\030\000' >"$1"
    printf '\377\000\000\000\377\000\000\000\377\377\377\377' >>"$1"
}

# flip_byte PATH OFFSET: inverts one byte in place (size unchanged).
flip_byte() {
    $PY - "$1" "$2" <<'EOF' || fail "flip_byte $*"
import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
b[o] ^= 0xFF
open(p, "wb").write(bytes(b))
EOF
}

# mktri PATH: a glTF 2.0 model of one indexed triangle (node "tri"), its buffer in a data URI.
mktri() {
    mkdir -p "$(dirname "$1")"
    $PY - "$1" <<'EOF' || fail "mktri $*"
import base64, json, struct, sys
buf = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<3H", 0, 1, 2) + b"\0\0"
uri = "data:application/octet-stream;base64," + base64.b64encode(buf).decode()
g = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
     "nodes": [{"name": "tri", "mesh": 0}],
     "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
     "buffers": [{"byteLength": len(buf), "uri": uri}],
     "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                     {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
     "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                    "min": [0, 0, 0], "max": [1, 1, 0]},
                   {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]}
open(sys.argv[1], "w").write(json.dumps(g))
EOF
}

# face_colour N: the colour the cube cases give face N (+X red, -X cyan, +Y green, -Y magenta,
# +Z blue, -Z yellow), as "r g b".
face_colour() {
    case $1 in
    0) echo "255 0 0" ;; 1) echo "0 255 255" ;; 2) echo "0 255 0" ;;
    3) echo "255 0 255" ;; 4) echo "0 0 255" ;; *) echo "255 255 0" ;;
    esac
}

# pixel PNG: the centre pixel of a picture as "r g b"
pixel() {
    $PY -c "from PIL import Image; im = Image.open('$1').convert('RGB'); print(*im.getpixel((im.width // 2, im.height // 2)))"
}
# near "r g b" "r g b": within 3 of each other in every channel
near() {
    $PY -c "import sys; a, b = [int(v) for v in '$1'.split()], [int(v) for v in '$2'.split()]; sys.exit(0 if all(abs(x - y) <= 3 for x, y in zip(a, b)) else 1)"
}
