/* rt_fallback.c — the fallback texture and material (krt_desc.fallbacks): made once through
 * the renderer's create callbacks in the first krt_update (the renderer thread), handed out by
 * krt_gpu for textures and materials that are not ready, destroyed by krt_destroy. Their
 * callbacks get the 0 handle, which no asset ever has. */
#include <string.h>

#include "core/error.h"
#include "runtime/rt_context.h"

void krt_fallback_make(krt_context *c)
{
    const krt_renderer *rd = &c->desc.renderer;
    c->fb_made = true;
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
    krt_handle none = {0};
    kiln_error e;
    void *tex = NULL, *mat = NULL;
    bool tex_ok = false, mat_ok = false;
    if (rd->create_texture) {
        krt_texture_data t;
        memset(&t, 0, sizeof t);
        t.vk_format = KILN_VK_FORMAT_R8G8B8A8_SRGB;
        t.width = t.height = 4;
        t.level_count = 1;
        t.srgb = true;
        t.block_width = t.block_height = 1;
        t.block_size = 4;
        t.levels[0].data = c->fb_pixels;
        t.levels[0].size = t.levels[0].uncompressed_size = sizeof c->fb_pixels;
        t.levels[0].width = t.levels[0].height = 4;
        kiln_error_clear(&e);
        tex_ok = rd->create_texture(rd->user, none, &t, &tex, &e) == KILN_OK;
    }
    if (rd->create_material) {
        kiln_material m;
        memset(&m, 0, sizeof m);
        m.name = "kiln fallback";
        m.name_size = strlen(m.name);
        for (int k = 0; k < 4; k++) m.base_color[k] = 1.0f;
        m.metallic = 0.0f;
        m.roughness = 1.0f;
        m.emissive_strength = 1.0f;
        m.normal_scale = m.occlusion_strength = 1.0f;
        m.alpha_cutoff = 0.5f;
        for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
            m.textures[s].scale[0] = m.textures[s].scale[1] = 1.0f;
            m.textures[s].matrix[0] = m.textures[s].matrix[3] = 1.0f;
        }
        krt_material_data d;
        memset(&d, 0, sizeof d);
        d.material = &m;
        /* No asset behind it: the texture handle is 0, the object the fallback texture's. */
        d.texture_gpu[KILN_MATERIAL_SLOT_BASE_COLOR] = tex_ok ? tex : NULL;
        kiln_error_clear(&e);
        mat_ok = rd->create_material(rd->user, none, &d, &mat, &e) == KILN_OK;
    }
    pthread_mutex_lock(&c->mu);
    c->fb_texture = tex;
    c->fb_texture_ok = tex_ok;
    c->fb_material = mat;
    c->fb_material_ok = mat_ok;
    pthread_mutex_unlock(&c->mu);
}

void krt_fallback_destroy(krt_context *c)
{
    const krt_renderer *rd = &c->desc.renderer;
    krt_handle none = {0};
    if (c->fb_material_ok && rd->destroy_material) rd->destroy_material(rd->user, none, c->fb_material);
    if (c->fb_texture_ok && rd->destroy_texture) rd->destroy_texture(rd->user, none, c->fb_texture);
    c->fb_material_ok = c->fb_texture_ok = false;
    c->fb_material = c->fb_texture = NULL;
}
