#!/bin/sh
# compare_cook.sh — checks that two commits cook the corpus into identical bytes: builds each in
# a temporary worktree (or takes a folder that already holds a build), runs corpus_digest.sh with
# both, and diffs the digests. Exit status 0 when every cooked byte, the pack, the report and the
# inspector's JSON are the same.
#
# Usage: scripts/compare_cook.sh OLD [NEW]
#   OLD, NEW  commits (NEW defaults to the work tree as it is, built in ./build)
# Environment: KILN_COMPARE_DIR (default /tmp/kiln-compare) for the worktrees and digests.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${KILN_COMPARE_DIR:-/tmp/kiln-compare}
mkdir -p "$dir"

build_at() { # rev -> path of its kiln command
    rev=$(git -C "$here" rev-parse --short "$1")
    wt="$dir/wt-$rev"
    if [ ! -x "$wt/build/tools/kiln/kiln" ]; then
        git -C "$here" worktree add --detach -f "$wt" "$rev" >/dev/null 2>&1 || true
        cmake -S "$wt" -B "$wt/build" -DKILN_BUILD_TESTS=OFF -DKILN_BUILD_BENCH=OFF >/dev/null
        cmake --build "$wt/build" -j"$(nproc)" --target kiln_cli >/dev/null
    fi
    echo "$wt/build/tools/kiln/kiln"
}

old=$(build_at "$1")
if [ $# -ge 2 ]; then
    new=$(build_at "$2")
else
    cmake --build "$here/build" -j"$(nproc)" --target kiln_cli >/dev/null
    new="$here/build/tools/kiln/kiln"
fi
sh "$here/scripts/corpus_digest.sh" "$old" "$dir/old"
sh "$here/scripts/corpus_digest.sh" "$new" "$dir/new"
if diff -r "$dir/old/digest" "$dir/new/digest" >"$dir/diff.txt"; then
    echo "compare_cook: identical ($(wc -l <"$dir/new/digest/objects.sha256") cache files, pack, report, inspect)"
else
    echo "compare_cook: the cooks differ; first lines of $dir/diff.txt:" >&2
    head -40 "$dir/diff.txt" >&2
    exit 1
fi
