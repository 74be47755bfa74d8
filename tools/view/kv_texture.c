/* kv_texture.c — create_texture / destroy_texture: every level of a krt_texture_data (the bytes
 * libkiln_rt hands over: supercompression undone, transcoded to RGBA8 when supports_format said
 * no) into one VkImage through a staging buffer, left in SHADER_READ_ONLY_OPTIMAL. The shape
 * makes the image and its view: 2D, a cube (six layers, cube compatible, a CUBE view), an array
 * (2D_ARRAY), a cube array, or a 3D image. */
#include <string.h>

#include "kv_internal.h"
#include "kv_texture.h"

static uint32_t at_least_1(uint32_t v) { return v ? v : 1; }

/* Array layers of the image: faces times layers (a 3D image has 1). */
static uint32_t image_layers(const krt_texture_data *d)
{
    if (d->shape == KILN_TEXTURE_SHAPE_VOLUME) return 1;
    return at_least_1(d->face_count) * at_least_1(d->layer_count);
}

/* Slices of level l (1 unless a volume). */
static uint32_t level_depth(const krt_texture_data *d, uint32_t l)
{
    if (d->shape != KILN_TEXTURE_SHAPE_VOLUME) return 1;
    uint32_t z = at_least_1(d->depth) >> l;
    return z ? z : 1;
}

/* Bytes a level must hold: whole blocks, for every image of it. */
static size_t level_bytes(const krt_texture_data *d, uint32_t l)
{
    size_t bw = (d->levels[l].width + d->block_width - 1) / d->block_width;
    size_t bh = (d->levels[l].height + d->block_height - 1) / d->block_height;
    return bw * bh * d->block_size * image_layers(d) * level_depth(d, l);
}

static kiln_result check(const kv_context *ctx, const krt_texture_data *d, kiln_error *err)
{
    if (!kv_supports_format(ctx, d->vk_format))
        return kv_error(err, KILN_E_IMPORT_UNSUPPORTED,
                        "vulkan: the device cannot sample format %u (libkiln_rt transcodes block "
                        "formats kv_supports_format refuses)",
                        d->vk_format);
    if (d->level_count == 0 || d->level_count > KILN_KTX2_MAX_LEVELS || d->width == 0 ||
        d->height == 0 || d->block_width == 0 || d->block_height == 0 || d->block_size == 0 ||
        d->block_size % 4 != 0)
        return kv_error(err, KILN_E_USAGE, "create_texture: bad texture data (%ux%u, %u levels)",
                        d->width, d->height, d->level_count);
    if (d->shape >= KILN_TEXTURE_SHAPE_COUNT)
        return kv_error(err, KILN_E_USAGE, "create_texture: shape %u", d->shape);
    const VkPhysicalDeviceLimits *lim = &ctx->properties.limits;
    uint32_t max =
        d->shape == KILN_TEXTURE_SHAPE_VOLUME ? lim->maxImageDimension3D
        : d->shape == KILN_TEXTURE_SHAPE_CUBE || d->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY
            ? lim->maxImageDimensionCube
            : lim->maxImageDimension2D;
    if (d->width > max || d->height > max ||
        (d->shape == KILN_TEXTURE_SHAPE_VOLUME && at_least_1(d->depth) > max))
        return kv_error(err, KILN_E_LIMIT, "create_texture: %ux%ux%u %s is above the device's %u",
                        d->width, d->height, at_least_1(d->depth),
                        kiln_texture_shape_name(d->shape), max);
    if (image_layers(d) > lim->maxImageArrayLayers)
        return kv_error(err, KILN_E_LIMIT, "create_texture: %u layers, the device allows %u",
                        image_layers(d), lim->maxImageArrayLayers);
    for (uint32_t l = 0; l < d->level_count; l++) {
        if (!d->levels[l].data || d->levels[l].size < level_bytes(d, l))
            return kv_error(err, KILN_E_FORMAT_INVALID,
                            "create_texture: level %u holds %zu bytes, %zu needed", l,
                            d->levels[l].size, level_bytes(d, l));
    }
    return KILN_OK;
}

static kiln_result upload(kv_context *ctx, kv_texture *t, const krt_texture_data *d,
                          kiln_error *err)
{
    /* Each level's offset in the staging buffer: a multiple of 16 (a block or texel size, and 4).
     */
    VkDeviceSize offsets[KILN_KTX2_MAX_LEVELS], total = 0;
    for (uint32_t l = 0; l < d->level_count; l++) {
        offsets[l] = total;
        total += (level_bytes(d, l) + 15) & ~(VkDeviceSize)15;
    }
    kv_buffer staging;
    kiln_result k = kv_buffer_create(ctx, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging, err);
    if (k) return k;
    for (uint32_t l = 0; l < d->level_count; l++)
        memcpy((uint8_t *)staging.mapped + offsets[l], d->levels[l].data, level_bytes(d, l));
    VkCommandBuffer cmd;
    k = kv_once_begin(ctx, &cmd, err);
    if (!k) {
        kv_image_barrier(ctx, cmd, t->image, VK_IMAGE_ASPECT_COLOR_BIT, d->level_count,
                         VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT);
        /* One region a level: its layers (faces within layers, KTX2's order and Vulkan's) or
         * its slices follow each other tightly, as the copy reads them. */
        VkBufferImageCopy regions[KILN_KTX2_MAX_LEVELS];
        for (uint32_t l = 0; l < d->level_count; l++) {
            regions[l] = (VkBufferImageCopy){
                .bufferOffset = offsets[l],
                .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, image_layers(d)},
                .imageExtent = {d->levels[l].width, d->levels[l].height, level_depth(d, l)},
            };
        }
        ctx->vk.vkCmdCopyBufferToImage(cmd, staging.buffer, t->image,
                                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, d->level_count,
                                       regions);
        kv_image_barrier(ctx, cmd, t->image, VK_IMAGE_ASPECT_COLOR_BIT, d->level_count,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
        k = kv_once_end(ctx, cmd, true, err);
    }
    kv_buffer_destroy(ctx, &staging);
    return k;
}

static void texture_free(kv_context *ctx, kv_texture *t)
{
    if (!t) return;
    if (t->view) ctx->vk.vkDestroyImageView(ctx->device, t->view, NULL);
    if (t->image) ctx->vk.vkDestroyImage(ctx->device, t->image, NULL);
    if (t->memory) ctx->vk.vkFreeMemory(ctx->device, t->memory, NULL);
    kv_free(ctx, t, sizeof *t);
}

kiln_result kv_create_texture(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                              kiln_error *err)
{
    kv_context *ctx = user;
    kiln_result k = check(ctx, d, err);
    if (k) return k;
    kv_texture *t = kv_calloc(ctx, sizeof *t);
    if (!t) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    t->vk_format = d->vk_format;
    t->width = d->width;
    t->height = d->height;
    t->level_count = d->level_count;
    t->shape = d->shape;
    t->layers = image_layers(d);
    t->depth = level_depth(d, 0);
    bool cube = d->shape == KILN_TEXTURE_SHAPE_CUBE || d->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
        .imageType = d->shape == KILN_TEXTURE_SHAPE_VOLUME ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D,
        .format = (VkFormat)d->vk_format,
        .extent = {d->width, d->height, t->depth},
        .mipLevels = d->level_count,
        .arrayLayers = t->layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkResult r = ctx->vk.vkCreateImage(ctx->device, &info, NULL, &t->image);
    if (r != VK_SUCCESS) k = kv_vk_fail(err, r, "vkCreateImage (texture)");
    if (!k) k = kv_image_memory(ctx, t->image, &t->memory, err);
    if (!k) k = upload(ctx, t, d, err);
    if (!k) {
        VkImageViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = t->image,
            .viewType = kv_view_type_of_shape(d->shape),
            .format = (VkFormat)d->vk_format,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, d->level_count, 0, t->layers},
        };
        r = ctx->vk.vkCreateImageView(ctx->device, &vi, NULL, &t->view);
        if (r != VK_SUCCESS) k = kv_vk_fail(err, r, "vkCreateImageView (texture)");
    }
    if (k) {
        texture_free(ctx, t);
        return k;
    }
    *gpu = t;
    return KILN_OK;
}

void kv_destroy_texture(void *user, krt_handle h, void *gpu)
{
    kv_context *ctx = user;
    if (gpu) ctx->vk.vkDeviceWaitIdle(ctx->device); /* a draw may still sample it */
    texture_free(ctx, gpu);
}

uint32_t kv_texture_format(const kv_texture *t) { return t->vk_format; }

VkImageViewType kv_view_type_of_shape(uint32_t shape)
{
    switch (shape) {
    case KILN_TEXTURE_SHAPE_CUBE:
        return VK_IMAGE_VIEW_TYPE_CUBE;
    case KILN_TEXTURE_SHAPE_ARRAY:
        return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    case KILN_TEXTURE_SHAPE_CUBE_ARRAY:
        return VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    case KILN_TEXTURE_SHAPE_VOLUME:
        return VK_IMAGE_VIEW_TYPE_3D;
    default:
        return VK_IMAGE_VIEW_TYPE_2D;
    }
}

kiln_result kv_texture_layer_view(kv_context *ctx, const kv_texture *t, uint32_t layer,
                                  VkImageView *out, kiln_error *err)
{
    *out = VK_NULL_HANDLE;
    if (t->shape == KILN_TEXTURE_SHAPE_VOLUME || layer >= t->layers)
        return kv_error(err, KILN_E_USAGE, "texture layer %u: the %s has %u (a volume has none)",
                        layer, kiln_texture_shape_name(t->shape), t->layers);
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = t->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = (VkFormat)t->vk_format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, t->level_count, layer, 1},
    };
    VkResult r = ctx->vk.vkCreateImageView(ctx->device, &vi, NULL, out);
    return r == VK_SUCCESS ? KILN_OK : kv_vk_fail(err, r, "vkCreateImageView (texture layer)");
}
