/* basislz_transcode.c — one image of an opened BasisLZ file to a transcode target: decodes the
 * colour slice (and the alpha slice where the target keeps one) block by block and converts each
 * ETC1S block (basislz_convert.c has the per-block converters). Two-slice targets run the colour
 * slice first, keeping its indices in the output block's own bytes, then the alpha slice, so only
 * one slice decoder lives on the stack at a time. */
#include <string.h>

#include "codec/basislz_convert.h"
#include "codec/basislz_internal.h"
#include "core/error.h"

static kiln_result bad_slice(kiln_error *err, uint32_t image, const char *which)
{
    return kiln_error_bad_bytes(err, "BasisLZ", UINT64_MAX, "image %u: the %s slice is malformed",
                                image, which);
}

/* Where each block goes: 8 or 16 bytes per block in block order, or texels for RGBA8. */
typedef struct dest {
    uint8_t *out;
    uint32_t width, height, blocks_x, block_size; /* block_size 0: RGBA8 */
} dest;

static void put_rgba(const dest *d, uint32_t bx, uint32_t by, const uint8_t px[64], bool alpha_only)
{
    for (uint32_t y = 0; y < 4 && by * 4 + y < d->height; y++) {
        for (uint32_t x = 0; x < 4 && bx * 4 + x < d->width; x++) {
            uint8_t *p = d->out + (((size_t)by * 4 + y) * d->width + bx * 4 + x) * 4;
            const uint8_t *s = px + (y * 4 + x) * 4;
            if (alpha_only) {
                p[3] = s[1]; /* the alpha slice's green, as basisu reads it */
            } else {
                memcpy(p, s, 3);
                p[3] = 255;
            }
        }
    }
}

kiln_result kiln_basislz_transcode(const kiln_basislz *g, uint32_t image_index,
                                   const uint8_t *level_data, size_t level_size, uint32_t width,
                                   uint32_t height, kiln_basis_target target, uint8_t *out,
                                   size_t out_size, kiln_error *err)
{
    if (!g || !out || (!level_data && level_size))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_basislz_transcode: NULL argument");
    if (image_index >= g->image_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_basislz_transcode: image %u of %u",
                              image_index, g->image_count);
    if (width == 0 || height == 0 || width > 4 * KILN_BLZ_MAX_BLOCKS_X)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_basislz_transcode: a %ux%u image", width,
                              height);
    size_t need = kiln_basislz_output_size(target, width, height);
    if (need == 0 || out_size < need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_basislz_transcode: target %d needs %zu bytes, out has %zu",
                              (int)target, need, out_size);
    const kiln_blz_image *im = &g->images[image_index];
    if (im->rgb_offset > level_size || level_size - im->rgb_offset < im->rgb_length ||
        im->alpha_offset > level_size || level_size - im->alpha_offset < im->alpha_length)
        return kiln_error_bad_bytes(err, "BasisLZ", UINT64_MAX,
                                    "image %u: a slice runs past the level's %zu bytes",
                                    image_index, level_size);

    const kiln_blz_conv *conv = kiln_blz_conv_for(target);
    bool astc = target == KILN_BASIS_TARGET_ASTC_4X4;
    if (target != KILN_BASIS_TARGET_RGBA8 && !astc && !conv)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "BasisLZ: kiln does not transcode ETC1S to target %d", (int)target);
    dest d = {out, width, height, (width + 3) / 4, 0};
    uint32_t blocks_y = (height + 3) / 4;
    if (target != KILN_BASIS_TARGET_RGBA8)
        d.block_size = (uint32_t)(need / ((size_t)d.blocks_x * blocks_y));

    kiln_blz_slice slice; /* about 24 KiB */
    kiln_blz_slice_init(&slice, g, level_data + im->rgb_offset, im->rgb_length, d.blocks_x,
                        blocks_y);
    for (uint32_t by = 0; by < blocks_y; by++) {
        for (uint32_t bx = 0; bx < d.blocks_x; bx++) {
            uint32_t e, s;
            if (!kiln_blz_slice_next(&slice, &e, &s)) return bad_slice(err, image_index, "colour");
            const kiln_etc1s_endpoint *ep = &g->endpoints[e];
            const kiln_etc1s_selector *sp = &g->selectors[s];
            uint8_t *blk = out + ((size_t)by * d.blocks_x + bx) * d.block_size;
            if (target == KILN_BASIS_TARGET_RGBA8) {
                uint8_t px[64];
                kiln_etc1s_decode(ep, sp, px);
                put_rgba(&d, bx, by, px, false);
            } else if (astc && g->has_alpha) {
                /* Keep the colour block's indices in its own bytes for the alpha pass. */
                const uint8_t ids[4] = {(uint8_t)e, (uint8_t)(e >> 8), (uint8_t)s,
                                        (uint8_t)(s >> 8)};
                memcpy(blk, ids, 4);
            } else if (astc) {
                kiln_etc1s_to_astc(ep, sp, NULL, NULL, blk);
            } else {
                conv->colour(ep, sp, blk, g->has_alpha);
            }
        }
    }
    if (!g->has_alpha || (conv && !conv->alpha)) return KILN_OK;

    kiln_blz_slice_init(&slice, g, level_data + im->alpha_offset, im->alpha_length, d.blocks_x,
                        blocks_y);
    for (uint32_t by = 0; by < blocks_y; by++) {
        for (uint32_t bx = 0; bx < d.blocks_x; bx++) {
            uint32_t e, s;
            if (!kiln_blz_slice_next(&slice, &e, &s)) return bad_slice(err, image_index, "alpha");
            const kiln_etc1s_endpoint *ep = &g->endpoints[e];
            const kiln_etc1s_selector *sp = &g->selectors[s];
            uint8_t *blk = out + ((size_t)by * d.blocks_x + bx) * d.block_size;
            if (target == KILN_BASIS_TARGET_RGBA8) {
                uint8_t px[64];
                kiln_etc1s_decode(ep, sp, px);
                put_rgba(&d, bx, by, px, true);
            } else if (astc) {
                uint32_t ce = (uint32_t)blk[0] | (uint32_t)blk[1] << 8;
                uint32_t cs = (uint32_t)blk[2] | (uint32_t)blk[3] << 8;
                kiln_etc1s_to_astc(&g->endpoints[ce], &g->selectors[cs], ep, sp, blk);
            } else {
                conv->alpha(ep, sp, blk);
            }
        }
    }
    return KILN_OK;
}
