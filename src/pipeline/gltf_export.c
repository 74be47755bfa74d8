/* gltf_export.c — kiln_gltf_export (kiln.h): a model file loaded as a scene, written as glTF by
 * the write layer (src/write/gltf_out.c) and its files put beside out_path, each atomically.
 * Images are loaded encoded only (their bytes are kept, never decoded), and missing normals and
 * tangents are not made up: the output has the streams the file had. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/file.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/project.h"
#include "write/gltf_out.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* Refuses to write over the input or a file it reads (a .bin, an image). */
static kiln_result check_not_input(const char *out, const char *in_abs, const kiln_scene *sc,
                                   kiln_error *err)
{
    char real_out[KILN_PATH_MAX], real_in[KILN_PATH_MAX];
    kiln_result r = kiln_path_resolve(out, real_out, sizeof real_out, err);
    if (r != KILN_OK) return r;
    r = kiln_path_resolve(in_abs, real_in, sizeof real_in, err);
    if (r != KILN_OK) return r;
    bool same = strcmp(real_out, real_in) == 0;
    for (uint32_t i = 0; !same && i < sc->file_count; i++) {
        char real_dep[KILN_PATH_MAX];
        kiln_error ignore;
        if (kiln_path_resolve(sc->files[i], real_dep, sizeof real_dep, &ignore) == KILN_OK &&
            strcmp(real_dep, real_out) == 0)
            same = true;
    }
    if (same) {
        kiln_error_set(err, KILN_E_OUTPUT_REFUSED,
                       "%s is a file the model reads: kiln gltf does not write over its input",
                       out);
        kiln_error_at_path(err, out);
        return KILN_E_OUTPUT_REFUSED;
    }
    return KILN_OK;
}

static json_t *counts_json(uint64_t vertices, uint64_t triangles)
{
    json_t *o = json_object();
    json_object_set_new(o, "vertices", json_integer((json_int_t)vertices));
    json_object_set_new(o, "triangles", json_integer((json_int_t)triangles));
    return o;
}

KILN_API kiln_result kiln_gltf_export(const char *in_path, const char *out_path,
                                      const kiln_gltf_opts *opts, char **result_json,
                                      kiln_error *err)
{
    if (result_json) *result_json = NULL;
    if (!in_path || !out_path)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_gltf_export: no input or output path");
    kiln_gltf_opts o;
    memset(&o, 0, sizeof o);
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    bool glb = ends_with(out_path, ".glb");
    if (!glb && !ends_with(out_path, ".gltf"))
        return kiln_error_set(err, KILN_E_USAGE,
                              "%s: the output must end in .glb (binary) or .gltf (JSON and side "
                              "files)",
                              out_path);
    char in_abs[KILN_PATH_MAX], out_abs[KILN_PATH_MAX], dir[KILN_PATH_MAX];
    kiln_result r = kiln_path_absolute(in_path, in_abs, sizeof in_abs, err);
    if (r == KILN_OK) r = kiln_path_absolute(out_path, out_abs, sizeof out_abs, err);
    if (r != KILN_OK) return r;
    if (!kiln_path_dirname(out_abs, dir, sizeof dir))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", out_path);
    if (!kiln_dir_exists(dir)) {
        kiln_error_set(err, KILN_E_ASSET_IO, "%s: the folder %s does not exist", out_path, dir);
        kiln_error_at_path(err, out_path);
        return KILN_E_ASSET_IO;
    }

    kiln_scene_opts so;
    memset(&so, 0, sizeof so);
    so.struct_size = sizeof so;
    so.flags = KILN_SCENE_LOAD_NO_PIXELS | KILN_SCENE_LOAD_NO_NORMALS |
               KILN_SCENE_LOAD_NO_TANGENTS | KILN_SCENE_LOAD_TANGENT_SPACE;
    so.allocator = o.allocator;
    kiln_scene *sc = NULL;
    r = kiln_scene_load(in_path, &so, &sc, err);
    if (r != KILN_OK) return r;

    /* Side files: STEM.bin, STEM.imageN.ext beside out_path. */
    char stem[256];
    snprintf(stem, sizeof stem, "%s", kiln_path_basename(out_abs));
    char *dot = strrchr(stem, '.');
    if (dot) *dot = 0;
    kiln_gltf_out_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.glb = glb;
    wo.side_stem = stem;
    wo.simplify = o.simplify;
    wo.simplify_error = o.simplify_error;
    wo.no_optimize = o.no_optimize;
    wo.keep_attributes = o.keep_attributes;
    wo.quantize = o.quantize;
    wo.position_bits = o.position_bits;
    wo.texcoord_bits = o.texcoord_bits;
    wo.normal_bits = o.normal_bits;
    wo.compress = o.compress;
    kiln_gltf_out w;
    r = kiln_gltf_out_write(sc, &wo, &o.allocator, &w, err);
    /* Every file's path first, checked against the input, before anything is written. */
    char(*paths)[KILN_PATH_MAX] = NULL;
    if (r == KILN_OK) {
        paths = calloc(w.file_count ? w.file_count : 1, sizeof *paths);
        if (!paths) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; r == KILN_OK && i < w.file_count; i++) {
        if (!w.files[i].name[0]) snprintf(paths[i], KILN_PATH_MAX, "%s", out_abs);
        else if (!kiln_path_format(paths[i], KILN_PATH_MAX, "%s/%s", dir, w.files[i].name))
            r = kiln_error_set(err, KILN_E_LIMIT, "%s/%s: path too long", dir, w.files[i].name);
        if (r == KILN_OK) r = check_not_input(paths[i], in_abs, sc, err);
    }
    json_t *files = json_array();
    for (uint32_t i = 0; r == KILN_OK && i < w.file_count; i++) {
        r = kiln_file_write_atomic(paths[i], w.files[i].data, w.files[i].size, err);
        json_t *f = json_object();
        json_object_set_new(
            f, "file",
            json_string(w.files[i].name[0] ? w.files[i].name : kiln_path_basename(out_abs)));
        json_object_set_new(f, "size", json_integer((json_int_t)w.files[i].size));
        json_array_append_new(files, f);
    }
    if (r == KILN_OK && result_json) {
        json_t *d = json_object();
        json_object_set_new(d, "command", json_string("gltf"));
        json_object_set_new(d, "input", json_string(in_path));
        json_object_set_new(d, "output", json_string(out_path));
        json_object_set_new(d, "format", json_string(glb ? "glb" : "gltf"));
        json_object_set_new(d, "files", files);
        files = NULL;
        json_t *src = counts_json(sc->stats.vertices, sc->stats.triangles);
        json_object_set_new(src, "nodes", json_integer(sc->node_count));
        json_object_set_new(src, "meshes", json_integer(sc->mesh_count));
        json_object_set_new(src, "images", json_integer(sc->image_count));
        json_object_set_new(d, "source", src);
        json_t *outc = counts_json(w.vertices, w.triangles);
        json_object_set_new(outc, "nodes", json_integer(w.nodes));
        json_object_set_new(outc, "nodes_added", json_integer(w.nodes_added));
        json_object_set_new(outc, "meshes", json_integer(w.meshes));
        json_object_set_new(outc, "primitives", json_integer(w.primitives));
        json_object_set_new(outc, "images", json_integer(w.images));
        json_object_set_new(outc, "triangles_in", json_integer((json_int_t)w.source_triangles));
        json_object_set_new(outc, "vertices_in", json_integer((json_int_t)w.source_vertices));
        json_object_set_new(outc, "buffer_bytes", json_integer((json_int_t)w.buffer_size));
        json_object_set_new(outc, "fallback_bytes", json_integer((json_int_t)w.fallback_size));
        json_object_set_new(d, "written", outc);
        json_t *ext = json_array();
        for (uint32_t i = 0; i < w.extensions_used_count; i++)
            json_array_append_new(ext, json_string(w.extensions_used[i]));
        json_object_set_new(d, "extensions", ext);
        json_t *warn = json_array();
        for (uint32_t i = 0; i < sc->warning_count; i++)
            json_array_append_new(warn, json_string(sc->warnings[i]));
        if (w.images_dropped) {
            char text[128];
            snprintf(text, sizeof text,
                     "%u images left out: no PNG, JPEG or KTX2 bytes (a missing file?)",
                     w.images_dropped);
            json_array_append_new(warn, json_string(text));
        }
        if (w.extras_dropped) {
            char text[128];
            snprintf(text, sizeof text, "%u \"extras\" left out: not valid JSON", w.extras_dropped);
            json_array_append_new(warn, json_string(text));
        }
        json_object_set_new(d, "warnings", warn);
        *result_json = kiln_project_take_json(d);
    }
    json_decref(files);
    free(paths);
    kiln_gltf_out_free(&w);
    kiln_scene_free(sc);
    return r;
}
