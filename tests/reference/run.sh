#!/bin/sh
# run.sh — starts test_reference.py with Debian's python3 (which has python3-pil); exit 77 (skip)
# when python3 with PIL or node is missing. Chromium and the npm packages are checked by
# render_threejs.mjs, which exits 77 without them.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ] || ! "$py" -c 'import PIL' 2>/dev/null; then
    echo "SKIP: python3 with PIL (python3-pil) is missing"; exit 77
fi
if [ "$1" != compare ] && ! command -v "${KILN_NODE:-node}" >/dev/null 2>&1; then
    echo "SKIP: node is missing"; exit 77
fi
exec "$py" "$(dirname "$0")/test_reference.py" "$@"
