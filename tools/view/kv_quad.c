/* kv_quad.c — the first draw: a quad covering the target, with a kiln-cooked vertex and fragment
 * shader, sampling one texture (set 0, binding 0: a combined image sampler, nearest filtering).
 * Viewport and scissor are dynamic; the pipeline is made for the target's render pass. */
#include <string.h>

#include "kv_internal.h"
#include "kv_pipeline.h"
#include "kv_shader.h"
#include "kv_target.h"
#include "kv_texture.h"

struct kv_quad {
    VkSampler sampler;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

static kiln_result make_layout(kv_context *ctx, kv_quad *q, kiln_error *err)
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
    VkResult r = ctx->vk.vkCreateSampler(ctx->device, &si, NULL, &q->sampler);
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
    r = ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &li, NULL, &q->set_layout);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &q->set_layout,
    };
    r = ctx->vk.vkCreatePipelineLayout(ctx->device, &pi, NULL, &q->layout);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreatePipelineLayout");
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
    VkDescriptorPoolCreateInfo dp = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    r = ctx->vk.vkCreateDescriptorPool(ctx->device, &dp, NULL, &q->pool);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = q->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &q->set_layout,
    };
    r = ctx->vk.vkAllocateDescriptorSets(ctx->device, &ai, &q->set);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateDescriptorSets");
    return KILN_OK;
}

static kiln_result make_pipeline(kv_context *ctx, kv_quad *q, const kv_target *t,
                                 const kv_shader *vert, const kv_shader *frag, kiln_error *err)
{
    kv_pipeline_desc d = {
        .vert = vert,
        .frag = frag,
        .layout = q->layout,
        .pass = t->pass,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
        .cull = VK_CULL_MODE_NONE,
        .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .depth_test = true,
        .depth_write = true,
        .depth_compare = VK_COMPARE_OP_LESS,
    };
    return kv_pipeline_create(ctx, &d, &q->pipeline, err);
}

kiln_result kv_quad_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                           const kv_shader *frag, kv_quad **out, kiln_error *err)
{
    *out = NULL;
    if (!vert || !frag || vert->stage != KILN_SHADER_VERTEX || frag->stage != KILN_SHADER_FRAGMENT)
        return kv_error(err, KILN_E_USAGE, "kv_quad_create: needs a vertex and a fragment shader");
    kv_quad *q = kv_calloc(ctx, sizeof *q);
    if (!q) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    kiln_result k = make_layout(ctx, q, err);
    if (!k) k = make_pipeline(ctx, q, t, vert, frag, err);
    if (k) {
        kv_quad_destroy(ctx, q);
        return k;
    }
    *out = q;
    return KILN_OK;
}

void kv_quad_destroy(kv_context *ctx, kv_quad *q)
{
    if (!q) return;
    VkDevice d = ctx->device;
    ctx->vk.vkDeviceWaitIdle(d);
    if (q->pipeline) ctx->vk.vkDestroyPipeline(d, q->pipeline, NULL);
    if (q->pool) ctx->vk.vkDestroyDescriptorPool(d, q->pool, NULL); /* frees the set */
    if (q->layout) ctx->vk.vkDestroyPipelineLayout(d, q->layout, NULL);
    if (q->set_layout) ctx->vk.vkDestroyDescriptorSetLayout(d, q->set_layout, NULL);
    if (q->sampler) ctx->vk.vkDestroySampler(d, q->sampler, NULL);
    kv_free(ctx, q, sizeof *q);
}

kiln_result kv_quad_draw(kv_context *ctx, kv_quad *q, kv_target *t, const kv_texture *tex,
                         kiln_error *err)
{
    if (!tex) return kv_error(err, KILN_E_USAGE, "kv_quad_draw: no texture");
    /* The previous draw finished (kv_once_end waits): the set may be rewritten. */
    VkDescriptorImageInfo image = {q->sampler, tex->view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = q->set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = &image,
    };
    ctx->vk.vkUpdateDescriptorSets(ctx->device, 1, &w, 0, NULL);
    VkCommandBuffer cmd;
    kiln_result k = kv_once_begin(ctx, &cmd, err);
    if (k) return k;
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
    ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, q->pipeline);
    ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, q->layout, 0, 1, &q->set,
                                    0, NULL);
    VkViewport vp = {0.0f, 0.0f, (float)t->width, (float)t->height, 0.0f, 1.0f};
    VkRect2D sc = {{0, 0}, {t->width, t->height}};
    ctx->vk.vkCmdSetViewport(cmd, 0, 1, &vp);
    ctx->vk.vkCmdSetScissor(cmd, 0, 1, &sc);
    ctx->vk.vkCmdDraw(cmd, 4, 1, 0, 0);
    ctx->vk.vkCmdEndRenderPass(cmd);
    k = kv_once_end(ctx, cmd, true, err);
    if (!k) t->drawn = true;
    return k;
}
