/* kv_memory.c — memory types, mapped buffers, image memory, one-shot command buffers and layout
 * barriers: the pieces every kv object is made of. One allocation per object for now (a few
 * textures and targets; a sub-allocator comes with meshes). */
#include <string.h>

#include "kv_internal.h"

uint32_t kv_memory_type(const kv_context *ctx, uint32_t bits, VkMemoryPropertyFlags props)
{
    for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (ctx->memory.memoryTypes[i].propertyFlags & props) == props)
            return i;
    return UINT32_MAX;
}

kiln_result kv_image_memory(kv_context *ctx, VkImage image, VkDeviceMemory *out, kiln_error *err)
{
    VkMemoryRequirements req;
    ctx->vk.vkGetImageMemoryRequirements(ctx->device, image, &req);
    uint32_t type = kv_memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX) type = kv_memory_type(ctx, req.memoryTypeBits, 0);
    if (type == UINT32_MAX)
        return kv_error(err, KILN_E_INTERNAL, "vulkan: no memory type for an image");
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    VkResult r = ctx->vk.vkAllocateMemory(ctx->device, &info, NULL, out);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateMemory (image)");
    r = ctx->vk.vkBindImageMemory(ctx->device, image, *out, 0);
    if (r != VK_SUCCESS) {
        ctx->vk.vkFreeMemory(ctx->device, *out, NULL);
        *out = VK_NULL_HANDLE;
        return kv_vk_fail(err, r, "vkBindImageMemory");
    }
    return KILN_OK;
}

kiln_result kv_buffer_create(kv_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                             kv_buffer *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = ctx->vk.vkCreateBuffer(ctx->device, &info, NULL, &out->buffer);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateBuffer");
    VkMemoryRequirements req;
    ctx->vk.vkGetBufferMemoryRequirements(ctx->device, out->buffer, &req);
    uint32_t type =
        kv_memory_type(ctx, req.memoryTypeBits,
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    kiln_result k = KILN_OK;
    if (type == UINT32_MAX) {
        k = kv_error(err, KILN_E_INTERNAL, "vulkan: no host-visible coherent memory for a buffer");
        goto fail;
    }
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    r = ctx->vk.vkAllocateMemory(ctx->device, &alloc, NULL, &out->memory);
    if (r == VK_SUCCESS) r = ctx->vk.vkBindBufferMemory(ctx->device, out->buffer, out->memory, 0);
    if (r == VK_SUCCESS)
        r = ctx->vk.vkMapMemory(ctx->device, out->memory, 0, size, 0, &out->mapped);
    if (r != VK_SUCCESS) {
        k = kv_vk_fail(err, r, "buffer memory");
        goto fail;
    }
    out->size = size;
    return KILN_OK;
fail:
    kv_buffer_destroy(ctx, out);
    return k;
}

void kv_buffer_destroy(kv_context *ctx, kv_buffer *b)
{
    if (b->mapped) ctx->vk.vkUnmapMemory(ctx->device, b->memory);
    if (b->buffer) ctx->vk.vkDestroyBuffer(ctx->device, b->buffer, NULL);
    if (b->memory) ctx->vk.vkFreeMemory(ctx->device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

kiln_result kv_once_begin(kv_context *ctx, VkCommandBuffer *out, kiln_error *err)
{
    *out = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkResult r = ctx->vk.vkAllocateCommandBuffers(ctx->device, &info, out);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    r = ctx->vk.vkBeginCommandBuffer(*out, &begin);
    if (r != VK_SUCCESS) {
        ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 1, out);
        *out = VK_NULL_HANDLE;
        return kv_vk_fail(err, r, "vkBeginCommandBuffer");
    }
    return KILN_OK;
}

kiln_result kv_once_end(kv_context *ctx, VkCommandBuffer cmd, bool ok, kiln_error *err)
{
    VkResult r = ctx->vk.vkEndCommandBuffer(cmd);
    kiln_result k = KILN_OK;
    if (r != VK_SUCCESS) {
        k = kv_vk_fail(err, r, "vkEndCommandBuffer");
    } else if (ok) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence = VK_NULL_HANDLE;
        r = ctx->vk.vkCreateFence(ctx->device, &fi, NULL, &fence);
        if (r != VK_SUCCESS) {
            k = kv_vk_fail(err, r, "vkCreateFence");
        } else {
            VkSubmitInfo submit = {
                .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                .commandBufferCount = 1,
                .pCommandBuffers = &cmd,
            };
            r = ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, fence);
            if (r == VK_SUCCESS)
                r = ctx->vk.vkWaitForFences(ctx->device, 1, &fence, VK_TRUE, UINT64_MAX);
            if (r != VK_SUCCESS) k = kv_vk_fail(err, r, "vkQueueSubmit / vkWaitForFences");
            ctx->vk.vkDestroyFence(ctx->device, fence, NULL);
        }
    }
    ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cmd);
    return k;
}

void kv_image_barrier(kv_context *ctx, VkCommandBuffer cmd, VkImage image,
                      VkImageAspectFlags aspect, uint32_t levels, VkImageLayout from,
                      VkImageLayout to, VkAccessFlags src_access, VkAccessFlags dst_access,
                      VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage)
{
    VkImageMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = {aspect, 0, levels, 0, VK_REMAINING_ARRAY_LAYERS},
    };
    ctx->vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}
