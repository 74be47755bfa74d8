# A shader that fails to compile is not compiled again by the next import while its key holds:
# the record keeps the failure of that key, and an import reports it again ("failure":
# "recorded", the same error) without cooking: no read of the source or of its include (strace).
# --force compiles again; so does any change of the key (an edit of the include), and a fix
# imports it. Before, every `import --all` compiled every failing shader again.
command -v strace >/dev/null 2>&1 || { echo "no strace" >&2; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "strace cannot trace here (ptrace refused)" >&2; exit 77; }
mkdir -p assets/shaders/include
printf 'vec4 tint() { return vec4(1.0, 0.5, 0.25, 1.0); }\n' >assets/shaders/include/lib.glsl
cat >assets/shaders/bad.frag <<'GLSL'
#version 450
#include "include/lib.glsl"
layout(location = 0) out vec4 color;
void main() { color = tint() * ; }
GLSL
cat >assets/shaders/good.frag <<'GLSL'
#version 450
#include "include/lib.glsl"
layout(location = 0) out vec4 color;
void main() { color = tint(); }
GLSL
# reads EXE ARGS...: how many times kiln opened the failing shader or its include
reads() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace=openat -o "$KILN_CLI_TMP/trace" "$KILN_EXE" "$@" >"$OUT" 2>"$ERR"
    grep -v ENOENT "$KILN_CLI_TMP/trace" | grep -c -E 'bad\.frag"|lib\.glsl"' || true
}
k 1 import --all --json
first=$(j "[r['error']['message'] for r in d['records'] if r['status'] == 'failed']")
expect_eq "$(j "[(r['path'], r['status'], 'failure' in r) for r in d['records']]")" \
    '[["shaders/bad.frag", "failed", false], ["shaders/good.frag", "imported", false]]' "first import"
# Signatures taken within a second of a file's change are racy (docs/cache.md): the import after
# that reads the source once more and refreshes the record.
sleep 2.2
k 1 import --all
sleep 1.2
expect_eq "$(reads import --all --json)" 0 "reads of the failing shader and its include"
expect_eq "$(j "[(r['path'], r['status'], r.get('failure')) for r in d['records']]")" \
    '[["shaders/bad.frag", "failed", "recorded"], ["shaders/good.frag", "cached", null]]' "the failure recorded"
expect_eq "$(j "[r['error']['message'] for r in d['records'] if r['status'] == 'failed']")" "$first" \
    "the same error"
k 1 import --all
show
k 0 report --json
expect_eq "$(j "[(a['path'], a['state']) for a in d['assets']]")" \
    '[["shaders/bad.frag", "invalid"], ["shaders/good.frag", "up_to_date"]]' "report"
# --force compiles again.
[ "$(reads import --all --force --json)" -gt 0 ] || fail "--force did not compile the shader again"
expect_eq "$(j "[(r['path'], r['status'], r.get('failure')) for r in d['records']]")" \
    '[["shaders/bad.frag", "failed", null], ["shaders/good.frag", "imported", null]]' "--force"
# Another key (the include edited): compiled again.
printf '// a comment\n' >>assets/shaders/include/lib.glsl
[ "$(reads import --all --json)" -gt 0 ] || fail "a new key did not compile the shader again"
expect_eq "$(j "[(r['path'], r['status'], r.get('failure')) for r in d['records']]")" \
    '[["shaders/bad.frag", "failed", null], ["shaders/good.frag", "imported", null]]' "another key"
# Fixed: imported.
sed -i 's/tint() \* ;/tint() * 0.5;/' assets/shaders/bad.frag
k 0 import --all
show
