#!/bin/sh
# run_case.sh CASE — runs tests/cli/CASE.sh in a fresh project folder with lib.sh's helpers, then
# compares its transcript (stdout) with tests/cli/expected/CASE.out when that file exists.
# Environment: KILN_EXE (the kiln command, required), KILN_CORPUS (optional), KILN_CLI_UPDATE=1
# rewrites expected/CASE.out from this run instead of comparing (review the diff before committing).
# Exit status: 0 pass, 1 fail, 77 skip (as the case said).
set -u
name=${1:?usage: run_case.sh CASE}
KILN_CLI_DIR=$(cd "$(dirname "$0")" && pwd -P)
script=$KILN_CLI_DIR/$name.sh
[ -f "$script" ] || { echo "run_case.sh: no case $script" >&2; exit 1; }
[ -x "${KILN_EXE:-}" ] || { echo "run_case.sh: KILN_EXE='${KILN_EXE:-}' is not an executable" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kiln-cli-$name.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/project" "$tmp/project/assets" "$tmp/json"
: >"$tmp/json/index"
KILN_CLI_TMP=$tmp
export KILN_CLI_DIR KILN_CLI_TMP

# shellcheck disable=SC1090,SC1091
(cd "$tmp/project" && . "$KILN_CLI_DIR/lib.sh" && . "$script") >"$tmp/transcript"
status=$?
if [ "$status" -eq 77 ]; then
    echo "skipped: $name" >&2
    exit 77
fi
# Every --json document the case got (up to a failure too) against its schema, in one python3.
valid=0
if [ -s "$tmp/json/index" ]; then
    # shellcheck disable=SC2046 # the names are 1.json, 2.json, ...
    if ! (cd "$tmp/json" && /usr/bin/python3 "$KILN_CLI_DIR/validate.py" --auto $(cut -d: -f1 index)); then
        echo "FAIL: $name: --json output that does not match its schema; the documents were:" >&2
        cat "$tmp/json/index" >&2
        valid=1
    fi
fi
if [ "$status" -ne 0 ]; then
    echo "--- transcript so far" >&2
    cat "$tmp/transcript" >&2
    exit 1
fi
[ "$valid" -eq 0 ] || exit 1
expected=$KILN_CLI_DIR/expected/$name.out
if [ "${KILN_CLI_UPDATE:-0}" = 1 ]; then
    cp "$tmp/transcript" "$expected"
    echo "wrote $expected" >&2
elif [ -f "$expected" ]; then
    if ! diff -u "$expected" "$tmp/transcript" >&2; then
        echo "FAIL: $name: transcript differs from expected/$name.out (- expected, + got)" >&2
        exit 1
    fi
fi
exit 0
