# The read rule (docs/cache.md "What kiln reads"): every file kiln reads lies, symlinks resolved,
# inside its folder: a source, its .meta, a folder.meta and a .kilnignore inside their asset root,
# a model's .mtl and textures inside the model's folder, kiln.json inside the project folder.
# Files planted outside the project are reached through each kind of symlink, and strace proves
# that import --all, report, pack, meta and reimport never open them (nor the links to them).
# Before the rule, a file symlink in the root was scanned, hashed and cooked, an explicit PATH
# through one was imported, an OBJ's symlinked .mtl and texture were hashed for the key, and a
# symlinked .meta was read by report, meta and reimport.
# scripts/setup.sh installs strace; a machine whose sandbox forbids ptrace skips, saying so.
command -v strace >/dev/null 2>&1 || { echo "no strace" >&2; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "strace cannot trace here (ptrace refused)" >&2; exit 77; }

out=$KILN_CLI_TMP/kiln-outside
mkdir -p "$out" assets/m assets/m2 assets/sub
mkpng "$out/secret.png" 4 4 9
mkpng assets/ok.png 4 4 1
mkpng assets/sub/plain.png 4 4 2
printf 'newmtl red\nKd 1 0 0\n' >"$out/secret.mtl"
printf '{"guid": "0123456789abcdef0123456789abcdef"}\n' >"$out/secret.meta"
tri='v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl red\nf 1/1 2/2 3/3\n'
# a file symlink in the root; a .meta that is one; an OBJ whose .mtl is one; an OBJ whose own .mtl
# names a texture that is one
ln -s "$out/secret.png" assets/leak.png
ln -s "$out/secret.meta" assets/ok.png.meta
printf "mtllib lib.mtl\n$tri" >assets/m/tri.obj
ln -s "$out/secret.mtl" assets/m/lib.mtl
printf "mtllib in.mtl\n$tri" >assets/m2/tri.obj
printf 'newmtl red\nKd 1 0 0\nmap_Kd tex.png\n' >assets/m2/in.mtl
ln -s "$out/secret.png" assets/m2/tex.png

# traced WANT ARGS...: kiln ARGS under strace (exit WANT); fails if any open names the planted
# files or the links to them ($leaks). (LeakSanitizer cannot run under ptrace.)
leaks='kiln-outside|/leak\.png"|ok\.png\.meta"|/lib\.mtl"|/tex\.png"|/folder\.meta"|\.kilnignore"|kiln\.json"|borrowed\.png"'
traced() {
    want=$1
    shift
    printf '$ kiln %s (traced)\n' "$*"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace=openat,open -o "$KILN_CLI_TMP/trace" "$KILN_EXE" "$@" >"$OUT" 2>"$ERR"
    got=$?
    [ "$got" = "$want" ] || { cat "$ERR" >&2; fail "kiln $*: exit $got, expected $want"; }
    if grep -E "$leaks" "$KILN_CLI_TMP/trace" >"$KILN_CLI_TMP/leaks"; then
        cat "$KILN_CLI_TMP/leaks" >&2
        fail "kiln $*: opened a file outside its folder (or the link to it)"
    fi
}

# The scan skips the linked source, says why, and reads none of the rest.
traced 1 import --all
expect_said "ok.png: E_ASSET_IO ok.png.meta: resolves to .*kiln-outside/secret.meta, outside .*/assets; not read" "the linked .meta is refused"
expect_no_grep "leak.png" "$OUT" "the linked source is not imported"
expect_grep "imported .*m/tri.obj" "$OUT" "the OBJ with a linked .mtl imports"
expect_grep "imported .*m2/tri.obj" "$OUT" "the OBJ with a linked texture imports"
traced 0 report --verbose
show
traced 0 report --json
expect_eq "$(j "[s['path'] + ' ' + s['reason'] for s in d['skipped']]")" '["leak.png outside", "m2/tex.png outside"]' "skipped"
expect_eq "$(j "[s['target'].endswith('/kiln-outside/secret.png') for s in d['skipped']]")" '[true, true]' "skipped targets"
expect_eq "$(j "[a['path'] + ' ' + a['state'] for a in d['assets']]")" '["m/tri.obj up_to_date", "m2/tri.obj up_to_date", "ok.png invalid", "sub/plain.png up_to_date"]' "report"
# The dependencies count as missing, as the cook itself does not read them.
traced 0 report --why m/tri.obj --json
traced 1 pack --all -o "$KILN_CLI_TMP/all.pack"
traced 1 pack --all --keep-going -o "$KILN_CLI_TMP/all.pack"
traced 0 meta --all
traced 1 reimport assets/ok.png
expect_said "ok.png.meta: resolves to" "reimport refuses the linked .meta"
traced 0 reimport assets/m/tri.obj
# An explicit PATH through a file symlink: E_ASSET_IO, unread.
traced 1 import assets/leak.png
expect_said "E_ASSET_IO: assets/leak.png: resolves to .*kiln-outside/secret.png, outside .*/assets; not read" "an explicit PATH is refused"
traced 1 reimport assets/leak.png
traced 1 meta assets/leak.png
rm assets/ok.png.meta
traced 0 import --all

# kiln.json, .kilnignore and folder.meta through symlinks: refused unread.
printf '{}\n' >"$out/kiln.json"
printf 'raw/\n' >"$out/kilnignore"
printf '{"texture": {"mipmaps": false}}\n' >"$out/folder.meta"
ln -s "$out/folder.meta" assets/sub/folder.meta
traced 1 import --all
expect_said "sub/plain.png: E_ASSET_IO sub/folder.meta: resolves to .*kiln-outside/folder.meta" "a linked folder.meta is refused"
rm assets/sub/folder.meta
ln -s "$out/kilnignore" assets/.kilnignore
traced 1 report
expect_said ".kilnignore: resolves to .*kiln-outside/kilnignore" "a linked .kilnignore is refused"
rm assets/.kilnignore
ln -s "$out/kiln.json" kiln.json
traced 1 import --all
expect_said "kiln.json: resolves to .*kiln-outside/kiln.json" "a linked kiln.json is refused"
rm kiln.json

# Several roots: a source is confined to its own root, not to the union.
mkdir -p engine
mkpng engine/white.png 4 4 3
printf '{"roots": {"engine": "engine", "game": "assets"}}\n' >kiln.json
leaks='kiln-outside|/leak\.png"|/tex\.png"|borrowed\.png"'
ln -s "$W/engine/white.png" assets/borrowed.png
traced 0 report --json
expect_eq "$(j "[s['path'] + ' ' + s['reason'] for s in d['skipped']]")" '["game/borrowed.png outside", "game/leak.png outside", "game/m2/tex.png outside"]' "several roots: skipped"
