# kiln inspect NAME#label inside a project reaches cooked output by name: the artifact `label` of
# the source NAME's current cache entry (its record and current key for the project's platform),
# inspected as if its cooked file had been named, with "artifact" saying which file that is.
# NAME is relative to the root or to the current folder, as import's PATHs. An asset that was
# never imported, is stale, or was imported for another platform only is E_NOT_IMPORTED, naming
# `kiln import NAME`; a label the entry does not have is E_USAGE listing the labels it has.
mkpng assets/a.png 8 8 1
mktri assets/models/tri.gltf
k 1 inspect 'models/tri.gltf#scene'
show_err
k 0 import --all
k 0 inspect 'models/tri.gltf#scene'
show
k 0 inspect --json 'assets/models/tri.gltf#mesh0/prim0'
expect_eq "$(j "(d['type'], d['kind'], d['file'], d['artifact']['name'], d['artifact']['label'])")" \
    '["container", "MESH", "assets/models/tri.gltf#mesh0/prim0", "models/tri.gltf#mesh0/prim0", "mesh0/prim0"]' "mesh by name"
file=$(j "d['artifact']['path']")
k 0 inspect --json "$file"
expect_eq "$(j "(d['type'], d['kind'], d['file'] == '$file')")" '["container", "MESH", true]' "the file named by its path"
k 0 inspect --json 'a.png#texture'
expect_eq "$(j "(d['type'], d['format'], d['artifact']['name'], d['artifact']['asset_id'][:2])")" \
    '["ktx2", "BC7_SRGB", "a.png#texture", "0x"]' "texture by name"
k 2 inspect 'models/tri.gltf#mesh7'
show_err
k 1 inspect --json 'a.png#texture' --platform mobile
expect_eq "$(j "d['error']['code']")" E_NOT_IMPORTED "another platform's entry is not this one"
mkpng assets/a.png 8 8 2
k 1 inspect 'a.png#texture'
show_err
k 1 inspect --json 'nothing.png#texture'
expect_eq "$(j "d['error']['code']")" E_ASSET_IO "no such source"
