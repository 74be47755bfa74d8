/* fuzz_basislz.c — libFuzzer target for the ETC1S/BasisLZ reader and transcoder
 * (src/codec/basislz_*.c), fed untrusted global data and slice bytes. Input: byte 0 picks the
 * image count (1..4), bytes 1-2 and 3-4 the width and height (little-endian, 1..256 each), bytes
 * 5-8 the global data's length (little-endian, cut to what follows); then the global data, then
 * the rest as the level's bytes. Every image goes through every target into a buffer of exactly
 * the size asked for. Every call must return a code that matches err; a transcode must be
 * deterministic. Seeds: KTX2 files `basisu -ktx2` made of small synthetic images (with and
 * without alpha, 1x1 to 13x9, with mipmaps), repacked in this layout. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/basislz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9) return 0;
    uint32_t count = 1u + data[0] % 4u;
    uint32_t w = 1u + ((uint32_t)data[1] | (uint32_t)data[2] << 8) % 256u;
    uint32_t h = 1u + ((uint32_t)data[3] | (uint32_t)data[4] << 8) % 256u;
    size_t sgd_size =
        (size_t)data[5] | (size_t)data[6] << 8 | (size_t)data[7] << 16 | (size_t)data[8] << 24;
    if (sgd_size > size - 9) sgd_size = size - 9;
    const uint8_t *sgd = data + 9, *level = sgd + sgd_size;
    size_t level_size = size - 9 - sgd_size;

    kiln_basislz *g = NULL;
    kiln_error err;
    kiln_result r = kiln_basislz_open(sgd, sgd_size, count, NULL, &g, &err);
    if (r != KILN_OK) {
        if (err.code != r || g) abort();
        return 0;
    }
    if (kiln_basislz_image_count(g) != count) abort();
    for (uint32_t i = 0; i < count; i++) {
        for (int t = 0; t < KILN_BASIS_TARGET_COUNT; t++) {
            size_t n = kiln_basislz_output_size((kiln_basis_target)t, w, h);
            uint8_t *out = malloc(n), *again = malloc(n);
            if (!out || !again) abort();
            r = kiln_basislz_transcode(g, i, level, level_size, w, h, (kiln_basis_target)t, out, n,
                                       &err);
            if (r != KILN_OK && err.code != r) abort();
            if (r == KILN_OK) {
                kiln_result r2 = kiln_basislz_transcode(g, i, level, level_size, w, h,
                                                        (kiln_basis_target)t, again, n, &err);
                if (r2 != KILN_OK || memcmp(out, again, n) != 0) abort();
            }
            free(out);
            free(again);
        }
    }
    kiln_basislz_close(g, NULL);
    return 0;
}
