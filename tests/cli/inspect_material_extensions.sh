# A glTF material with every ratified KHR_materials_* extension (the hand-written
# tests/material_ext/all_extensions.gltf) is read without a warning, cooked by `kiln model`, and
# `kiln inspect` shows each extension of the cooked material with its factors and the textures
# of its own slots (sampler, UV set, transform); --json has them under material.extensions, as
# docs/schemas/inspect.schema.json says. The sheen and specular colours are sRGB images, the
# clearcoat normal a normal map (BC5), the other extension textures linear data.
cp "$KILN_SOURCE_DIR"/tests/material_ext/all_extensions.gltf "$KILN_SOURCE_DIR"/tests/material_ext/*.png .
k 0 inspect all_extensions.gltf
expect_said "warnings    none" "no warning for a kept extension"
k 0 model all_extensions.gltf out
k 0 inspect out/material0.kmat
show
k 0 inspect --json out/material0.kmat
expect_eq "$(j "sorted(d['material']['extensions'])")" \
    '["KHR_materials_anisotropy", "KHR_materials_clearcoat", "KHR_materials_dispersion", "KHR_materials_emissive_strength", "KHR_materials_ior", "KHR_materials_iridescence", "KHR_materials_sheen", "KHR_materials_specular", "KHR_materials_transmission", "KHR_materials_volume"]' \
    "every extension of material 0"
expect_eq "$(j "d['material']['extensions']['KHR_materials_specular']['specular_color']")" '[2.5, 1.25, 0.5]' "specular colour above 1 kept"
expect_eq "$(j "d['material']['extensions']['KHR_materials_sheen']['sheen_roughness_texture']['transform']")" \
    '{"offset": [0.25, 0.5], "rotation": 0.5, "scale": [2.0, 3.0]}' "texture transform of an extension slot"
# the roles: image0 sRGB colour (base, sheen and specular colours), image1 the clearcoat normal
# map, image2 linear data (every other extension texture)
cp out/manifest.json "$OUT"
expect_eq "$(j "[(i['label'], i['role'], i['format']) for i in d['summary']['images']]")" \
    '[["image0", "color", "bc7"], ["image1", "normal", "bc5"], ["image2", "linear", "bc7"]]' "image roles"
k 0 inspect out/material2.kmat
show
k 0 inspect --json out/material1.kmat
expect_eq "$(j "(d['material']['unlit'], sorted(d['material']['extensions']))")" '[true, ["KHR_materials_unlit"]]' "unlit"
