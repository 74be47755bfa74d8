/* gltf_out.c — kiln_gltf_out_write (gltf_out.h): the order of the passes and the document.
 * Images (their GLB views first), meshes, skins and animations fill the views and accessors;
 * the buffer is laid out (and meshopt-compressed); then the JSON is written member by member in
 * glTF's usual order, each array in the scene's order, so the same scene and options give the
 * same bytes. A GLB is the JSON chunk (padded with spaces) and the BIN chunk (padded with zeros)
 * after the 12-byte header (glTF 2.0 section 4.4). */
#include <stdio.h>
#include <string.h>

#include "codec/material_ext.h"
#include "write/gltf_out_private.h"

static kiln_result check_opts(kiln_gltf_out_opts *o, kiln_error *err)
{
    if (!(o->simplify >= 0.0f && o->simplify <= 1.0f))
        return kiln_error_set(err, KILN_E_USAGE, "glTF out: simplify is not in [0, 1]");
    if (!(o->simplify_error >= 0.0f && o->simplify_error <= 1.0f))
        return kiln_error_set(err, KILN_E_USAGE, "glTF out: simplify_error is not in [0, 1]");
    if (!o->position_bits) o->position_bits = 14;
    if (!o->texcoord_bits) o->texcoord_bits = 12;
    if (!o->normal_bits) o->normal_bits = 8;
    if (o->position_bits > 16)
        return kiln_error_set(err, KILN_E_USAGE, "glTF out: position_bits is not in 1..16");
    if (o->texcoord_bits > 16)
        return kiln_error_set(err, KILN_E_USAGE, "glTF out: texcoord_bits is not in 1..16");
    if (o->normal_bits < 2 || o->normal_bits > 16)
        return kiln_error_set(err, KILN_E_USAGE, "glTF out: normal_bits is not in 2..16");
    return KILN_OK;
}

static void write_cameras(const kiln_scene *sc, kiln_json_out *j)
{
    if (!sc->camera_count) return;
    kiln_json_out_array(j, "cameras");
    for (uint32_t i = 0; i < sc->camera_count; i++) {
        const kiln_scene_camera *c = &sc->cameras[i];
        kiln_json_out_object(j, NULL);
        if (c->name && *c->name) kiln_json_out_string(j, "name", c->name);
        if (c->type == KILN_SCENE_CAMERA_ORTHOGRAPHIC) {
            kiln_json_out_string(j, "type", "orthographic");
            kiln_json_out_object(j, "orthographic");
            kiln_json_out_float(j, "xmag", c->xmag);
            kiln_json_out_float(j, "ymag", c->ymag);
            kiln_json_out_float(j, "znear", c->znear);
            kiln_json_out_float(j, "zfar", c->zfar);
        } else {
            kiln_json_out_string(j, "type", "perspective");
            kiln_json_out_object(j, "perspective");
            if (c->aspect > 0) kiln_json_out_float(j, "aspectRatio", c->aspect);
            kiln_json_out_float(j, "yfov", c->yfov);
            if (c->zfar > 0) kiln_json_out_float(j, "zfar", c->zfar);
            kiln_json_out_float(j, "znear", c->znear);
        }
        kiln_json_out_end(j);
        kiln_json_out_end(j);
    }
    kiln_json_out_end(j);
}

static void write_lights(const kiln_scene *sc, kiln_json_out *j)
{
    static const char *const types[] = {"directional", "point", "spot"};
    kiln_json_out_object(j, "KHR_lights_punctual");
    kiln_json_out_array(j, "lights");
    for (uint32_t i = 0; i < sc->light_count; i++) {
        const kiln_scene_light *l = &sc->lights[i];
        kiln_json_out_object(j, NULL);
        if (l->name && *l->name) kiln_json_out_string(j, "name", l->name);
        kiln_json_out_string(j, "type", types[l->type % 3]);
        if (l->color[0] != 1 || l->color[1] != 1 || l->color[2] != 1)
            kiln_json_out_floats(j, "color", l->color, 3);
        if (l->intensity != 1) kiln_json_out_float(j, "intensity", l->intensity);
        if (l->range > 0 && l->type != KILN_SCENE_LIGHT_DIRECTIONAL)
            kiln_json_out_float(j, "range", l->range);
        if (l->type == KILN_SCENE_LIGHT_SPOT) {
            kiln_json_out_object(j, "spot");
            kiln_json_out_float(j, "innerConeAngle", l->inner_cone);
            kiln_json_out_float(j, "outerConeAngle", l->outer_cone);
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
    kiln_json_out_end(j);
    kiln_json_out_end(j);
}

/* KHR_materials_variants' names (the primitives' mappings refer to them by index). */
static void write_variants(const kiln_scene *sc, kiln_json_out *j)
{
    kiln_json_out_object(j, "KHR_materials_variants");
    kiln_json_out_array(j, "variants");
    for (uint32_t i = 0; i < sc->variant_count; i++) {
        kiln_json_out_object(j, NULL);
        kiln_json_out_string(j, "name", sc->variants[i] ? sc->variants[i] : "");
        kiln_json_out_end(j);
    }
    kiln_json_out_end(j);
    kiln_json_out_end(j);
}

static void write_scenes(const kiln_scene *sc, kiln_json_out *j)
{
    if (sc->scene_count) {
        if (sc->default_scene >= 0 && (uint32_t)sc->default_scene < sc->scene_count)
            kiln_json_out_int(j, "scene", sc->default_scene);
        kiln_json_out_array(j, "scenes");
        for (uint32_t s = 0; s < sc->scene_count; s++) {
            const kiln_scene_root_set *rs = &sc->scenes[s];
            kiln_json_out_object(j, NULL);
            if (rs->name && *rs->name) kiln_json_out_string(j, "name", rs->name);
            if (rs->node_count) {
                kiln_json_out_array(j, "nodes");
                for (uint32_t i = 0; i < rs->node_count; i++)
                    kiln_json_out_int(j, NULL, rs->nodes[i]);
                kiln_json_out_end(j);
            }
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    } else if (sc->root_count) {
        kiln_json_out_int(j, "scene", 0);
        kiln_json_out_array(j, "scenes");
        kiln_json_out_object(j, NULL);
        kiln_json_out_array(j, "nodes");
        for (uint32_t i = 0; i < sc->root_count; i++) kiln_json_out_int(j, NULL, sc->roots[i]);
        kiln_json_out_end(j);
        kiln_json_out_end(j);
        kiln_json_out_end(j);
    }
}

static void add_extension(kiln_gltf_out *out, bool used, const char *name)
{
    if (used && out->extensions_used_count < KILN_GLTF_OUT_MAX_EXTENSIONS)
        out->extensions_used[out->extensions_used_count++] = name;
}

static void write_document(kiln_gltf_state *st, kiln_json_out *j, const char *bin_uri,
                           size_t buffer_size, size_t fallback_size)
{
    const kiln_scene *sc = st->scene;
    kiln_gltf_out *out = st->out;
    add_extension(out, st->used_quantization, "KHR_mesh_quantization");
    add_extension(out, st->used_meshopt, "EXT_meshopt_compression");
    add_extension(out, st->used_texture_transform, "KHR_texture_transform");
    for (uint32_t b = 0; b < KILN_MATERIAL_EXT_BIT_COUNT; b++)
        add_extension(out, (st->used_material_ext >> b) & 1u, kiln_material_ext_name(1u << b));
    add_extension(out, sc->variant_count > 0, "KHR_materials_variants");
    add_extension(out, st->used_instancing, "EXT_mesh_gpu_instancing");
    add_extension(out, st->used_basisu, "KHR_texture_basisu");
    add_extension(out, sc->light_count > 0, "KHR_lights_punctual");

    kiln_json_out_object(j, NULL);
    kiln_json_out_object(j, "asset");
    kiln_json_out_string(j, "generator", "kiln gltf");
    kiln_json_out_string(j, "version", "2.0");
    kiln_json_out_end(j);
    if (out->extensions_used_count) {
        kiln_json_out_array(j, "extensionsUsed");
        for (uint32_t i = 0; i < out->extensions_used_count; i++)
            kiln_json_out_string(j, NULL, out->extensions_used[i]);
        kiln_json_out_end(j);
    }
    /* Readers without these cannot read the data at all. */
    if (st->used_quantization || st->used_meshopt || st->used_basisu) {
        kiln_json_out_array(j, "extensionsRequired");
        if (st->used_quantization) kiln_json_out_string(j, NULL, "KHR_mesh_quantization");
        if (st->used_meshopt) kiln_json_out_string(j, NULL, "EXT_meshopt_compression");
        if (st->used_basisu) kiln_json_out_string(j, NULL, "KHR_texture_basisu");
        kiln_json_out_end(j);
    }
    write_scenes(sc, j);
    kiln_gltf_write_nodes(st, j);
    if (st->meshes_json.size) {
        kiln_json_out_array(j, "meshes");
        kiln_json_out_splice(j, &st->meshes_json);
        kiln_json_out_end(j);
    }
    kiln_gltf_write_materials(st, j);
    if (st->skins_json.size) {
        kiln_json_out_array(j, "skins");
        kiln_json_out_splice(j, &st->skins_json);
        kiln_json_out_end(j);
    }
    if (st->animations_json.size) {
        kiln_json_out_array(j, "animations");
        kiln_json_out_splice(j, &st->animations_json);
        kiln_json_out_end(j);
    }
    write_cameras(sc, j);
    kiln_gltf_write_buffers(st, j, bin_uri, buffer_size, fallback_size);
    if (sc->light_count || sc->variant_count) {
        kiln_json_out_object(j, "extensions");
        if (sc->light_count) write_lights(sc, j);
        if (sc->variant_count) write_variants(sc, j);
        kiln_json_out_end(j);
    }
    kiln_json_out_end(j);
}

static kiln_gltf_out_file *add_file(kiln_gltf_out *out, const char *name)
{
    kiln_gltf_out_file *f = &out->files[out->file_count++];
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

/* Moves b's bytes into file f. */
static void take_buf(kiln_gltf_out_file *f, kiln_buf *b)
{
    f->data = kiln_buf_detach(b, &f->size, &f->capacity);
}

static kiln_result assemble(kiln_gltf_state *st, kiln_error *err)
{
    kiln_gltf_out *out = st->out;
    const kiln_scene *sc = st->scene;
    kiln_buf bin, text;
    kiln_buf_init(&bin, st->alloc);
    kiln_buf_init(&text, st->alloc);
    size_t fallback = 0;
    kiln_result r = kiln_gltf_layout_buffer(st, &bin, &fallback, err);
    if (r != KILN_OK) {
        kiln_buf_free(&bin);
        return r;
    }
    out->buffer_size = bin.size;
    out->fallback_size = fallback;
    char bin_name[256], bin_uri[900];
    snprintf(bin_name, sizeof bin_name, "%.200s.bin",
             st->opts->side_stem ? st->opts->side_stem : "model");
    kiln_gltf_uri_encode(bin_name, bin_uri, sizeof bin_uri);
    kiln_json_out j;
    kiln_json_out_init(&j, &text);
    write_document(st, &j, st->opts->glb ? NULL : bin_uri, bin.size, fallback);
    if (kiln_json_out_failed(&j) || bin.failed || st->failed_memory) {
        kiln_buf_free(&bin);
        kiln_buf_free(&text);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
    }
    size_t files = 2 + sc->image_count;
    out->files = kiln_calloc(st->alloc, files, sizeof *out->files);
    out->files_capacity = (uint32_t)files;
    if (!out->files) {
        kiln_buf_free(&bin);
        kiln_buf_free(&text);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
    }
    if (st->opts->glb) {
        kiln_buf glb;
        kiln_buf_init(&glb, st->alloc);
        size_t json_size = (text.size + 3) & ~(size_t)3;
        size_t total = 12 + 8 + json_size + (bin.size ? 8 + bin.size : 0);
        if (total > UINT32_MAX) {
            kiln_buf_free(&bin);
            kiln_buf_free(&text);
            return kiln_error_set(err, KILN_E_LIMIT, "glTF out: a GLB past 4 GiB");
        }
        kiln_buf_append_u32le(&glb, 0x46546C67u); /* "glTF" */
        kiln_buf_append_u32le(&glb, 2);
        kiln_buf_append_u32le(&glb, (uint32_t)total);
        kiln_buf_append_u32le(&glb, (uint32_t)json_size);
        kiln_buf_append_u32le(&glb, 0x4E4F534Au); /* "JSON" */
        kiln_buf_append(&glb, text.data, text.size);
        for (size_t i = text.size; i < json_size; i++) kiln_buf_append(&glb, " ", 1);
        if (bin.size) {
            kiln_buf_append_u32le(&glb, (uint32_t)bin.size); /* a multiple of 4 already */
            kiln_buf_append_u32le(&glb, 0x004E4942u);        /* "BIN\0" */
            kiln_buf_append(&glb, bin.data, bin.size);
        }
        kiln_buf_free(&bin);
        kiln_buf_free(&text);
        if (glb.failed) {
            kiln_buf_free(&glb);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
        }
        take_buf(add_file(out, ""), &glb);
        return KILN_OK;
    }
    take_buf(add_file(out, ""), &text);
    if (bin.size) take_buf(add_file(out, bin_name), &bin);
    kiln_buf_free(&bin);
    for (uint32_t i = 0; i < sc->image_count; i++) {
        if (st->image_map[i] < 0) continue;
        char name[256];
        kiln_gltf_image_file_name(st, i, name, sizeof name);
        kiln_gltf_out_file *f = add_file(out, name);
        f->data = kiln_alloc(st->alloc, sc->images[i].encoded_size);
        if (!f->data) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
        memcpy(f->data, sc->images[i].encoded, sc->images[i].encoded_size);
        f->size = f->capacity = sc->images[i].encoded_size;
    }
    return KILN_OK;
}

static void state_free(kiln_gltf_state *st)
{
    const kiln_scene *sc = st->scene;
    kiln_buf_free(&st->raw);
    kiln_buf_free(&st->views);
    kiln_buf_free(&st->accessors);
    kiln_buf_free(&st->meshes_json);
    kiln_buf_free(&st->skins_json);
    kiln_buf_free(&st->animations_json);
    kiln_free(st->alloc, st->mesh_map, (size_t)(sc->mesh_count + 1) * sizeof *st->mesh_map);
    kiln_free(st->alloc, st->mesh_q, (size_t)(sc->mesh_count + 1) * sizeof *st->mesh_q);
    kiln_free(st->alloc, st->skin_q, (size_t)(sc->skin_count + 1) * sizeof *st->skin_q);
    kiln_free(st->alloc, st->uv_q,
              (size_t)(sc->material_count + 1) * KILN_SCENE_MAX_UV_SETS * sizeof *st->uv_q);
    kiln_free(st->alloc, st->image_view, (size_t)(sc->image_count + 1) * sizeof *st->image_view);
    kiln_free(st->alloc, st->image_map, (size_t)(sc->image_count + 1) * sizeof *st->image_map);
    kiln_free(st->alloc, st->image_ext, (size_t)(sc->image_count + 1) * sizeof *st->image_ext);
    kiln_free(st->alloc, st->texture_map,
              (size_t)(sc->texture_count + 1) * sizeof *st->texture_map);
    kiln_free(st->alloc, st->instance_accessors,
              (size_t)(sc->node_count + 1) * sizeof *st->instance_accessors);
}

kiln_result kiln_gltf_out_write(const kiln_scene *scene, const kiln_gltf_out_opts *opts,
                                const kiln_allocator *alloc, kiln_gltf_out *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_gltf_out_write: no output");
    memset(out, 0, sizeof *out);
    if (alloc) out->allocator = *alloc;
    if (!scene) return kiln_error_set(err, KILN_E_USAGE, "kiln_gltf_out_write: no scene");
    kiln_gltf_out_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    kiln_result r = check_opts(&o, err);
    if (r != KILN_OK) return r;

    kiln_gltf_state st;
    memset(&st, 0, sizeof st);
    st.scene = scene;
    st.opts = &o;
    st.alloc = &out->allocator;
    st.out = out;
    kiln_buf_init(&st.raw, st.alloc);
    kiln_buf_init(&st.views, st.alloc);
    kiln_buf_init(&st.accessors, st.alloc);
    kiln_buf_init(&st.meshes_json, st.alloc);
    kiln_buf_init(&st.skins_json, st.alloc);
    kiln_buf_init(&st.animations_json, st.alloc);
    /* One more than needed everywhere: no zero-size allocations. */
    st.mesh_map = kiln_calloc(st.alloc, scene->mesh_count + 1, sizeof *st.mesh_map);
    st.mesh_q = kiln_calloc(st.alloc, scene->mesh_count + 1, sizeof *st.mesh_q);
    st.skin_q = kiln_calloc(st.alloc, scene->skin_count + 1, sizeof *st.skin_q);
    st.uv_q = kiln_calloc(st.alloc, (size_t)(scene->material_count + 1) * KILN_SCENE_MAX_UV_SETS,
                          sizeof *st.uv_q);
    st.image_view = kiln_calloc(st.alloc, scene->image_count + 1, sizeof *st.image_view);
    st.image_map = kiln_calloc(st.alloc, scene->image_count + 1, sizeof *st.image_map);
    st.image_ext = kiln_calloc(st.alloc, scene->image_count + 1, sizeof *st.image_ext);
    st.texture_map = kiln_calloc(st.alloc, scene->texture_count + 1, sizeof *st.texture_map);
    st.instance_accessors =
        kiln_calloc(st.alloc, scene->node_count + 1, sizeof *st.instance_accessors);
    if (!st.mesh_map || !st.mesh_q || !st.skin_q || !st.uv_q || !st.image_view || !st.image_map ||
        !st.image_ext || !st.texture_map || !st.instance_accessors)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
    if (r == KILN_OK) r = kiln_gltf_plan_images(&st, err);
    if (r == KILN_OK) r = kiln_gltf_write_meshes(&st, err);
    if (r == KILN_OK) r = kiln_gltf_write_skins(&st, err);
    if (r == KILN_OK) r = kiln_gltf_write_animations(&st, err);
    if (r == KILN_OK) r = kiln_gltf_write_instances(&st, err);
    if (r == KILN_OK) r = assemble(&st, err);
    state_free(&st);
    return r;
}

void kiln_gltf_out_free(kiln_gltf_out *out)
{
    if (!out) return;
    for (uint32_t i = 0; i < out->file_count; i++)
        kiln_free(&out->allocator, out->files[i].data, out->files[i].capacity);
    kiln_allocator keep = out->allocator;
    kiln_free(&out->allocator, out->files, out->files_capacity * sizeof *out->files);
    memset(out, 0, sizeof *out);
    out->allocator = keep;
}
