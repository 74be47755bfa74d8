/* kv_texture.h — a texture's objects (kv_texture.c makes them, kv_quad.c samples them). */
#ifndef KV_TEXTURE_H
#define KV_TEXTURE_H

#include "kv_vk.h"

struct kv_texture {
    uint32_t vk_format; /* the kiln_vk_format uploaded (VkFormat value) */
    uint32_t width, height, level_count;
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view; /* every level */
};

#endif
