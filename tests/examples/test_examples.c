/* test_examples.c — the example assets of `make demo` (examples/gen_assets.c, gen_model.c):
 * generated twice into fresh folders they are byte for byte the same, a second run into a full
 * folder writes nothing, and a missing arm.bin brings back both halves of the arm; both models
 * load through kiln_scene_load without warnings and with the counts gen_model.h promises; they
 * cook (kiln_convert_model) with LODs, meshlets, BC7 and BC5, a 3-joint skeleton and two clips;
 * Khronos' glTF Validator finds no error (when node and tests/node's gltf-validator are there).
 * The generator is $KILN_GEN_EXAMPLES (set by CTest). */
#define _GNU_SOURCE
#include "support.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln.h"

/* Every file the generator writes, relative to its folder. */
static const char *const generated[] = {
    "textures/photo.png",
    "textures/decal_alpha.png",
    "textures/bumps_normal.png",
    "textures/bumps_normal.png.meta",
    "textures/checker_300x200.png",
    "textures/checker_300x200.png.meta",
    "textures/sky.hdr",
    "models/rock.glb",
    "models/arm.gltf",
    "models/arm.bin",
};
#define GENERATED_COUNT (sizeof generated / sizeof generated[0])

/* Runs the generator into dir; returns its stdout (malloc'd). */
static char *run_gen(const char *dir)
{
    const char *exe = getenv("KILN_GEN_EXAMPLES");
    if (!exe || !*exe)
        fail_msg("KILN_GEN_EXAMPLES is not set (CTest sets it to kiln_gen_examples)");
    char *cmd = kt_format("'%s' '%s'", exe, dir);
    char *out = NULL;
    int st = kt_run(cmd, &out);
    if (st != 0) fail_msg("%s: exit %d\n%s", cmd, st, out ? out : "");
    free(cmd);
    return out ? out : strdup("");
}

static void assert_same_file(const char *a_dir, const char *b_dir, const char *rel)
{
    char *a = kt_format("%s/%s", a_dir, rel), *b = kt_format("%s/%s", b_dir, rel);
    size_t as = 0, bs = 0;
    void *ad = kt_read_file(a, &as), *bd = kt_read_file(b, &bs);
    if (!ad || !bd) fail_msg("%s: not written", !ad ? a : b);
    if (as != bs || memcmp(ad, bd, as) != 0)
        fail_msg("%s differs between two runs (%zu vs %zu bytes)", rel, as, bs);
    free(ad);
    free(bd);
    free(a);
    free(b);
}

static void examples_are_byte_identical_across_runs(void **state)
{
    (void)state;
    char *a = kt_tempdir("examples-a"), *b = kt_tempdir("examples-b");
    char *out = run_gen(a);
    assert_non_null(strstr(out, "generated 7 example assets"));
    free(out);
    free(run_gen(b));
    for (size_t i = 0; i < GENERATED_COUNT; i++) assert_same_file(a, b, generated[i]);

    /* A folder that has everything: nothing is written, nothing is said. */
    out = run_gen(a);
    assert_string_equal(out, "");
    free(out);

    /* Without its buffer the arm is made again, both files, the same bytes. */
    char *bin = kt_format("%s/models/arm.bin", a);
    assert_int_equal(remove(bin), 0);
    out = run_gen(a);
    assert_non_null(strstr(out, "generated 1 example assets"));
    free(out);
    assert_same_file(a, b, "models/arm.gltf");
    assert_same_file(a, b, "models/arm.bin");
    free(bin);
    kt_rmtree(a);
    kt_rmtree(b);
    free(a);
    free(b);
}

static kiln_scene *load(const char *path)
{
    kiln_scene *s = NULL;
    kiln_error e;
    if (kiln_scene_load(path, NULL, &s, &e) != KILN_OK)
        fail_msg("%s: %s: %s", path, kiln_result_name(e.code), e.message);
    for (uint32_t i = 0; i < s->warning_count; i++) print_message("warning: %s\n", s->warnings[i]);
    assert_int_equal(s->warning_count, 0);
    return s;
}

static void check_rock(const kiln_scene *s)
{
    assert_int_equal(s->mesh_count, 1);
    assert_int_equal(s->meshes[0].primitive_count, 1);
    assert_int_equal(s->stats.triangles, 20224);
    assert_int_equal(s->stats.vertices, 129 * 81);
    const kiln_scene_primitive *p = &s->meshes[0].primitives[0];
    assert_int_equal(p->index_count, 20224 * 3);
    assert_non_null(p->normals);
    assert_int_equal(p->texcoord_count, 1);
    assert_int_equal(p->flags & KILN_SCENE_PRIM_NORMALS_GENERATED, 0);
    assert_true(p->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED); /* for the normal map */
    assert_true(s->has_bounds);
    for (int c = 0; c < 3; c++) {
        assert_true(s->bounds_min[c] < -0.5f && s->bounds_min[c] > -1.5f);
        assert_true(s->bounds_max[c] > 0.5f && s->bounds_max[c] < 1.5f);
    }
    assert_int_equal(s->image_count, 2);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(s->images[i].source, KILN_SCENE_IMAGE_BUFFER_VIEW);
        assert_string_equal(s->images[i].mime_type, "image/png");
        assert_int_equal(s->images[i].width, 256);
        assert_int_equal(s->images[i].height, 256);
    }
    assert_int_equal(s->material_count, 1);
    const kiln_scene_material *m = &s->materials[0];
    assert_int_equal(s->textures[m->textures[KILN_SCENE_SLOT_BASE_COLOR].texture].image, 0);
    assert_int_equal(s->textures[m->textures[KILN_SCENE_SLOT_NORMAL].texture].image, 1);
    assert_int_equal(s->file_count, 0);
    assert_int_equal(s->skin_count + s->animation_count + s->camera_count + s->light_count, 0);
}

static const kiln_scene_animation *animation(const kiln_scene *s, const char *name)
{
    for (uint32_t i = 0; i < s->animation_count; i++)
        if (!strcmp(s->animations[i].name, name)) return &s->animations[i];
    fail_msg("no animation \"%s\"", name);
    return NULL;
}

static void check_arm(const kiln_scene *s)
{
    assert_int_equal(s->mesh_count, 2);
    assert_int_equal(s->stats.triangles, 384 + 128);
    assert_int_equal(s->stats.vertices, 208 + 81);
    assert_int_equal(s->stats.joints, 3);
    assert_int_equal(s->skin_count, 1);
    const kiln_scene_skin *skin = &s->skins[0];
    assert_int_equal(skin->joint_count, 3);
    for (uint32_t j = 0; j < 3; j++) {
        const kiln_scene_node *n = &s->nodes[skin->joints[j]];
        assert_int_equal(n->parent, j == 0 ? -1 : (int32_t)skin->joints[j - 1]); /* a chain */
        assert_true(skin->inverse_bind[j * 16 + 13] == -(float)j);
        assert_true(n->world[13] == (float)j); /* bind pose: joint j at height j */
    }
    const kiln_scene_primitive *arm = &s->meshes[0].primitives[0];
    assert_int_equal(arm->joint_set_count, 1);
    assert_int_equal(arm->flags & KILN_SCENE_PRIM_WEIGHTS_RENORMALIZED, 0);
    assert_int_equal(arm->index_count, 384 * 3);

    const kiln_scene_mesh *flag = &s->meshes[1];
    assert_int_equal(flag->primitives[0].target_count, 2);
    assert_non_null(flag->primitives[0].targets[0].positions);
    assert_null(flag->primitives[0].targets[0].normals);
    assert_int_equal(flag->weight_count, 2);
    assert_non_null(flag->target_names);
    assert_string_equal(flag->target_names[0], "bulge");
    assert_string_equal(flag->target_names[1], "ripple");

    assert_int_equal(s->animation_count, 2);
    const kiln_scene_animation *wave = animation(s, "wave");
    assert_int_equal(wave->channel_count, 4);
    int rotations = 0, steps = 0;
    for (uint32_t c = 0; c < wave->channel_count; c++) {
        const kiln_scene_channel *ch = &wave->channels[c];
        if (ch->path == KILN_SCENE_PATH_ROTATION && ch->interpolation == KILN_SCENE_INTERP_LINEAR) {
            assert_int_equal(ch->key_count, 9);
            rotations++;
        }
        if (ch->path == KILN_SCENE_PATH_TRANSLATION && ch->interpolation == KILN_SCENE_INTERP_STEP)
            steps++;
    }
    assert_int_equal(rotations, 3);
    assert_int_equal(steps, 1);
    assert_true(wave->start == 0.0f && wave->end == 2.0f);
    const kiln_scene_animation *pulse = animation(s, "pulse");
    assert_int_equal(pulse->channel_count, 1);
    assert_int_equal(pulse->channels[0].path, KILN_SCENE_PATH_WEIGHTS);
    assert_int_equal(pulse->channels[0].components, 2);
    assert_int_equal(pulse->channels[0].key_count, 5);

    assert_int_equal(s->camera_count, 1);
    assert_int_equal(s->cameras[0].type, KILN_SCENE_CAMERA_PERSPECTIVE);
    assert_int_equal(s->light_count, 1);
    assert_int_equal(s->lights[0].type, KILN_SCENE_LIGHT_DIRECTIONAL);
    assert_int_equal(s->extensions_used_count, 1);
    assert_string_equal(s->extensions_used[0], "KHR_lights_punctual");
    assert_int_equal(s->extensions_required_count, 0);
    assert_int_equal(s->file_count, 1);
    assert_non_null(strstr(s->files[0], "/models/arm.bin"));
}

/* Cooks with kiln_convert_model and returns the result document. */
static json_t *cook(const char *model, const char *out_dir)
{
    kiln_convert_opts opts = {sizeof opts, NULL, NULL, 0, NULL, 1, {0}, NULL, NULL};
    char *doc = NULL;
    kiln_error e;
    if (kiln_convert_model(model, out_dir, &opts, &doc, &e) != KILN_OK)
        fail_msg("%s: %s: %s", model, kiln_result_name(e.code), e.message);
    json_error_t je;
    json_t *j = json_loads(doc, 0, &je);
    assert_non_null(j);
    kiln_string_free(doc);
    assert_int_equal(json_array_size(json_object_get(j, "warnings")), 0);
    return json_object_get(j, "summary") ? j : NULL;
}

static void examples_models_load_and_cook_as_described(void **state)
{
    (void)state;
    char *dir = kt_tempdir("examples-models");
    free(run_gen(dir));
    char *rock = kt_format("%s/models/rock.glb", dir), *arm = kt_format("%s/models/arm.gltf", dir);
    kiln_scene *s = load(rock);
    check_rock(s);
    kiln_scene_free(s);
    s = load(arm);
    check_arm(s);
    kiln_scene_free(s);

    char *out = kt_format("%s/cooked-rock", dir);
    json_t *j = cook(rock, out);
    json_t *sum = json_object_get(j, "summary");
    json_t *mesh = json_array_get(json_object_get(sum, "meshes"), 0);
    assert_int_equal(json_array_size(json_object_get(mesh, "triangles")), 4); /* LOD 0..3 */
    assert_true(json_integer_value(json_object_get(mesh, "meshlets")) > 100);
    json_t *images = json_object_get(sum, "images");
    assert_int_equal(json_array_size(images), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(images, 0), "format")),
                        "bc7");
    assert_string_equal(json_string_value(json_object_get(json_array_get(images, 1), "format")),
                        "bc5");
    json_decref(j);
    free(out);

    out = kt_format("%s/cooked-arm", dir);
    j = cook(arm, out);
    sum = json_object_get(j, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "triangles")), 512);
    json_t *skel = json_array_get(json_object_get(sum, "skeletons"), 0);
    assert_int_equal(json_integer_value(json_object_get(skel, "joints")), 3);
    assert_int_equal(json_array_size(json_object_get(sum, "clips")), 2);
    json_decref(j);
    free(out);

    /* Khronos' validator, when it is installed: no errors (its warnings are printed). */
    const char *src = getenv("KILN_SOURCE_DIR");
    char *cmd = kt_format("command -v node >/dev/null 2>&1 || exit 77; "
                          "node '%s/examples/validate_gltf.mjs' '%s' '%s'",
                          src ? src : ".", rock, arm);
    char *report = NULL;
    int st = kt_run(cmd, &report);
    print_message("%s", report ? report : "");
    if (st == 77) print_message("glTF validator not installed: not run\n");
    else assert_int_equal(st, 0);
    free(report);
    free(cmd);
    free(rock);
    free(arm);
    kt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(examples_are_byte_identical_across_runs),
        cmocka_unit_test(examples_models_load_and_cook_as_described),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
