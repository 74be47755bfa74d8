/* block.c — the block-format driver: edge padding, rows of blocks on the job pool, and the table
 * of per-format encoders and decoders. */
#include "process/block.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/astc.h"
#include "process/bc1.h"
#include "process/bc7.h"

typedef struct block_codec {
    const char *name;
    size_t bytes;
    kiln_block_encode_fn encode;   /* NULL for ASTC: whole images through libastcenc */
    kiln_block_decode_fn decode;
} block_codec;

static const block_codec codecs[KILN_BLOCK_FORMAT_COUNT] = {
    [KILN_BLOCK_BC1] = {"bc1", 8, kiln_bc1_encode_block, kiln_bc1_decode_block},
    [KILN_BLOCK_BC4] = {"bc4", 8, kiln_bc4_encode_block, kiln_bc4_decode_block},
    [KILN_BLOCK_BC5] = {"bc5", 16, kiln_bc5_encode_block, kiln_bc5_decode_block},
    [KILN_BLOCK_BC7] = {"bc7", 16, kiln_bc7_encode_block, kiln_bc7_decode_block},
    [KILN_BLOCK_ASTC4X4] = {"astc4x4", 16, NULL, NULL},
};

size_t kiln_block_bytes(kiln_block_format f)
{
    return (unsigned)f < KILN_BLOCK_FORMAT_COUNT ? codecs[f].bytes : 0;
}

const char *kiln_block_format_name(kiln_block_format f)
{
    return (unsigned)f < KILN_BLOCK_FORMAT_COUNT ? codecs[f].name : "unknown";
}

bool kiln_blocks_size(kiln_block_format f, uint32_t w, uint32_t h, size_t *out)
{
    size_t bw = ((size_t)w + 3) / 4, bh = ((size_t)h + 3) / 4, n;
    return kiln_block_bytes(f) && kiln_size_mul(bw, bh, &n) && kiln_size_mul(n, kiln_block_bytes(f), out);
}

/* Gathers block (bx, by) into 16 texels, clamping coordinates to the image (edge padding). */
static void gather_block(const uint8_t *rgba, uint32_t w, uint32_t h, size_t stride, uint32_t bx,
                         uint32_t by, uint8_t texels[64])
{
    for (uint32_t y = 0; y < 4; y++) {
        uint32_t sy = by * 4 + y < h ? by * 4 + y : h - 1;
        const uint8_t *row = rgba + (size_t)sy * stride;
        for (uint32_t x = 0; x < 4; x++) {
            uint32_t sx = bx * 4 + x < w ? bx * 4 + x : w - 1;
            memcpy(texels + (y * 4 + x) * 4, row + (size_t)sx * 4, 4);
        }
    }
}

typedef struct encode_job {
    const block_codec *codec;
    const uint8_t *rgba;
    uint32_t w, h, blocks_x;
    size_t stride;
    const kiln_block_opts *opts;
    uint8_t *out;
} encode_job;

static kiln_result encode_row(void *user, size_t by, size_t worker, kiln_error *err)
{
    const encode_job *j = user;
    uint8_t texels[64];
    uint8_t *dst = j->out + by * j->blocks_x * j->codec->bytes;
    for (uint32_t bx = 0; bx < j->blocks_x; bx++) {
        gather_block(j->rgba, j->w, j->h, j->stride, bx, (uint32_t)by, texels);
        j->codec->encode(texels, j->opts, dst + bx * j->codec->bytes);
    }
    return KILN_OK;
}

kiln_result kiln_blocks_encode(kiln_block_format f, const uint8_t *rgba, uint32_t w, uint32_t h,
                               size_t stride, const kiln_block_opts *o, kiln_jobs *jobs,
                               uint8_t *out, size_t out_size, kiln_error *err)
{
    size_t need;
    if ((unsigned)f >= KILN_BLOCK_FORMAT_COUNT || !rgba || !out || !o || w == 0 || h == 0 ||
        stride < (size_t)w * 4 || !kiln_blocks_size(f, w, h, &need) || out_size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_blocks_encode: bad arguments (%ux%u %s)",
                              w, h, kiln_block_format_name(f));
    if (f == KILN_BLOCK_ASTC4X4) {
        if (stride != (size_t)w * 4)
            return kiln_error_set(err, KILN_E_USAGE, "ASTC needs tightly packed rows");
        return kiln_astc_encode(rgba, w, h, o, jobs, out, out_size, err);
    }
    encode_job j = {&codecs[f], rgba, w, h, (w + 3) / 4, stride, o, out};
    return kiln_jobs_for(jobs, (h + 3) / 4, encode_row, &j, err);
}

kiln_result kiln_blocks_decode(kiln_block_format f, const uint8_t *blocks, size_t size,
                               uint32_t w, uint32_t h, bool srgb, uint8_t *rgba, kiln_error *err)
{
    size_t need;
    if ((unsigned)f >= KILN_BLOCK_FORMAT_COUNT || !blocks || !rgba || w == 0 || h == 0 ||
        !kiln_blocks_size(f, w, h, &need) || size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_blocks_decode: bad arguments (%ux%u %s)",
                              w, h, kiln_block_format_name(f));
    if (f == KILN_BLOCK_ASTC4X4) return kiln_astc_decode(blocks, size, w, h, srgb, rgba, err);
    const block_codec *c = &codecs[f];
    uint32_t bxn = (w + 3) / 4, byn = (h + 3) / 4;
    uint8_t texels[64];
    for (uint32_t by = 0; by < byn; by++) {
        for (uint32_t bx = 0; bx < bxn; bx++) {
            c->decode(blocks + ((size_t)by * bxn + bx) * c->bytes, texels);
            for (uint32_t y = 0; y < 4 && by * 4 + y < h; y++) {
                uint32_t n = bx * 4 + 4 <= w ? 4 : w - bx * 4;
                memcpy(rgba + (((size_t)by * 4 + y) * w + bx * 4) * 4, texels + y * 16, n * 4);
            }
        }
    }
    return KILN_OK;
}
