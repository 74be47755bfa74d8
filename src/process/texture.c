/* texture.c — from a decoded image and build options to the mip levels of a texture in its
 * output format (blocks, RGBA8 sRGB/UNORM or RGBA16F), the input of the KTX 2.0 writer.
 *
 * Steps: resolve format and colour space from the options (the format's row in
 * codec/texture_format.h, its encoder in block.c); convert the source to linear float
 * RGBA (sRGB through the fixed tables of srgb.c); flip green for normal maps that ask for it;
 * halve until both sides fit max_size; then quantise level 0 and build each further level from
 * the float data of the one above (mip.c), never from quantised bytes. Level sizes follow the
 * KTX 2.0 / Vulkan rule (max(1, floor(size / 2))). docs/textures.md gives the reasons. */
#include "process/texture.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/block.h"
#include "process/half.h"
#include "process/mip.h"
#include "process/packed_float.h"
#include "process/srgb.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* The settings allow 4..16384; 1 is accepted here so small callers (tests, tools) can ask for a
 * 1x1 texture. 16384 keeps the chain within KILN_KTX2_MAX_LEVELS and the filter weights exact. */
#define TEXTURE_MAX_SIZE 16384u

static kiln_result settings_error(kiln_error *err, const char *pointer, const char *msg)
{
    kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s", msg);
    kiln_error_at_pointer(err, pointer);
    return KILN_E_IMPORT_SETTINGS;
}

/* 16-bit sRGB codes are rounded to the nearest 8-bit code (v / 257, never a tie since 257 is
 * odd) and decoded through the 8-bit table: a 65536-entry table would be 256 KiB of constants
 * for precision that 8-bit sRGB output cannot keep anyway. */
static uint8_t u16_to_u8(uint16_t v) { return (uint8_t)((2u * (uint32_t)v + 257u) / 514u); }

/* Float sources: NaN has no meaningful average and infinities poison every sum they enter;
 * nothing beyond the half range survives either output format anyway. */
static float sanitize(float v)
{
    if (v != v) return 0.0f;
    if (v > 65504.0f) return 65504.0f;
    if (v < -65504.0f) return -65504.0f;
    return v;
}

/* Source rows [y0, y0 + n) -> linear float RGBA, green flipped for normal maps that ask for it
 * (DirectX-style Y-down maps to the OpenGL/glTF convention). Alpha is always linear coverage,
 * never sRGB. Converting a few rows at a time keeps a full-size float copy of the source (16 bytes
 * a texel) from ever existing. */
static void convert_rows(const kiln_image *img, bool srgb_in, bool flip_green, uint32_t y0,
                         uint32_t n, float *dst)
{
    size_t first = (size_t)y0 * img->width * 4;
    size_t count = (size_t)n * img->width * 4;
    switch (img->type) {
    case KILN_PIXEL_U8: {
        const uint8_t *p = (const uint8_t *)img->pixels + first;
        for (size_t i = 0; i < count; i += 4) {
            for (size_t c = 0; c < 3; c++)
                dst[i + c] = srgb_in ? kiln_srgb_decode(p[i + c]) : (float)p[i + c] / 255.0f;
            dst[i + 3] = (float)p[i + 3] / 255.0f;
        }
        break;
    }
    case KILN_PIXEL_U16: {
        const uint16_t *p = (const uint16_t *)img->pixels + first;
        for (size_t i = 0; i < count; i += 4) {
            for (size_t c = 0; c < 3; c++)
                dst[i + c] =
                    srgb_in ? kiln_srgb_decode(u16_to_u8(p[i + c])) : (float)p[i + c] / 65535.0f;
            dst[i + 3] = (float)p[i + 3] / 65535.0f;
        }
        break;
    }
    case KILN_PIXEL_F32: {
        const float *p = (const float *)img->pixels + first;
        for (size_t i = 0; i < count; i++) dst[i] = sanitize(p[i]);
        break;
    }
    }
    if (flip_green)
        for (size_t i = 1; i < count; i += 4) dst[i] = 1.0f - dst[i];
}

static bool source_has_alpha(const kiln_image *img)
{
    size_t n = (size_t)img->width * img->height * 4;
    switch (img->type) {
    case KILN_PIXEL_U8: {
        const uint8_t *p = img->pixels;
        for (size_t i = 3; i < n; i += 4)
            if (p[i] != 255) return true;
        return false;
    }
    case KILN_PIXEL_U16: {
        const uint16_t *p = img->pixels;
        for (size_t i = 3; i < n; i += 4)
            if (p[i] != 65535) return true;
        return false;
    }
    case KILN_PIXEL_F32: {
        const float *p = img->pixels;
        for (size_t i = 3; i < n; i += 4)
            if (!(p[i] >= 1.0f)) return true;
        return false;
    }
    }
    return false;
}

/* Round-half-up of 255 v, clamped. In double, v * 255 + 0.5 is exact for every float v in
 * (0, 1), so the result does not depend on rounding of intermediate steps. */
static uint8_t unorm8(float v)
{
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)((double)v * 255.0 + 0.5);
}

static void quantize(const float *src, size_t texels, kiln_texels to, bool srgb, uint8_t *dst)
{
    if (to == KILN_TEXELS_RGBA16F) {
        /* KTX 2.0 stores texel data little-endian. */
        for (size_t i = 0; i < texels * 4; i++) {
            uint16_t h = kiln_half_from_float_sat(src[i]);
            dst[2 * i] = (uint8_t)(h & 0xffu);
            dst[2 * i + 1] = (uint8_t)(h >> 8);
        }
        return;
    }
    if (to == KILN_TEXELS_RGB9E5 || to == KILN_TEXELS_B10G11R11) {
        for (size_t i = 0; i < texels; i++) {
            uint32_t v = to == KILN_TEXELS_RGB9E5 ? kiln_rgb9e5_from_float(src + 4 * i)
                                                  : kiln_b10g11r11_from_float(src + 4 * i);
            for (int b = 0; b < 4; b++) dst[4 * i + (size_t)b] = (uint8_t)(v >> (8 * b));
        }
        return;
    }
    for (size_t i = 0; i < texels * 4; i += 4) {
        for (size_t c = 0; c < 3; c++)
            dst[i + c] = srgb ? kiln_srgb_encode(src[i + c]) : unorm8(src[i + c]);
        dst[i + 3] = unorm8(src[i + 3]);
    }
}

/* Bytes of a w x h float RGBA buffer, or 0 when it overflows size_t. */
static size_t float_buffer_size(uint32_t w, uint32_t h)
{
    size_t n;
    if (!kiln_size_mul(w, h, &n) || !kiln_size_mul(n, 4 * sizeof(float), &n)) return 0;
    return n;
}

void kiln_texture_levels_free(kiln_texture_levels *levels)
{
    if (!levels) return;
    for (uint32_t i = 0; i < levels->level_count && i < KILN_KTX2_MAX_LEVELS; i++)
        kiln_free(&levels->allocator, levels->levels[i].data, levels->levels[i].size);
    memset(levels, 0, sizeof *levels);
}

/* Where the current level's float data comes from: the source image itself, converted a few
 * rows at a time (level 0 before any resampling), or a float buffer. */
typedef struct level_source {
    const kiln_image *img;
    bool srgb_in, flip_green;
    float *strip; /* rows converted from img, strip_rows of them */
    size_t strip_size;
    uint32_t strip_rows;
    float *cur; /* NULL while the level is still the source image */
    size_t cur_size;
    uint32_t w, h;
    const kiln_allocator *a;
} level_source;

static kiln_result oom(kiln_error *err, const char *what, uint32_t w, uint32_t h)
{
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "texture: out of memory for %s (%ux%u)", what,
                          (unsigned)w, (unsigned)h);
}

/* Replaces the current level by its resampling to nw x nh. */
static kiln_result step_down(level_source *ls, uint32_t nw, uint32_t nh, kiln_mip_filter filter,
                             kiln_error *err)
{
    size_t size = float_buffer_size(nw, nh);
    float *next = size ? kiln_alloc(ls->a, size) : NULL;
    if (!next) return oom(err, "a level", nw, nh);
    if (ls->cur) {
        kiln_mip_downsample(ls->cur, ls->w, ls->h, next, nw, nh, filter);
    } else {
        for (uint32_t j = 0; j < nh; j++) {
            uint32_t y0, yn;
            kiln_mip_footprint(j, ls->h, nh, &y0, &yn);
            if (KILN_NEVER(yn > ls->strip_rows)) {
                kiln_free(ls->a, next, size);
                return kiln_error_set(err, KILN_E_INTERNAL, "texture: footprint of %u rows",
                                      (unsigned)yn);
            }
            convert_rows(ls->img, ls->srgb_in, ls->flip_green, y0, yn, ls->strip);
            kiln_mip_downsample_row(ls->strip, ls->w, ls->h, next + (size_t)j * nw * 4, nw, nh, j,
                                    filter);
        }
    }
    kiln_free(ls->a, ls->cur, ls->cur_size);
    ls->cur = next;
    ls->cur_size = size;
    ls->w = nw;
    ls->h = nh;
    return KILN_OK;
}

static void quantize_level(level_source *ls, kiln_texels to, bool srgb, uint8_t *dst)
{
    if (ls->cur) {
        quantize(ls->cur, (size_t)ls->w * ls->h, to, srgb, dst);
        return;
    }
    if (ls->img->type == KILN_PIXEL_U8 && to == KILN_TEXELS_RGBA8) {
        /* 8-bit source to 8-bit output in the same encoding, unresized: converting and
         * quantising is the identity (tests: encode(decode(c)) == c for all 256 sRGB codes;
         * round(255 * (c / 255.0f)) == c and round(255 * (1 - c / 255.0f)) == 255 - c since the
         * float errors are below 2^-16), so copy the bytes and skip three quarters of the work. */
        memcpy(dst, ls->img->pixels, (size_t)ls->w * ls->h * 4);
        if (ls->flip_green)
            for (size_t i = 1; i < (size_t)ls->w * ls->h * 4; i += 4)
                dst[i] = (uint8_t)(255 - dst[i]);
        return;
    }
    for (uint32_t y = 0; y < ls->h; y++) {
        convert_rows(ls->img, ls->srgb_in, ls->flip_green, y, 1, ls->strip);
        quantize(ls->strip, ls->w, to, srgb, dst + (size_t)y * ls->w * kiln_texels_size(to));
    }
}

/* The names of the formats without an sRGB variant that are not HDR, in name order: "bc4 and
 * bc5" (HDR ones are refused for their own reason). */
static void data_format_names(char *buf, size_t size)
{
    const char *names[KILN_TEXFMT_COUNT];
    size_t n = 0;
    for (int f = KILN_TEXFMT_AUTO + 1; f < KILN_TEXFMT_COUNT; f++) {
        const kiln_texture_format_info *row = kiln_texture_format_get((kiln_texture_format)f);
        if (kiln_texture_format_has_srgb((kiln_texture_format)f) || row->hdr) continue;
        size_t i = n++;
        for (; i > 0 && strcmp(names[i - 1], row->name) > 0; i--) names[i] = names[i - 1];
        names[i] = row->name;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        int w = snprintf(buf + len, size - len, "%s%s",
                         i == 0       ? ""
                         : i + 1 == n ? " and "
                                      : ", ",
                         names[i]);
        if (w < 0) break;
        len += (size_t)w;
    }
}

kiln_result kiln_texture_check_srgb(kiln_texture_format format, bool srgb_yes, kiln_error *err)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(format);
    if (!srgb_yes || !row || kiln_texture_format_has_srgb(format)) return KILN_OK;
    if (row->hdr) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "srgb true is not possible with format %s (half floats are linear)",
                       row->name);
    } else {
        char names[128];
        data_format_names(names, sizeof names);
        bool several = strchr(names, ' ') != NULL;
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "srgb true is not possible with format%s %s (%s no sRGB variant)",
                       several ? "s" : "", names, several ? "they have" : "it has");
    }
    kiln_error_at_pointer(err, "/import/texture/srgb");
    return KILN_E_IMPORT_SETTINGS;
}

kiln_result kiln_texture_plan_make(bool is_float, bool float_alpha, bool single_channel,
                                   const kiln_texture_build_opts *o,
                                   const kiln_texture_target *target, kiln_texture_plan *plan,
                                   kiln_error *err)
{
    memset(plan, 0, sizeof *plan);
    /* ---- options: what this build can produce, and a colour space that fits it ---- */
    kiln_texture_format fmt = o->format;
    if (fmt == KILN_TEXFMT_AUTO) {
        kiln_texture_role role =
            is_float        ? (float_alpha ? KILN_TEXROLE_HDR_ALPHA : KILN_TEXROLE_HDR)
            : o->normal_map ? KILN_TEXROLE_NORMAL
            : single_channel && o->srgb != KILN_TEXTURE_SRGB_YES ? KILN_TEXROLE_DATA
                                                                 : KILN_TEXROLE_COLOR;
        fmt = kiln_texture_format_pick(role, target ? target->gpu : KILN_TEXGPU_DESKTOP);
    }
    const kiln_texture_format_info *row = kiln_texture_format_get(fmt);
    const kiln_texture_encoder *enc = kiln_texture_encoder_of(fmt);
    if (!row || !enc)
        return settings_error(err, "/import/texture/format", "unknown texture format");
    kiln_result r = kiln_texture_check_srgb(fmt, o->srgb == KILN_TEXTURE_SRGB_YES, err);
    if (r != KILN_OK) return r;
    if (o->srgb == KILN_TEXTURE_SRGB_YES && o->normal_map)
        return settings_error(err, "/import/texture/srgb",
                              "srgb true is not allowed for a normal map (normals are linear)");
    if (o->flip_green && !o->normal_map)
        return settings_error(err, "/import/texture/flip_green",
                              "flip_green is only allowed with normal_map true");
    if (o->max_size < 1 || o->max_size > TEXTURE_MAX_SIZE) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "max_size %u is outside 1..%u",
                       (unsigned)o->max_size, TEXTURE_MAX_SIZE);
        kiln_error_at_pointer(err, "/import/texture/max_size");
        return KILN_E_IMPORT_SETTINGS;
    }

    /* srgb_in: the source codes are sRGB-encoded colour. Auto means yes for 8/16-bit colour
     * images; normal maps, float data and the one- or two-channel formats (data, not colour) are
     * linear. The output is sRGB-encoded only when the format has an sRGB variant; an sRGB source
     * cooked to rgba16f is stored linear. */
    bool data_format = row->channels < 3;
    bool srgb_in;
    if (o->srgb == KILN_TEXTURE_SRGB_AUTO)
        srgb_in = !o->normal_map && !is_float && !single_channel && !data_format;
    else srgb_in = o->srgb == KILN_TEXTURE_SRGB_YES;
    plan->format = fmt;
    plan->srgb_out = kiln_texture_format_has_srgb(fmt) && srgb_in;
    /* float data is linear; srgb true only encodes the output */
    plan->srgb_in = is_float ? false : srgb_in;
    return KILN_OK;
}

void kiln_texture_image_linear(const kiln_image *img, bool srgb_in, bool flip_green, float *dst)
{
    convert_rows(img, srgb_in, flip_green, 0, img->height, dst);
}

kiln_result kiln_texture_build(const kiln_image *img, const kiln_texture_build_opts *o,
                               const kiln_allocator *a, kiln_texture_levels *out, kiln_error *err)
{
    return kiln_texture_build_for(img, o, NULL, a, out, err);
}

kiln_result kiln_texture_build_for(const kiln_image *img, const kiln_texture_build_opts *o,
                                   const kiln_texture_target *target, const kiln_allocator *a,
                                   kiln_texture_levels *out, kiln_error *err)
{
    if (out) memset(out, 0, sizeof *out);
    if (!img || !o || !out)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_texture_build: NULL argument");

    kiln_texture_plan plan;
    bool is_float = img->type == KILN_PIXEL_F32;
    kiln_result r =
        kiln_texture_plan_make(is_float, is_float && source_has_alpha(img),
                               img->source_channels == 1 && !is_float, o, target, &plan, err);
    if (r != KILN_OK) return r;
    kiln_texture_format fmt = plan.format;
    const kiln_texture_encoder *enc = kiln_texture_encoder_of(fmt);
    bool srgb_in = plan.srgb_in, srgb_out = plan.srgb_out;
    bool block = enc->block || enc->level;

    /* ---- the image must be what it says ---- */
    size_t cs = kiln_pixel_type_size(img->type);
    size_t need;
    if (img->width == 0 || img->height == 0 || cs == 0 || !img->pixels ||
        !kiln_size_mul(img->width, img->height, &need) || !kiln_size_mul(need, 4 * cs, &need) ||
        img->size < need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_texture_build: image %ux%u of pixel type %d does not match its "
                              "%zu bytes of pixels",
                              (unsigned)img->width, (unsigned)img->height, (int)img->type,
                              img->size);

    uint32_t w, h, halvings;
    kiln_mip_fit(img->width, img->height, o->max_size, &w, &h, &halvings);
    uint32_t count = o->mipmaps ? kiln_mip_level_count(w, h) : 1;
    if (count > KILN_KTX2_MAX_LEVELS)
        return kiln_error_set(err, KILN_E_LIMIT, "texture %ux%u needs %u mip levels, at most %u",
                              (unsigned)w, (unsigned)h, (unsigned)count,
                              (unsigned)KILN_KTX2_MAX_LEVELS);
    kiln_mip_filter filter = o->normal_map ? KILN_MIP_FILTER_NORMAL : KILN_MIP_FILTER_COLOR;

    out->format = fmt;
    out->srgb = srgb_out;
    out->vk_format = kiln_texture_format_vk(fmt, srgb_out);
    out->texel_size = kiln_texels_size(enc->texels);
    out->normal_map = o->normal_map;
    out->width = w;
    out->height = h;
    out->shape = KILN_TEXTURE_SHAPE_2D;
    out->face_count = out->layer_count = out->depth = 1;
    out->allocator = a ? *a : (kiln_allocator){0};
    out->has_alpha = source_has_alpha(img);
    out->source_format = img->format;
    out->source_type = img->type;
    out->source_width = img->width;
    out->source_height = img->height;

    /* ---- resampling, starting from the source rows ---- */
    level_source ls;
    memset(&ls, 0, sizeof ls);
    ls.img = img;
    ls.srgb_in = srgb_in;
    ls.flip_green = o->normal_map && o->flip_green;
    ls.w = img->width;
    ls.h = img->height;
    ls.a = a;
    /* Enough rows for the vertical footprint of a halving (at most 4), or one row to quantise. */
    ls.strip_rows = img->height < 4 ? img->height : 4;
    ls.strip_size = float_buffer_size(img->width, ls.strip_rows);
    ls.strip = ls.strip_size ? kiln_alloc(a, ls.strip_size) : NULL;
    if (!ls.strip) {
        r = oom(err, "source rows", img->width, ls.strip_rows);
        goto fail;
    }
    for (uint32_t k = 0; k < halvings; k++) {
        r = step_down(&ls, kiln_mip_next_dim(ls.w), kiln_mip_next_dim(ls.h), filter, err);
        if (r != KILN_OK) goto fail;
    }

    /* ---- levels: each from the float data of the one above, never from quantised bytes ---- */
    for (uint32_t level = 0; level < count; level++) {
        kiln_texture_level *lv = &out->levels[level];
        lv->width = ls.w;
        lv->height = ls.h;
        lv->depth = 1;
        size_t texels_size = (size_t)ls.w * ls.h * out->texel_size;
        lv->size = texels_size;
        if (block && !kiln_blocks_size(fmt, ls.w, ls.h, &lv->size)) {
            lv->size = 0;
            r = oom(err, "blocks", ls.w, ls.h);
            goto fail;
        }
        lv->data = kiln_alloc(a, lv->size);
        out->level_count = level + 1;
        if (!lv->data) {
            lv->size = 0;
            r = oom(err, "level data", ls.w, ls.h);
            goto fail;
        }
        if (block) {
            /* Quantise to RGBA8 in the output's encoding, then compress. */
            uint8_t *texels = kiln_alloc(a, texels_size);
            if (!texels) {
                r = oom(err, "level texels", ls.w, ls.h);
                goto fail;
            }
            quantize_level(&ls, enc->texels, srgb_out, texels);
            kiln_block_opts bo = {o->quality, srgb_out, o->normal_map};
            r = kiln_blocks_encode(fmt, texels, ls.w, ls.h, (size_t)ls.w * out->texel_size, &bo,
                                   target ? target->jobs : NULL, lv->data, lv->size, err);
            kiln_free(a, texels, texels_size);
            if (r != KILN_OK) goto fail;
        } else {
            quantize_level(&ls, enc->texels, srgb_out, lv->data);
        }
        if (level + 1 < count) {
            r = step_down(&ls, kiln_mip_next_dim(ls.w), kiln_mip_next_dim(ls.h), filter, err);
            if (r != KILN_OK) goto fail;
        }
    }
    kiln_free(a, ls.cur, ls.cur_size);
    kiln_free(a, ls.strip, ls.strip_size);
    return KILN_OK;

fail:
    kiln_free(a, ls.cur, ls.cur_size);
    kiln_free(a, ls.strip, ls.strip_size);
    kiln_texture_levels_free(out);
    return r;
}
