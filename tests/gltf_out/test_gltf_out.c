/* test_gltf_out.c — kiln_gltf_export over every model of the corpus (skipped when it is
 * absent): .glb and .gltf, plain, quantized (KHR_mesh_quantization) and quantized + compressed
 * (EXT_meshopt_compression). A model kiln's importer refuses is refused with the same code.
 * Each output is read back by kiln's own importer (which decodes meshopt and quantization):
 * the node count is the source's plus the holders the document reports, every mesh instance has
 * its primitives, no more triangles than the source and the document's count, and in world space
 * (skinned meshes through their inverse bind matrices) every output vertex lies within the
 * quantization error of a source vertex and every vertex of a source triangle within that error of
 * an output vertex. Khronos' glTF Validator then checks every output (0 errors; skipped without
 * node or tests/node's gltf-validator). Two runs give the same bytes; bad paths fail with their
 * codes and write nothing. */
#define _GNU_SOURCE
#include "support.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kiln/kiln.h"

static const uint32_t load_flags =
    KILN_SCENE_LOAD_NO_PIXELS | KILN_SCENE_LOAD_NO_NORMALS | KILN_SCENE_LOAD_NO_TANGENTS;

static kiln_result load(const char *path, kiln_scene **out, kiln_error *err)
{
    kiln_scene_opts o = {sizeof o, load_flags, 0, {0}};
    return kiln_scene_load(path, &o, out, err);
}

typedef struct config {
    const char *name;
    bool quantize, compress;
} config;

static const config configs[] = {
    {"plain", false, false},
    {"quantized", true, false},
    {"compressed", true, true},
};
#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

/* ---- nearest points: a hash grid over world positions ------------------------------------- */

typedef struct grid {
    float cell;
    size_t count, capacity;
    float *points; /* 3 per point */
    size_t *heads, *next;
    size_t bucket_count;
} grid;

static size_t cell_hash(long x, long y, long z, size_t n)
{
    uint64_t h = (uint64_t)x * 73856093u ^ (uint64_t)y * 19349663u ^ (uint64_t)z * 83492791u;
    return (size_t)(h % n);
}

static void grid_build(grid *g, const float *points, size_t count, float cell)
{
    memset(g, 0, sizeof *g);
    g->cell = cell > 0 ? cell : 1e-6f;
    g->count = count;
    g->points = malloc((count ? count : 1) * 3 * sizeof(float));
    memcpy(g->points, points, count * 3 * sizeof(float));
    g->bucket_count = count * 2 + 1;
    g->heads = malloc(g->bucket_count * sizeof(size_t));
    g->next = malloc((count ? count : 1) * sizeof(size_t));
    for (size_t i = 0; i < g->bucket_count; i++) g->heads[i] = SIZE_MAX;
    for (size_t i = 0; i < count; i++) {
        const float *p = points + i * 3;
        size_t b = cell_hash(lroundf(floorf(p[0] / g->cell)), lroundf(floorf(p[1] / g->cell)),
                             lroundf(floorf(p[2] / g->cell)), g->bucket_count);
        g->next[i] = g->heads[b];
        g->heads[b] = i;
    }
}

/* Whether some point lies within tol (<= cell) of p. */
static bool grid_near(const grid *g, const float *p, float tol)
{
    long cx = lroundf(floorf(p[0] / g->cell)), cy = lroundf(floorf(p[1] / g->cell)),
         cz = lroundf(floorf(p[2] / g->cell));
    for (long dx = -1; dx <= 1; dx++)
        for (long dy = -1; dy <= 1; dy++)
            for (long dz = -1; dz <= 1; dz++)
                for (size_t i = g->heads[cell_hash(cx + dx, cy + dy, cz + dz, g->bucket_count)];
                     i != SIZE_MAX; i = g->next[i]) {
                    const float *q = g->points + i * 3;
                    float d0 = q[0] - p[0], d1 = q[1] - p[1], d2 = q[2] - p[2];
                    if (d0 * d0 + d1 * d1 + d2 * d2 <= tol * tol) return true;
                }
    return false;
}

static void grid_free(grid *g)
{
    free(g->points);
    free(g->heads);
    free(g->next);
}

static void transform(const float m[16], const float p[3], float out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static float max_axis_scale(const float m[16])
{
    float s = 0;
    for (int c = 0; c < 3; c++) {
        float n =
            sqrtf(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] + m[c * 4 + 2] * m[c * 4 + 2]);
        if (n > s) s = n;
    }
    return s;
}

/* Positions of a primitive: world (through m) or as stored (m NULL). Returns malloc'd. */
static float *positions_of(const kiln_scene_primitive *p, const float *m)
{
    float *out = malloc(((size_t)p->vertex_count + 1) * 3 * sizeof(float));
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        if (m) transform(m, p->positions + (size_t)v * 3, out + (size_t)v * 3);
        else memcpy(out + (size_t)v * 3, p->positions + (size_t)v * 3, 3 * sizeof(float));
    }
    return out;
}

static bool nondegenerate(const float *pos, const uint32_t *t)
{
    const float *a = pos + (size_t)t[0] * 3, *b = pos + (size_t)t[1] * 3,
                *c = pos + (size_t)t[2] * 3;
    return memcmp(a, b, 12) != 0 && memcmp(b, c, 12) != 0 && memcmp(a, c, 12) != 0;
}

typedef struct trip_stats {
    size_t instances, primitives, vertices_checked, targets_checked;
} trip_stats;

/* One source primitive against its output: both ways within tol (world units). */
static void compare_prim(const char *what, const kiln_scene_primitive *sp, const float *sm,
                         const kiln_scene_primitive *op, const float *om, float tol, trip_stats *ts)
{
    float *spos = positions_of(sp, sm), *opos = positions_of(op, om);
    if (op->index_count > sp->index_count)
        fail_msg("%s: %u triangles out of %u", what, op->index_count / 3, sp->index_count / 3);
    grid gs, go;
    grid_build(&gs, spos, sp->vertex_count, tol);
    grid_build(&go, opos, op->vertex_count, tol);
    for (uint32_t v = 0; v < op->vertex_count; v++)
        if (!grid_near(&gs, opos + (size_t)v * 3, tol))
            fail_msg("%s: output vertex %u (%g %g %g) is farther than %g from every source vertex",
                     what, v, opos[v * 3], opos[v * 3 + 1], opos[v * 3 + 2], tol);
    /* Corners of source triangles with some area: the output keeps them (all of them when
     * it does not simplify). */
    for (uint32_t i = 0; i + 2 < sp->index_count; i += 3) {
        const uint32_t *t = sp->indices + i;
        if (!nondegenerate(sp->positions, t)) continue;
        for (int c = 0; c < 3; c++)
            if (!grid_near(&go, spos + (size_t)t[c] * 3, tol))
                fail_msg("%s: source vertex %u (triangle %u) is lost", what, t[c], i / 3);
    }
    /* Morph targets: the box of every target's morphed positions (weight 1), in world space,
     * within two steps (base and delta each round by half a step per axis). */
    if (op->target_count != sp->target_count)
        fail_msg("%s: %u morph targets, the source has %u", what, op->target_count,
                 sp->target_count);
    for (uint32_t t = 0; t < sp->target_count; t++) {
        const float *sd = sp->targets[t].positions, *od = op->targets[t].positions;
        if (!sd) continue;
        if (!od) fail_msg("%s: target %u lost its position deltas", what, t);
        float box[2][6];
        for (int k = 0; k < 2; k++) {
            const kiln_scene_primitive *pp = k ? op : sp;
            const float *dd = k ? od : sd, *mm = k ? om : sm;
            for (int c = 0; c < 3; c++) box[k][c] = INFINITY, box[k][3 + c] = -INFINITY;
            for (uint32_t v = 0; v < pp->vertex_count; v++) {
                float p[3], w[3];
                for (int c = 0; c < 3; c++)
                    p[c] = pp->positions[(size_t)v * 3 + c] + dd[(size_t)v * 3 + c];
                if (mm) transform(mm, p, w);
                else memcpy(w, p, sizeof w);
                for (int c = 0; c < 3; c++) {
                    box[k][c] = fminf(box[k][c], w[c]);
                    box[k][3 + c] = fmaxf(box[k][3 + c], w[c]);
                }
            }
        }
        for (int c = 0; c < 6; c++)
            if (fabsf(box[0][c] - box[1][c]) > 2.0f * tol)
                fail_msg("%s: target %u: morphed box %s %c %g, the source's %g (tolerance %g)",
                         what, t, c < 3 ? "min" : "max", "xyz"[c % 3], box[1][c], box[0][c],
                         2 * tol);
        ts->targets_checked++;
    }
    ts->vertices_checked += op->vertex_count;
    ts->primitives++;
    grid_free(&gs);
    grid_free(&go);
    free(spos);
    free(opos);
}

/* Inverse of an affine column-major matrix (last row 0 0 0 1). */
static void affine_inverse(const float m[16], float out[16])
{
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6],
           k = m[10];
    double det = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g);
    double inv[9] = {(e * k - f * h) / det, (c * h - b * k) / det, (b * f - c * e) / det,
                     (f * g - d * k) / det, (a * k - c * g) / det, (c * d - a * f) / det,
                     (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det};
    memset(out, 0, 16 * sizeof(float));
    for (int r = 0; r < 3; r++) {
        for (int col = 0; col < 3; col++) out[col * 4 + r] = (float)inv[r * 3 + col];
        out[12 + r] =
            (float)-(inv[r * 3] * m[12] + inv[r * 3 + 1] * m[13] + inv[r * 3 + 2] * m[14]);
    }
    out[15] = 1;
}

static void mul(const float a[16], const float b[16], float out[16])
{
    for (int col = 0; col < 4; col++)
        for (int r = 0; r < 4; r++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += (double)a[k * 4 + r] * b[col * 4 + k];
            out[col * 4 + r] = (float)v;
        }
}

static bool mesh_skinned(const kiln_scene *sc, int32_t m)
{
    for (uint32_t i = 0; i < sc->meshes[m].primitive_count; i++)
        if (sc->meshes[m].primitives[i].joint_set_count) return true;
    for (uint32_t n = 0; n < sc->node_count; n++)
        if (sc->nodes[n].mesh == m && sc->nodes[n].skin >= 0) return true;
    return false;
}

/* The read-back output against the source (see the file comment). */
static void round_trip(const char *what, const kiln_scene *src, const kiln_scene *out,
                       const json_t *doc, int position_bits, trip_stats *ts)
{
    const json_t *w = json_object_get(doc, "written");
    long long added = json_integer_value(json_object_get(w, "nodes_added"));
    if ((long long)out->node_count != (long long)src->node_count + added)
        fail_msg("%s: %u nodes read back, the source has %u and %lld were added", what,
                 out->node_count, src->node_count, added);
    uint64_t tris = 0;
    for (uint32_t m = 0; m < out->mesh_count; m++)
        for (uint32_t p = 0; p < out->meshes[m].primitive_count; p++)
            tris += out->meshes[m].primitives[p].index_count / 3;
    if ((long long)tris != json_integer_value(json_object_get(w, "triangles")))
        fail_msg("%s: %llu triangles read back, the document says %lld", what,
                 (unsigned long long)tris, json_integer_value(json_object_get(w, "triangles")));
    for (uint32_t n = 0; n < src->node_count; n++) {
        const kiln_scene_node *sn = &src->nodes[n];
        if (sn->mesh < 0) continue;
        const kiln_scene_mesh *smesh = &src->meshes[sn->mesh];
        uint64_t src_tris = 0;
        for (uint32_t p = 0; p < smesh->primitive_count; p++)
            src_tris += smesh->primitives[p].index_count;
        /* The node itself or its holder (an added child). */
        const kiln_scene_node *on = &out->nodes[n];
        if (on->mesh < 0)
            for (uint32_t c = 0; c < on->child_count; c++)
                if (on->children[c] >= src->node_count && out->nodes[on->children[c]].mesh >= 0)
                    on = &out->nodes[on->children[c]];
        if (on->mesh < 0) {
            if (src_tris == 0) continue; /* a mesh of points and lines only */
            fail_msg("%s: node %u lost its mesh", what, n);
        }
        const kiln_scene_mesh *omesh = &out->meshes[on->mesh];
        if (omesh->primitive_count != smesh->primitive_count)
            fail_msg("%s: node %u: %u primitives, the source has %u", what, n,
                     omesh->primitive_count, smesh->primitive_count);
        bool skinned = mesh_skinned(src, sn->mesh);
        /* The writer's grid: the mesh's box, its largest side in 2^bits - 1 steps. */
        float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t p = 0; p < smesh->primitive_count; p++)
            for (int c = 0; c < 3; c++) {
                mn[c] = fminf(mn[c], smesh->primitives[p].bounds_min[c]);
                mx[c] = fmaxf(mx[c], smesh->primitives[p].bounds_max[c]);
            }
        float extent = fmaxf(mx[0] - mn[0], fmaxf(mx[1] - mn[1], mx[2] - mn[2]));
        float step = position_bits && !skinned ? extent / (float)((1u << position_bits) - 1u) : 0;
        /* (skinned: the skin's box, which may be larger than this mesh's: from the matrices) */
        /* Half a step per axis, plus float rounding of the transforms. */
        float local_tol = 0.5f * step * sqrtf(3.0f) * 1.01f + 1e-5f * (extent + 1.0f);
        const float *sm = skinned ? NULL : sn->world, *om = skinned ? NULL : on->world;
        float tol = local_tol * (skinned ? 1.0f : fmaxf(max_axis_scale(sn->world), 1e-6f));
        /* A skinned mesh's dequantization is in its skin's inverse bind matrices: the source's
         * first one inverted times the output's is T(min) S(step). */
        float deq[16];
        if (skinned && position_bits && on->skin >= 0 && sn->skin >= 0) {
            const kiln_scene_skin *ss = &src->skins[sn->skin], *os = &out->skins[on->skin];
            if (ss->joint_count && os->joint_count) {
                float inv[16];
                affine_inverse(ss->inverse_bind, inv);
                mul(inv, os->inverse_bind, deq);
                om = deq;
                float step_skin = max_axis_scale(deq);
                tol = 0.5f * step_skin * sqrtf(3.0f) * 1.01f + 1e-5f * (extent + 1.0f);
            }
        }
        for (uint32_t p = 0; p < smesh->primitive_count; p++) {
            char label[600];
            snprintf(label, sizeof label, "%s node %u prim %u", what, n, p);
            compare_prim(label, &smesh->primitives[p], sm, &omesh->primitives[p], om, tol, ts);
        }
        ts->instances++;
    }
}

/* ---- every corpus model ------------------------------------------------------------------- */

static char *export_one(const char *in, const char *out, const config *c, kiln_result *r,
                        kiln_error *err)
{
    kiln_gltf_opts o = {0};
    o.struct_size = sizeof o;
    o.quantize = c->quantize;
    o.compress = c->compress;
    char *doc = NULL;
    *r = kiln_gltf_export(in, out, &o, &doc, err);
    return doc;
}

/* Appends " 'path'" to a shell command line. */
static void add_arg(char **cmd, const char *path)
{
    char *next = kt_format("%s '%s'", *cmd, path);
    free(*cmd);
    *cmd = next;
}

static void every_corpus_model_round_trips_and_validates(void **state)
{
    (void)state;
    char *root = kt_corpus_path("gltf");
    size_t count = 0;
    char **models = kt_gltf_files(root, &count);
    assert_true(count > 30);
    char *dir = kt_tempdir("gltf-out");
    char *validate = kt_format("node '%s/examples/validate_gltf.mjs'", getenv("KILN_SOURCE_DIR"));
    trip_stats ts = {0};
    size_t written = 0, refused = 0;
    for (size_t i = 0; i < count; i++) {
        kiln_scene *src = NULL;
        kiln_error err;
        kiln_result lr = load(models[i], &src, &err);
        for (size_t c = 0; c < CONFIG_COUNT; c++)
            for (int glb = 0; glb < 2; glb++) {
                char *out =
                    kt_format("%s/%zu-%s.%s", dir, i, configs[c].name, glb ? "glb" : "gltf");
                kiln_result r;
                kiln_error e;
                char *doc = export_one(models[i], out, &configs[c], &r, &e);
                if (lr != KILN_OK) { /* refused as the importer refuses it, nothing written */
                    if (r != lr)
                        fail_msg("%s: export %s, import %s", models[i], kiln_result_name(r),
                                 kiln_result_name(lr));
                    assert_false(kt_file_exists(out));
                    refused++;
                    free(out);
                    continue;
                }
                if (r != KILN_OK)
                    fail_msg("%s (%s): %s: %s", models[i], configs[c].name, kiln_result_name(r),
                             e.message);
                json_t *d = json_loads(doc, 0, NULL);
                assert_non_null(d);
                kiln_scene *back = NULL;
                r = load(out, &back, &e);
                if (r != KILN_OK)
                    fail_msg("%s: kiln reads its own output back with %s: %s (%s)", out,
                             kiln_result_name(r), e.message, e.json_pointer);
                char *what =
                    kt_format("%s (%s, %s)", models[i], configs[c].name, glb ? "glb" : "gltf");
                round_trip(what, src, back, d, configs[c].quantize ? 14 : 0, &ts);
                free(what);
                kiln_scene_free(back);
                json_decref(d);
                kiln_string_free(doc);
                add_arg(&validate, out);
                written++;
                free(out);
            }
        kiln_scene_free(src);
    }
    print_message("%zu outputs read back (%zu refused like the import): %zu mesh instances, %zu "
                  "primitives, %zu vertices within the quantization error, %zu morph targets\n",
                  written, refused, ts.instances, ts.primitives, ts.vertices_checked,
                  ts.targets_checked);
    assert_true(ts.targets_checked > 0);
    assert_true(ts.instances > 0);

    kt_gltf_validate(validate, written);
    free(validate);
    kt_rmtree(dir);
    free(dir);
    kt_paths_free(models, count);
    free(root);
}

/* ---- determinism --------------------------------------------------------------------------- */

static void same_bytes(const char *a, const char *b)
{
    size_t as = 0, bs = 0;
    void *ad = kt_read_file(a, &as), *bd = kt_read_file(b, &bs);
    if (!ad || !bd) fail_msg("%s: not written", !ad ? a : b);
    if (as != bs || memcmp(ad, bd, as) != 0) fail_msg("%s and %s differ", a, b);
    free(ad);
    free(bd);
}

static void two_runs_write_the_same_bytes(void **state)
{
    (void)state;
    const char *models[] = {"gltf/DamagedHelmet/glTF/DamagedHelmet.gltf",
                            "gltf/CesiumMan/glTF-Binary/CesiumMan.glb",
                            "gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb"};
    char *a = kt_tempdir("gltf-det-a"), *b = kt_tempdir("gltf-det-b");
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        char *in = kt_corpus_path(models[i]);
        for (size_t c = 0; c < CONFIG_COUNT; c++) {
            char *oa = kt_format("%s/m%zu.gltf", a, i), *ob = kt_format("%s/m%zu.gltf", b, i);
            kiln_result r;
            kiln_error e;
            kiln_string_free(export_one(in, oa, &configs[c], &r, &e));
            assert_int_equal(r, KILN_OK);
            kiln_string_free(export_one(in, ob, &configs[c], &r, &e));
            assert_int_equal(r, KILN_OK);
            same_bytes(oa, ob);
            char *ba = kt_format("%s/m%zu.bin", a, i), *bb = kt_format("%s/m%zu.bin", b, i);
            same_bytes(ba, bb);
            free(ba), free(bb), free(oa), free(ob);
        }
        free(in);
    }
    kt_rmtree(a), kt_rmtree(b);
    free(a), free(b);
}

/* ---- what the options do ------------------------------------------------------------------- */

static size_t file_size(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 ? (size_t)s.st_size : 0;
}

/* Suzanne's mesh (2012 welded vertices, 3936 triangles) in its .bin: 88000 bytes of floats,
 * 55808 quantized (as gltfpack's default), about 26 KB compressed. */
static void quantization_and_compression_make_smaller_files(void **state)
{
    (void)state;
    char *in = kt_corpus_path("gltf/Suzanne/glTF/Suzanne.gltf");
    char *dir = kt_tempdir("gltf-size");
    size_t sizes[CONFIG_COUNT];
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        char *out = kt_format("%s/%s.gltf", dir, configs[c].name);
        char *bin = kt_format("%s/%s.bin", dir, configs[c].name);
        kiln_result r;
        kiln_error e;
        char *doc = export_one(in, out, &configs[c], &r, &e);
        assert_int_equal(r, KILN_OK);
        json_t *d = json_loads(doc, 0, NULL);
        json_t *ext = json_object_get(d, "extensions");
        char *list = json_dumps(ext, JSON_COMPACT);
        sizes[c] = file_size(bin);
        print_message("%s: .bin %zu bytes, extensions %s\n", configs[c].name, sizes[c], list);
        assert_int_equal(strstr(list, "KHR_mesh_quantization") != NULL, configs[c].quantize);
        assert_int_equal(strstr(list, "EXT_meshopt_compression") != NULL, configs[c].compress);
        free(list);
        json_decref(d);
        kiln_string_free(doc);
        free(out);
        free(bin);
    }
    assert_true(sizes[1] < sizes[0] * 7 / 10); /* 14-bit positions, 8-bit normals, 12-bit UVs */
    assert_true(sizes[2] < sizes[1] * 6 / 10);
    kt_rmtree(dir);
    free(dir);
    free(in);
}

static void simplify_keeps_about_the_fraction_asked(void **state)
{
    (void)state;
    char *in = kt_corpus_path("gltf/Suzanne/glTF/Suzanne.gltf");
    char *dir = kt_tempdir("gltf-si");
    char *out = kt_format("%s/s.glb", dir);
    kiln_gltf_opts o = {0};
    o.struct_size = sizeof o;
    o.simplify = 0.25f;
    o.simplify_error = 0.05f;
    char *doc = NULL;
    kiln_error e;
    assert_int_equal(kiln_gltf_export(in, out, &o, &doc, &e), KILN_OK);
    json_t *d = json_loads(doc, 0, NULL);
    double tris =
        (double)json_integer_value(json_object_get(json_object_get(d, "written"), "triangles"));
    double src =
        (double)json_integer_value(json_object_get(json_object_get(d, "source"), "triangles"));
    print_message("simplify 0.25: %.0f of %.0f triangles\n", tris, src);
    assert_true(tris > 0.2 * src && tris < 0.3 * src);
    kiln_scene *back = NULL;
    assert_int_equal(load(out, &back, &e), KILN_OK);
    assert_int_equal(back->mesh_count, 1);
    kiln_scene_free(back);
    json_decref(d);
    kiln_string_free(doc);
    kt_rmtree(dir);
    free(dir), free(out), free(in);
}

/* ---- bad paths ------------------------------------------------------------------------------ */

static void bad_paths_fail_with_their_codes(void **state)
{
    (void)state;
    char *dir = kt_tempdir("gltf-bad");
    char *box = kt_corpus_path("gltf/Box/glTF/Box.gltf");
    kiln_error e;
    char *doc = (char *)1;
    char *missing = kt_format("%s/missing.gltf", dir), *out = kt_format("%s/o.glb", dir);
    assert_int_equal(kiln_gltf_export(missing, out, NULL, &doc, &e), KILN_E_ASSET_IO);
    assert_null(doc);
    char *obj = kt_format("%s/o.obj", dir);
    assert_int_equal(kiln_gltf_export(box, obj, NULL, &doc, &e), KILN_E_USAGE);
    char *nodir = kt_format("%s/no/such/o.glb", dir);
    assert_int_equal(kiln_gltf_export(box, nodir, NULL, &doc, &e), KILN_E_ASSET_IO);
    /* Over its own input, or over a file it reads (the .bin beside a copy): refused. */
    char *copy = kt_format("%s/Box.gltf", dir), *bin_src = kt_corpus_path("gltf/Box/glTF/Box0.bin");
    size_t n = 0;
    void *bytes = kt_read_file(box, &n);
    kt_write_file(copy, bytes, n);
    free(bytes);
    bytes = kt_read_file(bin_src, &n);
    char *bin = kt_format("%s/Box0.bin", dir);
    kt_write_file(bin, bytes, n);
    assert_int_equal(kiln_gltf_export(copy, copy, NULL, &doc, &e), KILN_E_OUTPUT_REFUSED);
    char *over_bin = kt_format("%s/Box0.gltf", dir); /* its side file would be Box0.bin */
    assert_int_equal(kiln_gltf_export(copy, over_bin, NULL, &doc, &e), KILN_E_OUTPUT_REFUSED);
    assert_false(kt_file_exists(over_bin));
    size_t m = 0;
    void *after = kt_read_file(bin, &m);
    assert_int_equal(m, n);
    assert_memory_equal(after, bytes, n);
    free(after);
    free(bytes);
    kiln_gltf_opts bad = {0};
    bad.struct_size = sizeof bad;
    bad.simplify = 2.0f;
    assert_int_equal(kiln_gltf_export(box, out, &bad, &doc, &e), KILN_E_USAGE);
    assert_false(kt_file_exists(out));
    kt_rmtree(dir);
    free(dir), free(box), free(missing), free(out), free(obj), free(nodir), free(copy),
        free(bin_src), free(bin), free(over_bin);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_paths_fail_with_their_codes),
        cmocka_unit_test(quantization_and_compression_make_smaller_files),
        cmocka_unit_test(simplify_keeps_about_the_fraction_asked),
        cmocka_unit_test(two_runs_write_the_same_bytes),
        cmocka_unit_test(every_corpus_model_round_trips_and_validates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
