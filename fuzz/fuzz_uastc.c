/* fuzz_uastc.c — libFuzzer target for kiln_uastc_transcode (UASTC levels from untrusted KTX2
 * files, to every transcode target). Input: byte 0 picks the target (one of basis.h's, or an
 * unknown value), bytes 1-2 and 3-4 the width and height (little-endian, 1..256 each), byte 5's
 * bit 0 shortens the output buffer by one byte and bit 1 is has_alpha; the rest are the blocks,
 * passed at their true length so short data must be refused. Every call must return a code and
 * fill err with it; KILN_OK exactly when the sizes fit and every block unpacks, with the output
 * written in full and not a byte past it (the buffer is exactly the size given), deterministic.
 * Each block that unpacks must also decode (sRGB) exactly as its ASTC transcode does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/block_decode.h"
#include "codec/uastc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t block_size(unsigned t)
{
    switch (t) {
    case KILN_BASIS_TARGET_BC1:
    case KILN_BASIS_TARGET_BC4:
    case KILN_BASIS_TARGET_ETC1:
    case KILN_BASIS_TARGET_EAC_R11:
        return 8;
    default:
        return 16;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6) return 0;
    const unsigned target = data[0] <= KILN_BASIS_TARGET_COUNT ? data[0] : data[0] * 7u;
    const uint32_t w = 1u + ((uint32_t)data[1] | (uint32_t)data[2] << 8) % 256u;
    const uint32_t h = 1u + ((uint32_t)data[3] | (uint32_t)data[4] << 8) % 256u;
    const bool has_alpha = (data[5] & 2) != 0;
    const uint8_t *blocks = data + 6;
    const size_t blocks_size = size - 6;
    const size_t nb = (size_t)((w + 3) / 4) * ((h + 3) / 4);
    const bool known = target < KILN_BASIS_TARGET_COUNT;
    const size_t need =
        target == KILN_BASIS_TARGET_RGBA8 ? (size_t)w * h * 4 : nb * block_size(target);
    const size_t out_size = need - (data[5] & 1);
    uint8_t *out = malloc(out_size ? out_size : 1), *again = malloc(out_size ? out_size : 1);
    if (!out || !again) {
        free(out);
        free(again);
        return 0;
    }
    memset(out, 0xA5, out_size);
    memset(again, 0x5A, out_size);
    kiln_error err;
    kiln_result r = kiln_uastc_transcode((kiln_basis_target)target, blocks, blocks_size, w, h,
                                         has_alpha, out, out_size, &err);
    if (r != KILN_OK && err.code != r) abort();
    bool all_valid = true;
    for (size_t i = 0; i < nb && (i + 1) * 16 <= blocks_size; i++) {
        kiln_uastc_block b;
        if (!kiln_uastc_unpack(blocks + i * 16, &b)) {
            all_valid = false;
            continue;
        }
        uint8_t a[64], c[64], astc[16];
        kiln_uastc_decode(&b, true, a);
        kiln_uastc_to_astc(&b, astc);
        kiln_astc_decode_block(astc, true, c);
        if (memcmp(a, c, 64)) abort();
    }
    const bool fits = known && blocks_size >= nb * 16 && out_size >= need;
    if ((r == KILN_OK) != (fits && all_valid)) abort();
    if (r == KILN_OK) {
        kiln_result r2 = kiln_uastc_transcode((kiln_basis_target)target, blocks, blocks_size, w, h,
                                              has_alpha, again, out_size, &err);
        if (r2 != KILN_OK || memcmp(out, again, out_size)) abort();
    }
    free(out);
    free(again);
    return 0;
}
