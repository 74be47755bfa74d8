/* kv_renderer.c — kv as libkiln_rt's renderer: the callbacks it fills in. */
#include <string.h>

#include "kv_internal.h"
#include "kv_scene.h"

static bool supports_format(void *user, uint32_t vk_format)
{
    return kv_supports_format(user, vk_format);
}

void kv_renderer_fill(kv_context *ctx, krt_renderer *r, krt_renderer_shaders *s)
{
    memset(r, 0, sizeof *r);
    r->create_texture = kv_create_texture;
    r->destroy_texture = kv_destroy_texture;
    r->supports_format = supports_format;
    r->create_mesh = kv_create_mesh;
    r->destroy_mesh = kv_destroy_mesh;
    r->create_material = kv_create_material;
    r->destroy_material = kv_destroy_material;
    r->user = ctx;
    if (s) {
        memset(s, 0, sizeof *s);
        s->create_shader = kv_create_shader;
        s->destroy_shader = kv_destroy_shader;
    }
}
