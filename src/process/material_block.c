/* material_block.c — packing a material's parameter block from a cooked shader's reflection
 * (docs/shaders.md, "Typed materials"). The reflection gives every offset and stride, so the
 * packer applies no layout rule of its own: it walks a parameter's path through the block's
 * members, checks the value against the member's type, and writes each scalar at
 * offset + element * array_stride + column * matrix_stride + row * scalar size (row and column
 * swapped for a row-major matrix). A byte-owner map finds two parameters writing the same bytes. */
#include "process/material_block.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json_pointer.h"

#define NONE KILN_SHADER_NONE

/* ---- types -------------------------------------------------------------------------------- */

static uint32_t scalar_size(uint32_t type)
{
    switch (type) {
    case KILN_SHADER_TYPE_INT8:
    case KILN_SHADER_TYPE_UINT8:
        return 1;
    case KILN_SHADER_TYPE_INT16:
    case KILN_SHADER_TYPE_UINT16:
    case KILN_SHADER_TYPE_HALF:
        return 2;
    case KILN_SHADER_TYPE_BOOL:
    case KILN_SHADER_TYPE_INT:
    case KILN_SHADER_TYPE_UINT:
    case KILN_SHADER_TYPE_FLOAT:
        return 4;
    case KILN_SHADER_TYPE_INT64:
    case KILN_SHADER_TYPE_UINT64:
    case KILN_SHADER_TYPE_DOUBLE:
        return 8;
    default:
        return 0; /* structs, buffer references, unknown: no scalar value */
    }
}

const char *kiln_shader_type_glsl(uint32_t type, uint32_t vec_size, uint32_t columns, char *buf,
                                  size_t cap)
{
    static const struct {
        const char *scalar, *prefix;
    } names[] = {
        [KILN_SHADER_TYPE_UNKNOWN] = {"unknown", "unknown"},
        [KILN_SHADER_TYPE_BOOL] = {"bool", "b"},
        [KILN_SHADER_TYPE_INT8] = {"int8_t", "i8"},
        [KILN_SHADER_TYPE_UINT8] = {"uint8_t", "u8"},
        [KILN_SHADER_TYPE_INT16] = {"int16_t", "i16"},
        [KILN_SHADER_TYPE_UINT16] = {"uint16_t", "u16"},
        [KILN_SHADER_TYPE_INT] = {"int", "i"},
        [KILN_SHADER_TYPE_UINT] = {"uint", "u"},
        [KILN_SHADER_TYPE_INT64] = {"int64_t", "i64"},
        [KILN_SHADER_TYPE_UINT64] = {"uint64_t", "u64"},
        [KILN_SHADER_TYPE_HALF] = {"float16_t", "f16"},
        [KILN_SHADER_TYPE_FLOAT] = {"float", ""},
        [KILN_SHADER_TYPE_DOUBLE] = {"double", "d"},
        [KILN_SHADER_TYPE_STRUCT] = {"struct", "struct"},
        [KILN_SHADER_TYPE_BUFFER_ADDRESS] = {"buffer_reference", "buffer_reference"},
    };
    if (!buf || cap == 0) return buf;
    if (type >= sizeof names / sizeof names[0]) type = KILN_SHADER_TYPE_UNKNOWN;
    if (type == KILN_SHADER_TYPE_STRUCT || type == KILN_SHADER_TYPE_BUFFER_ADDRESS ||
        type == KILN_SHADER_TYPE_UNKNOWN || (vec_size <= 1 && columns <= 1))
        snprintf(buf, cap, "%s", names[type].scalar);
    else if (columns <= 1) snprintf(buf, cap, "%svec%u", names[type].prefix, vec_size);
    else if (columns == vec_size) snprintf(buf, cap, "%smat%u", names[type].prefix, columns);
    else snprintf(buf, cap, "%smat%ux%u", names[type].prefix, columns, vec_size);
    return buf;
}

static bool is_array(const kiln_shader_member_info *m)
{
    return m->array_count != 1 || m->array_stride != 0;
}

/* "vec3", "float[4]", "struct Light[2]" for messages. */
static const char *member_type(const kiln_shader_view *v, uint32_t variant,
                               const kiln_shader_member_info *m, bool element, char *buf,
                               size_t cap)
{
    char base[64];
    if (m->type == KILN_SHADER_TYPE_STRUCT && m->struct_block != NONE)
        snprintf(base, sizeof base, "struct %s",
                 kiln_shader_block_at(v, variant, m->struct_block).name);
    else kiln_shader_type_glsl(m->type, m->vec_size, m->columns, base, sizeof base);
    if (element || !is_array(m)) snprintf(buf, cap, "%s", base);
    else if (m->array_count == KILN_SHADER_RUNTIME_ARRAY) snprintf(buf, cap, "%s[]", base);
    else snprintf(buf, cap, "%s[%u]", base, m->array_count);
    return buf;
}

/* ---- the walk ----------------------------------------------------------------------------- */

typedef struct pack_ctx {
    const kiln_shader_view *v;
    uint32_t variant;
    const char *block_name;
    uint32_t block_size;
    uint8_t *bytes;
    uint32_t *owner; /* per byte: 1 + the parameter that wrote it, 0 for none */
    const kiln_material_param *params;
    size_t current;
    char pointer[512]; /* the current parameter's pointer plus the position in its value */
    size_t pointer_len;
    bool unprefixed; /* the next message names the parameter itself */
    kiln_error *err;
} pack_ctx;

static void ptr_push_index(pack_ctx *c, size_t *old, uint32_t i)
{
    *old = c->pointer_len;
    int n = snprintf(c->pointer + c->pointer_len, sizeof c->pointer - c->pointer_len, "/%u", i);
    if (n > 0 && (size_t)n < sizeof c->pointer - c->pointer_len) c->pointer_len += (size_t)n;
    c->pointer[c->pointer_len] = '\0';
}

/* Appends "/key" with '~' and '/' escaped (RFC 6901). */
static void ptr_push_key(pack_ctx *c, size_t *old, const char *key)
{
    *old = kiln_json_pointer_push(c->pointer, sizeof c->pointer, &c->pointer_len, key);
}

static void ptr_pop(pack_ctx *c, size_t old)
{
    c->pointer_len = old;
    c->pointer[old] = '\0';
}

static kiln_result fail(pack_ctx *c, kiln_result code, const char *fmt, ...) KILN_PRINTF(3, 4);

/* Fills the error: 'parameter "<name>": <message>' and the pointer when the parameter has one. */
static kiln_result fail(pack_ctx *c, kiln_result code, const char *fmt, ...)
{
    if (!c->err) return code;
    char text[sizeof c->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (c->unprefixed) kiln_error_set(c->err, code, "%s", text);
    else kiln_error_set(c->err, code, "parameter \"%s\": %s", c->params[c->current].name, text);
    if (c->params[c->current].pointer) kiln_error_at_pointer(c->err, c->pointer);
    return code;
}

/* "base_color, roughness, ..." of block b, cut to fit cap. */
static const char *member_list(const kiln_shader_view *v, uint32_t variant, uint32_t b, char *buf,
                               size_t cap)
{
    kiln_shader_block_info bi = kiln_shader_block_at(v, variant, b);
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < bi.member_count; i++) {
        const char *name = kiln_shader_member_at(v, variant, bi.first_member + i).name;
        if (!name) name = "";
        size_t len = strlen(name);
        if (n + len + 8 >= cap) {
            snprintf(buf + n, cap - n, "%s...", i ? ", " : "");
            break;
        }
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", name);
    }
    if (bi.member_count == 0) snprintf(buf, cap, "(none)");
    return buf;
}

/* The member of block b named name[0..len), or false. */
static bool find_member(const kiln_shader_view *v, uint32_t variant, uint32_t b, const char *name,
                        size_t len, kiln_shader_member_info *out)
{
    kiln_shader_block_info bi = kiln_shader_block_at(v, variant, b);
    for (uint32_t i = 0; i < bi.member_count; i++) {
        kiln_shader_member_info m = kiln_shader_member_at(v, variant, bi.first_member + i);
        if (m.name && strlen(m.name) == len && memcmp(m.name, name, len) == 0) {
            *out = m;
            return true;
        }
    }
    return false;
}

/* Refuses arrays the packer cannot address: runtime-sized, and multi-dimensional ones (their
 * array_count multiplies the dimensions but array_stride is the outermost dimension's, so the
 * elements do not fit count * stride into the member's size). */
static kiln_result check_array(pack_ctx *c, const kiln_shader_member_info *m, const char *name)
{
    if (m->array_count == KILN_SHADER_RUNTIME_ARRAY)
        return fail(c, KILN_E_IMPORT_SETTINGS,
                    "%s is a runtime-sized array: a packed block has no room for it", name);
    if (m->array_stride == 0 || (uint64_t)m->array_count * m->array_stride > m->size)
        return fail(c, KILN_E_IMPORT_SETTINGS,
                    "%s is a multi-dimensional array (%u elements of stride %u in %u bytes): "
                    "only one-dimensional arrays take values",
                    name, m->array_count, m->array_stride, m->size);
    return KILN_OK;
}

/* Writes n bytes at off, checking the block's bounds and who wrote them before. */
static kiln_result put(pack_ctx *c, uint64_t off, const uint8_t *src, uint32_t n)
{
    if (off > c->block_size || c->block_size - off < n)
        return fail(c, KILN_E_FORMAT_INVALID,
                    "the reflection places it at bytes %llu..%llu, outside block %s (%u bytes)",
                    (unsigned long long)off, (unsigned long long)(off + n), c->block_name,
                    c->block_size);
    uint32_t me = (uint32_t)c->current + 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = c->owner[off + i];
        if (o != 0 && o != me && c->params[o - 1].depth == c->params[c->current].depth)
            return fail(c, KILN_E_IMPORT_SETTINGS,
                        "writes bytes that parameter \"%s\" already sets (a value given twice)",
                        c->params[o - 1].name);
        c->owner[off + i] = me;
        c->bytes[off + i] = src[i];
    }
    return KILN_OK;
}

static const char *describe(const kiln_value *val, const kiln_value_node *n, char *buf, size_t cap)
{
    switch (n->kind) {
    case KILN_VALUE_NULL:
        return "null";
    case KILN_VALUE_BOOL:
        return n->boolean ? "true" : "false";
    case KILN_VALUE_NUMBER:
        if (n->integer) snprintf(buf, cap, "%lld", (long long)n->i);
        else snprintf(buf, cap, "%.9g", n->d);
        return buf;
    case KILN_VALUE_STRING:
        (void)val;
        return "a string";
    case KILN_VALUE_ARRAY:
        snprintf(buf, cap, "an array of %u", n->count);
        return buf;
    case KILN_VALUE_OBJECT:
        return "an object";
    }
    return "a value";
}

/* binary16 nearest to d, ties to even, computed from the double (no float rounding first);
 * false when it rounds to infinity. */
static bool half_from_double(double d, uint16_t *out)
{
    uint16_t sign = signbit(d) ? 0x8000u : 0u;
    double a = fabs(d);
    if (!(a < 65520.0)) return false;
    if (a == 0.0) {
        *out = sign;
        return true;
    }
    int e;
    frexp(a, &e);  /* a in [2^(e-1), 2^e) */
    int E = e - 1; /* a = 1.f * 2^E */
    if (E < -14) E = -14;
    double q = ldexp(a, 10 - E); /* units of the last place: [1024, 2048) when normal */
    double fl = floor(q), frac = q - fl;
    uint32_t n = (uint32_t)fl;
    if (frac > 0.5 || (frac == 0.5 && (n & 1u))) n++;
    uint32_t bits;
    if (n >= 1024) {
        if (n == 2048) {
            n = 1024;
            E++;
        }
        if (E + 15 >= 31) return false;
        bits = ((uint32_t)(E + 15) << 10) | (n - 1024);
    } else {
        bits = n; /* subnormal */
    }
    *out = (uint16_t)(sign | bits);
    return true;
}

/* The exact integer of a number node, when it is one: *neg and *mag (magnitude). */
static bool integral(const kiln_value_node *n, bool *neg, uint64_t *mag)
{
    if (n->kind == KILN_VALUE_BOOL) {
        *neg = false;
        *mag = n->boolean ? 1 : 0;
        return true;
    }
    if (n->kind != KILN_VALUE_NUMBER) return false;
    if (n->integer) {
        *neg = n->i < 0;
        *mag = n->i < 0 ? (uint64_t)(-(n->i + 1)) + 1 : (uint64_t)n->i;
        return true;
    }
    double d = n->d;
    if (!isfinite(d) || floor(d) != d || fabs(d) >= 18446744073709551616.0) return false;
    *neg = d < 0;
    *mag = (uint64_t)fabs(d);
    return true;
}

static void store_le(uint8_t *dst, uint64_t bits, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) dst[i] = (uint8_t)(bits >> (8 * i));
}

/* Writes one scalar of type `type` from node n at off. */
static kiln_result write_scalar(pack_ctx *c, const kiln_value *val, const kiln_value_node *n,
                                uint32_t type, uint64_t off)
{
    if (!n) return fail(c, KILN_E_INTERNAL, "a damaged value table");
    uint8_t b[8];
    uint32_t size = scalar_size(type);
    char got[64], tn[32];
    kiln_shader_type_glsl(type, 1, 1, tn, sizeof tn);
    switch (type) {
    case KILN_SHADER_TYPE_FLOAT:
    case KILN_SHADER_TYPE_DOUBLE:
    case KILN_SHADER_TYPE_HALF: {
        if (n->kind != KILN_VALUE_NUMBER)
            return fail(c, KILN_E_IMPORT_SETTINGS, "expected a number for %s, got %s", tn,
                        describe(val, n, got, sizeof got));
        double d = n->d;
        if (type == KILN_SHADER_TYPE_DOUBLE) {
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            store_le(b, bits, 8);
        } else if (type == KILN_SHADER_TYPE_FLOAT) {
            float f = (float)d;
            if (!isfinite(f) || !isfinite(d))
                return fail(c, KILN_E_IMPORT_SETTINGS, "%s is out of range for float",
                            describe(val, n, got, sizeof got));
            uint32_t bits;
            memcpy(&bits, &f, sizeof bits);
            store_le(b, bits, 4);
        } else {
            uint16_t h;
            if (!half_from_double(d, &h))
                return fail(c, KILN_E_IMPORT_SETTINGS,
                            "%s is out of range for float16_t (|x| < 65520)",
                            describe(val, n, got, sizeof got));
            store_le(b, h, 2);
        }
        return put(c, off, b, size);
    }
    case KILN_SHADER_TYPE_BOOL: {
        bool neg = false;
        uint64_t mag = 0;
        if (n->kind != KILN_VALUE_BOOL &&
            !(n->kind == KILN_VALUE_NUMBER && integral(n, &neg, &mag) && !neg && mag <= 1))
            return fail(c, KILN_E_IMPORT_SETTINGS, "expected true or false for bool, got %s",
                        describe(val, n, got, sizeof got));
        bool t = n->kind == KILN_VALUE_BOOL ? n->boolean : mag == 1;
        store_le(b, t ? 1 : 0, 4);
        return put(c, off, b, 4);
    }
    case KILN_SHADER_TYPE_INT8:
    case KILN_SHADER_TYPE_INT16:
    case KILN_SHADER_TYPE_INT:
    case KILN_SHADER_TYPE_INT64:
    case KILN_SHADER_TYPE_UINT8:
    case KILN_SHADER_TYPE_UINT16:
    case KILN_SHADER_TYPE_UINT:
    case KILN_SHADER_TYPE_UINT64: {
        bool neg = false;
        uint64_t mag = 0;
        if (n->kind != KILN_VALUE_NUMBER && n->kind != KILN_VALUE_BOOL)
            return fail(c, KILN_E_IMPORT_SETTINGS, "expected an integer for %s, got %s", tn,
                        describe(val, n, got, sizeof got));
        if (!integral(n, &neg, &mag))
            return fail(c, KILN_E_IMPORT_SETTINGS, "expected an integer for %s, got %s", tn,
                        describe(val, n, got, sizeof got));
        bool is_signed = type == KILN_SHADER_TYPE_INT8 || type == KILN_SHADER_TYPE_INT16 ||
                         type == KILN_SHADER_TYPE_INT || type == KILN_SHADER_TYPE_INT64;
        uint32_t bitsz = size * 8;
        /* signed: [-2^(b-1), 2^(b-1) - 1]; unsigned: [0, 2^b - 1] */
        uint64_t pos_max = is_signed ? ((uint64_t)1 << (bitsz - 1)) - 1
                                     : (bitsz == 64 ? UINT64_MAX : ((uint64_t)1 << bitsz) - 1);
        uint64_t neg_max = is_signed ? (uint64_t)1 << (bitsz - 1) : 0;
        if ((neg && mag > neg_max) || (!neg && mag > pos_max))
            return fail(c, KILN_E_IMPORT_SETTINGS, "%s is out of range for %s",
                        describe(val, n, got, sizeof got), tn);
        uint64_t bits = neg ? (uint64_t)0 - mag : mag; /* two's complement */
        store_le(b, bits, size);
        return put(c, off, b, size);
    }
    default: {
        char tt[64];
        return fail(c, KILN_E_IMPORT_SETTINGS, "a member of type %s takes no value",
                    kiln_shader_type_glsl(type, 1, 1, tt, sizeof tt));
    }
    }
}

static kiln_result write_member(pack_ctx *c, const kiln_value *val, const kiln_value_node *n,
                                const kiln_shader_member_info *m, uint64_t off, bool element,
                                const char *name);

/* One element (not an array) of member m at off: a struct, matrix, vector or scalar. */
static kiln_result write_element(pack_ctx *c, const kiln_value *val, const kiln_value_node *n,
                                 const kiln_shader_member_info *m, uint64_t off, const char *name)
{
    char tn[96], got[64];
    if (!n) return fail(c, KILN_E_INTERNAL, "a damaged value table");
    if (m->type == KILN_SHADER_TYPE_STRUCT) {
        if (m->struct_block == NONE)
            return fail(c, KILN_E_IMPORT_SETTINGS, "%s is a struct without members", name);
        if (n->kind != KILN_VALUE_OBJECT)
            return fail(c, KILN_E_IMPORT_SETTINGS, "expected an object for %s %s, got %s",
                        member_type(c->v, c->variant, m, true, tn, sizeof tn), name,
                        describe(val, n, got, sizeof got));
        for (uint32_t k = 0; k < n->count; k++) {
            const kiln_value_node *child = kiln_value_child(val, n, k);
            if (!child) return fail(c, KILN_E_INTERNAL, "a damaged value table");
            const char *key = kiln_value_string(val, child->key);
            kiln_shader_member_info sub;
            size_t old;
            ptr_push_key(c, &old, key);
            if (!find_member(c->v, c->variant, m->struct_block, key, strlen(key), &sub)) {
                char list[160];
                return fail(c, KILN_E_IMPORT_SETTINGS, "no member \"%s\" in %s; members: %s", key,
                            member_type(c->v, c->variant, m, true, tn, sizeof tn),
                            member_list(c->v, c->variant, m->struct_block, list, sizeof list));
            }
            kiln_result r = write_member(c, val, child, &sub, off + sub.offset, false, key);
            if (r != KILN_OK) return r;
            ptr_pop(c, old);
        }
        return KILN_OK;
    }
    uint32_t ss = scalar_size(m->type);
    if (ss == 0) return write_scalar(c, val, n, m->type, off); /* refuses it */
    uint32_t rows = m->vec_size ? m->vec_size : 1, cols = m->columns ? m->columns : 1;
    if (cols == 1 && rows == 1) return write_scalar(c, val, n, m->type, off);
    if (cols == 1) {
        if (n->kind != KILN_VALUE_ARRAY || n->count != rows)
            return fail(c, KILN_E_IMPORT_SETTINGS, "expected %u numbers for %s, got %s", rows,
                        member_type(c->v, c->variant, m, true, tn, sizeof tn),
                        describe(val, n, got, sizeof got));
        for (uint32_t i = 0; i < rows; i++) {
            size_t old;
            ptr_push_index(c, &old, i);
            kiln_result r =
                write_scalar(c, val, kiln_value_child(val, n, i), m->type, off + (uint64_t)i * ss);
            if (r != KILN_OK) return r;
            ptr_pop(c, old);
        }
        return KILN_OK;
    }
    /* a matrix: C columns of R rows, as columns or flat column-major */
    bool flat = n->kind == KILN_VALUE_ARRAY && n->count == cols * rows;
    bool nested = n->kind == KILN_VALUE_ARRAY && n->count == cols;
    if (nested && !flat) {
        for (uint32_t k = 0; k < cols; k++) {
            const kiln_value_node *col = kiln_value_child(val, n, k);
            if (!col || col->kind != KILN_VALUE_ARRAY || col->count != rows) nested = false;
        }
    }
    if (!flat && !nested)
        return fail(c, KILN_E_IMPORT_SETTINGS,
                    "expected %u columns of %u numbers (or %u numbers, column-major) for %s, "
                    "got %s",
                    cols, rows, cols * rows, member_type(c->v, c->variant, m, true, tn, sizeof tn),
                    describe(val, n, got, sizeof got));
    bool row_major = (m->flags & KILN_SHADER_MEMBER_ROW_MAJOR) != 0;
    for (uint32_t k = 0; k < cols; k++) {
        for (uint32_t r = 0; r < rows; r++) {
            const kiln_value_node *e;
            size_t old, old2 = 0;
            if (flat) {
                ptr_push_index(c, &old, k * rows + r);
                e = kiln_value_child(val, n, k * rows + r);
            } else {
                ptr_push_index(c, &old, k);
                ptr_push_index(c, &old2, r);
                e = kiln_value_child(val, kiln_value_child(val, n, k), r);
            }
            uint64_t at = row_major ? off + (uint64_t)r * m->matrix_stride + (uint64_t)k * ss
                                    : off + (uint64_t)k * m->matrix_stride + (uint64_t)r * ss;
            kiln_result res = write_scalar(c, val, e, m->type, at);
            if (res != KILN_OK) return res;
            ptr_pop(c, old);
        }
    }
    return KILN_OK;
}

/* Member m at off: the whole array (element false, m an array) or one element. */
static kiln_result write_member(pack_ctx *c, const kiln_value *val, const kiln_value_node *n,
                                const kiln_shader_member_info *m, uint64_t off, bool element,
                                const char *name)
{
    if (element || !is_array(m)) return write_element(c, val, n, m, off, name);
    kiln_result r = check_array(c, m, name);
    if (r != KILN_OK) return r;
    char tn[96], got[64];
    if (n->kind != KILN_VALUE_ARRAY || n->count != m->array_count)
        return fail(c, KILN_E_IMPORT_SETTINGS,
                    "expected an array of %u elements for %s %s (or give one element as "
                    "%s[index]), got %s",
                    m->array_count, member_type(c->v, c->variant, m, false, tn, sizeof tn), name,
                    name, describe(val, n, got, sizeof got));
    for (uint32_t i = 0; i < n->count; i++) {
        size_t old;
        ptr_push_index(c, &old, i);
        r = write_element(c, val, kiln_value_child(val, n, i), m,
                          off + (uint64_t)i * m->array_stride, name);
        if (r != KILN_OK) return r;
        ptr_pop(c, old);
    }
    return KILN_OK;
}

/* Walks the current parameter's path from block b: *m, *off and *element (an indexed array)
 * for the member it names. */
static kiln_result resolve_path(pack_ctx *c, uint32_t b, kiln_shader_member_info *m, uint64_t *off,
                                bool *element)
{
    const char *path = c->params[c->current].name;
    const char *p = path;
    uint64_t base = 0;
    bool top = true;
    for (;;) {
        size_t len = strcspn(p, ".[]");
        if (len == 0)
            return fail(c, KILN_E_IMPORT_SETTINGS,
                        "not a member path (names joined by '.', an element as [index])");
        char name[KILN_MATERIAL_PATH_MAX];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        if (!find_member(c->v, c->variant, b, p, len, m)) {
            char list[160], tn[96];
            if (top) {
                c->unprefixed = true;
                return fail(c, KILN_E_IMPORT_SETTINGS,
                            "unknown parameter \"%s\" in block %s; members: %s", path,
                            c->block_name, member_list(c->v, c->variant, b, list, sizeof list));
            }
            snprintf(tn, sizeof tn, "struct %s", kiln_shader_block_at(c->v, c->variant, b).name);
            return fail(c, KILN_E_IMPORT_SETTINGS, "no member \"%s\" in %s; members: %s", name, tn,
                        member_list(c->v, c->variant, b, list, sizeof list));
        }
        top = false;
        p += len;
        *off = base + m->offset;
        *element = false;
        if (*p == '[') {
            p++;
            uint64_t index = 0;
            size_t digits = 0;
            while (*p >= '0' && *p <= '9' && digits < 12)
                index = index * 10 + (uint64_t)(*p++ - '0'), digits++;
            if (digits == 0 || *p != ']')
                return fail(c, KILN_E_IMPORT_SETTINGS,
                            "not a member path: [ takes a decimal index and ]");
            p++;
            if (!is_array(m)) return fail(c, KILN_E_IMPORT_SETTINGS, "%s is not an array", name);
            kiln_result r = check_array(c, m, name);
            if (r != KILN_OK) return r;
            if (index >= m->array_count)
                return fail(c, KILN_E_IMPORT_SETTINGS,
                            "index %llu is past the end of %s (%u elements)",
                            (unsigned long long)index, name, m->array_count);
            *off += index * m->array_stride;
            *element = true;
        }
        if (*p == '\0') return KILN_OK;
        if (*p != '.')
            return fail(c, KILN_E_IMPORT_SETTINGS,
                        "not a member path (names joined by '.', an element as [index])");
        p++;
        if (m->type != KILN_SHADER_TYPE_STRUCT || m->struct_block == NONE)
            return fail(c, KILN_E_IMPORT_SETTINGS, "%s is not a struct: '.' cannot follow it",
                        name);
        if (is_array(m) && !*element)
            return fail(c, KILN_E_IMPORT_SETTINGS, "%s is an array: name an element, %s[index]",
                        name, name);
        b = m->struct_block;
        base = *off;
    }
}

typedef struct param_order {
    uint32_t depth;
    size_t index;
} param_order;

static int cmp_order(const void *a, const void *b)
{
    const param_order *x = a, *y = b;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1; /* deepest first */
    return x->index < y->index ? -1 : x->index > y->index;
}

kiln_result kiln_material_block_pack(const kiln_shader_view *v, uint32_t variant, uint32_t block,
                                     const kiln_material_param *params, size_t count,
                                     const kiln_allocator *a, uint8_t **out, size_t *size,
                                     kiln_error *err)
{
    if (out) *out = NULL;
    if (size) *size = 0;
    if (!v || !out || !size || (count && !params))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_block_pack: NULL argument");
    kiln_shader_variant_info vi = kiln_shader_variant_at(v, variant);
    if (variant >= v->variant_count || block >= vi.block_count)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_material_block_pack: variant %u or block %u out of range",
                              variant, block);
    if (count > KILN_MATERIAL_MAX_PARAMS)
        return kiln_error_set(err, KILN_E_LIMIT, "%zu parameters (at most %u)", count,
                              KILN_MATERIAL_MAX_PARAMS);
    kiln_shader_block_info bi = kiln_shader_block_at(v, variant, block);
    if (bi.size > KILN_MATERIAL_BLOCK_MAX_SIZE)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "block %s is %u bytes: a material's block is at most %u", bi.name,
                              bi.size, KILN_MATERIAL_BLOCK_MAX_SIZE);
    for (size_t i = 0; i < count; i++) {
        if (!params[i].name || !params[i].value || !params[i].value->node_count)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "kiln_material_block_pack: parameter %zu has no name or value",
                                  i);
        if (strlen(params[i].name) >= KILN_MATERIAL_PATH_MAX)
            return kiln_error_set(err, KILN_E_LIMIT, "a parameter path of %zu bytes (at most %u)",
                                  strlen(params[i].name), KILN_MATERIAL_PATH_MAX - 1);
    }
    pack_ctx c;
    memset(&c, 0, sizeof c);
    c.v = v;
    c.variant = variant;
    c.block_name = bi.name ? bi.name : "";
    c.block_size = bi.size;
    c.params = params;
    c.err = err;
    c.bytes = bi.size ? kiln_alloc(a, bi.size) : NULL;
    c.owner = bi.size ? kiln_calloc(a, bi.size, sizeof *c.owner) : NULL;
    param_order *order = count ? kiln_alloc(a, count * sizeof *order) : NULL;
    kiln_result r = KILN_OK;
    if ((bi.size && (!c.bytes || !c.owner)) || (count && !order)) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory packing block %s",
                           c.block_name);
        goto done;
    }
    if (bi.size) memset(c.bytes, 0, bi.size);
    for (size_t i = 0; i < count; i++) order[i] = (param_order){params[i].depth, i};
    if (count > 1) qsort(order, count, sizeof *order, cmp_order);
    for (size_t k = 0; k < count && r == KILN_OK; k++) {
        c.current = order[k].index;
        const kiln_material_param *p = &params[c.current];
        snprintf(c.pointer, sizeof c.pointer, "%s", p->pointer ? p->pointer : "");
        c.pointer_len = strlen(c.pointer);
        kiln_shader_member_info m;
        uint64_t off = 0;
        bool element = false;
        r = resolve_path(&c, block, &m, &off, &element);
        if (r == KILN_OK) {
            const char *leaf = strrchr(p->name, '.');
            char name[KILN_MATERIAL_PATH_MAX];
            snprintf(name, sizeof name, "%s", leaf ? leaf + 1 : p->name);
            name[strcspn(name, "[")] = '\0';
            r = write_member(&c, p->value, &p->value->nodes[0], &m, off, element, name);
        }
    }
done:
    kiln_free(a, order, count * sizeof *order);
    kiln_free(a, c.owner, (size_t)bi.size * sizeof *c.owner);
    if (r != KILN_OK) {
        kiln_free(a, c.bytes, bi.size);
        return r;
    }
    *out = c.bytes;
    *size = bi.size;
    return KILN_OK;
}

/* ---- finding the block -------------------------------------------------------------------- */

kiln_result kiln_material_block_find(const kiln_shader_view *v, uint32_t variant,
                                     const kiln_block_select *sel, uint32_t *block, kiln_error *err)
{
    if (block) *block = NONE;
    if (!v || !sel || !block)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_block_find: NULL argument");
    if (variant >= v->variant_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_block_find: no variant %u",
                              variant);
    kiln_shader_variant_info vi = kiln_shader_variant_at(v, variant);
    if (sel->pick == KILN_BLOCK_PICK_PUSH) {
        if (vi.push_block == NONE)
            return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                  "the shader (variant %s) has no push constants", vi.name);
        *block = vi.push_block;
        return KILN_OK;
    }
    uint32_t found = NONE, outside0 = NONE, outside0_count = 0;
    char list[160];
    size_t n = 0;
    list[0] = '\0';
    for (uint32_t i = 0; i < vi.binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(v, variant, i);
        bool buffer =
            b.resource == KILN_SHADER_UNIFORM_BUFFER || b.resource == KILN_SHADER_STORAGE_BUFFER;
        if (buffer && b.block != NONE && n + 40 < sizeof list)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s (set %u, binding %u)",
                                  n ? ", " : "", b.name, b.set, b.binding);
        switch (sel->pick) {
        case KILN_BLOCK_PICK_DEFAULT:
            if (b.resource != KILN_SHADER_UNIFORM_BUFFER || b.block == NONE) break;
            if (b.set == 1 && b.binding == 0) found = b.block;
            if (b.set != 0) {
                outside0 = b.block;
                outside0_count++;
            }
            break;
        case KILN_BLOCK_PICK_NAME:
            if (!sel->name) break;
            if (buffer && b.block != NONE &&
                (!strcmp(b.name, sel->name) ||
                 !strcmp(kiln_shader_block_at(v, variant, b.block).name, sel->name)))
                if (found == NONE) found = b.block;
            break;
        case KILN_BLOCK_PICK_BINDING:
            if (b.set == sel->set && b.binding == sel->binding) {
                if (!buffer || b.block == NONE)
                    return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                          "set %u, binding %u (%s) is not a uniform or storage "
                                          "buffer",
                                          b.set, b.binding, b.name);
                found = b.block;
            }
            break;
        default:
            return kiln_error_set(err, KILN_E_USAGE, "kiln_material_block_find: pick %u",
                                  sel->pick);
        }
    }
    if (sel->pick == KILN_BLOCK_PICK_DEFAULT) {
        *block = found != NONE ? found : outside0_count == 1 ? outside0 : NONE;
        return KILN_OK;
    }
    if (found == NONE) {
        if (sel->pick == KILN_BLOCK_PICK_NAME)
            return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                  "no buffer block \"%s\" in the shader; there are: %s",
                                  sel->name ? sel->name : "", n ? list : "none");
        return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                              "nothing at set %u, binding %u in the shader; buffers: %s", sel->set,
                              sel->binding, n ? list : "none");
    }
    *block = found;
    return KILN_OK;
}

/* ---- listing leaves ----------------------------------------------------------------------- */

typedef struct leaf_ctx {
    const kiln_shader_view *v;
    uint32_t variant, block_size;
    kiln_material_leaf_fn fn;
    void *user;
    size_t count;
    char path[KILN_MATERIAL_PATH_MAX];
    kiln_error *err;
} leaf_ctx;

static kiln_result leaves_of(leaf_ctx *c, uint32_t b, uint64_t base, size_t path_len,
                             uint32_t depth)
{
    if (depth > KILN_SHADER_MAX_DEPTH)
        return kiln_error_set(c->err, KILN_E_FORMAT_INVALID, "structs nested deeper than %u",
                              KILN_SHADER_MAX_DEPTH);
    kiln_shader_block_info bi = kiln_shader_block_at(c->v, c->variant, b);
    for (uint32_t i = 0; i < bi.member_count; i++) {
        kiln_shader_member_info m = kiln_shader_member_at(c->v, c->variant, bi.first_member + i);
        uint64_t off = base + m.offset;
        if (off > c->block_size || c->block_size - off < m.size)
            return kiln_error_set(c->err, KILN_E_FORMAT_INVALID,
                                  "member %s at bytes %llu..%llu is outside its block (%u bytes)",
                                  m.name, (unsigned long long)off,
                                  (unsigned long long)(off + m.size), c->block_size);
        int n = snprintf(c->path + path_len, sizeof c->path - path_len, "%s%s", path_len ? "." : "",
                         m.name);
        if (n < 0 || (size_t)n >= sizeof c->path - path_len)
            return kiln_error_set(c->err, KILN_E_LIMIT, "a member path longer than %u bytes",
                                  KILN_MATERIAL_PATH_MAX - 1);
        size_t len = path_len + (size_t)n;
        bool expand = m.type == KILN_SHADER_TYPE_STRUCT && m.struct_block != NONE;
        if (expand && is_array(&m) && m.array_count != KILN_SHADER_RUNTIME_ARRAY &&
            m.array_stride != 0 && (uint64_t)m.array_count * m.array_stride <= m.size) {
            for (uint32_t e = 0; e < m.array_count; e++) {
                int k = snprintf(c->path + len, sizeof c->path - len, "[%u]", e);
                if (k < 0 || (size_t)k >= sizeof c->path - len)
                    return kiln_error_set(c->err, KILN_E_LIMIT,
                                          "a member path longer than %u bytes",
                                          KILN_MATERIAL_PATH_MAX - 1);
                kiln_result r = leaves_of(c, m.struct_block, off + (uint64_t)e * m.array_stride,
                                          len + (size_t)k, depth + 1);
                if (r != KILN_OK) return r;
            }
        } else if (expand && !is_array(&m)) {
            kiln_result r = leaves_of(c, m.struct_block, off, len, depth + 1);
            if (r != KILN_OK) return r;
        } else {
            char tn[96];
            kiln_material_leaf leaf = {
                .path = c->path,
                .offset = (uint32_t)off,
                .size = m.size,
                .type = m.type,
                .vec_size = m.vec_size,
                .columns = m.columns,
                .array_count = m.array_count,
                .array_stride = m.array_stride,
                .matrix_stride = m.matrix_stride,
                .row_major = (m.flags & KILN_SHADER_MEMBER_ROW_MAJOR) != 0,
                .type_name = member_type(c->v, c->variant, &m, false, tn, sizeof tn),
            };
            c->count++;
            if (c->fn) c->fn(c->user, &leaf);
        }
        c->path[path_len] = '\0';
    }
    return KILN_OK;
}

kiln_result kiln_material_block_leaves(const kiln_shader_view *v, uint32_t variant, uint32_t block,
                                       kiln_material_leaf_fn fn, void *user, size_t *count,
                                       kiln_error *err)
{
    if (count) *count = 0;
    if (!v) return kiln_error_set(err, KILN_E_USAGE, "kiln_material_block_leaves: NULL view");
    kiln_shader_variant_info vi = kiln_shader_variant_at(v, variant);
    if (variant >= v->variant_count || block >= vi.block_count)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_material_block_leaves: variant %u or block %u out of range",
                              variant, block);
    leaf_ctx c;
    memset(&c, 0, sizeof c);
    c.v = v;
    c.variant = variant;
    c.block_size = kiln_shader_block_at(v, variant, block).size;
    c.fn = fn;
    c.user = user;
    c.err = err;
    kiln_result r = leaves_of(&c, block, 0, 0, 0);
    if (count) *count = c.count;
    return r;
}

/* ---- textures and alpha ----------------------------------------------------------------- */

static const char *io_type(const kiln_shader_io_info *io, char *buf, size_t cap);

static bool is_image(uint32_t resource)
{
    return resource == KILN_SHADER_SAMPLED_IMAGE || resource == KILN_SHADER_SEPARATE_IMAGE;
}

kiln_result kiln_material_textures_check(const kiln_shader_view *v, uint32_t variant, uint32_t set,
                                         const char *const *names, const char *const *pointers,
                                         size_t count, kiln_error *err)
{
    if (!v || (count && !names) || variant >= v->variant_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_textures_check: bad arguments");
    kiln_shader_variant_info vi = kiln_shader_variant_at(v, variant);
    for (size_t k = 0; k < count; k++) {
        bool found = false;
        for (uint32_t i = 0; i < vi.binding_count && !found; i++) {
            kiln_shader_binding_info b = kiln_shader_binding_at(v, variant, i);
            found = is_image(b.resource) && names[k] && !strcmp(b.name, names[k]);
        }
        if (found) continue;
        char list[160];
        size_t n = 0;
        list[0] = '\0';
        for (uint32_t i = 0; i < vi.binding_count; i++) {
            kiln_shader_binding_info b = kiln_shader_binding_at(v, variant, i);
            if (is_image(b.resource) && n + 48 < sizeof list)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%s (set %u, binding %u)",
                                      n ? ", " : "", b.name, b.set, b.binding);
        }
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "texture \"%s\": no image binding of that name in the fragment shader; "
                       "there are: %s",
                       names[k] ? names[k] : "", n ? list : "none");
        if (pointers && pointers[k]) kiln_error_at_pointer(err, pointers[k]);
        return KILN_E_IMPORT_SETTINGS;
    }
    for (uint32_t i = 0; i < vi.binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(v, variant, i);
        if (!is_image(b.resource) || b.set != set) continue;
        bool named = false;
        for (size_t k = 0; k < count && !named; k++) named = names[k] && !strcmp(b.name, names[k]);
        if (!named)
            return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                  "binding %s (set %u, binding %u) has no texture: name one in "
                                  "\"textures\"",
                                  b.name, b.set, b.binding);
    }
    return KILN_OK;
}

kiln_result kiln_material_alpha_check(const kiln_shader_view *v, uint32_t variant,
                                      uint32_t alpha_mode, kiln_error *err)
{
    if (!v || variant >= v->variant_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_material_alpha_check: bad arguments");
    if (alpha_mode == KILN_MATERIAL_ALPHA_OPAQUE) return KILN_OK;
    const char *mode = alpha_mode == KILN_MATERIAL_ALPHA_MASK ? "mask" : "blend";
    kiln_shader_variant_info vi = kiln_shader_variant_at(v, variant);
    for (uint32_t i = 0; i < vi.output_count; i++) {
        kiln_shader_io_info o = kiln_shader_output_at(v, variant, i);
        if (o.location != 0 || o.component != 0) continue;
        if (o.vec_size == 4 && o.columns == 1) return KILN_OK;
        char tn[48];
        return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                              "alpha_mode %s needs a fragment shader that writes alpha: "
                              "location 0 is %s %s",
                              mode, io_type(&o, tn, sizeof tn), o.name);
    }
    return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                          "alpha_mode %s needs a fragment shader that writes alpha: it writes "
                          "no colour at location 0",
                          mode);
}

/* ---- stage interfaces --------------------------------------------------------------------- */

static const char *stage_name(uint32_t stage)
{
    static const char *const names[] = {"vertex",
                                        "tessellation control",
                                        "tessellation evaluation",
                                        "geometry",
                                        "fragment",
                                        "compute",
                                        "task",
                                        "mesh",
                                        "ray generation",
                                        "any-hit",
                                        "closest-hit",
                                        "miss",
                                        "intersection",
                                        "callable"};
    return stage < sizeof names / sizeof names[0] ? names[stage] : "unknown";
}

static const char *io_type(const kiln_shader_io_info *io, char *buf, size_t cap)
{
    char base[48];
    kiln_shader_type_glsl(io->type, io->vec_size, io->columns, base, sizeof base);
    if (io->array_count != 1) snprintf(buf, cap, "%s[%u]", base, io->array_count);
    else snprintf(buf, cap, "%s", base);
    return buf;
}

kiln_result kiln_shader_interface_check(const kiln_shader_view *producer, uint32_t producer_variant,
                                        const kiln_shader_view *consumer, uint32_t consumer_variant,
                                        kiln_error *err)
{
    if (!producer || !consumer)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_shader_interface_check: NULL shader");
    if (producer_variant >= producer->variant_count || consumer_variant >= consumer->variant_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_shader_interface_check: no such variant");
    kiln_shader_variant_info pv = kiln_shader_variant_at(producer, producer_variant);
    kiln_shader_variant_info cv = kiln_shader_variant_at(consumer, consumer_variant);
    const char *ps = stage_name(producer->stage), *cs = stage_name(consumer->stage);
    bool mesh = producer->stage == KILN_SHADER_MESH;
    for (uint32_t i = 0; i < cv.input_count; i++) {
        kiln_shader_io_info in = kiln_shader_input_at(consumer, consumer_variant, i);
        if (in.location == NONE) continue;
        kiln_shader_io_info out;
        memset(&out, 0, sizeof out);
        bool found = false;
        for (uint32_t k = 0; k < pv.output_count && !found; k++) {
            out = kiln_shader_output_at(producer, producer_variant, k);
            found = out.location == in.location && out.component == in.component;
        }
        char a[64], b[64];
        if (!found)
            return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                  "location %u: the %s stage reads %s %s, which the %s stage "
                                  "does not write",
                                  in.location, cs, io_type(&in, a, sizeof a), in.name, ps);
        const char *why = NULL;
        if (out.type != in.type || out.columns != in.columns) why = "the types differ";
        else if (out.vec_size < in.vec_size) why = "the output has fewer components";
        else if (!mesh && out.array_count != in.array_count) why = "the array sizes differ";
        else if ((out.flags & 1u) != (in.flags & 1u)) why = "only one of them is flat";
        else if ((out.flags & 2u) != (in.flags & 2u)) why = "only one of them is per-primitive";
        if (why)
            return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                  "location %u: the %s stage writes %s%s %s, the %s stage reads "
                                  "%s%s %s: %s",
                                  in.location, ps, (out.flags & 1u) ? "flat " : "",
                                  io_type(&out, a, sizeof a), out.name, cs,
                                  (in.flags & 1u) ? "flat " : "", io_type(&in, b, sizeof b),
                                  in.name, why);
    }
    return KILN_OK;
}
