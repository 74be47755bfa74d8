/* report_html_texture.c — pictures of a cooked texture's levels for the report page: each level
 * of the KTX2 file decoded on the CPU through the public API (kiln_ktx2_level_copy, then
 * kiln_transcode_rgba8, or kiln_transcode_rgba16f_srgb8 with Reinhard for RGBA16F and the other
 * HDR formats, which kiln_transcode_rgba16f turns into RGBA16F first), box-filtered
 * down to at most RH_PICTURE_MAX pixels a side, written as PNG. The texels stay in the format's
 * encoding (sRGB bytes for sRGB formats, BC5 as R, G, 0): the picture shows what a GPU samples. */
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

/* "bc7 sRGB", "bc7", "rgba16f", "RG16F" (kiln_vk_format_label). */
static void format_name(uint32_t vk, char *out, size_t cap)
{
    bool srgb = false;
    const char *name = kiln_vk_format_label(vk, &srgb, NULL);
    if (!name) snprintf(out, cap, "vkFormat %u", vk);
    else snprintf(out, cap, "%s%s", name, srgb ? " sRGB" : "");
}

/* The smallest power of two that brings the larger side to at most RH_PICTURE_MAX. */
static uint32_t shrink_factor(uint32_t w, uint32_t h)
{
    uint32_t f = 1, side = w > h ? w : h;
    while (side / f > RH_PICTURE_MAX) f *= 2;
    return f;
}

/* Box filter by f (a plain mean of the encoded bytes: good enough for a picture). */
static void shrink(const uint8_t *src, uint32_t w, uint32_t h, uint32_t f, uint8_t *dst,
                   uint32_t dw, uint32_t dh)
{
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t sum[4] = {0, 0, 0, 0}, n = 0;
            for (uint32_t sy = y * f; sy < (y + 1) * f && sy < h; sy++)
                for (uint32_t sx = x * f; sx < (x + 1) * f && sx < w; sx++, n++)
                    for (int c = 0; c < 4; c++) sum[c] += src[((size_t)sy * w + sx) * 4 + c];
            for (int c = 0; c < 4; c++)
                dst[((size_t)y * dw + x) * 4 + c] = (uint8_t)((sum[c] + n / 2) / (n ? n : 1));
        }
}

/* Decodes level l of info into a picture written to dir/<stem>-l<l>.png. */
static kiln_result level_picture(rh_png **png, const kiln_ktx2_info *info, uint32_t l,
                                 const char *dir, const char *stem, rh_level *out, kiln_error *err)
{
    const kiln_ktx2_level *lv = &info->levels[l];
    uint32_t w = lv->width, h = lv->height, f = shrink_factor(w, h);
    size_t texels = (size_t)w * h; /* kiln_ktx2_read bounds sides by 32768 */
    uint8_t *raw = malloc(lv->uncompressed_size ? lv->uncompressed_size : 1);
    uint8_t *rgba = malloc(texels * 4);
    out->pic_width = w / f ? w / f : 1;
    out->pic_height = h / f ? h / f : 1;
    uint8_t *pic = f > 1 ? malloc((size_t)out->pic_width * out->pic_height * 4) : rgba;
    kiln_result r =
        raw && rgba && pic ? KILN_OK : rh_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    uint32_t rgba8 = info->srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM;
    if (r == KILN_OK && info->basis) { /* a Basis texture: its own RGBA8 decode, first image */
        size_t need = kiln_basis_level_size(info, l, rgba8);
        uint8_t *level = malloc(need ? need : 1);
        kiln_basis *b = NULL;
        r = level ? kiln_basis_open(info, NULL, &b, err)
                  : rh_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        if (r == KILN_OK) r = kiln_basis_transcode(b, l, rgba8, level, need, err);
        if (r == KILN_OK) memcpy(rgba, level, texels * 4);
        kiln_basis_close(b);
        free(level);
    } else if (r == KILN_OK) {
        r = kiln_ktx2_level_copy(info, l, raw, lv->uncompressed_size, err);
    }
    bool hdr = kiln_transcode_rgba16f_format(info->vk_format) != KILN_VK_FORMAT_UNDEFINED;
    if (r == KILN_OK && hdr && info->vk_format != KILN_VK_FORMAT_R16G16B16A16_SFLOAT) {
        /* BC6H, RGB9E5, B10G11R11: to RGBA16F, then the same picture as RGBA16F's. */
        uint8_t *half = malloc(texels * 8);
        r = half ? kiln_transcode_rgba16f(info->vk_format, raw, lv->uncompressed_size, w, h, half,
                                          texels * 8, err)
                 : rh_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        if (r == KILN_OK)
            r = kiln_transcode_rgba16f_srgb8(half, texels * 8, w, h, KILN_TONEMAP_REINHARD, 0.0f,
                                             rgba, texels * 4, err);
        free(half);
    } else if (r == KILN_OK && hdr)
        r = kiln_transcode_rgba16f_srgb8(raw, lv->uncompressed_size, w, h, KILN_TONEMAP_REINHARD,
                                         0.0f, rgba, texels * 4, err);
    else if (r == KILN_OK && !info->basis)
        r = kiln_transcode_rgba8(info->vk_format, raw, lv->uncompressed_size, w, h, rgba,
                                 texels * 4, err);
    if (r == KILN_OK) {
        if (f > 1) shrink(rgba, w, h, f, pic, out->pic_width, out->pic_height);
        char path[4096];
        snprintf(out->file, sizeof out->file, "%s-l%u.png", stem, l);
        snprintf(path, sizeof path, "%s/%s", dir, out->file);
        r = rh_png_write(png, path, pic, out->pic_width, out->pic_height, err);
        if (r != KILN_OK) out->file[0] = '\0';
    }
    if (pic != rgba) free(pic);
    free(rgba);
    free(raw);
    return r;
}

kiln_result rh_texture_pictures(rh_png **png, const char *path, const char *dir, const char *stem,
                                rh_texture *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *data = NULL;
    size_t size = 0;
    kiln_ktx2_info info;
    kiln_result r = rh_read_file(path, &data, &size, err);
    if (r == KILN_OK) r = kiln_ktx2_read(data, size, &info, err);
    if (r == KILN_OK) {
        out->vk_format = info.vk_format;
        out->hdr = kiln_transcode_rgba16f_format(info.vk_format) != KILN_VK_FORMAT_UNDEFINED;
        out->level_count = info.level_count;
        if (info.basis) /* the file's own format; pictures are its RGBA8 decode */
            snprintf(out->format, sizeof out->format, "%s",
                     info.basis == KILN_KTX2_BASIS_UASTC ? "uastc" : "etc1s");
        else format_name(info.vk_format, out->format, sizeof out->format);
        for (uint32_t l = 0; l < info.level_count; l++) {
            out->levels[l].width = info.levels[l].width;
            out->levels[l].height = info.levels[l].height;
            out->levels[l].size = info.levels[l].size;
        }
        for (uint32_t l = 0; l < info.level_count && r == KILN_OK; l++)
            r = level_picture(png, &info, l, dir, stem, &out->levels[l], err);
    }
    free(data);
    return r;
}
