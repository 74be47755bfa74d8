/* rt_type_material.c — the material type: container MATL (the material cooked kind) decoded
 * into krt_material_data, linked to the textures of its slots and to their GPU objects, handed
 * to the renderer's *_material callbacks, and written into the GPU material table
 * (rt_material_table.c keeps the table; the record's values come from here). The fallback
 * material stands in while one is not ready. */
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/error.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_material_decoded *m = &a->data.material;
    kiln_result r =
        krt_type_material.kind->read(a->dec.file, a->dec.file_size, x->flags, &m->view, err);
    m->data.material = &m->view.material;
    return r;
}

static const void *view(const krt_asset *a) { return &a->data.material.view; }

/* The kind lists the textures of the slots that have one, in slot order: the core slots, then
 * the extensions'. */
static void link(krt_asset *a)
{
    krt_material_decoded *m = &a->data.material;
    size_t k = 0;
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++)
        if (m->view.material.textures[s].image && k < a->dec.dep_count)
            m->data.textures[s] = a->dec.deps[k++];
    for (int s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT; s++)
        if (m->view.material.ext_textures[s].image && k < a->dec.dep_count)
            m->data.ext_textures[s] = a->dec.deps[k++];
}

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_material_decoded, a->data.material, b->data.material);
    /* the record points into the view beside it */
    if (a->data.material.data.material)
        a->data.material.data.material = &a->data.material.view.material;
    if (b->data.material.data.material)
        b->data.material.data.material = &b->data.material.view.material;
}

KRT_TYPE_RENDERER_OPS(material)

/* texture_gpu from its textures' objects (NULL for a texture with none). */
static void link_gpu(krt_context *c, krt_asset *a)
{
    krt_material_data *m = &a->data.material.data;
    for (int k = 0; k < KILN_MATERIAL_SLOT_COUNT; k++) {
        const krt_asset *t = m->textures[k].id ? krt_resolve_locked(c, m->textures[k]) : NULL;
        m->texture_gpu[k] = t ? t->gpu : NULL;
    }
    for (int k = 0; k < KILN_MATERIAL_EXT_SLOT_COUNT; k++) {
        const krt_asset *t =
            m->ext_textures[k].id ? krt_resolve_locked(c, m->ext_textures[k]) : NULL;
        m->ext_texture_gpu[k] = t ? t->gpu : NULL;
    }
}

static void table_record(const krt_asset *a, krt_gpu_material *r)
{
    const kiln_material *m = a->data.material.data.material;
    memset(r, 0, sizeof *r);
    memcpy(r->base_color, m->base_color, sizeof r->base_color);
    memcpy(r->emissive, m->emissive, sizeof r->emissive);
    r->emissive_strength = m->emissive_strength;
    r->metallic = m->metallic;
    r->roughness = m->roughness;
    r->normal_scale = m->normal_scale;
    r->occlusion_strength = m->occlusion_strength;
    r->alpha_cutoff = m->alpha_cutoff;
    r->flags = (m->alpha_mode & KRT_GPU_MATERIAL_ALPHA_MODE) | KRT_GPU_MATERIAL_LIVE |
               (m->double_sided ? KRT_GPU_MATERIAL_DOUBLE_SIDED : 0) |
               (m->unlit ? KRT_GPU_MATERIAL_UNLIT : 0);
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kiln_material_texture *t = &m->textures[s];
        krt_handle h = a->data.material.data.textures[s];
        r->textures[s] = h.id ? krt_handle_slot(h) : KRT_INVALID_INDEX;
        r->texcoords |= (t->texcoord & 0xFu) << (4 * s);
        uint32_t smp = (t->mag_filter & 3u) | (t->min_filter & 3u) << 2 |
                       (t->mip_filter & 3u) << 4 | (t->mipmaps ? 1u << 6 : 0) |
                       (t->wrap_s & 3u) << 8 | (t->wrap_t & 3u) << 10 |
                       (t->has_transform ? 1u << 12 : 0);
        r->samplers[s / 2] |= smp << (16 * (s % 2));
        if (t->image) memcpy(r->uv_transforms[s], t->matrix, sizeof t->matrix);
        else r->uv_transforms[s][0] = r->uv_transforms[s][3] = 1.0f;
    }
}

static void *fallback_gpu(const krt_context *c)
{
    return c->fb_material_ok ? c->fb_material : NULL;
}

const krt_type_ops krt_type_material = {
    .kind = &kiln_cooked_kind_material,
    .decode = decode,
    .view = view,
    .link = link,
    .swap = swap,
    .create = create,
    .replace = replace,
    .destroy = destroy,
    .link_gpu = link_gpu,
    .table_record = table_record,
    .fallback_gpu = fallback_gpu,
};

KRT_TYPE_API(material, KRT_TYPE_MATERIAL, krt_material_data, a->data.material.data)
