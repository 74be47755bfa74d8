# --set texture.format=bc1 on a model (model.texture_format is what sets its images' format) was
# written into the .meta and did nothing. A setting of a group the asset's kind does not read is
# now E_IMPORT_SETTINGS (exit 2) naming the field the user probably meant, at the field's
# pointer, and nothing is written: reimport (--set and --settings, import and platforms), and the
# one-shot texture and model commands alike. A .meta that already holds such a group is not
# judged (it may be shared), only what the edit sets.
printf '{"asset": {"version": "2.0"}}' >assets/car.gltf
mkpng assets/a.png 4 4 1
k 2 reimport assets/car.gltf --set texture.format=bc1
show_err
[ -e assets/car.gltf.meta ] && fail "a refused setting was written"
k 2 reimport assets/car.gltf --set texture.format=bc1 --json
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_SETTINGS", "/import/texture/format"]' "error document"
k 2 reimport assets/car.gltf --set platforms.mobile.texture.max_size=512
show_err
k 2 reimport assets/car.gltf --settings '{"texture": {"mipmaps": false}}'
show_err
k 2 reimport assets/car.gltf --set 'texture={"quality": "high"}'
show_err
[ -e assets/car.gltf.meta ] && fail "a refused setting was written"
# The other way round: a texture's model settings.
k 2 reimport assets/a.png --set model.texture_quality=high
show_err
k 2 reimport assets/a.png --set fbx.scale=2
show_err
[ -e assets/a.png.meta ] && fail "a refused setting was written"
# The one-shot commands: one kind each.
k 2 texture assets/a.png out.ktx2 --set model.lods=[0.5]
show_err
k 2 model assets/car.gltf out --set texture.max_size=64
show_err
[ -e out.ktx2 ] || [ -e out ] && fail "a refused conversion wrote"
# What applies is taken, and a .meta holding another group already is left as it is.
printf '{"import": {"texture": {"format": "bc7"}}}' >assets/car.gltf.meta
k 0 reimport assets/car.gltf --set model.texture_format=bc1
expect_eq "$($PY -c "import json; print(json.dumps(json.load(open('assets/car.gltf.meta'))['import'], sort_keys=True))")" \
    '{"model": {"texture_format": "bc1"}, "texture": {"format": "bc7"}}' ".meta after the edit"
