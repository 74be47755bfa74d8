/* mesh_quantize.c — the vertex streams in their stored formats (docs/meshes.md, "Vertex
 * formats"). With quantize:
 *   position  unorm16 x3 in the bounds (+ a zero 4th component: 8 bytes, as GPUs want)
 *   normal    octahedral snorm16 x2
 *   tangent   octahedral snorm8 x2, 0, handedness ±127
 *   UV set    unorm16 x2 in the set's range
 *   colour    unorm8 x4 (linear, clamped to [0,1])
 *   joints    u8 x4, or u16 x4 when an index needs it (> 256 joints)
 *   weights   unorm8 x4 summing to exactly 255
 * else 32-bit floats (joints stay integers). Skin data keeps the four strongest influences of
 * all joint sets together (equal joints merged), renormalized. Indices are u16 when every
 * vertex fits (<= 65536 vertices), else u32. Morph deltas stay 32-bit floats.
 *
 * Every vertex the index list uses is encoded before welding (kiln_mesh_encode_vertices), and
 * the weld compares the encoded bytes: vertices the stored mesh cannot tell apart (tangents
 * that differ by float noise, positions within half a step) become one vertex, as gltfpack
 * does. The quantization box and UV ranges therefore span every used vertex of the input,
 * including those of triangles dropped later. */
#include <math.h>
#include <string.h>

#include "codec/mesh_codec.h"
#include "process/mesh_private.h"

static kiln_result encoded_new(kiln_mesh_work *w, kiln_mesh_stream_id id, kiln_mesh_format format,
                               uint32_t stride, kiln_error *err)
{
    kiln_cooked_stream *s = &w->out->streams[id];
    s->format = format, s->stride = stride, s->count = 0;
    size_t nv = w->prim->vertex_count;
    if (nv == 0) return KILN_OK;
    w->encoded[id] = kiln_mesh_array(w->alloc, nv, stride);
    return w->encoded[id] ? KILN_OK : kiln_mesh_nomem(err, "vertex streams");
}

static float finite_or_zero(float x, uint32_t *warnings)
{
    if (isfinite(x)) return x;
    *warnings |= KILN_MESH_WARN_NON_FINITE;
    return 0.0f;
}

static void store_f32(uint8_t *p, float f)
{
    memcpy(p, &f, 4); /* little-endian hosts only: see mesh_write.c */
}

static void store_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }

/* A float attribute of `comps` components of every used vertex, as floats (non-finite to 0). */
static void encode_floats(kiln_mesh_work *w, const float *in, uint32_t comps, uint8_t *dst)
{
    for (uint32_t v = 0; v < w->prim->vertex_count; v++)
        if (w->used[v])
            for (uint32_t c = 0; c < comps; c++)
                store_f32(dst + ((size_t)v * comps + c) * 4,
                          finite_or_zero(in[(size_t)v * comps + c], &w->out->warnings));
}

static kiln_result positions(kiln_mesh_work *w, bool q, kiln_error *err)
{
    kiln_cooked_mesh *out = w->out;
    const float *in = w->prim->positions;
    uint32_t nv = w->prim->vertex_count;
    bool first = true;
    for (int c = 0; c < 3; c++) out->bounds_min[c] = out->bounds_max[c] = 0.0f;
    for (uint32_t v = 0; v < nv; v++) {
        if (!w->used[v]) continue;
        for (int c = 0; c < 3; c++) {
            float x = finite_or_zero(in[(size_t)v * 3 + c], &out->warnings);
            if (first || x < out->bounds_min[c]) out->bounds_min[c] = x;
            if (first || x > out->bounds_max[c]) out->bounds_max[c] = x;
        }
        first = false;
    }
    for (int c = 0; c < 3; c++) out->position_scale[c] = out->bounds_max[c] - out->bounds_min[c];
    kiln_result rc =
        encoded_new(w, KILN_MESH_POSITION, q ? KILN_MESH_FORMAT_UNORM16X4 : KILN_MESH_FORMAT_F32X3,
                    q ? 8 : 12, err);
    if (rc != KILN_OK || !q) {
        if (rc == KILN_OK && nv) encode_floats(w, in, 3, w->encoded[KILN_MESH_POSITION]);
        return rc;
    }
    uint8_t *d = w->encoded[KILN_MESH_POSITION];
    for (uint32_t v = 0; v < nv; v++)
        if (w->used[v])
            for (int c = 0; c < 3; c++) {
                float x = in[(size_t)v * 3 + c];
                if (!isfinite(x)) x = 0.0f;
                store_u16(d + (size_t)v * 8 + c * 2,
                          kiln_unorm16_encode(x, out->bounds_min[c], out->position_scale[c]));
            }
    return KILN_OK;
}

static kiln_result normals(kiln_mesh_work *w, bool q, kiln_error *err)
{
    const float *in = w->prim->normals;
    if (!in) return KILN_OK;
    kiln_result rc =
        encoded_new(w, KILN_MESH_NORMAL,
                    q ? KILN_MESH_FORMAT_SNORM16X2_OCT : KILN_MESH_FORMAT_F32X3, q ? 4 : 12, err);
    uint8_t *d = w->encoded[KILN_MESH_NORMAL];
    if (rc != KILN_OK || !d) return rc;
    if (!q) {
        encode_floats(w, in, 3, d);
        return KILN_OK;
    }
    for (uint32_t v = 0; v < w->prim->vertex_count; v++) {
        if (!w->used[v]) continue;
        int32_t o[2];
        kiln_oct_encode(in + (size_t)v * 3, 32767, o);
        store_u16(d + (size_t)v * 4, (uint16_t)(int16_t)o[0]);
        store_u16(d + (size_t)v * 4 + 2, (uint16_t)(int16_t)o[1]);
    }
    return KILN_OK;
}

static kiln_result tangents(kiln_mesh_work *w, bool q, kiln_error *err)
{
    const float *in = w->prim->tangents;
    if (!in) return KILN_OK;
    kiln_result rc =
        encoded_new(w, KILN_MESH_TANGENT,
                    q ? KILN_MESH_FORMAT_SNORM8X4_OCT : KILN_MESH_FORMAT_F32X4, q ? 4 : 16, err);
    uint8_t *d = w->encoded[KILN_MESH_TANGENT];
    if (rc != KILN_OK || !d) return rc;
    if (!q) {
        encode_floats(w, in, 4, d);
        return KILN_OK;
    }
    for (uint32_t v = 0; v < w->prim->vertex_count; v++) {
        if (!w->used[v]) continue;
        const float *t = in + (size_t)v * 4;
        int32_t o[2];
        kiln_oct_encode(t, 127, o);
        uint8_t *p = d + (size_t)v * 4;
        p[0] = (uint8_t)(int8_t)o[0];
        p[1] = (uint8_t)(int8_t)o[1];
        p[2] = 0;
        p[3] = (uint8_t)(int8_t)(t[3] < 0.0f ? -127 : 127);
    }
    return KILN_OK;
}

static kiln_result uvs(kiln_mesh_work *w, bool q, kiln_error *err)
{
    const kiln_scene_primitive *p = w->prim;
    kiln_cooked_mesh *out = w->out;
    uint32_t nv = p->vertex_count, sets = 0;
    for (uint32_t s = 0; s < p->texcoord_count && s < KILN_MESH_MAX_UV_SETS && p->texcoords[s]; s++)
        sets = s + 1;
    out->uv_set_count = sets;
    for (uint32_t s = 0; s < KILN_MESH_MAX_UV_SETS; s++) {
        out->uv_offset[s][0] = out->uv_offset[s][1] = 0.0f;
        out->uv_scale[s][0] = out->uv_scale[s][1] = 1.0f;
    }
    for (uint32_t s = 0; s < sets; s++) {
        const float *in = p->texcoords[s];
        kiln_mesh_stream_id id = (kiln_mesh_stream_id)(KILN_MESH_UV0 + s);
        kiln_result rc = encoded_new(w, id, q ? KILN_MESH_FORMAT_UNORM16X2 : KILN_MESH_FORMAT_F32X2,
                                     q ? 4 : 8, err);
        uint8_t *d = w->encoded[id];
        if (rc != KILN_OK || !d) return rc;
        if (!q) {
            encode_floats(w, in, 2, d);
            continue;
        }
        float lo[2] = {0, 0}, hi[2] = {0, 0};
        bool first = true;
        for (uint32_t v = 0; v < nv; v++) {
            if (!w->used[v]) continue;
            for (int c = 0; c < 2; c++) {
                float x = finite_or_zero(in[(size_t)v * 2 + c], &out->warnings);
                if (first || x < lo[c]) lo[c] = x;
                if (first || x > hi[c]) hi[c] = x;
            }
            first = false;
        }
        for (int c = 0; c < 2; c++) {
            out->uv_offset[s][c] = lo[c];
            out->uv_scale[s][c] = hi[c] - lo[c];
        }
        for (uint32_t v = 0; v < nv; v++) {
            if (!w->used[v]) continue;
            for (int c = 0; c < 2; c++) {
                float x = in[(size_t)v * 2 + c];
                if (!isfinite(x)) x = 0.0f;
                store_u16(d + (size_t)v * 4 + c * 2,
                          kiln_unorm16_encode(x, lo[c], out->uv_scale[s][c]));
            }
        }
    }
    return KILN_OK;
}

static kiln_result colors(kiln_mesh_work *w, bool q, kiln_error *err)
{
    const kiln_scene_primitive *p = w->prim;
    kiln_cooked_mesh *out = w->out;
    uint32_t sets = 0;
    for (uint32_t s = 0; s < p->color_count && s < KILN_MESH_MAX_COLOR_SETS && p->colors[s]; s++)
        sets = s + 1;
    out->color_set_count = sets;
    for (uint32_t s = 0; s < sets; s++) {
        const float *in = p->colors[s];
        kiln_mesh_stream_id id = (kiln_mesh_stream_id)(KILN_MESH_COLOR0 + s);
        kiln_result rc = encoded_new(w, id, q ? KILN_MESH_FORMAT_UNORM8X4 : KILN_MESH_FORMAT_F32X4,
                                     q ? 4 : 16, err);
        uint8_t *d = w->encoded[id];
        if (rc != KILN_OK || !d) return rc;
        if (!q) {
            encode_floats(w, in, 4, d);
            continue;
        }
        for (uint32_t v = 0; v < p->vertex_count; v++) {
            if (!w->used[v]) continue;
            for (int c = 0; c < 4; c++) {
                float x = finite_or_zero(in[(size_t)v * 4 + c], &out->warnings);
                if (x < 0.0f || x > 1.0f) {
                    out->warnings |= KILN_MESH_WARN_COLOR_CLAMPED;
                    x = x < 0.0f ? 0.0f : 1.0f;
                }
                d[(size_t)v * 4 + c] = (uint8_t)floorf(x * 255.0f + 0.5f);
            }
        }
    }
    return KILN_OK;
}

typedef struct influence {
    uint32_t joint;
    float weight;
} influence;

/* The four strongest influences of vertex v over every joint set, equal joints merged,
 * renormalized to sum 1; slots without influence get joint 0, weight 0. */
static void strongest(const kiln_scene_primitive *p, uint32_t v, influence out[4],
                      uint32_t *warnings)
{
    influence all[4 * KILN_SCENE_MAX_JOINT_SETS];
    uint32_t n = 0;
    for (uint32_t s = 0; s < p->joint_set_count && s < KILN_SCENE_MAX_JOINT_SETS; s++) {
        if (!p->joints[s] || !p->weights[s]) continue;
        for (int k = 0; k < 4; k++) {
            float wt = p->weights[s][(size_t)v * 4 + k];
            if (!isfinite(wt)) *warnings |= KILN_MESH_WARN_NON_FINITE;
            if (!(wt > 0.0f) || !isfinite(wt)) continue;
            uint32_t j = p->joints[s][(size_t)v * 4 + k];
            uint32_t i = 0;
            while (i < n && all[i].joint != j) i++;
            if (i == n) all[n++] = (influence){j, 0.0f};
            all[i].weight += wt;
        }
    }
    /* Insertion sort: weight descending, then joint ascending (a total order: deterministic). */
    for (uint32_t i = 1; i < n; i++) {
        influence x = all[i];
        uint32_t k = i;
        while (k > 0 && (all[k - 1].weight < x.weight ||
                         (all[k - 1].weight == x.weight && all[k - 1].joint > x.joint))) {
            all[k] = all[k - 1];
            k--;
        }
        all[k] = x;
    }
    if (n > 4) {
        *warnings |= KILN_MESH_WARN_INFLUENCES_DROPPED;
        n = 4;
    }
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++) sum += all[i].weight;
    for (uint32_t i = 0; i < 4; i++) out[i] = (influence){0, 0.0f};
    if (!(sum > 0.0)) {
        *warnings |= KILN_MESH_WARN_WEIGHTS_EMPTY;
        out[0].weight = 1.0f;
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = (influence){all[i].joint, (float)(all[i].weight / sum)};
}

/* Weights (sum 1) to unorm8 summing to exactly 255: floor of each, then the remaining steps to
 * the largest remainders (ties to the earlier, stronger slot). Each value is off by < 1/255. */
static void weights_to_unorm8(const influence in[4], uint8_t q[4])
{
    double frac[4];
    int total = 0;
    for (int i = 0; i < 4; i++) {
        double r = (double)in[i].weight * 255.0;
        int f = (int)floor(r);
        if (f < 0) f = 0;
        if (f > 255) f = 255;
        q[i] = (uint8_t)f;
        frac[i] = r - f;
        total += f;
    }
    while (total < 255) {
        int best = 0;
        for (int i = 1; i < 4; i++)
            if (frac[i] > frac[best]) best = i;
        q[best]++;
        frac[best] = -1.0;
        total++;
    }
    while (total > 255) { /* rounding of a sum just above 1; take from the largest */
        int best = 0;
        for (int i = 1; i < 4; i++)
            if (q[i] > q[best]) best = i;
        q[best]--;
        total--;
    }
}

static kiln_result skin(kiln_mesh_work *w, bool q, kiln_error *err)
{
    const kiln_scene_primitive *p = w->prim;
    kiln_cooked_mesh *out = w->out;
    bool any = false;
    for (uint32_t s = 0; s < p->joint_set_count && s < KILN_SCENE_MAX_JOINT_SETS; s++)
        if (p->joints[s] && p->weights[s]) any = true;
    if (!any) return KILN_OK;
    if (p->joint_set_count > 1) out->warnings |= KILN_MESH_WARN_JOINT_SET_MERGED;
    uint32_t nv = p->vertex_count;
    size_t inf_count;
    if (!kiln_size_mul(nv, 4, &inf_count))
        return kiln_error_set(err, KILN_E_LIMIT, "mesh: too many vertices");
    influence *inf = kiln_mesh_array(w->alloc, inf_count ? inf_count : 1, sizeof *inf);
    if (!inf) return kiln_mesh_nomem(err, "skin weights");
    uint32_t max_joint = 0;
    for (uint32_t v = 0; v < nv; v++) {
        if (!w->used[v]) continue;
        strongest(p, v, inf + (size_t)v * 4, &out->warnings);
        for (int k = 0; k < 4; k++)
            if (inf[(size_t)v * 4 + k].joint > max_joint) max_joint = inf[(size_t)v * 4 + k].joint;
    }
    uint32_t skin_joints = w->opts->skin_joint_count;
    uint32_t joint_count = max_joint + 1;
    if (skin_joints && max_joint >= skin_joints) out->warnings |= KILN_MESH_WARN_JOINT_RANGE;
    if (skin_joints > joint_count) joint_count = skin_joints;
    out->joint_count = joint_count;
    bool wide = joint_count > 256;
    kiln_result rc =
        encoded_new(w, KILN_MESH_JOINTS, wide ? KILN_MESH_FORMAT_U16X4 : KILN_MESH_FORMAT_U8X4,
                    wide ? 8 : 4, err);
    if (rc == KILN_OK)
        rc = encoded_new(w, KILN_MESH_WEIGHTS,
                         q ? KILN_MESH_FORMAT_UNORM8X4 : KILN_MESH_FORMAT_F32X4, q ? 4 : 16, err);
    uint8_t *dj = w->encoded[KILN_MESH_JOINTS], *dw = w->encoded[KILN_MESH_WEIGHTS];
    if (rc == KILN_OK && dj && dw) {
        for (uint32_t v = 0; v < nv; v++) {
            if (!w->used[v]) continue;
            const influence *in = inf + (size_t)v * 4;
            for (int k = 0; k < 4; k++) {
                if (wide) store_u16(dj + (size_t)v * 8 + k * 2, (uint16_t)in[k].joint);
                else dj[(size_t)v * 4 + k] = (uint8_t)in[k].joint;
                if (!q) store_f32(dw + (size_t)v * 16 + k * 4, in[k].weight);
            }
            if (q) weights_to_unorm8(in, dw + (size_t)v * 4);
        }
    }
    kiln_free(w->alloc, inf, (inf_count ? inf_count : 1) * sizeof *inf);
    return rc;
}

kiln_result kiln_mesh_encode_vertices(kiln_mesh_work *w, kiln_error *err)
{
    const kiln_scene_primitive *p = w->prim;
    uint32_t nv = p->vertex_count;
    for (size_t i = 0; i < p->index_count; i++)
        if (p->indices[i] >= nv)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "mesh: index %zu is %u, past the %u vertices", i, p->indices[i],
                                  nv);
    if (nv) {
        w->used = kiln_mesh_array(w->alloc, nv, 1);
        if (!w->used) return kiln_mesh_nomem(err, "vertex streams");
        for (size_t i = 0; i < p->index_count; i++) w->used[p->indices[i]] = 1;
    }
    bool q = w->opts->quantize;
    if (q) w->out->flags |= KILN_MESH_QUANTIZED;
    if (w->opts->flat_normals) w->out->flags |= KILN_MESH_FLAT_NORMALS;
    kiln_result rc;
    if ((rc = positions(w, q, err)) != KILN_OK) return rc;
    if ((rc = normals(w, q, err)) != KILN_OK) return rc;
    if ((rc = tangents(w, q, err)) != KILN_OK) return rc;
    if ((rc = uvs(w, q, err)) != KILN_OK) return rc;
    if ((rc = colors(w, q, err)) != KILN_OK) return rc;
    return skin(w, q, err);
}

static kiln_result indices(const kiln_mesh_work *w, kiln_cooked_mesh *out, kiln_error *err)
{
    size_t n = w->index_count;
    bool narrow = w->vertex_count <= 65536;
    kiln_cooked_stream *s = &out->streams[KILN_MESH_INDICES];
    out->index_count = (uint32_t)n;
    s->format = narrow ? KILN_MESH_FORMAT_U16 : KILN_MESH_FORMAT_U32;
    s->stride = narrow ? 2 : 4;
    if (n == 0) return KILN_OK;
    out->indices = kiln_mesh_array(w->alloc, n, sizeof *out->indices);
    s->data = kiln_mesh_array(w->alloc, n, s->stride);
    if (s->data) s->count = n;
    if (!out->indices || !s->data) return kiln_mesh_nomem(err, "indices");
    memcpy(out->indices, w->indices, n * sizeof *out->indices);
    for (size_t i = 0; i < n; i++) {
        if (narrow) store_u16(s->data + i * 2, (uint16_t)w->indices[i]);
        else memcpy(s->data + i * 4, &w->indices[i], 4);
    }
    return KILN_OK;
}

static kiln_result targets(const kiln_mesh_work *w, kiln_cooked_mesh *out, kiln_error *err)
{
    const kiln_scene_primitive *p = w->prim;
    uint32_t nt = p->target_count, nv = w->vertex_count;
    if (nt == 0) return KILN_OK;
    out->target_flags = kiln_mesh_array(w->alloc, nt, sizeof *out->target_flags);
    out->target_weights = kiln_mesh_array(w->alloc, nt, sizeof *out->target_weights);
    out->target_count = nt; /* before the check: kiln_cooked_mesh_free frees by it */
    if (!out->target_flags || !out->target_weights) return kiln_mesh_nomem(err, "morph targets");
    uint32_t have[3] = {0, 0, 0};
    for (uint32_t t = 0; t < nt; t++) {
        const kiln_scene_morph_target *m = &p->targets[t];
        uint32_t f = 0;
        if (m->positions) f |= KILN_MESH_TARGET_HAS_POSITIONS, have[0]++;
        if (m->normals) f |= KILN_MESH_TARGET_HAS_NORMALS, have[1]++;
        if (m->tangents) f |= KILN_MESH_TARGET_HAS_TANGENTS, have[2]++;
        out->target_flags[t] = f;
        float wt = 0.0f;
        if (w->opts->morph_weights && t < w->opts->morph_weight_count)
            wt = finite_or_zero(w->opts->morph_weights[t], &out->warnings);
        out->target_weights[t] = wt;
    }
    for (int k = 0; k < 3; k++) {
        kiln_cooked_stream *s = &out->streams[KILN_MESH_TARGET_POSITIONS + k];
        s->format = KILN_MESH_FORMAT_F32X3, s->stride = 12;
        uint64_t count = (uint64_t)have[k] * nv;
        size_t bytes;
        if (count == 0) continue;
        if (count > SIZE_MAX / 12 || !kiln_size_mul((size_t)count, 12, &bytes))
            return kiln_error_set(err, KILN_E_LIMIT, "mesh: morph targets too large");
        s->data = kiln_mesh_array(w->alloc, bytes, 1);
        if (!s->data) return kiln_mesh_nomem(err, "morph targets");
        s->count = count;
        size_t slot = 0;
        for (uint32_t t = 0; t < nt; t++) {
            const kiln_scene_morph_target *m = &p->targets[t];
            const float *in = k == 0 ? m->positions : k == 1 ? m->normals : m->tangents;
            if (!in) continue;
            uint8_t *d = s->data + slot * nv * 12;
            for (uint32_t v = 0; v < nv; v++)
                for (int c = 0; c < 3; c++)
                    store_f32(d + ((size_t)v * 3 + c) * 4,
                              finite_or_zero(in[(size_t)w->src[v] * 3 + c], &out->warnings));
            slot++;
        }
    }
    return KILN_OK;
}

kiln_result kiln_mesh_write_streams(const kiln_mesh_work *w, kiln_cooked_mesh *out, kiln_error *err)
{
    uint32_t nv = w->vertex_count;
    out->vertex_count = nv;
    out->extent = w->extent;
    for (int id = 0; id < KILN_MESH_INDICES; id++) {
        kiln_cooked_stream *s = &out->streams[id];
        if (!w->encoded[id] || nv == 0) continue;
        s->data = kiln_mesh_array(w->alloc, nv, s->stride);
        if (!s->data) return kiln_mesh_nomem(err, "vertex streams");
        s->count = nv;
        for (uint32_t v = 0; v < nv; v++)
            kiln_mesh_copy_vertex(s->data + (size_t)v * s->stride,
                                  w->encoded[id] + (size_t)w->src[v] * s->stride, s->stride);
    }
    kiln_result rc;
    if ((rc = indices(w, out, err)) != KILN_OK) return rc;
    if ((rc = targets(w, out, err)) != KILN_OK) return rc;
    size_t bytes = 0;
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++)
        if (s != KILN_MESH_INDICES) bytes += (size_t)out->streams[s].count * out->streams[s].stride;
    out->stats.vertex_bytes = bytes;
    return KILN_OK;
}
