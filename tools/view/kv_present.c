/* kv_present.c — a window's swapchain for kiln view: the target is drawn as in the headless
 * case, then blitted into the next swapchain image (any size and format the surface offers:
 * vkCmdBlitImage scales and converts) and presented. One frame at a time: the queue is idle
 * after each present, which a viewer of cooked assets can afford. The WSI entry points are
 * loaded here, only for a context made with presentation. */
#include <string.h>

#include "kv_internal.h"
#include "kv_target.h"

#define KV_WSI_INSTANCE(X)                                                                         \
    X(vkDestroySurfaceKHR)                                                                         \
    X(vkGetPhysicalDeviceSurfaceSupportKHR)                                                        \
    X(vkGetPhysicalDeviceSurfaceCapabilitiesKHR)                                                   \
    X(vkGetPhysicalDeviceSurfaceFormatsKHR)
#define KV_WSI_DEVICE(X)                                                                           \
    X(vkCreateSwapchainKHR)                                                                        \
    X(vkDestroySwapchainKHR)                                                                       \
    X(vkGetSwapchainImagesKHR)                                                                     \
    X(vkAcquireNextImageKHR)                                                                       \
    X(vkQueuePresentKHR)                                                                           \
    X(vkCreateSemaphore)                                                                           \
    X(vkDestroySemaphore)                                                                          \
    X(vkCmdBlitImage)

#define KV_MAX_IMAGES 8

struct kv_swapchain {
#define KV_MEMBER(fn) PFN_##fn fn;
    KV_WSI_INSTANCE(KV_MEMBER)
    KV_WSI_DEVICE(KV_MEMBER)
#undef KV_MEMBER
    VkSurfaceKHR surface;
    VkSwapchainKHR swapchain;
    VkFormat format;
    uint32_t width, height;
    uint32_t image_count;
    VkImage images[KV_MAX_IMAGES];
    VkSemaphore acquired, rendered;
};

void *kv_instance(const kv_context *ctx) { return (void *)ctx->instance; }

void kv_swapchain_size(const kv_swapchain *sc, uint32_t *width, uint32_t *height)
{
    *width = sc->width;
    *height = sc->height;
}

static kiln_result build(kv_context *ctx, kv_swapchain *sc, uint32_t width, uint32_t height,
                         kiln_error *err)
{
    VkSurfaceCapabilitiesKHR caps;
    VkResult r = sc->vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx->physical, sc->surface, &caps);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        return kv_error(err, KV_E_UNAVAILABLE, "vulkan: the surface's images take no transfers");
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) extent = (VkExtent2D){width, height};
    if (extent.width < caps.minImageExtent.width) extent.width = caps.minImageExtent.width;
    if (extent.height < caps.minImageExtent.height) extent.height = caps.minImageExtent.height;
    if (extent.width > caps.maxImageExtent.width) extent.width = caps.maxImageExtent.width;
    if (extent.height > caps.maxImageExtent.height) extent.height = caps.maxImageExtent.height;
    uint32_t n = 0;
    sc->vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical, sc->surface, &n, NULL);
    VkSurfaceFormatKHR formats[32];
    if (n > 32) n = 32;
    r = sc->vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical, sc->surface, &n, formats);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
        return kv_error(err, KV_E_UNAVAILABLE, "vulkan: the surface offers no format");
    VkSurfaceFormatKHR chosen = formats[0]; /* an sRGB one when offered: the target is sRGB */
    for (uint32_t i = 0; i < n; i++)
        if (formats[i].format == VK_FORMAT_B8G8R8A8_SRGB ||
            formats[i].format == VK_FORMAT_R8G8B8A8_SRGB) {
            chosen = formats[i];
            break;
        }
    uint32_t images = caps.minImageCount + 1;
    if (caps.maxImageCount && images > caps.maxImageCount) images = caps.maxImageCount;
    VkSwapchainKHR old = sc->swapchain;
    VkSwapchainCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = sc->surface,
        .minImageCount = images,
        .imageFormat = chosen.format,
        .imageColorSpace = chosen.colorSpace,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                              ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                              : (VkCompositeAlphaFlagBitsKHR)caps.supportedCompositeAlpha,
        .presentMode = VK_PRESENT_MODE_FIFO_KHR, /* always offered */
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    r = sc->vkCreateSwapchainKHR(ctx->device, &info, NULL, &sc->swapchain);
    if (old) sc->vkDestroySwapchainKHR(ctx->device, old, NULL);
    if (r != VK_SUCCESS) {
        sc->swapchain = VK_NULL_HANDLE;
        return kv_vk_fail(err, r, "vkCreateSwapchainKHR");
    }
    sc->format = chosen.format;
    sc->width = extent.width;
    sc->height = extent.height;
    sc->image_count = KV_MAX_IMAGES;
    r = sc->vkGetSwapchainImagesKHR(ctx->device, sc->swapchain, &sc->image_count, sc->images);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) return kv_vk_fail(err, r, "vkGetSwapchainImagesKHR");
    return KILN_OK;
}

kiln_result kv_swapchain_create(kv_context *ctx, uint64_t surface, uint32_t width, uint32_t height,
                                kv_swapchain **out, kiln_error *err)
{
    *out = NULL;
    if (!ctx->presentation)
        return kv_error(err, KILN_E_USAGE, "kv_swapchain_create: a headless context");
    kv_swapchain *sc = kv_calloc(ctx, sizeof *sc);
    if (!sc) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    sc->surface = (VkSurfaceKHR)surface;
    kiln_result k = KILN_OK;
#define KV_LOAD(fn)                                                                                \
    sc->fn = (PFN_##fn)ctx->vk.vkGetInstanceProcAddr(ctx->instance, #fn);                          \
    if (!sc->fn && !k) k = kv_error(err, KV_E_UNAVAILABLE, "vulkan: the instance lacks %s", #fn);
    KV_WSI_INSTANCE(KV_LOAD)
#undef KV_LOAD
#define KV_LOAD(fn)                                                                                \
    sc->fn = (PFN_##fn)ctx->vk.vkGetDeviceProcAddr(ctx->device, #fn);                              \
    if (!sc->fn && !k) k = kv_error(err, KV_E_UNAVAILABLE, "vulkan: the device lacks %s", #fn);
    KV_WSI_DEVICE(KV_LOAD)
#undef KV_LOAD
    VkBool32 can = VK_FALSE;
    if (!k) {
        sc->vkGetPhysicalDeviceSurfaceSupportKHR(ctx->physical, ctx->queue_family, sc->surface,
                                                 &can);
        if (!can) k = kv_error(err, KILN_E_USAGE, "vulkan: the queue cannot present to the window");
    }
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    if (!k && (sc->vkCreateSemaphore(ctx->device, &si, NULL, &sc->acquired) != VK_SUCCESS ||
               sc->vkCreateSemaphore(ctx->device, &si, NULL, &sc->rendered) != VK_SUCCESS))
        k = kv_error(err, KILN_E_INTERNAL, "vulkan: vkCreateSemaphore failed");
    if (!k) k = build(ctx, sc, width, height, err);
    if (k) {
        kv_swapchain_destroy(ctx, sc);
        return k;
    }
    *out = sc;
    return KILN_OK;
}

void kv_swapchain_destroy(kv_context *ctx, kv_swapchain *sc)
{
    if (!sc) return;
    ctx->vk.vkDeviceWaitIdle(ctx->device);
    if (sc->acquired) sc->vkDestroySemaphore(ctx->device, sc->acquired, NULL);
    if (sc->rendered) sc->vkDestroySemaphore(ctx->device, sc->rendered, NULL);
    if (sc->swapchain) sc->vkDestroySwapchainKHR(ctx->device, sc->swapchain, NULL);
    if (sc->surface && sc->vkDestroySurfaceKHR)
        sc->vkDestroySurfaceKHR(ctx->instance, sc->surface, NULL);
    kv_free(ctx, sc, sizeof *sc);
}

static void barrier(kv_context *ctx, VkCommandBuffer cmd, VkImage image, VkImageLayout from,
                    VkImageLayout to, VkAccessFlags src, VkAccessFlags dst)
{
    kv_image_barrier(ctx, cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, 1, from, to, src, dst,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
}

kiln_result kv_present(kv_context *ctx, kv_swapchain *sc, kv_target *t, uint32_t width,
                       uint32_t height, bool *resized, kiln_error *err)
{
    *resized = false;
    if (!t->drawn) return kv_error(err, KILN_E_USAGE, "kv_present: nothing drawn yet");
    uint32_t index = 0;
    VkResult r = sc->vkAcquireNextImageKHR(ctx->device, sc->swapchain, UINT64_MAX, sc->acquired,
                                           VK_NULL_HANDLE, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || width != sc->width || height != sc->height) {
        if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) {
            /* the semaphore is signalled: wait on it once so it can be reused */
            VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
            VkSubmitInfo s = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                              .waitSemaphoreCount = 1,
                              .pWaitSemaphores = &sc->acquired,
                              .pWaitDstStageMask = &stage};
            ctx->vk.vkQueueSubmit(ctx->queue, 1, &s, VK_NULL_HANDLE);
        }
        ctx->vk.vkQueueWaitIdle(ctx->queue);
        *resized = true;
        return build(ctx, sc, width, height, err);
    }
    if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR)
        return kv_vk_fail(err, r, "vkAcquireNextImageKHR");
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    r = ctx->vk.vkAllocateCommandBuffers(ctx->device, &ai, &cmd);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    ctx->vk.vkBeginCommandBuffer(cmd, &bi);
    VkImage dst = sc->images[index];
    barrier(ctx, cmd, dst, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
            VK_ACCESS_TRANSFER_WRITE_BIT);
    VkImageBlit blit = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffsets = {{0, 0, 0}, {(int32_t)t->width, (int32_t)t->height, 1}},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffsets = {{0, 0, 0}, {(int32_t)sc->width, (int32_t)sc->height, 1}},
    };
    sc->vkCmdBlitImage(cmd, t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
    barrier(ctx, cmd, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
            VK_ACCESS_TRANSFER_WRITE_BIT, 0);
    ctx->vk.vkEndCommandBuffer(cmd);
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &sc->acquired,
        .pWaitDstStageMask = &stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &sc->rendered,
    };
    r = ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, VK_NULL_HANDLE);
    if (r == VK_SUCCESS) {
        VkPresentInfoKHR pi = {
            .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &sc->rendered,
            .swapchainCount = 1,
            .pSwapchains = &sc->swapchain,
            .pImageIndices = &index,
        };
        r = sc->vkQueuePresentKHR(ctx->queue, &pi);
    }
    ctx->vk.vkQueueWaitIdle(ctx->queue);
    ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cmd);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        *resized = true;
        return build(ctx, sc, width, height, err);
    }
    return r == VK_SUCCESS ? KILN_OK : kv_vk_fail(err, r, "vkQueuePresentKHR");
}
