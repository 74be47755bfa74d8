/* kv_texture.h — a texture's objects (kv_texture.c makes them, kv_quad.c samples them). */
#ifndef KV_TEXTURE_H
#define KV_TEXTURE_H

#include "kv_vk.h"

struct kv_texture {
    uint32_t vk_format; /* the kiln_vk_format uploaded (VkFormat value) */
    uint32_t width, height, level_count;
    uint32_t shape;  /* kiln_texture_shape */
    uint32_t layers; /* array layers of the image: faces x layers (1 for 2D and volumes) */
    uint32_t depth;  /* slices of level 0 (1 unless a volume) */
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view; /* every level and layer, of the shape's view type */
};

/* The view type of a kiln_texture_shape: 2D, CUBE, 2D_ARRAY, CUBE_ARRAY, 3D. */
VkImageViewType kv_view_type_of_shape(uint32_t shape);

/* A 2D view of one array layer (a cube's face, an array's layer: face + 6 * layer for cube
 * arrays) with every level; the caller destroys it. Errors: KILN_E_USAGE (volumes, a layer
 * out of range), Vulkan failures. */
kiln_result kv_texture_layer_view(kv_context *ctx, const kv_texture *t, uint32_t layer,
                                  VkImageView *out, kiln_error *err);

#endif
