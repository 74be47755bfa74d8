/* cooked_typed_material.c — the typed material kind: container TMAT (typed_material_read.c),
 * label "typed_material" ("material" is the glTF material's, MATL: a label names one kind). It
 * is loaded with its vertex and fragment shaders, then the texture of every binding, in binding
 * order; inspect describes the stages, the parameter block (its bytes in hex, as the GPU reads
 * them), the render state and the textures with their samplers. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_typed_material_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_typed_material_view *v = view;
    const kiln_typed_material *m = &v->material;
    kiln_result r = fn(user, m->vertex.shader, KILN_SHADER_KIND, KILN_REF_LOAD, err);
    if (r == KILN_OK) r = fn(user, m->fragment.shader, KILN_SHADER_KIND, KILN_REF_LOAD, err);
    /* One image may be bound at several bindings: it counts once. */
    for (uint32_t i = 0; i < m->texture_count && r == KILN_OK; i++)
        r = fn(user, kiln_typed_material_texture_at(v, i).image, KILN_PACK_KIND_KTX2,
               KILN_REF_LOAD | KILN_REF_ONCE, err);
    return r;
}

static const char *const block_kinds[] = {"none", "uniform", "push"};
static const char *const alpha_names[] = {"opaque", "mask", "blend"};
static const char *const blend_names[] = {"none", "alpha", "premultiplied", "additive"};
static const char *const filter_names[] = {"default", "nearest", "linear"};
static const char *const wrap_names[] = {"repeat", "clamp", "mirror"};

#define NAME(v, table) kiln_describe_name(v, table, sizeof table / sizeof table[0])

static void describe_stage(kiln_describe *d, const char *key, const kiln_typed_material_stage *s)
{
    kiln_describe_object(d, key);
    kiln_describe_id(d, "shader", s->shader);
    kiln_describe_cstring(d, "variant", s->variant);
    kiln_describe_end(d);
}

/* The block's bytes as lowercase hex, 16 bytes (32 digits) a string, in file order. */
static void describe_hex(kiln_describe *d, const char *key, const uint8_t *bytes, uint32_t size)
{
    static const char digits[] = "0123456789abcdef";
    kiln_describe_array(d, key);
    for (uint32_t row = 0; row < size; row += 16) {
        char line[32];
        uint32_t n = size - row < 16 ? size - row : 16;
        for (uint32_t i = 0; i < n; i++) {
            line[2 * i] = digits[bytes[row + i] >> 4];
            line[2 * i + 1] = digits[bytes[row + i] & 15];
        }
        kiln_describe_string(d, NULL, line, 2 * (size_t)n);
    }
    kiln_describe_end(d);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_typed_material_view *v = view;
    const kiln_typed_material *m = &v->material;
    kiln_describe_cstring(d, "name", m->name);
    describe_stage(d, "vertex", &m->vertex);
    describe_stage(d, "fragment", &m->fragment);
    if (m->block_kind == KILN_TYPED_BLOCK_NONE) {
        kiln_describe_null(d, "block");
    } else {
        kiln_describe_object(d, "block");
        kiln_describe_cstring(d, "kind", NAME(m->block_kind, block_kinds));
        kiln_describe_int(d, "set", m->block_set);
        kiln_describe_int(d, "binding", m->block_binding);
        kiln_describe_cstring(d, "name", m->block_name);
        kiln_describe_int(d, "size", m->block_size);
        describe_hex(d, "hex", m->block, m->block_size);
        kiln_describe_end(d);
    }
    kiln_describe_cstring(d, "alpha_mode", NAME(m->alpha_mode, alpha_names));
    kiln_describe_float(d, "alpha_cutoff", m->alpha_cutoff);
    kiln_describe_cstring(d, "blend", NAME(m->blend, blend_names));
    kiln_describe_bool(d, "double_sided", m->flags & KILN_TYPED_MATERIAL_DOUBLE_SIDED);
    kiln_describe_bool(d, "depth_test", m->flags & KILN_TYPED_MATERIAL_DEPTH_TEST);
    kiln_describe_bool(d, "depth_write", m->flags & KILN_TYPED_MATERIAL_DEPTH_WRITE);
    kiln_describe_array(d, "textures");
    for (uint32_t i = 0; i < m->texture_count; i++) {
        kiln_typed_material_texture t = kiln_typed_material_texture_at(v, i);
        kiln_describe_object(d, NULL);
        kiln_describe_cstring(d, "name", t.name);
        kiln_describe_int(d, "set", t.set);
        kiln_describe_int(d, "binding", t.binding);
        kiln_describe_id(d, "image", t.image);
        kiln_describe_cstring(d, "mag_filter", NAME(t.mag_filter, filter_names));
        kiln_describe_cstring(d, "min_filter", NAME(t.min_filter, filter_names));
        kiln_describe_cstring(d, "mip_filter", NAME(t.mip_filter, filter_names));
        kiln_describe_cstring(d, "wrap_s", NAME(t.wrap_s, wrap_names));
        kiln_describe_cstring(d, "wrap_t", NAME(t.wrap_t, wrap_names));
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static const char *const labels[] = {"typed_material", NULL};

const kiln_cooked_kind kiln_cooked_kind_typed_material = {
    .name = "typed_material",
    .fourcc = KILN_TYPED_MATERIAL_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_typed_material_view),
    .read = read,
    .refs = refs,
    .describe = describe,
};
