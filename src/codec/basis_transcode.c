/* basis_transcode.c — the public Basis Universal API (kiln_format.h, "Basis Universal
 * textures"): which GPU formats a UASTC or ETC1S texture transcodes to, best first, and the
 * transcode of a whole level (every face, layer and slice) through the two codecs (uastc.h,
 * basislz.h). The order of preference follows what each format keeps losslessly: UASTC is ASTC
 * with BC7 close behind; ETC1S is a subset of ETC1. docs/basis.md, "Choosing a target". Part of
 * libkiln_rt: libc, zstd and src/core only. */
#include <string.h>
#include <zstd.h>

#include "codec/basis.h"
#include "codec/basislz.h"
#include "codec/uastc.h"
#include "codec/vk_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "kiln/kiln_format.h"

struct kiln_basis {
    kiln_ktx2_info info;
    kiln_allocator alloc;
    kiln_basislz *lz; /* ETC1S: the decoded global data */
};

/* The VkFormats of each target: linear, sRGB (0: none, so not offered for sRGB textures). */
static const struct {
    uint32_t unorm, srgb;
} k_target_formats[KILN_BASIS_TARGET_COUNT] = {
    [KILN_BASIS_TARGET_RGBA8] = {KILN_VK_FORMAT_R8G8B8A8_UNORM, KILN_VK_FORMAT_R8G8B8A8_SRGB},
    [KILN_BASIS_TARGET_ASTC_4X4] = {KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
                                    KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK},
    [KILN_BASIS_TARGET_BC7] = {KILN_VK_FORMAT_BC7_UNORM_BLOCK, KILN_VK_FORMAT_BC7_SRGB_BLOCK},
    [KILN_BASIS_TARGET_BC1] = {KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK,
                               KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK},
    [KILN_BASIS_TARGET_BC3] = {KILN_VK_FORMAT_BC3_UNORM_BLOCK, KILN_VK_FORMAT_BC3_SRGB_BLOCK},
    [KILN_BASIS_TARGET_BC4] = {KILN_VK_FORMAT_BC4_UNORM_BLOCK, 0},
    [KILN_BASIS_TARGET_BC5] = {KILN_VK_FORMAT_BC5_UNORM_BLOCK, 0},
    [KILN_BASIS_TARGET_ETC1] = {KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
                                KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK},
    [KILN_BASIS_TARGET_ETC2_RGBA] = {KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
                                     KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK},
    [KILN_BASIS_TARGET_EAC_R11] = {KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK, 0},
    [KILN_BASIS_TARGET_EAC_RG11] = {KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK, 0},
};

/* Preference lists, ended by RGBA8 (always last), per format and channel layout. */
#define T(x) KILN_BASIS_TARGET_##x
static const uint8_t k_etc1s_order[5][KILN_BASIS_MAX_TARGETS] = {
    [KILN_BASIS_CHANNELS_RGB] = {T(ETC1), T(BC7), T(ASTC_4X4), T(BC1), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RGBA] = {T(ETC2_RGBA), T(BC7), T(ASTC_4X4), T(BC3), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RRR] = {T(ETC1), T(BC4), T(EAC_R11), T(BC1), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RRRG] = {T(EAC_RG11), T(BC5), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RG] = {T(EAC_RG11), T(BC5), T(RGBA8)},
};
static const uint8_t k_uastc_order[5][KILN_BASIS_MAX_TARGETS] = {
    [KILN_BASIS_CHANNELS_RGB] = {T(ASTC_4X4), T(BC7), T(ETC1), T(BC1), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RGBA] = {T(ASTC_4X4), T(BC7), T(ETC2_RGBA), T(BC3), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RRR] = {T(ASTC_4X4), T(BC7), T(EAC_R11), T(BC4), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RRRG] = {T(ASTC_4X4), T(BC7), T(EAC_RG11), T(BC5), T(RGBA8)},
    [KILN_BASIS_CHANNELS_RG] = {T(ASTC_4X4), T(BC7), T(EAC_RG11), T(BC5), T(RGBA8)},
};
#undef T

/* The list for info, NULL when it is not a Basis texture. */
static const uint8_t *order_of(const kiln_ktx2_info *info)
{
    if (!info || info->basis_channels > KILN_BASIS_CHANNELS_RG) return NULL;
    if (info->basis == KILN_KTX2_BASIS_ETC1S) return k_etc1s_order[info->basis_channels];
    if (info->basis == KILN_KTX2_BASIS_UASTC) return k_uastc_order[info->basis_channels];
    return NULL;
}

/* The target vk_format names for info, or KILN_BASIS_TARGET_COUNT. */
static kiln_basis_target target_of(const kiln_ktx2_info *info, uint32_t vk_format)
{
    const uint8_t *order = order_of(info);
    for (int i = 0; order && i < KILN_BASIS_MAX_TARGETS; i++) {
        kiln_basis_target t = (kiln_basis_target)order[i];
        if (k_target_formats[t].unorm == vk_format ||
            (k_target_formats[t].srgb && k_target_formats[t].srgb == vk_format))
            return t;
        if (t == KILN_BASIS_TARGET_RGBA8) break;
    }
    return KILN_BASIS_TARGET_COUNT;
}

KILN_API size_t kiln_basis_targets(const kiln_ktx2_info *info, uint32_t *vk_formats, size_t max)
{
    const uint8_t *order = order_of(info);
    size_t n = 0;
    for (int i = 0; order && i < KILN_BASIS_MAX_TARGETS; i++) {
        kiln_basis_target t = (kiln_basis_target)order[i];
        /* An sRGB texture is offered only formats with an sRGB variant: BC4, BC5 and EAC would
         * hand sRGB-encoded values to the shader as if they were linear. */
        uint32_t f = info->srgb ? k_target_formats[t].srgb : k_target_formats[t].unorm;
        if (f) {
            if (vk_formats && n < max) vk_formats[n] = f;
            n++;
        }
        if (t == KILN_BASIS_TARGET_RGBA8) break;
    }
    return n;
}

KILN_API uint32_t kiln_basis_pick_target(const kiln_ktx2_info *info,
                                         bool (*supports)(void *user, uint32_t vk_format),
                                         void *user)
{
    uint32_t t[KILN_BASIS_MAX_TARGETS];
    size_t n = kiln_basis_targets(info, t, KILN_BASIS_MAX_TARGETS);
    if (n == 0 || n > KILN_BASIS_MAX_TARGETS) return KILN_VK_FORMAT_UNDEFINED;
    for (size_t i = 0; supports && i + 1 < n; i++)
        if (supports(user, t[i])) return t[i];
    return t[n - 1];
}

/* Bytes of one w x h image in target t. */
static size_t image_bytes(kiln_basis_target t, uint32_t w, uint32_t h)
{
    if (t == KILN_BASIS_TARGET_RGBA8) return (size_t)w * h * 4;
    const kiln_vk_format_info *f = kiln_vk_format_find(k_target_formats[t].unorm);
    return (size_t)((w + 3) / 4) * ((h + 3) / 4) * f->block_size;
}

KILN_API size_t kiln_basis_level_size(const kiln_ktx2_info *info, uint32_t level,
                                      uint32_t vk_format)
{
    kiln_basis_target t = target_of(info, vk_format);
    if (t == KILN_BASIS_TARGET_COUNT || level >= info->level_count || level >= KILN_KTX2_MAX_LEVELS)
        return 0;
    const kiln_ktx2_level *lv = &info->levels[level];
    /* Sides are at most 32768 and images at most 2048 * 6 * 2048: fits in 64 bits. */
    return image_bytes(t, lv->width, lv->height) * kiln_ktx2_level_images(info, level);
}

KILN_API kiln_result kiln_basis_open(const kiln_ktx2_info *info, const kiln_allocator *alloc,
                                     kiln_basis **out, kiln_error *err)
{
    if (out) *out = NULL;
    if (!out || !order_of(info))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_basis_open: %s",
                              out ? "not a Basis Universal texture" : "out is NULL");
    kiln_allocator a = alloc ? *alloc : (kiln_allocator){0};
    kiln_basis *b = kiln_alloc(&a, sizeof *b);
    if (!b) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "kiln_basis_open: out of memory");
    memset(b, 0, sizeof *b);
    b->info = *info;
    b->alloc = a;
    if (info->basis == KILN_KTX2_BASIS_ETC1S) {
        uint32_t images = 0;
        for (uint32_t l = 0; l < info->level_count; l++) images += kiln_ktx2_level_images(info, l);
        kiln_result r =
            kiln_basislz_open(info->sgd, info->sgd_size, images, &b->alloc, &b->lz, err);
        if (r != KILN_OK) {
            kiln_free(&a, b, sizeof *b);
            return r;
        }
    }
    *out = b;
    return KILN_OK;
}

KILN_API void kiln_basis_close(kiln_basis *b)
{
    if (!b) return;
    kiln_allocator a = b->alloc;
    if (b->lz) kiln_basislz_close(b->lz, &a);
    kiln_free(&a, b, sizeof *b);
}

/* Every image of a UASTC level (inflated if need be) through kiln_uastc_transcode. */
static kiln_result transcode_uastc(const kiln_basis *b, uint32_t level, kiln_basis_target t,
                                   uint8_t *out, size_t image_out, kiln_error *err)
{
    const kiln_ktx2_info *info = &b->info;
    const kiln_ktx2_level *lv = &info->levels[level];
    const uint8_t *blocks = lv->data;
    uint8_t *inflated = NULL;
    if (info->supercompression == KILN_KTX2_SUPERCOMPRESSION_ZSTD) {
        inflated = kiln_alloc(&b->alloc, lv->uncompressed_size);
        if (!inflated)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                  "basis: %zu bytes for level %u's UASTC blocks",
                                  lv->uncompressed_size, level);
        kiln_result r = kiln_ktx2_level_copy(info, level, inflated, lv->uncompressed_size, err);
        if (r != KILN_OK) {
            kiln_free(&b->alloc, inflated, lv->uncompressed_size);
            return r;
        }
        blocks = inflated;
    }
    bool alpha = info->basis_channels == KILN_BASIS_CHANNELS_RGBA ||
                 info->basis_channels == KILN_BASIS_CHANNELS_RRRG;
    uint32_t images = kiln_ktx2_level_images(info, level);
    kiln_result r = KILN_OK;
    for (uint32_t k = 0; r == KILN_OK && k < images; k++)
        r = kiln_uastc_transcode(t, blocks + (size_t)k * lv->image_size, lv->image_size, lv->width,
                                 lv->height, alpha, out + (size_t)k * image_out, image_out, err);
    if (inflated) kiln_free(&b->alloc, inflated, lv->uncompressed_size);
    return r;
}

KILN_API kiln_result kiln_basis_transcode(const kiln_basis *b, uint32_t level, uint32_t vk_format,
                                          void *out, size_t out_size, kiln_error *err)
{
    if (!b || !out || level >= b->info.level_count || level >= KILN_KTX2_MAX_LEVELS)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_basis_transcode: no level %u", level);
    const kiln_ktx2_info *info = &b->info;
    kiln_basis_target t = target_of(info, vk_format);
    if (t == KILN_BASIS_TARGET_COUNT)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_basis_transcode: vkFormat %u is not a target of this %s "
                              "texture (kiln_basis_targets lists them)",
                              vk_format, info->basis == KILN_KTX2_BASIS_UASTC ? "UASTC" : "ETC1S");
    size_t need = kiln_basis_level_size(info, level, vk_format);
    if (out_size < need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_basis_transcode: level %u needs %zu bytes, the buffer has %zu",
                              level, need, out_size);
    const kiln_ktx2_level *lv = &info->levels[level];
    size_t image_out = image_bytes(t, lv->width, lv->height);
    if (info->basis == KILN_KTX2_BASIS_UASTC)
        return transcode_uastc(b, level, t, out, image_out, err);
    uint32_t first = 0;
    for (uint32_t l = 0; l < level; l++) first += kiln_ktx2_level_images(info, l);
    uint32_t images = kiln_ktx2_level_images(info, level);
    for (uint32_t k = 0; k < images; k++) {
        kiln_result r =
            kiln_basislz_transcode(b->lz, first + k, lv->data, lv->size, lv->width, lv->height, t,
                                   (uint8_t *)out + (size_t)k * image_out, image_out, err);
        if (r != KILN_OK) return r;
    }
    return KILN_OK;
}
