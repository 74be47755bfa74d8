# kiln reimport says what it changed: each resolved setting whose value differs, before -> after,
# and each output's size before -> after (text and --json "changes"). Before it said only
# "output changed". A plain reimport (no settings) changes no setting; a platform's override
# counts when that platform is chosen.
mkpng assets/a.png 64 64 1
k 0 import assets/a.png
k 0 reimport assets/a.png --set texture.format=rgba8 --set texture.mipmaps=false
show
k 0 reimport assets/a.png --json --set texture.max_size=16 --set texture.quality=fast
expect_eq "$(j "[(c['path'], c['before'], c['after']) for c in d['changes']['settings']]")" \
    '[["texture.max_size", 16384, 16], ["texture.quality", "normal", "fast"]]' "settings changed"
expect_eq "$(j "[(c['label'], c['before'], c['after']) for c in d['changes']['outputs']]")" \
    '[["texture", 16640, 1280]]' "output sizes"
k 0 reimport assets/a.png
show
k 0 reimport assets/a.png --platform mobile --set platforms.mobile.texture.format=astc4x4
expect_grep '^  texture.format: "rgba8" -> "astc4x4"$' "$OUT" "the platform's override"
