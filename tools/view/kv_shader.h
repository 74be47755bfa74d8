/* kv_shader.h — a shader's objects (kv_shader.c makes them, kv_quad.c builds pipelines). */
#ifndef KV_SHADER_H
#define KV_SHADER_H

#include "kiln/kiln_format.h"
#include "kv_vk.h"

struct kv_shader {
    uint32_t stage;  /* kiln_shader_stage */
    char entry[128]; /* the entry point */
    uint32_t variant_count;
    uint32_t default_variant; /* "default" when present, else 0 */
    VkShaderModule *modules;  /* variant_count, in the cooked shader's order */
};

#endif
