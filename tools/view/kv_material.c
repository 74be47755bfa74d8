/* kv_material.c — create_material / destroy_material: a material's descriptor set (set 1), its
 * five slots' textures (the white texture where a slot is empty or its texture is not made) with
 * the samplers the material asks for. The factors are not here: the shaders read them from
 * libkiln_rt's GPU material table, which the scene renderer uploads each frame. */
#include <string.h>

#include "kv_scene.h"
#include "kv_texture.h"

static void material_free(kv_context *ctx, kv_material *m)
{
    if (!m) return;
    if (m->pool) ctx->vk.vkDestroyDescriptorPool(ctx->device, m->pool, NULL);
    kv_free(ctx, m, sizeof *m);
}

kiln_result kv_material_set_write(kv_context *ctx, VkDescriptorSet set,
                                  const kiln_material_texture *slots, void *const *texture_gpu,
                                  kiln_error *err)
{
    const kv_layouts *l = ctx->layouts;
    static const kiln_material_texture none;
    VkDescriptorImageInfo image[KILN_MATERIAL_SLOT_COUNT];
    VkWriteDescriptorSet w[KILN_MATERIAL_SLOT_COUNT];
    for (uint32_t s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kv_texture *t = texture_gpu && texture_gpu[s] ? texture_gpu[s] : l->white;
        VkSampler sampler;
        kiln_result k = kv_sampler_get(ctx, slots ? &slots[s] : &none, &sampler, err);
        if (k) return k;
        image[s] =
            (VkDescriptorImageInfo){sampler, t->view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        w[s] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = s,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &image[s],
        };
    }
    ctx->vk.vkUpdateDescriptorSets(ctx->device, KILN_MATERIAL_SLOT_COUNT, w, 0, NULL);
    return KILN_OK;
}

kiln_result kv_create_material(void *user, krt_handle h, const krt_material_data *d, void **gpu,
                               kiln_error *err)
{
    (void)h;
    kv_context *ctx = user;
    kv_layouts *l;
    kiln_result k = kv_layouts_get(ctx, &l, err);
    if (k) return k;
    if (!d->material) return kv_error(err, KILN_E_USAGE, "create_material: no material");
    kv_material *m = kv_calloc(ctx, sizeof *m);
    if (!m) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    m->blend = d->material->alpha_mode == KILN_MATERIAL_ALPHA_BLEND;
    m->double_sided = d->material->double_sided;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                 KILN_MATERIAL_SLOT_COUNT};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    VkResult r = ctx->vk.vkCreateDescriptorPool(ctx->device, &pi, NULL, &m->pool);
    if (r == VK_SUCCESS) {
        VkDescriptorSetAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = m->pool,
            .descriptorSetCount = 1,
            .pSetLayouts = &l->material,
        };
        r = ctx->vk.vkAllocateDescriptorSets(ctx->device, &ai, &m->set);
    }
    if (r != VK_SUCCESS) {
        material_free(ctx, m);
        return kv_vk_fail(err, r, "material descriptor set");
    }
    k = kv_material_set_write(ctx, m->set, d->material->textures, d->texture_gpu, err);
    if (k) {
        material_free(ctx, m);
        return k;
    }
    *gpu = m;
    return KILN_OK;
}

void kv_destroy_material(void *user, krt_handle h, void *gpu)
{
    (void)h;
    kv_context *ctx = user;
    if (gpu) ctx->vk.vkDeviceWaitIdle(ctx->device); /* a draw may still use its set */
    material_free(ctx, gpu);
}
