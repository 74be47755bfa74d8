/* rt_type_typed_material.c — the typed material type: container TMAT (a .kmat cooked against its
 * shaders) decoded into krt_typed_material_data, linked to its two shaders and to the texture of
 * every sampled-image binding, handed to the renderer's *_typed_material callbacks
 * (krt_desc.renderer_shaders), and its parameter block written into the material block table
 * (rt_block_table.c).
 *
 * The kind's refs list the vertex shader, the fragment shader, then each binding's texture with
 * KILN_REF_ONCE (an image bound twice loads once), so dec.deps holds the two shaders and then the
 * distinct textures in the order of their first binding; link maps each binding back to its
 * texture by asset id. Shaders and textures set KRT_TYPE_OPS_REBUILD_DEPENDENTS: when one of
 * them reloads, the runtime calls link_gpu here again (the variant records and the objects are
 * the reloaded asset's) and then replace_typed_material. */
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_typed_material_decoded *m = &a->data.typed_material;
    kiln_result r =
        krt_type_typed_material.kind->read(a->dec.file, a->dec.file_size, x->flags, &m->view, err);
    if (r) return r;
    uint32_t n = m->view.material.texture_count; /* <= KILN_TYPED_MATERIAL_MAX_TEXTURES */
    if (n) {
        size_t per = sizeof(krt_handle) + sizeof(void *);
        m->block = kiln_calloc(x->alloc, n, per);
        if (!m->block)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                  "out of memory for %u texture bindings", n);
        m->block_size = (size_t)n * per;
        a->dec.resident += m->block_size;
    }
    m->data.view = &m->view;
    m->data.texture_count = n;
    m->data.textures = (const krt_handle *)(void *)m->block;
    m->data.texture_gpu = n ? (void *const *)(void *)(m->block + n * sizeof(krt_handle)) : NULL;
    return KILN_OK;
}

static const void *view(const krt_asset *a) { return &a->data.typed_material.view; }

static void link(krt_asset *a)
{
    krt_typed_material_decoded *m = &a->data.typed_material;
    const krt_decoded *d = &a->dec;
    m->data.vertex = d->dep_count > 0 ? d->deps[0] : (krt_handle){0};
    m->data.fragment = d->dep_count > 1 ? d->deps[1] : (krt_handle){0};
    krt_handle *textures = (krt_handle *)(void *)m->block;
    for (uint32_t i = 0; i < m->data.texture_count; i++) {
        uint64_t id = kiln_typed_material_texture_at(&m->view, i).image;
        textures[i] = (krt_handle){0};
        for (size_t k = 2; k < d->dep_count; k++)
            if (d->dep_ids[k] == id) {
                textures[i] = d->deps[k];
                break;
            }
    }
}

static void free_block(krt_asset *a, const kiln_allocator *al)
{
    kiln_free(al, a->data.typed_material.block, a->data.typed_material.block_size);
}

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_typed_material_decoded, a->data.typed_material, b->data.typed_material);
    /* the record points at the view beside it */
    if (a->data.typed_material.data.view)
        a->data.typed_material.data.view = &a->data.typed_material.view;
    if (b->data.typed_material.data.view)
        b->data.typed_material.data.view = &b->data.typed_material.view;
}

/* The variant a stage names, in its shader's current data (NULL when the shader is not ready,
 * is of another stage, or has no variant of that name: create and replace then fail). */
static const krt_shader_variant *stage_variant(krt_context *c, krt_handle h, const char *name,
                                               uint32_t stage, void **gpu)
{
    const krt_asset *s = h.id ? krt_resolve_locked(c, h) : NULL;
    *gpu = s ? s->gpu : NULL;
    if (!s || s->phase != KRT_PHASE_READY || s->data.shader.view.stage != stage) return NULL;
    int32_t k = kiln_shader_find_variant(&s->data.shader.view, name);
    return k < 0 ? NULL : &s->data.shader.data.variants[k];
}

static void link_gpu(krt_context *c, krt_asset *a)
{
    krt_typed_material_decoded *m = &a->data.typed_material;
    const kiln_typed_material *t = &m->view.material;
    m->data.vertex_variant = stage_variant(c, m->data.vertex, t->vertex.variant, KILN_SHADER_VERTEX,
                                           &m->data.vertex_gpu);
    m->data.fragment_variant = stage_variant(c, m->data.fragment, t->fragment.variant,
                                             KILN_SHADER_FRAGMENT, &m->data.fragment_gpu);
    void **gpu = (void **)(void *)(m->block + m->data.texture_count * sizeof(krt_handle));
    for (uint32_t i = 0; i < m->data.texture_count; i++) {
        const krt_asset *x =
            m->data.textures[i].id ? krt_resolve_locked(c, m->data.textures[i]) : NULL;
        gpu[i] = x ? x->gpu : NULL;
    }
}

/* A stage whose shader lacks the variant: the material was cooked against other shader data
 * than is loaded now (a shader reloaded before its materials were cooked again). */
static kiln_result check_stages(const krt_typed_material_data *d, kiln_error *err)
{
    const kiln_typed_material *t = &d->view->material;
    if (!d->vertex_variant)
        return kiln_error_set(err, KILN_E_USAGE,
                              "its vertex shader %016llx has no vertex variant \"%s\" (cook the "
                              "material again against the shader)",
                              (unsigned long long)t->vertex.shader, t->vertex.variant);
    if (!d->fragment_variant)
        return kiln_error_set(err, KILN_E_USAGE,
                              "its fragment shader %016llx has no fragment variant \"%s\" (cook "
                              "the material again against the shader)",
                              (unsigned long long)t->fragment.shader, t->fragment.variant);
    return KILN_OK;
}

static kiln_result create(krt_context *c, krt_handle h, const krt_asset *a, void **gpu, bool *made,
                          kiln_error *err)
{
    const krt_typed_material_data *d = &a->data.typed_material.data;
    kiln_result r = check_stages(d, err);
    if (r || !c->desc.renderer_shaders.create_typed_material) return r;
    *made = true;
    return c->desc.renderer_shaders.create_typed_material(c->desc.renderer.user, h, d, gpu, err);
}

static kiln_result replace(krt_context *c, krt_handle h, const krt_asset *a, void **gpu,
                           bool *replaced, kiln_error *err)
{
    const krt_typed_material_data *d = &a->data.typed_material.data;
    kiln_result r = check_stages(d, err);
    if (r || !c->desc.renderer_shaders.replace_typed_material) return r;
    *replaced = true;
    return c->desc.renderer_shaders.replace_typed_material(c->desc.renderer.user, h, d, gpu, err);
}

static void destroy(krt_context *c, const krt_type_ops *t, krt_handle h, void *gpu)
{
    (void)t;
    if (c->desc.renderer_shaders.destroy_typed_material)
        c->desc.renderer_shaders.destroy_typed_material(c->desc.renderer.user, h, gpu);
}

static const uint8_t *table_block(const krt_asset *a, uint32_t *size)
{
    const kiln_typed_material *t = &a->data.typed_material.view.material;
    *size = t->block ? t->block_size : 0;
    return t->block;
}

const krt_type_ops krt_type_typed_material = {
    .kind = &kiln_cooked_kind_typed_material,
    .decode = decode,
    .view = view,
    .link = link,
    .free = free_block,
    .swap = swap,
    .create = create,
    .replace = replace,
    .destroy = destroy,
    .link_gpu = link_gpu,
    .table_block = table_block,
};

KRT_TYPE_API(typed_material, KRT_TYPE_TYPED_MATERIAL, krt_typed_material_data,
             a->data.typed_material.data)
