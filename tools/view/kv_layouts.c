/* kv_layouts.c — what every mesh, material and scene renderer of a context is made against: the
 * three descriptor set layouts and the pipeline layout of tools/view/shaders/mesh_common.glsl,
 * a white 1x1 texture for empty material slots, the default material's set (no material, or one
 * that is loading), and the samplers materials ask for, made once each. */
#include <string.h>

#include "kv_scene.h"
#include "kv_texture.h"

#define SAMPLER_KEYS 108u /* 2 mag x 2 min x 3 mip x 3 wrap s x 3 wrap t */

static kiln_result set_layout(kv_context *ctx, const VkDescriptorSetLayoutBinding *b, uint32_t n,
                              VkDescriptorSetLayout *out, kiln_error *err)
{
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = n,
        .pBindings = b,
    };
    VkResult r = ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &info, NULL, out);
    return r == VK_SUCCESS ? KILN_OK : kv_vk_fail(err, r, "vkCreateDescriptorSetLayout");
}

static kiln_result make_layouts(kv_context *ctx, kv_layouts *l, kiln_error *err)
{
    const VkShaderStageFlags both = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding frame[5] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, both, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, both, NULL},
        {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
        {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
    };
    VkDescriptorSetLayoutBinding material[KILN_MATERIAL_SLOT_COUNT];
    for (uint32_t i = 0; i < KILN_MATERIAL_SLOT_COUNT; i++)
        material[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                     1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutBinding mesh[4] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
        {3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
    };
    kiln_result k = set_layout(ctx, frame, 5, &l->frame, err);
    if (!k) k = set_layout(ctx, material, KILN_MATERIAL_SLOT_COUNT, &l->material, err);
    if (!k) k = set_layout(ctx, mesh, 4, &l->mesh, err);
    if (k) return k;
    VkDescriptorSetLayout sets[3] = {l->frame, l->material, l->mesh};
    VkPushConstantRange push = {both, 0, 4};
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 3,
        .pSetLayouts = sets,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &push,
    };
    VkResult r = ctx->vk.vkCreatePipelineLayout(ctx->device, &info, NULL, &l->pipeline);
    return r == VK_SUCCESS ? KILN_OK : kv_vk_fail(err, r, "vkCreatePipelineLayout");
}

static kiln_result make_white(kv_context *ctx, kv_layouts *l, kiln_error *err)
{
    static const uint8_t white[4] = {255, 255, 255, 255};
    krt_texture_data d = {
        .vk_format = 37, /* VK_FORMAT_R8G8B8A8_UNORM */
        .width = 1,
        .height = 1,
        .level_count = 1,
        .block_width = 1,
        .block_height = 1,
        .block_size = 4,
    };
    d.levels[0].width = d.levels[0].height = 1;
    d.levels[0].data = white;
    d.levels[0].size = 4;
    void *gpu = NULL;
    kiln_result k = kv_create_texture(ctx, (krt_handle){0}, &d, &gpu, err);
    l->white = gpu;
    return k;
}

static kiln_result make_default_material(kv_context *ctx, kv_layouts *l, kiln_error *err)
{
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                 KILN_MATERIAL_SLOT_COUNT};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    VkResult r = ctx->vk.vkCreateDescriptorPool(ctx->device, &pi, NULL, &l->pool);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = l->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &l->material,
    };
    r = ctx->vk.vkAllocateDescriptorSets(ctx->device, &ai, &l->default_material);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateDescriptorSets");
    /* every slot empty: the white texture with the default sampler */
    return kv_material_set_write(ctx, l->default_material, NULL, NULL, err);
}

kiln_result kv_layouts_get(kv_context *ctx, kv_layouts **out, kiln_error *err)
{
    if (ctx->layouts) {
        *out = ctx->layouts;
        return KILN_OK;
    }
    kv_layouts *l = kv_calloc(ctx, sizeof *l);
    if (!l) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    ctx->layouts = l; /* kv_sampler_get and the destroy below find it there */
    kiln_result k = make_layouts(ctx, l, err);
    if (!k) k = make_white(ctx, l, err);
    if (!k) k = make_default_material(ctx, l, err);
    if (k) {
        kv_layouts_destroy(ctx);
        return k;
    }
    *out = l;
    return KILN_OK;
}

void kv_layouts_destroy(kv_context *ctx)
{
    kv_layouts *l = ctx->layouts;
    if (!l) return;
    VkDevice d = ctx->device;
    ctx->vk.vkDeviceWaitIdle(d);
    if (l->pool) ctx->vk.vkDestroyDescriptorPool(d, l->pool, NULL);
    for (uint32_t i = 0; i < SAMPLER_KEYS; i++)
        if (l->samplers[i]) ctx->vk.vkDestroySampler(d, l->samplers[i], NULL);
    if (l->white) kv_destroy_texture(ctx, (krt_handle){0}, l->white);
    if (l->pipeline) ctx->vk.vkDestroyPipelineLayout(d, l->pipeline, NULL);
    if (l->mesh) ctx->vk.vkDestroyDescriptorSetLayout(d, l->mesh, NULL);
    if (l->material) ctx->vk.vkDestroyDescriptorSetLayout(d, l->material, NULL);
    if (l->frame) ctx->vk.vkDestroyDescriptorSetLayout(d, l->frame, NULL);
    kv_free(ctx, l, sizeof *l);
    ctx->layouts = NULL;
}

static VkSamplerAddressMode wrap_mode(uint32_t w)
{
    return w == KILN_MATERIAL_WRAP_CLAMP    ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
           : w == KILN_MATERIAL_WRAP_MIRROR ? VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT
                                            : VK_SAMPLER_ADDRESS_MODE_REPEAT;
}

/* A slot's filters as Vulkan takes them. DEFAULT filters are linear, and a DEFAULT mip filter
 * with mipmaps is linear (trilinear: what three.js and the glTF sample viewer use). */
kiln_result kv_sampler_get(kv_context *ctx, const kiln_material_texture *t, VkSampler *out,
                           kiln_error *err)
{
    kv_layouts *l = ctx->layouts;
    uint32_t mag = t->mag_filter == KILN_MATERIAL_FILTER_NEAREST ? 0 : 1;
    uint32_t min = t->min_filter == KILN_MATERIAL_FILTER_NEAREST ? 0 : 1;
    uint32_t mip = !t->mipmaps ? 0 : t->mip_filter == KILN_MATERIAL_FILTER_NEAREST ? 1 : 2;
    uint32_t ws = t->wrap_s <= 2 ? t->wrap_s : 0, wt = t->wrap_t <= 2 ? t->wrap_t : 0;
    uint32_t key = (((mag * 2 + min) * 3 + mip) * 3 + ws) * 3 + wt;
    if (l->samplers[key]) {
        *out = l->samplers[key];
        return KILN_OK;
    }
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = mag ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .minFilter = min ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .mipmapMode = mip == 1 ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR,
        .addressModeU = wrap_mode(ws),
        .addressModeV = wrap_mode(wt),
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
        .maxLod = mip == 0 ? 0.0f : VK_LOD_CLAMP_NONE,
    };
    VkResult r = ctx->vk.vkCreateSampler(ctx->device, &si, NULL, &l->samplers[key]);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateSampler");
    *out = l->samplers[key];
    return KILN_OK;
}
