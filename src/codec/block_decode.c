/* block_decode.c — kiln_transcode_rgba8: one level of 4x4 blocks (or RGBA8 texels) to tightly
 * packed RGBA8 on the CPU, for renderers that cannot sample the stored format. The row of the
 * VkFormat in the texture format table (texture_format.c) gives the block shape and the decoder
 * (bc_decode.c, bc7_decode.c, astc_decode.c). Sizes are checked before any byte is touched, with
 * overflow-checked arithmetic; the input only needs to be as long as the level, and every byte
 * pattern decodes. Part of libkiln_rt: libc only. */
#include <string.h>

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

uint32_t kiln_transcode_rgba8_format(uint32_t vk_format)
{
    bool srgb;
    kiln_texture_format f = kiln_texture_format_of_vk(vk_format, &srgb);
    return output_format(f, srgb);
}

kiln_result kiln_transcode_rgba8(uint32_t vk_format, const uint8_t *blocks, size_t size,
                                 uint32_t width, uint32_t height, uint8_t *rgba, size_t rgba_size,
                                 kiln_error *err)
{
    bool srgb;
    kiln_texture_format f = kiln_texture_format_of_vk(vk_format, &srgb);
    uint32_t to = output_format(f, srgb);
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
    if (!kiln_size_mul(width, height, &texels) || !kiln_size_mul(texels, 4, &out_need) ||
        !kiln_texture_format_level_size(f, width, height, &in_need))
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
    kiln_texture_format_decode_level(f, srgb, blocks, width, height, rgba);
    return KILN_OK;
}
