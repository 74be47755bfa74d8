/* test_anim.c — skeletons and clips on hand-built scenes: parent-before-child order (stable),
 * parents through non-joint nodes and their pre-transforms, the name table, constant collapse,
 * interpolation kept as authored, key reduction within its bound (measured here, independently
 * of kiln), resampling, targets, kiln_clip_sample against the glTF formulas, golden bytes,
 * determinism, readers refusing damage, and every allocation failing in turn.
 *
 * With KILN_WRITE_FUZZ_SEEDS=1 the small files made here are written to fuzz/corpus/skeleton/
 * and fuzz/corpus/clip/ as the seeds of fuzz_skeleton and fuzz_clip. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_check.h"
#include "anim_fixture.h"
#include "core/alloc.h"
#include "core/reader.h"
#include "process/anim_track.h"
#include "process/clip.h"
#include "process/skeleton.h"
#include "write/clip_write.h"
#include "write/skeleton_write.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static uint8_t *cook_skeleton(const kiln_scene *s, uint32_t skin, size_t *size,
                              kiln_cooked_skeleton *keep)
{
    kiln_cooked_skeleton sk;
    kiln_error err;
    if (kiln_skeleton_build(s, skin, NULL, &sk, &err) != KILN_OK)
        fail_msg("build: %s", err.message);
    uint8_t *bytes;
    if (kiln_skeleton_write(&sk, NULL, &bytes, size, &err) != KILN_OK)
        fail_msg("write: %s", err.message);
    if (keep) *keep = sk;
    else kiln_cooked_skeleton_free(&sk);
    return bytes;
}

static uint8_t *cook_clip(const kiln_scene *s, uint32_t anim, const kiln_cooked_skeleton *sk,
                          const kiln_clip_opts *o, size_t *size, kiln_clip_summary *summary)
{
    kiln_cooked_clip c;
    kiln_error err;
    if (kiln_clip_build(s, anim, sk, o, NULL, &c, &err) != KILN_OK)
        fail_msg("build: %s", err.message);
    uint8_t *bytes;
    if (kiln_clip_write(&c, NULL, &bytes, size, &err) != KILN_OK)
        fail_msg("write: %s", err.message);
    if (summary) *summary = c.summary;
    kiln_cooked_clip_free(&c);
    return bytes;
}

static void read_skeleton_ok(const uint8_t *b, size_t n, kiln_skeleton_view *v)
{
    kiln_error err;
    if (kiln_skeleton_read(b, n, 0, v, &err) != KILN_OK) fail_msg("read: %s", err.message);
}

static void read_clip_ok(const uint8_t *b, size_t n, kiln_clip_view *v)
{
    kiln_error err;
    if (kiln_clip_read(b, n, 0, v, &err) != KILN_OK) fail_msg("read: %s", err.message);
}

/* ---- skeletons ----------------------------------------------------------------------------- */

/* 0 root; 1, 3 children of 0; 2 child of 1 (some TRS so worlds are not trivial). */
static void four_nodes(fx_scene *f)
{
    static const int32_t parents[4] = {-1, 0, 1, 0};
    fx_init(f, 4, parents);
    fx_trs(f, 0, 1, 2, 3, 0, 0, 0.38f, 0.92f, 1);
    fx_trs(f, 1, 0, 1, 0, 0.2f, 0, 0, 0.98f, 1);
    fx_trs(f, 2, 0, 1, 0.5f, 0, 0.3f, 0, 0.95f, 1);
    fx_trs(f, 3, -1, 0, 0, 0, 0, 0, 1, 2);
}

static void skeleton_keeps_skin_order_when_parents_come_first(void **state)
{
    (void)state;
    fx_scene f;
    four_nodes(&f);
    static const uint32_t joints[4] = {0, 3, 1, 2};
    fx_skin(&f, joints, 4);
    fx_finish(&f, 0);
    kiln_cooked_skeleton sk;
    size_t n;
    uint8_t *b = cook_skeleton(&f.scene, 0, &n, &sk);
    for (uint32_t j = 0; j < 4; j++) {
        assert_int_equal(sk.skin_to_joint[j], j);
        assert_int_equal(sk.joint_to_skin[j], j);
    }
    assert_int_equal(sk.joints[0].parent, -1);
    assert_int_equal(sk.joints[1].parent, 0);
    assert_int_equal(sk.joints[2].parent, 0);
    assert_int_equal(sk.joints[3].parent, 2);
    assert_int_equal(sk.root_count, 1);
    assert_int_equal(sk.pre_count, 0);
    kiln_skeleton_view v;
    read_skeleton_ok(b, n, &v);
    chk_skeleton(&f.scene, 0, &v);
    kiln_cooked_skeleton_free(&sk);
    free(b);
}

static void skeleton_moves_parents_before_children_stably(void **state)
{
    (void)state;
    fx_scene f;
    four_nodes(&f);
    static const uint32_t joints[4] = {2, 3, 1, 0}; /* grandchild, child, child, root */
    fx_skin(&f, joints, 4);
    fx_finish(&f, 0);
    kiln_cooked_skeleton sk;
    size_t n;
    uint8_t *b = cook_skeleton(&f.scene, 0, &n, &sk);
    /* Before skin joint 0 (node 2) come its ancestors root (skin 3) then node 1 (skin 2); then
     * skin 1 (node 3), whose parent is already out. */
    static const uint32_t order[4] = {3, 2, 0, 1};
    static const int32_t parents[4] = {-1, 0, 1, 0};
    for (uint32_t j = 0; j < 4; j++) {
        assert_int_equal(sk.joint_to_skin[j], order[j]);
        assert_int_equal(sk.skin_to_joint[order[j]], j);
        assert_int_equal(sk.joints[j].parent, parents[j]);
        assert_int_equal(sk.joints[j].skin_joint, order[j]);
    }
    kiln_skeleton_view v;
    read_skeleton_ok(b, n, &v);
    chk_skeleton(&f.scene, 0, &v);
    kiln_cooked_skeleton_free(&sk);
    free(b);
}

/* 0 (not a joint, scaled) -> 1 joint -> 2 (not) -> 3 (not) -> 4 joint; 2 -> 5 joint; 1 -> 6 joint;
 * 7 joint at the top (a second root without a parent node). */
static void build_pre_scene(fx_scene *f)
{
    static const int32_t parents[8] = {-1, 0, 1, 2, 3, 2, 1, -1};
    fx_init(f, 8, parents);
    fx_trs(f, 0, 5, 0, 0, 0, 0, 0.7f, 0.7f, 0.01f);
    fx_trs(f, 1, 0, 10, 0, 0.1f, 0, 0, 1, 1);
    fx_trs(f, 2, 0, 0, 3, 0, 0.5f, 0, 0.8f, 1.5f);
    fx_trs(f, 3, 1, 1, 1, 0, 0, 0, 1, 1);
    fx_trs(f, 4, 0, 2, 0, 0, 0, 0.2f, 1, 1);
    fx_trs(f, 5, 0, -2, 0, 0.3f, 0, 0, 1, 1);
    fx_trs(f, 6, 0, 0, -1, 0, 0, 0, 1, 1);
    fx_trs(f, 7, 3, 3, 3, 0, 0, 0, 1, 1);
    static const uint32_t joints[5] = {1, 4, 5, 6, 7};
    fx_skin(f, joints, 5);
    fx_finish(f, 0);
}

static void skeleton_parents_skip_non_joint_nodes_through_pre_transforms(void **state)
{
    (void)state;
    fx_scene f;
    build_pre_scene(&f);
    kiln_cooked_skeleton sk;
    size_t n;
    uint8_t *b = cook_skeleton(&f.scene, 0, &n, &sk);
    assert_int_equal(sk.joints[0].parent, -1);
    assert_int_equal(sk.joints[1].parent, 0); /* node 4 under node 1 through 3 and 2 */
    assert_int_equal(sk.joints[2].parent, 0); /* node 5 under node 1 through 2 */
    assert_int_equal(sk.joints[3].parent, 0);
    assert_int_equal(sk.joints[4].parent, -1);
    assert_int_equal(sk.root_count, 2);
    assert_int_equal(sk.pre_count, 3); /* world(0), local(2)local(3), local(2) */
    assert_int_equal(sk.joints[0].pre, 0);
    assert_int_equal(sk.joints[3].pre, KILN_SKELETON_NO_PRE);
    assert_int_equal(sk.joints[4].pre, KILN_SKELETON_NO_PRE);
    assert_memory_equal(sk.pre, f.nodes[0].world, 16 * sizeof(float));
    assert_memory_equal(sk.pre + 32, f.nodes[2].matrix, 16 * sizeof(float));
    kiln_skeleton_view v;
    read_skeleton_ok(b, n, &v);
    chk_skeleton(&f.scene, 0, &v); /* world(j) = world(parent) * pre * local, as the scene */
    kiln_cooked_skeleton_free(&sk);
    free(b);
}

static void skeleton_refuses_bad_skins(void **state)
{
    (void)state;
    fx_scene f;
    four_nodes(&f);
    static const uint32_t dup[3] = {0, 1, 0};
    fx_skin(&f, dup, 3);
    fx_finish(&f, 0);
    kiln_cooked_skeleton sk;
    kiln_error err;
    assert_int_equal(kiln_skeleton_build(&f.scene, 0, NULL, &sk, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "node 0"));
    assert_null(sk.joints);
    assert_int_equal(kiln_skeleton_build(&f.scene, 1, NULL, &sk, &err), KILN_E_USAGE);
    f.joints[2] = 9;
    assert_int_equal(kiln_skeleton_build(&f.scene, 0, NULL, &sk, &err), KILN_E_IMPORT_FAILED);
    f.skin.joint_count = 0;
    assert_int_equal(kiln_skeleton_build(&f.scene, 0, NULL, &sk, &err), KILN_E_IMPORT_FAILED);
}

/* A synthetic skeleton of n joints: a chain of `chain` joints, the rest children of the last. */
typedef struct big_scene {
    kiln_scene scene;
    kiln_scene_node *nodes;
    char (*names)[24];
    uint32_t *joints;
    float *ibm;
    kiln_scene_skin skin;
} big_scene;

static void big_init(big_scene *b, uint32_t n, uint32_t chain)
{
    memset(b, 0, sizeof *b);
    b->nodes = calloc(n, sizeof *b->nodes);
    b->names = calloc(n, sizeof *b->names);
    b->joints = calloc(n, sizeof *b->joints);
    b->ibm = calloc((size_t)n * 16, sizeof *b->ibm);
    assert_true(b->nodes && b->names && b->joints && b->ibm);
    for (uint32_t i = 0; i < n; i++) {
        kiln_scene_node *nd = &b->nodes[i];
        snprintf(b->names[i], sizeof b->names[i], "joint_%u", i);
        nd->name = b->names[i];
        nd->parent = i == 0 ? -1 : (int32_t)(i < chain ? i - 1 : chain - 1);
        nd->rotation[3] = 1;
        nd->scale[0] = nd->scale[1] = nd->scale[2] = 1;
        nd->matrix[0] = nd->matrix[5] = nd->matrix[10] = nd->matrix[15] = 1;
        nd->world[0] = nd->world[5] = nd->world[10] = nd->world[15] = 1;
        nd->mesh = nd->skin = nd->camera = nd->light = -1;
        b->joints[i] = n - 1 - i; /* every child before its parent: the order must be rebuilt */
        b->ibm[(size_t)i * 16] = b->ibm[(size_t)i * 16 + 5] = b->ibm[(size_t)i * 16 + 10] =
            b->ibm[(size_t)i * 16 + 15] = 1;
    }
    b->skin.name = "big";
    b->skin.joints = b->joints;
    b->skin.joint_count = n;
    b->skin.inverse_bind = b->ibm;
    b->skin.skeleton = -1;
    b->scene.nodes = b->nodes;
    b->scene.node_count = n;
    b->scene.skins = &b->skin;
    b->scene.skin_count = 1;
}

static void big_free(big_scene *b)
{
    free(b->nodes);
    free(b->names);
    free(b->joints);
    free(b->ibm);
}

static void skeleton_name_table_finds_every_joint(void **state)
{
    (void)state;
    big_scene b;
    big_init(&b, 5000, 3000); /* a 3000-deep chain, 2000 leaves */
    strcpy(b.names[10], "");  /* unnamed */
    strcpy(b.names[20], "twin");
    strcpy(b.names[30], "twin"); /* two joints of one name */
    kiln_cooked_skeleton sk;
    size_t n;
    uint8_t *bytes = cook_skeleton(&b.scene, 0, &n, &sk);
    assert_true(sk.max_probe <= KILN_SKELETON_MAX_PROBE);
    assert_true(sk.slot_count >= 2 * 4998);
    kiln_skeleton_view v;
    read_skeleton_ok(bytes, n, &v);
    chk_skeleton(&b.scene, 0, &v);
    for (uint32_t i = 0; i < 5000; i++) {
        int32_t j = kiln_skeleton_find_joint(&v, b.names[i]);
        if (i == 10) {
            assert_int_equal(j, -1);
            continue;
        }
        assert_true(j >= 0);
        assert_int_equal(kiln_cooked_skeleton_find(&sk, b.names[i], strlen(b.names[i])), j);
        if (i != 30) assert_int_equal(kiln_skeleton_joint_at(&v, (uint32_t)j).node, i);
    }
    /* The twins: the lower joint index wins (node 20 is nearer the root, so it comes first). */
    assert_int_equal(
        kiln_skeleton_joint_at(&v, (uint32_t)kiln_skeleton_find_joint(&v, "twin")).node, 20);
    assert_int_equal(kiln_skeleton_find_joint_n(&v, "joint_42xyz", 8),
                     kiln_skeleton_find_joint(&v, "joint_42"));
    assert_int_equal(kiln_skeleton_find_joint(&v, "joint_5000"), -1);
    kiln_cooked_skeleton_free(&sk);
    free(bytes);
    big_free(&b);
}

static void skeleton_golden_bytes(void **state)
{
    (void)state;
    fx_scene f;
    four_nodes(&f);
    static const uint32_t joints[3] = {1, 0, 3};
    fx_skin(&f, joints, 3);
    fx_finish(&f, 0);
    size_t n, n2;
    uint8_t *b = cook_skeleton(&f.scene, 0, &n, NULL);
    uint8_t *b2 = cook_skeleton(&f.scene, 0, &n2, NULL);
    assert_int_equal(n, n2);
    assert_memory_equal(b, b2, n);
    kt_check_golden("skeleton_tiny.bin", b, n);
    free(b);
    free(b2);
}

/* Damage with the checksum skipped, so the structure checks are what refuses it. */
static kiln_result skel_damaged(const uint8_t *b, size_t n, size_t at, uint32_t value)
{
    uint8_t *copy = malloc(n);
    memcpy(copy, b, n);
    kiln_store_u32le(copy + at, value);
    kiln_skeleton_view v;
    kiln_result r = kiln_skeleton_read(copy, n, KILN_CONTAINER_SKIP_CHECKSUM, &v, NULL);
    free(copy);
    return r;
}

static size_t section_offset(const uint8_t *b, size_t n, uint32_t id)
{
    kiln_container c;
    kiln_container_section s;
    assert_int_equal(kiln_container_read(b, n, 0, &c, NULL), KILN_OK);
    for (uint32_t i = 0; i < c.section_count; i++) {
        kiln_container_section_at(&c, i, &s);
        if (s.id == id) return (size_t)(s.data - b);
    }
    fail_msg("no section %08x", id);
    return 0;
}

static void skeleton_reader_refuses_damage(void **state)
{
    (void)state;
    fx_scene f;
    build_pre_scene(&f);
    size_t n;
    uint8_t *b = cook_skeleton(&f.scene, 0, &n, NULL);
    kiln_skeleton_view v;
    for (size_t len = 0; len < n; len++)
        assert_int_not_equal(kiln_skeleton_read(b, len, 0, &v, NULL), KILN_OK);
    uint8_t *copy = malloc(n);
    for (size_t i = 0; i < n; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(copy, b, n);
            copy[i] ^= (uint8_t)(1u << bit);
            assert_int_not_equal(kiln_skeleton_read(copy, n, 0, &v, NULL), KILN_OK); /* checksum */
            kiln_result r = kiln_skeleton_read(copy, n, KILN_CONTAINER_SKIP_CHECKSUM, &v, NULL);
            assert_true(r == KILN_OK || r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION);
        }
    free(copy);
    size_t hd = section_offset(b, n, KILN_SKELETON_SECTION_HEADER);
    size_t jn = section_offset(b, n, KILN_SKELETON_SECTION_JOINTS);
    size_t ib = section_offset(b, n, KILN_SKELETON_SECTION_INVERSE_BINDS);
    size_t hs = section_offset(b, n, KILN_SKELETON_SECTION_HASH);
    size_t nm = section_offset(b, n, KILN_SKELETON_SECTION_NAMES);
    assert_int_equal(skel_damaged(b, n, jn + 0, 0xFFFFFFFF), KILN_OK);       /* as it was */
    assert_int_equal(skel_damaged(b, n, jn + 0, 0), KILN_E_FORMAT_INVALID);  /* joint 0's parent */
    assert_int_equal(skel_damaged(b, n, jn + 64, 1), KILN_E_FORMAT_INVALID); /* own index */
    assert_int_equal(skel_damaged(b, n, jn + 64, 0xFFFFFFFE), KILN_E_FORMAT_INVALID); /* -2 */
    assert_int_equal(skel_damaged(b, n, jn + 8, 1), KILN_E_FORMAT_INVALID);  /* skin_joint twice */
    assert_int_equal(skel_damaged(b, n, jn + 12, 7), KILN_E_FORMAT_INVALID); /* pre out of range */
    assert_int_equal(skel_damaged(b, n, jn + 56, 100000), KILN_E_FORMAT_INVALID); /* name */
    assert_int_equal(skel_damaged(b, n, jn + 60, 3), KILN_E_FORMAT_INVALID);      /* "n1" is 2 */
    assert_int_equal(skel_damaged(b, n, jn + 16, 0x7FC00000), KILN_E_FORMAT_INVALID); /* NaN */
    assert_int_equal(skel_damaged(b, n, ib + 4, 0x7F800000), KILN_E_FORMAT_INVALID);  /* inf */
    assert_int_equal(skel_damaged(b, n, hd + 4, 1), KILN_E_FORMAT_INVALID);   /* root count */
    assert_int_equal(skel_damaged(b, n, hd + 16, 3), KILN_E_FORMAT_INVALID);  /* slot count */
    assert_int_equal(skel_damaged(b, n, hd + 20, 99), KILN_E_FORMAT_INVALID); /* hash seed */
    assert_int_equal(skel_damaged(b, n, hd + 24, 33), KILN_E_FORMAT_INVALID); /* max probe */
    assert_int_equal(skel_damaged(b, n, hd + 40, 1), KILN_E_FORMAT_INVALID);  /* reserved */
    assert_int_equal(skel_damaged(b, n, nm + 4, 0x41414141), KILN_E_FORMAT_INVALID); /* NULs gone */
    /* Slots: find a filled one and an empty one, and break each. */
    size_t filled = 0, empty = 0;
    for (size_t s = 0; s < 16; s++) {
        size_t at = hs + s * 8;
        uint32_t j = (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 | (uint32_t)b[at + 2] << 16 |
                     (uint32_t)b[at + 3] << 24;
        if (j == 0xFFFFFFFFu && !empty) empty = at;
        if (j != 0xFFFFFFFFu && !filled) filled = at;
    }
    assert_true(filled && empty);
    assert_int_equal(skel_damaged(b, n, filled, 77), KILN_E_FORMAT_INVALID);        /* joint */
    assert_int_equal(skel_damaged(b, n, filled + 4, 12345), KILN_E_FORMAT_INVALID); /* hash bits */
    assert_int_equal(skel_damaged(b, n, empty + 4, 1), KILN_E_FORMAT_INVALID); /* empty + bits */
    assert_int_equal(skel_damaged(b, n, filled, 0xFFFFFFFF),
                     KILN_E_FORMAT_INVALID); /* bits, no joint */
    /* Another kind version: re-cook. */
    assert_int_equal(skel_damaged(b, n, 12, 2), KILN_E_FORMAT_VERSION);
    assert_int_equal(kiln_skeleton_read(b, n, 0, NULL, NULL), KILN_E_USAGE);
    kiln_skeleton_joint none = kiln_skeleton_joint_at(&v, 99);
    assert_int_equal(none.parent, -1);
    free(b);
}

/* ---- clips --------------------------------------------------------------------------------- */

static const float k_times5[5] = {0.0f, 0.5f, 1.0f, 1.25f, 2.0f};
/* Step/linear/cubic translation, rotation (with a sign flip between keys), scale. */
static const float k_trans[15] = {0, 0, 0, 1, 2, 0, 2, 2, 1, 2.5f, 0, 1, 3, 1, 0};
static const float k_rot[20] = {0, 0,     0,    1,    0,    0.38f, 0, 0.92f, 0,     -0.7f,
                                0, -0.7f, 0.5f, 0.5f, 0.5f, 0.5f,  0, 0,     0.38f, 0.92f};
static float k_cubic_trans[45]; /* filled from k_trans with tangents */

static void fill_cubic(void)
{
    for (int k = 0; k < 5; k++)
        for (int c = 0; c < 3; c++) {
            k_cubic_trans[k * 9 + c] = 0.5f * (float)(c + 1) * (k % 2 ? 1 : -1);       /* in */
            k_cubic_trans[k * 9 + 3 + c] = k_trans[k * 3 + c];                         /* value */
            k_cubic_trans[k * 9 + 6 + c] = -0.25f * (float)(c + 2) * (k % 2 ? -1 : 1); /* out */
        }
}

static void clip_keeps_step_linear_cubic_as_authored(void **state)
{
    (void)state;
    fill_cubic();
    fx_scene f;
    fx_init(&f, 3, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_STEP, 5, 3, k_times5,
               k_trans);
    fx_channel(&f, 1, 1, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 5, 3, k_times5,
               k_trans);
    fx_channel(&f, 2, 2, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, 5, 3, k_times5,
               k_cubic_trans);
    fx_channel(&f, 3, 0, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_STEP, 5, 4, k_times5, k_rot);
    fx_channel(&f, 4, 1, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, 5, 4, k_times5, k_rot);
    fx_finish(&f, 5);
    size_t n;
    kiln_clip_summary sum;
    uint8_t *b = cook_clip(&f.scene, 0, NULL, NULL, &n, &sum);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    assert_int_equal(v.track_count, 5);
    assert_true(v.start == 0.0f && v.end == 2.0f);
    assert_int_equal(v.time_count, 5); /* one shared time array */
    assert_int_equal(sum.keys_before, 25);
    assert_int_equal(sum.keys_after, 25);
    assert_int_equal(sum.cubic_tracks_kept, 1);
    for (uint32_t i = 0; i < 5; i++) {
        kiln_clip_track t = kiln_clip_track_at(&v, i);
        assert_int_equal(t.interpolation, f.channels[i].interpolation);
        assert_int_equal(t.key_count, 5);
        size_t floats =
            5u * t.components * (t.interpolation == KILN_CLIP_INTERP_CUBICSPLINE ? 3 : 1);
        assert_memory_equal(v.values + (size_t)t.value_offset * 4, f.channels[i].values,
                            floats * 4);
    }
    chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
    assert_true(e.per_track_worst < 1e-5);
    free(b);
}

static void clip_sample_matches_glTF_at_and_between_keys(void **state)
{
    (void)state;
    fill_cubic();
    fx_scene f;
    fx_init(&f, 1, NULL);
    static float rot_cubic[60];
    for (int k = 0; k < 5; k++)
        for (int c = 0; c < 4; c++) {
            rot_cubic[k * 12 + c] = 0.1f * (float)c;
            rot_cubic[k * 12 + 4 + c] = k_rot[k * 4 + c];
            rot_cubic[k * 12 + 8 + c] = -0.2f * (float)c;
        }
    static const float w_times[3] = {0.25f, 0.25f, 1.0f}; /* a jump at 0.25 */
    static const float weights[6] = {0, 1, 1, 0, 0.5f, 0.5f};
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_CUBICSPLINE, 5, 4, k_times5,
               rot_cubic);
    fx_channel(&f, 1, 0, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_CUBICSPLINE, 5, 3, k_times5,
               k_cubic_trans);
    fx_channel(&f, 2, 0, KILN_SCENE_PATH_WEIGHTS, KILN_SCENE_INTERP_LINEAR, 3, 2, w_times, weights);
    fx_finish(&f, 3);
    size_t n;
    uint8_t *b = cook_clip(&f.scene, 0, NULL, NULL, &n, NULL);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
    assert_true(e.per_track_worst < 1e-5);
    /* Exactly at keys: the key's value (the last of keys sharing a time). */
    float out[4];
    kiln_clip_sample(&v, 2, 0.25f, out);
    assert_true(out[0] == 1.0f && out[1] == 0.0f);
    kiln_clip_sample(&v, 2, 0.0f, out); /* before the first key: clamped */
    assert_true(out[0] == 0.0f && out[1] == 1.0f);
    kiln_clip_sample(&v, 2, NAN, out);
    assert_true(out[0] == 0.0f && out[1] == 1.0f);
    kiln_clip_sample(&v, 2, 0.625f, out);
    assert_true(fabsf(out[0] - 0.75f) < 1e-6f && fabsf(out[1] - 0.25f) < 1e-6f);
    kiln_clip_sample(&v, 2, 1e9f, out);
    assert_true(out[0] == 0.5f && out[1] == 0.5f);
    assert_int_equal(kiln_clip_sample(&v, 3, 0, out), 0);
    free(b);
}

static void clip_collapses_constant_tracks(void **state)
{
    (void)state;
    static const float times[4] = {0, 1, 2, 3};
    static const float tr[12] = {1, 2, 3, 1, 2, 3.000001f, 1, 2, 3, 1, 2, 3};
    static const float rot[16] = {0, 0.6f, 0, 0.8f, 0, -0.6f, 0, -0.8f,
                                  0, 0.6f, 0, 0.8f, 0, 0.6f,  0, 0.8f};
    static const float sc[12] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2.1f, 2, 2}; /* not constant */
    static float cub_flat[36], cub_bent[36];
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 3; c++) {
            cub_flat[k * 9 + 3 + c] = cub_bent[k * 9 + 3 + c] = 5;
            cub_bent[k * 9 + 6 + c] = k == 1 ? 1.0f : 0.0f; /* equal values, a tangent: moves */
        }
    fx_scene f;
    fx_init(&f, 1, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 4, 3, times, tr);
    fx_channel(&f, 1, 0, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, 4, 4, times, rot);
    fx_channel(&f, 2, 0, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_LINEAR, 4, 3, times, sc);
    fx_channel(&f, 3, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, 4, 3, times,
               cub_flat);
    fx_channel(&f, 4, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, 4, 3, times,
               cub_bent);
    fx_finish(&f, 5);
    size_t n;
    kiln_clip_summary sum;
    uint8_t *b = cook_clip(&f.scene, 0, NULL, NULL, &n, &sum);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    static const uint32_t keys[5] = {1, 1, 4, 1, 4};
    for (uint32_t i = 0; i < 5; i++) {
        kiln_clip_track t = kiln_clip_track_at(&v, i);
        assert_int_equal(t.key_count, keys[i]);
        if (keys[i] == 1) assert_int_equal(t.interpolation, KILN_CLIP_INTERP_STEP);
    }
    assert_int_equal(sum.constant_tracks, 3);
    assert_int_equal(sum.keys_before, 20);
    assert_int_equal(sum.keys_after, 11);
    chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
    assert_true(e.per_path[KILN_SCENE_PATH_TRANSLATION] <= 1.5e-6);
    assert_true(e.per_path[KILN_SCENE_PATH_ROTATION] < 1e-6);
    assert_true(sum.max_error.translation <= 1.5e-6f);
    free(b);
}

/* Smooth curves of many keys, for reduction. */
#define RK 200
static float r_times[RK], r_tr[RK * 3], r_rot[RK * 4], r_sc[RK * 3], r_w[RK * 3], r_line[RK * 3];

static void fill_smooth(void)
{
    for (int k = 0; k < RK; k++) {
        double t = k / 30.0;
        r_times[k] = (float)t;
        for (int c = 0; c < 3; c++) {
            r_tr[k * 3 + c] = (float)(0.5 * sin(2.0 * t + c) + 0.1 * c);
            r_sc[k * 3 + c] = (float)(1.0 + 0.3 * sin(1.3 * t + c));
            r_w[k * 3 + c] = (float)(0.5 + 0.5 * sin(3.0 * t + c * 2.0));
            r_line[k * 3 + c] = (float)(t * (c + 1) - 2.0);
        }
        double ax[3] = {sin(0.7 * t), cos(0.5 * t), 0.4}, l = 0;
        for (int c = 0; c < 3; c++) l += ax[c] * ax[c];
        l = sqrt(l);
        double ang = 2.0 * sin(t); /* sign of q varies: some keys on the far hemisphere */
        for (int c = 0; c < 3; c++) r_rot[k * 4 + c] = (float)(ax[c] / l * sin(ang / 2));
        r_rot[k * 4 + 3] = (float)cos(ang / 2);
        if (k % 7 == 3)
            for (int c = 0; c < 4; c++) r_rot[k * 4 + c] = -r_rot[k * 4 + c];
    }
}

static void smooth_scene(fx_scene *f)
{
    fill_smooth();
    fx_init(f, 2, NULL);
    fx_channel(f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, RK, 3, r_times,
               r_tr);
    fx_channel(f, 1, 0, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, RK, 4, r_times, r_rot);
    fx_channel(f, 2, 0, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_LINEAR, RK, 3, r_times, r_sc);
    fx_channel(f, 3, 1, KILN_SCENE_PATH_WEIGHTS, KILN_SCENE_INTERP_LINEAR, RK, 3, r_times, r_w);
    fx_channel(f, 4, 1, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, RK, 3, r_times,
               r_line);
    fx_channel(f, 5, 1, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_STEP, RK, 3, r_times,
               r_line);
    fx_finish(f, 6);
}

static void clip_reduction_stays_within_its_bound(void **state)
{
    (void)state;
    fx_scene f;
    smooth_scene(&f);
    static const float scales[3] = {1.0f, 10.0f, 100.0f};
    for (int s = 0; s < 3; s++) {
        kiln_clip_opts o = {.reduce = true};
        o.max_error.translation = KILN_CLIP_DEFAULT_ERROR_TRANSLATION * scales[s];
        o.max_error.rotation = KILN_CLIP_DEFAULT_ERROR_ROTATION * scales[s];
        o.max_error.scale = KILN_CLIP_DEFAULT_ERROR_SCALE * scales[s];
        o.max_error.weights = KILN_CLIP_DEFAULT_ERROR_WEIGHTS * scales[s];
        size_t n;
        kiln_clip_summary sum;
        uint8_t *b = cook_clip(&f.scene, 0, NULL, &o, &n, &sum);
        kiln_clip_view v;
        read_clip_ok(b, n, &v);
        chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
        const float *bound = &o.max_error.translation;
        printf("bound x%g: keys %llu -> %llu; measured here T %.3g R %.3g S %.3g W %.3g; "
               "by kiln T %.3g R %.3g S %.3g W %.3g\n",
               (double)scales[s], (unsigned long long)sum.keys_before,
               (unsigned long long)sum.keys_after, e.per_path[0], e.per_path[1], e.per_path[2],
               e.per_path[3], (double)v.max_error[0], (double)v.max_error[1],
               (double)v.max_error[2], (double)v.max_error[3]);
        for (int p = 0; p < 4; p++) {
            /* float rounding of the cooked values on top of the bound */
            if (e.per_path[p] > bound[p] * 1.001 + 2e-6)
                fail_msg("path %d: measured %g over the bound %g", p, e.per_path[p],
                         (double)bound[p]);
            assert_true(v.max_error[p] <= bound[p]);
        }
        /* 30 keys a second hold these curves to about 1e-4 already; looser bounds must pay. */
        if (s == 2) assert_true(sum.keys_after < sum.keys_before / 2);
        assert_int_equal(kiln_clip_track_at(&v, 4).key_count, 2);  /* a straight line */
        assert_int_equal(kiln_clip_track_at(&v, 5).key_count, RK); /* STEP: every value differs */
        assert_true(v.flags & KILN_CLIP_REDUCED);
        free(b);
    }
}

static void clip_reduction_keeps_jumps_and_ends(void **state)
{
    (void)state;
    static const float times[6] = {0, 1, 2, 2, 3, 4};
    static const float vals[18] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 10, 0, 0, 11, 0, 0, 12, 0, 0};
    static const float steps[18] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 2, 0, 0};
    fx_scene f;
    fx_init(&f, 1, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 6, 3, times, vals);
    fx_channel(&f, 1, 0, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_STEP, 6, 3, times, steps);
    fx_finish(&f, 2);
    kiln_clip_opts o = {.reduce = true};
    size_t n;
    uint8_t *b = cook_clip(&f.scene, 0, NULL, &o, &n, NULL);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    kiln_clip_track t = kiln_clip_track_at(&v, 0);
    assert_int_equal(t.key_count, 4); /* 0, the jump's two keys at 2, the end */
    float tm[4];
    memcpy(tm, v.times + (size_t)t.time_offset * 4, sizeof tm);
    assert_true(tm[0] == 0 && tm[1] == 2 && tm[2] == 2 && tm[3] == 4);
    assert_int_equal(kiln_clip_track_at(&v, 1).key_count, 3); /* 0, 1 (t=2), 2 (t=4) */
    chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
    assert_true(e.per_track_worst < 1e-6);
    free(b);
}

static void clip_resamples_at_a_fixed_rate(void **state)
{
    (void)state;
    fill_cubic();
    static const float times[3] = {0.1f, 0.55f, 1.0f};
    static const float step[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    fx_scene f;
    fx_init(&f, 2, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, 5, 3, k_times5,
               k_cubic_trans);
    fx_channel(&f, 1, 0, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, 5, 4, k_times5, k_rot);
    fx_channel(&f, 2, 1, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_STEP, 3, 3, times, step);
    fx_channel(&f, 3, 1, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_LINEAR, 3, 3, times, step);
    fx_finish(&f, 4);
    kiln_clip_opts o = {.resample_fps = 30};
    size_t n;
    kiln_clip_summary sum;
    uint8_t *b = cook_clip(&f.scene, 0, NULL, &o, &n, &sum);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    assert_true(v.flags & KILN_CLIP_RESAMPLED);
    assert_true(v.resample_fps == 30.0f);
    assert_int_equal(sum.resampled_tracks, 3);
    kiln_clip_track t0 = kiln_clip_track_at(&v, 0), t2 = kiln_clip_track_at(&v, 2);
    kiln_clip_track t3 = kiln_clip_track_at(&v, 3);
    assert_int_equal(t0.interpolation, KILN_CLIP_INTERP_LINEAR);
    assert_int_equal(t0.key_count, 61); /* 0 .. 2 s at 30 Hz */
    assert_int_equal(t2.interpolation, KILN_CLIP_INTERP_STEP);
    assert_int_equal(t2.key_count, 3); /* STEP tracks are kept */
    /* 0.1 .. 1.0 on the clip's grid (start 0): the ends, and 3/30 .. 29/30 between */
    assert_int_equal(t3.key_count, 2 + 26);
    for (uint32_t k = 0; k < t0.key_count; k++) {
        float tk;
        memcpy(&tk, v.times + ((size_t)t0.time_offset + k) * 4, 4);
        assert_true(fabs(tk - k / 30.0) < 1e-6);
    }
    /* Linear sources resampled on a grid of their own keys' rate lose nothing but rounding; the
     * cubic one is approximated: whatever it is, the summary says what the test measures. */
    chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
    assert_true(fabs(e.per_path[0] - v.max_error[0]) <= 0.05 * e.per_path[0] + 1e-6);
    assert_true(e.per_path[2] < 1e-6); /* STEP kept; the LINEAR scale is one straight line */
    free(b);
}

/* Times far from the clip's start put the resampling grid past 2^53: no endless loop; a track
 * spanning too many grid points is refused, not allocated. */
static void clip_resampling_survives_extreme_times(void **state)
{
    (void)state;
    static const float near_times[2] = {0, 1};
    static const float far_times[2] = {1e15f, 1e15f};
    static const float span_times[2] = {0, 1e12f};
    static const float v[6] = {0, 0, 0, 1, 2, 3};
    fx_scene f;
    fx_init(&f, 1, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 2, 3, near_times,
               v);
    fx_channel(&f, 1, 0, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_LINEAR, 2, 3, far_times, v);
    fx_finish(&f, 2);
    kiln_clip_opts o = {.resample_fps = 1000, .reduce = true};
    kiln_cooked_clip c;
    kiln_error err;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, NULL, &c, &err), KILN_OK);
    assert_int_equal(c.tracks[1].key_count, 2); /* the jump at 1e15 keeps both keys */
    kiln_cooked_clip_free(&c);
    fx_channel(&f, 1, 0, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_LINEAR, 2, 3, span_times, v);
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, NULL, &c, &err), KILN_E_LIMIT);
    assert_null(c.tracks);
}

static void clip_cubic_tracks_reduce_to_linear_within_the_bound(void **state)
{
    (void)state;
    static float times[40], vals[40 * 9];
    for (int k = 0; k < 40; k++) {
        double t = k * 0.25;
        times[k] = (float)t;
        for (int c = 0; c < 3; c++) {
            vals[k * 9 + c] = (float)(cos(t + c) * 0.8);     /* in: derivative of the value */
            vals[k * 9 + 3 + c] = (float)(sin(t + c) * 0.8); /* value */
            vals[k * 9 + 6 + c] = (float)(cos(t + c) * 0.8); /* out */
        }
    }
    fx_scene f;
    fx_init(&f, 1, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, 40, 3, times,
               vals);
    fx_finish(&f, 1);
    kiln_clip_opts o = {.reduce = true, .max_error = {.translation = 0.01f}};
    size_t n;
    kiln_clip_summary sum;
    uint8_t *b = cook_clip(&f.scene, 0, NULL, &o, &n, &sum);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    kiln_clip_track t = kiln_clip_track_at(&v, 0);
    assert_int_equal(t.interpolation, KILN_CLIP_INTERP_LINEAR);
    assert_true(t.key_count * 3 < 40 * 9); /* fewer floats than the spline */
    chk_errors e = chk_clip(&f.scene, 0, &v, NULL);
    printf("cubic 40 keys -> linear %u keys, measured %.3g (bound 0.01)\n", t.key_count,
           e.per_path[0]);
    assert_true(e.per_path[0] <= 0.01 * 1.001);
    /* A tight bound the linear stand-in cannot meet in fewer floats: the spline stays. */
    o.max_error.translation = 1e-7f;
    free(b);
    b = cook_clip(&f.scene, 0, NULL, &o, &n, &sum);
    read_clip_ok(b, n, &v);
    assert_int_equal(kiln_clip_track_at(&v, 0).interpolation, KILN_CLIP_INTERP_CUBICSPLINE);
    assert_int_equal(sum.cubic_tracks_kept, 1);
    free(b);
}

/* A spline whose linear stand-in would exceed KILN_ANIM_MAX_DENSE_FLOATS stays a spline. */
static void clip_keeps_splines_too_long_to_densify(void **state)
{
    (void)state;
    const uint32_t n = 100000;
    float *times = malloc(n * sizeof *times), *vals = malloc((size_t)n * 9 * sizeof *vals);
    assert_true(times && vals);
    for (uint32_t k = 0; k < n; k++) {
        times[k] = (float)k * 0.01f;
        for (int c = 0; c < 9; c++) vals[(size_t)k * 9 + c] = (float)sin(k * 0.001 + c);
    }
    fx_scene f;
    fx_init(&f, 1, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, n, 3, times,
               vals);
    fx_finish(&f, 1);
    kiln_clip_opts o = {.reduce = true};
    kiln_cooked_clip c;
    kiln_error err;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, NULL, &c, &err), KILN_OK);
    assert_int_equal(c.tracks[0].interpolation, KILN_CLIP_INTERP_CUBICSPLINE);
    assert_int_equal(c.tracks[0].key_count, n);
    assert_int_equal(c.summary.cubic_tracks_kept, 1);
    assert_true(c.summary.max_error.translation == 0.0f);
    kiln_cooked_clip_free(&c);
    free(times);
    free(vals);
}

static void clip_targets_joints_and_nodes(void **state)
{
    (void)state;
    fx_scene f;
    build_pre_scene(&f);
    static const float times[2] = {0, 1};
    static const float tr[6] = {0, 0, 0, 1, 1, 1};
    static const float w[8] = {0, 1, 0, 0, 1, 0, 0, 0.5f};
    fx_channel(&f, 0, 4, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 2, 3, times, tr);
    fx_channel(&f, 1, 2, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 2, 3, times, tr);
    fx_channel(&f, 2, 3, KILN_SCENE_PATH_WEIGHTS, KILN_SCENE_INTERP_STEP, 2, 4, times, w);
    fx_finish(&f, 3);
    kiln_cooked_skeleton sk;
    size_t sn, n;
    uint8_t *sb = cook_skeleton(&f.scene, 0, &sn, &sk);
    kiln_skeleton_view sv;
    read_skeleton_ok(sb, sn, &sv);
    kiln_cooked_clip c;
    kiln_error err;
    assert_int_equal(kiln_clip_build(&f.scene, 0, &sk, NULL, NULL, &c, &err), KILN_OK);
    c.skeleton_id = 0x1122334455667788ull;
    uint8_t *b;
    assert_int_equal(kiln_clip_write(&c, NULL, &b, &n, &err), KILN_OK);
    kiln_cooked_clip_free(&c);
    kiln_clip_view v;
    read_clip_ok(b, n, &v);
    assert_true(v.skeleton == 0x1122334455667788ull);
    assert_int_equal(v.skin, 0);
    assert_int_equal(v.skeleton_joint_count, 5);
    chk_clip(&f.scene, 0, &v, &sv);
    assert_int_equal(kiln_clip_track_at(&v, 0).target, 1); /* node 4 is joint 1 */
    assert_int_equal(kiln_clip_track_at(&v, 1).flags, KILN_CLIP_TRACK_NODE);
    assert_int_equal(kiln_clip_track_at(&v, 2).components, 4);
    /* Without a skeleton, every target is a node. */
    free(b);
    b = cook_clip(&f.scene, 0, NULL, NULL, &n, NULL);
    read_clip_ok(b, n, &v);
    chk_clip(&f.scene, 0, &v, NULL);
    assert_int_equal(v.skin, 0xFFFFFFFFu);
    free(b);
    free(sb);
    kiln_cooked_skeleton_free(&sk);
}

static void clip_refuses_bad_channels_and_options(void **state)
{
    (void)state;
    static const float times[3] = {0, 2, 1};
    static const float v[9] = {0};
    fx_scene f;
    fx_init(&f, 1, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 3, 3, times, v);
    fx_finish(&f, 1);
    kiln_cooked_clip c;
    kiln_error err;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, NULL, NULL, &c, &err),
                     KILN_E_IMPORT_FAILED);
    f.channels[0].key_count = 2;
    f.channels[0].components = 4;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, NULL, NULL, &c, &err),
                     KILN_E_IMPORT_FAILED);
    f.channels[0].components = 3;
    f.channels[0].node = 1;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, NULL, NULL, &c, &err),
                     KILN_E_IMPORT_FAILED);
    f.channels[0].node = 0;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, NULL, NULL, &c, &err), KILN_OK);
    kiln_cooked_clip_free(&c);
    kiln_clip_opts o = {.resample_fps = 0.5f};
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, NULL, &c, &err), KILN_E_USAGE);
    o.resample_fps = NAN;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, NULL, &c, &err), KILN_E_USAGE);
    o.resample_fps = 0;
    o.max_error.rotation = -1;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, NULL, &c, &err), KILN_E_USAGE);
    assert_int_equal(kiln_clip_build(&f.scene, 1, NULL, NULL, NULL, &c, &err), KILN_E_USAGE);
}

static uint8_t *tiny_clip(size_t *n)
{
    static const float times[3] = {0, 0.5f, 1};
    static const float tr[9] = {0, 0, 0, 1, 0, 0, 1, 1, 0};
    static const float rot[12] = {0, 0, 0, 1, 0, 0, 0.6f, 0.8f, 0, 0, 0, 1};
    static const float w[2] = {0.25f, 0.75f};
    static fx_scene f;
    fx_init(&f, 2, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_LINEAR, 3, 3, times, tr);
    fx_channel(&f, 1, 1, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, 3, 4, times, rot);
    fx_channel(&f, 2, 1, KILN_SCENE_PATH_WEIGHTS, KILN_SCENE_INTERP_STEP, 1, 2, times + 2, w);
    fx_finish(&f, 3);
    return cook_clip(&f.scene, 0, NULL, NULL, n, NULL);
}

static void clip_golden_bytes(void **state)
{
    (void)state;
    size_t n, n2;
    uint8_t *b = tiny_clip(&n), *b2 = tiny_clip(&n2);
    assert_int_equal(n, n2);
    assert_memory_equal(b, b2, n);
    kt_check_golden("clip_tiny.bin", b, n);
    free(b);
    free(b2);
}

static kiln_result clip_damaged(const uint8_t *b, size_t n, size_t at, uint32_t value)
{
    uint8_t *copy = malloc(n);
    memcpy(copy, b, n);
    kiln_store_u32le(copy + at, value);
    kiln_clip_view v;
    kiln_result r = kiln_clip_read(copy, n, KILN_CONTAINER_SKIP_CHECKSUM, &v, NULL);
    free(copy);
    return r;
}

static void clip_reader_refuses_damage(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = tiny_clip(&n);
    kiln_clip_view v;
    for (size_t len = 0; len < n; len++)
        assert_int_not_equal(kiln_clip_read(b, len, 0, &v, NULL), KILN_OK);
    uint8_t *copy = malloc(n);
    for (size_t i = 0; i < n; i++)
        for (int bit = 0; bit < 8; bit += 2) {
            memcpy(copy, b, n);
            copy[i] ^= (uint8_t)(1u << bit);
            kiln_result r = kiln_clip_read(copy, n, KILN_CONTAINER_SKIP_CHECKSUM, &v, NULL);
            assert_true(r == KILN_OK || r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION);
            if (r == KILN_OK) { /* whatever passed must sample without trouble */
                float out[4];
                for (uint32_t t = 0; t < v.track_count; t++)
                    if (kiln_clip_track_at(&v, t).components <= 4)
                        kiln_clip_sample(&v, t, 0.3f, out);
            }
        }
    free(copy);
    size_t hd = section_offset(b, n, KILN_CLIP_SECTION_HEADER);
    size_t tk = section_offset(b, n, KILN_CLIP_SECTION_TRACKS);
    size_t tm = section_offset(b, n, KILN_CLIP_SECTION_TIMES);
    size_t vl = section_offset(b, n, KILN_CLIP_SECTION_VALUES);
    size_t nm = section_offset(b, n, KILN_CLIP_SECTION_NAME);
    assert_int_equal(clip_damaged(b, n, tm + 4, 0x3F800000), KILN_OK); /* 1.0: equal times */
    assert_int_equal(clip_damaged(b, n, tm + 4, 0x3F900000),
                     KILN_E_FORMAT_INVALID); /* 1.125 > 1.0 */
    assert_int_equal(clip_damaged(b, n, tm + 4, 0x7FC00000), KILN_E_FORMAT_INVALID); /* NaN */
    assert_int_equal(clip_damaged(b, n, tm + 0, 0xBF800000),
                     KILN_E_FORMAT_INVALID); /* before start */
    assert_int_equal(clip_damaged(b, n, vl + 8, 0x7F800000), KILN_E_FORMAT_INVALID); /* inf value */
    assert_int_equal(clip_damaged(b, n, tk + 8, 4), KILN_E_FORMAT_INVALID);          /* path 4 */
    assert_int_equal(clip_damaged(b, n, tk + 8, 0x300), KILN_E_FORMAT_INVALID);      /* interp 3 */
    assert_int_equal(clip_damaged(b, n, tk + 8, 0x20000), KILN_E_FORMAT_INVALID);    /* flags */
    assert_int_equal(clip_damaged(b, n, tk + 12, 4), KILN_E_FORMAT_INVALID); /* components */
    assert_int_equal(clip_damaged(b, n, tk + 16, 0), KILN_E_FORMAT_INVALID); /* no keys */
    assert_int_equal(clip_damaged(b, n, tk + 16, 5), KILN_E_FORMAT_INVALID); /* past TIME */
    assert_int_equal(clip_damaged(b, n, tk + 20, 0xFFFFFFFF), KILN_E_FORMAT_INVALID);
    assert_int_equal(clip_damaged(b, n, tk + 24, 100), KILN_E_FORMAT_INVALID); /* past VALU */
    assert_int_equal(clip_damaged(b, n, tk + 28, 1), KILN_E_FORMAT_INVALID);   /* reserved */
    assert_int_equal(clip_damaged(b, n, tk + 8, 0x10000), KILN_OK);            /* as it was */
    assert_int_equal(clip_damaged(b, n, tk + 8, 0), KILN_E_FORMAT_INVALID);    /* a joint, none */
    assert_int_equal(clip_damaged(b, n, hd + 12, 5), KILN_E_FORMAT_INVALID);   /* joints, no skin */
    assert_int_equal(clip_damaged(b, n, hd + 16, 2), KILN_E_FORMAT_INVALID);   /* track count */
    assert_int_equal(clip_damaged(b, n, hd + 20, 4), KILN_E_FORMAT_INVALID);   /* flags */
    assert_int_equal(clip_damaged(b, n, hd + 24, 0x40000000), KILN_E_FORMAT_INVALID); /* start 2 */
    assert_int_equal(clip_damaged(b, n, hd + 32, 0x3F000000), KILN_E_FORMAT_INVALID); /* fps .5 */
    assert_int_equal(clip_damaged(b, n, hd + 36, 3), KILN_E_FORMAT_INVALID); /* name size */
    assert_int_equal(clip_damaged(b, n, hd + 40, 0xBF800000), KILN_E_FORMAT_INVALID); /* error -1 */
    assert_int_equal(clip_damaged(b, n, nm + 1, 0x41414141), KILN_E_FORMAT_INVALID);  /* NUL gone */
    assert_int_equal(clip_damaged(b, n, 12, 9), KILN_E_FORMAT_VERSION);
    assert_int_equal(clip_damaged(b, n, 8, KILN_SKELETON_KIND), KILN_E_FORMAT_INVALID);
    free(b);
}

/* ---- determinism and failing allocations ---------------------------------------------------- */

typedef struct failing {
    long left; /* allocations still allowed; -1 = unlimited */
    long live; /* outstanding blocks */
} failing;

static void *f_alloc(void *user, size_t size, size_t align)
{
    failing *f = user;
    if (f->left == 0) return NULL;
    if (f->left > 0) f->left--;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size)) return NULL;
    f->live++;
    return p;
}

static void f_free(void *user, void *p, size_t size)
{
    (void)size;
    if (!p) return;
    ((failing *)user)->live--;
    free(p);
}

static void every_allocation_failure_is_an_error_without_leaks(void **state)
{
    (void)state;
    fx_scene f;
    build_pre_scene(&f);
    fill_cubic();
    fx_channel(&f, 0, 4, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_CUBICSPLINE, 5, 3, k_times5,
               k_cubic_trans);
    fx_channel(&f, 1, 2, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, 5, 4, k_times5, k_rot);
    fx_channel(&f, 2, 6, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_STEP, 5, 3, k_times5, k_trans);
    fx_finish(&f, 3);
    kiln_clip_opts o = {.resample_fps = 24, .reduce = true};
    int ok = 0;
    for (long limit = 0; limit < 10000 && !ok; limit++) {
        failing fl = {limit, 0};
        kiln_allocator a = {f_alloc, NULL, f_free, &fl};
        kiln_cooked_skeleton sk;
        kiln_cooked_clip c;
        kiln_error err;
        uint8_t *sb = NULL, *cb = NULL;
        size_t sn = 0, cn = 0;
        kiln_result r = kiln_skeleton_build(&f.scene, 0, &a, &sk, &err);
        if (r == KILN_OK) {
            r = kiln_clip_build(&f.scene, 0, &sk, &o, &a, &c, &err);
            if (r == KILN_OK) {
                r = kiln_skeleton_write(&sk, &a, &sb, &sn, &err);
                if (r == KILN_OK) r = kiln_clip_write(&c, &a, &cb, &cn, &err);
                kiln_cooked_clip_free(&c);
            }
            kiln_cooked_skeleton_free(&sk);
        }
        if (r == KILN_OK) ok = 1;
        else assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        kiln_free(&a, sb, sn);
        kiln_free(&a, cb, cn);
        assert_int_equal(fl.live, 0);
    }
    assert_true(ok);
}

static void same_scene_same_bytes_with_any_allocator(void **state)
{
    (void)state;
    fx_scene f;
    smooth_scene(&f);
    kiln_clip_opts o = {.resample_fps = 60, .reduce = true};
    size_t n1, n2;
    uint8_t *a = cook_clip(&f.scene, 0, NULL, &o, &n1, NULL);
    failing fl = {-1, 0};
    kiln_allocator al = {f_alloc, NULL, f_free, &fl};
    kiln_cooked_clip c;
    kiln_error err;
    assert_int_equal(kiln_clip_build(&f.scene, 0, NULL, &o, &al, &c, &err), KILN_OK);
    uint8_t *b;
    assert_int_equal(kiln_clip_write(&c, &al, &b, &n2, &err), KILN_OK);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    kiln_cooked_clip_free(&c);
    kiln_free(&al, b, n2);
    assert_int_equal(fl.live, 0);
    free(a);
}

/* ---- fuzz seeds ------------------------------------------------------------------------------ */

static void write_seed(const char *kind, const char *name, const uint8_t *b, size_t n)
{
    char *path = kt_format("%s/fuzz/corpus/%s/%s", getenv("KILN_SOURCE_DIR"), kind, name);
    kt_write_file(path, b, n);
    free(path);
}

static void write_fuzz_seeds(void)
{
    if (!getenv("KILN_SOURCE_DIR")) {
        fprintf(stderr, "KILN_WRITE_FUZZ_SEEDS needs KILN_SOURCE_DIR\n");
        exit(1);
    }
    fx_scene f;
    size_t n;
    uint8_t *b;
    four_nodes(&f);
    static const uint32_t joints[4] = {2, 3, 1, 0};
    fx_skin(&f, joints, 4);
    fx_finish(&f, 0);
    b = cook_skeleton(&f.scene, 0, &n, NULL);
    write_seed("skeleton", "four_reordered.bin", b, n);
    free(b);
    build_pre_scene(&f);
    b = cook_skeleton(&f.scene, 0, &n, NULL);
    write_seed("skeleton", "pre_transforms.bin", b, n);
    free(b);
    b = tiny_clip(&n);
    write_seed("clip", "tiny.bin", b, n);
    free(b);
    fill_cubic();
    fx_init(&f, 3, NULL);
    fx_channel(&f, 0, 0, KILN_SCENE_PATH_TRANSLATION, KILN_SCENE_INTERP_STEP, 5, 3, k_times5,
               k_trans);
    fx_channel(&f, 1, 1, KILN_SCENE_PATH_ROTATION, KILN_SCENE_INTERP_LINEAR, 5, 4, k_times5, k_rot);
    fx_channel(&f, 2, 2, KILN_SCENE_PATH_SCALE, KILN_SCENE_INTERP_CUBICSPLINE, 5, 3, k_times5,
               k_cubic_trans);
    fx_finish(&f, 3);
    b = cook_clip(&f.scene, 0, NULL, NULL, &n, NULL);
    write_seed("clip", "three_interpolations.bin", b, n);
    free(b);
    smooth_scene(&f);
    kiln_clip_opts o = {
        .resample_fps = 10, .reduce = true, .max_error = {0.01f, 0.01f, 0.01f, 0.01f}};
    b = cook_clip(&f.scene, 0, NULL, &o, &n, NULL);
    write_seed("clip", "reduced.bin", b, n);
    free(b);
    fprintf(stderr, "wrote the seeds of fuzz/corpus/skeleton and fuzz/corpus/clip\n");
}

/* The error of a constant against a linear track, taken from the reference's keys (exact for
 * translations, weights and same-signed scales above the floor), equals a dense measurement. */
static void constant_track_error_equals_a_dense_measurement(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    const uint32_t paths[3] = {KILN_CLIP_PATH_TRANSLATION, KILN_CLIP_PATH_SCALE,
                               KILN_CLIP_PATH_WEIGHTS};
    for (int round = 0; round < 60; round++) {
        uint32_t path = paths[round % 3], n = path == KILN_CLIP_PATH_WEIGHTS ? 2 : 3;
        uint32_t keys = 2 + (uint32_t)(round % 7);
        kiln_anim_track ref, one;
        assert_int_equal(
            kiln_anim_track_alloc(NULL, path,
                                  round % 5 == 4 ? KILN_CLIP_INTERP_STEP : KILN_CLIP_INTERP_LINEAR,
                                  n, keys, &ref, NULL),
            KILN_OK);
        assert_int_equal(kiln_anim_track_alloc(NULL, path, KILN_CLIP_INTERP_STEP, n, 1, &one, NULL),
                         KILN_OK);
        for (uint32_t k = 0; k < keys; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            ref.times[k] = (float)k + (float)((seed >> 40) % 100) / 200.0f;
            for (uint32_t c = 0; c < n; c++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                float x = (float)((seed >> 33) % 2001) / 1000.0f - 1.0f;
                ref.values[k * n + c] = path == KILN_CLIP_PATH_SCALE ? 1.5f + x : x;
            }
        }
        one.times[0] = ref.times[0];
        for (uint32_t c = 0; c < n; c++) one.values[c] = ref.values[c] + 0.01f * (float)c;
        double fast;
        assert_int_equal(kiln_anim_track_error(NULL, &one, &ref, &fast, NULL), KILN_OK);
        /* dense: 400 points per interval, the keys themselves included */
        kiln_anim_keys rk = kiln_anim_track_keys(&ref);
        double dense = 0;
        float v[3];
        for (uint32_t k = 0; k < keys; k++)
            for (int j = 0; j < (k + 1 < keys ? 400 : 1); j++) {
                float t = k + 1 < keys
                              ? ref.times[k] + (ref.times[k + 1] - ref.times[k]) * (float)j / 400.0f
                              : ref.times[k];
                kiln_anim_eval(&rk, t, v);
                double e = kiln_anim_value_error(path, n, one.values, v);
                if (e > dense) dense = e;
            }
        assert_true(fast >= dense - 1e-6);
        assert_true(fast <= dense + 1e-6);
        kiln_anim_track_free(NULL, &ref);
        kiln_anim_track_free(NULL, &one);
    }
}

int main(void)
{
    if (getenv("KILN_WRITE_FUZZ_SEEDS") && strcmp(getenv("KILN_WRITE_FUZZ_SEEDS"), "1") == 0)
        write_fuzz_seeds();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skeleton_keeps_skin_order_when_parents_come_first),
        cmocka_unit_test(skeleton_moves_parents_before_children_stably),
        cmocka_unit_test(skeleton_parents_skip_non_joint_nodes_through_pre_transforms),
        cmocka_unit_test(skeleton_refuses_bad_skins),
        cmocka_unit_test(skeleton_name_table_finds_every_joint),
        cmocka_unit_test(skeleton_golden_bytes),
        cmocka_unit_test(skeleton_reader_refuses_damage),
        cmocka_unit_test(clip_keeps_step_linear_cubic_as_authored),
        cmocka_unit_test(clip_sample_matches_glTF_at_and_between_keys),
        cmocka_unit_test(clip_collapses_constant_tracks),
        cmocka_unit_test(constant_track_error_equals_a_dense_measurement),
        cmocka_unit_test(clip_reduction_stays_within_its_bound),
        cmocka_unit_test(clip_reduction_keeps_jumps_and_ends),
        cmocka_unit_test(clip_resamples_at_a_fixed_rate),
        cmocka_unit_test(clip_resampling_survives_extreme_times),
        cmocka_unit_test(clip_cubic_tracks_reduce_to_linear_within_the_bound),
        cmocka_unit_test(clip_keeps_splines_too_long_to_densify),
        cmocka_unit_test(clip_targets_joints_and_nodes),
        cmocka_unit_test(clip_refuses_bad_channels_and_options),
        cmocka_unit_test(clip_golden_bytes),
        cmocka_unit_test(clip_reader_refuses_damage),
        cmocka_unit_test(every_allocation_failure_is_an_error_without_leaks),
        cmocka_unit_test(same_scene_same_bytes_with_any_allocator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
