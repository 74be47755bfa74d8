/* mesh_read.c — kiln_mesh_read, kiln_mesh_unpack and the table accessors (kiln_format.h): the
 * reader of "MESH" containers, shared with the runtime (libc, xxHash through the container, and
 * meshoptimizer's decoders for compressed streams). Every offset, count and index is checked
 * before anything is handed out; docs/formats.md ("Meshes") gives the bytes. */
#include <math.h>
#include <meshoptimizer.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "codec/mesh_sections.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "mesh";

/* The byte offset of at in the container, or UINT64_MAX (unknown) without one. */
static uint64_t offset_of(const kiln_mesh_view *v, const uint8_t *at)
{
    return at && v->container.bytes ? (uint64_t)(at - v->container.bytes) : UINT64_MAX;
}

/* The format a stream must have in a mesh with these flags and joint count. */
static void expected_format(const kiln_mesh_view *v, int id, uint32_t *format, uint32_t *stride)
{
    bool q = v->flags & KILN_MESH_QUANTIZED;
    switch (id) {
    case KILN_MESH_POSITION:
        *format = q ? KILN_MESH_FORMAT_UNORM16X4 : KILN_MESH_FORMAT_F32X3, *stride = q ? 8 : 12;
        break;
    case KILN_MESH_NORMAL:
        *format = q ? KILN_MESH_FORMAT_SNORM16X2_OCT : KILN_MESH_FORMAT_F32X3, *stride = q ? 4 : 12;
        break;
    case KILN_MESH_TANGENT:
        *format = q ? KILN_MESH_FORMAT_SNORM8X4_OCT : KILN_MESH_FORMAT_F32X4, *stride = q ? 4 : 16;
        break;
    case KILN_MESH_UV0:
    case KILN_MESH_UV0 + 1:
    case KILN_MESH_UV0 + 2:
    case KILN_MESH_UV0 + 3:
        *format = q ? KILN_MESH_FORMAT_UNORM16X2 : KILN_MESH_FORMAT_F32X2, *stride = q ? 4 : 8;
        break;
    case KILN_MESH_COLOR0:
    case KILN_MESH_COLOR0 + 1:
        *format = q ? KILN_MESH_FORMAT_UNORM8X4 : KILN_MESH_FORMAT_F32X4, *stride = q ? 4 : 16;
        break;
    case KILN_MESH_JOINTS:
        *format = v->joint_count > 256 ? KILN_MESH_FORMAT_U16X4 : KILN_MESH_FORMAT_U8X4;
        *stride = v->joint_count > 256 ? 8 : 4;
        break;
    case KILN_MESH_WEIGHTS:
        *format = q ? KILN_MESH_FORMAT_UNORM8X4 : KILN_MESH_FORMAT_F32X4, *stride = q ? 4 : 16;
        break;
    case KILN_MESH_INDICES:
        *format =
            v->streams[KILN_MESH_INDICES].stride == 2 ? KILN_MESH_FORMAT_U16 : KILN_MESH_FORMAT_U32;
        *stride = v->streams[KILN_MESH_INDICES].stride;
        break;
    default: /* morph deltas */
        *format = KILN_MESH_FORMAT_F32X3, *stride = 12;
        break;
    }
}

static bool all_finite(const float *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(f[i])) return false;
    return true;
}

static kiln_result read_header(kiln_mesh_view *v, const kiln_container_section *s,
                               uint32_t *index_size, kiln_error *err)
{
    const uint8_t *h = s->data;
    v->flags = kiln_load_u32le(h);
    v->vertex_count = kiln_load_u32le(h + 4);
    v->index_count = kiln_load_u32le(h + 8);
    *index_size = kiln_load_u32le(h + 12);
    v->level_count = kiln_load_u32le(h + 16);
    v->meshlet_count = kiln_load_u32le(h + 20);
    v->meshlet_vertex_count = kiln_load_u32le(h + 24);
    v->meshlet_triangle_size = kiln_load_u32le(h + 28);
    v->target_count = kiln_load_u32le(h + 32);
    v->joint_count = kiln_load_u32le(h + 36);
    v->material = kiln_load_u64le(h + 40);
    for (int c = 0; c < 3; c++) {
        v->bounds_min[c] = kiln_load_f32le(h + 48 + 4 * c);
        v->bounds_max[c] = kiln_load_f32le(h + 60 + 4 * c);
        v->position_scale[c] = kiln_load_f32le(h + 72 + 4 * c);
    }
    v->extent = kiln_load_f32le(h + 84);
    for (int u = 0; u < KILN_MESH_MAX_UV_SETS; u++)
        for (int c = 0; c < 2; c++) {
            v->uv_offset[u][c] = kiln_load_f32le(h + 88 + 8 * u + 4 * c);
            v->uv_scale[u][c] = kiln_load_f32le(h + 120 + 8 * u + 4 * c);
        }
    v->meshlet_max_vertices = kiln_load_u32le(h + 152);
    v->meshlet_max_triangles = kiln_load_u32le(h + 156);
    v->uv_set_count = kiln_load_u32le(h + 160);
    v->color_set_count = kiln_load_u32le(h + 164);

    if (v->flags & ~(uint32_t)(KILN_MESH_QUANTIZED | KILN_MESH_COMPRESSED | KILN_MESH_FLAT_NORMALS))
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h), "unknown header flags 0x%x",
                                    v->flags);
    if (kiln_load_u32le(h + 168) || kiln_load_u32le(h + 172))
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 168),
                                    "reserved header bytes are not zero");
    if (*index_size != 2 && *index_size != 4)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 12), "index size %u",
                                    *index_size);
    if (*index_size == 2 && v->vertex_count > 65536)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 12),
                                    "16-bit indices for %u vertices", v->vertex_count);
    if (v->index_count % 3)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 8),
                                    "%u indices are not whole triangles", v->index_count);
    if (v->level_count < 1 || v->level_count > KILN_MESH_MAX_LEVELS)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 16),
                                    "%u levels of detail (1..%d)", v->level_count,
                                    KILN_MESH_MAX_LEVELS);
    if (v->uv_set_count > KILN_MESH_MAX_UV_SETS)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 160), "%u UV sets",
                                    v->uv_set_count);
    if (v->color_set_count > KILN_MESH_MAX_COLOR_SETS)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 164), "%u colour sets",
                                    v->color_set_count);
    if (v->joint_count > 65536)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 36), "%u joints",
                                    v->joint_count);
    if (v->meshlet_max_vertices < 3 || v->meshlet_max_vertices > KILN_MESH_MAX_MESHLET_VERTICES ||
        v->meshlet_max_triangles < 1 || v->meshlet_max_triangles > KILN_MESH_MAX_MESHLET_TRIANGLES)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 152), "meshlet limits %u/%u",
                                    v->meshlet_max_vertices, v->meshlet_max_triangles);
    if (!all_finite(v->bounds_min, 3) || !all_finite(v->bounds_max, 3) ||
        !all_finite(v->position_scale, 3) || !isfinite(v->extent) ||
        !all_finite(&v->uv_offset[0][0], 8) || !all_finite(&v->uv_scale[0][0], 8))
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 48),
                                    "a bound or scale is not finite");
    for (int c = 0; c < 3; c++)
        if (!(v->bounds_min[c] <= v->bounds_max[c]) || v->position_scale[c] < 0.0f)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 48), "bounds are inverted");
    if (v->extent < 0.0f)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + 84), "negative extent");
    return KILN_OK;
}

static kiln_result read_levels(kiln_mesh_view *v, kiln_error *err)
{
    kiln_container_section s;
    if (!kiln_container_find(&v->container, KILN_MESH_SECTION_LODS, KILN_MESH_LOD_SIZE, &s) ||
        s.count != v->level_count)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, NULL),
                                    "no LODS section of %u 24-byte levels", v->level_count);
    for (uint32_t l = 0; l < v->level_count; l++) {
        const uint8_t *p = s.data + (size_t)l * KILN_MESH_LOD_SIZE;
        kiln_mesh_lod *lvl = &v->levels[l];
        lvl->index_offset = kiln_load_u32le(p);
        lvl->index_count = kiln_load_u32le(p + 4);
        lvl->meshlet_offset = kiln_load_u32le(p + 8);
        lvl->meshlet_count = kiln_load_u32le(p + 12);
        lvl->error = kiln_load_f32le(p + 16);
        lvl->error_absolute = kiln_load_f32le(p + 20);
        if (lvl->index_offset % 3 || lvl->index_count % 3 ||
            (uint64_t)lvl->index_offset + lvl->index_count > v->index_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "level %u: indices %u+%u outside the %u of the buffer", l,
                                        lvl->index_offset, lvl->index_count, v->index_count);
        if ((uint64_t)lvl->meshlet_offset + lvl->meshlet_count > v->meshlet_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 8),
                                        "level %u: meshlets %u+%u outside the %u", l,
                                        lvl->meshlet_offset, lvl->meshlet_count, v->meshlet_count);
        if (!(lvl->error >= 0.0f) || !isfinite(lvl->error) || !(lvl->error_absolute >= 0.0f) ||
            !isfinite(lvl->error_absolute))
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 16),
                                        "level %u: error is not a finite non-negative number", l);
    }
    return KILN_OK;
}

/* Targets table, and how many targets carry each delta kind. */
static kiln_result read_targets(kiln_mesh_view *v, uint32_t have[3], kiln_error *err)
{
    have[0] = have[1] = have[2] = 0;
    if (v->target_count == 0) return KILN_OK;
    kiln_container_section s;
    if (!kiln_container_find(&v->container, KILN_MESH_SECTION_TARGETS, KILN_MESH_TARGET_SIZE, &s) ||
        s.count != v->target_count)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, NULL),
                                    "no TGTS section of %u targets", v->target_count);
    v->targets = s.data;
    for (uint32_t t = 0; t < v->target_count; t++) {
        const uint8_t *p = s.data + (size_t)t * KILN_MESH_TARGET_SIZE;
        uint32_t f = kiln_load_u32le(p);
        if (f & ~7u)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "target %u: unknown flags 0x%x", t, f);
        if (!isfinite(kiln_load_f32le(p + 4)))
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 4),
                                        "target %u: weight not finite", t);
        for (int k = 0; k < 3; k++)
            if (f & (1u << k)) have[k]++;
    }
    return KILN_OK;
}

/* Whether a stream must be there, given the header. */
static bool stream_expected(const kiln_mesh_view *v, int id, const uint32_t have[3],
                            uint64_t *count)
{
    *count = v->vertex_count;
    if (id == KILN_MESH_INDICES) {
        *count = v->index_count;
        return v->index_count > 0;
    }
    if (id >= KILN_MESH_TARGET_POSITIONS) {
        *count = (uint64_t)have[id - KILN_MESH_TARGET_POSITIONS] * v->vertex_count;
        return *count > 0;
    }
    if (v->vertex_count == 0) return false;
    if (id == KILN_MESH_POSITION) return true;
    if (id >= KILN_MESH_UV0 && id < KILN_MESH_UV0 + 4)
        return (uint32_t)(id - KILN_MESH_UV0) < v->uv_set_count;
    if (id >= KILN_MESH_COLOR0 && id < KILN_MESH_COLOR0 + 2)
        return (uint32_t)(id - KILN_MESH_COLOR0) < v->color_set_count;
    if (id == KILN_MESH_JOINTS || id == KILN_MESH_WEIGHTS) return v->joint_count > 0;
    return false; /* normals, tangents: optional */
}

static kiln_result read_streams(kiln_mesh_view *v, uint32_t index_size, const uint32_t have[3],
                                kiln_error *err)
{
    bool packed = v->flags & KILN_MESH_COMPRESSED;
    v->streams[KILN_MESH_INDICES].stride = index_size;
    for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
        kiln_mesh_stream *st = &v->streams[id];
        uint32_t format, stride;
        expected_format(v, id, &format, &stride);
        uint64_t count;
        bool need = stream_expected(v, id, have, &count);
        uint32_t sid = kiln_mesh_stream_section(id);
        kiln_container_section s;
        bool found = kiln_container_find(&v->container, sid, packed ? 1 : stride, &s);
        if (!found) {
            /* Present with another element size is damage, not absence. */
            for (uint32_t i = 0; i < v->container.section_count; i++) {
                kiln_container_section any;
                kiln_container_section_at(&v->container, i, &any);
                if (any.id == sid)
                    return kiln_error_bad_bytes(err, k_format, offset_of(v, any.data),
                                                "stream %d: element size %u, expected %u", id,
                                                any.element_size, packed ? 1 : stride);
            }
            if (need)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, NULL),
                                            "stream %d is missing", id);
            memset(st, 0, sizeof *st);
            if (id == KILN_MESH_INDICES) st->stride = index_size;
            continue;
        }
        if (!need) {
            /* Optional vertex streams (normals, tangents) may be present with vertices. */
            if (!((id == KILN_MESH_NORMAL || id == KILN_MESH_TANGENT) && v->vertex_count))
                return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                            "stream %d present but not announced", id);
        }
        if (id == KILN_MESH_NORMAL && (v->flags & KILN_MESH_FLAT_NORMALS))
            return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                        "normals in a mesh flagged flat-shaded");
        st->format = format;
        st->stride = stride;
        st->count = count;
        st->data = s.data;
        st->size = s.size;
        if (!packed) {
            if (s.count != count)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                            "stream %d holds %llu elements, expected %llu", id,
                                            (unsigned long long)s.count, (unsigned long long)count);
            continue;
        }
        /* meshopt-encoded: the codecs' headers, and sizes no smaller than the codecs can make
         * them (so a small file cannot announce a huge decoded size): the vertex codec spends
         * at least 4 bytes per 256 bytes of one byte lane, plus the tail; the index codec at
         * least one byte per triangle. */
        if (s.size < 1)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                        "stream %d: empty encoded data", id);
        if (id == KILN_MESH_INDICES) {
            if ((s.data[0] & 0xF0) != 0xE0)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                            "indices: not meshopt-encoded");
            if (count / 3 > s.size)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                            "indices: encoded data too short");
        } else {
            if ((s.data[0] & 0xF0) != 0xA0)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                            "stream %d: not meshopt-encoded", id);
            if (count > (uint64_t)s.size * 64 / stride + 256)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, s.data),
                                            "stream %d: encoded data too short", id);
        }
    }
    return KILN_OK;
}

/* Whether any of count little-endian indices of `size` bytes is >= limit (limit >= 1), with no
 * early exit: SSE2 compares 8 or 4 at a time (5x faster than the loop in check_indices, which
 * then runs only to name the first bad index). */
static bool any_index_at_least(const uint8_t *data, size_t count, uint32_t size, uint32_t limit)
{
    size_t i = 0;
    uint32_t bad_bits = 0;
#if defined(__SSE2__) && (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    __m128i acc = _mm_setzero_si128();
    if (size == 2) {
        /* x - (limit - 1), saturated at 0, is nonzero exactly when x >= limit */
        __m128i top = _mm_set1_epi16((short)(uint16_t)(limit - 1 > 0xFFFF ? 0xFFFF : limit - 1));
        for (; count - i >= 8; i += 8)
            acc = _mm_or_si128(
                acc, _mm_subs_epu16(_mm_loadu_si128((const __m128i *)(data + i * 2)), top));
    } else {
        /* unsigned compare through the sign bit: x ^ 2^31 > (limit - 1) ^ 2^31 */
        __m128i sign = _mm_set1_epi32((int)0x80000000u);
        __m128i top = _mm_set1_epi32((int)((limit - 1) ^ 0x80000000u));
        for (; count - i >= 4; i += 4) {
            __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(data + i * 4)), sign);
            acc = _mm_or_si128(acc, _mm_cmpgt_epi32(x, top));
        }
    }
    bad_bits = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128())) ^ 0xFFFFu;
#endif
    for (; i < count; i++)
        bad_bits |=
            (size == 2 ? kiln_load_u16le(data + i * 2) : kiln_load_u32le(data + i * 4)) >= limit;
    return bad_bits != 0;
}

/* Whether any of n bytes is >= limit (limit >= 1), as any_index_at_least. */
static bool any_byte_at_least(const uint8_t *p, size_t n, uint32_t limit)
{
    size_t i = 0;
    uint32_t bad_bits = 0;
#if defined(__SSE2__)
    __m128i acc = _mm_setzero_si128(),
            top = _mm_set1_epi8((char)(uint8_t)(limit - 1 > 0xFF ? 0xFF : limit - 1));
    for (; n - i >= 16; i += 16)
        acc = _mm_or_si128(acc, _mm_subs_epu8(_mm_loadu_si128((const __m128i *)(p + i)), top));
    if (i < n && n >= 16) { /* the tail as the last 16 bytes, overlapping: a test, not a sum */
        acc = _mm_or_si128(acc, _mm_subs_epu8(_mm_loadu_si128((const __m128i *)(p + n - 16)), top));
        i = n;
    }
    bad_bits = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128())) ^ 0xFFFFu;
#endif
    for (; i < n; i++) bad_bits |= p[i] >= limit;
    return bad_bits != 0;
}

/* Whether any meshlet's 11 bound floats (of its 48 bytes; the last 4 are snorm8 values) is
 * infinite or NaN: exponent bits all set. */
static bool any_bounds_not_finite(const uint8_t *p, size_t count)
{
    uint32_t bad_bits = 0;
    size_t i = 0;
#if defined(__SSE2__)
    __m128i exp = _mm_set1_epi32(0x7F800000), acc = _mm_setzero_si128();
    __m128i floats3 = _mm_set_epi32(0, -1, -1, -1); /* words 8-10 of the third load, not 11 */
    for (; i < count; i++) {
        const __m128i *q = (const __m128i *)(p + i * KILN_MESH_BOUNDS_SIZE);
        __m128i a = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(q), exp), exp);
        __m128i b = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(q + 1), exp), exp);
        __m128i c = _mm_and_si128(_mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(q + 2), exp), exp),
                                  floats3);
        acc = _mm_or_si128(acc, _mm_or_si128(a, _mm_or_si128(b, c)));
    }
    bad_bits = (uint32_t)_mm_movemask_epi8(acc);
#endif
    for (; i < count; i++)
        for (int k = 0; k < 11; k++)
            bad_bits |= (kiln_load_u32le(p + i * KILN_MESH_BOUNDS_SIZE + 4 * (size_t)k) &
                         0x7F800000u) == 0x7F800000u;
    return bad_bits != 0;
}

static kiln_result check_indices(const kiln_mesh_view *v, const uint8_t *data, size_t count,
                                 uint32_t size, kiln_error *err)
{
    if (v->vertex_count && !any_index_at_least(data, count, size, v->vertex_count)) return KILN_OK;
    for (size_t i = 0; i < count; i++) {
        uint32_t x = size == 2 ? kiln_load_u16le(data + i * 2) : kiln_load_u32le(data + i * 4);
        if (x >= v->vertex_count)
            return kiln_error_bad_bytes(
                err, k_format,
                offset_of(v, v->streams[KILN_MESH_INDICES].data == data ? data + i * size : NULL),
                "index %zu is %u, past the %u vertices", i, x, v->vertex_count);
    }
    return KILN_OK;
}

static kiln_result check_joints(const kiln_mesh_view *v, const uint8_t *data, size_t count,
                                kiln_error *err)
{
    bool wide = v->joint_count > 256;
    for (size_t i = 0; i < count * 4; i++) {
        uint32_t j = wide ? kiln_load_u16le(data + i * 2) : data[i];
        if (j >= v->joint_count)
            return kiln_error_bad_bytes(err, k_format,
                                        offset_of(v, v->streams[KILN_MESH_JOINTS].data == data
                                                         ? data + i * (wide ? 2 : 1)
                                                         : NULL),
                                        "vertex %zu: joint %u of %u", i / 4, j, v->joint_count);
    }
    return KILN_OK;
}

static kiln_result read_meshlets(kiln_mesh_view *v, kiln_error *err)
{
    if (v->meshlet_count == 0) {
        if (v->meshlet_vertex_count || v->meshlet_triangle_size)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, NULL),
                                        "meshlet data without meshlets");
        return KILN_OK;
    }
    kiln_container_section m, b, mv, mt;
    if (!kiln_container_find(&v->container, KILN_MESH_SECTION_MESHLETS, KILN_MESH_MESHLET_SIZE,
                             &m) ||
        m.count != v->meshlet_count ||
        !kiln_container_find(&v->container, KILN_MESH_SECTION_BOUNDS, KILN_MESH_BOUNDS_SIZE, &b) ||
        b.count != v->meshlet_count ||
        !kiln_container_find(&v->container, KILN_MESH_SECTION_MESHLET_VERTICES, 4, &mv) ||
        mv.count != v->meshlet_vertex_count ||
        !kiln_container_find(&v->container, KILN_MESH_SECTION_MESHLET_TRIANGLES, 1, &mt) ||
        mt.count != v->meshlet_triangle_size)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, NULL),
                                    "meshlet sections do not match the header's counts");
    v->meshlets = m.data, v->meshlet_bounds = b.data;
    v->meshlet_vertices = mv.data, v->meshlet_triangles = mt.data;
    if (!v->vertex_count ||
        any_index_at_least(mv.data, v->meshlet_vertex_count, 4, v->vertex_count))
        for (uint32_t i = 0; i < v->meshlet_vertex_count; i++)
            if (kiln_load_u32le(mv.data + (size_t)i * 4) >= v->vertex_count)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, mv.data + (size_t)i * 4),
                                            "meshlet vertex %u is past the %u vertices", i,
                                            v->vertex_count);
    /* every bound at once (11 floats per meshlet); the loop names the first bad one */
    bool bounds_bad = any_bounds_not_finite(b.data, v->meshlet_count);
    for (uint32_t i = 0; i < v->meshlet_count; i++) {
        const uint8_t *p = m.data + (size_t)i * KILN_MESH_MESHLET_SIZE;
        uint32_t vo = kiln_load_u32le(p), to = kiln_load_u32le(p + 4), vc = kiln_load_u32le(p + 8),
                 tc = kiln_load_u32le(p + 12);
        if (vc < 1 || vc > v->meshlet_max_vertices || tc < 1 || tc > v->meshlet_max_triangles)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "meshlet %u: %u vertices, %u triangles", i, vc, tc);
        if ((uint64_t)vo + vc > v->meshlet_vertex_count ||
            (uint64_t)to + 3u * tc > v->meshlet_triangle_size)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "meshlet %u: ranges outside the meshlet data", i);
        if (any_byte_at_least(mt.data + to, 3u * tc,
                              vc)) /* then the loop names the first bad one */
            for (uint32_t k = 0; k < 3 * tc; k++)
                if (mt.data[to + k] >= vc)
                    return kiln_error_bad_bytes(err, k_format, offset_of(v, mt.data + to + k),
                                                "meshlet %u: triangle index %u of %u vertices", i,
                                                mt.data[to + k], vc);
        const uint8_t *q = b.data + (size_t)i * KILN_MESH_BOUNDS_SIZE;
        if (bounds_bad)
            for (int k = 0; k < 11; k++)
                if (!isfinite(kiln_load_f32le(q + 4 * k)))
                    return kiln_error_bad_bytes(err, k_format, offset_of(v, q),
                                                "meshlet %u: bounds not finite", i);
        if (kiln_load_f32le(q + 12) < 0.0f)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, q + 12),
                                        "meshlet %u: negative radius", i);
    }
    return KILN_OK;
}

KILN_API kiln_result kiln_mesh_read(const void *data, size_t size, uint32_t flags,
                                    kiln_mesh_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_read: no output");
    memset(out, 0, sizeof *out);
    kiln_mesh_view v;
    memset(&v, 0, sizeof v);
    kiln_result rc = kiln_container_read(data, size, flags, &v.container, err);
    if (rc != KILN_OK) return rc;
    if (v.container.kind != KILN_MESH_KIND)
        return kiln_error_bad_bytes(err, k_format, offset_of(&v, v.container.bytes + 8),
                                    "not a mesh container");
    if (v.container.kind_version != KILN_MESH_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "mesh layout version %u; this kiln reads %u: cook again",
                       v.container.kind_version, KILN_MESH_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    kiln_container_section h;
    if (!kiln_container_find(&v.container, KILN_MESH_SECTION_HEADER, KILN_MESH_HEADER_SIZE, &h) ||
        h.count != 1)
        return kiln_error_bad_bytes(err, k_format, offset_of(&v, NULL),
                                    "no MHDR section of one %d-byte header", KILN_MESH_HEADER_SIZE);
    uint32_t index_size, have[3];
    if ((rc = read_header(&v, &h, &index_size, err)) != KILN_OK) return rc;
    if ((rc = read_levels(&v, err)) != KILN_OK) return rc;
    if ((rc = read_targets(&v, have, err)) != KILN_OK) return rc;
    if ((rc = read_streams(&v, index_size, have, err)) != KILN_OK) return rc;
    if ((rc = read_meshlets(&v, err)) != KILN_OK) return rc;
    if (!(v.flags & KILN_MESH_COMPRESSED)) {
        const kiln_mesh_stream *ix = &v.streams[KILN_MESH_INDICES];
        if ((rc = check_indices(&v, ix->data, (size_t)ix->count, index_size, err)) != KILN_OK)
            return rc;
        const kiln_mesh_stream *j = &v.streams[KILN_MESH_JOINTS];
        if (j->data && (rc = check_joints(&v, j->data, (size_t)j->count, err)) != KILN_OK)
            return rc;
    }
    *out = v;
    return KILN_OK;
}

KILN_API kiln_result kiln_mesh_unpack(const kiln_mesh_view *v, kiln_mesh_stream_id id, void *dst,
                                      size_t dst_size, kiln_error *err)
{
    if (!v || (unsigned)id >= KILN_MESH_STREAM_COUNT)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_unpack: bad stream");
    const kiln_mesh_stream *s = &v->streams[id];
    if (!s->data)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_unpack: stream %d is absent", (int)id);
    uint64_t need = s->count * s->stride;
    if (!dst || dst_size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_unpack: %zu bytes for %llu", dst_size,
                              (unsigned long long)need);
    if (!(v->flags & KILN_MESH_COMPRESSED)) {
        memcpy(dst, s->data, (size_t)need);
        return KILN_OK;
    }
    /* meshopt's asserts: triangle lists of 2- or 4-byte indices, vertex sizes 4..256 by 4; the
     * reader allowed nothing else. */
    int r;
    if (id == KILN_MESH_INDICES) {
        if (KILN_NEVER(s->count % 3 || (s->stride != 2 && s->stride != 4)))
            return kiln_error_set(err, KILN_E_INTERNAL, "kiln_mesh_unpack: index layout");
        r = meshopt_decodeIndexBuffer(dst, (size_t)s->count, s->stride, s->data, s->size);
    } else {
        if (KILN_NEVER(s->stride == 0 || s->stride % 4 || s->stride > 256))
            return kiln_error_set(err, KILN_E_INTERNAL, "kiln_mesh_unpack: stride %u", s->stride);
        r = meshopt_decodeVertexBuffer(dst, (size_t)s->count, s->stride, s->data, s->size);
    }
    if (r != 0)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, s->data),
                                    "stream %d: meshopt data damaged (error %d)", (int)id, r);
    if (id == KILN_MESH_INDICES) return check_indices(v, dst, (size_t)s->count, s->stride, err);
    if (id == KILN_MESH_JOINTS) return check_joints(v, dst, (size_t)s->count, err);
    return KILN_OK;
}

KILN_API kiln_meshlet kiln_mesh_meshlet(const kiln_mesh_view *v, uint32_t i)
{
    kiln_meshlet m = {0, 0, 0, 0};
    if (!v || i >= v->meshlet_count) return m;
    const uint8_t *p = v->meshlets + (size_t)i * KILN_MESH_MESHLET_SIZE;
    m.vertex_offset = kiln_load_u32le(p), m.triangle_offset = kiln_load_u32le(p + 4);
    m.vertex_count = kiln_load_u32le(p + 8), m.triangle_count = kiln_load_u32le(p + 12);
    return m;
}

KILN_API kiln_meshlet_bounds kiln_mesh_meshlet_bounds(const kiln_mesh_view *v, uint32_t i)
{
    kiln_meshlet_bounds b;
    memset(&b, 0, sizeof b);
    if (!v || i >= v->meshlet_count) return b;
    const uint8_t *p = v->meshlet_bounds + (size_t)i * KILN_MESH_BOUNDS_SIZE;
    for (int c = 0; c < 3; c++) {
        b.center[c] = kiln_load_f32le(p + 4 * c);
        b.cone_apex[c] = kiln_load_f32le(p + 16 + 4 * c);
        b.cone_axis[c] = kiln_load_f32le(p + 28 + 4 * c);
        b.cone_axis_s8[c] = (int8_t)p[44 + c];
    }
    b.radius = kiln_load_f32le(p + 12);
    b.cone_cutoff = kiln_load_f32le(p + 40);
    b.cone_cutoff_s8 = (int8_t)p[47];
    return b;
}

KILN_API uint32_t kiln_mesh_target_flags(const kiln_mesh_view *v, uint32_t i)
{
    return v && i < v->target_count
               ? kiln_load_u32le(v->targets + (size_t)i * KILN_MESH_TARGET_SIZE)
               : 0;
}

KILN_API float kiln_mesh_target_weight(const kiln_mesh_view *v, uint32_t i)
{
    return v && i < v->target_count
               ? kiln_load_f32le(v->targets + (size_t)i * KILN_MESH_TARGET_SIZE + 4)
               : 0.0f;
}
