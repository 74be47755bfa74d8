/* cook_texture.c — an image source becomes texture.ktx2: decode (import/image), levels
 * (process/texture, with the options mapped from import.texture), KTX2 (write/ktx2_write). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/error.h"
#include "import/image.h"
#include "pipeline/cook.h"
#include "process/etc1s_encode.h"
#include "process/texture.h"
#include "process/uastc_encode.h"
#include "write/ktx2_write.h"

static const char *pixel_type_name(kiln_pixel_type t)
{
    switch (t) {
    case KILN_PIXEL_U8:
        return "u8";
    case KILN_PIXEL_U16:
        return "u16";
    default:
        return "f32";
    }
}

static json_t *summary_json(const kiln_texture_levels *t, size_t file_size,
                            const kiln_texture_settings *s)
{
    json_t *j = json_object();
    json_object_set_new(j, "width", json_integer(t->width));
    json_object_set_new(j, "height", json_integer(t->height));
    json_object_set_new(j, "levels", json_integer(t->level_count));
    if (t->shape != KILN_TEXTURE_SHAPE_2D) {
        json_object_set_new(j, "shape", json_string(kiln_texture_shape_name(t->shape)));
        if (t->shape == KILN_TEXTURE_SHAPE_ARRAY)
            json_object_set_new(j, "layers", json_integer(t->layer_count));
        if (t->shape == KILN_TEXTURE_SHAPE_VOLUME)
            json_object_set_new(j, "depth", json_integer(t->depth));
    }
    json_object_set_new(j, "format", json_string(kiln_texture_format_name(t->format)));
    json_object_set_new(j, "vk_format", json_integer(t->vk_format));
    json_object_set_new(j, "srgb", json_boolean(t->srgb));
    json_object_set_new(j, "normal_map", json_boolean(t->normal_map));
    json_object_set_new(j, "has_alpha", json_boolean(t->has_alpha));
    json_object_set_new(
        j, "supercompression",
        json_string(s->supercompression == KILN_SUPERCOMPRESSION_ZSTD ? "zstd" : "none"));
    json_object_set_new(j, "file_size", json_integer((json_int_t)file_size));
    json_t *src = json_object();
    json_object_set_new(src, "format", json_string(kiln_image_format_name(t->source_format)));
    json_object_set_new(src, "width", json_integer(t->source_width));
    json_object_set_new(src, "height", json_integer(t->source_height));
    json_object_set_new(src, "type", json_string(pixel_type_name(t->source_type)));
    json_object_set_new(j, "source", src);
    return j;
}

kiln_result kiln_texture_settings_check(const kiln_texture_settings *s, kiln_error *err)
{
    return kiln_texture_check_srgb(s->format, s->srgb == KILN_TRI_TRUE, err);
}

bool kiln_platform_prefers_astc(const char *platform)
{
    return kiln_texture_gpu_of_platform(platform) == KILN_TEXGPU_MOBILE;
}

kiln_texture_build_opts kiln_texture_opts_of_settings(const kiln_texture_settings *s)
{
    kiln_texture_build_opts o;
    memset(&o, 0, sizeof o);
    o.format = s->format;
    o.srgb = s->srgb == KILN_TRI_TRUE    ? KILN_TEXTURE_SRGB_YES
             : s->srgb == KILN_TRI_FALSE ? KILN_TEXTURE_SRGB_NO
                                         : KILN_TEXTURE_SRGB_AUTO;
    o.mipmaps = s->mipmaps;
    o.normal_map = s->normal_map;
    o.flip_green = s->flip_green;
    o.max_size = s->max_size;
    o.quality = s->quality;
    return o;
}

kiln_result kiln_cook_texture_source(const kiln_cook_env *env, const kiln_texture_settings *s,
                                     const uint8_t *source, size_t size, kiln_cooked *out,
                                     kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_allocator *alloc = env->allocator;
    const char *name = env->name ? env->name : "";
    kiln_image_opts io = {0};
    if (alloc) io.allocator = *alloc;
    io.name_hint = name;
    kiln_image img;
    kiln_result r = kiln_image_decode(source, size, &io, &img, err);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "%s: ", name);
        kiln_error_at_path(err, name);
        return r;
    }
    if (s->shape == KILN_SHAPE_SETTING_CUBE) {
        r = kiln_cook_texture_cube(env, s, &img, out, err);
        kiln_image_free(&img);
        return r;
    }
    kiln_texture_levels t;
    kiln_texture_target target = {env->jobs, kiln_texture_gpu_of_platform(env->platform)};
    kiln_texture_build_opts o = kiln_texture_opts_of_settings(s);
    r = kiln_texture_build_for(&img, &o, &target, alloc, &t, err);
    kiln_image_free(&img);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "%s: ", name);
        return r;
    }
    r = kiln_cook_texture_levels(env, s, &t, out, err);
    kiln_texture_levels_free(&t);
    return r;
}

/* The UASTC blocks of each level, until the file is written. */
typedef struct uastc_levels {
    const kiln_allocator *alloc;
    uint8_t *data[KILN_KTX2_MAX_LEVELS];
    size_t size[KILN_KTX2_MAX_LEVELS];
} uastc_levels;

/* UASTC: every image of every level on its own, at the search level `quality` gives (fast 1,
 * normal 2 as basisu's default, high 3), then the rate-distortion pass when uastc_rdo > 0; the
 * blocks are stored in Zstandard (KTX2 scheme 2) whatever `supercompression` says, as UASTC is
 * meant to be. uastc[l] holds level l's blocks (freed by the caller). */
static kiln_result encode_uastc(const kiln_texture_settings *s, const kiln_texture_levels *t,
                                kiln_ktx2_write_desc *d, uastc_levels *uastc, kiln_error *err)
{
    static const unsigned search[] = {
        [KILN_QUALITY_FAST] = 1, [KILN_QUALITY_NORMAL] = 2, [KILN_QUALITY_HIGH] = 3};
    unsigned level = (unsigned)s->quality < 3 ? search[s->quality] : 2;
    for (uint32_t l = 0; l < t->level_count; l++) {
        const kiln_texture_level *lv = &t->levels[l];
        size_t image = (size_t)lv->width * lv->height * 4;
        size_t blocks = (size_t)((lv->width + 3) / 4) * ((lv->height + 3) / 4) * 16;
        size_t images = lv->size / image;
        uastc->size[l] = blocks * images;
        uastc->data[l] = kiln_alloc(uastc->alloc, uastc->size[l]);
        if (!uastc->data[l])
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "format uastc: out of memory");
        for (size_t k = 0; k < images; k++) {
            const uint8_t *rgba = lv->data + k * image;
            uint8_t *out = uastc->data[l] + k * blocks;
            kiln_result r = kiln_uastc_encode(rgba, lv->width, lv->height, (size_t)lv->width * 4,
                                              level, out, blocks, err);
            if (r == KILN_OK && s->uastc_rdo > 0)
                r = kiln_uastc_rdo(rgba, lv->width, lv->height, (size_t)lv->width * 4,
                                   (float)s->uastc_rdo, out, blocks, err);
            if (r != KILN_OK) return r;
        }
        d->levels[l].data = uastc->data[l];
        d->levels[l].size = uastc->size[l];
    }
    d->vk_format = KILN_VK_FORMAT_UNDEFINED;
    d->basis = KILN_KTX2_BASIS_UASTC;
    d->basis_channels = t->has_alpha ? KILN_BASIS_CHANNELS_RGBA : KILN_BASIS_CHANNELS_RGB;
    d->srgb = t->srgb;
    d->supercompression = KILN_KTX2_SUPERCOMPRESSION_ZSTD;
    return KILN_OK;
}

/* A Basis row's RGBA8 levels encoded as the file stores them, into d (its basis fields and
 * levels); what *etc1s holds stays alive until the file is written. ETC1S codes every image of
 * every level with one set of codebooks (basis_quality); alpha slices when some texel needs them.
 * UASTC: encode_uastc. */
static kiln_result encode_basis(const kiln_cook_env *env, const kiln_texture_settings *s,
                                const kiln_texture_levels *t, kiln_ktx2_write_desc *d,
                                kiln_etc1s_encoded *etc1s, uastc_levels *uastc, kiln_error *err)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(t->format);
    if (row->basis == KILN_KTX2_BASIS_UASTC) return encode_uastc(s, t, d, uastc, err);
    /* Every face, layer and slice of every level, in KTX2 order. The level sizes bound the
     * count: at most 16 levels of 6 x 2048 images. */
    size_t total = 0;
    for (uint32_t l = 0; l < t->level_count; l++)
        total += t->levels[l].size / ((size_t)t->levels[l].width * t->levels[l].height * 4);
    kiln_etc1s_image *images = kiln_alloc(env->allocator, (total ? total : 1) * sizeof *images);
    if (!images) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "format etc1s: out of memory");
    uint32_t n = 0;
    for (uint32_t l = 0; l < t->level_count; l++) {
        const kiln_texture_level *lv = &t->levels[l];
        size_t image = (size_t)lv->width * lv->height * 4;
        for (size_t k = 0; k < lv->size / image; k++)
            images[n++] = (kiln_etc1s_image){lv->data + k * image, lv->width, lv->height, l};
    }
    kiln_result r = kiln_etc1s_encode(images, n, s->basis_quality, -1, env->allocator, etc1s, err);
    kiln_free(env->allocator, images, (total ? total : 1) * sizeof *images);
    if (r != KILN_OK) return r;
    d->vk_format = KILN_VK_FORMAT_UNDEFINED;
    d->basis = KILN_KTX2_BASIS_ETC1S;
    d->basis_channels = etc1s->alpha ? KILN_BASIS_CHANNELS_RGBA : KILN_BASIS_CHANNELS_RGB;
    d->srgb = t->srgb;
    d->supercompression = KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
    d->sgd = etc1s->sgd;
    d->sgd_size = etc1s->sgd_size;
    for (uint32_t l = 0; l < t->level_count; l++) {
        d->levels[l].data = etc1s->level[l];
        d->levels[l].size = etc1s->level_size[l];
    }
    return KILN_OK;
}

/* The KTX2 file of built levels, with extra key/value pairs (may be NULL). */
static kiln_result write_ktx2(const kiln_cook_env *env, const kiln_texture_settings *s,
                              const kiln_texture_levels *t, const kiln_ktx2_write_kv *kv,
                              size_t kv_count, uint8_t **bytes, size_t *size, size_t *cap,
                              kiln_error *err)
{
    kiln_ktx2_write_desc d = {0};
    d.vk_format = t->vk_format;
    d.width = t->width;
    d.height = t->height;
    d.shape = t->shape;
    d.layer_count = t->layer_count;
    d.depth = t->depth;
    d.level_count = t->level_count;
    for (uint32_t i = 0; i < t->level_count; i++) {
        d.levels[i].data = t->levels[i].data;
        d.levels[i].size = t->levels[i].size;
    }
    d.kv = kv;
    d.kv_count = kv_count;
    d.supercompression = s->supercompression == KILN_SUPERCOMPRESSION_ZSTD
                             ? KILN_KTX2_SUPERCOMPRESSION_ZSTD
                             : KILN_KTX2_SUPERCOMPRESSION_NONE;
    kiln_etc1s_encoded etc1s = {0};
    uastc_levels uastc = {env->allocator, {0}, {0}};
    kiln_result r = KILN_OK;
    const kiln_texture_format_info *row = kiln_texture_format_get(t->format);
    if (row && row->basis) r = encode_basis(env, s, t, &d, &etc1s, &uastc, err);
    kiln_buf b;
    kiln_buf_init(&b, env->allocator);
    if (r == KILN_OK) r = kiln_ktx2_write(&d, &b, err);
    kiln_etc1s_encoded_free(&etc1s, env->allocator);
    for (uint32_t l = 0; l < KILN_KTX2_MAX_LEVELS; l++)
        kiln_free(env->allocator, uastc.data[l], uastc.size[l]);
    if (r != KILN_OK) {
        kiln_buf_free(&b);
        kiln_error_prefix(err, "%s: ", env->name ? env->name : "");
        return r;
    }
    *bytes = kiln_buf_detach(&b, size, cap);
    return KILN_OK;
}

kiln_result kiln_cook_texture_add(const kiln_cook_env *env, const kiln_texture_settings *s,
                                  const kiln_texture_levels *t, const char *label, const char *file,
                                  const kiln_ktx2_write_kv *kv, size_t kv_count, kiln_cooked *out,
                                  kiln_error *err)
{
    uint8_t *bytes;
    size_t size, cap;
    kiln_result r = write_ktx2(env, s, t, kv, kv_count, &bytes, &size, &cap, err);
    if (r != KILN_OK) return r;
    return kiln_cooked_add(out, env->allocator, label, file, bytes, size, cap, err);
}

kiln_result kiln_cook_texture_levels(const kiln_cook_env *env, const kiln_texture_settings *s,
                                     const kiln_texture_levels *tl, kiln_cooked *out,
                                     kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_texture_levels t = *tl;
    uint8_t *bytes;
    size_t file_size, cap;
    kiln_result r = write_ktx2(env, s, &t, NULL, 0, &bytes, &file_size, &cap, err);
    if (r != KILN_OK) return r;
    out->warnings = json_array();
    /* (a cube made from a panorama, cross or strip has faces of another size by design) */
    if (!t.faces_made && (t.width != t.source_width || t.height != t.source_height)) {
        char w[160];
        snprintf(w, sizeof w, "resized from %ux%u to %ux%u to fit max_size %u", t.source_width,
                 t.source_height, t.width, t.height, s->max_size);
        json_array_append_new(out->warnings, json_string(w));
    }
    const kiln_texture_format_info *row = kiln_texture_format_get(t.format);
    if (t.has_alpha && row->channels < 4)
        json_array_append_new(out->warnings, json_string("the source has alpha, which this format "
                                                         "does not store: alpha is dropped"));
    if (t.source_type == KILN_PIXEL_U16 && !row->hdr)
        json_array_append_new(out->warnings,
                              json_string("16-bit source stored with 8 bits per channel"));
    out->summary = summary_json(&t, file_size, s);
    return kiln_cooked_add(out, env->allocator, "texture", "texture.ktx2", bytes, file_size, cap,
                           err);
}
