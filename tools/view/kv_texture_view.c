/* kv_texture_view.c — a picture of one mip level of a texture (kiln thumbnail, the golden
 * images): the level fitted to the target, averaged n x n texels per pixel, shown by a mode
 * that suits the format (colour, stored values, grey, normal map, float) over a checkerboard so
 * that alpha shows (tools/view/shaders/thumb_texture.{vert,frag}; docs/rendering.md "kiln
 * thumbnail"). One pipeline works with every kv_target (they share one render pass layout). */
#include <string.h>

#include "kv_internal.h"
#include "kv_pipeline.h"
#include "kv_shader.h"
#include "kv_target.h"
#include "kv_texture.h"

struct kv_texture_view {
    VkSampler sampler; /* texelFetch ignores it; a combined image sampler needs one */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

/* The fragment shader's push constants (thumb_texture.frag "params"): 32 bytes. */
typedef struct view_params {
    int32_t level_size[2], out_size[2];
    int32_t level, mode, checker, slice;
} view_params;

kv_view_mode kv_view_mode_for(uint32_t vk_format)
{
    switch (vk_format) {
    case KILN_VK_FORMAT_R16G16B16A16_SFLOAT: /* the float formats: linear, any range */
    case KILN_VK_FORMAT_R16G16_SFLOAT:
    case KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK:
    case KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32:
    case KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32:
    case KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK:
        return KV_VIEW_FLOAT;
    case KILN_VK_FORMAT_BC4_UNORM_BLOCK:
    case KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK:
        return KV_VIEW_GREY;
    case KILN_VK_FORMAT_BC5_UNORM_BLOCK:
    case KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK:
        return KV_VIEW_NORMAL_XY;
    case KILN_VK_FORMAT_R8G8B8A8_SRGB:
    case KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case KILN_VK_FORMAT_BC3_SRGB_BLOCK:
    case KILN_VK_FORMAT_BC7_SRGB_BLOCK:
    case KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
    case KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK:
    case KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK:
        return KV_VIEW_COLOR;
    default:
        return KV_VIEW_STORED;
    }
}

void kv_fit_size(uint32_t width, uint32_t height, uint32_t size, uint32_t *out_width,
                 uint32_t *out_height)
{
    if (width == 0 || height == 0 || size == 0) {
        *out_width = *out_height = 0;
        return;
    }
    /* The longer side becomes size; the other keeps the aspect, rounded, at least 1. */
    if (width >= height) {
        *out_width = size;
        uint64_t h = ((uint64_t)height * size * 2 + width) / ((uint64_t)width * 2);
        *out_height = h ? (uint32_t)h : 1;
    } else {
        *out_height = size;
        uint64_t w = ((uint64_t)width * size * 2 + height) / ((uint64_t)height * 2);
        *out_width = w ? (uint32_t)w : 1;
    }
}

static kiln_result make_layout(kv_context *ctx, kv_texture_view *v, kiln_error *err)
{
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_NEAREST,
        .minFilter = VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = VK_LOD_CLAMP_NONE,
    };
    VkResult r = ctx->vk.vkCreateSampler(ctx->device, &si, NULL, &v->sampler);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateSampler");
    VkDescriptorSetLayoutBinding b = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &b,
    };
    r = ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &li, NULL, &v->set_layout);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pc = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(view_params)};
    VkPipelineLayoutCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &v->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pc,
    };
    r = ctx->vk.vkCreatePipelineLayout(ctx->device, &pi, NULL, &v->layout);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreatePipelineLayout");
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
    VkDescriptorPoolCreateInfo dp = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    r = ctx->vk.vkCreateDescriptorPool(ctx->device, &dp, NULL, &v->pool);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = v->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &v->set_layout,
    };
    r = ctx->vk.vkAllocateDescriptorSets(ctx->device, &ai, &v->set);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateDescriptorSets");
    return KILN_OK;
}

static kiln_result make_pipeline(kv_context *ctx, kv_texture_view *v, const kv_target *t,
                                 const kv_shader *vert, const kv_shader *frag, kiln_error *err)
{
    kv_pipeline_desc d = {
        .vert = vert,
        .frag = frag,
        .layout = v->layout,
        .pass = t->pass,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
        .cull = VK_CULL_MODE_NONE,
        .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
    };
    return kv_pipeline_create(ctx, &d, &v->pipeline, err);
}

kiln_result kv_texture_view_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                                   const kv_shader *frag, kv_texture_view **out, kiln_error *err)
{
    *out = NULL;
    if (!vert || !frag || vert->stage != KILN_SHADER_VERTEX || frag->stage != KILN_SHADER_FRAGMENT)
        return kv_error(err, KILN_E_USAGE,
                        "kv_texture_view_create: needs a vertex and a fragment shader");
    kv_texture_view *v = kv_calloc(ctx, sizeof *v);
    if (!v) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    kiln_result k = make_layout(ctx, v, err);
    if (!k) k = make_pipeline(ctx, v, t, vert, frag, err);
    if (k) {
        kv_texture_view_destroy(ctx, v);
        return k;
    }
    *out = v;
    return KILN_OK;
}

void kv_texture_view_destroy(kv_context *ctx, kv_texture_view *v)
{
    if (!v) return;
    VkDevice d = ctx->device;
    ctx->vk.vkDeviceWaitIdle(d);
    if (v->pipeline) ctx->vk.vkDestroyPipeline(d, v->pipeline, NULL);
    if (v->pool) ctx->vk.vkDestroyDescriptorPool(d, v->pool, NULL); /* frees the set */
    if (v->layout) ctx->vk.vkDestroyPipelineLayout(d, v->layout, NULL);
    if (v->set_layout) ctx->vk.vkDestroyDescriptorSetLayout(d, v->set_layout, NULL);
    if (v->sampler) ctx->vk.vkDestroySampler(d, v->sampler, NULL);
    kv_free(ctx, v, sizeof *v);
}

kiln_result kv_texture_view_draw(kv_context *ctx, kv_texture_view *v, kv_target *t,
                                 const kv_texture *tex, uint32_t level, uint32_t layer,
                                 kv_view_mode mode, kiln_error *err)
{
    if (!tex) return kv_error(err, KILN_E_USAGE, "kv_texture_view_draw: no texture");
    if (level >= tex->level_count)
        return kv_error(err, KILN_E_USAGE, "level %u: the texture has %u level%s (0..%u)", level,
                        tex->level_count, tex->level_count == 1 ? "" : "s", tex->level_count - 1);
    bool volume = tex->shape == KILN_TEXTURE_SHAPE_VOLUME;
    uint32_t slices = volume ? (tex->depth >> level ? tex->depth >> level : 1) : tex->layers;
    if (layer >= slices)
        return kv_error(err, KILN_E_USAGE, "%s %u: the %s has %u at level %u (0..%u)",
                        volume                                   ? "slice"
                        : tex->shape == KILN_TEXTURE_SHAPE_ARRAY ? "layer"
                                                                 : "face",
                        layer, kiln_texture_shape_name(tex->shape), slices, level, slices - 1);
    if ((unsigned)mode > KV_VIEW_FLOAT)
        return kv_error(err, KILN_E_USAGE, "kv_texture_view_draw: bad mode %d", (int)mode);
    uint32_t lw = tex->width >> level, lh = tex->height >> level;
    view_params p = {
        .level_size = {(int32_t)(lw ? lw : 1), (int32_t)(lh ? lh : 1)},
        .out_size = {(int32_t)t->width, (int32_t)t->height},
        .level = (int32_t)level,
        .mode = (int32_t)mode,
        .checker = KV_VIEW_CHECKER,
        .slice = volume ? (int32_t)layer : 0,
    };
    /* A volume is read through its 3D view (thumb_volume.frag picks the slice); a 2D texture
     * through its own view; a face or layer through a 2D view of it, made for this draw. */
    VkImageView layer_view = VK_NULL_HANDLE;
    if (!volume && tex->shape != KILN_TEXTURE_SHAPE_2D) {
        kiln_result k = kv_texture_layer_view(ctx, tex, layer, &layer_view, err);
        if (k) return k;
    }
    /* The previous draw finished (kv_once_end waits): the set may be rewritten. */
    VkDescriptorImageInfo image = {v->sampler, layer_view ? layer_view : tex->view,
                                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = v->set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = &image,
    };
    ctx->vk.vkUpdateDescriptorSets(ctx->device, 1, &w, 0, NULL);
    VkCommandBuffer cmd;
    kiln_result k = kv_once_begin(ctx, &cmd, err);
    if (k) {
        if (layer_view) ctx->vk.vkDestroyImageView(ctx->device, layer_view, NULL);
        return k;
    }
    VkClearValue clear[2];
    memset(clear, 0, sizeof clear);
    clear[0].color = (VkClearColorValue){{0.0f, 0.0f, 0.0f, 1.0f}};
    clear[1].depthStencil = (VkClearDepthStencilValue){1.0f, 0};
    VkRenderPassBeginInfo rp = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = t->pass,
        .framebuffer = t->framebuffer,
        .renderArea = {{0, 0}, {t->width, t->height}},
        .clearValueCount = 2,
        .pClearValues = clear,
    };
    ctx->vk.vkCmdBeginRenderPass(cmd, &rp, VK_SUBPASS_CONTENTS_INLINE);
    ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, v->pipeline);
    ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, v->layout, 0, 1, &v->set,
                                    0, NULL);
    ctx->vk.vkCmdPushConstants(cmd, v->layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof p, &p);
    VkViewport vp = {0.0f, 0.0f, (float)t->width, (float)t->height, 0.0f, 1.0f};
    VkRect2D sc = {{0, 0}, {t->width, t->height}};
    ctx->vk.vkCmdSetViewport(cmd, 0, 1, &vp);
    ctx->vk.vkCmdSetScissor(cmd, 0, 1, &sc);
    ctx->vk.vkCmdDraw(cmd, 3, 1, 0, 0);
    ctx->vk.vkCmdEndRenderPass(cmd);
    k = kv_once_end(ctx, cmd, true, err); /* waits: the layer view is no longer in use */
    if (layer_view) ctx->vk.vkDestroyImageView(ctx->device, layer_view, NULL);
    if (!k) t->drawn = true;
    return k;
}
