#!/bin/sh
# check_format.sh — fails when a C or C++ file differs from what clang-format (.clang-format)
# makes of it, and names each such file. `make format` rewrites them.
#
# Usage: scripts/check_format.sh [BASE]
#   BASE  check only the files changed since this commit (e.g. origin/main); default: every
#         tracked file (the tree is kept formatted, so this is the same as "what changed").
set -eu
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
    echo "check_format: clang-format is not installed (Debian package clang-format)" >&2
    exit 2
fi
if [ $# -ge 1 ]; then
    files=$(git diff --name-only --diff-filter=ACMR "$1" -- '*.c' '*.h' '*.cpp')
else
    files=$(git ls-files '*.c' '*.h' '*.cpp')
fi
bad=0
for f in $files; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
        echo "check_format: $f is not formatted (make format)" >&2
        bad=$((bad + 1))
    fi
done
if [ "$bad" -ne 0 ]; then
    echo "check_format: $bad file(s) to format" >&2
    exit 1
fi
echo "check_format: $(echo "$files" | grep -c .) files formatted"
