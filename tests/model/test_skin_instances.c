/* test_skin_instances.c — one skinned mesh drawn by many nodes, each with a skin of its own
 * (issue 18 item 5): every instance is posed on the CPU at several times of its clip, once from
 * the source (glTF's skinning: each joint node's animated world matrix times its inverse bind
 * matrix, weights from the file) and once from what kiln cooked (the cooked scene's node tree
 * animated by the cooked clip, the joints of the node's own cooked skeleton, the cooked mesh's
 * quantized positions, joints and weights), and the two must agree vertex by vertex.
 *
 * Models (tests/cli/mkskins.py writes them):
 * - columns: 3 instances of one character, 2 whose skins list the chain child first (their
 *   skeletons order the joints differently: a second copy of the mesh) and 1 with a longer chain;
 * - tentacles: the shape of Khronos' RecursiveSkeletons (84 skins over one mesh, each column's
 *   skeleton under the last joint of another's), with its rocking clip.
 * Before the copies, the two reversed instances of the columns deformed with another joint's
 * matrix (a vertex tens of units off). */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../anim/anim_ref.h"
#include "model_check.h"

/* ---- the source: glTF's skinning from the scene the importer read ---------------------------- */

/* World matrices of every node at time t: each channel sampled (anim_ref.h), the rest as the
 * file gives it. Parents come first in no particular order, so resolve by walking up. */
static void source_worlds(const kiln_scene *sc, double t, double *world)
{
    float *trs = malloc((size_t)sc->node_count * 10 * sizeof *trs);
    uint8_t *done = calloc(sc->node_count, 1);
    assert_non_null(trs);
    assert_non_null(done);
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *s = &sc->nodes[n];
        memcpy(trs + n * 10, s->translation, 3 * sizeof(float));
        memcpy(trs + n * 10 + 3, s->rotation, 4 * sizeof(float));
        memcpy(trs + n * 10 + 7, s->scale, 3 * sizeof(float));
    }
    for (uint32_t a = 0; a < sc->animation_count; a++)
        for (uint32_t c = 0; c < sc->animations[a].channel_count; c++) {
            const kiln_scene_channel *ch = &sc->animations[a].channels[c];
            if (ch->path == KILN_SCENE_PATH_WEIGHTS) continue;
            double v[4];
            ref_sample(ch, t, v);
            float *dst = trs + ch->node * 10 +
                         (ch->path == KILN_SCENE_PATH_TRANSLATION ? 0
                          : ch->path == KILN_SCENE_PATH_ROTATION  ? 3
                                                                  : 7);
            for (uint32_t k = 0; k < ch->components; k++) dst[k] = (float)v[k];
        }
    uint32_t *chain = malloc((size_t)sc->node_count * sizeof *chain);
    assert_non_null(chain);
    for (uint32_t n = 0; n < sc->node_count; n++) {
        uint32_t len = 0;
        for (int32_t x = (int32_t)n; x >= 0 && !done[x]; x = sc->nodes[x].parent)
            chain[len++] = (uint32_t)x;
        while (len--) {
            uint32_t x = chain[len];
            double local[16];
            ref_trs(trs + x * 10, trs + x * 10 + 3, trs + x * 10 + 7, local);
            int32_t p = sc->nodes[x].parent;
            if (p >= 0) ref_mat_mul(world + (size_t)p * 16, local, world + (size_t)x * 16);
            else memcpy(world + (size_t)x * 16, local, sizeof local);
            done[x] = 1;
        }
    }
    free(chain);
    free(done);
    free(trs);
}

static void transform_point(const double *m, const double *p, double *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

/* Sum over the influences of weight × (joint matrix × position). */
static void skin_point(const double *matrices, const uint16_t *joints, const float *weights,
                       const float *pos, double *out)
{
    double p[3] = {pos[0], pos[1], pos[2]};
    out[0] = out[1] = out[2] = 0;
    for (int k = 0; k < 4; k++) {
        if (weights[k] == 0.0f) continue;
        double q[3];
        transform_point(matrices + (size_t)joints[k] * 16, p, q);
        for (int r = 0; r < 3; r++) out[r] += weights[k] * q[r];
    }
}

/* ---- the cook: the cooked scene, clip, skeletons and meshes ---------------------------------- */

typedef struct cooked {
    const mc_model *m;
    kiln_cooked_scene_view scene;
    kiln_clip_view clip;
    bool has_clip;
    uint32_t *node_of_source; /* source node -> cooked node index */
    uint32_t source_count;
} cooked;

/* The artifact with asset id `id`; fails the test when none has it. */
static const mc_artifact *by_id(const mc_model *m, uint64_t id)
{
    const mc_artifact *a = mc_find_id(m, id);
    if (!a) fail_msg("no artifact has id %016llx", (unsigned long long)id);
    return a;
}

/* World matrices of every cooked node at time t: the node's own TRS (or matrix), with what the
 * clip's tracks give at t (joint targets through the clip's skeleton to their nodes). */
static void cooked_worlds(const cooked *k, double t, double *world)
{
    uint32_t n = k->scene.node_count;
    float *trs = malloc((size_t)n * 10 * sizeof *trs);
    uint8_t *animated = calloc(n, 1);
    assert_non_null(trs);
    assert_non_null(animated);
    for (uint32_t i = 0; i < n; i++) {
        kiln_cooked_node c = kiln_cooked_scene_node(&k->scene, i);
        memcpy(trs + i * 10, c.translation, 3 * sizeof(float));
        memcpy(trs + i * 10 + 3, c.rotation, 4 * sizeof(float));
        memcpy(trs + i * 10 + 7, c.scale, 3 * sizeof(float));
    }
    if (k->has_clip) {
        kiln_skeleton_view sk;
        bool has_sk = k->clip.skeleton != 0;
        if (has_sk) {
            const mc_artifact *a = by_id(k->m, k->clip.skeleton);
            assert_int_equal(kiln_skeleton_read(a->bytes, a->size, 0, &sk, NULL), KILN_OK);
        }
        for (uint32_t tr = 0; tr < k->clip.track_count; tr++) {
            kiln_clip_track track = kiln_clip_track_at(&k->clip, tr);
            if (track.path == KILN_CLIP_PATH_WEIGHTS) continue;
            uint32_t source = track.flags & KILN_CLIP_TRACK_NODE
                                  ? track.target
                                  : kiln_skeleton_joint_at(&sk, track.target).node;
            assert_true(track.flags & KILN_CLIP_TRACK_NODE || has_sk);
            assert_true(source < k->source_count);
            uint32_t node = k->node_of_source[source];
            assert_true(node < n);
            float v[4];
            assert_int_equal(kiln_clip_sample(&k->clip, tr, (float)t, v), track.components);
            uint32_t at = track.path == KILN_CLIP_PATH_TRANSLATION ? 0
                          : track.path == KILN_CLIP_PATH_ROTATION  ? 3
                                                                   : 7;
            memcpy(trs + node * 10 + at, v, track.components * sizeof(float));
            animated[node] = 1;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        kiln_cooked_node c = kiln_cooked_scene_node(&k->scene, i);
        double local[16];
        if ((c.flags & KILN_COOKED_NODE_MATRIX) && !animated[i])
            for (int e = 0; e < 16; e++) local[e] = c.matrix[e];
        else ref_trs(trs + i * 10, trs + i * 10 + 3, trs + i * 10 + 7, local);
        if (c.parent != KILN_COOKED_NONE)
            ref_mat_mul(world + (size_t)c.parent * 16, local, world + (size_t)i * 16);
        else memcpy(world + (size_t)i * 16, local, sizeof local);
    }
    free(animated);
    free(trs);
}

/* ---- the comparison -------------------------------------------------------------------------- */

typedef struct pose_stats {
    size_t instances, vertices;
    double worst;    /* largest distance between the two poses */
    double movement; /* largest distance a vertex moved from its bind position */
} pose_stats;

/* Poses every skinned instance of the source at time t both ways and compares them. */
static void pose_and_compare(const kiln_scene *sc, const cooked *k, double t, pose_stats *st)
{
    double *sw = malloc((size_t)sc->node_count * 16 * sizeof *sw);
    double *cw = malloc((size_t)k->scene.node_count * 16 * sizeof *cw);
    assert_non_null(sw);
    assert_non_null(cw);
    source_worlds(sc, t, sw);
    cooked_worlds(k, t, cw);
    for (uint32_t ci = 0; ci < k->scene.node_count; ci++) {
        kiln_cooked_node node = kiln_cooked_scene_node(&k->scene, ci);
        if (node.mesh == KILN_COOKED_NONE || node.skin == KILN_COOKED_NONE) continue;
        const kiln_scene_node *sn = &sc->nodes[node.source_node];
        const kiln_scene_skin *skin = &sc->skins[sn->skin];
        /* Source joint matrices, in the skin's joint order. */
        double *sm = malloc((size_t)skin->joint_count * 16 * sizeof *sm);
        assert_non_null(sm);
        for (uint32_t j = 0; j < skin->joint_count; j++) {
            double ibm[16];
            for (int e = 0; e < 16; e++) ibm[e] = skin->inverse_bind[(size_t)j * 16 + e];
            ref_mat_mul(sw + (size_t)skin->joints[j] * 16, ibm, sm + (size_t)j * 16);
        }
        /* Cooked joint matrices, in the node's own skeleton's joint order. */
        kiln_skeleton_view sk;
        const mc_artifact *ska = by_id(k->m, node.skeleton);
        assert_int_equal(kiln_skeleton_read(ska->bytes, ska->size, 0, &sk, NULL), KILN_OK);
        double *cm = malloc((size_t)sk.joint_count * 16 * sizeof *cm);
        assert_non_null(cm);
        for (uint32_t j = 0; j < sk.joint_count; j++) {
            kiln_skeleton_joint jt = kiln_skeleton_joint_at(&sk, j);
            assert_true(jt.node < k->source_count);
            double ibm[16];
            for (int e = 0; e < 16; e++) ibm[e] = jt.inverse_bind[e];
            ref_mat_mul(cw + (size_t)k->node_of_source[jt.node] * 16, ibm, cm + (size_t)j * 16);
        }
        for (uint32_t p = 0; p < node.primitive_count; p++) {
            const kiln_scene_primitive *sp = &sc->meshes[sn->mesh].primitives[p];
            const mc_artifact *ma =
                by_id(k->m, kiln_cooked_scene_primitive(&k->scene, node.first_primitive + p));
            kiln_mesh_view mv;
            kiln_mesh_decoded d;
            kiln_error err;
            assert_int_equal(kiln_mesh_read(ma->bytes, ma->size, 0, &mv, &err), KILN_OK);
            assert_int_equal(kiln_mesh_decode(&mv, 0, NULL, &d, &err), KILN_OK);
            assert_true(mv.joint_count <= sk.joint_count);
            double tol = mv.extent * 1e-4 + 1e-6; /* 16-bit positions: below 1/65535 of it */
            for (uint32_t v = 0; v < d.vertex_count; v++) {
                const float *pos = d.positions + (size_t)v * 3;
                /* The source vertex at the same bind position (the column's are distinct). */
                uint32_t s = UINT32_MAX;
                for (uint32_t q = 0; q < sp->vertex_count && s == UINT32_MAX; q++) {
                    const float *sp3 = sp->positions + (size_t)q * 3;
                    if (fabs(sp3[0] - pos[0]) <= tol && fabs(sp3[1] - pos[1]) <= tol &&
                        fabs(sp3[2] - pos[2]) <= tol)
                        s = q;
                }
                assert_true(s != UINT32_MAX);
                double want[3], got[3];
                skin_point(sm, sp->joints[0] + (size_t)s * 4, sp->weights[0] + (size_t)s * 4,
                           sp->positions + (size_t)s * 3, want);
                for (int kk = 0; kk < 4; kk++)
                    assert_true(d.joints[v * 4 + kk] < sk.joint_count ||
                                d.weights[v * 4 + kk] == 0);
                skin_point(cm, d.joints + (size_t)v * 4, d.weights + (size_t)v * 4, pos, got);
                double dist = sqrt((want[0] - got[0]) * (want[0] - got[0]) +
                                   (want[1] - got[1]) * (want[1] - got[1]) +
                                   (want[2] - got[2]) * (want[2] - got[2]));
                /* The world scale of the instance times the position tolerance, plus rounding. */
                double scale = sqrt(sm[0] * sm[0] + sm[1] * sm[1] + sm[2] * sm[2]);
                double allowed = 4 * tol * scale + 1e-4 * scale * mv.extent;
                if (dist > allowed)
                    fail_msg("t=%g node %u (%s, skin %d) %s vertex %u: cooked pose (%g %g %g), "
                             "source (%g %g %g): %g apart, allowed %g",
                             t, node.source_node, sn->name ? sn->name : "", sn->skin, ma->label, v,
                             got[0], got[1], got[2], want[0], want[1], want[2], dist, allowed);
                if (dist > st->worst) st->worst = dist;
                /* mkskins binds in world space: a vertex's bind pose is its position. */
                const float *sp3 = sp->positions + (size_t)s * 3;
                double moved = sqrt((want[0] - sp3[0]) * (want[0] - sp3[0]) +
                                    (want[1] - sp3[1]) * (want[1] - sp3[1]) +
                                    (want[2] - sp3[2]) * (want[2] - sp3[2]));
                if (moved > st->movement) st->movement = moved;
                st->vertices++;
            }
            kiln_mesh_decoded_free(&d);
        }
        free(sm);
        free(cm);
        st->instances++;
    }
    free(sw);
    free(cw);
}

/* Cooks `source`, checks it with model_check, then poses every instance at several times. */
static void check_model(const char *source, const char *dir, size_t want_copies,
                        size_t want_instances)
{
    char *out = kt_format("%s/out", dir);
    kiln_result code;
    kiln_error err;
    json_t *doc = mc_convert(source, out, 2, NULL, 0, &code, &err);
    if (!doc) fail_msg("%s: %s: %s", source, kiln_result_name(code), err.message);
    /* No warning: every instance is cooked right. */
    json_t *warnings = json_object_get(doc, "warnings");
    if (json_array_size(warnings))
        fail_msg("%s: warning %s", source, json_string_value(json_array_get(warnings, 0)));
    mc_model m;
    mc_load(&m, out, doc);
    mc_stats st;
    memset(&st, 0, sizeof st);
    mc_check(&m, source, false, &st);
    assert_int_equal(st.mesh_copies, want_copies);

    kiln_scene *sc = NULL;
    kiln_scene_opts so;
    memset(&so, 0, sizeof so);
    so.struct_size = sizeof so;
    so.flags = KILN_SCENE_LOAD_NO_IMAGES;
    if (kiln_scene_load(source, &so, &sc, &err) != KILN_OK) fail_msg("%s: %s", source, err.message);
    cooked k;
    memset(&k, 0, sizeof k);
    k.m = &m;
    const mc_artifact *sa = mc_find(&m, "scene");
    assert_non_null(sa);
    assert_int_equal(kiln_cooked_scene_read(sa->bytes, sa->size, 0, &k.scene, &err), KILN_OK);
    const mc_artifact *ca = mc_find(&m, "clip0");
    k.has_clip = ca != NULL;
    if (ca) assert_int_equal(kiln_clip_read(ca->bytes, ca->size, 0, &k.clip, &err), KILN_OK);
    k.source_count = sc->node_count;
    k.node_of_source = malloc((size_t)sc->node_count * sizeof *k.node_of_source);
    assert_non_null(k.node_of_source);
    for (uint32_t i = 0; i < sc->node_count; i++) k.node_of_source[i] = UINT32_MAX;
    for (uint32_t i = 0; i < k.scene.node_count; i++) {
        kiln_cooked_node c = kiln_cooked_scene_node(&k.scene, i);
        if (c.source_node < sc->node_count) k.node_of_source[c.source_node] = i;
    }
    static const double times[] = {0.0, 0.5, 1.0, 1.37, 2.0};
    pose_stats ps;
    memset(&ps, 0, sizeof ps);
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        pose_and_compare(sc, &k, times[i], &ps);
    assert_int_equal(ps.instances, want_instances * (sizeof times / sizeof times[0]));
    /* The poses are not the bind pose: the clip moves vertices by whole units. */
    assert_true(ps.movement > 1.0);
    fprintf(stderr,
            "%s: %zu instances x %zu times, %zu vertices posed, moved up to %.3g, cooked and "
            "source poses at most %.3g apart, %zu copied primitives\n",
            source, want_instances, sizeof times / sizeof times[0], ps.vertices, ps.movement,
            ps.worst, st.mesh_copies);
    free(k.node_of_source);
    kiln_scene_free(sc);
    mc_free(&m);
    free(out);
}

static char *generate(const char *dir, const char *name, const char *args)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *path = kt_format("%s/%s", dir, name);
    char *cmd = kt_format("python3 '%s/tests/cli/mkskins.py' '%s' %s", src, path, args);
    if (kt_run(cmd, NULL) != 0) fail_msg("%s failed", cmd);
    free(cmd);
    return path;
}

/* Two copies of the column: the first for the skins listing their chain parents first (and the
 * longer chain, whose first ten joints are cooked alike), the second for the two reversed. */
static void columns_with_reversed_skins_pose_like_the_source(void **state)
{
    (void)state;
    char *dir = kt_tempdir("skin-instances");
    char *src = generate(dir, "columns.gltf", "3 2 1 --animate");
    check_model(src, dir, 1, 6);
    kt_rmtree(dir);
    free(src);
    free(dir);
}

/* RecursiveSkeletons' shape: every skeleton orders its ten joints alike, so one copy serves all
 * 84 instances, and each follows the columns above it as they rock. */
static void recursive_skeletons_pose_like_the_source(void **state)
{
    (void)state;
    char *dir = kt_tempdir("skin-instances");
    char *src = generate(dir, "tentacles.gltf", "--tentacles 2");
    check_model(src, dir, 0, 84);
    kt_rmtree(dir);
    free(src);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns_with_reversed_skins_pose_like_the_source),
        cmocka_unit_test(recursive_skeletons_pose_like_the_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
