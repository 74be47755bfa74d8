/* image_ktx2.c — a KTX2 texture as a source image: level 0's first image (face 0, layer 0, slice
 * 0) decoded to pixels for re-encoding — a glTF image of KHR_texture_basisu, or any KTX2 kiln
 * reads. Block and packed formats go through kiln's own decoders (kiln_transcode_rgba8 to 8-bit
 * RGBA, kiln_transcode_rgba16f to float for the HDR formats); Basis Universal textures through
 * kiln_basis_* to RGBA8. The level is bounded by the image limits before anything is inflated. */
#include <string.h>

#include "codec/half_float.h"
#include "codec/vk_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "import/image_private.h"

/* Level 0's first image as stored (Zstandard undone) in *raw (allocated, raw_size bytes). */
static kiln_result level0_first_image(const kiln_ktx2_info *info, const kiln_image_limits *lim,
                                      uint8_t **raw, size_t *raw_size, kiln_error *err)
{
    const kiln_ktx2_level *lv = &info->levels[0];
    if (lv->uncompressed_size > lim->memory_limit)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "KTX2: level 0 holds %zu bytes, over the memory limit of %zu",
                              lv->uncompressed_size, lim->memory_limit);
    uint8_t *p = kiln_alloc(&lim->allocator, lv->uncompressed_size);
    if (!p)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "KTX2: cannot allocate %zu bytes",
                              lv->uncompressed_size);
    kiln_result r = kiln_ktx2_level_copy(info, 0, p, lv->uncompressed_size, err);
    if (r != KILN_OK) {
        kiln_free(&lim->allocator, p, lv->uncompressed_size);
        return r;
    }
    *raw = p;
    *raw_size = lv->uncompressed_size;
    return KILN_OK;
}

/* A block or packed format: to 8-bit RGBA, or to float through half floats for HDR formats. */
static kiln_result decode_stored(const kiln_ktx2_info *info, const kiln_image_limits *lim,
                                 kiln_image *out, kiln_error *err)
{
    bool hdr = kiln_transcode_rgba16f_format(info->vk_format) != KILN_VK_FORMAT_UNDEFINED;
    if (!hdr && kiln_transcode_rgba8_format(info->vk_format) == KILN_VK_FORMAT_UNDEFINED)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "KTX2: kiln cannot decode vkFormat %u to pixels", info->vk_format);
    kiln_result r = kiln_image_alloc_pixels(out, lim, "KTX2", info->width, info->height,
                                            hdr ? KILN_PIXEL_F32 : KILN_PIXEL_U8, err);
    if (r != KILN_OK) return r;
    uint8_t *raw = NULL;
    size_t raw_size = 0;
    if ((r = level0_first_image(info, lim, &raw, &raw_size, err)) != KILN_OK) return r;
    size_t image = info->levels[0].image_size;
    if (!hdr) {
        r = kiln_transcode_rgba8(info->vk_format, raw, image, info->width, info->height,
                                 out->pixels, out->size, err);
    } else {
        /* Halves into the first half of the float buffer's bytes would overlap as they widen:
         * decode into the back half, then widen front to back (float i is written at 4*i,
         * after half i at size/2 + 2*i has been read). */
        size_t texels = (size_t)info->width * info->height;
        uint8_t *halves = (uint8_t *)out->pixels + texels * 8;
        r = kiln_transcode_rgba16f(info->vk_format, raw, image, info->width, info->height, halves,
                                   texels * 8, err);
        float *f = out->pixels;
        for (size_t i = 0; r == KILN_OK && i < texels * 4; i++)
            f[i] = kiln_half_to_float((uint16_t)(halves[2 * i] | halves[2 * i + 1] << 8));
    }
    kiln_free(&lim->allocator, raw, raw_size);
    if (r != KILN_OK) return r;
    out->source_channels = 4;
    out->source_bits = hdr ? 16 : 8;
    return KILN_OK;
}

/* A Basis Universal texture: level 0 transcoded to RGBA8 (kiln_basis_transcode, every image of
 * the level; the first is kept). */
static kiln_result decode_basis(const kiln_ktx2_info *info, const kiln_image_limits *lim,
                                kiln_image *out, kiln_error *err)
{
    uint32_t rgba8 = info->srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM;
    size_t level_size = kiln_basis_level_size(info, 0, rgba8);
    if (KILN_NEVER(level_size == 0))
        return kiln_error_set(err, KILN_E_INTERNAL, "KTX2: Basis level 0 has no RGBA8 size");
    if (level_size > lim->memory_limit)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "KTX2: level 0 decodes to %zu bytes, over the memory limit of %zu",
                              level_size, lim->memory_limit);
    kiln_result r =
        kiln_image_alloc_pixels(out, lim, "KTX2", info->width, info->height, KILN_PIXEL_U8, err);
    if (r != KILN_OK) return r;
    kiln_basis *b = NULL;
    if ((r = kiln_basis_open(info, &lim->allocator, &b, err)) != KILN_OK) return r;
    uint8_t *level = kiln_alloc(&lim->allocator, level_size);
    if (!level)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "KTX2: cannot allocate %zu bytes",
                           level_size);
    else r = kiln_basis_transcode(b, 0, rgba8, level, level_size, err);
    if (r == KILN_OK) memcpy(out->pixels, level, out->size);
    if (level) kiln_free(&lim->allocator, level, level_size);
    kiln_basis_close(b);
    if (r != KILN_OK) return r;
    bool alpha = info->basis_channels == KILN_BASIS_CHANNELS_RGBA ||
                 info->basis_channels == KILN_BASIS_CHANNELS_RRRG;
    out->source_channels = alpha ? 4 : 3;
    out->source_bits = 8;
    return KILN_OK;
}

kiln_result kiln_image_decode_ktx2(const void *data, size_t size, const kiln_image_limits *lim,
                                   bool header_only, kiln_image *out, kiln_error *err)
{
    kiln_ktx2_info info;
    kiln_result r = kiln_ktx2_read(data, size, &info, err);
    if (r != KILN_OK) return r;
    bool hdr = kiln_transcode_rgba16f_format(info.vk_format) != KILN_VK_FORMAT_UNDEFINED;
    if (header_only) {
        r = kiln_image_check_dims(lim, "KTX2", info.width, info.height,
                                  hdr ? KILN_PIXEL_F32 : KILN_PIXEL_U8, NULL, err);
        out->width = info.width;
        out->height = info.height;
        return r;
    }
    if (info.basis != KILN_KTX2_BASIS_NONE) return decode_basis(&info, lim, out, err);
    return decode_stored(&info, lim, out, err);
}
