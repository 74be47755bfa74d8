/* gltf_accessor.c — accessors (glTF 2.0 §3.6.2): every component type, normalized integers,
 * byteStride, matrices' column padding, sparse substitution, and accessors without a view
 * (zeros). Every element read is checked to lie inside its view before anything is copied. */
#include "import/gltf_private.h"

#include <stdio.h>
#include <string.h>

#include "core/reader.h"

enum {
    CT_I8 = 5120,
    CT_U8 = 5121,
    CT_I16 = 5122,
    CT_U16 = 5123,
    CT_U32 = 5125,
    CT_F32 = 5126,
};

static uint32_t component_size(uint32_t ct)
{
    switch (ct) {
    case CT_I8:
    case CT_U8:
        return 1;
    case CT_I16:
    case CT_U16:
        return 2;
    case CT_U32:
    case CT_F32:
        return 4;
    default:
        return 0;
    }
}

static uint32_t type_components(const char *t)
{
    static const struct {
        const char *name;
        uint32_t n;
    } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3},  {"VEC4", 4},
        {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(t, types[i].name) == 0) return types[i].n;
    return 0;
}

/* Element layout: matrices with 1- or 2-byte components pad each column to 4 bytes (§3.6.2.4). */
typedef struct layout {
    uint32_t rows, columns; /* a vector or scalar is rows x 1 */
    size_t column_stride;   /* bytes from one column to the next */
    size_t element_size;    /* bytes of one element, padding included */
} layout;

static layout element_layout(const gltf_accessor *a)
{
    layout l;
    uint32_t cs = component_size(a->component_type);
    l.rows = a->components;
    l.columns = 1;
    l.column_stride = (size_t)cs * a->components;
    l.element_size = l.column_stride;
    return l;
}

static layout matrix_layout(uint32_t n, uint32_t cs)
{
    layout l;
    l.rows = l.columns = n == 4 ? 2 : n == 9 ? 3 : 4;
    l.column_stride = ((size_t)l.rows * cs + 3) & ~(size_t)3;
    l.element_size = l.column_stride * l.columns;
    return l;
}

static float to_float(const uint8_t *p, uint32_t ct, bool normalized)
{
    switch (ct) {
    case CT_I8: {
        int8_t v = (int8_t)p[0];
        if (!normalized) return v;
        float f = v / 127.0f;
        return f < -1.0f ? -1.0f : f;
    }
    case CT_U8:
        return normalized ? p[0] / 255.0f : p[0];
    case CT_I16: {
        int16_t v = (int16_t)kiln_load_u16le(p);
        if (!normalized) return v;
        float f = v / 32767.0f;
        return f < -1.0f ? -1.0f : f;
    }
    case CT_U16: {
        uint16_t v = kiln_load_u16le(p);
        return normalized ? v / 65535.0f : v;
    }
    case CT_U32: {
        uint32_t v = kiln_load_u32le(p);
        return normalized ? (float)(v / 4294967295.0) : (float)v;
    }
    default:
        return kiln_load_f32le(p);
    }
}

static uint32_t to_uint(const uint8_t *p, uint32_t ct)
{
    switch (ct) {
    case CT_I8:
    case CT_U8:
        return p[0];
    case CT_I16:
    case CT_U16:
        return kiln_load_u16le(p);
    default:
        return kiln_load_u32le(p);
    }
}

/* Parses and checks the accessor's header members once. */
kiln_result gltf_accessor_info(gltf_ctx *c, uint32_t index, const gltf_accessor **out)
{
    if (KILN_NEVER(index >= c->accessor_count))
        return gltf_fail(c, KILN_E_INTERNAL, NULL, "accessor %u out of range", index);
    gltf_accessor *a = &c->accessors[index];
    *out = a;
    if (a->parsed) return KILN_OK;
    char ptr[48];
    snprintf(ptr, sizeof ptr, "/accessors/%u", index);
    json_t *aj = json_array_get(c->accessors_json, index);
    if (!json_is_object(aj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
    uint64_t ct, count;
    const char *type;
    kiln_result r;
    if ((r = gltf_get_uint(c, aj, "componentType", ptr, GLTF_NO_LIMIT, true, 0, &ct)) ||
        (r = gltf_get_uint(c, aj, "count", ptr, KILN_GLTF_MAX_COUNT, true, 0, &count)) ||
        (r = gltf_get_string(c, aj, "type", ptr, &type)) ||
        (r = gltf_get_bool(c, aj, "normalized", ptr, false, &a->normalized)))
        return r;
    char mp[64]; /* the pointer of the member at fault */
    if (ct > 0xFFFFFFFFu || !component_size((uint32_t)ct)) {
        snprintf(mp, sizeof mp, "%s/componentType", ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"componentType\" %llu is not one of "
                         "5120, 5121, 5122, 5123, 5125, 5126",
                         (unsigned long long)ct);
    }
    snprintf(mp, sizeof mp, "%s/type", ptr);
    if (!type) return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"type\" is missing");
    a->components = type_components(type);
    if (!a->components)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"type\" \"%.16s\" is not SCALAR, VEC2..4 "
                         "or MAT2..4",
                         type);
    snprintf(mp, sizeof mp, "%s/count", ptr);
    if (count == 0) return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"count\" must be at least 1");
    snprintf(mp, sizeof mp, "%s/normalized", ptr);
    if (a->normalized && (ct == CT_F32 || ct == CT_U32))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"normalized\" is not allowed for FLOAT or UNSIGNED_INT components");
    a->component_type = (uint32_t)ct;
    a->count = (uint32_t)count;
    a->parsed = true;
    return KILN_OK;
}

static bool is_matrix(const json_t *aj)
{
    const char *t = json_string_value(json_object_get(aj, "type"));
    return t && strncmp(t, "MAT", 3) == 0;
}

/* Where decoded values go: floats or integers (one of the two is set). */
typedef struct sink {
    float *f;
    uint32_t *u;
} sink;

/* Reads count elements from base (stride apart) into the sink from element first_out on. */
static void read_elements(const uint8_t *base, size_t stride, const layout *l, uint32_t ct,
                          bool normalized, size_t count, size_t first_out, uint32_t n, sink s)
{
    uint32_t cs = component_size(ct);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Float vectors and scalars (nearly every attribute) are the file's bytes on a little-endian
     * machine: copied, not converted one component at a time (a tenth of a small cook). */
    if (s.f && ct == CT_F32 && l->columns == 1 && l->rows == n) {
        size_t row = (size_t)n * sizeof(float);
        float *dst = s.f + first_out * n;
        if (stride == row) {
            memcpy(dst, base, count * row);
        } else {
            for (size_t i = 0; i < count; i++) memcpy(dst + i * n, base + i * stride, row);
        }
        return;
    }
#endif
    /* Unsigned scalars (index lists, the other large accessor): one widening loop per type. */
    if (s.u && n == 1 && l->columns == 1 && l->rows == 1) {
        uint32_t *dst = s.u + first_out;
        switch (ct) {
        case CT_U8:
            for (size_t i = 0; i < count; i++) dst[i] = base[i * stride];
            return;
        case CT_U16:
            for (size_t i = 0; i < count; i++) dst[i] = kiln_load_u16le(base + i * stride);
            return;
        case CT_U32:
            for (size_t i = 0; i < count; i++) dst[i] = kiln_load_u32le(base + i * stride);
            return;
        default:
            break;
        }
    }
    for (size_t i = 0; i < count; i++) {
        const uint8_t *e = base + i * stride;
        size_t o = (first_out + i) * n;
        for (uint32_t col = 0; col < l->columns; col++)
            for (uint32_t row = 0; row < l->rows; row++) {
                const uint8_t *p = e + col * l->column_stride + (size_t)row * cs;
                if (s.f) s.f[o++] = to_float(p, ct, normalized);
                else s.u[o++] = to_uint(p, ct);
            }
    }
}

/* Checks that count elements of size elem at offset with stride fit in a view of size bytes. */
static bool fits(size_t offset, size_t stride, size_t count, size_t elem, size_t size)
{
    if (offset > size) return false;
    size_t room = size - offset;
    if (room < elem) return false;
    if (count > 0 && stride && (count - 1) > (room - elem) / stride) return false;
    return true;
}

/* A byte offset as size_t; one past SIZE_MAX (on 32-bit) lies past every view all the same, and
 * fits() refuses it there. */
static size_t clamp_size(uint64_t v) { return v < SIZE_MAX ? (size_t)v : SIZE_MAX; }

/* Reads accessor index into memory it allocates from arena (floats or integers), only after the
 * element range has been checked against the view, so a small file cannot make kiln allocate
 * for elements it does not hold. */
static kiln_result read_accessor(gltf_ctx *c, uint32_t index, bool want_floats, kiln_arena *arena,
                                 void **out, const char *ptr)
{
    sink s = {NULL, NULL};
    const gltf_accessor *a = NULL;
    kiln_result r = gltf_accessor_info(c, index, &a);
    if (r != KILN_OK) return r;
    json_t *aj = json_array_get(c->accessors_json, index);
    uint32_t cs = component_size(a->component_type);
    layout l = is_matrix(aj) ? matrix_layout(a->components, cs) : element_layout(a);
    uint32_t n = a->components;

    int32_t view;
    uint64_t offset;
    if ((r = gltf_get_index(c, aj, "bufferView", ptr, c->view_count, false, &view)) ||
        (r = gltf_get_uint(c, aj, "byteOffset", ptr, GLTF_NO_LIMIT, false, 0, &offset)))
        return r;
    size_t view_offset = clamp_size(offset);
    if (view >= 0) {
        const gltf_view *v;
        if ((r = gltf_view_get(c, (uint32_t)view, &v)) != KILN_OK) return r;
        size_t stride = v->stride ? v->stride : l.element_size;
        if (v->stride && v->stride < l.element_size)
            return gltf_fail(
                c, KILN_E_IMPORT_FAILED, ptr,
                "bufferView %d's byteStride %zu is smaller than one element (%zu bytes)", view,
                v->stride, l.element_size);
        if (!fits(view_offset, stride, a->count, l.element_size, v->size))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "%u elements of %zu bytes from byteOffset %llu run past the end of "
                             "bufferView %d (%zu bytes)",
                             a->count, l.element_size, (unsigned long long)offset, view, v->size);
    }
    /* Without a view every element starts as zero (the arena's memory is zeroed). */
    void *mem = kiln_arena_array(arena, (size_t)a->count * n,
                                 want_floats ? sizeof(float) : sizeof(uint32_t));
    if (!mem) return gltf_nomem(c, "accessor values");
    if (want_floats) s.f = mem;
    else s.u = mem;
    *out = mem;
    if (view >= 0) {
        const gltf_view *v = &c->views[view];
        size_t stride = v->stride ? v->stride : l.element_size;
        read_elements(v->data + view_offset, stride, &l, a->component_type, a->normalized, a->count,
                      0, n, s);
    }

    json_t *sparse;
    if ((r = gltf_get_object(c, aj, "sparse", ptr, &sparse)) != KILN_OK || !sparse) return r;
    char sptr[96], iptr[112], vptr[112];
    snprintf(sptr, sizeof sptr, "%s/sparse", ptr);
    snprintf(iptr, sizeof iptr, "%s/indices", sptr);
    snprintf(vptr, sizeof vptr, "%s/values", sptr);
    uint64_t scount, ioff, voff, ict;
    json_t *ij, *vj;
    int32_t iview, vview;
    if ((r = gltf_get_uint(c, sparse, "count", sptr, GLTF_NO_LIMIT, true, 0, &scount)) ||
        (r = gltf_get_object(c, sparse, "indices", sptr, &ij)) ||
        (r = gltf_get_object(c, sparse, "values", sptr, &vj)))
        return r;
    char fault[128]; /* the pointer of the member at fault */
    snprintf(fault, sizeof fault, "%s/count", sptr);
    if (scount == 0)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, fault, "\"count\" must be at least 1");
    /* Its indices strictly increase below the accessor's count: at most that many. */
    if (scount > a->count)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, fault,
                         "sparse \"count\" %llu is more than the accessor's %u elements: "
                         "sparse indices must strictly increase below the accessor's count",
                         (unsigned long long)scount, a->count);
    if (!ij || !vj)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr, "\"indices\" and \"values\" are required");
    if ((r = gltf_get_index(c, ij, "bufferView", iptr, c->view_count, true, &iview)) ||
        (r = gltf_get_uint(c, ij, "byteOffset", iptr, GLTF_NO_LIMIT, false, 0, &ioff)) ||
        (r = gltf_get_uint(c, ij, "componentType", iptr, GLTF_NO_LIMIT, true, 0, &ict)) ||
        (r = gltf_get_index(c, vj, "bufferView", vptr, c->view_count, true, &vview)) ||
        (r = gltf_get_uint(c, vj, "byteOffset", vptr, GLTF_NO_LIMIT, false, 0, &voff)))
        return r;
    size_t index_offset = clamp_size(ioff), value_offset = clamp_size(voff);
    snprintf(fault, sizeof fault, "%s/componentType", iptr);
    if (ict != CT_U8 && ict != CT_U16 && ict != CT_U32)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, fault,
                         "\"componentType\" must be 5121, 5123 or 5125");
    const gltf_view *iv, *vv;
    if ((r = gltf_view_get(c, (uint32_t)iview, &iv)) ||
        (r = gltf_view_get(c, (uint32_t)vview, &vv)))
        return r;
    uint32_t ics = component_size((uint32_t)ict);
    if (!fits(index_offset, ics, (size_t)scount, ics, iv->size))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr, "%llu indices run past bufferView %d",
                         (unsigned long long)scount, iview);
    if (!fits(value_offset, l.element_size, (size_t)scount, l.element_size, vv->size))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, vptr, "%llu values run past bufferView %d",
                         (unsigned long long)scount, vview);
    int64_t previous = -1;
    for (size_t i = 0; i < scount; i++) {
        uint32_t target = to_uint(iv->data + index_offset + i * ics, (uint32_t)ict);
        if (target >= a->count || (int64_t)target <= previous)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr,
                             "index %zu (%u) is out of range or not strictly increasing", i,
                             target);
        previous = target;
        read_elements(vv->data + value_offset + i * l.element_size, l.element_size, &l,
                      a->component_type, a->normalized, 1, target, n, s);
    }
    return KILN_OK;
}

kiln_result gltf_accessor_floats(gltf_ctx *c, uint32_t index, const float **out)
{
    const gltf_accessor *a = NULL;
    kiln_result r = gltf_accessor_info(c, index, &a);
    if (r != KILN_OK) return r;
    gltf_accessor *m = &c->accessors[index];
    if (!m->floats) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/accessors/%u", index);
        void *f;
        if ((r = read_accessor(c, index, true, c->arena, &f, ptr)) != KILN_OK) return r;
        m->floats = f;
    }
    *out = m->floats;
    return KILN_OK;
}

kiln_result gltf_accessor_uints(gltf_ctx *c, uint32_t index, const uint32_t **out)
{
    const gltf_accessor *a = NULL;
    kiln_result r = gltf_accessor_info(c, index, &a);
    if (r != KILN_OK) return r;
    gltf_accessor *m = &c->accessors[index];
    if (!m->uints) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/accessors/%u", index);
        if (a->component_type == CT_F32 || a->normalized)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "integer values expected, the accessor holds %s",
                             a->normalized ? "normalized integers" : "floats");
        /* Integers (indices, joints) are converted again by their readers: scratch memory. */
        void *u;
        if ((r = read_accessor(c, index, false, &c->scratch, &u, ptr)) != KILN_OK) return r;
        m->uints = u;
    }
    *out = m->uints;
    return KILN_OK;
}
