/* block_decode.c — kiln_transcode_rgba8: one level of 4x4 blocks (or RGBA8 texels) to tightly
 * packed RGBA8 on the CPU, for renderers that cannot sample the stored format. The row of the
 * VkFormat in the texture format table (texture_format.c) gives the block shape and the decoder
 * (bc_decode.c, bc7_decode.c, astc_decode.c); the formats Basis textures are transcoded to and kiln
 * does not cook (BC3, ETC2, EAC) have a small table of their own here. Sizes are checked before any
 * byte is touched, with overflow-checked arithmetic; the input only needs to be as long as the
 * level, and every byte pattern decodes. Part of libkiln_rt: libc only. */
#include <string.h>

#include "codec/block_decode.h"
#include "codec/texture_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "kiln/kiln_format.h"

/* The output format for the row of vk_format: the RGBA8 row's VkFormat in the same encoding. */
static uint32_t output_format(kiln_texture_format f, bool srgb)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    return row && row->decode ? kiln_texture_format_vk(KILN_TEXFMT_RGBA8, srgb)
                              : KILN_VK_FORMAT_UNDEFINED;
}

/* BC3: the alpha block is a BC4 block, the colour block a BC1 block in 4-colour mode (its
 * 3-colour mode does not exist in BC3, so c0 <= c1 still interpolates: read as BC1 decodes,
 * which is what Mesa's and Pillow's decoders do too). */
static void decode_bc3(const uint8_t *in, uint8_t rgba[64])
{
    uint8_t alpha[64];
    kiln_bc4_decode_block(in, alpha);
    kiln_bc1_decode_block(in + 8, rgba);
    for (int i = 0; i < 16; i++) rgba[4 * i + 3] = alpha[4 * i];
}

/* Formats kiln does not cook to but transcodes Basis textures to (basis_transcode.c): decoded
 * here too, so that a renderer (or `kiln inspect --compare`) can see what they hold. */
static const struct {
    uint32_t vk;
    bool srgb;
    void (*decode)(const uint8_t *in, uint8_t rgba[64]);
} k_targets[] = {
    {KILN_VK_FORMAT_BC3_UNORM_BLOCK, false, decode_bc3},
    {KILN_VK_FORMAT_BC3_SRGB_BLOCK, true, decode_bc3},
    {KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, false, kiln_etc2_rgb_decode_block},
    {KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, true, kiln_etc2_rgb_decode_block},
    {KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, false, kiln_etc2_rgba_decode_block},
    {KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, true, kiln_etc2_rgba_decode_block},
    {KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK, false, kiln_eac_r11_decode_block},
    {KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK, false, kiln_eac_rg11_decode_block},
};

static int target_index(uint32_t vk_format)
{
    for (size_t i = 0; i < sizeof k_targets / sizeof k_targets[0]; i++)
        if (k_targets[i].vk == vk_format) return (int)i;
    return -1;
}

uint32_t kiln_transcode_rgba8_format(uint32_t vk_format)
{
    int t = target_index(vk_format);
    if (t >= 0)
        return k_targets[t].srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM;
    bool srgb;
    kiln_texture_format f = kiln_texture_format_of_vk(vk_format, &srgb);
    return output_format(f, srgb);
}

/* A level of 4x4 blocks of a Basis target format to RGBA8 (sizes checked by the caller). */
static void decode_target_level(int t, const uint8_t *blocks, uint32_t w, uint32_t h, uint8_t *rgba)
{
    const kiln_vk_format_info *f = kiln_vk_format_find(k_targets[t].vk);
    uint8_t texels[64];
    size_t bx_count = (w + 3) / 4, by_count = (h + 3) / 4;
    for (size_t by = 0; by < by_count; by++)
        for (size_t bx = 0; bx < bx_count; bx++) {
            k_targets[t].decode(blocks + (by * bx_count + bx) * f->block_size, texels);
            size_t rows = h - by * 4 < 4 ? h - by * 4 : 4, cols = w - bx * 4 < 4 ? w - bx * 4 : 4;
            for (size_t y = 0; y < rows; y++)
                memcpy(rgba + ((by * 4 + y) * w + bx * 4) * 4, texels + y * 16, cols * 4);
        }
}

kiln_result kiln_transcode_rgba8(uint32_t vk_format, const uint8_t *blocks, size_t size,
                                 uint32_t width, uint32_t height, uint8_t *rgba, size_t rgba_size,
                                 kiln_error *err)
{
    bool srgb;
    kiln_texture_format f = kiln_texture_format_of_vk(vk_format, &srgb);
    uint32_t to = kiln_transcode_rgba8_format(vk_format);
    int target = target_index(vk_format);
    if (to == KILN_VK_FORMAT_UNDEFINED)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "kiln_transcode_rgba8: vkFormat %u is not a format kiln decodes to "
                              "RGBA8",
                              vk_format);
    if (!blocks || !rgba || width == 0 || height == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba8: NULL data or empty level (%ux%u)", width,
                              height);
    size_t texels, out_need, in_need;
    uint64_t target_need = 0;
    if (target >= 0 &&
        !kiln_vk_format_image_size(kiln_vk_format_find(vk_format), width, height, &target_need))
        target_need = UINT64_MAX;
    in_need = (size_t)target_need;
    if (!kiln_size_mul(width, height, &texels) || !kiln_size_mul(texels, 4, &out_need) ||
        target_need > SIZE_MAX ||
        (target < 0 && !kiln_texture_format_level_size(f, width, height, &in_need)))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_transcode_rgba8: %ux%u is too large", width,
                              height);
    if (rgba_size < out_need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba8: %zu output bytes, %ux%u RGBA8 needs %zu",
                              rgba_size, width, height, out_need);
    if (size < in_need)
        return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                              "kiln_transcode_rgba8: %zu bytes of data, a %ux%u level needs %zu",
                              size, width, height, in_need);
    if (to == vk_format) { /* RGBA8 already */
        memcpy(rgba, blocks, out_need);
        return KILN_OK;
    }
    if (target >= 0) {
        decode_target_level(target, blocks, width, height, rgba);
        return KILN_OK;
    }
    kiln_texture_format_decode_level(f, srgb, blocks, width, height, rgba);
    return KILN_OK;
}
