/* cook_ktex.c — a texture descriptor (.ktex) becomes texture.ktx2 of its shape: the images it
 * names are read (each confined to the descriptor's folder), decoded, built together
 * (process/texture_shape.c) and written as one KTX2 file (cook_texture.c). */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/path.h"
#include "pipeline/cook.h"
#include "pipeline/ktex.h"
#include "process/texture.h"

#define KTEX_MAX_FILE ((size_t)1 << 30)

/* What a descriptor may make, in texels, checked from the headers before any image is decoded:
 * each image alone is held to the decoder's own limits, but 2048 of them are not. All decoded
 * images are held at once (up to 8 bytes a texel, 16-bit), and a volume is built whole in float
 * (16 bytes a texel): 2^28 texels of images (a 6 x 4096^2 cube is 2^26.6), 2^26 of a volume
 * (1 GiB of floats: 400^3). */
#define KTEX_MAX_TEXELS        ((uint64_t)1 << 28)
#define KTEX_MAX_VOLUME_TEXELS ((uint64_t)1 << 26)

/* Adds w x h x n texels to *total; E_LIMIT past the descriptor's budget. */
static kiln_result budget(const kiln_ktex *k, uint64_t w, uint64_t h, uint64_t n, uint64_t *total,
                          kiln_error *err)
{
    *total += w * h * n;
    uint64_t max = k->shape == KILN_TEXTURE_SHAPE_VOLUME ? KTEX_MAX_VOLUME_TEXELS : KTEX_MAX_TEXELS;
    if (*total > max)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "the images make more than %llu texels, kiln's limit for a %s",
                              (unsigned long long)max, kiln_texture_shape_name(k->shape));
    return KILN_OK;
}

static const char *shape_setting_name(kiln_texture_shape_setting s)
{
    static const char *const names[] = {"auto", "2d", "cube", "array", "volume"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "invalid";
}

/* The descriptor's shape against import.texture.shape: auto, or the same. */
static kiln_result check_shape(const kiln_texture_settings *s, uint32_t shape, kiln_error *err)
{
    static const kiln_texture_shape_setting of_shape[] = {
        [KILN_TEXTURE_SHAPE_2D] = KILN_SHAPE_SETTING_2D,
        [KILN_TEXTURE_SHAPE_CUBE] = KILN_SHAPE_SETTING_CUBE,
        [KILN_TEXTURE_SHAPE_ARRAY] = KILN_SHAPE_SETTING_ARRAY,
        [KILN_TEXTURE_SHAPE_VOLUME] = KILN_SHAPE_SETTING_VOLUME,
    };
    if (s->shape == KILN_SHAPE_SETTING_AUTO || s->shape == of_shape[shape]) return KILN_OK;
    kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                   "shape %s does not match the descriptor, which makes %s %s; allowed: auto or "
                   "%s",
                   shape_setting_name(s->shape), shape == KILN_TEXTURE_SHAPE_ARRAY ? "an" : "a",
                   kiln_texture_shape_name(shape), kiln_texture_shape_name(shape));
    kiln_error_at_pointer(err, "/import/texture/shape");
    return KILN_E_IMPORT_SETTINGS;
}

/* Reads a file the descriptor names, confined to its folder. */
static kiln_result read_named(const char *dir, const char *path, const kiln_allocator *a,
                              uint8_t **data, size_t *size, kiln_error *err)
{
    char real[KILN_PATH_MAX];
    kiln_result r = kiln_path_confine_read(path, dir, real, sizeof real, err);
    if (r != KILN_OK) return r;
    return kiln_file_read(real, KTEX_MAX_FILE, a, data, size, err);
}

static kiln_result decode_images(const kiln_ktex *k, const char *dir, const kiln_allocator *a,
                                 kiln_image *images, uint32_t *count, kiln_error *err)
{
    *count = 0;
    uint64_t texels = 0;
    if (k->is_raw) {
        kiln_result r = budget(k, k->raw.width, k->raw.height, k->raw.depth, &texels, err);
        if (r != KILN_OK) return r;
    }
    for (uint32_t i = 0; i < k->count; i++) {
        uint8_t *data = NULL;
        size_t size = 0;
        kiln_result r = read_named(dir, k->files[i], a, &data, &size, err);
        if (r != KILN_OK) return r;
        const char *rel = kiln_path_relative_to(dir, k->files[i]);
        if (k->is_raw) {
            r = kiln_ktex_raw_images(&k->raw, data, size, a, images, err);
            if (r == KILN_OK) *count = k->raw.depth;
        } else {
            kiln_image_opts io = {0};
            if (a) io.allocator = *a;
            io.name_hint = k->files[i];
            kiln_image_format format;
            uint32_t w = 0, h = 0;
            r = kiln_image_probe(data, size, &io, &format, &w, &h, err);
            if (r == KILN_OK) r = budget(k, w, h, 1, &texels, err);
            if (r == KILN_OK) r = kiln_image_decode(data, size, &io, &images[i], err);
            if (r == KILN_OK) *count = i + 1;
        }
        kiln_free(a, data, size);
        if (r != KILN_OK) {
            kiln_error_prefix(err, "%s: ", rel ? rel : k->files[i]);
            return r;
        }
    }
    return KILN_OK;
}

/* texture.ibl on a cube of faces: the lighting from the faces in linear float, converted with
 * the plan their build used. */
static kiln_result environment(const kiln_cook_env *env, const kiln_texture_settings *s,
                               const kiln_image *faces, kiln_cooked *out, kiln_error *err)
{
    kiln_texture_build_opts o = kiln_texture_opts_of_settings(s);
    kiln_texture_target target = {env->jobs, kiln_texture_gpu_of_platform(env->platform)};
    bool is_float = faces[0].type == KILN_PIXEL_F32, single = !is_float, alpha = false;
    for (int f = 0; f < 6; f++) {
        if (faces[f].source_channels != 1) single = false;
        alpha |= is_float && faces[f].has_alpha;
    }
    kiln_texture_plan plan;
    kiln_result r = kiln_texture_plan_make(is_float, alpha, single, &o, &target, &plan, err);
    if (r != KILN_OK) return r;
    uint32_t size = faces[0].width;
    size_t face = (size_t)size * size * 4, bytes = 6 * face * sizeof(float);
    float *lin = kiln_alloc_large(env->allocator, bytes);
    if (!lin) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the faces");
    for (int f = 0; f < 6; f++)
        kiln_texture_image_linear(&faces[f], plan.srgb_in, false, lin + (size_t)f * face);
    r = kiln_cook_environment(env, s, &plan, lin, size, out, out->summary, err);
    kiln_free_large(env->allocator, lin, bytes);
    return r;
}

kiln_result kiln_cook_ktex_source(const kiln_cook_env *env, const kiln_texture_settings *s,
                                  const char *dir, const uint8_t *source, size_t size,
                                  kiln_cooked *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_allocator *alloc = env->allocator;
    const char *name = env->name ? env->name : "";
    kiln_ktex k;
    kiln_result r = kiln_ktex_parse(source, size, dir, alloc, &k, err);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "%s: ", name);
        return r;
    }
    if ((r = check_shape(s, k.shape, err)) != KILN_OK) {
        kiln_ktex_free(&k);
        return r;
    }
    uint32_t slots = k.is_raw ? k.raw.depth : k.count;
    kiln_image *images = kiln_calloc(alloc, slots, sizeof *images);
    if (!images) {
        kiln_ktex_free(&k);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "%s: out of memory for %u images", name,
                              slots);
    }
    uint32_t count = 0;
    r = decode_images(&k, dir, alloc, images, &count, err);
    kiln_texture_levels t;
    memset(&t, 0, sizeof t);
    if (r == KILN_OK) {
        kiln_texture_source src = {k.shape, images, count, NULL};
        kiln_texture_target target = {env->jobs, kiln_texture_gpu_of_platform(env->platform)};
        kiln_texture_build_opts o = kiln_texture_opts_of_settings(s);
        r = kiln_texture_build_shape(&src, &o, &target, alloc, &t, err);
        if (r != KILN_OK) kiln_error_prefix(err, "%s: ", name);
    } else {
        kiln_error_prefix(err, "%s: ", name);
    }
    if (r == KILN_OK) r = kiln_cook_texture_levels(env, s, &t, out, err);
    kiln_texture_levels_free(&t);
    if (r == KILN_OK && s->ibl && k.shape == KILN_TEXTURE_SHAPE_CUBE)
        r = environment(env, s, images, out, err);
    for (uint32_t i = 0; i < count; i++) kiln_image_free(&images[i]);
    kiln_free(alloc, images, (size_t)slots * sizeof *images);
    kiln_ktex_free(&k);
    if (r != KILN_OK) kiln_cooked_release(alloc, out);
    return r;
}
