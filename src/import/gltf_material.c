/* gltf_material.c — images (files, data URIs, buffer views; decoded to pixels unless asked not
 * to), samplers, textures, and metallic-roughness materials with KHR_texture_transform and
 * every ratified KHR_materials_* extension (their factors and textures, by the tables of
 * codec/material_ext.c), and the variant names of KHR_materials_variants. */
#include "import/gltf_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/material_ext.h"

#include "core/file.h"
#include "import/image.h"
#include "import/uri.h"

#define MAX_IMAGE_FILE ((size_t)512 << 20)

/* Reads the image's encoded bytes into the scene. A file that cannot be read is a warning:
 * the meshes are still worth importing. *bytes stays NULL then. */
static kiln_result image_bytes(gltf_ctx *c, const json_t *ij, const char *ptr,
                               kiln_scene_image *img)
{
    const char *uri;
    int32_t view;
    kiln_result r;
    if ((r = gltf_get_string(c, ij, "uri", ptr, &uri)) ||
        (r = gltf_get_index(c, ij, "bufferView", ptr, c->view_count, false, &view)))
        return r;
    if (uri && view >= 0)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "an image has a uri or a bufferView, not both");
    if (!uri && view < 0)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "an image needs a \"uri\" or a \"bufferView\"");
    if (view >= 0) {
        const uint8_t *data;
        size_t size;
        if ((r = gltf_view_bytes(c, (uint32_t)view, &data, &size))) return r;
        if (!json_object_get(ij, "mimeType"))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "\"mimeType\" is required with a bufferView");
        img->source = KILN_SCENE_IMAGE_BUFFER_VIEW;
        if (c->flags & KILN_SCENE_LOAD_NO_IMAGES) return KILN_OK;
        if (!(img->encoded = kiln_arena_memdup(c->arena, data, size)))
            return gltf_nomem(c, "image bytes");
        img->encoded_size = size;
        return KILN_OK;
    }
    kiln_allocator a = kiln_arena_allocator(c->arena);
    if (kiln_uri_is_data(uri)) {
        uint8_t *data;
        size_t size;
        char media[64];
        img->source = KILN_SCENE_IMAGE_DATA_URI;
        if (c->flags & KILN_SCENE_LOAD_NO_IMAGES) return KILN_OK;
        r = kiln_uri_decode_data(uri, MAX_IMAGE_FILE, &a, &data, &size, media, sizeof media,
                                 c->err);
        if (r != KILN_OK) {
            kiln_error_at_pointer(c->err, ptr);
            return r;
        }
        img->encoded = data;
        img->encoded_size = size;
        if (!*img->mime_type && !(img->mime_type = kiln_arena_strdup(c->arena, media)))
            return gltf_nomem(c, "a media type");
        return KILN_OK;
    }
    img->source = KILN_SCENE_IMAGE_FILE;
    if (!c->base_dir)
        return gltf_fail(c, KILN_E_OUTPUT_REFUSED, ptr,
                         "external image \"%.*s\" refused: no folder to read it from",
                         KILN_URI_QUOTE_MAX, uri);
    char path[KILN_PATH_MAX], decoded[KILN_PATH_MAX];
    if ((r = kiln_uri_resolve_file(c->base_dir, uri, path, sizeof path, c->err)) ||
        (r = kiln_uri_percent_decode(uri, decoded, sizeof decoded, c->err))) {
        kiln_error_at_pointer(c->err, ptr);
        return r;
    }
    if (!(img->uri = kiln_arena_strdup(c->arena, decoded)) ||
        !(img->path = kiln_arena_strdup(c->arena, path)))
        return gltf_nomem(c, "an image path");
    /* A dependency of the model whether it can be read or not (a missing file that appears
     * later changes what a cook makes). */
    if (!kiln_scene_add_file(c->scene, path)) return gltf_nomem(c, "the file list");
    if (c->flags & KILN_SCENE_LOAD_NO_IMAGES) return KILN_OK;
    uint8_t *data;
    size_t size;
    kiln_error ferr;
    if (kiln_file_read(path, MAX_IMAGE_FILE, &a, &data, &size, &ferr) != KILN_OK) {
        if (ferr.code == KILN_E_OUT_OF_MEMORY || ferr.code == KILN_E_LIMIT) {
            if (c->err) *c->err = ferr;
            return ferr.code;
        }
        if (!kiln_scene_warn(c->scene, "%s: image \"%s\" cannot be read: %s", ptr, decoded,
                             ferr.message))
            return gltf_nomem(c, "a warning");
        return KILN_OK;
    }
    img->encoded = data;
    img->encoded_size = size;
    return KILN_OK;
}

static kiln_result decode_pixels(gltf_ctx *c, const char *ptr, kiln_scene_image *img)
{
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.allocator = kiln_arena_allocator(c->arena);
    opts.name_hint = *img->uri ? img->uri : NULL;
    kiln_image out;
    kiln_error ierr;
    kiln_result r = kiln_image_decode(img->encoded, img->encoded_size, &opts, &out, &ierr);
    if (r == KILN_E_OUT_OF_MEMORY || (r == KILN_E_LIMIT && c->arena->over_limit)) {
        if (c->err) *c->err = ierr;
        kiln_error_at_pointer(c->err, ptr);
        return r;
    }
    if (r != KILN_OK) {
        if (!kiln_scene_warn(c->scene, "%s: image %s%s%scannot be decoded: %s", ptr,
                             *img->uri ? "\"" : "", img->uri, *img->uri ? "\" " : "", ierr.message))
            return gltf_nomem(c, "a warning");
        return KILN_OK;
    }
    img->width = out.width;
    img->height = out.height;
    img->pixel = out.type == KILN_PIXEL_U8    ? KILN_SCENE_PIXEL_U8
                 : out.type == KILN_PIXEL_U16 ? KILN_SCENE_PIXEL_U16
                                              : KILN_SCENE_PIXEL_F32;
    img->pixels = out.pixels; /* in the scene arena, through the allocator above */
    img->source_channels = out.source_channels;
    img->has_alpha = out.has_alpha;
    return KILN_OK;
}

kiln_result gltf_read_images(gltf_ctx *c)
{
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "images", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK || !list || !json_array_size(list)) return r;
    size_t n = json_array_size(list);
    kiln_scene_image *images = kiln_arena_array(c->arena, n, sizeof *images);
    if (!images) return gltf_nomem(c, "images");
    for (size_t i = 0; i < n; i++) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/images/%zu", i);
        json_t *ij = json_array_get(list, i);
        kiln_scene_image *img = &images[i];
        if (!json_is_object(ij)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        img->uri = img->path = "";
        const char *mime;
        if ((r = gltf_get_name(c, ij, ptr, &img->name)) ||
            (r = gltf_get_string(c, ij, "mimeType", ptr, &mime)))
            return r;
        img->mime_type = "";
        if (mime && !(img->mime_type = kiln_arena_strdup(c->arena, mime)))
            return gltf_nomem(c, "a media type");
        if ((r = image_bytes(c, ij, ptr, img)) != KILN_OK) return r;
        if (img->encoded_size && !(c->flags & KILN_SCENE_LOAD_NO_PIXELS) &&
            (r = decode_pixels(c, ptr, img)) != KILN_OK)
            return r;
    }
    c->scene->images = images;
    c->scene->image_count = (uint32_t)n;
    return KILN_OK;
}

/* ---- samplers and textures ---------------------------------------------------------------- */

static kiln_result read_wrap(gltf_ctx *c, const json_t *sj, const char *key, const char *ptr,
                             kiln_scene_wrap *out)
{
    uint64_t v;
    kiln_result r = gltf_get_uint(c, sj, key, ptr, GLTF_NO_LIMIT, false, 10497, &v);
    if (r != KILN_OK) return r;
    switch (v) {
    case 10497:
        *out = KILN_SCENE_WRAP_REPEAT;
        return KILN_OK;
    case 33071:
        *out = KILN_SCENE_WRAP_CLAMP;
        return KILN_OK;
    case 33648:
        *out = KILN_SCENE_WRAP_MIRROR;
        return KILN_OK;
    default: {
        char mp[80];
        snprintf(mp, sizeof mp, "%s/%s", ptr, key);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"%s\" %llu is not 10497 (REPEAT), 33071 (CLAMP_TO_EDGE) or 33648 "
                         "(MIRRORED_REPEAT)",
                         key, (unsigned long long)v);
    }
    }
}

static kiln_result read_sampler(gltf_ctx *c, const json_t *sj, const char *ptr,
                                kiln_scene_sampler *s)
{
    uint64_t mag, min;
    kiln_result r;
    if ((r = gltf_get_name(c, sj, ptr, &s->name)) ||
        (r = gltf_get_uint(c, sj, "magFilter", ptr, GLTF_NO_LIMIT, false, 0, &mag)) ||
        (r = gltf_get_uint(c, sj, "minFilter", ptr, GLTF_NO_LIMIT, false, 0, &min)) ||
        (r = read_wrap(c, sj, "wrapS", ptr, &s->wrap_s)) ||
        (r = read_wrap(c, sj, "wrapT", ptr, &s->wrap_t)))
        return r;
    char mp[80]; /* the pointer of the member at fault */
    snprintf(mp, sizeof mp, "%s/magFilter", ptr);
    if (mag == 0) s->mag_filter = KILN_SCENE_FILTER_DEFAULT;
    else if (mag == 9728) s->mag_filter = KILN_SCENE_FILTER_NEAREST;
    else if (mag == 9729) s->mag_filter = KILN_SCENE_FILTER_LINEAR;
    else
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"magFilter\" %llu is not 9728 (NEAREST) or 9729 (LINEAR)",
                         (unsigned long long)mag);
    /* 9728 NEAREST, 9729 LINEAR, 9984..9987 {NEAREST,LINEAR}_MIPMAP_{NEAREST,LINEAR}. */
    switch (min) {
    case 0:
        s->mipmaps = true;
        break;
    case 9728:
        s->min_filter = KILN_SCENE_FILTER_NEAREST;
        break;
    case 9729:
        s->min_filter = KILN_SCENE_FILTER_LINEAR;
        break;
    case 9984:
    case 9985:
    case 9986:
    case 9987:
        s->mipmaps = true;
        s->min_filter = (min & 1) ? KILN_SCENE_FILTER_LINEAR : KILN_SCENE_FILTER_NEAREST;
        s->mip_filter = min >= 9986 ? KILN_SCENE_FILTER_LINEAR : KILN_SCENE_FILTER_NEAREST;
        break;
    default:
        snprintf(mp, sizeof mp, "%s/minFilter", ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"minFilter\" %llu is not 9728, 9729 or 9984..9987",
                         (unsigned long long)min);
    }
    return KILN_OK;
}

static kiln_result read_textures(gltf_ctx *c)
{
    kiln_scene *s = c->scene;
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "samplers", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK) return r;
    size_t n = list ? json_array_size(list) : 0;
    if (n) {
        kiln_scene_sampler *samplers = kiln_arena_array(c->arena, n, sizeof *samplers);
        if (!samplers) return gltf_nomem(c, "samplers");
        for (size_t i = 0; i < n; i++) {
            char ptr[48];
            snprintf(ptr, sizeof ptr, "/samplers/%zu", i);
            json_t *sj = json_array_get(list, i);
            if (!json_is_object(sj))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
            if ((r = read_sampler(c, sj, ptr, &samplers[i])) != KILN_OK) return r;
        }
        s->samplers = samplers;
        s->sampler_count = (uint32_t)n;
    }
    if ((r = gltf_get_array(c, c->root, "textures", "", KILN_GLTF_MAX_ITEMS, &list))) return r;
    n = list ? json_array_size(list) : 0;
    if (!n) return KILN_OK;
    kiln_scene_texture *textures = kiln_arena_array(c->arena, n, sizeof *textures);
    if (!textures) return gltf_nomem(c, "textures");
    for (size_t i = 0; i < n; i++) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/textures/%zu", i);
        json_t *tj = json_array_get(list, i);
        if (!json_is_object(tj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        kiln_scene_texture *t = &textures[i];
        if ((r = gltf_get_name(c, tj, ptr, &t->name)) ||
            (r = gltf_get_index(c, tj, "sampler", ptr, s->sampler_count, false, &t->sampler)) ||
            (r = gltf_get_index(c, tj, "source", ptr, s->image_count, false, &t->image)))
            return r;
        /* KHR_texture_basisu names a KTX2 image. A plain "source" beside it is the fallback
         * (PNG or JPEG) for viewers without the extension: kiln keeps that one when present —
         * the pixels before Basis compression are the better start for kiln's own encoders —
         * and otherwise decodes the KTX2 (image_ktx2.c). */
        json_t *bu = gltf_extension(tj, "KHR_texture_basisu");
        if (bu) {
            char bptr[96];
            snprintf(bptr, sizeof bptr, "%s/extensions/KHR_texture_basisu", ptr);
            if (!json_is_object(bu))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, bptr, "not an object");
            int32_t ktx2 = -1;
            if ((r = gltf_get_index(c, bu, "source", bptr, s->image_count, true, &ktx2))) return r;
            if (t->image < 0) t->image = ktx2;
        }
        if (t->image < 0 &&
            !kiln_scene_warn(s, "%s: no \"source\" image kiln can read (only an extension's)", ptr))
            return gltf_nomem(c, "a warning");
    }
    s->textures = textures;
    s->texture_count = (uint32_t)n;
    return KILN_OK;
}

/* ---- materials ---------------------------------------------------------------------------- */

/* A textureInfo (or normal/occlusion textureInfo): index, texCoord, scale or strength, and
 * KHR_texture_transform. */
static kiln_result read_texture_ref(gltf_ctx *c, const json_t *parent, const char *key,
                                    const char *scale_key, const char *parent_ptr,
                                    kiln_scene_texture_ref *t)
{
    t->texture = -1;
    t->scale = 1.0f;
    t->uv_scale[0] = t->uv_scale[1] = 1.0f;
    json_t *tj;
    kiln_result r = gltf_get_object(c, parent, key, parent_ptr, &tj);
    if (r != KILN_OK || !tj) return r;
    char ptr[128];
    snprintf(ptr, sizeof ptr, "%s/%s", parent_ptr, key);
    uint64_t texcoord;
    if ((r = gltf_get_index(c, tj, "index", ptr, c->scene->texture_count, true, &t->texture)) ||
        (r = gltf_get_uint(c, tj, "texCoord", ptr, GLTF_NO_LIMIT, false, 0, &texcoord)))
        return r;
    if (scale_key && (r = gltf_get_float(c, tj, scale_key, ptr, 1.0f, &t->scale))) return r;
    json_t *tt = gltf_extension(tj, "KHR_texture_transform");
    if (tt) {
        char tptr[192];
        snprintf(tptr, sizeof tptr, "%s/extensions/KHR_texture_transform", ptr);
        t->has_transform = true;
        if ((r = gltf_get_floats(c, tt, "offset", tptr, 2, t->offset)) ||
            (r = gltf_get_float(c, tt, "rotation", tptr, 0.0f, &t->rotation)) ||
            (r = gltf_get_floats(c, tt, "scale", tptr, 2, t->uv_scale)) ||
            (r = gltf_get_uint(c, tt, "texCoord", tptr, GLTF_NO_LIMIT, false, texcoord, &texcoord)))
            return r;
    }
    if (texcoord >= KILN_SCENE_MAX_UV_SETS)
        return gltf_fail(c, KILN_E_IMPORT_UNSUPPORTED, ptr,
                         "texture coordinate set %llu; kiln keeps sets 0..%d",
                         (unsigned long long)texcoord, KILN_SCENE_MAX_UV_SETS - 1);
    t->texcoord = (uint32_t)texcoord;
    return KILN_OK;
}

static float clamp01(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

/* The KHR_materials_* extensions with factors and textures (emissive strength and unlit are
 * read with the core material). A factor outside its range is brought into it with a warning,
 * as the core factors are; glTF's infinite attenuation distance is kept as 0. */
static kiln_result read_material_ext(gltf_ctx *c, const json_t *mj, const char *ptr,
                                     kiln_scene_material *m)
{
    kiln_material_ext_defaults(&m->ext);
    for (int k = KILN_SCENE_SLOT_CORE_COUNT; k < KILN_SCENE_SLOT_COUNT; k++) {
        m->textures[k].texture = -1; /* empty unless its extension names one */
        m->textures[k].scale = 1.0f;
        m->textures[k].uv_scale[0] = m->textures[k].uv_scale[1] = 1.0f;
    }
    kiln_result r;
    bool clamped = false;
    for (uint32_t bit = 1; bit < KILN_MATERIAL_EXT_EMISSIVE_STRENGTH; bit <<= 1) {
        const char *name = kiln_material_ext_name(bit);
        json_t *ej = gltf_extension(mj, name);
        if (!ej) continue;
        char eptr[160];
        snprintf(eptr, sizeof eptr, "%s/extensions/%s", ptr, name);
        m->ext.present |= bit;
        for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
            const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
            if (f->bit != bit || !f->gltf_key) continue;
            float *v = kiln_material_ext_at(&m->ext, f);
            if (f->count == 1) r = gltf_get_float(c, ej, f->gltf_key, eptr, v[0], v);
            else r = gltf_get_floats(c, ej, f->gltf_key, eptr, f->count, v);
            if (r != KILN_OK) return r;
            if (v == &m->ext.attenuation_distance && !(*v > 0.0f)) {
                if (json_object_get(ej, f->gltf_key) &&
                    !kiln_scene_warn(c->scene,
                                     "%s: \"attenuationDistance\" must be above 0; taken as "
                                     "infinite",
                                     eptr))
                    return gltf_nomem(c, "a warning");
                *v = 0.0f;
                continue;
            }
            for (uint32_t k = 0; k < f->count; k++) {
                if (kiln_material_ext_in_range(f->range, v[k])) continue;
                clamped = true;
                if (f->range == KILN_EXT_RANGE_01) v[k] = clamp01(v[k]);
                else if (f->range == KILN_EXT_RANGE_NONNEG) v[k] = 0.0f;
                else v[k] = 1.0f; /* IOR below 1 (but not 0), or iridescence IOR below 1 */
            }
        }
        for (uint32_t sl = 0; sl < KILN_MATERIAL_EXT_SLOT_COUNT; sl++) {
            const kiln_material_ext_texture *t = &kiln_material_ext_textures[sl];
            if (t->bit != bit) continue;
            kiln_scene_texture_ref *ref = &m->textures[KILN_SCENE_SLOT_CORE_COUNT + sl];
            if ((r = read_texture_ref(c, ej, t->gltf_key, t->scale_key, eptr, ref))) return r;
            if (t->scale_key) m->ext.clearcoat_normal_scale = ref->scale;
        }
    }
    if (clamped &&
        !kiln_scene_warn(c->scene, "%s: extension factors outside their ranges were clamped", ptr))
        return gltf_nomem(c, "a warning");
    return KILN_OK;
}

static kiln_result read_material(gltf_ctx *c, const json_t *mj, const char *ptr,
                                 kiln_scene_material *m)
{
    kiln_result r;
    json_t *pbr;
    m->base_color[0] = m->base_color[1] = m->base_color[2] = m->base_color[3] = 1.0f;
    m->metallic = m->roughness = 1.0f;
    m->emissive_strength = 1.0f;
    m->alpha_cutoff = 0.5f;
    if ((r = gltf_get_name(c, mj, ptr, &m->name)) ||
        (r = gltf_get_object(c, mj, "pbrMetallicRoughness", ptr, &pbr)))
        return r;
    char pptr[96];
    snprintf(pptr, sizeof pptr, "%s/pbrMetallicRoughness", ptr);
    if (pbr && ((r = gltf_get_floats(c, pbr, "baseColorFactor", pptr, 4, m->base_color)) ||
                (r = gltf_get_float(c, pbr, "metallicFactor", pptr, 1.0f, &m->metallic)) ||
                (r = gltf_get_float(c, pbr, "roughnessFactor", pptr, 1.0f, &m->roughness)) ||
                (r = read_texture_ref(c, pbr, "baseColorTexture", NULL, pptr,
                                      &m->textures[KILN_SCENE_SLOT_BASE_COLOR])) ||
                (r = read_texture_ref(c, pbr, "metallicRoughnessTexture", NULL, pptr,
                                      &m->textures[KILN_SCENE_SLOT_METALLIC_ROUGHNESS]))))
        return r;
    if (!pbr) {
        m->textures[KILN_SCENE_SLOT_BASE_COLOR].texture = -1;
        m->textures[KILN_SCENE_SLOT_METALLIC_ROUGHNESS].texture = -1;
    }
    const char *alpha;
    if ((r = read_texture_ref(c, mj, "normalTexture", "scale", ptr,
                              &m->textures[KILN_SCENE_SLOT_NORMAL])) ||
        (r = read_texture_ref(c, mj, "occlusionTexture", "strength", ptr,
                              &m->textures[KILN_SCENE_SLOT_OCCLUSION])) ||
        (r = read_texture_ref(c, mj, "emissiveTexture", NULL, ptr,
                              &m->textures[KILN_SCENE_SLOT_EMISSIVE])) ||
        (r = gltf_get_floats(c, mj, "emissiveFactor", ptr, 3, m->emissive)) ||
        (r = gltf_get_string(c, mj, "alphaMode", ptr, &alpha)) ||
        (r = gltf_get_float(c, mj, "alphaCutoff", ptr, 0.5f, &m->alpha_cutoff)) ||
        (r = gltf_get_bool(c, mj, "doubleSided", ptr, false, &m->double_sided)))
        return r;
    if (!alpha || strcmp(alpha, "OPAQUE") == 0) m->alpha_mode = KILN_SCENE_ALPHA_OPAQUE;
    else if (strcmp(alpha, "MASK") == 0) m->alpha_mode = KILN_SCENE_ALPHA_MASK;
    else if (strcmp(alpha, "BLEND") == 0) m->alpha_mode = KILN_SCENE_ALPHA_BLEND;
    else {
        char mp[80];
        snprintf(mp, sizeof mp, "%s/alphaMode", ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"alphaMode\" \"%.32s\" is not OPAQUE, MASK or BLEND", alpha);
    }
    if (m->alpha_cutoff < 0.0f)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "\"alphaCutoff\" must not be negative");
    /* Factors outside [0, 1] are clamped, as renderers would. */
    float before[6] = {m->base_color[0], m->base_color[1], m->base_color[2],
                       m->base_color[3], m->metallic,      m->roughness};
    for (int i = 0; i < 4; i++) m->base_color[i] = clamp01(m->base_color[i]);
    m->metallic = clamp01(m->metallic);
    m->roughness = clamp01(m->roughness);
    for (int i = 0; i < 3; i++) m->emissive[i] = clamp01(m->emissive[i]);
    float after[6] = {m->base_color[0], m->base_color[1], m->base_color[2],
                      m->base_color[3], m->metallic,      m->roughness};
    if (memcmp(before, after, sizeof before) != 0 &&
        !kiln_scene_warn(c->scene, "%s: factors outside [0, 1] were clamped", ptr))
        return gltf_nomem(c, "a warning");
    json_t *es = gltf_extension(mj, "KHR_materials_emissive_strength");
    if (es) {
        char eptr[160];
        snprintf(eptr, sizeof eptr, "%s/extensions/KHR_materials_emissive_strength", ptr);
        if ((r = gltf_get_float(c, es, "emissiveStrength", eptr, 1.0f, &m->emissive_strength)))
            return r;
        if (m->emissive_strength < 0.0f)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, eptr,
                             "\"emissiveStrength\" must not be negative");
    }
    m->unlit = gltf_extension(mj, "KHR_materials_unlit") != NULL;
    if ((r = read_material_ext(c, mj, ptr, m)) || (r = gltf_get_extras(c, mj, &m->extras)))
        return r;
    if (es) m->ext.present |= KILN_MATERIAL_EXT_EMISSIVE_STRENGTH;
    if (m->unlit) m->ext.present |= KILN_MATERIAL_EXT_UNLIT;
    return KILN_OK;
}

/* "extras" as compact JSON text in the scene arena (NULL without one). */
kiln_result gltf_get_extras(gltf_ctx *c, const json_t *obj, const char **out)
{
    *out = NULL;
    json_t *ex = json_object_get(obj, "extras");
    if (!ex) return KILN_OK;
    char *text = json_dumps(ex, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
    if (!text) return gltf_nomem(c, "extras");
    *out = kiln_arena_strdup(c->arena, text);
    free(text);
    return *out ? KILN_OK : gltf_nomem(c, "extras");
}

/* KHR_materials_variants at the root: the variants' names. */
static kiln_result read_variants(gltf_ctx *c)
{
    json_t *vj = gltf_extension(c->root, "KHR_materials_variants");
    if (!vj) return KILN_OK;
    const char *ptr = "/extensions/KHR_materials_variants";
    json_t *list;
    kiln_result r = gltf_get_array(c, vj, "variants", ptr, KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK) return r;
    size_t n = list ? json_array_size(list) : 0;
    if (!n) return KILN_OK;
    const char **names = kiln_arena_array(c->arena, n, sizeof *names);
    if (!names) return gltf_nomem(c, "variants");
    for (size_t i = 0; i < n; i++) {
        char vptr[96];
        snprintf(vptr, sizeof vptr, "%s/variants/%zu", ptr, i);
        json_t *v = json_array_get(list, i);
        if (!json_is_object(v)) return gltf_fail(c, KILN_E_IMPORT_FAILED, vptr, "not an object");
        const char *name;
        if ((r = gltf_get_string(c, v, "name", vptr, &name))) return r;
        if (!name) return gltf_fail(c, KILN_E_IMPORT_FAILED, vptr, "a variant needs a \"name\"");
        if (!(names[i] = kiln_arena_strdup(c->arena, name))) return gltf_nomem(c, "a variant");
    }
    c->scene->variants = names;
    c->scene->variant_count = (uint32_t)n;
    return KILN_OK;
}

kiln_result gltf_read_materials(gltf_ctx *c)
{
    kiln_result r = read_textures(c);
    if (r == KILN_OK) r = read_variants(c);
    if (r != KILN_OK) return r;
    json_t *list;
    if ((r = gltf_get_array(c, c->root, "materials", "", KILN_GLTF_MAX_ITEMS, &list))) return r;
    size_t n = list ? json_array_size(list) : 0;
    if (!n) return KILN_OK;
    kiln_scene_material *materials = kiln_arena_array(c->arena, n, sizeof *materials);
    if (!materials) return gltf_nomem(c, "materials");
    for (size_t i = 0; i < n; i++) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/materials/%zu", i);
        json_t *mj = json_array_get(list, i);
        if (!json_is_object(mj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        if ((r = read_material(c, mj, ptr, &materials[i])) != KILN_OK) return r;
    }
    c->scene->materials = materials;
    c->scene->material_count = (uint32_t)n;
    return KILN_OK;
}
