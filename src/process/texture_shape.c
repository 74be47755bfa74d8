/* texture_shape.c — textures of several images: the six faces of a cube, the layers of an
 * array, the slices of a volume. Every image is converted to linear float once (as a 2D build
 * converts its source), then built like a 2D texture with the one format and colour space the
 * whole set resolves to; the levels of the images are joined in KTX2 order (face by face, layer
 * by layer, slice by slice within a level). Faces and layers get their own mip chains (a 2x2
 * box never crosses a face edge: see docs/textures.md, "Shapes"); a volume's levels are 2x2x2
 * boxes of the level above (mip.c), in linear light, each slice then quantised and encoded. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/mip.h"
#include "process/texture.h"

/* The set as one image kind: all float or none, single-channel only if all are. */
static kiln_result check_images(const kiln_texture_source *src, bool *is_float,
                                bool *single_channel, kiln_error *err)
{
    static const char *const what[KILN_TEXTURE_SHAPE_COUNT] = {"image", "face", "layer", "slice",
                                                               "image"};
    const kiln_image *first = &src->images[0];
    *is_float = first->type == KILN_PIXEL_F32;
    *single_channel = true;
    for (uint32_t i = 0; i < src->count; i++) {
        const kiln_image *img = &src->images[i];
        if (img->width != first->width || img->height != first->height)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "%s %u is %ux%u, %s 0 is %ux%u: all must be the same size",
                                  what[src->shape], i, img->width, img->height, what[src->shape],
                                  first->width, first->height);
        if ((img->type == KILN_PIXEL_F32) != *is_float)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "%s %u is %s and %s 0 is not: mix no HDR and LDR images",
                                  what[src->shape], i, *is_float ? "LDR" : "HDR", what[src->shape]);
        if (img->source_channels != 1 || *is_float) *single_channel = false;
    }
    if (src->shape == KILN_TEXTURE_SHAPE_CUBE && first->width != first->height)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "cube faces must be square, not %ux%u",
                              first->width, first->height);
    return KILN_OK;
}

/* A float image over caller-owned pixels, as a build reads it. */
static kiln_image float_image(float *pixels, uint32_t w, uint32_t h, const kiln_image *like)
{
    kiln_image f;
    memset(&f, 0, sizeof f);
    f.width = w;
    f.height = h;
    f.type = KILN_PIXEL_F32;
    f.pixels = pixels;
    f.size = (size_t)w * h * 4 * sizeof(float);
    f.format = like->format;
    f.source_channels = 4;
    f.source_bits = 32;
    return f;
}

/* Appends part's level data to out's, level by level (out->levels[l].size grows). */
static kiln_result append_levels(kiln_texture_levels *out, const kiln_texture_levels *part,
                                 const kiln_allocator *a, kiln_error *err)
{
    for (uint32_t l = 0; l < part->level_count; l++) {
        kiln_texture_level *lv = &out->levels[l];
        if (out->level_count < l + 1) out->level_count = l + 1; /* freed on failure */
        size_t size = lv->size + part->levels[l].size;
        uint8_t *data = kiln_alloc(a, size);
        if (!data)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "texture: out of memory for level %u",
                                  (unsigned)l);
        if (lv->size) memcpy(data, lv->data, lv->size);
        memcpy(data + lv->size, part->levels[l].data, part->levels[l].size);
        kiln_free(a, lv->data, lv->size);
        lv->data = data;
        lv->size = size;
        lv->width = part->levels[l].width;
        lv->height = part->levels[l].height;
        lv->depth = 1;
    }
    return KILN_OK;
}

/* Copies what describes the texture (not its level data) from the first part built. */
static void take_description(kiln_texture_levels *out, const kiln_texture_levels *part)
{
    out->vk_format = part->vk_format;
    out->format = part->format;
    out->srgb = part->srgb;
    out->normal_map = part->normal_map;
    out->width = part->width;
    out->height = part->height;
    out->texel_size = part->texel_size;
}

/* The options of one image's build: the set's format and output colour space made explicit, the
 * image already linear and flipped. */
static kiln_texture_build_opts part_opts(const kiln_texture_build_opts *o,
                                         const kiln_texture_plan *plan)
{
    kiln_texture_build_opts po = *o;
    po.format = plan->format;
    po.srgb = plan->srgb_out ? KILN_TEXTURE_SRGB_YES : KILN_TEXTURE_SRGB_NO;
    po.flip_green = false;
    return po;
}

/* Level `level` of out, stored from n float images of w x h (4 floats a texel, one after the
 * other): each quantised and encoded alone (po: one level, no fitting), joined. The first
 * image of level 0 gives out its description. */
static kiln_result store_level(const float *images, uint32_t w, uint32_t h, uint32_t n,
                               const kiln_image *like, const kiln_texture_build_opts *po,
                               const kiln_texture_target *target, const kiln_allocator *a,
                               uint32_t level, kiln_texture_levels *out, kiln_error *err)
{
    kiln_texture_levels joined;
    memset(&joined, 0, sizeof joined);
    joined.allocator = out->allocator;
    kiln_result r = KILN_OK;
    for (uint32_t i = 0; i < n && r == KILN_OK; i++) {
        kiln_image img = float_image((float *)(images + (size_t)i * w * h * 4), w, h, like);
        kiln_texture_levels part;
        r = kiln_texture_build_for(&img, po, target, a, &part, err);
        if (r != KILN_OK) break;
        if (level == 0 && i == 0) take_description(out, &part);
        r = append_levels(&joined, &part, a, err);
        kiln_texture_levels_free(&part);
    }
    if (r != KILN_OK) {
        kiln_texture_levels_free(&joined);
        return r;
    }
    out->levels[level] = joined.levels[0];
    return KILN_OK;
}

/* Faces and layers: each image its own 2D build. */
static kiln_result build_planes(const kiln_texture_source *src, const kiln_texture_build_opts *o,
                                const kiln_texture_plan *plan, const kiln_texture_target *target,
                                const kiln_allocator *a, kiln_texture_levels *out, kiln_error *err)
{
    const kiln_image *first = &src->images[0];
    size_t size = (size_t)first->width * first->height * 4 * sizeof(float);
    float *lin = kiln_alloc(a, size);
    if (!lin)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "texture: out of memory for %ux%u",
                              first->width, first->height);
    kiln_texture_build_opts po = part_opts(o, plan);
    kiln_result r = KILN_OK;
    for (uint32_t i = 0; i < src->count && r == KILN_OK; i++) {
        kiln_texture_image_linear(&src->images[i], plan->srgb_in, o->normal_map && o->flip_green,
                                  lin);
        kiln_image f = float_image(lin, first->width, first->height, first);
        kiln_texture_levels part;
        r = kiln_texture_build_for(&f, &po, target, a, &part, err);
        if (r != KILN_OK) break;
        if (i == 0) take_description(out, &part);
        r = append_levels(out, &part, a, err);
        kiln_texture_levels_free(&part);
    }
    kiln_free(a, lin, size);
    return r;
}

/* Volumes: the whole volume in float, fitted and mipmapped in three dimensions. */
static kiln_result build_volume(const kiln_texture_source *src, const kiln_texture_build_opts *o,
                                const kiln_texture_plan *plan, const kiln_texture_target *target,
                                const kiln_allocator *a, kiln_texture_levels *out, kiln_error *err)
{
    const kiln_image *first = &src->images[0];
    uint32_t w = first->width, h = first->height, d = src->count;
    size_t slice = (size_t)w * h * 4;
    size_t size;
    if (!kiln_size_mul(slice * sizeof(float), d, &size))
        return kiln_error_set(err, KILN_E_LIMIT, "texture: volume %ux%ux%u is too large", w, h, d);
    float *cur = kiln_alloc_large(a, size);
    if (!cur)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                              "texture: out of memory for a %ux%ux%u volume", w, h, d);
    for (uint32_t z = 0; z < d; z++)
        kiln_texture_image_linear(&src->images[z], plan->srgb_in, o->normal_map && o->flip_green,
                                  cur + z * slice);
    size_t cur_size = size;
    kiln_mip_filter filter = o->normal_map ? KILN_MIP_FILTER_NORMAL : KILN_MIP_FILTER_COLOR;
    kiln_texture_build_opts po = part_opts(o, plan);
    po.mipmaps = false;
    po.max_size = 16384;
    uint32_t max_size = o->max_size ? o->max_size : 1;
    uint32_t count = 0;
    kiln_result r = KILN_OK;
    for (;;) {
        bool fits = w <= max_size && h <= max_size && d <= max_size;
        if (fits) {
            /* This level is stored: each slice quantised and encoded. */
            r = store_level(cur, w, h, d, first, &po, target, a, count, out, err);
            if (r == KILN_OK) {
                out->levels[count].depth = d;
                out->level_count = ++count;
                if (count == 1) out->depth = d;
            }
            if (r != KILN_OK || !o->mipmaps) break;
            if (count >= KILN_KTX2_MAX_LEVELS) {
                r = kiln_error_set(err, KILN_E_LIMIT, "texture: more than %u levels",
                                   KILN_KTX2_MAX_LEVELS);
                break;
            }
        }
        if (w == 1 && h == 1 && d == 1) break;
        uint32_t nw = kiln_mip_next_dim(w), nh = kiln_mip_next_dim(h), nd = kiln_mip_next_dim(d);
        size_t nsize = (size_t)nw * nh * nd * 4 * sizeof(float);
        size_t scratch_size = kiln_mip_volume_scratch(w, h, d, nh, nd) * sizeof(float);
        float *next = kiln_alloc_large(a, nsize);
        float *scratch = kiln_alloc(a, scratch_size);
        if (!next || !scratch) {
            kiln_free_large(a, next, nsize);
            kiln_free(a, scratch, scratch_size);
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "texture: out of memory for a level");
            break;
        }
        bool ok = kiln_mip_downsample_volume(cur, w, h, d, next, nw, nh, nd, filter, scratch);
        kiln_free(a, scratch, scratch_size);
        kiln_free_large(a, cur, cur_size);
        cur = next;
        cur_size = nsize;
        w = nw;
        h = nh;
        d = nd;
        if (KILN_NEVER(!ok)) {
            r = kiln_error_set(err, KILN_E_INTERNAL, "texture: volume downsample refused");
            break;
        }
    }
    kiln_free_large(a, cur, cur_size);
    return r;
}

kiln_result kiln_texture_build_shape(const kiln_texture_source *src,
                                     const kiln_texture_build_opts *o,
                                     const kiln_texture_target *target, const kiln_allocator *a,
                                     kiln_texture_levels *out, kiln_error *err)
{
    if (out) memset(out, 0, sizeof *out);
    if (!src || !o || !out || !src->images || src->count == 0)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_texture_build_shape: no images");
    uint32_t want = src->shape == KILN_TEXTURE_SHAPE_CUBE ? 6 : 0;
    if (src->shape >= KILN_TEXTURE_SHAPE_COUNT || src->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY ||
        (src->shape == KILN_TEXTURE_SHAPE_2D && src->count != 1) || (want && src->count != want))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_texture_build_shape: %u images do not make a %s", src->count,
                              kiln_texture_shape_name(src->shape));
    if (src->shape == KILN_TEXTURE_SHAPE_ARRAY && src->count > KILN_KTX2_MAX_LAYERS)
        return kiln_error_set(err, KILN_E_LIMIT, "%u layers, at most %u", src->count,
                              KILN_KTX2_MAX_LAYERS);
    if (src->shape == KILN_TEXTURE_SHAPE_VOLUME && src->count > KILN_KTX2_MAX_DEPTH)
        return kiln_error_set(err, KILN_E_LIMIT, "%u slices, at most %u", src->count,
                              KILN_KTX2_MAX_DEPTH);
    if (src->shape == KILN_TEXTURE_SHAPE_2D)
        return kiln_texture_build_for(&src->images[0], o, target, a, out, err);

    bool is_float, single_channel;
    kiln_result r = check_images(src, &is_float, &single_channel, err);
    if (r != KILN_OK) return r;
    kiln_texture_plan plan;
    bool float_alpha = false; /* the importer's has_alpha: some alpha below 1 */
    for (uint32_t i = 0; is_float && i < src->count; i++) float_alpha |= src->images[i].has_alpha;
    if (src->plan) plan = *src->plan;
    else r = kiln_texture_plan_make(is_float, float_alpha, single_channel, o, target, &plan, err);
    if (r != KILN_OK) return r;
    out->allocator = a ? *a : (kiln_allocator){0};
    out->shape = src->shape;
    out->face_count = src->shape == KILN_TEXTURE_SHAPE_CUBE ? 6 : 1;
    out->layer_count = src->shape == KILN_TEXTURE_SHAPE_ARRAY ? src->count : 1;
    out->depth = 1;
    if (src->shape == KILN_TEXTURE_SHAPE_VOLUME)
        r = build_volume(src, o, &plan, target, a, out, err);
    else r = build_planes(src, o, &plan, target, a, out, err);
    if (r != KILN_OK) {
        kiln_texture_levels_free(out);
        return r;
    }
    const kiln_image *first = &src->images[0];
    for (uint32_t i = 0; i < src->count; i++)
        if (src->images[i].has_alpha) out->has_alpha = true;
    out->source_format = first->format;
    out->source_type = first->type;
    out->source_width = first->width;
    out->source_height = first->height;
    return KILN_OK;
}

kiln_result kiln_texture_build_cube_chain(const float *chain, uint32_t size, uint32_t level_count,
                                          const kiln_texture_plan *plan,
                                          const kiln_texture_build_opts *o,
                                          const kiln_texture_target *target,
                                          const kiln_allocator *a, kiln_texture_levels *out,
                                          kiln_error *err)
{
    if (out) memset(out, 0, sizeof *out);
    if (!chain || !plan || !o || !out || size == 0 || level_count == 0 ||
        level_count > kiln_mip_level_count(size, size) || level_count > KILN_KTX2_MAX_LEVELS)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_texture_build_cube_chain: %u levels of a %u cube", level_count,
                              size);
    out->allocator = a ? *a : (kiln_allocator){0};
    out->shape = KILN_TEXTURE_SHAPE_CUBE;
    out->face_count = 6;
    out->layer_count = out->depth = 1;
    kiln_texture_build_opts po = part_opts(o, plan);
    po.mipmaps = false;
    po.max_size = 16384;
    kiln_image like;
    memset(&like, 0, sizeof like);
    like.format = KILN_IMAGE_UNKNOWN;
    size_t at = 0;
    kiln_result r = KILN_OK;
    for (uint32_t l = 0; l < level_count && r == KILN_OK; l++) {
        uint32_t n = kiln_mip_extent(size, l);
        r = store_level(chain + at, n, n, 6, &like, &po, target, a, l, out, err);
        if (r == KILN_OK) out->level_count = l + 1;
        at += 6 * (size_t)n * n * 4;
    }
    if (r != KILN_OK) kiln_texture_levels_free(out);
    return r;
}
