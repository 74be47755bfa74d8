/* gltf.c — the glTF importer's entry: the GLB container, the JSON document, asset version and
 * extensions, then the parts in order (buffers, images, materials, meshes, nodes, animations).
 * Also the checked JSON member helpers every part uses. */
#include "import/gltf_private.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/reader.h"
#include "import/sniff.h"

#define GLB_MAGIC      0x46546C67u /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN  0x004E4942u /* "BIN\0" */

/* Extensions kiln reads. Others are refused when required and warned about when only used. */
static const char *const known_extensions[] = {
    "KHR_mesh_quantization",
    "EXT_meshopt_compression",
    "KHR_draco_mesh_compression",
    "KHR_texture_transform",
    "KHR_materials_emissive_strength",
    "KHR_materials_unlit",
    "KHR_materials_clearcoat",
    "KHR_materials_sheen",
    "KHR_materials_transmission",
    "KHR_materials_volume",
    "KHR_materials_ior",
    "KHR_materials_specular",
    "KHR_materials_iridescence",
    "KHR_materials_anisotropy",
    "KHR_materials_dispersion",
    "KHR_materials_variants",
    "EXT_mesh_gpu_instancing",
    "KHR_lights_punctual",
    "KHR_texture_basisu",
};

bool kiln_gltf_detect(const void *data, size_t size)
{
    const uint8_t *p = data;
    if (size >= 4 && p[0] == 'g' && p[1] == 'l' && p[2] == 'T' && p[3] == 'F') return true;
    size_t i = 0;
    if (size >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3; /* UTF-8 BOM */
    while (i < size && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    return i < size && p[i] == '{';
}

kiln_result kiln_gltf_refuse(const void *data, size_t size, kiln_error *err)
{
    const char *other = kiln_sniff_describe(data, size);
    if (other)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "not a glTF file (neither a GLB header nor a JSON object): the bytes "
                              "are %s",
                              other);
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "not a glTF file (neither a GLB header nor a JSON object)");
}

/* ---- errors and JSON members ------------------------------------------------------------- */

kiln_result gltf_fail(gltf_ctx *c, kiln_result code, const char *pointer, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_error_setv(c->err, code, fmt, ap);
    va_end(ap);
    if (pointer && *pointer) {
        kiln_error_at_pointer(c->err, pointer);
        kiln_error_prefix(c->err, "%s: ", pointer);
    }
    return code;
}

kiln_result gltf_nomem(gltf_ctx *c, const char *what)
{
    return kiln_scene_alloc_error(c->scene, c->err, what);
}

/* The pointer of member key of the object at ptr. */
static const char *member(char *buf, size_t size, const char *ptr, const char *key)
{
    snprintf(buf, size, "%s/%s", ptr, key);
    return buf;
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

/* An integer-valued JSON number (2.0 counts, as some writers emit) in [0, 2^53]. */
static bool json_whole(const json_t *v, uint64_t *out)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0) return false;
        *out = (uint64_t)i;
        return true;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (!(d >= 0 && d <= 9007199254740992.0) || d != floor(d)) return false;
        *out = (uint64_t)d;
        return true;
    }
    return false;
}

kiln_result gltf_get_uint(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                          uint64_t limit, bool required, uint64_t fallback, uint64_t *out)
{
    char mp[256];
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                             "\"%s\" is missing", key);
        *out = fallback;
        return KILN_OK;
    }
    uint64_t u;
    if (!json_whole(v, &u))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be a non-negative integer", key);
    if (u > limit)
        return gltf_fail(c, KILN_E_LIMIT, member(mp, sizeof mp, ptr, key),
                         "\"%s\" is %llu, above kiln's limit of %llu", key, (unsigned long long)u,
                         (unsigned long long)limit);
    *out = u;
    return KILN_OK;
}

kiln_result gltf_get_index(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                           size_t count, bool required, int32_t *out)
{
    char mp[256];
    *out = -1;
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                             "\"%s\" is missing", key);
        return KILN_OK;
    }
    uint64_t u;
    if (!json_whole(v, &u) || u >= count) {
        if (count == 0)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                             "\"%s\" is an index into an array the file does not have", key);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be an index below %zu (the array's size)", key, count);
    }
    *out = (int32_t)u;
    return KILN_OK;
}

kiln_result gltf_get_float(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                           float fallback, float *out)
{
    char mp[256];
    json_t *v = json_object_get(obj, key);
    if (!v) {
        *out = fallback;
        return KILN_OK;
    }
    if (!json_is_number(v))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be a number, not %s", key, type_name(v));
    double d = json_number_value(v);
    if (!isfinite(d) || fabs(d) > 3.4e38)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" is not a finite float", key);
    *out = (float)d;
    return KILN_OK;
}

kiln_result gltf_get_floats(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                            size_t n, float *out)
{
    char mp[256];
    json_t *v = json_object_get(obj, key);
    if (!v) return KILN_OK;
    if (!json_is_array(v) || json_array_size(v) != n)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be an array of %zu numbers", key, n);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        double d = json_number_value(e);
        if (!json_is_number(e) || !isfinite(d) || fabs(d) > 3.4e38)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                             "\"%s\"[%zu] is not a finite number", key, i);
        out[i] = (float)d;
    }
    return KILN_OK;
}

kiln_result gltf_get_bool(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                          bool fallback, bool *out)
{
    char mp[256];
    json_t *v = json_object_get(obj, key);
    if (!v) {
        *out = fallback;
        return KILN_OK;
    }
    if (!json_is_boolean(v))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be true or false", key);
    *out = json_is_true(v);
    return KILN_OK;
}

kiln_result gltf_get_string(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                            const char **out)
{
    char mp[256];
    *out = NULL;
    json_t *v = json_object_get(obj, key);
    if (!v) return KILN_OK;
    if (!json_is_string(v))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be a string, not %s", key, type_name(v));
    if (strlen(json_string_value(v)) != json_string_length(v))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" holds a NUL character", key);
    *out = json_string_value(v);
    return KILN_OK;
}

kiln_result gltf_get_object(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                            json_t **out)
{
    char mp[256];
    *out = NULL;
    json_t *v = json_object_get(obj, key);
    if (!v) return KILN_OK;
    if (!json_is_object(v))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be an object, not %s", key, type_name(v));
    *out = v;
    return KILN_OK;
}

kiln_result gltf_get_array(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                           size_t limit, json_t **out)
{
    char mp[256];
    *out = NULL;
    json_t *v = json_object_get(obj, key);
    if (!v) return KILN_OK;
    if (!json_is_array(v))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, member(mp, sizeof mp, ptr, key),
                         "\"%s\" must be an array, not %s", key, type_name(v));
    if (json_array_size(v) > limit)
        return gltf_fail(c, KILN_E_LIMIT, member(mp, sizeof mp, ptr, key),
                         "\"%s\" has %zu entries, above kiln's limit of %zu", key,
                         json_array_size(v), limit);
    *out = v;
    return KILN_OK;
}

kiln_result gltf_get_name(gltf_ctx *c, const json_t *obj, const char *ptr, const char **out)
{
    const char *s;
    kiln_result r = gltf_get_string(c, obj, "name", ptr, &s);
    if (r != KILN_OK) return r;
    if (!s || !*s) {
        *out = "";
        return KILN_OK;
    }
    char *copy = kiln_arena_strdup(c->arena, s);
    if (!copy) return gltf_nomem(c, "a name");
    *out = copy;
    return KILN_OK;
}

json_t *gltf_extension(const json_t *obj, const char *name)
{
    json_t *ext = json_object_get(obj, "extensions");
    json_t *e = json_is_object(ext) ? json_object_get(ext, name) : NULL;
    return json_is_object(e) ? e : NULL;
}

/* ---- the container and the document ---------------------------------------------------------- */

/* Splits a GLB into its JSON text and BIN chunk (glTF 2.0 §4.4). */
static kiln_result read_glb(gltf_ctx *c, const uint8_t *data, size_t size, const char **json,
                            size_t *json_size)
{
    kiln_reader r = kiln_reader_make(data, size);
    kiln_read_u32le(&r); /* magic, checked by the caller */
    uint32_t version = kiln_read_u32le(&r);
    uint32_t length = kiln_read_u32le(&r);
    if (r.failed)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, NULL, "GLB header is truncated (%zu bytes)",
                         size);
    if (version != 2)
        return gltf_fail(c, KILN_E_IMPORT_UNSUPPORTED, NULL,
                         "GLB version %u; kiln reads glTF 2.0 (version 2)", version);
    if (length > size)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, NULL,
                         "GLB is truncated: the header says %u bytes, the file has %zu", length,
                         size);
    if (length < 20)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, NULL, "GLB length %u leaves no JSON chunk",
                         length);
    r.size = length; /* bytes past the declared length are not part of the file */
    *json = NULL;
    for (uint32_t chunk = 0; r.pos < r.size; chunk++) {
        size_t at = r.pos;
        uint32_t chunk_length = kiln_read_u32le(&r);
        uint32_t chunk_type = kiln_read_u32le(&r);
        const uint8_t *body = kiln_reader_take(&r, chunk_length);
        if (r.failed)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, NULL,
                             "GLB chunk %u at byte %zu is truncated (%u bytes declared, %zu left)",
                             chunk, at, chunk_length, length - at < 8 ? 0 : length - at - 8);
        if (chunk == 0) {
            if (chunk_type != GLB_CHUNK_JSON)
                return gltf_fail(c, KILN_E_IMPORT_FAILED, NULL,
                                 "the first GLB chunk is not JSON (type 0x%08X)", chunk_type);
            *json = (const char *)body;
            *json_size = chunk_length;
        } else if (chunk == 1 && chunk_type == GLB_CHUNK_BIN) {
            c->glb_bin = body;
            c->glb_bin_size = chunk_length;
        } else if (chunk_type == GLB_CHUNK_JSON || chunk_type == GLB_CHUNK_BIN) {
            return gltf_fail(c, KILN_E_IMPORT_FAILED, NULL, "GLB chunk %u repeats the %s chunk",
                             chunk, chunk_type == GLB_CHUNK_JSON ? "JSON" : "BIN");
        } /* other chunk types are skipped, as the specification asks */
        /* Chunks start on 4-byte boundaries; writers pad, but tolerate a missing final pad. */
        size_t pad = (4 - (r.pos & 3)) & 3;
        if (r.size - r.pos >= pad) r.pos += pad;
        else r.pos = r.size;
    }
    return KILN_OK;
}

static bool is_known_extension(const char *name)
{
    for (size_t i = 0; i < sizeof known_extensions / sizeof known_extensions[0]; i++)
        if (strcmp(name, known_extensions[i]) == 0) return true;
    return false;
}

/* Copies a list of extension names into the scene. */
static kiln_result read_extension_list(gltf_ctx *c, const char *key, const char *const **names,
                                       uint32_t *count)
{
    char ptr[32];
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, key, "", 1000, &list);
    if (r != KILN_OK || !list) return r;
    const char **out = kiln_arena_array(c->arena, json_array_size(list) + 1, sizeof *out);
    if (!out) return gltf_nomem(c, key);
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *e = json_array_get(list, i);
        snprintf(ptr, sizeof ptr, "/%s/%zu", key, i);
        if (!json_is_string(e))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "an extension name must be a string");
        if (!(out[i] = kiln_arena_strdup(c->arena, json_string_value(e))))
            return gltf_nomem(c, key);
    }
    *names = out;
    *count = (uint32_t)json_array_size(list);
    return KILN_OK;
}

static kiln_result read_asset(gltf_ctx *c)
{
    json_t *asset;
    kiln_result r = gltf_get_object(c, c->root, "asset", "", &asset);
    if (r != KILN_OK) return r;
    if (!asset) return gltf_fail(c, KILN_E_IMPORT_FAILED, "/asset", "\"asset\" is missing");
    const char *version, *min_version, *generator;
    if ((r = gltf_get_string(c, asset, "version", "/asset", &version)) != KILN_OK ||
        (r = gltf_get_string(c, asset, "minVersion", "/asset", &min_version)) != KILN_OK ||
        (r = gltf_get_string(c, asset, "generator", "/asset", &generator)) != KILN_OK)
        return r;
    if (!version)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, "/asset/version", "\"version\" is missing");
    /* 2.x files are readable by a 2.0 reader unless minVersion asks for more (§3.2). */
    const char *need = min_version ? min_version : version;
    unsigned major = 0, minor = 0;
    const char *need_ptr = min_version ? "/asset/minVersion" : "/asset/version";
    if (sscanf(need, "%u.%u", &major, &minor) != 2)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, need_ptr,
                         "\"%.40s\" is not a <major>.<minor> version", need);
    if (major != 2 || (min_version && minor > 0))
        return gltf_fail(c, KILN_E_IMPORT_UNSUPPORTED, need_ptr, "glTF %.40s; kiln reads glTF 2.0",
                         need);
    if (generator && !(c->scene->generator = kiln_arena_strdup(c->arena, generator)))
        return gltf_nomem(c, "asset.generator");
    return KILN_OK;
}

static kiln_result check_extensions(gltf_ctx *c)
{
    kiln_scene *s = c->scene;
    kiln_result r;
    if ((r = read_extension_list(c, "extensionsUsed", &s->extensions_used,
                                 &s->extensions_used_count)) != KILN_OK ||
        (r = read_extension_list(c, "extensionsRequired", &s->extensions_required,
                                 &s->extensions_required_count)) != KILN_OK)
        return r;
    for (uint32_t i = 0; i < s->extensions_required_count; i++) {
        const char *name = s->extensions_required[i];
        if (!is_known_extension(name)) {
            char ptr[48];
            snprintf(ptr, sizeof ptr, "/extensionsRequired/%u", i);
            return gltf_fail(c, KILN_E_IMPORT_UNSUPPORTED, ptr,
                             "the file requires the extension %s, which kiln does not support",
                             name);
        }
    }
    for (uint32_t i = 0; i < s->extensions_used_count; i++) {
        const char *name = s->extensions_used[i];
        if (!is_known_extension(name) &&
            !kiln_scene_warn(s, "extension %s is not supported: what it adds is ignored", name))
            return gltf_nomem(c, "a warning");
        if (strcmp(name, "EXT_meshopt_compression") == 0) c->has_meshopt = true;
        if (strcmp(name, "KHR_draco_mesh_compression") == 0) c->has_draco = true;
        if (strcmp(name, "KHR_mesh_quantization") == 0) c->has_quantization = true;
    }
    return KILN_OK;
}

kiln_result kiln_gltf_import(const void *data, size_t size, const char *base_dir, uint32_t flags,
                             kiln_scene *scene, kiln_error *err)
{
    gltf_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    gltf_ctx *c = &ctx;
    c->scene = scene;
    c->arena = kiln_scene_arena(scene);
    c->base_dir = base_dir;
    c->flags = flags;
    c->err = err;
    kiln_arena_init(&c->scratch, &c->arena->allocator, c->arena->limit);

    const char *json = data;
    size_t json_size = size;
    kiln_result r = KILN_OK;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        c->is_glb = true;
        if ((r = read_glb(c, data, size, &json, &json_size)) != KILN_OK) goto done;
    } else if (!kiln_gltf_detect(data, size)) {
        r = kiln_gltf_refuse(data, size, err);
        goto done;
    }
    if (json_size > KILN_GLTF_MAX_JSON_SIZE) {
        r = gltf_fail(c, KILN_E_LIMIT, NULL,
                      "the JSON part is %zu bytes, above kiln's limit of %zu", json_size,
                      KILN_GLTF_MAX_JSON_SIZE);
        goto done;
    }
    c->root = kiln_json_load(json, json_size, NULL, KILN_E_IMPORT_FAILED, err);
    if (!c->root) {
        r = err ? err->code : KILN_E_IMPORT_FAILED;
        if (r == KILN_OK) r = KILN_E_IMPORT_FAILED;
        goto done;
    }
    if (!json_is_object(c->root)) {
        r = gltf_fail(c, KILN_E_IMPORT_FAILED, NULL, "the JSON document is not an object");
        goto done;
    }
    if ((r = read_asset(c)) != KILN_OK || (r = check_extensions(c)) != KILN_OK ||
        (r = gltf_buffers_init(c)) != KILN_OK || (r = gltf_read_images(c)) != KILN_OK ||
        (r = gltf_read_materials(c)) != KILN_OK || (r = gltf_read_meshes(c)) != KILN_OK ||
        (r = gltf_read_nodes(c)) != KILN_OK || (r = gltf_read_animations(c)) != KILN_OK)
        goto done;
done:
    json_decref(c->root);
    kiln_arena_release(&c->scratch);
    return r;
}
