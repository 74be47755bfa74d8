/* gltf_out_material.c — materials, textures, images and samplers of the glTF writer.
 * Materials are written metallic-roughness with their textures, KHR_texture_transform, every
 * ratified KHR_materials_* extension the scene carries (codec/material_ext.h's tables name their
 * factors and texture slots: a factor equal to glTF's default is left out, the extension object
 * never) and the material's "extras".
 * Images keep the bytes they were stored with (PNG, JPEG, or KTX2 under KHR_texture_basisu),
 * told by their first bytes, not the declared MIME type: inside the GLB as buffer views, or as
 * files beside the .gltf. An image without bytes kiln can keep is left out with the textures
 * that show it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "codec/material_ext.h"
#include "write/gltf_out_private.h"

/* "png", "jpg" or "ktx2" from the file's signature, NULL for anything else. */
static const char *image_kind(const kiln_scene_image *im)
{
    const uint8_t *b = im->encoded;
    size_t n = im->encoded_size;
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    static const uint8_t ktx2[12] = {0xAB, 'K',  'T',  'X',  ' ',  '2',
                                     '0',  0xBB, 0x0d, 0x0a, 0x1a, 0x0a};
    if (!b) return NULL;
    if (n >= 8 && memcmp(b, png, 8) == 0) return "png";
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return "jpg";
    if (n >= 12 && memcmp(b, ktx2, 12) == 0) return "ktx2";
    return NULL;
}

static const char *mime_of(const char *kind)
{
    if (strcmp(kind, "png") == 0) return "image/png";
    if (strcmp(kind, "jpg") == 0) return "image/jpeg";
    return "image/ktx2";
}

/* The KHR_materials_* extensions material m is written with (KILN_MATERIAL_EXT_*). */
static uint32_t material_ext_bits(const kiln_scene_material *m)
{
    uint32_t bits = m->ext.present & KILN_MATERIAL_EXT_ALL;
    if (m->unlit) bits |= KILN_MATERIAL_EXT_UNLIT;
    if (m->emissive_strength != 1.0f) bits |= KILN_MATERIAL_EXT_EMISSIVE_STRENGTH;
    return bits;
}

kiln_result kiln_gltf_plan_images(kiln_gltf_state *st, kiln_error *err)
{
    const kiln_scene *sc = st->scene;
    int32_t next = 0;
    for (uint32_t i = 0; i < sc->image_count; i++) {
        const kiln_scene_image *im = &sc->images[i];
        st->image_map[i] = -1;
        st->image_view[i] = -1;
        st->image_ext[i] = image_kind(im);
        if (!st->image_ext[i]) {
            st->out->images_dropped++;
            continue;
        }
        st->image_map[i] = next++;
        if (st->opts->glb) {
            st->image_view[i] = kiln_gltf_add_view(st, im->encoded, im->encoded_size,
                                                   KILN_GLTF_VIEW_IMAGE, 0, 0, 0);
            if (st->image_view[i] < 0)
                return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
        }
    }
    st->image_count = (uint32_t)next;
    st->out->images = (uint32_t)next;
    next = 0;
    for (uint32_t t = 0; t < sc->texture_count; t++) {
        int32_t img = sc->textures[t].image;
        bool ok = img >= 0 && (uint32_t)img < sc->image_count && st->image_map[img] >= 0;
        st->texture_map[t] = ok ? next++ : -1;
        if (ok && strcmp(st->image_ext[img], "ktx2") == 0) st->used_basisu = true;
    }
    st->texture_count = (uint32_t)next;
    for (uint32_t m = 0; m < sc->material_count; m++) {
        const kiln_scene_material *mat = &sc->materials[m];
        st->used_material_ext |= material_ext_bits(mat);
        for (int s = 0; s < KILN_SCENE_SLOT_COUNT; s++) {
            const kiln_scene_texture_ref *r = &mat->textures[s];
            if (r->texture >= 0 && (uint32_t)r->texture < sc->texture_count &&
                st->texture_map[r->texture] >= 0 && r->has_transform)
                st->used_texture_transform = true;
        }
    }
    return KILN_OK;
}

/* A textureInfo member (key) for slot s of mat, when its texture is kept. */
static void write_texture_ref(kiln_gltf_state *st, kiln_json_out *j, const char *key,
                              const kiln_scene_texture_ref *r, const char *scale_key,
                              const kiln_gltf_uv_q *uv_q)
{
    const kiln_scene *sc = st->scene;
    if (r->texture < 0 || (uint32_t)r->texture >= sc->texture_count) return;
    int32_t t = st->texture_map[r->texture];
    if (t < 0) return;
    kiln_json_out_object(j, key);
    kiln_json_out_int(j, "index", t);
    if (r->texcoord) kiln_json_out_int(j, "texCoord", r->texcoord);
    if (scale_key && r->scale != 1.0f) kiln_json_out_float(j, scale_key, r->scale);
    float offset[2] = {r->offset[0], r->offset[1]}, scale[2] = {r->uv_scale[0], r->uv_scale[1]};
    if (!r->has_transform) offset[0] = offset[1] = 0, scale[0] = scale[1] = 1;
    const kiln_gltf_uv_q *q = r->texcoord < KILN_SCENE_MAX_UV_SETS ? &uv_q[r->texcoord] : NULL;
    if (q && q->quantized) {
        /* T(o) R S applied to q.offset + q.scale * n: T(o + R(S q.offset)) R S(S q.scale), with
         * R = [c s; -s c] as kiln_material_transform_matrix and three.js turn it. */
        float c = cosf(r->has_transform ? r->rotation : 0.0f);
        float sn = sinf(r->has_transform ? r->rotation : 0.0f);
        float x = scale[0] * q->offset[0], y = scale[1] * q->offset[1];
        offset[0] += c * x + sn * y;
        offset[1] += -sn * x + c * y;
        scale[0] *= q->scale[0];
        scale[1] *= q->scale[1];
    }
    if (r->has_transform || (q && q->quantized)) {
        kiln_json_out_object(j, "extensions");
        kiln_json_out_object(j, "KHR_texture_transform");
        if (offset[0] != 0 || offset[1] != 0) kiln_json_out_floats(j, "offset", offset, 2);
        if (r->has_transform && r->rotation != 0) kiln_json_out_float(j, "rotation", r->rotation);
        if (scale[0] != 1 || scale[1] != 1) kiln_json_out_floats(j, "scale", scale, 2);
        kiln_json_out_end(j);
        kiln_json_out_end(j);
    }
    kiln_json_out_end(j);
}

/* One KHR_materials_* extension object of m: its factors that differ from glTF's defaults, its
 * textures (the table's slots), emissiveStrength; unlit has no members. */
static void write_extension(kiln_gltf_state *st, kiln_json_out *j, const kiln_scene_material *m,
                            uint32_t bit, const kiln_gltf_uv_q *uv_q)
{
    kiln_json_out_object(j, kiln_material_ext_name(bit));
    if (bit == KILN_MATERIAL_EXT_EMISSIVE_STRENGTH && m->emissive_strength != 1.0f)
        kiln_json_out_float(j, "emissiveStrength", m->emissive_strength);
    for (size_t i = 0; i < kiln_material_ext_field_count; i++) {
        const kiln_material_ext_field *f = &kiln_material_ext_fields[i];
        if (f->bit != bit || !f->gltf_key) continue;
        const float *v = kiln_material_ext_get(&m->ext, f);
        bool fallback = true;
        for (uint32_t c = 0; c < f->count; c++)
            if (v[c] != f->fallback[c]) fallback = false;
        if (fallback) continue;
        /* attenuationDistance 0 stands for glTF's +infinity: left out (fallback above) */
        if (f->count == 1) kiln_json_out_float(j, f->gltf_key, v[0]);
        else kiln_json_out_floats(j, f->gltf_key, v, f->count);
    }
    for (uint32_t s = 0; s < KILN_MATERIAL_EXT_SLOT_COUNT; s++) {
        const kiln_material_ext_texture *t = &kiln_material_ext_textures[s];
        if (t->bit != bit) continue;
        write_texture_ref(st, j, t->gltf_key, &m->textures[KILN_SCENE_SLOT_CORE_COUNT + s],
                          t->scale_key, uv_q);
    }
    kiln_json_out_end(j);
}

static void write_material(kiln_gltf_state *st, kiln_json_out *j, uint32_t index)
{
    const kiln_scene_material *m = &st->scene->materials[index];
    const kiln_gltf_uv_q *uv_q = &st->uv_q[(size_t)index * KILN_SCENE_MAX_UV_SETS];
    kiln_json_out_object(j, NULL);
    if (m->name && *m->name) kiln_json_out_string(j, "name", m->name);
    kiln_json_out_object(j, "pbrMetallicRoughness");
    const float white[4] = {1, 1, 1, 1};
    if (memcmp(m->base_color, white, sizeof white) != 0)
        kiln_json_out_floats(j, "baseColorFactor", m->base_color, 4);
    write_texture_ref(st, j, "baseColorTexture", &m->textures[KILN_SCENE_SLOT_BASE_COLOR], NULL,
                      uv_q);
    if (m->metallic != 1.0f) kiln_json_out_float(j, "metallicFactor", m->metallic);
    if (m->roughness != 1.0f) kiln_json_out_float(j, "roughnessFactor", m->roughness);
    write_texture_ref(st, j, "metallicRoughnessTexture",
                      &m->textures[KILN_SCENE_SLOT_METALLIC_ROUGHNESS], NULL, uv_q);
    kiln_json_out_end(j);
    write_texture_ref(st, j, "normalTexture", &m->textures[KILN_SCENE_SLOT_NORMAL], "scale", uv_q);
    write_texture_ref(st, j, "occlusionTexture", &m->textures[KILN_SCENE_SLOT_OCCLUSION],
                      "strength", uv_q);
    write_texture_ref(st, j, "emissiveTexture", &m->textures[KILN_SCENE_SLOT_EMISSIVE], NULL, uv_q);
    if (m->emissive[0] != 0 || m->emissive[1] != 0 || m->emissive[2] != 0)
        kiln_json_out_floats(j, "emissiveFactor", m->emissive, 3);
    if (m->alpha_mode == KILN_SCENE_ALPHA_MASK) {
        kiln_json_out_string(j, "alphaMode", "MASK");
        if (m->alpha_cutoff != 0.5f) kiln_json_out_float(j, "alphaCutoff", m->alpha_cutoff);
    } else if (m->alpha_mode == KILN_SCENE_ALPHA_BLEND) {
        kiln_json_out_string(j, "alphaMode", "BLEND");
    }
    if (m->double_sided) kiln_json_out_bool(j, "doubleSided", true);
    uint32_t bits = material_ext_bits(m);
    if (bits) {
        kiln_json_out_object(j, "extensions");
        for (uint32_t b = 0; b < KILN_MATERIAL_EXT_BIT_COUNT; b++)
            if (bits & (1u << b)) write_extension(st, j, m, 1u << b, uv_q);
        kiln_json_out_end(j);
    }
    if (m->extras && !kiln_json_out_raw(j, "extras", m->extras)) st->out->extras_dropped++;
    kiln_json_out_end(j);
}

static int filter_mag(kiln_scene_filter f)
{
    return f == KILN_SCENE_FILTER_NEAREST ? 9728 : f == KILN_SCENE_FILTER_LINEAR ? 9729 : 0;
}

/* minFilter from the filter within and between levels (0 = not given). */
static int filter_min(const kiln_scene_sampler *s)
{
    if (s->min_filter == KILN_SCENE_FILTER_DEFAULT) return 0;
    bool near = s->min_filter == KILN_SCENE_FILTER_NEAREST;
    if (!s->mipmaps || s->mip_filter == KILN_SCENE_FILTER_DEFAULT) return near ? 9728 : 9729;
    bool mip_near = s->mip_filter == KILN_SCENE_FILTER_NEAREST;
    return near ? (mip_near ? 9984 : 9986) : (mip_near ? 9985 : 9987);
}

static int wrap_of(kiln_scene_wrap w)
{
    return w == KILN_SCENE_WRAP_CLAMP ? 33071 : w == KILN_SCENE_WRAP_MIRROR ? 33648 : 10497;
}

/* Percent-encodes a file name for a URI (RFC 3986 unreserved characters kept). */
static void uri_encode(const char *in, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 4 < cap; p++) {
        unsigned char c = *p;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~';
        if (plain) {
            out[n++] = (char)c;
        } else {
            out[n++] = '%', out[n++] = hex[c >> 4], out[n++] = hex[c & 15];
        }
    }
    out[n] = 0;
}

void kiln_gltf_image_file_name(const kiln_gltf_state *st, uint32_t image, char *out, size_t cap)
{
    snprintf(out, cap, "%.200s.image%d.%s", st->opts->side_stem ? st->opts->side_stem : "model",
             st->image_map[image], st->image_ext[image]);
}

void kiln_gltf_write_materials(kiln_gltf_state *st, kiln_json_out *j)
{
    const kiln_scene *sc = st->scene;
    if (sc->material_count) {
        kiln_json_out_array(j, "materials");
        for (uint32_t m = 0; m < sc->material_count; m++) write_material(st, j, m);
        kiln_json_out_end(j);
    }
    if (st->texture_count) {
        kiln_json_out_array(j, "textures");
        for (uint32_t t = 0; t < sc->texture_count; t++) {
            if (st->texture_map[t] < 0) continue;
            const kiln_scene_texture *tex = &sc->textures[t];
            kiln_json_out_object(j, NULL);
            if (tex->name && *tex->name) kiln_json_out_string(j, "name", tex->name);
            if (tex->sampler >= 0 && (uint32_t)tex->sampler < sc->sampler_count)
                kiln_json_out_int(j, "sampler", tex->sampler);
            int32_t img = st->image_map[tex->image];
            if (strcmp(st->image_ext[tex->image], "ktx2") == 0) {
                kiln_json_out_object(j, "extensions");
                kiln_json_out_object(j, "KHR_texture_basisu");
                kiln_json_out_int(j, "source", img);
                kiln_json_out_end(j);
                kiln_json_out_end(j);
            } else {
                kiln_json_out_int(j, "source", img);
            }
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
    if (st->image_count) {
        kiln_json_out_array(j, "images");
        for (uint32_t i = 0; i < sc->image_count; i++) {
            if (st->image_map[i] < 0) continue;
            const kiln_scene_image *im = &sc->images[i];
            kiln_json_out_object(j, NULL);
            if (im->name && *im->name) kiln_json_out_string(j, "name", im->name);
            if (st->image_view[i] >= 0) {
                kiln_json_out_int(j, "bufferView", st->image_view[i]);
                kiln_json_out_string(j, "mimeType", mime_of(st->image_ext[i]));
            } else {
                char name[256], uri[900];
                kiln_gltf_image_file_name(st, i, name, sizeof name);
                uri_encode(name, uri, sizeof uri);
                kiln_json_out_string(j, "uri", uri);
            }
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
    if (sc->sampler_count) {
        kiln_json_out_array(j, "samplers");
        for (uint32_t s = 0; s < sc->sampler_count; s++) {
            const kiln_scene_sampler *sm = &sc->samplers[s];
            kiln_json_out_object(j, NULL);
            if (sm->name && *sm->name) kiln_json_out_string(j, "name", sm->name);
            int mag = filter_mag(sm->mag_filter), min = filter_min(sm);
            if (mag) kiln_json_out_int(j, "magFilter", mag);
            if (min) kiln_json_out_int(j, "minFilter", min);
            if (sm->wrap_s != KILN_SCENE_WRAP_REPEAT)
                kiln_json_out_int(j, "wrapS", wrap_of(sm->wrap_s));
            if (sm->wrap_t != KILN_SCENE_WRAP_REPEAT)
                kiln_json_out_int(j, "wrapT", wrap_of(sm->wrap_t));
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
}

/* Exposed for gltf_out.c: the percent-encoding of side file names. */
void kiln_gltf_uri_encode(const char *in, char *out, size_t cap) { uri_encode(in, out, cap); }
