# Folder defaults (issue 17, item 12): settings layered as kiln.json "defaults" (with path
# patterns) -> folder.meta (its folder and below, nearest wins) -> the asset's own .meta, merged
# field by field. report --json says where each value came from; the key covers the resolved
# settings, so changing one folder.meta makes exactly the assets under it stale. A bad
# folder.meta fails the assets below it, naming the file, the field and the line. The schemas
# (project.schema.json, folder-meta.schema.json) take the good files and refuse the bad ones.
schema_ok() { $PY "$KILN_CLI_DIR/validate.py" "$1" "$2" || fail "the $1 schema refused $2"; }
schema_refuses() {
    if $PY "$KILN_CLI_DIR/validate.py" "$1" "$2" 2>/dev/null; then fail "the $1 schema took $2"; fi
}
mkpng assets/ui/a.png 8 8 1
mkpng assets/ui/icons/b.png 8 8 2
mkpng assets/world/c.png 8 8 3
mkpng assets/world/d.png 8 8 4
cat >kiln.json <<'JSON'
{"defaults": {"texture": {"quality": "fast"},
              "ui/**": {"texture": {"format": "rgba8"}}}}
JSON
printf '{"texture": {"mipmaps": false}}\n' >assets/ui/folder.meta
printf '{"texture": {"max_size": 4}}\n' >assets/ui/icons/folder.meta
printf '{"texture": {"max_size": 2048}}\n' >assets/world/folder.meta
printf '{"import": {"texture": {"max_size": 8}}}\n' >assets/world/d.png.meta
schema_ok project kiln.json
for f in assets/ui/folder.meta assets/ui/icons/folder.meta assets/world/folder.meta; do
    schema_ok folder-meta $f
done
k 0 import --all
show
k 0 report --json
j "{r['path']: r['settings_origin'] for r in d['assets']}"
k 0 import --all --json
expect_eq "$(j "[(r['path'], r['summary']['format'], r['summary']['levels'], r['summary']['width']) for r in d['records']]")" \
    '[["ui/a.png", "rgba8", 1, 8], ["ui/icons/b.png", "rgba8", 1, 4], ["world/c.png", "bc7", 4, 8], ["world/d.png", "bc7", 4, 8]]' \
    "each layer reached its assets, field by field"
# Imports 2 s apart (as in noop_import_reads_no_record) leave a record index that is trusted and
# answers without reading records or restating folder.meta files: the folder defaults must
# still count.
sleep 2.2
k 0 import --all
sleep 2.2
k 0 import --all
# One folder default changes: exactly the two assets under ui/ are stale.
printf '{"texture": {"mipmaps": true}}\n' >assets/ui/folder.meta
k 0 report
show
k 0 report --json
expect_eq "$(j "[r['path'] for r in d['assets'] if r['state'] == 'stale']")" '["ui/a.png", "ui/icons/b.png"]' "stale"
k 0 import --all
show
k 0 report
show
# A bad folder.meta fails the assets below it, naming the file and the field (or the line).
printf '{"texture": {"mipmap": false}}\n' >assets/world/folder.meta
schema_refuses folder-meta assets/world/folder.meta
k 1 import --all
show
k 0 report --json
j "[(r['path'], r['state'], r.get('error', {}).get('json_pointer')) for r in d['assets']]"
printf '{"texture": {"mipmaps": false},\n "textur": {}}\n' >assets/world/folder.meta
schema_refuses folder-meta assets/world/folder.meta
k 2 import assets/world/c.png
show_err
printf '{"texture": {"mipmaps": false}\n' >assets/world/folder.meta
k 2 import assets/world/c.png
show_err
# A pattern in kiln.json is validated like any settings object.
printf '{"texture": {}}\n' >assets/world/folder.meta
printf '{"defaults": {"ui/**": {"texture": {"format": "bc9"}}}}\n' >kiln.json
schema_refuses project kiln.json
k 2 report
show_err
