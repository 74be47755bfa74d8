/* rt_fallback.c — the fallback texture and material (krt_desc.fallbacks): made through the
 * renderer's create callbacks by krt_update (the renderer thread), the first call and every
 * later one until each is made (a create that fails is tried again at the next update), handed
 * out by krt_gpu for textures and materials that are not ready, destroyed by krt_destroy. Their
 * callbacks get the 0 handle, which no asset ever has. */
#include <string.h>

#include "core/error.h"
#include "runtime/rt_context.h"

static void fill_texture(krt_context *c, krt_texture_data *t)
{
    /* 4x4 magenta and white checks: visible on purpose, so a missing texture is noticed */
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            uint8_t *p = c->fb_pixels + 4 * (4 * y + x);
            bool magenta = ((x ^ y) & 1) != 0;
            p[0] = 255;
            p[1] = magenta ? 0 : 255;
            p[2] = 255;
            p[3] = 255;
        }
    memset(t, 0, sizeof *t);
    t->vk_format = KILN_VK_FORMAT_R8G8B8A8_SRGB;
    t->width = t->height = 4;
    t->level_count = 1;
    t->srgb = true;
    t->block_width = t->block_height = 1;
    t->block_size = 4;
    t->levels[0].data = c->fb_pixels;
    t->levels[0].size = t->levels[0].uncompressed_size = sizeof c->fb_pixels;
    t->levels[0].width = t->levels[0].height = 4;
}

/* Default factors; the fallback texture (tex, may be NULL) as base colour. No asset behind it:
 * the texture handle is 0. */
static void fill_material(kiln_material *m, krt_material_data *d, void *tex)
{
    memset(m, 0, sizeof *m);
    m->name = "kiln fallback";
    m->name_size = strlen(m->name);
    for (int k = 0; k < 4; k++) m->base_color[k] = 1.0f;
    m->metallic = 0.0f;
    m->roughness = 1.0f;
    m->emissive_strength = 1.0f;
    m->normal_scale = m->occlusion_strength = 1.0f;
    m->alpha_cutoff = 0.5f;
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        m->textures[s].scale[0] = m->textures[s].scale[1] = 1.0f;
        m->textures[s].matrix[0] = m->textures[s].matrix[3] = 1.0f;
    }
    kiln_material_ext_defaults(&m->ext); /* no extensions */
    memset(d, 0, sizeof *d);
    d->material = m;
    d->texture_gpu[KILN_MATERIAL_SLOT_BASE_COLOR] = tex;
}

void krt_fallback_make(krt_context *c)
{
    const krt_renderer *rd = &c->desc.renderer;
    krt_handle none = {0};
    kiln_error e;
    /* Only this thread writes the fb_* fields; krt_gpu reads them under the lock. */
    if (!c->fb_texture_ok && rd->create_texture) {
        krt_texture_data t;
        fill_texture(c, &t);
        void *tex = NULL;
        kiln_error_clear(&e);
        if (rd->create_texture(rd->user, none, &t, &tex, &e) == KILN_OK) {
            pthread_mutex_lock(&c->mu);
            c->fb_texture = tex;
            c->fb_texture_ok = true;
            pthread_mutex_unlock(&c->mu);
        }
    }
    void *tex = c->fb_texture_ok ? c->fb_texture : NULL;
    if (rd->create_material && (!c->fb_material_ok || (tex && !c->fb_material_textured))) {
        kiln_material m;
        krt_material_data d;
        fill_material(&m, &d, tex);
        void *mat = c->fb_material, *old = c->fb_material;
        /* made before the texture was: replaced, or made again and the old one destroyed */
        bool replace = c->fb_material_ok && rd->replace_material;
        bool recreate = c->fb_material_ok && !replace;
        kiln_error_clear(&e);
        kiln_result r;
        if (replace) {
            r = rd->replace_material(rd->user, none, &d, &mat, &e);
        } else {
            mat = NULL;
            r = rd->create_material(rd->user, none, &d, &mat, &e);
        }
        if (r == KILN_OK) {
            pthread_mutex_lock(&c->mu);
            c->fb_material = mat;
            c->fb_material_ok = true;
            c->fb_material_textured = tex != NULL;
            pthread_mutex_unlock(&c->mu);
            if (recreate && rd->destroy_material) rd->destroy_material(rd->user, none, old);
        }
    }
    bool material_done = c->fb_material_ok && (c->fb_material_textured || !rd->create_texture);
    c->fb_made =
        (c->fb_texture_ok || !rd->create_texture) && (material_done || !rd->create_material);
}

void krt_fallback_destroy(krt_context *c)
{
    const krt_renderer *rd = &c->desc.renderer;
    krt_handle none = {0};
    if (c->fb_material_ok && rd->destroy_material)
        rd->destroy_material(rd->user, none, c->fb_material);
    if (c->fb_texture_ok && rd->destroy_texture) rd->destroy_texture(rd->user, none, c->fb_texture);
    c->fb_material_ok = c->fb_texture_ok = false;
    c->fb_material = c->fb_texture = NULL;
}
