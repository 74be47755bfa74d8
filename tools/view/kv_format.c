/* kv_format.c — which of kiln's texture formats the device samples (kiln_vk_format values are
 * VkFormat values). Asked once, at context creation, with vkGetPhysicalDeviceFormatProperties:
 * a format counts when optimal tiling offers SAMPLED_IMAGE, SAMPLED_IMAGE_FILTER_LINEAR and
 * TRANSFER_DST. libkiln_rt transcodes the block formats said no to (ASTC on lavapipe), and picks
 * the Basis Universal transcode target from the ones said yes to (BC7 on lavapipe). */
#include "kv_internal.h"

static const uint32_t kv_formats[KV_FORMAT_COUNT] = {
    KILN_VK_FORMAT_R8G8B8A8_UNORM,           KILN_VK_FORMAT_R8G8B8A8_SRGB,
    KILN_VK_FORMAT_R16G16B16A16_SFLOAT,      KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK,
    KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK,       KILN_VK_FORMAT_BC4_UNORM_BLOCK,
    KILN_VK_FORMAT_BC5_UNORM_BLOCK,          KILN_VK_FORMAT_BC7_UNORM_BLOCK,
    KILN_VK_FORMAT_BC7_SRGB_BLOCK,           KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
    KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK,      KILN_VK_FORMAT_R16G16_SFLOAT,
    KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK,        KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK,
    KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32,   KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32,
    KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK,    KILN_VK_FORMAT_BC3_UNORM_BLOCK,
    KILN_VK_FORMAT_BC3_SRGB_BLOCK,           KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
    KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,   KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
    KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK,
    KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK,
};

void kv_formats_query(kv_context *ctx)
{
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                      VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    for (uint32_t i = 0; i < KV_FORMAT_COUNT; i++) {
        ctx->formats[i] = kv_formats[i];
        ctx->sampled[i] = false;
        if (kv_formats[i] == KILN_VK_FORMAT_UNDEFINED) continue;
        VkFormatProperties p;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, (VkFormat)kv_formats[i], &p);
        ctx->sampled[i] = (p.optimalTilingFeatures & need) == need;
    }
}

bool kv_supports_format(const kv_context *ctx, uint32_t vk_format)
{
    if (vk_format == KILN_VK_FORMAT_UNDEFINED) return false;
    for (uint32_t i = 0; i < KV_FORMAT_COUNT; i++)
        if (ctx->formats[i] == vk_format) return ctx->sampled[i];
    return false;
}
