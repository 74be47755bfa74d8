/* kv_target.c — the offscreen target: an R8G8B8A8_SRGB colour image and a D32_SFLOAT depth image
 * (D24S8 when the device lacks it), their render pass and framebuffer, and read-back of the
 * colour image into memory. The render pass leaves the colour image in TRANSFER_SRC_OPTIMAL. */
#include <string.h>

#include "kv_internal.h"
#include "kv_target.h"

static kiln_result make_image(kv_context *ctx, VkFormat format, uint32_t w, uint32_t h,
                              VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage *image,
                              VkDeviceMemory *memory, VkImageView *view, kiln_error *err)
{
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = {w, h, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkResult r = ctx->vk.vkCreateImage(ctx->device, &info, NULL, image);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateImage (target)");
    kiln_result k = kv_image_memory(ctx, *image, memory, err);
    if (k) return k;
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = *image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = {aspect, 0, 1, 0, 1},
    };
    r = ctx->vk.vkCreateImageView(ctx->device, &vi, NULL, view);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateImageView (target)");
    return KILN_OK;
}

static VkFormat depth_format(kv_context *ctx)
{
    const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT,
                                   VK_FORMAT_D16_UNORM};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        VkFormatProperties p;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, candidates[i], &p);
        if (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
            return candidates[i];
    }
    return VK_FORMAT_UNDEFINED;
}

static kiln_result make_pass(kv_context *ctx, kv_target *t, kiln_error *err)
{
    VkAttachmentDescription att[2] = {
        {
            .format = KV_TARGET_COLOR_FORMAT,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        },
        {
            .format = t->depth_format,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        },
    };
    VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color,
        .pDepthStencilAttachment = &depth,
    };
    /* The copy that reads the colour image back waits for the pass's writes. */
    VkSubpassDependency dep = {
        .srcSubpass = 0,
        .dstSubpass = VK_SUBPASS_EXTERNAL,
        .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
    };
    VkRenderPassCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = 2,
        .pAttachments = att,
        .subpassCount = 1,
        .pSubpasses = &sub,
        .dependencyCount = 1,
        .pDependencies = &dep,
    };
    VkResult r = ctx->vk.vkCreateRenderPass(ctx->device, &info, NULL, &t->pass);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateRenderPass");
    VkImageView views[2] = {t->color_view, t->depth_view};
    VkFramebufferCreateInfo fb = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = t->pass,
        .attachmentCount = 2,
        .pAttachments = views,
        .width = t->width,
        .height = t->height,
        .layers = 1,
    };
    r = ctx->vk.vkCreateFramebuffer(ctx->device, &fb, NULL, &t->framebuffer);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateFramebuffer");
    return KILN_OK;
}

kiln_result kv_target_create(kv_context *ctx, uint32_t width, uint32_t height, kv_target **out,
                             kiln_error *err)
{
    *out = NULL;
    uint32_t max = ctx->properties.limits.maxFramebufferWidth;
    if (width == 0 || height == 0 || width > max ||
        height > ctx->properties.limits.maxFramebufferHeight)
        return kv_error(err, KILN_E_USAGE, "kv_target_create: %ux%u is outside 1..%u", width,
                        height, max);
    kv_target *t = kv_calloc(ctx, sizeof *t);
    if (!t) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    t->width = width;
    t->height = height;
    t->depth_format = depth_format(ctx);
    kiln_result k = KILN_OK;
    if (t->depth_format == VK_FORMAT_UNDEFINED)
        k = kv_error(err, KV_E_UNAVAILABLE, "vulkan: the device has no depth attachment format");
    if (!k)
        k = make_image(ctx, KV_TARGET_COLOR_FORMAT, width, height,
                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                       VK_IMAGE_ASPECT_COLOR_BIT, &t->color, &t->color_memory, &t->color_view, err);
    if (!k)
        k = make_image(ctx, t->depth_format, width, height,
                       VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
                       &t->depth, &t->depth_memory, &t->depth_view, err);
    if (!k) k = make_pass(ctx, t, err);
    if (k) {
        kv_target_destroy(ctx, t);
        return k;
    }
    *out = t;
    return KILN_OK;
}

void kv_target_destroy(kv_context *ctx, kv_target *t)
{
    if (!t) return;
    VkDevice d = ctx->device;
    ctx->vk.vkDeviceWaitIdle(d);
    if (t->framebuffer) ctx->vk.vkDestroyFramebuffer(d, t->framebuffer, NULL);
    if (t->pass) ctx->vk.vkDestroyRenderPass(d, t->pass, NULL);
    if (t->color_view) ctx->vk.vkDestroyImageView(d, t->color_view, NULL);
    if (t->depth_view) ctx->vk.vkDestroyImageView(d, t->depth_view, NULL);
    if (t->color) ctx->vk.vkDestroyImage(d, t->color, NULL);
    if (t->depth) ctx->vk.vkDestroyImage(d, t->depth, NULL);
    if (t->color_memory) ctx->vk.vkFreeMemory(d, t->color_memory, NULL);
    if (t->depth_memory) ctx->vk.vkFreeMemory(d, t->depth_memory, NULL);
    kv_free(ctx, t, sizeof *t);
}

void kv_target_size(const kv_target *t, uint32_t *width, uint32_t *height)
{
    *width = t->width;
    *height = t->height;
}

kiln_result kv_target_read(kv_context *ctx, kv_target *t, uint8_t *rgba, size_t size,
                           kiln_error *err)
{
    size_t need = (size_t)t->width * t->height * 4;
    if (size < need)
        return kv_error(err, KILN_E_USAGE, "kv_target_read: %zu bytes, %zu needed", size, need);
    if (!t->drawn)
        return kv_error(err, KILN_E_USAGE, "kv_target_read: nothing was drawn into the target");
    kv_buffer buf;
    kiln_result k = kv_buffer_create(ctx, need, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &buf, err);
    if (k) return k;
    VkCommandBuffer cmd;
    k = kv_once_begin(ctx, &cmd, err);
    if (!k) {
        VkBufferImageCopy region = {
            .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .imageExtent = {t->width, t->height, 1},
        };
        ctx->vk.vkCmdCopyImageToBuffer(cmd, t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                       buf.buffer, 1, &region);
        VkMemoryBarrier host = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        };
        ctx->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0, NULL);
        k = kv_once_end(ctx, cmd, true, err);
    }
    if (!k) memcpy(rgba, buf.mapped, need);
    kv_buffer_destroy(ctx, &buf);
    return k;
}
