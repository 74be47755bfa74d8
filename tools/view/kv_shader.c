/* kv_shader.c — create_shader / destroy_shader: one VkShaderModule per variant of a cooked
 * shader, from the words libkiln_rt hands over (host order, 4-byte aligned). */
#include <string.h>

#include "kv_internal.h"
#include "kv_shader.h"

static void shader_free(kv_context *ctx, kv_shader *s)
{
    if (!s) return;
    if (s->modules) {
        for (uint32_t i = 0; i < s->variant_count; i++)
            if (s->modules[i]) ctx->vk.vkDestroyShaderModule(ctx->device, s->modules[i], NULL);
        kv_free(ctx, s->modules, s->variant_count * sizeof *s->modules);
    }
    kv_free(ctx, s, sizeof *s);
}

kiln_result kv_create_shader(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                             kiln_error *err)
{
    kv_context *ctx = user;
    if (!d->view || d->variant_count == 0 || d->variant_count > KILN_SHADER_MAX_VARIANTS)
        return kv_error(err, KILN_E_USAGE, "create_shader: bad shader data (%u variants)",
                        d->variant_count);
    /* kiln_shader_target n is Vulkan 1.n: its SPIR-V version needs that much of the device. */
    uint32_t minor = VK_API_VERSION_MINOR(ctx->api_version);
    if (VK_API_VERSION_MAJOR(ctx->api_version) == 1 && d->view->target > minor)
        return kv_error(
            err, KILN_E_IMPORT_UNSUPPORTED,
            "create_shader: cooked for Vulkan 1.%u, the device offers 1.%u (cook it with "
            "import.shader.target for 1.%u)",
            d->view->target, minor, minor);
    size_t entry_len = d->view->entry ? strlen(d->view->entry) : 0;
    kv_shader *s = kv_calloc(ctx, sizeof *s);
    if (!s) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    if (entry_len == 0 || entry_len >= sizeof s->entry) {
        kv_free(ctx, s, sizeof *s);
        return kv_error(err, KILN_E_LIMIT, "create_shader: entry point name of %zu bytes",
                        entry_len);
    }
    memcpy(s->entry, d->view->entry, entry_len + 1);
    s->stage = d->view->stage;
    s->modules = kv_calloc(ctx, d->variant_count * sizeof *s->modules);
    if (!s->modules) {
        kv_free(ctx, s, sizeof *s);
        return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    }
    s->variant_count = d->variant_count;
    for (uint32_t i = 0; i < d->variant_count; i++) {
        const krt_shader_variant *v = &d->variants[i];
        if (v->name && strcmp(v->name, "default") == 0) s->default_variant = i;
        VkShaderModuleCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = v->word_count * 4,
            .pCode = v->words,
        };
        VkResult r = ctx->vk.vkCreateShaderModule(ctx->device, &info, NULL, &s->modules[i]);
        if (r != VK_SUCCESS) {
            shader_free(ctx, s);
            return kv_vk_fail(err, r, "vkCreateShaderModule");
        }
    }
    *gpu = s;
    return KILN_OK;
}

void kv_destroy_shader(void *user, krt_handle h, void *gpu)
{
    /* A module may be destroyed while pipelines made from it live: no wait needed. */
    shader_free(user, gpu);
}
