#!/bin/sh
# check_reference.sh — the test shaders checked without kiln: every good shader and variant
# compiles with glslc and passes spirv-val for its target; every broken one fails, with the
# message its comment promises. Skips (77) where glslc or spirv-val is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
command -v glslc >/dev/null 2>&1 || { echo "no glslc" >&2; exit 77; }
command -v spirv-val >/dev/null 2>&1 || { echo "no spirv-val" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# good FILE ENV [GLSLC OPTIONS...]: compiles and validates
good() {
    file=$1 env=$2
    shift 2
    if ! glslc --target-env="$env" -I"$here/include" "$@" "$here/$file" -o "$tmp/out.spv" 2>"$tmp/log"; then
        echo "FAIL: $file $*: glslc: $(cat "$tmp/log")" >&2
        failed=1
        return
    fi
    if ! spirv-val --target-env "$env" "$tmp/out.spv" 2>"$tmp/log"; then
        echo "FAIL: $file $*: spirv-val: $(cat "$tmp/log")" >&2
        failed=1
        return
    fi
    echo "ok   $file $*"
}

# bad FILE PATTERN [GLSLC OPTIONS...]: fails, saying PATTERN
bad() {
    file=$1 pattern=$2
    shift 2
    if glslc -I"$here/include" "$@" "$here/broken/$file" -o "$tmp/out.spv" 2>"$tmp/log"; then
        echo "FAIL: broken/$file compiled" >&2
        failed=1
    elif ! grep -q -- "$pattern" "$tmp/log"; then
        echo "FAIL: broken/$file: expected '$pattern' in: $(cat "$tmp/log")" >&2
        failed=1
    else
        echo "ok   broken/$file fails: $(head -1 "$tmp/log")"
    fi
}

good pbr_forward.vert vulkan1.1
good pbr_forward.vert vulkan1.1 -DSKINNED
good pbr_forward.frag vulkan1.1
good pbr_forward.frag vulkan1.1 -DNORMAL_MAP
good pbr_forward.frag vulkan1.1 -DALPHA_MASK
good pbr_forward.frag vulkan1.1 -DNORMAL_MAP -DALPHA_MASK
good skin_vertices.comp vulkan1.1
good unlit_texture.hlsl vulkan1.1 -x hlsl -fshader-stage=frag -fentry-point=PSMain
good meshlets.mesh vulkan1.3
good flat_color.frag vulkan1.0

bad syntax_error.frag "syntax_error.frag:5: error"
bad missing_include.frag "missing_include.frag:4: error"
bad include_escape.frag "include_escape.frag:5: error"
# glslang only warns about a missing entry point (and emits an empty "main"): kiln must treat
# that warning as an error whatever warnings_as_errors says.
bad wrong_entry.hlsl "Entry point not found" -x hlsl -fshader-stage=frag -Werror
bad warning.frag "warning.frag:4: error" -Werror
# without warnings as errors the warning is only a warning
if glslc "$here/broken/warning.frag" -o "$tmp/out.spv" 2>"$tmp/log" && grep -q "warning.frag:4: warning" "$tmp/log"; then
    echo "ok   broken/warning.frag compiles with a warning when warnings are not errors"
else
    echo "FAIL: broken/warning.frag without -Werror: $(cat "$tmp/log")" >&2
    failed=1
fi
exit $failed
