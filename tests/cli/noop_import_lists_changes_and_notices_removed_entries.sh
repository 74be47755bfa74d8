# A no-op `import --all` at scale (docs/cache.md "The record index"): it lists what it did, not
# the assets that were cached (--verbose lists them), and costs a stat per source: an entry folder
# is not looked at while its objects/<xx> shard is as the index recorded, and entry mtimes (gc's
# least-recently-used order) are refreshed once an hour, not on every run. An entry removed by
# hand changes its shard, so the next import cooks that asset again.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
k 0 import --all
show
# Signatures and shard stamps taken within 2 s of a change are not trusted (racy): two runs 2 s
# apart leave an index whose every row and shard is.
sleep 2.2
k 0 import --all
sleep 2.2
k 0 import --all
show
k 0 import --all --verbose
show
# The entry of b removed by hand: b is imported again, a stays cached.
key=$("$KILN_EXE" import --all --json | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print([r["key"] for r in d["records"] if r["path"]=="b.png"][0])')
[ -d ".kiln/cache/objects/$(printf %.2s "$key")/$key" ] || fail "no entry folder for b.png"
rm -rf ".kiln/cache/objects/$(printf %.2s "$key")/$key"
k 0 import --all
show
k 0 report --json
expect_eq "$(j "[a['state'] for a in d['assets']]")" '["up_to_date", "up_to_date"]' "states after the repair"
# The cache size report gives comes from a memo of the folders that did not change
# (<cache>/size.memo, written by import): it is the bytes of every file under the cache.
cache_bytes() {
    "$PY" -c 'import os,sys; print(sum(os.lstat(os.path.join(r,f)).st_size for r,_,fs in os.walk(sys.argv[1]) for f in fs if os.path.isfile(os.path.join(r,f)) and not os.path.islink(os.path.join(r,f))))' .kiln/cache
}
expect_eq "$(j "d['cache']['size']")" "$(cache_bytes)" "cache size right after the import"
sleep 2.2
k 0 import --all
k 0 report --json
expect_eq "$(j "d['cache']['size']")" "$(cache_bytes)" "cache size from the memo"
# A report the index answers says where each setting came from, as the full check does.
expect_eq "$(j "[(a['state'], a['source_read'], 'settings_origin' in a) for a in d['assets']]")" \
    '[["up_to_date", false, true], ["up_to_date", false, true]]' "rows the index answered"
rm -rf ".kiln/cache/objects/$(printf %.2s "$key")"
k 0 report --json
expect_eq "$(j "d['cache']['size']")" "$(cache_bytes)" "cache size after a shard went"
k 0 import --all
show

# What a no-op does, counted with strace (skipped, saying so, where there is none or ptrace is
# refused; LeakSanitizer cannot run under ptrace).
command -v strace >/dev/null 2>&1 || { echo "no strace: the syscall counts are not checked" >&2; exit 0; }
strace -f -o /dev/null true 2>/dev/null || { echo "ptrace refused: the syscall counts are not checked" >&2; exit 0; }
sleep 2.2
k 0 import --all
sleep 2.2
k 0 import --all
# calls SYSCALL ARGS...: how many SYSCALL calls a run of kiln ARGS made
calls() {
    sc=$1
    shift
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace="$sc" -o "$KILN_CLI_TMP/trace" "$KILN_EXE" "$@" >"$OUT" 2>"$ERR" ||
        fail "kiln $*: exit $?"
    grep -c "$sc(" "$KILN_CLI_TMP/trace" || true
}
expect_eq "$(calls utimensat import --all)" 0 "entry touches of a no-op within the hour"
expect_grep "2 assets: 0 imported, 2 cached, 0 failed" "$OUT" "no-op result"
expect_eq "$(grep -c 'objects/[0-9a-f][0-9a-f]/[0-9a-f]\{64\}' "$KILN_CLI_TMP/trace")" 0 "entry folders looked at"
touch -d '2 hours ago' .kiln/cache/assets.touched
expect_eq "$(calls utimensat import --all)" 3 "touches an hour later (two entries and the stamp)"
expect_eq "$(calls utimensat import --all)" 0 "touches right after"
# A model and the image it names (owned by it, not an asset): the scan takes what the model names
# from the record index, so a no-op opens no model, record or manifest either.
mkpng assets/t.png 8 8 3
printf '{"asset":{"version":"2.0"},"images":[{"uri":"t.png"}],"textures":[{"source":0}],"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}]}\n' >assets/m.gltf
k 0 import --all
show
sleep 2.2
k 0 import --all
sleep 2.2
k 0 import --all
calls openat import --all >/dev/null
expect_eq "$(grep -v ENOENT "$KILN_CLI_TMP/trace" | grep -c -E '/assets/[0-9a-f]{32}\.json|manifest\.json|\.png"|\.gltf"' || true)" 0 "files a no-op with a model opened"
expect_grep "3 assets: 0 imported, 3 cached, 0 failed" "$OUT" "no-op with a model"
