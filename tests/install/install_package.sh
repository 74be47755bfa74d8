#!/bin/sh
# install_package.sh — an installed kiln works for a program outside the tree: `cmake --install`
# of the build into a temporary prefix, then consumer/ (a cook-side program linking kiln::kiln, a
# runtime program linking kiln::kiln_rt) built and run twice: through find_package(kiln CONFIG)
# and through pkg-config (kiln.pc, kiln_rt.pc; --static when the libraries are archives); then
# examples/custom_kind built against the prefix and run.
#
# Environment (CTest sets it): KILN_BINARY_DIR (the build), KILN_SOURCE_DIR, KILN_CMAKE (cmake),
# KILN_CC (the C compiler). Exit 77 (skip) when pkg-config is missing.
set -eu
build=${KILN_BINARY_DIR:?}
src=${KILN_SOURCE_DIR:?}
cmake=${KILN_CMAKE:-cmake}
cc=${KILN_CC:-cc}
command -v pkg-config >/dev/null || { echo "install_package: no pkg-config" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kiln-install.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
prefix=$work/prefix

"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
pc=$(find "$prefix" -name kiln.pc)
[ -n "$pc" ] || { echo "install_package: no kiln.pc installed" >&2; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
static=--static
[ -e "$libdir/libkiln.so" ] && static=
# The installed command starts (a shared build's finds its libraries relative to itself).
env -u LD_LIBRARY_PATH "$prefix/bin/kiln" version >"$work/version.txt" ||
    { echo "install_package: the installed kiln does not start" >&2; exit 1; }
# The consumers' shared libraries are found through the prefix, not the build tree.
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

run() { # run NAME DIR: both programs of one build, in a fresh folder
    mkdir -p "$work/$1.run"
    "$2/kiln_consumer" "$work/$1.run"
    "$2/kiln_rt_consumer" "$work/$1.run"
}

# 1. find_package(kiln CONFIG): the exported targets with their include folder and dependencies.
"$cmake" -S "$src/tests/install/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 ||
    { cat "$work/cmake.log" >&2; exit 1; }
"$cmake" --build "$work/cmake" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
run cmake "$work/cmake"

# 2. pkg-config: Cflags, and Libs/Requires (with their private parts for archives).
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
mkdir -p "$work/pc"
# shellcheck disable=SC2046 # the flags are words
"$cc" -o "$work/pc/kiln_consumer" "$src/tests/install/consumer/kiln_consumer.c" \
    $(pkg-config --cflags kiln) $(pkg-config $static --libs kiln)
# shellcheck disable=SC2046
"$cc" -o "$work/pc/kiln_rt_consumer" "$src/tests/install/consumer/kiln_rt_consumer.c" \
    $(pkg-config --cflags kiln_rt) $(pkg-config $static --libs kiln_rt)
run pc "$work/pc"

# 3. examples/custom_kind: a kind registered from outside the library (CSG shape sets), built
# against the installed package, cooks, packs, loads and hot-reloads its sets.
"$cmake" -S "$src/examples/custom_kind" -B "$work/csg" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release >"$work/csg.log" 2>&1 ||
    { cat "$work/csg.log" >&2; exit 1; }
"$cmake" --build "$work/csg" >"$work/csg-build.log" 2>&1 || { cat "$work/csg-build.log" >&2; exit 1; }
"$work/csg/csg_demo" "$src/examples/custom_kind/assets" "$work/csg.run" >"$work/csg-run.log" ||
    { cat "$work/csg-run.log" >&2; exit 1; }
kind=shared; [ -n "$static" ] && kind=static
echo "install_package: $kind libraries installed; find_package and pkg-config consumers and examples/custom_kind build and run"
