/* mesh_build.c — kiln_mesh_build (mesh.h): checks the options and the primitive, then runs the
 * passes in this order — weld and clean, vertex cache, overdraw, levels of
 * detail, vertex fetch, meshlets, vertex formats, compression — and times each. */
#include <math.h>
#include <meshoptimizer.h>
#include <string.h>

#include "process/mesh_private.h"

void kiln_mesh_build_opts_default(kiln_mesh_build_opts *o)
{
    memset(o, 0, sizeof *o);
    o->lods[0] = 0.5f, o->lods[1] = 0.25f, o->lods[2] = 0.125f;
    o->lod_count = 3;
    o->lod_error = 0.05f;
    o->lod_min_triangles = 64;
    o->quantize = true;
    o->optimize = true;
    o->overdraw_threshold = 1.05f;
    o->meshlet_max_vertices = 64;
    o->meshlet_max_triangles = 124;
    o->compress = KILN_MESH_COMPRESS_NONE;
    o->analyze = true;
}

static const char *const warning_texts[KILN_MESH_WARN_COUNT] = {
    "a second joint set was merged into the first: the four strongest influences are kept",
    "some vertices had more than four influences: the four strongest are kept",
    "NaN or infinite attribute values were set to 0",
    "vertex colours outside [0, 1] were clamped",
    "some skinned vertices had no weight: they follow joint 0",
    "joint indices reach past the skin's joints",
};

const char *kiln_mesh_warning_text(uint32_t bit_index)
{
    return bit_index < KILN_MESH_WARN_COUNT ? warning_texts[bit_index] : "";
}

static kiln_result bad_opt(kiln_error *err, const char *field, const char *what)
{
    return kiln_error_set(err, KILN_E_USAGE, "mesh options: %s %s", field, what);
}

static kiln_result check_opts(const kiln_mesh_build_opts *o, kiln_error *err)
{
    if (o->lod_count > KILN_MESH_MAX_LOD_FRACTIONS)
        return bad_opt(err, "lods", "has more than 8 fractions");
    for (uint32_t i = 0; i < o->lod_count; i++) {
        float f = o->lods[i];
        if (!(f > 0.0f && f < 1.0f)) return bad_opt(err, "lods", "holds a fraction outside (0, 1)");
        if (i > 0 && !(f < o->lods[i - 1])) return bad_opt(err, "lods", "is not decreasing");
    }
    if (!(o->lod_error >= 0.0f && o->lod_error <= 1.0f))
        return bad_opt(err, "lod_error", "is not in [0, 1]");
    if (!(o->overdraw_threshold == 0.0f ||
          (o->overdraw_threshold >= 1.0f && o->overdraw_threshold <= 3.0f)))
        return bad_opt(err, "overdraw_threshold", "is neither 0 nor in [1, 3]");
    if (o->meshlet_max_vertices &&
        (o->meshlet_max_vertices < 3 || o->meshlet_max_vertices > KILN_MESH_MAX_MESHLET_VERTICES))
        return bad_opt(err, "meshlet_max_vertices", "is not in 3..255");
    if (o->meshlet_max_triangles && (o->meshlet_max_triangles < 4 ||
                                     o->meshlet_max_triangles > KILN_MESH_MAX_MESHLET_TRIANGLES ||
                                     o->meshlet_max_triangles % 4 != 0))
        return bad_opt(err, "meshlet_max_triangles", "is not a multiple of 4 in 4..512");
    if (o->compress != KILN_MESH_COMPRESS_NONE && o->compress != KILN_MESH_COMPRESS_MESHOPT)
        return bad_opt(err, "compress", "is neither none nor meshopt");
    if (o->morph_weight_count && !o->morph_weights) return bad_opt(err, "morph_weights", "is NULL");
    return KILN_OK;
}

static kiln_result check_prim(const kiln_scene_primitive *p, kiln_error *err)
{
    if (p->index_count % 3 != 0)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "mesh: %u indices are not whole triangles",
                              p->index_count);
    if (p->index_count && (!p->indices || !p->positions))
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "mesh: no indices or positions");
    if (p->target_count && !p->targets)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "mesh: morph targets missing");
    return KILN_OK;
}

static kiln_result check_flat(const kiln_scene_primitive *p, const kiln_mesh_build_opts *o,
                              kiln_error *err)
{
    if (!o->flat_normals) return KILN_OK;
    bool normals = p->normals != NULL;
    for (uint32_t t = 0; t < p->target_count; t++) normals = normals || p->targets[t].normals;
    if (normals) return bad_opt(err, "flat_normals", "is set for a primitive with normals");
    return KILN_OK;
}

void kiln_mesh_work_free(kiln_mesh_work *w)
{
    size_t nv = w->prim ? w->prim->vertex_count : 0;
    for (int id = 0; id < KILN_MESH_INDICES; id++)
        if (w->encoded[id]) kiln_free(w->alloc, w->encoded[id], nv * w->out->streams[id].stride);
    kiln_free(w->alloc, w->used, nv);
    kiln_free(w->alloc, w->src, (size_t)w->vertex_count * sizeof *w->src);
    kiln_free(w->alloc, w->positions, (size_t)w->vertex_count * 3 * sizeof(float));
    kiln_free(w->alloc, w->indices, w->index_capacity * sizeof *w->indices);
    memset(w, 0, sizeof *w);
}

static float acmr(const uint32_t *indices, size_t count, uint32_t vertex_count)
{
    if (count == 0 || vertex_count == 0) return 0.0f;
    return meshopt_analyzeVertexCache(indices, count, vertex_count, 16, 0, 0).acmr;
}

kiln_result kiln_mesh_build(const kiln_scene_primitive *prim, const kiln_mesh_build_opts *opts,
                            const kiln_allocator *alloc, kiln_cooked_mesh *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_build: no output");
    memset(out, 0, sizeof *out);
    if (alloc) out->allocator = *alloc;
    if (!prim) return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_build: no primitive");
    kiln_mesh_build_opts defaults;
    if (!opts) {
        kiln_mesh_build_opts_default(&defaults);
        opts = &defaults;
    }
    kiln_result rc = check_opts(opts, err);
    if (rc == KILN_OK) rc = check_prim(prim, err);
    if (rc == KILN_OK) rc = check_flat(prim, opts, err);
    if (rc != KILN_OK) return rc;

    uint64_t start = kiln_mesh_now_ns();
    const kiln_allocator *outer = kiln_meshopt_enter(&out->allocator);
    kiln_mesh_build_stats *st = &out->stats;
    kiln_mesh_work w;
    memset(&w, 0, sizeof w);
    w.alloc = &out->allocator;
    w.prim = prim;
    w.opts = opts;
    out->material = opts->material;
    out->meshlet_max_vertices = opts->meshlet_max_vertices ? opts->meshlet_max_vertices : 64;
    out->meshlet_max_triangles = opts->meshlet_max_triangles ? opts->meshlet_max_triangles : 124;

    uint64_t t = kiln_mesh_now_ns();
    w.out = out;
    rc = kiln_mesh_encode_vertices(&w, err);
    st->ns_quantize = kiln_mesh_now_ns() - t;
    if (rc != KILN_OK) goto done;
    t = kiln_mesh_now_ns();
    rc = kiln_mesh_weld(&w, st, err);
    st->ns_weld = kiln_mesh_now_ns() - t;
    if (rc != KILN_OK) goto done;
    w.level_count = 1;
    w.levels[0].index_count = (uint32_t)w.index_count;
    if (opts->analyze) st->acmr_before = acmr(w.indices, w.index_count, w.vertex_count);

    if (opts->optimize) {
        rc = kiln_mesh_optimize_triangles(&w, w.indices, w.index_count, st, err);
        if (rc != KILN_OK) goto done;
    }
    rc = kiln_mesh_build_lods(&w, st, err);
    if (rc != KILN_OK) goto done;
    if (opts->optimize) {
        t = kiln_mesh_now_ns();
        rc = kiln_mesh_optimize_fetch(&w, err);
        st->ns_fetch = kiln_mesh_now_ns() - t;
        if (rc != KILN_OK) goto done;
    }
    if (opts->analyze) st->acmr_after = acmr(w.indices, w.levels[0].index_count, w.vertex_count);
    out->level_count = w.level_count;
    memcpy(out->levels, w.levels, sizeof out->levels);

    t = kiln_mesh_now_ns();
    /* Meshlets are nearly half the cook time of a large mesh: skipped when nobody draws them. */
    rc = opts->no_meshlets ? KILN_OK : kiln_mesh_build_meshlets(&w, out, err);
    st->ns_meshlets = kiln_mesh_now_ns() - t;
    if (rc != KILN_OK) goto done;

    t = kiln_mesh_now_ns();
    rc = kiln_mesh_write_streams(&w, out, err);
    if (rc == KILN_OK && w.vertex_count) {
        out->positions = kiln_mesh_array(w.alloc, w.vertex_count, 3 * sizeof(float));
        out->source_vertices = kiln_mesh_array(w.alloc, w.vertex_count, sizeof(uint32_t));
        if (!out->positions || !out->source_vertices) {
            rc = kiln_mesh_nomem(err, "positions");
        } else {
            memcpy(out->positions, w.positions, (size_t)w.vertex_count * 3 * sizeof(float));
            memcpy(out->source_vertices, w.src, (size_t)w.vertex_count * sizeof(uint32_t));
        }
    }
    st->ns_quantize += kiln_mesh_now_ns() - t;
    if (rc != KILN_OK) goto done;

    if (opts->compress == KILN_MESH_COMPRESS_MESHOPT) {
        t = kiln_mesh_now_ns();
        rc = kiln_mesh_compress_streams(out, err);
        st->ns_compress = kiln_mesh_now_ns() - t;
        if (rc != KILN_OK) goto done;
    }
    size_t stored = 0;
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        const kiln_cooked_stream *cs = &out->streams[s];
        stored += cs->packed ? cs->packed_size : (size_t)cs->count * cs->stride;
    }
    st->stored_bytes = stored;

done:
    kiln_mesh_work_free(&w);
    kiln_meshopt_leave(outer);
    st->ns_total = kiln_mesh_now_ns() - start;
    return rc;
}

void kiln_cooked_mesh_free(kiln_cooked_mesh *m)
{
    if (!m) return;
    const kiln_allocator *a = &m->allocator;
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        kiln_cooked_stream *cs = &m->streams[s];
        kiln_free(a, cs->data, (size_t)cs->count * cs->stride);
        kiln_free(a, cs->packed, cs->packed_size);
    }
    kiln_free(a, m->indices, (size_t)m->index_count * sizeof *m->indices);
    kiln_free(a, m->positions, (size_t)m->vertex_count * 3 * sizeof(float));
    kiln_free(a, m->source_vertices, (size_t)m->vertex_count * sizeof(uint32_t));
    kiln_free(a, m->meshlets, (size_t)m->meshlet_count * sizeof *m->meshlets);
    kiln_free(a, m->meshlet_bounds, (size_t)m->meshlet_count * sizeof *m->meshlet_bounds);
    kiln_free(a, m->meshlet_vertices,
              (size_t)m->meshlet_vertex_count * sizeof *m->meshlet_vertices);
    kiln_free(a, m->meshlet_triangles, m->meshlet_triangle_size);
    kiln_free(a, m->target_flags, (size_t)m->target_count * sizeof *m->target_flags);
    kiln_free(a, m->target_weights, (size_t)m->target_count * sizeof *m->target_weights);
    kiln_allocator keep = m->allocator;
    memset(m, 0, sizeof *m);
    m->allocator = keep;
}
