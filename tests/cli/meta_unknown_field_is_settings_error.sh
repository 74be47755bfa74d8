# A .meta with a field kiln does not know: E_IMPORT_SETTINGS naming the field by JSON pointer, in
# the human form and with --json; exit 2 for that path alone, 1 in an --all batch (the rest is
# imported); report lists the asset invalid with the same error.
mkpng assets/a.png 4 4 1
mkpng assets/b.png 4 4 2
printf '{"import": {"texture": {"format": "rgba8", "colour": "red"}}}\n' >assets/a.png.meta
k 2 import assets/a.png
show
# The human form names the field by its pointer too, as kiln_cli_fail does for other commands
# ("... (at /import/texture/colour)").
expect_said "unknown field \"colour\"" "human form names the field"
expect_said "/import/texture/colour" "human form of the error names the JSON pointer"
k 2 import --json assets/a.png
show
expect_eq "$(j "d['failed'][0]['error']['json_pointer']")" /import/texture/colour "pointer"
k 1 import --all --json
expect_eq "$(j "[(r['path'], r['status']) for r in d['records']]")" '[["a.png", "failed"], ["b.png", "imported"]]' "--all"
expect_eq "$(j "d['records'][0]['error']['code']")" E_IMPORT_SETTINGS "--all, code"
k 0 report
show
k 0 report --json
expect_eq "$(j "d['assets'][0]['state']")" invalid "report state"
expect_eq "$(j "d['assets'][0]['error']['json_pointer']")" /import/texture/colour "report pointer"
expect_eq "$(j "d['assets'][1]['state']")" up_to_date "the other asset"
# A nested unknown object is named as precisely.
printf '{"import": {"texture": {}}, "platforms": {"mobile": {"texture": {"fromat": "astc4x4"}}}}\n' >assets/a.png.meta
k 2 import --json assets/a.png
expect_eq "$(j "d['failed'][0]['error']['json_pointer']")" /platforms/mobile/texture/fromat "platform pointer"
