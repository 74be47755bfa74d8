/* fuzz_blocks.c — the block decoders (BC1, BC4, BC5, BC7, ASTC 4x4, and to half floats BC6H
 * unsigned and signed and ASTC 4x4 HDR) over arbitrary bytes, as
 * `kiln inspect --compare` and the runtime's CPU fallback feed them from untrusted KTX2 files.
 * Input: byte 0 picks the format, bytes 1-2 the size in texels (1..64 each), the rest are blocks;
 * a short input is padded with zeros so every input decodes something. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "process/block.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) return 0;
    kiln_block_format f = (kiln_block_format)(data[0] % KILN_BLOCK_FORMAT_COUNT);
    uint32_t w = 1u + data[1] % 64u, h = 1u + data[2] % 64u;
    bool srgb = (data[0] & 0x80) != 0;
    size_t need;
    if (!kiln_blocks_size(f, w, h, &need)) return 0;
    uint8_t *blocks = calloc(1, need);
    uint8_t *rgba = malloc((size_t)w * h * 8);
    if (blocks && rgba) {
        memcpy(blocks, data + 3, size - 3 < need ? size - 3 : need);
        if (kiln_texture_format_get(f)->hdr)
            kiln_blocks_decode_half(f, blocks, need, w, h, (uint16_t *)rgba, NULL);
        else kiln_blocks_decode(f, blocks, need, w, h, srgb, rgba, NULL);
    }
    free(blocks);
    free(rgba);
    return 0;
}
