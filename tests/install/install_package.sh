#!/bin/sh
# install_package.sh — an installed kiln works for a program outside the tree: `cmake --install`
# of the build into a temporary prefix, which is then moved elsewhere (an install is relocatable:
# the .pc files find their prefix from ${pcfiledir}, the CMake package from its own folder), then
# consumer/ (a cook-side program linking kiln::kiln, a runtime program linking kiln::kiln_rt)
# built and run twice: through find_package(kiln CONFIG) and through plain pkg-config (kiln.pc,
# kiln_rt.pc; --static when the libraries are archives), whose flags must name the moved prefix;
# consumer_rt/ (find_package(kiln COMPONENTS rt)) configured and run with the cook side's own
# dependencies made unfindable; then examples/custom_kind built against the prefix and run.
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

"$cmake" --install "$build" --prefix "$work/installed" >"$work/install.log"
# Moved after installing: nothing may still point at the folder it was installed into.
mv "$work/installed" "$prefix"
if grep -rl "$work/installed" "$prefix" >"$work/stale.txt" 2>/dev/null; then
    echo "install_package: files still name the prefix they were installed into:" >&2
    cat "$work/stale.txt" >&2
    exit 1
fi
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

# 2. pkg-config: Cflags, and Libs/Requires (with their private parts for archives). kiln's own
# -I and -L folders are those of the moved prefix (the others are its dependencies').
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
real_include=$(cd "$prefix/include" && pwd -P)
real_lib=$(cd "$libdir" && pwd -P)
for module in kiln kiln_rt; do
    found=
    for flag in $(pkg-config --cflags "$module") $(pkg-config --libs "$module"); do
        case $flag in -I* | -L*) ;; *) continue ;; esac
        got=$(cd "${flag#-?}" 2>/dev/null && pwd -P) || got="(missing) ${flag#-?}"
        case $got in
        "$real_include" | "$real_lib") found="$found ${flag%"${flag#-?}"}" ;;
        "$work"* | "(missing)"*)
            echo "install_package: pkg-config $module gives $flag ($got)" >&2
            exit 1
            ;;
        esac
    done
    [ "$found" = " -I -L" ] || {
        echo "install_package: pkg-config $module: -I and -L of the moved prefix, got:$found" >&2
        exit 1
    }
done
mkdir -p "$work/pc"
# shellcheck disable=SC2046 # the flags are words
"$cc" -o "$work/pc/kiln_consumer" "$src/tests/install/consumer/kiln_consumer.c" \
    $(pkg-config --cflags kiln) $(pkg-config $static --libs kiln)
# shellcheck disable=SC2046
"$cc" -o "$work/pc/kiln_rt_consumer" "$src/tests/install/consumer/kiln_rt_consumer.c" \
    $(pkg-config --cflags kiln_rt) $(pkg-config $static --libs kiln_rt)
run pc "$work/pc"

# 3. find_package(kiln COMPONENTS rt) on a machine view without the cook side's dependencies:
# libdraco and zlib are made unfindable (CMAKE_DISABLE_FIND_PACKAGE_*), and pkg-config sees only
# the runtime's modules (kiln_rt, libzstd, libxxhash): configuring fails if kilnConfig.cmake
# looks for jansson, libjpeg-turbo, stb, draco or zlib.
mkdir -p "$work/rt-pc"
for m in libzstd libxxhash; do
    f=$(pkg-config --variable=pcfiledir "$m" 2>/dev/null)/$m.pc
    [ -f "$f" ] && cp "$f" "$work/rt-pc/"
done
cp "$(dirname "$pc")/kiln_rt.pc" "$work/rt-pc/"
PKG_CONFIG_LIBDIR=$work/rt-pc PKG_CONFIG_PATH= "$cmake" -S "$src/tests/install/consumer_rt" \
    -B "$work/rt" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_draco=TRUE \
    -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=TRUE >"$work/rt.log" 2>&1 ||
    { cat "$work/rt.log" >&2; echo "install_package: COMPONENTS rt needs the cook side" >&2; exit 1; }
"$cmake" --build "$work/rt" >"$work/rt-build.log" 2>&1 || { cat "$work/rt-build.log" >&2; exit 1; }
"$work/rt/kiln_rt_consumer" "$work/pc.run" # reads what the cook-side consumer wrote there
# The same view refuses the cook side: the test above would notice a config that looked.
if PKG_CONFIG_LIBDIR=$work/rt-pc PKG_CONFIG_PATH= "$cmake" -S "$src/tests/install/consumer" \
    -B "$work/cook-blind" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_DISABLE_FIND_PACKAGE_draco=TRUE -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=TRUE \
    >"$work/cook-blind.log" 2>&1 && [ -n "$static" ]; then
    echo "install_package: the cook side configured without its dependencies" >&2
    exit 1
fi

# 4. examples/custom_kind: a kind registered from outside the library (CSG shape sets), built
# against the installed package, cooks, packs, loads and hot-reloads its sets.
"$cmake" -S "$src/examples/custom_kind" -B "$work/csg" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release >"$work/csg.log" 2>&1 ||
    { cat "$work/csg.log" >&2; exit 1; }
"$cmake" --build "$work/csg" >"$work/csg-build.log" 2>&1 || { cat "$work/csg-build.log" >&2; exit 1; }
"$work/csg/csg_demo" "$src/examples/custom_kind/assets" "$work/csg.run" >"$work/csg-run.log" ||
    { cat "$work/csg-run.log" >&2; exit 1; }
kind=shared; [ -n "$static" ] && kind=static
echo "install_package: $kind libraries installed and moved; find_package, COMPONENTS rt (without the cook side's dependencies) and pkg-config consumers and examples/custom_kind build and run"
