/* test_anim_corpus.c — skeletons and clips of the skinned and animated corpus models: Fox (24
 * joints, 3 clips), CesiumMan, RiggedSimple, RiggedFigure, SimpleSkin, InterpolationTest (step,
 * linear, cubic), AnimatedMorphCube (weights), BoxAnimated (node animation). Every skin cooks
 * and reads back with parents first, parents and world matrices as the scene has them and inverse
 * binds intact; every clip keeps its key counts (constant tracks collapsed) and samples as the
 * glTF formulas of anim_ref.h say; with reduction on, the error measured here stays within the
 * bound; the bytes do not depend on the order things are cooked in. Skips (77) without the corpus.
 * Prints the key counts and measured errors it finds (docs/animation.md quotes them). */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_check.h"
#include "core/alloc.h"
#include "core/hash.h"
#include "process/clip.h"
#include "process/skeleton.h"
#include "write/clip_write.h"
#include "write/skeleton_write.h"

typedef struct model {
    const char *path;
    uint32_t skins, joints; /* joints of skin 0 */
    uint32_t clips;
} model;

static const model models[] = {
    {"gltf/Fox/glTF-Binary/Fox.glb", 1, 24, 3},
    {"gltf/CesiumMan/glTF-Binary/CesiumMan.glb", 1, 19, 1},
    {"gltf/RiggedSimple/glTF-Binary/RiggedSimple.glb", 1, 2, 1},
    {"gltf/RiggedFigure/glTF-Binary/RiggedFigure.glb", 1, 19, 1},
    {"gltf/SimpleSkin/glTF/SimpleSkin.gltf", 1, 2, 1},
    {"gltf/InterpolationTest/glTF-Binary/InterpolationTest.glb", 0, 0, 9},
    {"gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", 0, 0, 1},
    {"gltf/BoxAnimated/glTF-Binary/BoxAnimated.glb", 0, 0, 1},
};
#define MODEL_COUNT (sizeof models / sizeof models[0])

static kiln_scene *load(const char *rel)
{
    char *path = kt_corpus_path(rel);
    if (!path) return NULL;
    kiln_scene_opts o = {.flags = KILN_SCENE_LOAD_NO_PIXELS};
    kiln_scene *s = NULL;
    kiln_error err;
    if (kiln_scene_load(path, &o, &s, &err) != KILN_OK) fail_msg("%s: %s", rel, err.message);
    free(path);
    return s;
}

/* Cooks everything of a model: skeletons then clips (against skin 0's skeleton when there is
 * one), appending each file's bytes to *all (for determinism). */
#define MAX_FILES 16
typedef struct cooked {
    uint8_t *all; /* every file, in cooking order */
    size_t size;
    uint64_t skin_hash[MAX_FILES], clip_hash[MAX_FILES]; /* XXH3 of each file, by index */
    uint64_t keys_before, keys_after;
    double measured[4], reported[4];
} cooked;

static void add_bytes(cooked *c, const uint8_t *b, size_t n)
{
    c->all = realloc(c->all, c->size + n);
    assert_non_null(c->all);
    memcpy(c->all + c->size, b, n);
    c->size += n;
}

static void cook_model(const kiln_scene *s, const kiln_clip_opts *o, bool reverse, cooked *out)
{
    memset(out, 0, sizeof *out);
    kiln_error err;
    kiln_cooked_skeleton sk0;
    memset(&sk0, 0, sizeof sk0);
    uint8_t *skel_bytes = NULL;
    size_t skel_size = 0;
    kiln_skeleton_view sv;
    for (uint32_t i = 0; i < s->skin_count; i++) {
        uint32_t skin = reverse ? s->skin_count - 1 - i : i;
        kiln_cooked_skeleton sk;
        uint8_t *b;
        size_t n;
        if (kiln_skeleton_build(s, skin, NULL, &sk, &err) != KILN_OK)
            fail_msg("skin %u: %s", skin, err.message);
        if (kiln_skeleton_write(&sk, NULL, &b, &n, &err) != KILN_OK)
            fail_msg("skin %u: %s", skin, err.message);
        if (kiln_skeleton_read(b, n, 0, &sv, &err) != KILN_OK)
            fail_msg("skin %u: %s", skin, err.message);
        chk_skeleton(s, skin, &sv);
        add_bytes(out, b, n);
        assert_true(skin < MAX_FILES);
        out->skin_hash[skin] = kiln_xxh3_64(b, n);
        if (skin == 0) {
            sk0 = sk;
            skel_bytes = b;
            skel_size = n;
        } else {
            kiln_cooked_skeleton_free(&sk);
            free(b);
        }
    }
    if (skel_bytes)
        assert_int_equal(kiln_skeleton_read(skel_bytes, skel_size, 0, &sv, &err), KILN_OK);
    for (uint32_t i = 0; i < s->animation_count; i++) {
        uint32_t a = reverse ? s->animation_count - 1 - i : i;
        kiln_cooked_clip c;
        uint8_t *b;
        size_t n;
        kiln_clip_view v;
        if (kiln_clip_build(s, a, skel_bytes ? &sk0 : NULL, o, NULL, &c, &err) != KILN_OK)
            fail_msg("animation %u: %s", a, err.message);
        if (kiln_clip_write(&c, NULL, &b, &n, &err) != KILN_OK)
            fail_msg("animation %u: %s", a, err.message);
        if (kiln_clip_read(b, n, 0, &v, &err) != KILN_OK)
            fail_msg("animation %u: %s", a, err.message);
        chk_errors e = chk_clip(s, a, &v, skel_bytes ? &sv : NULL);
        for (int p = 0; p < 4; p++) {
            if (e.per_path[p] > out->measured[p]) out->measured[p] = e.per_path[p];
            if (v.max_error[p] > out->reported[p]) out->reported[p] = v.max_error[p];
        }
        out->keys_before += c.summary.keys_before;
        out->keys_after += c.summary.keys_after;
        assert_int_equal(v.source_key_count, c.summary.keys_before);
        add_bytes(out, b, n);
        assert_true(a < MAX_FILES);
        out->clip_hash[a] = kiln_xxh3_64(b, n);
        kiln_cooked_clip_free(&c);
        free(b);
    }
    kiln_cooked_skeleton_free(&sk0);
    free(skel_bytes);
}

static void every_skin_and_animation_cooks_and_reads_back(void **state)
{
    (void)state;
    kt_require_corpus();
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        kiln_scene *s = load(models[m].path);
        assert_int_equal(s->skin_count, models[m].skins);
        if (models[m].skins) assert_int_equal(s->skins[0].joint_count, models[m].joints);
        assert_int_equal(s->animation_count, models[m].clips);
        cooked c;
        cook_model(s, NULL, false, &c);
        printf("%-58s keys %6llu -> %6llu (constant tracks collapsed), error T %.2g R %.2g S %.2g "
               "W %.2g\n",
               models[m].path, (unsigned long long)c.keys_before, (unsigned long long)c.keys_after,
               c.measured[0], c.measured[1], c.measured[2], c.measured[3]);
        /* As authored, sampling gives the source's values up to float rounding. */
        for (int p = 0; p < 4; p++) assert_true(c.measured[p] < 2e-5);
        free(c.all);
        kiln_scene_free(s);
    }
}

/* Key counts per track as the files have them; constant tracks collapse to one key. */
static void clips_keep_their_keys_and_interpolation(void **state)
{
    (void)state;
    kt_require_corpus();
    kiln_scene *s = load("gltf/InterpolationTest/glTF-Binary/InterpolationTest.glb");
    kiln_error err;
    for (uint32_t a = 0; a < s->animation_count; a++) {
        kiln_cooked_clip c;
        assert_int_equal(kiln_clip_build(s, a, NULL, NULL, NULL, &c, &err), KILN_OK);
        assert_int_equal(c.track_count, 1);
        assert_int_equal(c.tracks[0].key_count, 5);
        assert_int_equal(c.tracks[0].interpolation, s->animations[a].channels[0].interpolation);
        assert_int_equal(c.tracks[0].flags, KILN_CLIP_TRACK_NODE);
        kiln_cooked_clip_free(&c);
    }
    kiln_scene_free(s);

    s = load("gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb");
    kiln_cooked_clip c;
    assert_int_equal(kiln_clip_build(s, 0, NULL, NULL, NULL, &c, &err), KILN_OK);
    assert_int_equal(c.tracks[0].path, KILN_CLIP_PATH_WEIGHTS);
    assert_int_equal(c.tracks[0].components, 2);
    assert_int_equal(c.tracks[0].key_count, 127);
    kiln_cooked_clip_free(&c);
    kiln_scene_free(s);

    s = load("gltf/BoxAnimated/glTF-Binary/BoxAnimated.glb");
    assert_int_equal(kiln_clip_build(s, 0, NULL, NULL, NULL, &c, &err), KILN_OK);
    assert_int_equal(c.track_count, 2);
    assert_int_equal(c.tracks[0].key_count, 2);
    assert_int_equal(c.tracks[1].key_count, 4);
    kiln_cooked_clip_free(&c);
    kiln_scene_free(s);

    /* Fox: 21 tracks per clip, 83 / 18 / 25 keys, targets all joints of its skin. */
    s = load("gltf/Fox/glTF-Binary/Fox.glb");
    kiln_cooked_skeleton sk;
    assert_int_equal(kiln_skeleton_build(s, 0, NULL, &sk, &err), KILN_OK);
    static const uint32_t fox_keys[3] = {83, 18, 25};
    for (uint32_t a = 0; a < 3; a++) {
        assert_int_equal(kiln_clip_build(s, a, &sk, NULL, NULL, &c, &err), KILN_OK);
        assert_int_equal(c.track_count, 21);
        uint32_t constant = 0;
        for (uint32_t t = 0; t < 21; t++) {
            assert_int_equal(c.tracks[t].flags, 0);
            assert_int_equal(sk.joints[c.tracks[t].target].node, s->animations[a].channels[t].node);
            if (c.tracks[t].key_count == 1) constant++;
            else assert_int_equal(c.tracks[t].key_count, fox_keys[a]);
        }
        assert_int_equal(c.summary.constant_tracks, constant);
        assert_int_equal(c.summary.keys_before, 21 * fox_keys[a]);
        assert_int_equal(c.summary.keys_after, (21 - constant) * fox_keys[a] + constant);
        printf("Fox clip %u \"%s\": %u tracks, %u constant, %.3f s\n", a, c.name, c.track_count,
               constant, (double)c.summary.duration);
        kiln_cooked_clip_free(&c);
    }
    kiln_cooked_skeleton_free(&sk);
    kiln_scene_free(s);

    /* RiggedFigure: 2 keys a track; its constant tracks collapse. */
    s = load("gltf/RiggedFigure/glTF-Binary/RiggedFigure.glb");
    assert_int_equal(kiln_clip_build(s, 0, NULL, NULL, NULL, &c, &err), KILN_OK);
    assert_int_equal(c.track_count, 57);
    for (uint32_t t = 0; t < 57; t++)
        assert_true(c.tracks[t].key_count == 1 || c.tracks[t].key_count == 2);
    printf("RiggedFigure: %u of 57 tracks constant\n", c.summary.constant_tracks);
    assert_true(c.summary.constant_tracks > 0);
    kiln_cooked_clip_free(&c);
    kiln_scene_free(s);
}

/* Reduction with the default bounds, then with 10x looser ones: the error this test measures
 * (cooked file sampled with kiln_clip_sample against the scene's channels through anim_ref.h)
 * stays within the bound, and kiln's own report agrees with it. */
static void reduction_stays_within_the_bound_on_every_model(void **state)
{
    (void)state;
    kt_require_corpus();
    static const float scale[2] = {1, 10};
    for (int k = 0; k < 2; k++) {
        kiln_clip_opts o = {.reduce = true};
        o.max_error.translation = KILN_CLIP_DEFAULT_ERROR_TRANSLATION * scale[k];
        o.max_error.rotation = KILN_CLIP_DEFAULT_ERROR_ROTATION * scale[k];
        o.max_error.scale = KILN_CLIP_DEFAULT_ERROR_SCALE * scale[k];
        o.max_error.weights = KILN_CLIP_DEFAULT_ERROR_WEIGHTS * scale[k];
        const float *bound = &o.max_error.translation;
        for (size_t m = 0; m < MODEL_COUNT; m++) {
            kiln_scene *s = load(models[m].path);
            cooked c;
            cook_model(s, &o, false, &c);
            printf("bound x%-3g %-58s keys %6llu -> %6llu; measured T %.3g R %.3g S %.3g W %.3g "
                   "(kiln: %.3g %.3g %.3g %.3g)\n",
                   (double)scale[k], models[m].path, (unsigned long long)c.keys_before,
                   (unsigned long long)c.keys_after, c.measured[0], c.measured[1], c.measured[2],
                   c.measured[3], c.reported[0], c.reported[1], c.reported[2], c.reported[3]);
            for (int p = 0; p < 4; p++) {
                if (c.measured[p] > bound[p] * 1.001 + 2e-6)
                    fail_msg("%s path %d: measured %g, bound %g", models[m].path, p, c.measured[p],
                             (double)bound[p]);
                assert_true(c.reported[p] <= bound[p]);
            }
            assert_true(c.keys_after <= c.keys_before);
            free(c.all);
            kiln_scene_free(s);
        }
    }
}

static void cooking_order_does_not_change_the_bytes(void **state)
{
    (void)state;
    kt_require_corpus();
    kiln_clip_opts o = {.reduce = true, .resample_fps = 30};
    for (size_t m = 0; m < MODEL_COUNT; m++) {
        kiln_scene *s = load(models[m].path), *s2 = load(models[m].path);
        cooked a, b;
        cook_model(s, &o, false, &a);
        cook_model(s2, &o, true, &b); /* another load, the other order */
        assert_int_equal(a.size, b.size);
        assert_memory_equal(a.skin_hash, b.skin_hash, sizeof a.skin_hash);
        assert_memory_equal(a.clip_hash, b.clip_hash, sizeof a.clip_hash);
        free(a.all);
        free(b.all);
        kiln_scene_free(s);
        kiln_scene_free(s2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_skin_and_animation_cooks_and_reads_back),
        cmocka_unit_test(clips_keep_their_keys_and_interpolation),
        cmocka_unit_test(reduction_stays_within_the_bound_on_every_model),
        cmocka_unit_test(cooking_order_does_not_change_the_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
