/* kv_target.h — the offscreen target's members (kv_target.c makes it, kv_quad.c draws into it). */
#ifndef KV_TARGET_H
#define KV_TARGET_H

#include "kv_vk.h"

#define KV_TARGET_COLOR_FORMAT VK_FORMAT_R8G8B8A8_SRGB

struct kv_target {
    uint32_t width, height;
    VkFormat depth_format;
    VkImage color, depth;
    VkDeviceMemory color_memory, depth_memory;
    VkImageView color_view, depth_view;
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    bool drawn; /* a pass ran: the colour image is in TRANSFER_SRC_OPTIMAL */
};

#endif
