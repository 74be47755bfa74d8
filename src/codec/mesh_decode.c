/* mesh_decode.c — kiln_mesh_decode (kiln_format.h): a validated cooked mesh back into floats, with
 * the formulas of docs/meshes.md ("Vertex formats") that shaders use, so tests, tools and shader
 * authors have one reference. All arrays live in one allocation. Shared with the runtime. */
#include <string.h>

#include "codec/mesh_codec.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

/* Decoding is for tools: a mesh that would decode to more than this is refused (KILN_E_LIMIT)
 * rather than attempted (a small compressed file may announce many vertices). */
#define DECODE_LIMIT ((size_t)1 << 30)

/* Lays out arrays in one block: each request gets a 16-byte aligned offset. */
typedef struct layout {
    size_t size;
    bool overflow;
} layout;

static size_t take(layout *l, size_t count, size_t elem)
{
    size_t bytes, at = l->size;
    if (count == 0) return SIZE_MAX;
    if (!kiln_size_mul(count, elem, &bytes) || !kiln_size_add(bytes, 15, &bytes) ||
        !kiln_size_add(l->size, bytes & ~(size_t)15, &l->size) || l->size > DECODE_LIMIT)
        l->overflow = true;
    return at;
}

static void *at(void *block, size_t off) { return off == SIZE_MAX ? NULL : (uint8_t *)block + off; }

/* The stream's bytes as the GPU sees them: in place, or unpacked into scratch. */
static const uint8_t *stream_bytes(const kiln_mesh_view *v, kiln_mesh_stream_id id,
                                   uint8_t *scratch, kiln_result *rc, kiln_error *err)
{
    const kiln_mesh_stream *s = &v->streams[id];
    if (!(v->flags & KILN_MESH_COMPRESSED)) return s->data;
    *rc = kiln_mesh_unpack(v, id, scratch, (size_t)(s->count * s->stride), err);
    return *rc == KILN_OK ? scratch : NULL;
}

KILN_API kiln_result kiln_mesh_decode(const kiln_mesh_view *v, uint32_t level,
                                      const kiln_allocator *alloc, kiln_mesh_decoded *out,
                                      kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_decode: no output");
    memset(out, 0, sizeof *out);
    if (alloc) out->allocator = *alloc;
    if (!v || level >= v->level_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_decode: level %u of %u", level,
                              v ? v->level_count : 0);
    size_t nv = v->vertex_count;
    bool q = v->flags & KILN_MESH_QUANTIZED;
    const kiln_mesh_stream *st = v->streams;
    uint32_t have[3] = {0, 0, 0};
    for (uint32_t t = 0; t < v->target_count; t++)
        for (int k = 0; k < 3; k++)
            if (kiln_mesh_target_flags(v, t) & (1u << k)) have[k]++;

    layout l = {0, false};
    size_t o_pos = take(&l, st[KILN_MESH_POSITION].data ? nv : 0, 12);
    size_t o_nrm = take(&l, st[KILN_MESH_NORMAL].data ? nv : 0, 12);
    size_t o_tan = take(&l, st[KILN_MESH_TANGENT].data ? nv : 0, 16);
    size_t o_uv[KILN_MESH_MAX_UV_SETS], o_col[KILN_MESH_MAX_COLOR_SETS];
    for (int s = 0; s < KILN_MESH_MAX_UV_SETS; s++)
        o_uv[s] = take(&l, st[KILN_MESH_UV0 + s].data ? nv : 0, 8);
    for (int s = 0; s < KILN_MESH_MAX_COLOR_SETS; s++)
        o_col[s] = take(&l, st[KILN_MESH_COLOR0 + s].data ? nv : 0, 16);
    size_t o_jnt = take(&l, st[KILN_MESH_JOINTS].data ? nv : 0, 8);
    size_t o_wgt = take(&l, st[KILN_MESH_WEIGHTS].data ? nv : 0, 16);
    size_t o_idx = take(&l, v->levels[level].index_count, 4);
    size_t nt = v->target_count, per_target;
    if (!kiln_size_mul(nt, nv, &per_target)) l.overflow = true;
    size_t o_tgt[3];
    for (int k = 0; k < 3; k++) o_tgt[k] = take(&l, have[k] ? per_target : 0, 12);
    /* Scratch for the largest compressed stream, after the arrays. */
    size_t scratch_size = 0;
    if (v->flags & KILN_MESH_COMPRESSED)
        for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
            uint64_t b = st[id].count * st[id].stride;
            if (st[id].data && b > scratch_size)
                scratch_size = b > DECODE_LIMIT ? DECODE_LIMIT + 1 : (size_t)b;
        }
    size_t o_scratch = take(&l, scratch_size, 1);
    if (l.overflow)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "kiln_mesh_decode: more than 1 GiB of decoded data");
    if (l.size == 0) return KILN_OK;
    void *block = kiln_calloc(&out->allocator, 1, l.size);
    if (!block)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "kiln_mesh_decode: %zu bytes", l.size);
    out->block = block;
    out->block_size = l.size;
    out->vertex_count = (uint32_t)nv;
    uint8_t *scratch = at(block, o_scratch);
    kiln_result rc = KILN_OK;
    const uint8_t *d;

    if ((out->positions = at(block, o_pos)) &&
        (d = stream_bytes(v, KILN_MESH_POSITION, scratch, &rc, err)))
        for (size_t i = 0; i < nv; i++)
            for (int c = 0; c < 3; c++)
                out->positions[i * 3 + c] =
                    q ? kiln_unorm16_decode(kiln_load_u16le(d + i * 8 + c * 2), v->bounds_min[c],
                                            v->position_scale[c])
                      : kiln_load_f32le(d + i * 12 + c * 4);
    if (rc == KILN_OK && (out->normals = at(block, o_nrm)) &&
        (d = stream_bytes(v, KILN_MESH_NORMAL, scratch, &rc, err)))
        for (size_t i = 0; i < nv; i++) {
            float *n = out->normals + i * 3;
            if (q)
                kiln_oct_decode(kiln_snorm_decode((int16_t)kiln_load_u16le(d + i * 4), 32767),
                                kiln_snorm_decode((int16_t)kiln_load_u16le(d + i * 4 + 2), 32767),
                                n);
            else
                for (int c = 0; c < 3; c++) n[c] = kiln_load_f32le(d + i * 12 + c * 4);
        }
    if (rc == KILN_OK && (out->tangents = at(block, o_tan)) &&
        (d = stream_bytes(v, KILN_MESH_TANGENT, scratch, &rc, err)))
        for (size_t i = 0; i < nv; i++) {
            float *t = out->tangents + i * 4;
            if (q) {
                const uint8_t *p = d + i * 4;
                kiln_oct_decode(kiln_snorm_decode((int8_t)p[0], 127),
                                kiln_snorm_decode((int8_t)p[1], 127), t);
                t[3] = (int8_t)p[3] < 0 ? -1.0f : 1.0f;
            } else {
                for (int c = 0; c < 4; c++) t[c] = kiln_load_f32le(d + i * 16 + c * 4);
            }
        }
    for (int s = 0; s < KILN_MESH_MAX_UV_SETS && rc == KILN_OK; s++) {
        if (!(out->uvs[s] = at(block, o_uv[s]))) continue;
        if (!(d = stream_bytes(v, (kiln_mesh_stream_id)(KILN_MESH_UV0 + s), scratch, &rc, err)))
            break;
        for (size_t i = 0; i < nv; i++)
            for (int c = 0; c < 2; c++)
                out->uvs[s][i * 2 + c] =
                    q ? kiln_unorm16_decode(kiln_load_u16le(d + i * 4 + c * 2), v->uv_offset[s][c],
                                            v->uv_scale[s][c])
                      : kiln_load_f32le(d + i * 8 + c * 4);
    }
    for (int s = 0; s < KILN_MESH_MAX_COLOR_SETS && rc == KILN_OK; s++) {
        if (!(out->colors[s] = at(block, o_col[s]))) continue;
        if (!(d = stream_bytes(v, (kiln_mesh_stream_id)(KILN_MESH_COLOR0 + s), scratch, &rc, err)))
            break;
        for (size_t i = 0; i < nv * 4; i++)
            out->colors[s][i] = q ? (float)d[i] / 255.0f : kiln_load_f32le(d + i * 4);
    }
    if (rc == KILN_OK && (out->joints = at(block, o_jnt)) &&
        (d = stream_bytes(v, KILN_MESH_JOINTS, scratch, &rc, err))) {
        bool wide = st[KILN_MESH_JOINTS].stride == 8;
        for (size_t i = 0; i < nv * 4; i++)
            out->joints[i] = wide ? kiln_load_u16le(d + i * 2) : d[i];
    }
    if (rc == KILN_OK && (out->weights = at(block, o_wgt)) &&
        (d = stream_bytes(v, KILN_MESH_WEIGHTS, scratch, &rc, err)))
        for (size_t i = 0; i < nv * 4; i++)
            out->weights[i] = q ? (float)d[i] / 255.0f : kiln_load_f32le(d + i * 4);
    if (rc == KILN_OK && (out->indices = at(block, o_idx)) &&
        (d = stream_bytes(v, KILN_MESH_INDICES, scratch, &rc, err))) {
        const kiln_mesh_lod *lvl = &v->levels[level];
        uint32_t size = st[KILN_MESH_INDICES].stride;
        for (size_t i = 0; i < lvl->index_count; i++) {
            size_t k = (size_t)lvl->index_offset + i;
            out->indices[i] = size == 2 ? kiln_load_u16le(d + k * 2) : kiln_load_u32le(d + k * 4);
        }
        out->index_count = lvl->index_count;
    }
    out->target_count = (uint32_t)nt;
    for (int k = 0; k < 3 && rc == KILN_OK; k++) {
        float *dst = at(block, o_tgt[k]);
        if (k == 0) out->target_positions = dst;
        if (k == 1) out->target_normals = dst;
        if (k == 2) out->target_tangents = dst;
        if (!dst) continue;
        if (!(d = stream_bytes(v, (kiln_mesh_stream_id)(KILN_MESH_TARGET_POSITIONS + k), scratch,
                               &rc, err)))
            break;
        size_t slot = 0;
        for (uint32_t t = 0; t < nt; t++) {
            if (!(kiln_mesh_target_flags(v, t) & (1u << k))) continue; /* stays zero */
            for (size_t i = 0; i < nv * 3; i++)
                dst[t * nv * 3 + i] = kiln_load_f32le(d + (slot * nv * 3 + i) * 4);
            slot++;
        }
    }
    if (rc != KILN_OK) kiln_mesh_decoded_free(out);
    return rc;
}

KILN_API void kiln_mesh_decoded_free(kiln_mesh_decoded *d)
{
    if (!d) return;
    kiln_free(&d->allocator, d->block, d->block_size);
    kiln_allocator keep = d->allocator;
    memset(d, 0, sizeof *d);
    d->allocator = keep;
}
