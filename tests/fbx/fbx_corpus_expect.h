/* fbx_corpus_expect.h — rows of test_fbx_corpus.c: path, result, meshes, primitives, vertices,
 * triangles, joints, clips, clip 0 seconds, materials, images, images found, morph targets, a
 * warning, height in metres. Counts are after assimp joins identical vertices. */
{"fbx/assimp/box.fbx", KILN_OK, 1, 1, 24, 12, 0, 0, 0.0000f, 1, 0, 0, 0, NULL, 0.4062f},
{"fbx/assimp/spider.fbx", KILN_OK, 19, 19, 958, 1368, 0, 0, 0.0000f, 4, 4, 0, 0, "SpiderTex.jpg\" not found", 79.7378f},
{"fbx/assimp/animation_with_skeleton.fbx", KILN_OK, 1, 1, 2464, 2112, 14, 1, 0.8333f, 1, 0, 0, 0, "camera \"Camera\" not imported", 1.8333f},
{"fbx/assimp/boxWithCompressedCTypeArray.FBX", KILN_OK, 1, 1, 8, 12, 0, 0, 0.0000f, 1, 0, 0, 0, NULL, 0.0100f},
{"fbx/assimp/embedded_ascii/box.FBX", KILN_OK, 1, 1, 24, 12, 0, 0, 0.0000f, 1, 1, 1, 0, NULL, 1.2000f},
{"fbx/ufbx/maya_cube_7500_ascii.fbx", KILN_OK, 1, 1, 24, 12, 0, 0, 0.0000f, 1, 0, 0, 0, NULL, 0.0100f},
{"fbx/ufbx/maya_cube_7500_binary.fbx", KILN_OK, 1, 1, 24, 12, 0, 0, 0.0000f, 1, 0, 0, 0, NULL, 0.0100f},
{"fbx/ufbx/blender_279_ball_6100_ascii.fbx", KILN_OK, 1, 2, 153, 80, 0, 0, 0.0000f, 2, 0, 0, 0, "camera \"Producer Perspective\" not imported", 0.0200f},  /* FBX 6.1: kiln's own reader (fbx_legacy.c); UnitScaleFactor 1 = cm */
{"fbx/ufbx/blender_279_sausage_7400_binary.fbx", KILN_OK, 1, 1, 729, 576, 3, 3, 0.0417f, 1, 0, 0, 0, NULL, 5.9089f},
{"fbx/ufbx/maya_blend_shape_cube_7700_binary.fbx", KILN_OK, 1, 1, 24, 12, 0, 1, 3.7500f, 1, 0, 0, 2, "read by kiln's FBX reader", 0.0100f},  /* blend shapes and their weights: fbx_blend.c */
{"fbx/ufbx/maya_uv_and_color_sets_7500_binary.fbx", KILN_OK, 1, 1, 24, 12, 0, 0, 0.0000f, 1, 0, 0, 0, NULL, 0.0100f},
{"fbx/ufbx/maya_kenney_character_7700_binary.fbx", KILN_OK, 1, 1, 1029, 1604, 45, 1, 0.8333f, 1, 0, 0, 0, NULL, 3.7647f},
{"obj/spider/spider.obj", KILN_OK, 19, 19, 946, 1368, 0, 0, 0.0000f, 6, 5, 5, 0, NULL, 79.7378f},
{"obj/cube_usemtl/cube_usemtl.obj", KILN_OK, 1, 4, 28, 12, 0, 0, 0.0000f, 4, 0, 0, 0, NULL, 1.0000f},
{"obj/concave_polygon/concave_polygon.obj", KILN_OK, 1, 1, 64, 64, 0, 0, 0.0000f, 2, 0, 0, 0, NULL, 1.4850f},
{"obj/space_in_material_name/space_in_material_name.obj", KILN_OK, 1, 1, 64, 64, 0, 0, 0.0000f, 2, 0, 0, 0, NULL, 1.4850f},
{"obj/cube_with_vertexcolors/cube_with_vertexcolors.obj", KILN_OK, 1, 1, 24, 12, 0, 0, 0.0000f, 1, 0, 0, 0, NULL, 1.0000f},
{"obj/blender_279_ball/blender_279_ball_0_obj.obj", KILN_OK, 1, 2, 153, 80, 0, 0, 0.0000f, 3, 0, 0, 0, NULL, 2.0000f},
{"obj/pirate/pirate.obj", KILN_OK, 1, 7, 3168, 5010, 0, 0, 0.0000f, 8, 0, 0, 0, "\"pirate.mtl\" (named by the model) not found", 1.9051f},
