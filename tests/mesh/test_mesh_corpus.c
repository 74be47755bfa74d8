/* test_mesh_corpus.c — the mesh cook on every glTF model of the third-party corpus that imports:
 * each primitive cooks (quantized, and float with meshopt compression), passes its own reader,
 * decodes within the documented quantization bounds against the source vertex it came from
 * (positions, normals, tangents, UVs, colours, skin weights and joints, morph deltas), keeps the
 * level and meshlet invariants, and gives the same bytes twice and on other threads. Then the
 * seam proof: on textured models, no level of detail opens a crack that the full mesh, welded
 * by position, did not have on its border. Skips (77) when the corpus is absent. */
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codec/mesh_codec.h"
#include "mesh_fixtures.h"

static kiln_scene *load(const char *path)
{
    kiln_scene *s = NULL;
    kiln_error err;
    kiln_scene_opts opts = {sizeof opts, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
    if (kiln_scene_load(path, &opts, &s, &err) != KILN_OK) return NULL;
    return s;
}

/* The angle between two 3-vectors (atan2 form: exact for tiny angles). */
static double angle3(const float *a, const float *b)
{
    double c[3] = {(double)a[1] * b[2] - (double)a[2] * b[1],
                   (double)a[2] * b[0] - (double)a[0] * b[2],
                   (double)a[0] * b[1] - (double)a[1] * b[0]};
    double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), d);
}

typedef struct worst {
    double position, uv, normal, tangent, color,
        weight; /* positions, UVs, colours: fraction of bound */
} worst;

static void track(double *w, double v)
{
    if (v > *w) *w = v;
}

/* Decoded level 0 of a quantized cook against the source, vertex by vertex. */
static void check_quantized(const kiln_scene_primitive *p, const mf_cooked *c, worst *w)
{
    const kiln_mesh_view *v = &c->view;
    kiln_mesh_decoded d;
    mf_decode(c, 0, &d);
    const uint32_t *src = c->mesh.source_vertices;
    for (uint32_t i = 0; i < d.vertex_count; i++) {
        uint32_t s = src[i];
        for (int k = 0; k < 3; k++) {
            double lo = v->bounds_min[k], hi = v->bounds_max[k];
            double bound = v->position_scale[k] / 131070.0 + 2.5e-7 * (fabs(lo) + fabs(hi)) + 1e-30;
            track(&w->position, fabs(d.positions[i * 3 + k] - p->positions[s * 3 + k]) / bound);
        }
        if (p->normals) track(&w->normal, angle3(d.normals + i * 3, p->normals + s * 3));
        if (p->tangents) {
            const float *t = p->tangents + s * 4;
            if (sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) > 1e-6)
                track(&w->tangent, angle3(d.tangents + i * 4, t));
            assert_true((d.tangents[i * 4 + 3] < 0) == (t[3] < 0));
        }
        for (uint32_t u = 0; u < v->uv_set_count; u++)
            for (int k = 0; k < 2; k++) {
                double bound = v->uv_scale[u][k] / 131070.0 +
                               2.5e-7 * (fabs(v->uv_offset[u][k]) + fabs(v->uv_scale[u][k])) +
                               1e-30;
                track(&w->uv, fabs(d.uvs[u][i * 2 + k] - p->texcoords[u][s * 2 + k]) / bound);
            }
        for (uint32_t cs = 0; cs < v->color_set_count; cs++)
            for (int k = 0; k < 4; k++) {
                float x = p->colors[cs][s * 4 + k];
                x = x < 0 ? 0 : x > 1 ? 1 : x;
                track(&w->color, fabs(d.colors[cs][i * 4 + k] - x) * 510.0);
            }
        if (d.weights) {
            /* bytes sum to 255 exactly */
            const uint8_t *q = v->streams[KILN_MESH_WEIGHTS].data + (size_t)i * 4;
            assert_int_equal(q[0] + q[1] + q[2] + q[3], 255);
            /* every source influence is found with its renormalized weight (<= 4 influences) */
            uint32_t js[8];
            float ws[8];
            uint32_t n = 0;
            double sum = 0;
            for (uint32_t set = 0; set < p->joint_set_count; set++)
                for (int k = 0; k < 4; k++) {
                    float wt = p->weights[set][s * 4 + k];
                    if (!(wt > 0)) continue;
                    uint32_t j = p->joints[set][s * 4 + k], m = 0;
                    while (m < n && js[m] != j) m++;
                    if (m == n) js[n] = j, ws[n++] = 0;
                    ws[m] += wt;
                    sum += wt;
                }
            if (n <= 4)
                for (uint32_t m = 0; m < n; m++) {
                    int slot = -1;
                    for (int k = 0; k < 4; k++)
                        if (d.joints[i * 4 + k] == js[m] && (slot < 0 || d.weights[i * 4 + k] > 0))
                            slot = k;
                    assert_true(slot >= 0);
                    track(&w->weight, fabs(d.weights[i * 4 + slot] - ws[m] / sum) * 255.0);
                }
        }
        for (uint32_t t = 0; t < p->target_count; t++) {
            const kiln_scene_morph_target *m = &p->targets[t];
            for (int k = 0; k < 3; k++) {
                if (m->positions)
                    assert_true(d.target_positions[((size_t)t * d.vertex_count + i) * 3 + k] ==
                                m->positions[s * 3 + k]);
                if (m->normals)
                    assert_true(d.target_normals[((size_t)t * d.vertex_count + i) * 3 + k] ==
                                m->normals[s * 3 + k]);
                if (m->tangents)
                    assert_true(d.target_tangents[((size_t)t * d.vertex_count + i) * 3 + k] ==
                                m->tangents[s * 3 + k]);
            }
        }
    }
    kiln_mesh_decoded_free(&d);
}

/* Decoded float cook: bit-exact copies of the source vertices. */
static void check_float(const kiln_scene_primitive *p, const mf_cooked *c)
{
    kiln_mesh_decoded d;
    mf_decode(c, 0, &d);
    const uint32_t *src = c->mesh.source_vertices;
    for (uint32_t i = 0; i < d.vertex_count; i++) {
        uint32_t s = src[i];
        assert_memory_equal(d.positions + i * 3, p->positions + s * 3, 12);
        if (p->normals) assert_memory_equal(d.normals + i * 3, p->normals + s * 3, 12);
        if (p->tangents) assert_memory_equal(d.tangents + i * 4, p->tangents + s * 4, 16);
        for (uint32_t u = 0; u < c->view.uv_set_count; u++)
            assert_memory_equal(d.uvs[u] + i * 2, p->texcoords[u] + s * 2, 8);
    }
    kiln_mesh_decoded_free(&d);
}

static void check_levels(const mf_cooked *c, const kiln_mesh_build_opts *o)
{
    const kiln_mesh_view *v = &c->view;
    for (uint32_t l = 1; l < v->level_count; l++) {
        assert_true(v->levels[l].error <= o->lod_error);
        assert_true(v->levels[l].error >= v->levels[l - 1].error);
        assert_true((uint64_t)v->levels[l].index_count * 100 <=
                    (uint64_t)v->levels[l - 1].index_count * 95);
        assert_true(v->levels[l].index_count / 3 >= 1);
    }
    for (uint32_t m = 0; m < v->meshlet_count; m++) {
        kiln_meshlet ml = kiln_mesh_meshlet(v, m);
        assert_true(ml.vertex_count <= o->meshlet_max_vertices &&
                    ml.triangle_count <= o->meshlet_max_triangles);
    }
}

typedef struct cook_arg {
    const kiln_scene_primitive *prim;
    const kiln_mesh_build_opts *opts;
    const uint8_t *expect;
    size_t expect_size;
    int same;
} cook_arg;

static void *cook_again(void *p)
{
    cook_arg *a = p;
    mf_cooked c;
    mf_cook(a->prim, a->opts, &c);
    a->same = c.size == a->expect_size && memcmp(c.bytes, a->expect, c.size) == 0;
    mf_cooked_free(&c);
    return NULL;
}

static void every_corpus_primitive_cooks_reads_and_decodes_within_bounds(void **state)
{
    (void)state;
    kt_require_corpus();
    char *root = kt_corpus_path("gltf");
    size_t count;
    char **paths = kt_gltf_files(root, &count);
    size_t models = 0, prims = 0, tris_in = 0, tris_out = 0, verts_in = 0, verts_out = 0, bytes = 0,
           levels = 0;
    worst wq = {0};
    kiln_mesh_build_opts oq = mf_opts(true, false), of = mf_opts(false, true);
    for (size_t i = 0; i < count; i++) {
        kiln_scene *s = load(paths[i]);
        if (!s) continue;
        models++;
        for (uint32_t m = 0; m < s->mesh_count; m++)
            for (uint32_t pi = 0; pi < s->meshes[m].primitive_count; pi++) {
                const kiln_scene_primitive *p = &s->meshes[m].primitives[pi];
                oq.morph_weights = of.morph_weights = s->meshes[m].weights;
                oq.morph_weight_count = of.morph_weight_count = s->meshes[m].weight_count;
                mf_cooked c;
                mf_cook(p, &oq, &c);
                prims++;
                tris_in += p->index_count / 3, tris_out += c.view.levels[0].index_count / 3;
                verts_in += p->vertex_count, verts_out += c.view.vertex_count;
                bytes += c.mesh.stats.vertex_bytes, levels += c.view.level_count;
                assert_true(c.mesh.stats.welded_vertices <= p->vertex_count);
                assert_true(c.view.vertex_count <= c.mesh.stats.welded_vertices);
                check_quantized(p, &c, &wq);
                check_levels(&c, &oq);
                for (uint32_t t = 0; t < c.view.target_count; t++)
                    assert_true(kiln_mesh_target_weight(&c.view, t) ==
                                (t < s->meshes[m].weight_count ? s->meshes[m].weights[t] : 0.0f));
                /* the same bytes again, on another thread too */
                cook_arg a = {p, &oq, c.bytes, c.size, 0};
                pthread_t th;
                pthread_create(&th, NULL, cook_again, &a);
                pthread_join(th, NULL);
                assert_true(a.same);
                mf_cooked_free(&c);
                mf_cook(p, &of, &c);
                check_float(p, &c);
                mf_cooked_free(&c);
            }
        kiln_scene_free(s);
    }
    print_message(
        "%zu models, %zu primitives: triangles %zu -> %zu, vertices %zu -> %zu, %zu levels, "
        "%zu vertex bytes quantized\n",
        models, prims, tris_in, tris_out, verts_in, verts_out, levels, bytes);
    print_message(
        "worst quantization error: position %.3f and UV %.3f of the half-step bound, normal %.2e rad, "
        "tangent %.2e rad, colour %.3f of 1/510, weight %.3f of 1/255\n",
        wq.position, wq.uv, wq.normal, wq.tangent, wq.color, wq.weight);
    assert_true(models >= 40);
    assert_true(wq.position <= 1.0 && wq.uv <= 1.0);
    assert_true(wq.normal <= 6e-5 && wq.tangent <= 0.014);
    assert_true(wq.color <= 1.0 + 1e-4 && wq.weight <= 1.0 + 1e-4);
    kt_paths_free(paths, count);
    free(root);
}

/* ---- the seam proof -------------------------------------------------------------------------- */

typedef struct keyed {
    float p[3];
    uint32_t v;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = memcmp(x->p, y->p, 12);
    return c ? c : (x->v > y->v) - (x->v < y->v);
}

/* Position ids: vertices with equal position bytes share one. */
static uint32_t *position_ids(const float *pos, uint32_t nv)
{
    keyed *k = malloc((size_t)nv * sizeof *k + 1);
    for (uint32_t v = 0; v < nv; v++) memcpy(k[v].p, pos + v * 3, 12), k[v].v = v;
    qsort(k, nv, sizeof *k, keyed_cmp);
    uint32_t *id = malloc((size_t)nv * 4 + 4);
    for (uint32_t i = 0; i < nv; i++)
        id[k[i].v] = i && memcmp(k[i].p, k[i - 1].p, 12) == 0 ? id[k[i - 1].v] : k[i].v;
    free(k);
    return id;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Edges (as position-id pairs) used by an odd number of triangles: the open ones. */
static uint64_t *open_edges(const uint32_t *idx, size_t n, const uint32_t *pid, size_t *count)
{
    uint64_t *e = malloc(n * 8 + 8);
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3)
        for (int j = 0; j < 3; j++) {
            uint32_t a = pid[idx[i + j]], b = pid[idx[i + (j + 1) % 3]];
            e[k++] = a < b ? ((uint64_t)a << 32 | b) : ((uint64_t)b << 32 | a);
        }
    qsort(e, k, 8, u64_cmp);
    size_t o = 0;
    for (size_t i = 0; i < k;) {
        size_t j = i;
        while (j < k && e[j] == e[i]) j++;
        if ((j - i) % 2) e[o++] = e[i];
        i = j;
    }
    *count = o;
    return e;
}

/* Edges of the attribute-split mesh used once whose position-welded edge is used twice: the
 * seam edges. */
static size_t seam_edges(const uint32_t *idx, size_t n, const uint32_t *pid)
{
    uint32_t maxv = 0;
    for (size_t i = 0; i < n; i++) maxv = idx[i] > maxv ? idx[i] : maxv;
    uint32_t *ident = malloc(((size_t)maxv + 1) * 4);
    for (uint32_t v = 0; v <= maxv; v++) ident[v] = v;
    size_t split_open, welded_open;
    uint64_t *a = open_edges(idx, n, ident, &split_open);
    uint64_t *b = open_edges(idx, n, pid, &welded_open);
    free(a), free(b), free(ident);
    return split_open > welded_open ? split_open - welded_open : 0;
}

static void lods_of_textured_models_tear_no_seam(void **state)
{
    (void)state;
    kt_require_corpus();
    static const char *models[] = {
        "gltf/DamagedHelmet/glTF/DamagedHelmet.gltf",
        "gltf/Avocado/glTF/Avocado.gltf",
        "gltf/Suzanne/glTF/Suzanne.gltf",
        "gltf/Fox/glTF/Fox.gltf",
        "gltf/CesiumMan/glTF/CesiumMan.gltf",
        "gltf/SheenCloth/glTF/SheenCloth.gltf",
    };
    size_t checked_levels = 0;
    for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
        char *path = kt_corpus_path(models[mi]);
        kiln_scene *s = load(path);
        free(path);
        if (!s) {
            print_message("%s: not loaded, skipped\n", models[mi]);
            continue;
        }
        for (uint32_t m = 0; m < s->mesh_count; m++)
            for (uint32_t pi = 0; pi < s->meshes[m].primitive_count; pi++) {
                const kiln_scene_primitive *p = &s->meshes[m].primitives[pi];
                if (p->texcoord_count == 0) continue;
                kiln_mesh_build_opts o = mf_opts(false, false);
                o.lods[0] = 0.5f, o.lods[1] = 0.25f, o.lods[2] = 0.125f, o.lods[3] = 0.06f,
                o.lod_count = 4;
                o.lod_error = 0.1f;
                mf_cooked c;
                mf_cook(p, &o, &c);
                uint32_t *pid = position_ids(c.mesh.positions, c.view.vertex_count);
                uint32_t seam_vertices = 0;
                for (uint32_t v = 0; v < c.view.vertex_count; v++) seam_vertices += pid[v] != v;
                /* the border of the full mesh, welded by position */
                size_t border_count;
                uint64_t *border =
                    open_edges(c.mesh.indices, c.view.levels[0].index_count, pid, &border_count);
                uint8_t *on_border = calloc(c.view.vertex_count + 1, 1);
                for (size_t e = 0; e < border_count; e++)
                    on_border[border[e] >> 32] = on_border[border[e] & 0xFFFFFFFFu] = 1;
                for (uint32_t l = 1; l < c.view.level_count; l++) {
                    const kiln_mesh_lod *lvl = &c.view.levels[l];
                    const uint32_t *idx = c.mesh.indices + lvl->index_offset;
                    size_t open_count;
                    uint64_t *open = open_edges(idx, lvl->index_count, pid, &open_count);
                    size_t torn = 0;
                    for (size_t e = 0; e < open_count; e++)
                        torn += !on_border[open[e] >> 32] || !on_border[open[e] & 0xFFFFFFFFu];
                    size_t seams = seam_edges(idx, lvl->index_count, pid);
                    print_message(
                        "%s mesh %u prim %u level %u: %u triangles (%.1f %%), error %.5f, %zu open "
                        "edges (full mesh %zu), %zu seam edges (%u seam vertices), %zu torn\n",
                        models[mi], m, pi, l, lvl->index_count / 3,
                        100.0 * lvl->index_count / c.view.levels[0].index_count, lvl->error,
                        open_count, border_count, seams, seam_vertices, torn);
                    assert_int_equal(torn, 0);
                    checked_levels++;
                    free(open);
                }
                free(on_border), free(border), free(pid);
                mf_cooked_free(&c);
            }
        kiln_scene_free(s);
    }
    assert_true(checked_levels >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_corpus_primitive_cooks_reads_and_decodes_within_bounds),
        cmocka_unit_test(lods_of_textured_models_tear_no_seam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
