/* test_model_corpus.c — the model cook end to end through kiln_convert_model (the code path of an
 * import): every good corpus glTF cooks without textures and every artifact passes its reader
 * and the checks of model_check.c against its source (ids, summary, scene order, skinned joints
 * in skeleton order, clip tracks and keys, LOD chains); a few textured models cook their images
 * by role; an image used in several roles gets an artifact per role; broken files and bad
 * settings fail with their codes and write nothing. Skips (77) without the corpus. Under the
 * sanitizers (KILN_TEST_SANITIZED=1) one variant per corpus model, without the largest. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model_check.h"

/* Under the sanitizers: the plain glTF (or GLB) variant of each model; the other variants
 * (embedded, binary, Draco) reach the same cook with the same data. */
static bool keep_sanitized(const char *path)
{
    return strstr(path, "/glTF/") != NULL || strstr(path, "/pirate.glb") != NULL ||
           strstr(path, "/BoxWithInfinites.glb") != NULL;
}

static void model_every_good_corpus_gltf_cooks_and_every_artifact_reads_back(void **state)
{
    (void)state;
    size_t count = 0;
    char **models = mc_corpus_models(&count);
    if (!count) skip();
    bool sanitized = mc_sanitized();
    const char *sets[] = {"model.textures=false"};
    mc_stats st;
    memset(&st, 0, sizeof st);
    size_t cooked = 0;
    char *docs = kt_tempdir("model-docs");
    for (size_t i = 0; i < count; i++) {
        if (sanitized && !keep_sanitized(models[i])) continue;
        char *dir = kt_tempdir("model");
        char *out = kt_format("%s/out", dir);
        kiln_result code;
        kiln_error err;
        json_t *doc = mc_convert(models[i], out, 2, sets, 1, &code, &err);
        if (!doc) fail_msg("%s: %s: %s", models[i], kiln_result_name(code), err.message);
        char *doc_path = kt_format("%s/%03zu.json", docs, i);
        assert_int_equal(json_dump_file(doc, doc_path, 0), 0);
        free(doc_path);
        mc_model m;
        mc_load(&m, out, doc);
        mc_check(&m, models[i], false, &st);
        mc_free(&m);
        kt_rmtree(dir);
        free(out);
        free(dir);
        cooked++;
    }
    fprintf(
        stderr,
        "%zu models: %zu meshes (%zu with LODs, %zu levels), %zu skinned (%zu vertices checked), "
        "%zu skeletons (%zu reordered), %zu clips (%zu tracks, %zu keys), %zu materials, %zu "
        "nodes\n",
        cooked, st.meshes, st.meshes_with_lods, st.levels, st.skinned_prims,
        st.skinned_vertices_checked, st.skeletons, st.skeletons_reordered, st.clips, st.tracks,
        st.keys, st.materials, st.nodes);
    /* Every document against docs/schemas/model.schema.json (python3-jsonschema, as tests/cli). */
    const char *source_dir = getenv("KILN_SOURCE_DIR");
    if (source_dir) {
        char *cmd = kt_format(
            "cd '%s' && KILN_SOURCE_DIR='%s' /usr/bin/python3 '%s/tests/cli/validate.py' model "
            "*.json 1>&2",
            docs, source_dir, source_dir);
        if (kt_run(cmd, NULL) != 0)
            fail_msg("some --json document does not match model.schema.json");
        free(cmd);
    }
    kt_rmtree(docs);
    free(docs);
    /* The corpus exercises what the checks look at: otherwise they would pass vacuously. */
    assert_true(cooked >= (sanitized ? 30u : 70u));
    assert_true(st.meshes_with_lods >= 3);
    assert_true(st.skinned_vertices_checked > 1000);
    /* No corpus skin lists a child before its parent: the synthetic model below covers that. */
    assert_true(st.clips >= 10);
    for (size_t i = 0; i < count; i++) free(models[i]);
    free(models);
}

/* Textured corpus models with textures on (images at most 256 texels a side, so the encoders
 * stay quick): every textured slot names an image artifact cooked for its role. */
static void model_textured_corpus_models_cook_images_by_role(void **state)
{
    (void)state;
    char *corpus = kt_corpus_path("gltf");
    if (!corpus) skip();
    free(corpus);
    static const char *const models[] = {
        "BoxTextured/glTF/BoxTextured.gltf",
        "Fox/glTF-Binary/Fox.glb",
        "MultiUVTest/glTF-Binary/MultiUVTest.glb",
        "TextureSettingsTest/glTF/TextureSettingsTest.gltf",
        "NormalTangentMirrorTest/glTF/NormalTangentMirrorTest.gltf",
    };
    const char *sets[] = {"model.texture_max_size=256"};
    mc_stats st;
    memset(&st, 0, sizeof st);
    size_t normal_maps = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        char *src = mc_corpus(models[i]);
        char *dir = kt_tempdir("model-tex");
        char *out = kt_format("%s/out", dir);
        kiln_result code;
        kiln_error err;
        json_t *doc = mc_convert(src, out, 2, sets, 1, &code, &err);
        if (!doc) fail_msg("%s: %s: %s", src, kiln_result_name(code), err.message);
        mc_model m;
        mc_load(&m, out, doc);
        size_t before = st.images;
        mc_check(&m, src, true, &st);
        assert_true(st.images > before); /* each of these has textures */
        size_t k;
        json_t *row;
        json_array_foreach (json_object_get(m.summary, "images"), k, row) {
            assert_true(json_integer_value(json_object_get(row, "width")) <= 256);
            if (!strcmp(json_string_value(json_object_get(row, "role")), "normal")) normal_maps++;
        }
        json_t *w;
        json_array_foreach (json_object_get(m.doc, "warnings"), k, w) /* only the size limit */
            assert_non_null(strstr(json_string_value(w), "resized from"));
        mc_free(&m);
        kt_rmtree(dir);
        free(out);
        free(dir);
        free(src);
    }
    assert_true(normal_maps >= 1);
}

/* A quad whose two materials use image a as colour, metallic-roughness, occlusion, emissive
 * and normal map, and image b as normal map first and colour second. */
static void write_two_role_model(const char *dir)
{
    float bin[35];
    static const float pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const float nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    static const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    memcpy(bin, pos, sizeof pos);
    memcpy(bin + 12, nrm, sizeof nrm);
    memcpy(bin + 24, uv, sizeof uv);
    static const uint16_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(bin + 32, idx, sizeof idx);
    char *p = kt_format("%s/quad.bin", dir);
    kt_write_file(p, bin, 140);
    free(p);
    static const char *const json =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"mesh\":0}],"
        "\"meshes\":[{\"primitives\":["
        "{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3,\"material\":0},"
        "{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3,\"material\":1}]}],"
        "\"materials\":["
        "{\"name\":\"a-everywhere\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0},"
        "\"metallicRoughnessTexture\":{\"index\":0}},\"normalTexture\":{\"index\":1},"
        "\"occlusionTexture\":{\"index\":0},\"emissiveTexture\":{\"index\":0},\"emissiveFactor\":[1,1,1]},"
        "{\"name\":\"b-colour\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":1}},"
        "\"normalTexture\":{\"index\":0}}],"
        "\"textures\":[{\"source\":0},{\"source\":1}],"
        "\"images\":[{\"uri\":\"a.png\"},{\"uri\":\"b.png\"}],"
        "\"buffers\":[{\"uri\":\"quad.bin\",\"byteLength\":140}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":32},"
        "{\"buffer\":0,\"byteOffset\":128,\"byteLength\":12}],"
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}";
    p = kt_format("%s/quad.gltf", dir);
    kt_write_file(p, json, strlen(json));
    free(p);
    uint8_t px[32 * 32 * 3];
    for (int img = 0; img < 2; img++) {
        for (int i = 0; i < 32 * 32; i++) {
            px[i * 3 + 0] = (uint8_t)(i * 7 + img * 90);
            px[i * 3 + 1] = (uint8_t)(i / 32 * 8);
            px[i * 3 + 2] = (uint8_t)(200 + img * 40);
        }
        p = kt_format("%s/%c.png", dir, 'a' + img);
        kt_write_png(p, px, 32, 32, 3);
        free(p);
    }
}

static uint32_t vk_format_of(const mc_model *m, const char *label)
{
    const mc_artifact *a = mc_find(m, label);
    if (!a) fail_msg("no artifact %s", label);
    kiln_ktx2_info info;
    assert_int_equal(kiln_ktx2_read(a->bytes, a->size, &info, NULL), KILN_OK);
    return info.vk_format;
}

static void model_image_used_in_several_roles_gets_one_artifact_per_role(void **state)
{
    (void)state;
    char *dir = kt_tempdir("model-roles");
    char *src_dir = kt_format("%s/src", dir), *src = kt_format("%s/src/quad.gltf", dir);
    char *out = kt_format("%s/out", dir);
    write_two_role_model(src_dir);
    kiln_result code;
    kiln_error err;
    json_t *doc = mc_convert(src, out, 1, NULL, 0, &code, &err);
    if (!doc) fail_msg("%s: %s", kiln_result_name(code), err.message);
    mc_model m;
    mc_load(&m, out, doc);
    mc_check(&m, src, true, NULL);
    /* image0 is first used as colour, image1 as a normal map: their first roles get the plain
     * labels, the others image<i>/<role> (and files image<i>.<role>.ktx2). */
    assert_int_equal(vk_format_of(&m, "image0"), KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    assert_int_equal(vk_format_of(&m, "image0/normal"), KILN_VK_FORMAT_BC5_UNORM_BLOCK);
    assert_int_equal(vk_format_of(&m, "image0/linear"), KILN_VK_FORMAT_BC7_UNORM_BLOCK);
    assert_int_equal(vk_format_of(&m, "image1"), KILN_VK_FORMAT_BC5_UNORM_BLOCK);
    assert_int_equal(vk_format_of(&m, "image1/color"), KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    assert_string_equal(mc_find(&m, "image0/normal")->file, "image0.normal.ktx2");
    assert_string_equal(mc_find(&m, "image1/color")->file, "image1.color.ktx2");
    assert_int_equal(json_array_size(json_object_get(m.summary, "images")), 5);
    /* The materials name them slot by slot. */
    const mc_artifact *m0 = mc_find(&m, "material0"), *m1 = mc_find(&m, "material1");
    kiln_material_view v0, v1;
    assert_int_equal(kiln_material_read(m0->bytes, m0->size, 0, &v0, NULL), KILN_OK);
    assert_int_equal(kiln_material_read(m1->bytes, m1->size, 0, &v1, NULL), KILN_OK);
    const kiln_material_texture *t0 = v0.material.textures, *t1 = v1.material.textures;
    assert_int_equal(t0[KILN_MATERIAL_SLOT_BASE_COLOR].image, mc_find(&m, "image0")->id);
    assert_int_equal(t0[KILN_MATERIAL_SLOT_EMISSIVE].image, mc_find(&m, "image0")->id);
    assert_int_equal(t0[KILN_MATERIAL_SLOT_METALLIC_ROUGHNESS].image,
                     mc_find(&m, "image0/linear")->id);
    assert_int_equal(t0[KILN_MATERIAL_SLOT_OCCLUSION].image, mc_find(&m, "image0/linear")->id);
    assert_int_equal(t0[KILN_MATERIAL_SLOT_NORMAL].image, mc_find(&m, "image1")->id);
    assert_int_equal(t1[KILN_MATERIAL_SLOT_BASE_COLOR].image, mc_find(&m, "image1/color")->id);
    assert_int_equal(t1[KILN_MATERIAL_SLOT_NORMAL].image, mc_find(&m, "image0/normal")->id);
    assert_int_equal(t1[KILN_MATERIAL_SLOT_OCCLUSION].image, 0);
    mc_free(&m);

    /* Without textures: no image artifacts and empty slots, the rest the same. */
    char *out2 = kt_format("%s/out2", dir);
    const char *sets[] = {"model.textures=false"};
    doc = mc_convert(src, out2, 1, sets, 1, &code, &err);
    assert_non_null(doc);
    mc_load(&m, out2, doc);
    mc_check(&m, src, false, NULL);
    assert_null(mc_find(&m, "image0"));
    mc_free(&m);
    kt_rmtree(dir);
    free(out2);
    free(out);
    free(src);
    free(src_dir);
    free(dir);
}

/* A skinned strip under a three-joint chain root -> mid -> tip (nodes 0, 1, 2) whose skin lists
 * its joints child first (tip, root, mid), so the skeleton's parents-first order moves every
 * joint; a second root (the mesh node) makes the scene's root synthetic; a clip turns the tip
 * and moves the mid joint. */
static void write_skin_model(const char *dir, const char *extra_nodes, const char *skins)
{
    uint8_t bin[280];
    memset(bin, 0, sizeof bin);
    static const float pos[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0};
    /* skin joint indices: 1 = root, 2 = mid, 0 = tip */
    static const uint8_t joints[24] = {1, 0, 0, 0, 1, 0, 0, 0, 2, 1, 0, 0,
                                       2, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0};
    static const float weights[24] = {1,    0,    0, 0, 1,     0,     0, 0, 0.5f,  0.5f,  0, 0,
                                      0.5f, 0.5f, 0, 0, 0.75f, 0.25f, 0, 0, 0.75f, 0.25f, 0, 0};
    static const uint16_t idx[12] = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
    static const float times[2] = {0, 1};
    static const float rot[8] = {0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f};
    static const float trans[6] = {0, 1, 0, 0.5f, 1, 0};
    memcpy(bin, pos, sizeof pos);
    memcpy(bin + 72, joints, sizeof joints);
    memcpy(bin + 96, weights, sizeof weights);
    memcpy(bin + 192, idx, sizeof idx);
    memcpy(bin + 216, times, sizeof times);
    memcpy(bin + 224, rot, sizeof rot);
    memcpy(bin + 256, trans, sizeof trans);
    char *p = kt_format("%s/rig.bin", dir);
    kt_write_file(p, bin, sizeof bin);
    free(p);
    /* Extra nodes (from node 4 on) are roots of the scene too. */
    static const char *const head =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"name\":\"two roots\",\"nodes\":[0,3%s]}],"
        "\"nodes\":[{\"name\":\"root\",\"children\":[1]},"
        "{\"name\":\"mid\",\"translation\":[0,1,0],\"children\":[2]},"
        "{\"name\":\"tip\",\"translation\":[0,1,0]},"
        "{\"name\":\"strip\",\"mesh\":0,\"skin\":0}";
    static const char *const tail =
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2},"
        "\"indices\":3}]}],"
        "\"animations\":[{\"name\":\"bend\",\"samplers\":[{\"input\":4,\"output\":5},{\"input\":4,\"output\":6}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}}]}],"
        "\"buffers\":[{\"uri\":\"rig.bin\",\"byteLength\":280}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":72},"
        "{\"buffer\":0,\"byteOffset\":72,\"byteLength\":24},"
        "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":96},"
        "{\"buffer\":0,\"byteOffset\":192,\"byteLength\":24},"
        "{\"buffer\":0,\"byteOffset\":216,\"byteLength\":8},"
        "{\"buffer\":0,\"byteOffset\":224,\"byteLength\":32},"
        "{\"buffer\":0,\"byteOffset\":256,\"byteLength\":24}],"
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,2,0]},"
        "{\"bufferView\":1,\"componentType\":5121,\"count\":6,\"type\":\"VEC4\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":6,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":12,\"type\":\"SCALAR\"},"
        "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}]}";
    char *start = kt_format(head, *extra_nodes ? ",4" : "");
    char *json = kt_format("%s%s],\"skins\":[%s],%s", start, extra_nodes, skins, tail);
    free(start);
    p = kt_format("%s/rig.gltf", dir);
    kt_write_file(p, json, strlen(json));
    free(p);
    free(json);
}

static void write_reordered_skin_model(const char *dir)
{
    write_skin_model(dir, "", "{\"joints\":[2,0,1]}");
}

static void model_skinned_joints_follow_the_skeleton_order(void **state)
{
    (void)state;
    char *dir = kt_tempdir("model-skin");
    char *src_dir = kt_format("%s/src", dir), *src = kt_format("%s/src/rig.gltf", dir);
    char *out = kt_format("%s/out", dir);
    write_reordered_skin_model(src_dir);
    kiln_result code;
    kiln_error err;
    json_t *doc = mc_convert(src, out, 2, NULL, 0, &code, &err);
    if (!doc) fail_msg("%s: %s", kiln_result_name(code), err.message);
    mc_model m;
    mc_load(&m, out, doc);
    mc_stats st;
    memset(&st, 0, sizeof st);
    mc_check(&m, src, true, &st); /* joints through joint -> skin equal the source's */
    assert_int_equal(st.skeletons_reordered, 1);
    assert_int_equal(st.skinned_vertices_checked, 6);

    /* The skeleton puts root, mid, tip first to last; the mesh's joints are those indices. */
    const mc_artifact *ska = mc_find(&m, "skeleton0"), *ma = mc_find(&m, "mesh0/prim0");
    kiln_skeleton_view sk;
    assert_int_equal(kiln_skeleton_read(ska->bytes, ska->size, 0, &sk, NULL), KILN_OK);
    static const char *const names[3] = {"root", "mid", "tip"};
    static const uint32_t skin_index[3] = {1, 2, 0};
    for (uint32_t j = 0; j < 3; j++) {
        kiln_skeleton_joint jt = kiln_skeleton_joint_at(&sk, j);
        assert_string_equal(jt.name, names[j]);
        assert_int_equal(jt.skin_joint, skin_index[j]);
        assert_int_equal(jt.parent, (int32_t)j - 1);
    }
    kiln_mesh_view mv;
    assert_int_equal(kiln_mesh_read(ma->bytes, ma->size, 0, &mv, NULL), KILN_OK);
    kiln_mesh_decoded d;
    assert_int_equal(kiln_mesh_decode(&mv, 0, NULL, &d, NULL), KILN_OK);
    for (uint32_t i = 0; i < d.vertex_count; i++) {
        float y = d.positions[i * 3 + 1];
        uint16_t j0 = d.joints[i * 4];
        float w0 = d.weights[i * 4];
        /* y 0: root alone; y 1: mid and root; y 2: tip 0.75 and mid 0.25 */
        if (y < 0.5f) assert_true(j0 == 0 && w0 > 0.99f);
        else if (y < 1.5f) assert_true((j0 == 1 || j0 == 0) && fabsf(w0 - 0.5f) < 0.01f);
        else assert_true(j0 == 2 && fabsf(w0 - 0.75f) < 0.01f);
    }
    kiln_mesh_decoded_free(&d);

    /* The clip moves joints of that skeleton, by skeleton index. */
    const mc_artifact *ca = mc_find(&m, "clip0");
    kiln_clip_view cv;
    assert_int_equal(kiln_clip_read(ca->bytes, ca->size, 0, &cv, NULL), KILN_OK);
    assert_int_equal(cv.skeleton, ska->id);
    assert_int_equal(cv.track_count, 2);
    kiln_clip_track t0 = kiln_clip_track_at(&cv, 0), t1 = kiln_clip_track_at(&cv, 1);
    assert_true(t0.target == 2 && !(t0.flags & KILN_CLIP_TRACK_NODE));
    assert_true(t1.target == 1 && !(t1.flags & KILN_CLIP_TRACK_NODE));
    float q[4];
    assert_int_equal(kiln_clip_sample(&cv, 0, 1.0f, q), 4);
    assert_true(fabsf(q[2] - 0.70710677f) < 1e-3f && fabsf(q[3] - 0.70710677f) < 1e-3f);

    /* Two roots: a synthetic root named after the scene, then root's chain, then the strip. */
    const mc_artifact *sa = mc_find(&m, "scene");
    kiln_cooked_scene_view sv;
    assert_int_equal(kiln_cooked_scene_read(sa->bytes, sa->size, 0, &sv, NULL), KILN_OK);
    assert_string_equal(sv.name, "two roots");
    assert_int_equal(sv.node_count, 5);
    static const char *const order[5] = {"two roots", "root", "mid", "tip", "strip"};
    for (uint32_t i = 0; i < 5; i++)
        assert_string_equal(kiln_cooked_scene_node(&sv, i).name, order[i]);
    assert_int_equal(kiln_cooked_scene_node(&sv, 4).skeleton, ska->id);
    mc_free(&m);
    kt_rmtree(dir);
    free(out);
    free(src);
    free(src_dir);
    free(dir);
}

/* A second node drawing the strip with a skin whose cooked joint order differs gets a copy of
 * the mesh in that order ("mesh0/prim0/skin1"), without a warning; one with the same joint
 * order shares the first copy. model_check proves each node's copy deforms as the source. */
static void model_mesh_drawn_with_two_skins_gets_a_copy_per_joint_order(void **state)
{
    (void)state;
    static const struct {
        const char *skins;
        bool copied;
    } cases[] = {{"{\"joints\":[2,0,1]},{\"joints\":[0,1,2]}", true},
                 {"{\"joints\":[2,0,1]},{\"joints\":[2,0,1]}", false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *dir = kt_tempdir("model-two-skins");
        char *src_dir = kt_format("%s/src", dir), *src = kt_format("%s/src/rig.gltf", dir);
        char *out = kt_format("%s/out", dir);
        write_skin_model(src_dir, ",{\"name\":\"copy\",\"mesh\":0,\"skin\":1}", cases[c].skins);
        kiln_result code;
        kiln_error err;
        json_t *doc = mc_convert(src, out, 1, NULL, 0, &code, &err);
        if (!doc) fail_msg("%s: %s", kiln_result_name(code), err.message);
        assert_int_equal(json_array_size(json_object_get(doc, "warnings")), 0);
        mc_model m;
        mc_load(&m, out, doc);
        mc_stats st;
        memset(&st, 0, sizeof st);
        mc_check(&m, src, false, &st);
        assert_int_equal(mc_find(&m, "mesh0/prim0/skin1") != NULL, cases[c].copied);
        assert_int_equal(st.mesh_copies, cases[c].copied ? 1 : 0);
        mc_free(&m);
        kt_rmtree(dir);
        free(out);
        free(src);
        free(src_dir);
        free(dir);
    }
}

static void model_broken_corpus_files_fail_with_import_failed_and_write_nothing(void **state)
{
    (void)state;
    char *corpus = kt_corpus_path("gltf");
    if (!corpus) skip();
    free(corpus);
    static const char *const broken[] = {
        "assimp-IndexOutOfRange/glTF/IndexOutOfRange.gltf",
        "assimp-IndexOutOfRange/glTF/AllIndicesOutOfRange.gltf",
        "assimp-RecursiveNodes/glTF/RecursiveNodes.gltf",
        "assimp-TestNoRootNode/glTF/NoScene.gltf",
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        char *src = mc_corpus(broken[i]);
        char *dir = kt_tempdir("model-broken");
        char *out = kt_format("%s/out", dir);
        kiln_result code;
        kiln_error err;
        assert_null(mc_convert(src, out, 1, NULL, 0, &code, &err));
        assert_int_equal(code, KILN_E_IMPORT_FAILED);
        assert_true(err.json_pointer[0] == '/'); /* where in the file */
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0); /* nothing written, not even the folder */
        kt_rmtree(dir);
        free(out);
        free(dir);
        free(src);
    }
}

static void model_bad_settings_are_refused_before_anything_is_read(void **state)
{
    (void)state;
    char *dir = kt_tempdir("model-settings");
    char *out = kt_format("%s/out", dir), *missing = kt_format("%s/missing.gltf", dir);
    static const char *const bad[][1] = {
        {"model.lods=[0.5,0.75]"},          /* not decreasing */
        {"model.meshlet_max_vertices=300"}, /* above meshoptimizer's 255 */
        {"model.compress=zstd"},
        {"model.nonsense=1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kiln_result code;
        kiln_error err;
        /* The input does not exist: settings are checked first. */
        assert_null(mc_convert(missing, out, 1, bad[i], 1, &code, &err));
        if (code != KILN_E_IMPORT_SETTINGS)
            fail_msg("%s: %s: %s", bad[i][0], kiln_result_name(code), err.message);
        assert_true(!strncmp(err.json_pointer, "/import/model", 13));
    }
    kt_rmtree(dir);
    free(missing);
    free(out);
    free(dir);
}

/* Cooks `in` with the settings into a fresh folder and reads back mesh0/prim0: *view points into
 * *bytes (free it). Fails the test on any error. */
static void cook_prim0(const char *in, const char *const *sets, size_t count, uint8_t **bytes,
                       kiln_mesh_view *view)
{
    char *out = kt_tempdir("model-prim0");
    kiln_result code;
    kiln_error err;
    json_t *doc = mc_convert(in, out, 1, sets, count, &code, &err);
    if (!doc) fail_msg("%s: %s", kiln_result_name(code), err.message);
    char *path = kt_format("%s/mesh0.prim0.kmesh", out);
    size_t size;
    *bytes = kt_read_file(path, &size);
    assert_non_null(*bytes);
    assert_int_equal(kiln_mesh_read(*bytes, size, 0, view, &err), KILN_OK);
    free(path);
    json_decref(doc);
    kt_rmtree(out);
    free(out);
}

/* model.meshlets=false: the same mesh without meshlets (for renderers without mesh shaders). */
static void model_meshlets_false_cooks_no_meshlets(void **state)
{
    (void)state;
    char *in = mc_corpus("Fox/glTF-Binary/Fox.glb");
    if (!in) skip();
    const char *with[] = {"model.textures=false"};
    const char *without[] = {"model.textures=false", "model.meshlets=false"};
    const char *const *sets[2] = {with, without};
    size_t counts[2] = {1, 2};
    uint64_t meshlets[2];
    for (int k = 0; k < 2; k++) {
        uint8_t *bytes;
        kiln_mesh_view v;
        cook_prim0(in, sets[k], counts[k], &bytes, &v);
        meshlets[k] = v.meshlet_count;
        free(bytes);
    }
    assert_true(meshlets[0] > 0);
    assert_int_equal(meshlets[1], 0);
    free(in);
}

/* glTF: a primitive without normals is shaded flat. kiln stores no normals for it and flags the
 * mesh KILN_MESH_FLAT_NORMALS, so vertices are shared between faces again (Fox's 1,728 corners
 * weld to a few hundred vertices) and the mesh can be simplified; a model with normals keeps
 * them and is not flagged. */
static void model_source_without_normals_cooks_flat(void **state)
{
    (void)state;
    const char *models[] = {"Fox/glTF-Binary/Fox.glb", "BoxTextured/glTF/BoxTextured.gltf"};
    for (int k = 0; k < 2; k++) {
        char *in = mc_corpus(models[k]);
        if (!in) skip();
        const char *sets[] = {"model.textures=false"};
        uint8_t *bytes;
        kiln_mesh_view v;
        cook_prim0(in, sets, 1, &bytes, &v);
        if (k == 0) {
            assert_true(v.flags & KILN_MESH_FLAT_NORMALS);
            assert_null(v.streams[KILN_MESH_NORMAL].data);
            assert_true(v.vertex_count < 1728 / 2);
            assert_true(v.index_count / 3 >= 576);
            assert_true(v.level_count >= 2); /* shared vertices: the simplifier can work */
        } else {
            assert_false(v.flags & KILN_MESH_FLAT_NORMALS);
            assert_non_null(v.streams[KILN_MESH_NORMAL].data);
        }
        free(bytes);
        free(in);
    }
}

/* model.tangents: "generate" (default) makes the MikkTSpace tangents DamagedHelmet's normal map
 * needs (the file has none); "file" stores only the file's own: none here, 4 bytes a vertex less,
 * and the vertices the tangents split are welded again. */
static void model_tangents_file_generates_none(void **state)
{
    (void)state;
    char *in = mc_corpus("DamagedHelmet/glTF/DamagedHelmet.gltf");
    if (!in) skip();
    const char *gen[] = {"model.textures=false"};
    const char *file[] = {"model.textures=false", "model.tangents=\"file\""};
    const char *const *sets[2] = {gen, file};
    size_t counts[2] = {1, 2};
    uint32_t vertices[2];
    for (int k = 0; k < 2; k++) {
        uint8_t *bytes;
        kiln_mesh_view v;
        cook_prim0(in, sets[k], counts[k], &bytes, &v);
        if (k == 0) assert_non_null(v.streams[KILN_MESH_TANGENT].data);
        else assert_null(v.streams[KILN_MESH_TANGENT].data);
        assert_non_null(v.streams[KILN_MESH_NORMAL].data);
        vertices[k] = v.vertex_count;
        free(bytes);
    }
    assert_true(vertices[1] < vertices[0]);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_every_good_corpus_gltf_cooks_and_every_artifact_reads_back),
        cmocka_unit_test(model_textured_corpus_models_cook_images_by_role),
        cmocka_unit_test(model_image_used_in_several_roles_gets_one_artifact_per_role),
        cmocka_unit_test(model_skinned_joints_follow_the_skeleton_order),
        cmocka_unit_test(model_mesh_drawn_with_two_skins_gets_a_copy_per_joint_order),
        cmocka_unit_test(model_broken_corpus_files_fail_with_import_failed_and_write_nothing),
        cmocka_unit_test(model_bad_settings_are_refused_before_anything_is_read),
        cmocka_unit_test(model_meshlets_false_cooks_no_meshlets),
        cmocka_unit_test(model_source_without_normals_cooks_flat),
        cmocka_unit_test(model_tangents_file_generates_none),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char *corpus = kt_corpus_path("gltf");
    free(corpus);
    return failed ? failed : corpus ? 0 : 77; /* without the corpus: skipped, as CTest counts it */
}
