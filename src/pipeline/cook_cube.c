/* cook_cube.c — cubes made from one image, and the image-based lighting cooked from a cube.
 *
 * An image with texture.shape cube is a cross or strip of square faces (detected from its
 * aspect: 4:3, 3:4, 6:1, 1:6) or else a 2:1 equirectangular panorama; process/cube.c makes the
 * six faces (in linear float, after the source's colour decode) and process/texture_shape.c
 * builds them with the source's own format and colour space. With texture.ibl the faces also
 * become (process/ibl.c, docs/ibl.md): specular.ktx2, the GGX-prefiltered chain (one roughness a
 * level); irradiance.ktx2, a small irradiance cube carrying the 9 spherical-harmonic
 * coefficients in its key/value data ("kiln.sh9"); brdf.ktx2, the split-sum table in
 * R16G16_SFLOAT. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "import/image.h"
#include "pipeline/cook.h"
#include "process/cube.h"
#include "process/half.h"
#include "process/ibl.h"
#include "process/texture.h"
#include "write/ktx2_write.h"

/* The largest face a panorama is made into (the settings' max_size still applies after). */
#define CUBE_MAX_FACE 8192u

static kiln_result oom(kiln_error *err, const char *what)
{
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for %s", what);
}

/* A float cube's faces as six images over its floats. */
static void face_images(float *faces, uint32_t size, kiln_image images[6])
{
    for (uint32_t f = 0; f < 6; f++) {
        memset(&images[f], 0, sizeof images[f]);
        images[f].width = images[f].height = size;
        images[f].type = KILN_PIXEL_F32;
        images[f].pixels = faces + (size_t)f * size * size * 4;
        images[f].size = (size_t)size * size * 4 * sizeof(float);
        images[f].source_channels = 4;
        images[f].source_bits = 32;
    }
}

/* The 27 floats of the SH key, little-endian (KTX2 stores binary values as they are). */
static void sh_bytes(const double sh[9][3], uint8_t out[9 * 3 * 4])
{
    for (int k = 0; k < 9; k++)
        for (int c = 0; c < 3; c++) {
            float f = (float)sh[k][c];
            uint32_t u;
            memcpy(&u, &f, 4);
            uint8_t *p = out + (k * 3 + c) * 4;
            p[0] = (uint8_t)u;
            p[1] = (uint8_t)(u >> 8);
            p[2] = (uint8_t)(u >> 16);
            p[3] = (uint8_t)(u >> 24);
        }
}

/* The BRDF table (RG floats, size x size) as a one-level R16G16_SFLOAT texture. */
static kiln_result brdf_levels(const float *rg, uint32_t size, const kiln_allocator *a,
                               kiln_texture_levels *t, kiln_error *err)
{
    memset(t, 0, sizeof *t);
    size_t n = (size_t)size * size * 2;
    uint8_t *data = kiln_alloc(a, n * 2);
    if (!data) return oom(err, "the BRDF table");
    for (size_t i = 0; i < n; i++) {
        uint16_t h = kiln_half_from_float_sat(rg[i]);
        data[2 * i] = (uint8_t)h;
        data[2 * i + 1] = (uint8_t)(h >> 8);
    }
    t->allocator = a ? *a : (kiln_allocator){0};
    t->vk_format = KILN_VK_FORMAT_R16G16_SFLOAT;
    t->format = KILN_TEXFMT_AUTO; /* no row of the table: written as it is */
    t->width = t->height = size;
    t->shape = KILN_TEXTURE_SHAPE_2D;
    t->face_count = t->layer_count = t->depth = 1;
    t->level_count = 1;
    t->levels[0] = (kiln_texture_level){data, n * 2, size, size, 1};
    return KILN_OK;
}

kiln_result kiln_cook_environment(const kiln_cook_env *env, const kiln_texture_settings *s,
                                  const kiln_texture_plan *plan, const float *faces, uint32_t size,
                                  kiln_cooked *out, json_t *summary, kiln_error *err)
{
    const kiln_allocator *a = env->allocator;
    kiln_texture_target target = {env->jobs, kiln_texture_gpu_of_platform(env->platform)};
    kiln_texture_build_opts o = kiln_texture_opts_of_settings(s);
    kiln_ibl_opts io;
    memset(&io, 0, sizeof io);
    if (a) io.allocator = *a;
    kiln_ibl_opts ro = kiln_ibl_opts_resolve(&io, size);
    kiln_result r = KILN_OK;
    float *chain = NULL, *irr = NULL, *lut = NULL;
    size_t chain_n = kiln_ibl_specular_float_count(ro.specular_size, ro.specular_levels);
    size_t irr_n = kiln_cube_float_count(ro.irradiance_size);
    size_t lut_n = (size_t)ro.brdf_size * ro.brdf_size * 2;
    chain = kiln_alloc_large(a, chain_n * sizeof *chain);
    irr = kiln_alloc(a, irr_n * sizeof *irr);
    lut = kiln_alloc(a, lut_n * sizeof *lut);
    kiln_texture_levels t;
    memset(&t, 0, sizeof t);
    double sh[9][3];
    if (!chain || !irr || !lut) r = oom(err, "the lighting");
    if (!r) r = kiln_ibl_specular(faces, size, &ro, env->jobs, chain, err);
    if (!r)
        r = kiln_texture_build_cube_chain(chain, ro.specular_size, ro.specular_levels, plan, &o,
                                          &target, a, &t, err);
    if (!r) r = kiln_cook_texture_add(env, s, &t, "specular", "specular.ktx2", NULL, 0, out, err);
    kiln_texture_levels_free(&t);
    /* From the chain's level 0 (the source box-filtered to at most 256): the same coefficients
     * to 6e-5 (docs/ibl.md) for a tenth of the cost of the whole source. */
    if (!r) r = kiln_ibl_sh(chain, ro.specular_size, &ro, env->jobs, sh, err);
    if (!r) {
        kiln_ibl_irradiance_cube(sh, ro.irradiance_size, irr);
        r = kiln_texture_build_cube_chain(irr, ro.irradiance_size, 1, plan, &o, &target, a, &t,
                                          err);
    }
    uint8_t sh_value[9 * 3 * 4];
    sh_bytes(sh, sh_value);
    kiln_ktx2_write_kv kv = {"kiln.sh9", sh_value, sizeof sh_value};
    if (!r)
        r = kiln_cook_texture_add(env, s, &t, "irradiance", "irradiance.ktx2", &kv, 1, out, err);
    kiln_texture_levels_free(&t);
    if (!r) r = kiln_ibl_brdf_lut(&ro, env->jobs, lut, err);
    if (!r) r = brdf_levels(lut, ro.brdf_size, a, &t, err);
    if (!r) r = kiln_cook_texture_add(env, s, &t, "brdf", "brdf.ktx2", NULL, 0, out, err);
    kiln_texture_levels_free(&t);
    if (!r && summary) {
        json_t *ibl = json_object();
        json_object_set_new(ibl, "specular_size", json_integer(ro.specular_size));
        json_object_set_new(ibl, "specular_levels", json_integer(ro.specular_levels));
        json_object_set_new(ibl, "irradiance_size", json_integer(ro.irradiance_size));
        json_object_set_new(ibl, "brdf_size", json_integer(ro.brdf_size));
        json_t *coeffs = json_array();
        for (int k = 0; k < 9; k++) {
            json_t *rgb = json_array();
            for (int c = 0; c < 3; c++) json_array_append_new(rgb, json_real((float)sh[k][c]));
            json_array_append_new(coeffs, rgb);
        }
        json_object_set_new(ibl, "sh9", coeffs);
        json_object_set_new(summary, "ibl", ibl);
    }
    kiln_free_large(a, chain, chain_n * sizeof *chain);
    kiln_free(a, irr, irr_n * sizeof *irr);
    kiln_free(a, lut, lut_n * sizeof *lut);
    if (r != KILN_OK) kiln_error_prefix(err, "%s: lighting: ", env->name ? env->name : "");
    return r;
}

/* The six faces of an image as texture.cube_layout says: auto takes a cross or strip by its
 * aspect, else a 2:1 panorama. */
static kiln_result make_faces(const kiln_cook_env *env, const kiln_texture_settings *s,
                              const float *lin, uint32_t w, uint32_t h, float **faces,
                              size_t *faces_size, uint32_t *size, kiln_error *err)
{
    kiln_cube_layout layout = KILN_CUBE_LAYOUT_AUTO;
    bool panorama = s->cube_layout == KILN_CUBE_LAYOUT_SETTING_PANORAMA;
    if (s->cube_layout == KILN_CUBE_LAYOUT_SETTING_AUTO) {
        kiln_error ignored;
        panorama = kiln_cube_layout_detect(w, h, &layout, size, &ignored) != KILN_OK;
        if (panorama && w != 2 * h) {
            kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                           "shape cube: a %ux%u image is none of a 2:1 panorama, a cross (4:3, "
                           "3:4) or a strip (6:1, 1:6) of square faces; cube_layout panorama reads "
                           "any image as a whole panorama",
                           w, h);
            kiln_error_at_pointer(err, "/import/texture/cube_layout");
            return KILN_E_IMPORT_SETTINGS;
        }
    } else if (!panorama) {
        /* the settings' values after panorama are kiln_cube_layout's, in its order */
        layout = (kiln_cube_layout)(s->cube_layout - KILN_CUBE_LAYOUT_SETTING_PANORAMA);
        kiln_cube_layout found;
        kiln_result r = kiln_cube_layout_detect(w, h, &found, size, err);
        if (r == KILN_OK && found != layout) {
            kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "cube_layout %s: a %ux%u image is a %s",
                           kiln_cube_layout_name(layout), w, h, kiln_cube_layout_name(found));
            r = KILN_E_IMPORT_SETTINGS;
        }
        if (r != KILN_OK) {
            kiln_error_at_pointer(err, "/import/texture/cube_layout");
            return r;
        }
    }
    if (panorama) {
        *size = kiln_cube_face_size_for_equirect(w, h);
        uint32_t cap = s->max_size < CUBE_MAX_FACE ? s->max_size : CUBE_MAX_FACE;
        while (*size > cap && *size > 1) *size /= 2;
    }
    *faces_size = kiln_cube_float_count(*size) * sizeof(float);
    *faces = kiln_alloc_large(env->allocator, *faces_size);
    if (!*faces) return oom(err, "six faces");
    kiln_result r = panorama ? kiln_cube_from_equirect(lin, w, h, *size, env->jobs, *faces, err)
                             : kiln_cube_from_cross(lin, w, h, layout, *faces, err);
    if (r != KILN_OK) {
        kiln_free_large(env->allocator, *faces, *faces_size);
        *faces = NULL;
    }
    return r;
}

kiln_result kiln_cook_texture_cube(const kiln_cook_env *env, const kiln_texture_settings *s,
                                   const kiln_image *img, kiln_cooked *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_allocator *a = env->allocator;
    const char *name = env->name ? env->name : "";
    kiln_texture_build_opts o = kiln_texture_opts_of_settings(s);
    kiln_texture_target target = {env->jobs, kiln_texture_gpu_of_platform(env->platform)};
    bool is_float = img->type == KILN_PIXEL_F32;
    kiln_texture_plan plan;
    kiln_result r =
        kiln_texture_plan_make(is_float, is_float && img->has_alpha,
                               img->source_channels == 1 && !is_float, &o, &target, &plan, err);
    if (r != KILN_OK) return r;
    size_t lin_size = (size_t)img->width * img->height * 4 * sizeof(float);
    float *lin = kiln_alloc_large(a, lin_size);
    if (!lin) return oom(err, "the image in float");
    kiln_texture_image_linear(img, plan.srgb_in, o.normal_map && o.flip_green, lin);
    o.flip_green = false; /* done */
    float *faces = NULL;
    size_t faces_size = 0;
    uint32_t size = 0;
    r = make_faces(env, s, lin, img->width, img->height, &faces, &faces_size, &size, err);
    kiln_free_large(a, lin, lin_size);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "%s: ", name);
        return r;
    }
    kiln_image images[6];
    face_images(faces, size, images);
    kiln_texture_source src = {KILN_TEXTURE_SHAPE_CUBE, images, 6, &plan};
    kiln_texture_levels t;
    r = kiln_texture_build_shape(&src, &o, &target, a, &t, err);
    if (r == KILN_OK) {
        t.has_alpha = img->has_alpha;
        t.source_format = img->format;
        t.source_type = img->type;
        t.source_width = img->width;
        t.source_height = img->height;
        t.faces_made = true;
        r = kiln_cook_texture_levels(env, s, &t, out, err);
        kiln_texture_levels_free(&t);
    } else {
        kiln_error_prefix(err, "%s: ", name);
    }
    if (r == KILN_OK && s->ibl)
        r = kiln_cook_environment(env, s, &plan, faces, size, out, out->summary, err);
    kiln_free_large(a, faces, faces_size);
    if (r != KILN_OK) kiln_cooked_release(a, out);
    return r;
}
