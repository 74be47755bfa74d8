/* hdr_transcode.c — kiln_transcode_rgba16f: one level of an HDR format (BC6H, RGB9E5,
 * B10G11R11, or RGBA16F itself) to tightly packed R16G16B16A16_SFLOAT on the CPU, for renderers
 * that cannot sample the stored format. The row of the VkFormat in the texture format table
 * gives the block shape and the decoder to halves (bc6h_decode.c, packed_float_decode.c). Sizes
 * are checked before any byte is touched, with overflow-checked arithmetic. Part of libkiln_rt:
 * libc only. */
#include <string.h>

#include "codec/texture_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "kiln/kiln_format.h"

uint32_t kiln_transcode_rgba16f_format(uint32_t vk_format)
{
    const kiln_texture_format_info *row =
        kiln_texture_format_get(kiln_texture_format_of_vk(vk_format, NULL));
    return row && row->decode_half ? KILN_VK_FORMAT_R16G16B16A16_SFLOAT : KILN_VK_FORMAT_UNDEFINED;
}

kiln_result kiln_transcode_rgba16f(uint32_t vk_format, const uint8_t *data, size_t size,
                                   uint32_t width, uint32_t height, uint8_t *out, size_t out_size,
                                   kiln_error *err)
{
    kiln_texture_format f = kiln_texture_format_of_vk(vk_format, NULL);
    if (kiln_transcode_rgba16f_format(vk_format) == KILN_VK_FORMAT_UNDEFINED)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "kiln_transcode_rgba16f: vkFormat %u is not a format kiln decodes "
                              "to RGBA16F",
                              vk_format);
    if (!data || !out || width == 0 || height == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba16f: NULL data or empty level (%ux%u)", width,
                              height);
    size_t texels, out_need, in_need;
    if (!kiln_size_mul(width, height, &texels) || !kiln_size_mul(texels, 8, &out_need) ||
        !kiln_texture_format_level_size(f, width, height, &in_need))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_transcode_rgba16f: %ux%u is too large",
                              width, height);
    if (out_size < out_need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba16f: %zu output bytes, %ux%u RGBA16F needs %zu",
                              out_size, width, height, out_need);
    if (size < in_need)
        return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                              "kiln_transcode_rgba16f: %zu bytes of data, a %ux%u level needs %zu",
                              size, width, height, in_need);
    if (vk_format == KILN_VK_FORMAT_R16G16B16A16_SFLOAT) {
        memcpy(out, data, out_need);
        return KILN_OK;
    }
    /* Decode a band of block rows at a time into halves, then store them little-endian: the
     * output buffer is bytes, and need not be aligned for uint16_t. */
    const kiln_vk_format_info *b = kiln_texture_format_block(f);
    const size_t band_rows = b->block_height;
    const size_t blocks_x = (width + b->block_width - 1) / b->block_width;
    uint16_t band[4 * 4 * 4 * 64]; /* 64 blocks of at most 4x4 texels */
    for (size_t y = 0; y < height; y += band_rows) {
        size_t rows = height - y < band_rows ? height - y : band_rows;
        for (size_t x0 = 0; x0 < blocks_x; x0 += 64) {
            size_t nb = blocks_x - x0 < 64 ? blocks_x - x0 : 64;
            size_t cols = nb * b->block_width;
            if (x0 * b->block_width + cols > width) cols = width - x0 * b->block_width;
            /* nb blocks -> a cols x rows piece through the level decoder on a sub-level. */
            const uint8_t *src = data + ((y / band_rows) * blocks_x + x0) * b->block_size;
            kiln_texture_format_decode_level_half(f, src, (uint32_t)cols, (uint32_t)rows, band);
            for (size_t r = 0; r < rows; r++) {
                uint8_t *dst = out + ((y + r) * width + x0 * b->block_width) * 8;
                for (size_t i = 0; i < cols * 4; i++) {
                    uint16_t h = band[r * cols * 4 + i];
                    dst[2 * i] = (uint8_t)(h & 0xFFu);
                    dst[2 * i + 1] = (uint8_t)(h >> 8);
                }
            }
        }
    }
    return KILN_OK;
}
