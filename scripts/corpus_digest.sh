#!/bin/sh
# corpus_digest.sh — cooks the third-party corpus with one kiln binary and writes what came out
# as text that two builds can be compared by: the SHA-256 of every file of every cache entry,
# the report, a pack of every asset that imported, and `inspect --json` of each cooked kind.
#
# Usage: scripts/corpus_digest.sh KILN OUTDIR [CORPUS]
#   KILN    the kiln command to run
#   OUTDIR  a new folder: OUTDIR/work holds the cook, OUTDIR/digest the text to compare
#   CORPUS  default ../shared/corpus beside the checkout
# scripts/compare_cook.sh runs it for two commits and diffs the digests.
set -eu
kiln=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(realpath "${3:-$here/../shared/corpus}")
rm -rf "$out"
mkdir -p "$out/work" "$out/digest"
work=$(realpath "$out/work")
digest=$(realpath "$out/digest")

# Exit status 1 (some assets failed: the corpus holds invalid files on purpose) is expected.
"$kiln" import --all --root "$corpus" --out "$work/out" -j 2 --json >"$work/import.json" || [ $? -eq 1 ]
(cd "$work/out/cache" && find objects -type f | LC_ALL=C sort | xargs -d '\n' sha256sum) \
    >"$digest/objects.sha256"
"$kiln" report --root "$corpus" --out "$work/out" --json >"$work/report.json" || [ $? -eq 1 ]
# The report names the cache folder: the same text wherever the digest was made.
sed "s|$work|WORK|g" "$work/report.json" >"$digest/report.json"

# A pack of every asset that is up to date.
python3 - "$digest/report.json" "$work/assets.txt" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["assets"]
open(sys.argv[2], "w").write("".join(r["path"] + "\0" for r in rows if r["state"] == "up_to_date"))
EOF
(cd "$work" && xargs -0 "$kiln" pack --root "$corpus" --out "$work/out" -o "$work/all.kpak" \
    <"$work/assets.txt" >"$work/pack.log")
(cd "$work" && sha256sum all.kpak) >"$digest/pack.sha256"
(cd "$work" && "$kiln" inspect all.kpak --json) >"$digest/inspect_pack.json"

# inspect --json of the first few files of each extension (every cooked kind).
(cd "$work/out/cache" && find objects -type f ! -name manifest.json | LC_ALL=C sort) |
    awk -F. '{ n[$NF]++; if (n[$NF] <= 6) print }' | while read -r f; do
    echo "== $f"
    (cd "$work/out/cache" && "$kiln" inspect "$f" --json 2>&1) || true
done >"$digest/inspect_files.txt"
echo "corpus_digest: $(wc -l <"$digest/objects.sha256") cache files; digest in $digest"
