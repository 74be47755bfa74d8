# inspect tells FBX and OBJ by their extension (by content for another name), as kiln_scene_load
# does, and describes what kiln imports
# from them through assimp (in kiln's space: metres, +Y up): the Blender sausage (binary FBX 7.4)
# has 1 mesh of 729 vertices and 576 triangles, a 3-joint skin and 3 clips; the spider OBJ, named
# .model here, reads its .mtl and 5 textures next to it; the FBX 6.1 ball (which assimp cannot
# read) comes through kiln's own reader (fbx_legacy.c). Skipped without the corpus.
fbx=${KILN_CORPUS:-}/fbx/ufbx
obj=${KILN_CORPUS:-}/obj/spider
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$fbx/blender_279_sausage_7400_binary.fbx" ] ||
    [ ! -f "$fbx/blender_279_ball_6100_ascii.fbx" ] || [ ! -f "$obj/spider.obj" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets/spider
cp "$fbx/blender_279_sausage_7400_binary.fbx" assets/sausage.fbx
cp "$fbx/blender_279_ball_6100_ascii.fbx" assets/ball61.fbx
cp "$obj/"*.jpg "$obj/spider.mtl" assets/spider/
cp "$obj/spider.obj" assets/spider/spider.model
k 0 inspect assets/sausage.fbx
show
k 0 inspect --json assets/sausage.fbx
counts="[d[k] for k in ('format', 'meshes', 'primitives', 'vertices', 'triangles', 'materials', 'skins', 'joints', 'animations')]"
expect_eq "$(j "$counts")" '["fbx", 1, 1, 729, 576, 1, 1, 3, 3]' "sausage.fbx counts"
k 0 inspect assets/spider/spider.model
show
k 0 inspect --json assets/spider/spider.model
expect_eq "$(j "$counts")" '["obj", 19, 19, 946, 1368, 6, 0, 0, 0]' "spider (OBJ by content) counts"
expect_eq "$(j "sorted(f.rsplit('/', 1)[1] for f in d['files'])")" \
    '["SpiderTex.jpg", "drkwood2.jpg", "engineflare1.jpg", "spider.mtl", "wal67ar_small.jpg", "wal69ar_small.jpg"]' \
    "spider files"
k 0 inspect --json assets/ball61.fbx
expect_eq "$(j "$counts")" '["fbx", 1, 2, 153, 80, 2, 0, 0, 0]' "FBX 6.1 ball counts"
