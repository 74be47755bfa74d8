# A no-op import or report reads no record, manifest or source once the record index holds
# (docs/cache.md "The record index"): counted with strace (openat of files under .kiln/cache and
# assets). An edit that keeps the mtime (same clock tick) is still seen: size, ctime and inode are
# compared too, and a file changed within 2 s of its signature is never trusted. A damaged index is
# ignored and written again. Before the index, every no-op opened each record and manifest.
# scripts/setup.sh installs strace; a machine whose sandbox forbids ptrace skips, saying so.
command -v strace >/dev/null 2>&1 || { echo "no strace" >&2; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "strace cannot trace here (ptrace refused)" >&2; exit 77; }
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
k 0 import --all
# Signatures taken within 2 s of a file's change are racy: the import after that makes trusted
# ones (records refreshed), and the one after it an index whose records folder stamp is trusted.
sleep 2.2
k 0 import --all
sleep 2.2
k 0 import --all
# opens EXE ARGS...: the files under the cache (records, manifests) and the sources it opened
# (LeakSanitizer cannot run under ptrace: a sanitizer build checks leaks in the other runs.)
opens() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace=openat -o "$KILN_CLI_TMP/trace" "$KILN_EXE" "$@" >"$OUT" 2>"$ERR" ||
        fail "kiln $*: exit $?"
    grep -v ENOENT "$KILN_CLI_TMP/trace" | grep -c -E '/assets/[0-9a-f]{32}\.json|manifest\.json|\.png"' || true
}
expect_eq "$(opens import --all)" 0 "no-op import opens"
expect_grep "2 assets: 0 imported, 2 cached, 0 failed" "$OUT" "no-op import result"
expect_eq "$(opens report --json)" 0 "no-op report opens"
expect_eq "$(j "[a['state'] for a in d['assets']]")" '["up_to_date", "up_to_date"]' "no-op report states"
# The same mtime after an edit of the bytes: stale all the same.
cp assets/a.png "$KILN_CLI_TMP/a.old"
mkpng assets/a.png 8 9 7
touch -r "$KILN_CLI_TMP/a.old" assets/a.png
k 0 report --json
expect_eq "$(j "[a['state'] for a in d['assets']]")" '["stale", "up_to_date"]' "same-mtime edit seen by report"
k 0 import --all --json
expect_eq "$(j "[r['status'] for r in d['records']]")" '["imported", "cached"]' "same-mtime edit seen by import"
# A damaged index is ignored (the full check answers) and written again.
sleep 2.2
k 0 import --all
sleep 2.2
k 0 import --all
[ "$(opens import --all)" -eq 0 ] || fail "the index was not trusted again"
printf 'x' | dd of=.kiln/cache/assets.index bs=1 seek=200 conv=notrunc 2>/dev/null
[ "$(opens import --all)" -gt 0 ] || fail "a damaged index was trusted"
expect_grep "2 assets: 0 imported, 2 cached, 0 failed" "$OUT" "import with a damaged index"
head -1 .kiln/cache/assets.index | grep -q '^kiln-index 2$' || fail "the index was not written again"
