/* block.c — the cook's encoder of every row of the texture format table, and the block driver:
 * edge padding, rows of blocks on the job pool, decoding through the row's decoder (or the
 * encoding library's own). */
#include "process/block.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/astc.h"
#include "process/bc1.h"
#include "process/bc6h.h"
#include "process/bc7.h"

/* One entry per row of the texture format table (codec/texture_format.h), by the same id. */
static const kiln_texture_encoder k_encoders[] = {
    [KILN_TEXFMT_BC7] = {KILN_TEXELS_RGBA8, kiln_bc7_encode_block, NULL, NULL, NULL},
    [KILN_TEXFMT_BC5] = {KILN_TEXELS_RGBA8, kiln_bc5_encode_block, NULL, NULL, NULL},
    [KILN_TEXFMT_BC4] = {KILN_TEXELS_RGBA8, kiln_bc4_encode_block, NULL, NULL, NULL},
    [KILN_TEXFMT_BC1] = {KILN_TEXELS_RGBA8, kiln_bc1_encode_block, NULL, NULL, NULL},
    [KILN_TEXFMT_ASTC4X4] = {KILN_TEXELS_RGBA8, NULL, kiln_astc_encode, kiln_astc_decode, NULL},
    [KILN_TEXFMT_RGBA8] = {KILN_TEXELS_RGBA8, NULL, NULL, NULL, NULL},
    [KILN_TEXFMT_RGBA16F] = {KILN_TEXELS_RGBA16F, NULL, NULL, NULL, NULL},
    [KILN_TEXFMT_BC6H] = {KILN_TEXELS_RGBA16F, kiln_bc6h_encode_block, NULL, NULL, NULL},
    [KILN_TEXFMT_BC6H_SF] = {KILN_TEXELS_RGBA16F, kiln_bc6h_sf_encode_block, NULL, NULL, NULL},
    [KILN_TEXFMT_RGB9E5] = {KILN_TEXELS_RGB9E5, NULL, NULL, NULL, NULL},
    [KILN_TEXFMT_B10G11R11] = {KILN_TEXELS_B10G11R11, NULL, NULL, NULL, NULL},
    [KILN_TEXFMT_ASTC4X4_HDR] = {KILN_TEXELS_RGBA16F, NULL, kiln_astc_hdr_encode, NULL,
                                 kiln_astc_hdr_decode},
    /* Basis: RGBA8 levels here, encoded as a whole when the file is written (cook_texture.c) */
    [KILN_TEXFMT_UASTC] = {KILN_TEXELS_RGBA8, NULL, NULL, NULL, NULL},
    [KILN_TEXFMT_ETC1S] = {KILN_TEXELS_RGBA8, NULL, NULL, NULL, NULL},
};
/* The last row is covered; tests/process checks that none between lacks an encoder. */
_Static_assert(sizeof k_encoders / sizeof k_encoders[0] == KILN_TEXFMT_COUNT,
               "every texture format has an encoder");

const kiln_texture_encoder *kiln_texture_encoder_of(kiln_texture_format f)
{
    return kiln_texture_format_get(f) ? &k_encoders[f] : NULL;
}

uint32_t kiln_texels_size(kiln_texels t) { return t == KILN_TEXELS_RGBA16F ? 8 : 4; }

/* Bytes of one texel of the input of f's encoder. */
static size_t texel_size_of(const kiln_texture_encoder *e) { return kiln_texels_size(e->texels); }

/* The encoder of a format kiln block-compresses, NULL for the others. */
static const kiln_texture_encoder *compressor_of(kiln_block_format f)
{
    const kiln_texture_encoder *e = kiln_texture_encoder_of(f);
    return e && (e->block || e->level) ? e : NULL;
}

size_t kiln_block_bytes(kiln_block_format f)
{
    const kiln_vk_format_info *b = compressor_of(f) ? kiln_texture_format_block(f) : NULL;
    return b ? b->block_size : 0;
}

const char *kiln_block_format_name(kiln_block_format f)
{
    return compressor_of(f) ? kiln_texture_format_name(f) : "unknown";
}

bool kiln_blocks_size(kiln_block_format f, uint32_t w, uint32_t h, size_t *out)
{
    return compressor_of(f) && kiln_texture_format_level_size(f, w, h, out);
}

/* Gathers block (bx, by) into 16 texels of ts bytes, clamping coordinates to the image (edge
 * padding). */
static void gather_block(const uint8_t *rgba, uint32_t w, uint32_t h, size_t stride, size_t ts,
                         uint32_t bx, uint32_t by, uint8_t *texels)
{
    for (uint32_t y = 0; y < 4; y++) {
        uint32_t sy = by * 4 + y < h ? by * 4 + y : h - 1;
        const uint8_t *row = rgba + (size_t)sy * stride;
        for (uint32_t x = 0; x < 4; x++) {
            uint32_t sx = bx * 4 + x < w ? bx * 4 + x : w - 1;
            memcpy(texels + (y * 4 + x) * ts, row + (size_t)sx * ts, ts);
        }
    }
}

typedef struct encode_job {
    kiln_block_encode_fn encode;
    size_t block_size, texel_size;
    const uint8_t *rgba;
    uint32_t w, h, blocks_x;
    size_t stride;
    const kiln_block_opts *opts;
    uint8_t *out;
} encode_job;

static kiln_result encode_row(void *user, size_t by, size_t worker, kiln_error *err)
{
    const encode_job *j = user;
    uint8_t texels[16 * 8];
    uint8_t *dst = j->out + by * j->blocks_x * j->block_size;
    for (uint32_t bx = 0; bx < j->blocks_x; bx++) {
        gather_block(j->rgba, j->w, j->h, j->stride, j->texel_size, bx, (uint32_t)by, texels);
        j->encode(texels, j->opts, dst + bx * j->block_size);
    }
    return KILN_OK;
}

kiln_result kiln_blocks_encode(kiln_block_format f, const uint8_t *rgba, uint32_t w, uint32_t h,
                               size_t stride, const kiln_block_opts *o, kiln_jobs *jobs,
                               uint8_t *out, size_t out_size, kiln_error *err)
{
    size_t need;
    const kiln_texture_encoder *e = compressor_of(f);
    if (!e || !rgba || !out || !o || w == 0 || h == 0 || stride < (size_t)w * texel_size_of(e) ||
        !kiln_blocks_size(f, w, h, &need) || out_size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_blocks_encode: bad arguments (%ux%u %s)", w,
                              h, kiln_block_format_name(f));
    if (e->level) {
        if (stride != (size_t)w * texel_size_of(e))
            return kiln_error_set(err, KILN_E_USAGE, "%s needs tightly packed rows",
                                  kiln_block_format_name(f));
        return e->level(rgba, w, h, o, jobs, out, out_size, err);
    }
    /* Block encoders work on 4x4 blocks of 16 texels (kiln_block_encode_fn). */
    const kiln_vk_format_info *b = kiln_texture_format_block(f);
    if (KILN_NEVER(b->block_width != 4 || b->block_height != 4))
        return kiln_error_set(err, KILN_E_INTERNAL, "kiln_blocks_encode: %s is not 4x4",
                              kiln_block_format_name(f));
    encode_job j = {e->block, b->block_size, texel_size_of(e), rgba, w,
                    h,        (w + 3) / 4,   stride,           o,    out};
    return kiln_jobs_for(jobs, (h + 3) / 4, encode_row, &j, err);
}

kiln_result kiln_blocks_decode(kiln_block_format f, const uint8_t *blocks, size_t size, uint32_t w,
                               uint32_t h, bool srgb, uint8_t *rgba, kiln_error *err)
{
    size_t need;
    const kiln_texture_encoder *e = compressor_of(f);
    if (!e || !blocks || !rgba || w == 0 || h == 0 || !kiln_blocks_size(f, w, h, &need) ||
        size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_blocks_decode: bad arguments (%ux%u %s)", w,
                              h, kiln_block_format_name(f));
    if (e->decode) return e->decode(blocks, size, w, h, srgb, rgba, err);
    if (!kiln_texture_format_get(f)->decode)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_blocks_decode: %s is HDR (decode to halves)",
                              kiln_block_format_name(f));
    kiln_texture_format_decode_level(f, srgb, blocks, w, h, rgba);
    return KILN_OK;
}

kiln_result kiln_blocks_decode_half(kiln_block_format f, const uint8_t *blocks, size_t size,
                                    uint32_t w, uint32_t h, uint16_t *rgba, kiln_error *err)
{
    size_t need;
    const kiln_texture_encoder *e = compressor_of(f);
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    if (!e || !blocks || !rgba || w == 0 || h == 0 || !kiln_blocks_size(f, w, h, &need) ||
        size < need || !(e->decode_half || row->decode_half))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_blocks_decode_half: bad arguments (%ux%u %s)", w, h,
                              kiln_block_format_name(f));
    if (e->decode_half) return e->decode_half(blocks, size, w, h, rgba, err);
    kiln_texture_format_decode_level_half(f, blocks, w, h, rgba);
    return KILN_OK;
}
