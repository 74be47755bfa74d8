#!/bin/sh
# check_layers.sh — fails when a file includes a header of a layer above its own.
#
# The order (docs/architecture.md): core → codec → import → process → write → pipeline → tools,
# and runtime → codec + core only. A file may include headers of its own layer and of the layers
# before it. The command (tools/) and the examples include only the public headers (kiln/*.h) and
# their own folder's headers. Processors, writers and the runtime never see settings documents: no
# <jansson.h> in codec, process, write or runtime (importers parse JSON sources with it). Tests, fuzz
# targets and benchmarks reach into every layer on purpose and are not checked.
#
# Usage: scripts/check_layers.sh [ROOT]   (default: the checkout holding this script)
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"

rank() {
    case $1 in
    core) echo 0 ;; codec) echo 1 ;; import) echo 2 ;; process) echo 3 ;; write) echo 4 ;;
    pipeline) echo 5 ;; *) echo 99 ;;
    esac
}

bad=0
complain() {
    echo "check_layers: $1" >&2
    bad=$((bad + 1))
}

# Layered source folders.
for dir in core codec import process write pipeline runtime; do
    [ -d "src/$dir" ] || continue
    for f in $(find "src/$dir" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) | sort); do
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$f" |
            sed 's/^\([0-9]*\):.*include[[:space:]]*"\([a-z_]*\)\/.*/\1 \2/' >/tmp/kiln_layers.$$ || true
        while read -r line target; do
            [ "$target" = "kiln" ] && continue
            if [ "$dir" = runtime ]; then
                case $target in core | codec | runtime) continue ;; esac
                complain "$f:$line: the runtime includes $target/ (only core/, codec/, runtime/)"
                continue
            fi
            if [ "$target" = runtime ]; then
                complain "$f:$line: $dir/ includes runtime/ (nothing below the runtime does)"
                continue
            fi
            if [ "$(rank "$target")" -gt "$(rank "$dir")" ]; then
                complain "$f:$line: $dir/ includes $target/, a layer above it"
            fi
        done </tmp/kiln_layers.$$
        rm -f /tmp/kiln_layers.$$
        case $dir in
        codec | process | write | runtime)
            if grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<jansson.h>' "$f" >/dev/null; then
                [ "$f" = src/core/json.h ] ||
                    complain "$f: $dir/ includes <jansson.h> (settings documents are the pipeline's)"
            fi
            ;;
        esac
    done
done

# The command and the examples: public headers and their own folder only.
for f in $(find tools examples -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) 2>/dev/null | sort); do
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' "$f" |
        sed 's/^\([0-9]*\):.*include[[:space:]]*"\([^"]*\)".*/\1 \2/' >/tmp/kiln_layers.$$ || true
    while read -r line target; do
        case $target in kiln/*) continue ;; esac
        complain "$f:$line: includes \"$target\" (the command and examples use only include/kiln/*.h)"
    done </tmp/kiln_layers.$$
    rm -f /tmp/kiln_layers.$$
done

if [ "$bad" -gt 0 ]; then
    echo "check_layers: $bad include(s) against the layer order" >&2
    exit 1
fi
echo "check_layers: every include points down"
