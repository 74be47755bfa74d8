/* shader_reflect.c — kiln_shader_reflect (see shader_reflect.h; docs/shaders.md) through
 * SPIRV-Cross's C API: the entry point, its workgroup size, every descriptor binding, the blocks
 * of uniform, storage and push-constant buffers with their nested structs, stage inputs and
 * outputs (built-ins excluded) and specialization constants, into flat tables in a fixed order.
 * SPIRV-Cross allocates on its own heap (its context); only the tables come from kiln's
 * allocator. */
#include "process/shader_reflect.h"

#include <spirv_cross/spirv_cross_c.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

#define NONE        KILN_SHADER_NONE
#define MAX_RECORDS 65536u
#define MAX_STRINGS ((size_t)16 << 20)
#define MAX_NESTING 64 /* structs inside structs deeper than this are refused */
#define DIM_SUBPASS 6u

typedef struct reflect_ctx {
    spvc_compiler comp;
    const kiln_allocator *a;
    kiln_error *err;
    kiln_shader_reflection *out;
    size_t cap_bindings, cap_blocks, cap_members, cap_inputs, cap_outputs, cap_constants;
    size_t cap_strings;
    uint32_t *block_types; /* the SPIR-V type id of each block (dedupes structs) */
    size_t cap_block_types;
} reflect_ctx;

void kiln_shader_reflection_free(kiln_shader_reflection *r)
{
    if (!r) return;
    const kiln_allocator *a = &r->allocator;
    kiln_free(a, r->bindings, (size_t)r->binding_count * sizeof *r->bindings);
    kiln_free(a, r->blocks, (size_t)r->block_count * sizeof *r->blocks);
    kiln_free(a, r->members, (size_t)r->member_count * sizeof *r->members);
    kiln_free(a, r->inputs, (size_t)r->input_count * sizeof *r->inputs);
    kiln_free(a, r->outputs, (size_t)r->output_count * sizeof *r->outputs);
    kiln_free(a, r->constants, (size_t)r->constant_count * sizeof *r->constants);
    kiln_free(a, r->strings, r->strings_size);
    memset(r, 0, sizeof *r);
}

/* Makes room for one more element of an array with *count used and *cap allocated. */
static kiln_result reserve(reflect_ctx *c, void **data, uint32_t count, size_t *cap, size_t elem,
                           const char *what)
{
    if (count >= MAX_RECORDS)
        return kiln_error_set(c->err, KILN_E_LIMIT, "shader reflection: more than %u %s",
                              MAX_RECORDS, what);
    if (count < *cap) return KILN_OK;
    size_t n = *cap ? *cap * 2 : 8;
    void *p = kiln_realloc(c->a, *data, *cap * elem, n * elem);
    if (!p) return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "shader reflection: %s", what);
    *data = p;
    *cap = n;
    return KILN_OK;
}

/* Appends a name to the string table; "" and NULL are offset 0. */
static kiln_result add_string(reflect_ctx *c, const char *s, uint32_t *offset)
{
    kiln_shader_reflection *o = c->out;
    *offset = 0;
    if (!s || !s[0]) return KILN_OK;
    size_t n = strlen(s) + 1;
    if (n > MAX_STRINGS || o->strings_size > MAX_STRINGS - n)
        return kiln_error_set(c->err, KILN_E_LIMIT, "shader reflection: names over %zu bytes",
                              MAX_STRINGS);
    if (o->strings_size + n > c->cap_strings) {
        size_t cap = c->cap_strings ? c->cap_strings : 256;
        while (cap < o->strings_size + n) cap *= 2;
        char *p = kiln_realloc(c->a, o->strings, c->cap_strings, cap);
        if (!p) return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "shader reflection: names");
        o->strings = p;
        c->cap_strings = cap;
    }
    memcpy(o->strings + o->strings_size, s, n);
    *offset = (uint32_t)o->strings_size;
    o->strings_size += n;
    return KILN_OK;
}

static uint32_t scalar_type(spvc_type t)
{
    if (spvc_type_get_storage_class(t) == SpvStorageClassPhysicalStorageBuffer)
        return KILN_SHADER_TYPE_BUFFER_ADDRESS;
    switch (spvc_type_get_basetype(t)) {
    case SPVC_BASETYPE_BOOLEAN:
        return KILN_SHADER_TYPE_BOOL;
    case SPVC_BASETYPE_INT8:
        return KILN_SHADER_TYPE_INT8;
    case SPVC_BASETYPE_UINT8:
        return KILN_SHADER_TYPE_UINT8;
    case SPVC_BASETYPE_INT16:
        return KILN_SHADER_TYPE_INT16;
    case SPVC_BASETYPE_UINT16:
        return KILN_SHADER_TYPE_UINT16;
    case SPVC_BASETYPE_INT32:
        return KILN_SHADER_TYPE_INT;
    case SPVC_BASETYPE_UINT32:
        return KILN_SHADER_TYPE_UINT;
    case SPVC_BASETYPE_INT64:
        return KILN_SHADER_TYPE_INT64;
    case SPVC_BASETYPE_UINT64:
        return KILN_SHADER_TYPE_UINT64;
    case SPVC_BASETYPE_FP16:
        return KILN_SHADER_TYPE_HALF;
    case SPVC_BASETYPE_FP32:
        return KILN_SHADER_TYPE_FLOAT;
    case SPVC_BASETYPE_FP64:
        return KILN_SHADER_TYPE_DOUBLE;
    case SPVC_BASETYPE_STRUCT:
        return KILN_SHADER_TYPE_STRUCT;
    default:
        return KILN_SHADER_TYPE_UNKNOWN;
    }
}

/* The element count of an array type: the outermost dimension times the inner ones
 * (KILN_SHADER_RUNTIME_ARRAY when any is unsized); 1 when not an array. A dimension set by a
 * specialization constant counts its default value. */
static uint32_t array_count(spvc_compiler comp, spvc_type t)
{
    unsigned dims = spvc_type_get_num_array_dimensions(t);
    uint64_t n = 1;
    for (unsigned d = 0; d < dims; d++) {
        uint32_t v = spvc_type_get_array_dimension(t, d);
        if (!spvc_type_array_dimension_is_literal(t, d)) {
            spvc_constant k = spvc_compiler_get_constant_handle(comp, v);
            v = k ? spvc_constant_get_scalar_u32(k, 0, 0) : 0;
        }
        if (v == 0) return KILN_SHADER_RUNTIME_ARRAY;
        n *= v;
        if (n > 0xFFFFFFFEu) n = 0xFFFFFFFEu;
    }
    return (uint32_t)n;
}

/* ---- layouts: which rule (std140, std430) the member offsets and strides follow ------------ */

static uint32_t round_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* Base alignment of a type under std140 (std140 true) or std430, ignoring its array-ness when
 * elem is true. */
static uint32_t type_align(spvc_compiler comp, spvc_type_id id, bool std140, bool elem);

static uint32_t struct_align(spvc_compiler comp, spvc_type t, bool std140)
{
    uint32_t a = 1;
    unsigned n = spvc_type_get_num_member_types(t);
    for (unsigned i = 0; i < n; i++) {
        uint32_t m = type_align(comp, spvc_type_get_member_type(t, i), std140, false);
        if (m > a) a = m;
    }
    return std140 ? round_up(a, 16) : a;
}

static uint32_t type_align(spvc_compiler comp, spvc_type_id id, bool std140, bool elem)
{
    spvc_type t = spvc_compiler_get_type_handle(comp, id);
    if (!t) return 1;
    bool array = !elem && spvc_type_get_num_array_dimensions(t) > 0;
    uint32_t a;
    if (spvc_type_get_storage_class(t) == SpvStorageClassPhysicalStorageBuffer) a = 8;
    else if (spvc_type_get_basetype(t) == SPVC_BASETYPE_STRUCT) a = struct_align(comp, t, std140);
    else {
        uint32_t scalar = spvc_type_get_bit_width(t) / 8;
        if (scalar == 0) scalar = 4;
        uint32_t vec = spvc_type_get_vector_size(t);
        uint32_t comps = vec == 3 ? 4 : vec;
        a = scalar * comps; /* a matrix aligns as its column vector (column-major) */
    }
    if (array && std140) a = round_up(a, 16);
    return a;
}

/* Whether the members of struct t sit where rule std140/std430 puts them (offsets ascending,
 * each at its alignment, array strides a multiple of the rule's; nested structs checked too). */
static bool follows(spvc_compiler comp, spvc_type_id id, bool std140, int depth)
{
    if (depth > MAX_NESTING) return false;
    spvc_type t = spvc_compiler_get_type_handle(comp, id);
    unsigned n = spvc_type_get_num_member_types(t);
    uint32_t end = 0;
    for (unsigned i = 0; i < n; i++) {
        spvc_type_id mid = spvc_type_get_member_type(t, i);
        spvc_type mt = spvc_compiler_get_type_handle(comp, mid);
        unsigned off = 0;
        if (spvc_compiler_type_struct_member_offset(comp, t, i, &off) != SPVC_SUCCESS) return false;
        uint32_t align = type_align(comp, mid, std140, false);
        if (off % align != 0 || off < end) return false;
        if (spvc_type_get_num_array_dimensions(mt) > 0) {
            unsigned stride = 0;
            spvc_compiler_type_struct_member_array_stride(comp, t, i, &stride);
            if (stride % align != 0) return false;
        }
        if (spvc_type_get_columns(mt) > 1) {
            unsigned ms = 0;
            spvc_compiler_type_struct_member_matrix_stride(comp, t, i, &ms);
            uint32_t col = type_align(comp, mid, std140, true);
            if (std140) col = round_up(col, 16);
            if (ms % col != 0) return false;
        }
        if (spvc_type_get_basetype(mt) == SPVC_BASETYPE_STRUCT &&
            spvc_type_get_storage_class(mt) != SpvStorageClassPhysicalStorageBuffer &&
            !follows(comp, spvc_type_get_base_type_id(mt), std140, depth + 1))
            return false;
        size_t size = 0;
        spvc_compiler_get_declared_struct_member_size(comp, t, i, &size);
        end = off + (uint32_t)size;
        /* std140: what follows a struct or an array starts at a multiple of 16 */
        if (std140 && (spvc_type_get_basetype(mt) == SPVC_BASETYPE_STRUCT ||
                       spvc_type_get_num_array_dimensions(mt) > 0))
            end = round_up(end, 16);
    }
    return true;
}

static uint32_t block_layout(spvc_compiler comp, spvc_type_id id, bool prefer_std140)
{
    if (follows(comp, id, prefer_std140, 0))
        return prefer_std140 ? KILN_SHADER_LAYOUT_STD140 : KILN_SHADER_LAYOUT_STD430;
    if (follows(comp, id, !prefer_std140, 0))
        return prefer_std140 ? KILN_SHADER_LAYOUT_STD430 : KILN_SHADER_LAYOUT_STD140;
    return KILN_SHADER_LAYOUT_SCALAR;
}

/* ---- blocks and members ------------------------------------------------------------------- */

static kiln_result add_block(reflect_ctx *c, spvc_type_id id, bool prefer_std140, uint32_t *index);

/* The block of a struct type id, created (with its members, then its nested structs
 * depth-first) when new. */
static kiln_result fill_block(reflect_ctx *c, uint32_t index, spvc_type_id id, int depth)
{
    if (depth > MAX_NESTING)
        return kiln_error_set(c->err, KILN_E_LIMIT,
                              "shader reflection: structs nested deeper "
                              "than %d",
                              MAX_NESTING);
    kiln_shader_reflection *o = c->out;
    spvc_type t = spvc_compiler_get_type_handle(c->comp, id);
    unsigned n = spvc_type_get_num_member_types(t);
    if (n > MAX_RECORDS - o->member_count)
        return kiln_error_set(c->err, KILN_E_LIMIT, "shader reflection: more than %u members",
                              MAX_RECORDS);
    uint32_t first = o->member_count;
    for (unsigned i = 0; i < n; i++) {
        kiln_result r = reserve(c, (void **)&o->members, o->member_count, &c->cap_members,
                                sizeof *o->members, "members");
        if (r != KILN_OK) return r;
        kiln_shader_member *m = &o->members[o->member_count++];
        memset(m, 0, sizeof *m);
        spvc_type_id mid = spvc_type_get_member_type(t, i);
        spvc_type mt = spvc_compiler_get_type_handle(c->comp, mid);
        r = add_string(c, spvc_compiler_get_member_name(c->comp, id, i), &m->name);
        if (r != KILN_OK) return r;
        unsigned off = 0, stride = 0, mstride = 0;
        size_t size = 0;
        spvc_compiler_type_struct_member_offset(c->comp, t, i, &off);
        m->offset = off;
        m->type = scalar_type(mt);
        m->vec_size = m->type == KILN_SHADER_TYPE_STRUCT ? 1 : spvc_type_get_vector_size(mt);
        if (m->vec_size == 0) m->vec_size = 1;
        m->columns = spvc_type_get_columns(mt);
        if (m->columns == 0) m->columns = 1;
        m->array_count = array_count(c->comp, mt);
        if (spvc_type_get_num_array_dimensions(mt) > 0) {
            spvc_compiler_type_struct_member_array_stride(c->comp, t, i, &stride);
            m->array_stride = stride;
        }
        if (m->columns > 1) {
            spvc_compiler_type_struct_member_matrix_stride(c->comp, t, i, &mstride);
            m->matrix_stride = mstride;
        }
        if (m->array_count == KILN_SHADER_RUNTIME_ARRAY) {
            m->size = 0;
        } else if (spvc_compiler_get_declared_struct_member_size(c->comp, t, i, &size) ==
                   SPVC_SUCCESS) {
            m->size = size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)size;
        }
        if (spvc_compiler_has_member_decoration(c->comp, id, i, SpvDecorationRowMajor))
            m->flags |= KILN_SHADER_MEMBER_ROW_MAJOR;
        m->struct_block = NONE;
    }
    o->blocks[index].first_member = first;
    o->blocks[index].member_count = n;
    /* Nested structs, depth-first (members of this block are already contiguous). A buffer
     * reference (TYPE_BUFFER_ADDRESS) gets no block: its pointee may refer to itself, and a
     * cooked shader's struct nesting is acyclic (docs/formats.md). */
    for (unsigned i = 0; i < n; i++) {
        if (o->members[first + i].type != KILN_SHADER_TYPE_STRUCT) continue;
        spvc_type mt = spvc_compiler_get_type_handle(c->comp, spvc_type_get_member_type(t, i));
        spvc_type_id sid = spvc_type_get_base_type_id(mt);
        uint32_t before = o->block_count, b = NONE;
        kiln_result r = add_block(c, sid, false, &b);
        if (r != KILN_OK) return r;
        o->members[first + i].struct_block = b;
        if (o->block_count > before) {
            r = fill_block(c, b, sid, depth + 1);
            if (r != KILN_OK) return r;
        }
    }
    return KILN_OK;
}

/* Finds or appends the block of a struct type (members filled later by fill_block). */
static kiln_result add_block(reflect_ctx *c, spvc_type_id id, bool prefer_std140, uint32_t *index)
{
    kiln_shader_reflection *o = c->out;
    for (uint32_t i = 0; i < o->block_count; i++)
        if (c->block_types[i] == id) {
            *index = i;
            return KILN_OK;
        }
    size_t cap = c->cap_blocks;
    kiln_result r = reserve(c, (void **)&o->blocks, o->block_count, &c->cap_blocks,
                            sizeof *o->blocks, "blocks");
    if (r != KILN_OK) return r;
    if (c->cap_blocks != cap || !c->block_types) {
        uint32_t *p = kiln_realloc(c->a, c->block_types, c->cap_block_types * sizeof *p,
                                   c->cap_blocks * sizeof *p);
        if (!p) return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "shader reflection: blocks");
        c->block_types = p;
        c->cap_block_types = c->cap_blocks;
    }
    kiln_shader_block *b = &o->blocks[o->block_count];
    memset(b, 0, sizeof *b);
    spvc_type t = spvc_compiler_get_type_handle(c->comp, id);
    r = add_string(c, spvc_compiler_get_name(c->comp, id), &b->name);
    if (r != KILN_OK) return r;
    size_t size = 0;
    if (spvc_compiler_get_declared_struct_size(c->comp, t, &size) == SPVC_SUCCESS)
        b->size = size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)size;
    b->layout = block_layout(c->comp, id, prefer_std140);
    c->block_types[o->block_count] = id;
    *index = o->block_count++;
    return KILN_OK;
}

/* ---- bindings ----------------------------------------------------------------------------- */

static uint32_t image_dim(spvc_type t)
{
    switch (spvc_type_get_image_dimension(t)) {
    case SpvDim1D:
        return 1;
    case SpvDim2D:
    case SpvDimRect:
        return 2;
    case SpvDim3D:
        return 3;
    case SpvDimCube:
        return 4;
    case SpvDimBuffer:
        return 5;
    case SpvDimSubpassData:
        return DIM_SUBPASS;
    default:
        return 0;
    }
}

static const spvc_resource_type binding_kinds[] = {
    SPVC_RESOURCE_TYPE_UNIFORM_BUFFER,    SPVC_RESOURCE_TYPE_STORAGE_BUFFER,
    SPVC_RESOURCE_TYPE_SAMPLED_IMAGE,     SPVC_RESOURCE_TYPE_SEPARATE_IMAGE,
    SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, SPVC_RESOURCE_TYPE_STORAGE_IMAGE,
    SPVC_RESOURCE_TYPE_SUBPASS_INPUT,     SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE};

static uint32_t resource_of(spvc_resource_type kind, spvc_type base)
{
    bool buffer = spvc_type_get_image_dimension(base) == SpvDimBuffer;
    switch (kind) {
    case SPVC_RESOURCE_TYPE_UNIFORM_BUFFER:
        return KILN_SHADER_UNIFORM_BUFFER;
    case SPVC_RESOURCE_TYPE_STORAGE_BUFFER:
        return KILN_SHADER_STORAGE_BUFFER;
    case SPVC_RESOURCE_TYPE_SAMPLED_IMAGE:
        return buffer ? KILN_SHADER_UNIFORM_TEXEL_BUFFER : KILN_SHADER_SAMPLED_IMAGE;
    case SPVC_RESOURCE_TYPE_SEPARATE_IMAGE:
        return buffer ? KILN_SHADER_UNIFORM_TEXEL_BUFFER : KILN_SHADER_SEPARATE_IMAGE;
    case SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS:
        return KILN_SHADER_SEPARATE_SAMPLER;
    case SPVC_RESOURCE_TYPE_STORAGE_IMAGE:
        return buffer ? KILN_SHADER_STORAGE_TEXEL_BUFFER : KILN_SHADER_STORAGE_IMAGE;
    case SPVC_RESOURCE_TYPE_SUBPASS_INPUT:
        return KILN_SHADER_SUBPASS_INPUT;
    default:
        return KILN_SHADER_ACCELERATION_STRUCTURE;
    }
}

static kiln_result add_binding(reflect_ctx *c, spvc_resource_type kind,
                               const spvc_reflected_resource *res)
{
    kiln_shader_reflection *o = c->out;
    kiln_result r = reserve(c, (void **)&o->bindings, o->binding_count, &c->cap_bindings,
                            sizeof *o->bindings, "bindings");
    if (r != KILN_OK) return r;
    kiln_shader_binding *b = &o->bindings[o->binding_count++];
    memset(b, 0, sizeof *b);
    spvc_compiler comp = c->comp;
    spvc_type base = spvc_compiler_get_type_handle(comp, res->base_type_id);
    spvc_type type = spvc_compiler_get_type_handle(comp, res->type_id);
    const char *name = spvc_compiler_get_name(comp, res->id);
    if (!name || !name[0]) name = spvc_compiler_get_name(comp, res->base_type_id);
    r = add_string(c, name, &b->name);
    if (r != KILN_OK) return r;
    b->set = spvc_compiler_get_decoration(comp, res->id, SpvDecorationDescriptorSet);
    b->binding = spvc_compiler_get_decoration(comp, res->id, SpvDecorationBinding);
    b->resource = resource_of(kind, base);
    b->count = array_count(comp, type);
    b->block = res->base_type_id; /* the type id for now: a block index after sorting */
    b->image_dim = 0;
    b->input_attachment = NONE;
    if (kind == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE || kind == SPVC_RESOURCE_TYPE_SEPARATE_IMAGE ||
        kind == SPVC_RESOURCE_TYPE_STORAGE_IMAGE || kind == SPVC_RESOURCE_TYPE_SUBPASS_INPUT) {
        b->image_dim = image_dim(base);
        b->image_flags = (spvc_type_get_image_arrayed(base) ? 1u : 0u) |
                         (spvc_type_get_image_multisampled(base) ? 2u : 0u) |
                         (spvc_type_get_image_is_depth(base) ? 4u : 0u);
    }
    if (kind == SPVC_RESOURCE_TYPE_SUBPASS_INPUT)
        b->input_attachment =
            spvc_compiler_get_decoration(comp, res->id, SpvDecorationInputAttachmentIndex);
    if (kind == SPVC_RESOURCE_TYPE_STORAGE_BUFFER) {
        const SpvDecoration *decs = NULL;
        size_t n = 0;
        bool ro = false, wo = false;
        if (spvc_compiler_get_buffer_block_decorations(comp, res->id, &decs, &n) == SPVC_SUCCESS)
            for (size_t i = 0; i < n; i++) {
                if (decs[i] == SpvDecorationNonWritable) ro = true;
                if (decs[i] == SpvDecorationNonReadable) wo = true;
            }
        b->flags =
            (ro ? KILN_SHADER_BINDING_READONLY : 0u) | (wo ? KILN_SHADER_BINDING_WRITEONLY : 0u);
    } else if (kind == SPVC_RESOURCE_TYPE_STORAGE_IMAGE) {
        if (spvc_compiler_has_decoration(comp, res->id, SpvDecorationNonWritable))
            b->flags |= KILN_SHADER_BINDING_READONLY;
        if (spvc_compiler_has_decoration(comp, res->id, SpvDecorationNonReadable))
            b->flags |= KILN_SHADER_BINDING_WRITEONLY;
    }
    if (kind != SPVC_RESOURCE_TYPE_UNIFORM_BUFFER && kind != SPVC_RESOURCE_TYPE_STORAGE_BUFFER)
        b->block = NONE;
    return KILN_OK;
}

static int cmp_binding(const void *pa, const void *pb)
{
    const kiln_shader_binding *a = pa, *b = pb;
    if (a->set != b->set) return a->set < b->set ? -1 : 1;
    if (a->binding != b->binding) return a->binding < b->binding ? -1 : 1;
    if (a->resource != b->resource) return a->resource < b->resource ? -1 : 1;
    return a->name < b->name ? -1 : a->name > b->name;
}

/* ---- inputs, outputs, constants ----------------------------------------------------------- */

static kiln_result add_io(reflect_ctx *c, const spvc_reflected_resource *res, bool input)
{
    kiln_shader_reflection *o = c->out;
    kiln_shader_io **arr = input ? &o->inputs : &o->outputs;
    uint32_t *count = input ? &o->input_count : &o->output_count;
    size_t *cap = input ? &c->cap_inputs : &c->cap_outputs;
    kiln_result r =
        reserve(c, (void **)arr, *count, cap, sizeof **arr, input ? "inputs" : "outputs");
    if (r != KILN_OK) return r;
    kiln_shader_io *v = &(*arr)[(*count)++];
    memset(v, 0, sizeof *v);
    spvc_compiler comp = c->comp;
    r = add_string(c, spvc_compiler_get_name(comp, res->id), &v->name);
    if (r != KILN_OK) return r;
    v->location = spvc_compiler_has_decoration(comp, res->id, SpvDecorationLocation)
                      ? spvc_compiler_get_decoration(comp, res->id, SpvDecorationLocation)
                      : NONE;
    v->component = spvc_compiler_get_decoration(comp, res->id, SpvDecorationComponent);
    spvc_type t = spvc_compiler_get_type_handle(comp, res->type_id);
    v->type = scalar_type(t);
    v->vec_size = v->type == KILN_SHADER_TYPE_STRUCT ? 1 : spvc_type_get_vector_size(t);
    if (v->vec_size == 0) v->vec_size = 1;
    v->columns = spvc_type_get_columns(t);
    if (v->columns == 0) v->columns = 1;
    v->array_count = array_count(comp, t);
    if (spvc_compiler_has_decoration(comp, res->id, SpvDecorationFlat)) v->flags |= 1u;
    if (spvc_compiler_has_decoration(comp, res->id, SpvDecorationPerPrimitiveEXT)) v->flags |= 2u;
    return KILN_OK;
}

/* Inputs and outputs by location (NONE last), component, then name. An insertion sort with the
 * string table at hand (qsort has no context argument; a stage has few of them). */
static int cmp_io(const kiln_shader_io *a, const kiln_shader_io *b, const char *strings)
{
    if (a->location != b->location) return a->location < b->location ? -1 : 1;
    if (a->component != b->component) return a->component < b->component ? -1 : 1;
    return strcmp(strings + a->name, strings + b->name);
}

static void sort_io(kiln_shader_io *v, uint32_t n, const char *strings)
{
    for (uint32_t i = 1; i < n; i++) {
        kiln_shader_io x = v[i];
        uint32_t j = i;
        while (j > 0 && cmp_io(&v[j - 1], &x, strings) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static int cmp_constant(const void *pa, const void *pb)
{
    const kiln_shader_spec_constant *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

static kiln_result add_constants(reflect_ctx *c)
{
    kiln_shader_reflection *o = c->out;
    const spvc_specialization_constant *sc = NULL;
    size_t n = 0;
    if (spvc_compiler_get_specialization_constants(c->comp, &sc, &n) != SPVC_SUCCESS) n = 0;
    for (size_t i = 0; i < n; i++) {
        kiln_result r = reserve(c, (void **)&o->constants, o->constant_count, &c->cap_constants,
                                sizeof *o->constants, "specialization constants");
        if (r != KILN_OK) return r;
        kiln_shader_spec_constant *k = &o->constants[o->constant_count++];
        memset(k, 0, sizeof *k);
        r = add_string(c, spvc_compiler_get_name(c->comp, sc[i].id), &k->name);
        if (r != KILN_OK) return r;
        k->id = sc[i].constant_id;
        spvc_constant h = spvc_compiler_get_constant_handle(c->comp, sc[i].id);
        spvc_type t = h ? spvc_compiler_get_type_handle(c->comp, spvc_constant_get_type(h)) : NULL;
        k->type = t ? scalar_type(t) : KILN_SHADER_TYPE_UNKNOWN;
        if (!h || !t) continue;
        unsigned bits = spvc_type_get_bit_width(t);
        if (bits == 64) {
            /* SPIRV-Cross keeps constants in a union: the double's bits are the value's. */
            double d = spvc_constant_get_scalar_fp64(h, 0, 0);
            uint64_t u;
            memcpy(&u, &d, sizeof u);
            k->default_bits[0] = (uint32_t)u;
            k->default_bits[1] = (uint32_t)(u >> 32);
        } else if (bits == 16) {
            k->default_bits[0] = spvc_constant_get_scalar_u16(h, 0, 0);
        } else if (bits == 8) {
            k->default_bits[0] = spvc_constant_get_scalar_u8(h, 0, 0);
        } else {
            k->default_bits[0] = spvc_constant_get_scalar_u32(h, 0, 0);
        }
    }
    if (o->constant_count > 1)
        qsort(o->constants, o->constant_count, sizeof *o->constants, cmp_constant);
    return KILN_OK;
}

/* ---- the entry point ---------------------------------------------------------------------- */

static int stage_of_model(SpvExecutionModel m)
{
    switch (m) {
    case SpvExecutionModelVertex:
        return KILN_SHADER_VERTEX;
    case SpvExecutionModelTessellationControl:
        return KILN_SHADER_TESS_CONTROL;
    case SpvExecutionModelTessellationEvaluation:
        return KILN_SHADER_TESS_EVALUATION;
    case SpvExecutionModelGeometry:
        return KILN_SHADER_GEOMETRY;
    case SpvExecutionModelFragment:
        return KILN_SHADER_FRAGMENT;
    case SpvExecutionModelGLCompute:
        return KILN_SHADER_COMPUTE;
    case SpvExecutionModelTaskEXT:
    case SpvExecutionModelTaskNV:
        return KILN_SHADER_TASK;
    case SpvExecutionModelMeshEXT:
    case SpvExecutionModelMeshNV:
        return KILN_SHADER_MESH;
    case SpvExecutionModelRayGenerationKHR:
        return KILN_SHADER_RAYGEN;
    case SpvExecutionModelAnyHitKHR:
        return KILN_SHADER_ANY_HIT;
    case SpvExecutionModelClosestHitKHR:
        return KILN_SHADER_CLOSEST_HIT;
    case SpvExecutionModelMissKHR:
        return KILN_SHADER_MISS;
    case SpvExecutionModelIntersectionKHR:
        return KILN_SHADER_INTERSECTION;
    case SpvExecutionModelCallableKHR:
        return KILN_SHADER_CALLABLE;
    default:
        return -1;
    }
}

static kiln_result select_entry(reflect_ctx *c, const char *entry)
{
    const spvc_entry_point *eps = NULL;
    size_t n = 0;
    if (spvc_compiler_get_entry_points(c->comp, &eps, &n) != SPVC_SUCCESS || n == 0)
        return kiln_error_set(c->err, KILN_E_IMPORT_FAILED, "shader reflection: no entry point");
    size_t pick = n;
    if (!entry) {
        if (n > 1)
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                                  "shader reflection: %zu entry points; name one", n);
        pick = 0;
    } else {
        for (size_t i = 0; i < n && pick == n; i++)
            if (eps[i].name && strcmp(eps[i].name, entry) == 0) pick = i;
        if (pick == n)
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                                  "shader reflection: no entry point \"%s\"", entry);
    }
    int stage = stage_of_model(eps[pick].execution_model);
    if (stage < 0)
        return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                              "shader reflection: entry point \"%s\" has execution model %d",
                              eps[pick].name, (int)eps[pick].execution_model);
    if (spvc_compiler_set_entry_point(c->comp, eps[pick].name, eps[pick].execution_model) !=
        SPVC_SUCCESS)
        return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                              "shader reflection: entry point \"%s\" not usable", eps[pick].name);
    c->out->stage = (uint32_t)stage;
    return add_string(c, eps[pick].name, &c->out->entry_point);
}

static void workgroup(reflect_ctx *c)
{
    kiln_shader_reflection *o = c->out;
    for (int i = 0; i < 3; i++) o->workgroup_spec[i] = NONE;
    if (o->stage != KILN_SHADER_COMPUTE && o->stage != KILN_SHADER_TASK &&
        o->stage != KILN_SHADER_MESH)
        return;
    for (unsigned i = 0; i < 3; i++)
        o->workgroup[i] = spvc_compiler_get_execution_mode_argument_by_index(
            c->comp, SpvExecutionModeLocalSize, i);
    spvc_specialization_constant s[3];
    memset(s, 0, sizeof s);
    spvc_compiler_get_work_group_size_specialization_constants(c->comp, &s[0], &s[1], &s[2]);
    for (int i = 0; i < 3; i++)
        if (s[i].id != 0) {
            o->workgroup_spec[i] = s[i].constant_id;
            o->workgroup[i] = 0;
        }
}

static kiln_result push_constants(reflect_ctx *c, spvc_resources res)
{
    kiln_shader_reflection *o = c->out;
    o->push_block = NONE;
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    if (spvc_resources_get_resource_list_for_type(res, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &list,
                                                  &n) != SPVC_SUCCESS ||
        n == 0)
        return KILN_OK;
    /* Vulkan allows one push-constant block per entry point. */
    kiln_result r = add_block(c, list[0].base_type_id, false, &o->push_block);
    if (r != KILN_OK) return r;
    const spvc_buffer_range *ranges = NULL;
    size_t rn = 0;
    size_t end = 0;
    if (spvc_compiler_get_active_buffer_ranges(c->comp, list[0].id, &ranges, &rn) == SPVC_SUCCESS)
        for (size_t i = 0; i < rn; i++)
            if (ranges[i].offset + ranges[i].range > end) end = ranges[i].offset + ranges[i].range;
    o->push_size = end > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)end;
    return KILN_OK;
}

static kiln_result reflect(reflect_ctx *c, const char *entry)
{
    kiln_shader_reflection *o = c->out;
    kiln_result r = select_entry(c, entry);
    if (r != KILN_OK) return r;
    workgroup(c);
    spvc_resources res = NULL;
    if (spvc_compiler_create_shader_resources(c->comp, &res) != SPVC_SUCCESS)
        return kiln_error_set(c->err, KILN_E_IMPORT_FAILED, "shader reflection: no resources");
    for (size_t k = 0; k < sizeof binding_kinds / sizeof binding_kinds[0]; k++) {
        const spvc_reflected_resource *list = NULL;
        size_t n = 0;
        if (spvc_resources_get_resource_list_for_type(res, binding_kinds[k], &list, &n) !=
            SPVC_SUCCESS)
            continue;
        for (size_t i = 0; i < n; i++)
            if ((r = add_binding(c, binding_kinds[k], &list[i])) != KILN_OK) return r;
    }
    if (o->binding_count > 1)
        qsort(o->bindings, o->binding_count, sizeof *o->bindings, cmp_binding);
    /* Blocks: the bindings' (in binding order), then the push constants, then nested structs. */
    for (uint32_t i = 0; i < o->binding_count; i++) {
        kiln_shader_binding *b = &o->bindings[i];
        if (b->block == NONE) continue;
        uint32_t index = NONE;
        r = add_block(c, b->block, b->resource == KILN_SHADER_UNIFORM_BUFFER, &index);
        if (r != KILN_OK) return r;
        b->block = index;
    }
    if ((r = push_constants(c, res)) != KILN_OK) return r;
    uint32_t top = o->block_count;
    for (uint32_t i = 0; i < top; i++) {
        /* the type ids of the top-level blocks are kept in block_types */
        if ((r = fill_block(c, i, c->block_types[i], 0)) != KILN_OK) return r;
    }
    static const spvc_resource_type io_kinds[2] = {SPVC_RESOURCE_TYPE_STAGE_INPUT,
                                                   SPVC_RESOURCE_TYPE_STAGE_OUTPUT};
    for (int k = 0; k < 2; k++) {
        const spvc_reflected_resource *list = NULL;
        size_t n = 0;
        if (spvc_resources_get_resource_list_for_type(res, io_kinds[k], &list, &n) != SPVC_SUCCESS)
            continue;
        for (size_t i = 0; i < n; i++)
            if ((r = add_io(c, &list[i], k == 0)) != KILN_OK) return r;
    }
    if ((r = add_constants(c)) != KILN_OK) return r;
    return KILN_OK;
}

/* Reallocates an array to exactly count elements (NULL for none); *cap follows. */
static kiln_result shrink(reflect_ctx *c, void **p, size_t *cap, size_t count, size_t elem)
{
    if (*cap == count) return KILN_OK;
    if (count == 0) {
        kiln_free(c->a, *p, *cap * elem);
        *p = NULL;
        *cap = 0;
        return KILN_OK;
    }
    void *q = kiln_realloc(c->a, *p, *cap * elem, count * elem);
    if (!q) return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "shader reflection: tables");
    *p = q;
    *cap = count;
    return KILN_OK;
}

kiln_result kiln_shader_reflect(const uint32_t *words, size_t count, const char *entry,
                                const kiln_allocator *a, kiln_shader_reflection *out,
                                kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "shader reflection: no output");
    memset(out, 0, sizeof *out);
    if (!words || count < 5)
        return kiln_error_set(err, KILN_E_USAGE, "shader reflection: %zu words", count);
    if (a) out->allocator = *a;
    reflect_ctx c;
    memset(&c, 0, sizeof c);
    c.a = &out->allocator;
    c.err = err;
    c.out = out;
    /* Offset 0 is "": the table starts with a NUL. */
    c.cap_strings = 256;
    out->strings = kiln_alloc(c.a, c.cap_strings);
    if (!out->strings) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader reflection: names");
    out->strings[0] = 0;
    out->strings_size = 1;

    spvc_context ctx = NULL;
    spvc_parsed_ir ir = NULL;
    kiln_result r = KILN_OK;
    if (spvc_context_create(&ctx) != SPVC_SUCCESS) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                           "shader reflection: SPIRV-Cross did not start");
    } else if (spvc_context_parse_spirv(ctx, words, count, &ir) != SPVC_SUCCESS ||
               spvc_context_create_compiler(ctx, SPVC_BACKEND_NONE, ir,
                                            SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                            &c.comp) != SPVC_SUCCESS) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "shader reflection: SPIRV-Cross: %s",
                           spvc_context_get_last_error_string(ctx));
    } else {
        r = reflect(&c, entry);
    }
    if (r == KILN_OK) {
        sort_io(out->inputs, out->input_count, out->strings);
        sort_io(out->outputs, out->output_count, out->strings);
    }
    if (ctx) spvc_context_destroy(ctx);
    kiln_free(c.a, c.block_types, c.cap_block_types * sizeof *c.block_types);
    /* Trim every array to its count (the sizes kiln_shader_reflection_free frees). */
    if (r == KILN_OK)
        r = shrink(&c, (void **)&out->bindings, &c.cap_bindings, out->binding_count,
                   sizeof *out->bindings);
    if (r == KILN_OK)
        r = shrink(&c, (void **)&out->blocks, &c.cap_blocks, out->block_count, sizeof *out->blocks);
    if (r == KILN_OK)
        r = shrink(&c, (void **)&out->members, &c.cap_members, out->member_count,
                   sizeof *out->members);
    if (r == KILN_OK)
        r = shrink(&c, (void **)&out->inputs, &c.cap_inputs, out->input_count, sizeof *out->inputs);
    if (r == KILN_OK)
        r = shrink(&c, (void **)&out->outputs, &c.cap_outputs, out->output_count,
                   sizeof *out->outputs);
    if (r == KILN_OK)
        r = shrink(&c, (void **)&out->constants, &c.cap_constants, out->constant_count,
                   sizeof *out->constants);
    if (r == KILN_OK) r = shrink(&c, (void **)&out->strings, &c.cap_strings, out->strings_size, 1);
    if (r != KILN_OK) {
        /* Free with the capacities (kiln_free takes the size that was allocated). */
        kiln_free(c.a, out->bindings, c.cap_bindings * sizeof *out->bindings);
        kiln_free(c.a, out->blocks, c.cap_blocks * sizeof *out->blocks);
        kiln_free(c.a, out->members, c.cap_members * sizeof *out->members);
        kiln_free(c.a, out->inputs, c.cap_inputs * sizeof *out->inputs);
        kiln_free(c.a, out->outputs, c.cap_outputs * sizeof *out->outputs);
        kiln_free(c.a, out->constants, c.cap_constants * sizeof *out->constants);
        kiln_free(c.a, out->strings, c.cap_strings);
        memset(out, 0, sizeof *out);
    }
    return r;
}
