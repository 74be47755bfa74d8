/* fuzz_transcode.c — libFuzzer target for kiln_transcode_rgba8, the runtime's CPU fallback for
 * block formats a renderer cannot sample, fed from untrusted KTX2 levels (and, for RGBA16F,
 * kiln_transcode_rgba16f_srgb8, the picture decoder; and kiln_transcode_rgba16f, the fallback for
 * HDR formats). Input: byte 0 picks the vkFormat (one of kiln's twenty-four, or any other value),
 * bytes 1-2 and 3-4 the width and height (little-endian, 1..1024 each), byte 5 shortens the output
 * buffer when odd; the rest are the level's bytes, passed at their true length so short data must
 * be refused. Every call must return a code; KILN_OK only when the data was long enough, with the
 * output written in full and not a byte past it (the buffer is exactly the size given), and
 * deterministic. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t k_formats[] = {
    KILN_VK_FORMAT_R8G8B8A8_UNORM,
    KILN_VK_FORMAT_R8G8B8A8_SRGB,
    KILN_VK_FORMAT_R16G16B16A16_SFLOAT,
    KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK,
    KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK,
    KILN_VK_FORMAT_BC4_UNORM_BLOCK,
    KILN_VK_FORMAT_BC5_UNORM_BLOCK,
    KILN_VK_FORMAT_BC7_UNORM_BLOCK,
    KILN_VK_FORMAT_BC7_SRGB_BLOCK,
    KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
    KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK,
    KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK,
    KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK,
    KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32,
    KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32,
    KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK,
    KILN_VK_FORMAT_BC3_UNORM_BLOCK,
    KILN_VK_FORMAT_BC3_SRGB_BLOCK,
    KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
    KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
    KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
    KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
    KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK,
    KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK,
};
#define FORMAT_COUNT (sizeof k_formats / sizeof k_formats[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6) return 0;
    uint32_t fmt = data[0] < FORMAT_COUNT ? k_formats[data[0]] : data[0] * 7u;
    uint32_t w = 1u + ((uint32_t)data[1] | (uint32_t)data[2] << 8) % 1024u;
    uint32_t h = 1u + ((uint32_t)data[3] | (uint32_t)data[4] << 8) % 1024u;
    size_t out_size = (size_t)w * h * 4 - (data[5] & 1);
    const uint8_t *blocks = data + 6;
    size_t blocks_size = size - 6;
    uint8_t *out = malloc(out_size ? out_size : 1), *again = malloc(out_size ? out_size : 1);
    if (!out || !again) {
        free(out);
        free(again);
        return 0;
    }
    memset(out, 0xA5, out_size);
    memset(again, 0x5A, out_size);
    kiln_error err;
    kiln_result r = kiln_transcode_rgba8(fmt, blocks, blocks_size, w, h, out, out_size, &err);
    if (r != KILN_OK && err.code != r) abort();
    if (r == KILN_OK) {
        /* The data must have held every block: the size comes from the format table, which
         * also knows the formats the fuzzer reaches only through the "any other value" bytes. */
        uint32_t bw_px = 0, bh_px = 0, bsize = 0;
        if (!kiln_vk_format_block(fmt, &bw_px, &bh_px, &bsize) || !bw_px || !bh_px) abort();
        size_t bw = (w + bw_px - 1) / bw_px, bh = (h + bh_px - 1) / bh_px;
        if (kiln_transcode_rgba8_format(fmt) == KILN_VK_FORMAT_UNDEFINED) abort();
        if (blocks_size < bw * bh * bsize || out_size < (size_t)w * h * 4) abort();
        /* Every byte written: a second run over a differently filled buffer gives the same. */
        kiln_result r2 =
            kiln_transcode_rgba8(fmt, blocks, blocks_size, w, h, again, out_size, NULL);
        if (r2 != KILN_OK || memcmp(out, again, out_size) != 0) abort();
    } else if (r == KILN_E_IMPORT_UNSUPPORTED) {
        if (kiln_transcode_rgba8_format(fmt) != KILN_VK_FORMAT_UNDEFINED) abort();
    }
    /* The HDR fallback to RGBA16F: 8 bytes a texel, the same promises. */
    {
        size_t out16 = (size_t)w * h * 8 - (data[5] & 1);
        uint8_t *o1 = malloc(out16), *o2 = malloc(out16);
        if (o1 && o2) {
            memset(o1, 0xA5, out16);
            memset(o2, 0x5A, out16);
            r = kiln_transcode_rgba16f(fmt, blocks, blocks_size, w, h, o1, out16, &err);
            if (r != KILN_OK && err.code != r) abort();
            if ((r == KILN_E_IMPORT_UNSUPPORTED) !=
                (kiln_transcode_rgba16f_format(fmt) == KILN_VK_FORMAT_UNDEFINED))
                abort();
            if (r == KILN_OK && (out16 < (size_t)w * h * 8 ||
                                 kiln_transcode_rgba16f(fmt, blocks, blocks_size, w, h, o2, out16,
                                                        NULL) != KILN_OK ||
                                 memcmp(o1, o2, out16) != 0))
                abort();
        }
        free(o1);
        free(o2);
    }
    if (fmt == KILN_VK_FORMAT_R16G16B16A16_SFLOAT) {
        /* The picture decoder of RGBA16F: byte 5's bit 1 picks the tone map, the rest an
         * exposure of -32..31. */
        uint32_t tonemap = (data[5] >> 1) & 1u;
        float exposure = (float)(data[5] >> 2) - 32.0f;
        memset(out, 0xA5, out_size);
        memset(again, 0x5A, out_size);
        r = kiln_transcode_rgba16f_srgb8(blocks, blocks_size, w, h, tonemap, exposure, out,
                                         out_size, &err);
        if (r != KILN_OK && err.code != r) abort();
        bool fits = blocks_size >= (size_t)w * h * 8 && out_size >= (size_t)w * h * 4;
        if ((r == KILN_OK) != fits) abort();
        if (r == KILN_OK &&
            (kiln_transcode_rgba16f_srgb8(blocks, blocks_size, w, h, tonemap, exposure, again,
                                          out_size, NULL) != KILN_OK ||
             memcmp(out, again, out_size) != 0))
            abort();
    }
    free(out);
    free(again);
    return 0;
}
