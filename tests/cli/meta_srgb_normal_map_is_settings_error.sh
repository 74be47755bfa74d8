# srgb true on a normal map is refused: E_IMPORT_SETTINGS at /import/texture/srgb, exit 2.
mkpng assets/n.png 4 4 1
printf '{"import": {"texture": {"srgb": true, "normal_map": true}}}\n' >assets/n.png.meta
k 2 import assets/n.png
show
k 2 import --json assets/n.png
show
k 0 report --json
expect_eq "$(j "(d['assets'][0]['state'], d['assets'][0]['error']['code'])")" '["invalid", "E_IMPORT_SETTINGS"]' "report"
# Without srgb the same normal map imports as linear.
printf '{"import": {"texture": {"normal_map": true}}}\n' >assets/n.png.meta
k 0 import --json assets/n.png
expect_eq "$(j "(d['records'][0]['summary']['srgb'], d['records'][0]['summary']['normal_map'])")" '[false, true]' "normal map summary"
