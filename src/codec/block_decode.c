/* block_decode.c — kiln_transcode_rgba8: one level of 4x4 blocks (or RGBA8 texels) to tightly
 * packed RGBA8 on the CPU, for renderers that cannot sample the stored format (issue 6). The
 * per-block decoders are bc_decode.c, bc7_decode.c and astc_decode.c. Sizes are checked before
 * any byte is touched, with overflow-checked arithmetic; the input only needs to be as long as
 * the level, and every byte pattern decodes. Part of libkiln_rt: libc only. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "codec/block_decode.h"
#include "kiln/kiln_format.h"

typedef enum transcode_kind {
    TRANSCODE_NONE = 0,
    TRANSCODE_COPY,   /* RGBA8 already */
    TRANSCODE_BC1,
    TRANSCODE_BC4,
    TRANSCODE_BC5,
    TRANSCODE_BC7,
    TRANSCODE_ASTC,
} transcode_kind;

typedef struct transcode_format {
    transcode_kind kind;
    bool srgb;
    uint32_t block_size; /* bytes of a 4x4 block, or of a texel for TRANSCODE_COPY */
} transcode_format;

static transcode_format transcode_lookup(uint32_t vk_format)
{
    switch (vk_format) {
    case KILN_VK_FORMAT_R8G8B8A8_UNORM: return (transcode_format){TRANSCODE_COPY, false, 4};
    case KILN_VK_FORMAT_R8G8B8A8_SRGB: return (transcode_format){TRANSCODE_COPY, true, 4};
    case KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK: return (transcode_format){TRANSCODE_BC1, false, 8};
    case KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK: return (transcode_format){TRANSCODE_BC1, true, 8};
    case KILN_VK_FORMAT_BC4_UNORM_BLOCK: return (transcode_format){TRANSCODE_BC4, false, 8};
    case KILN_VK_FORMAT_BC5_UNORM_BLOCK: return (transcode_format){TRANSCODE_BC5, false, 16};
    case KILN_VK_FORMAT_BC7_UNORM_BLOCK: return (transcode_format){TRANSCODE_BC7, false, 16};
    case KILN_VK_FORMAT_BC7_SRGB_BLOCK: return (transcode_format){TRANSCODE_BC7, true, 16};
    case KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK: return (transcode_format){TRANSCODE_ASTC, false, 16};
    case KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK: return (transcode_format){TRANSCODE_ASTC, true, 16};
    default: return (transcode_format){TRANSCODE_NONE, false, 0};
    }
}

uint32_t kiln_transcode_rgba8_format(uint32_t vk_format)
{
    transcode_format f = transcode_lookup(vk_format);
    if (f.kind == TRANSCODE_NONE) return KILN_VK_FORMAT_UNDEFINED;
    return f.srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM;
}

static void decode_block(const transcode_format *f, const uint8_t *in, uint8_t texels[64])
{
    switch (f->kind) {
    case TRANSCODE_BC1: kiln_bc1_decode_block(in, texels); break;
    case TRANSCODE_BC4: kiln_bc4_decode_block(in, texels); break;
    case TRANSCODE_BC5: kiln_bc5_decode_block(in, texels); break;
    case TRANSCODE_BC7: kiln_bc7_decode_block(in, texels); break;
    case TRANSCODE_ASTC: kiln_astc_decode_block(in, f->srgb, texels); break;
    default: memset(texels, 0, 64); break;
    }
}

kiln_result kiln_transcode_rgba8(uint32_t vk_format, const uint8_t *blocks, size_t size,
                                 uint32_t width, uint32_t height, uint8_t *rgba, size_t rgba_size,
                                 kiln_error *err)
{
    transcode_format f = transcode_lookup(vk_format);
    if (f.kind == TRANSCODE_NONE)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "kiln_transcode_rgba8: vkFormat %u is not a format kiln decodes to "
                              "RGBA8", vk_format);
    if (!blocks || !rgba || width == 0 || height == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba8: NULL data or empty level (%ux%u)", width,
                              height);
    size_t texels, out_need, in_need;
    size_t bw = f.kind == TRANSCODE_COPY ? width : ((size_t)width + 3) / 4;
    size_t bh = f.kind == TRANSCODE_COPY ? height : ((size_t)height + 3) / 4;
    if (!kiln_size_mul(width, height, &texels) || !kiln_size_mul(texels, 4, &out_need) ||
        !kiln_size_mul(bw, bh, &in_need) || !kiln_size_mul(in_need, f.block_size, &in_need))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_transcode_rgba8: %ux%u is too large",
                              width, height);
    if (rgba_size < out_need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_transcode_rgba8: %zu output bytes, %ux%u RGBA8 needs %zu",
                              rgba_size, width, height, out_need);
    if (size < in_need)
        return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                              "kiln_transcode_rgba8: %zu bytes of data, a %ux%u level needs %zu",
                              size, width, height, in_need);
    if (f.kind == TRANSCODE_COPY) {
        memcpy(rgba, blocks, out_need);
        return KILN_OK;
    }

    const size_t row_size = (size_t)width * 4; /* <= out_need: no overflow */
    uint8_t texels4x4[64];
    for (size_t by = 0; by < bh; by++) {
        size_t rows = height - by * 4 < 4 ? height - by * 4 : 4;
        for (size_t bx = 0; bx < bw; bx++) {
            decode_block(&f, blocks + (by * bw + bx) * f.block_size, texels4x4);
            size_t cols = width - bx * 4 < 4 ? width - bx * 4 : 4;
            uint8_t *dst = rgba + by * 4 * row_size + bx * 16;
            for (size_t y = 0; y < rows; y++)
                memcpy(dst + y * row_size, texels4x4 + y * 16, cols * 4);
        }
    }
    return KILN_OK;
}
