/* uastc_transcode.c — kiln_uastc_transcode: one level of UASTC blocks to a target (basis.h).
 * Sizes are checked before any byte is touched, with overflow-checked arithmetic; each block is
 * unpacked once and handed to the target's per-block converter (uastc_*.c). Part of libkiln_rt:
 * libc only, nothing allocated. */
#include <string.h>

#include "codec/uastc.h"
#include "core/alloc.h"

static size_t target_block_size(kiln_basis_target t)
{
    switch (t) {
    case KILN_BASIS_TARGET_BC1:
    case KILN_BASIS_TARGET_BC4:
    case KILN_BASIS_TARGET_ETC1:
    case KILN_BASIS_TARGET_EAC_R11:
        return 8;
    case KILN_BASIS_TARGET_ASTC_4X4:
    case KILN_BASIS_TARGET_BC7:
    case KILN_BASIS_TARGET_BC3:
    case KILN_BASIS_TARGET_BC5:
    case KILN_BASIS_TARGET_ETC2_RGBA:
    case KILN_BASIS_TARGET_EAC_RG11:
        return 16;
    default:
        return 0;
    }
}

/* One block to a block target. */
static void transcode_block(kiln_basis_target t, const kiln_uastc_block *b, uint8_t *out,
                            kiln_uastc_bc_cache *cache)
{
    uint8_t rgba[64];
    switch (t) {
    case KILN_BASIS_TARGET_ASTC_4X4:
        kiln_uastc_to_astc(b, out);
        break;
    case KILN_BASIS_TARGET_BC7:
        kiln_uastc_to_bc7(b, out, cache);
        break;
    case KILN_BASIS_TARGET_ETC1:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_to_etc1(b, rgba, out);
        break;
    case KILN_BASIS_TARGET_ETC2_RGBA:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_to_eac_a8(b, rgba, out);
        kiln_uastc_to_etc1(b, rgba, out + 8);
        break;
    case KILN_BASIS_TARGET_BC1:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_to_bc1(b, rgba, out, cache);
        break;
    case KILN_BASIS_TARGET_BC3:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_bc4_encode(rgba, 3, out);
        kiln_uastc_to_bc1(b, rgba, out + 8, cache);
        break;
    case KILN_BASIS_TARGET_BC4:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_bc4_encode(rgba, 0, out);
        break;
    case KILN_BASIS_TARGET_BC5:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_bc4_encode(rgba, 0, out);
        kiln_uastc_bc4_encode(rgba, 3, out + 8);
        break;
    case KILN_BASIS_TARGET_EAC_R11:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_eac_r11_encode(rgba, 0, out);
        break;
    case KILN_BASIS_TARGET_EAC_RG11:
        kiln_uastc_decode(b, false, rgba);
        kiln_uastc_eac_r11_encode(rgba, 0, out);
        /* Alpha from the EAC hint, as basisu does, except for solid blocks. */
        if (b->mode == KILN_UASTC_MODE_SOLID) kiln_uastc_eac_r11_encode(rgba, 3, out + 8);
        else kiln_uastc_to_eac_a8(b, rgba, out + 8);
        break;
    default:
        break;
    }
}

kiln_result kiln_uastc_transcode(kiln_basis_target target, const uint8_t *blocks,
                                 size_t blocks_size, uint32_t width, uint32_t height,
                                 bool has_alpha, uint8_t *out, size_t out_size, kiln_error *err)
{
    (void)has_alpha; /* UASTC blocks carry their own alpha: RGB modes decode it as 255 */
    if (!blocks || !out || width == 0 || height == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_uastc_transcode: NULL buffer or empty level (%ux%u)", width,
                              height);
    const size_t bx = ((size_t)width + 3) / 4, by = ((size_t)height + 3) / 4;
    size_t nblocks, in_need, out_need;
    if (!kiln_size_mul(bx, by, &nblocks) || !kiln_size_mul(nblocks, 16, &in_need))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_uastc_transcode: %ux%u is too large", width,
                              height);
    const size_t bsize = target_block_size(target);
    if (target == KILN_BASIS_TARGET_RGBA8) {
        size_t texels;
        if (!kiln_size_mul(width, height, &texels) || !kiln_size_mul(texels, 4, &out_need))
            return kiln_error_set(err, KILN_E_LIMIT, "kiln_uastc_transcode: %ux%u is too large",
                                  width, height);
    } else if (bsize == 0) {
        return kiln_error_set(err, KILN_E_USAGE, "kiln_uastc_transcode: unknown target %d",
                              (int)target);
    } else if (!kiln_size_mul(nblocks, bsize, &out_need)) {
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_uastc_transcode: %ux%u is too large", width,
                              height);
    }
    if (out_size < out_need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_uastc_transcode: %zu output bytes, %ux%u needs %zu", out_size,
                              width, height, out_need);
    if (blocks_size < in_need)
        return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                              "kiln_uastc_transcode: %zu bytes of blocks, a %ux%u level needs %zu",
                              blocks_size, width, height, in_need);

    kiln_uastc_bc_cache cache;
    kiln_uastc_bc_cache_init(&cache);
    for (size_t y = 0; y < by; y++) {
        for (size_t x = 0; x < bx; x++) {
            const size_t i = y * bx + x;
            kiln_uastc_block b;
            if (!kiln_uastc_unpack(blocks + i * 16, &b))
                return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                                      "kiln_uastc_transcode: block %zu (x %zu, y %zu) is not a "
                                      "valid UASTC block",
                                      i, x, y);
            if (target != KILN_BASIS_TARGET_RGBA8) {
                transcode_block(target, &b, out + i * bsize, &cache);
                continue;
            }
            uint8_t rgba[64];
            kiln_uastc_decode(&b, false, rgba);
            const size_t w = width - x * 4 < 4 ? width - x * 4 : 4;
            const size_t h = height - y * 4 < 4 ? height - y * 4 : 4;
            for (size_t r = 0; r < h; r++)
                memcpy(out + ((y * 4 + r) * (size_t)width + x * 4) * 4, rgba + r * 16, w * 4);
        }
    }
    return KILN_OK;
}
