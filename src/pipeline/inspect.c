/* inspect.c — kiln_inspect_file (kiln.h): what an image, a KTX2 file, a kiln container (any
 * cooked kind), a pack or a model holds, as the JSON document `kiln inspect FILE --json` prints.
 * A source's extension chooses its reader as it chooses the importer of `kiln import` (an image
 * extension: the image decoders; .gltf, .glb, .fbx, .obj: that model importer), and the reader
 * confirms the bytes or refuses them. Any other name is told by content (KTX2 identifier, "KILN"
 * or "KPAK" magic, then glTF, FBX or OBJ as kiln_scene_load tells them); what is none of these
 * goes to the image decoders, which say what they cannot read. */
#include <stdbool.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "core/path.h"
#include "import/model_format.h"
#include "kiln/kiln.h"
#include "pipeline/inspect.h"
#include "pipeline/source_kind.h"

/* The largest file inspect maps. */
#define INSPECT_MAX_SIZE ((size_t)2 << 30)

static const uint8_t ktx2_id[12] = {0xAB, 'K',  'T',  'X',  ' ',  '2',
                                    '0',  0xBB, '\r', '\n', 0x1A, '\n'};

/* "glb", "gltf", "fbx" or "obj": the model format f of the bytes (glTF in either form), NULL
 * for none. */
static const char *model_format(kiln_model_format f, const uint8_t *data, size_t size)
{
    switch (f) {
    case KILN_MODEL_FORMAT_GLTF:
        return size >= 4 && !memcmp(data, "glTF", 4) ? "glb" : "gltf";
    case KILN_MODEL_FORMAT_FBX:
        return "fbx";
    case KILN_MODEL_FORMAT_OBJ:
        return "obj";
    case KILN_MODEL_FORMAT_NONE:
        break;
    }
    return NULL;
}

/* The manifest of the cache entry path names (a folder holding manifest.json, or that file) into
 * manifest (KILN_PATH_MAX bytes); false when path is not one. */
static bool entry_manifest(const char *path, char *manifest)
{
    if (kiln_dir_exists(path))
        return kiln_path_format(manifest, KILN_PATH_MAX, "%s/manifest.json", path) &&
               kiln_file_exists(manifest);
    if (strcmp(kiln_path_basename(path), "manifest.json") != 0) return false;
    return kiln_path_format(manifest, KILN_PATH_MAX, "%s", path);
}

kiln_result kiln_inspect_doc(const char *path, const kiln_inspect_opts *o,
                             const json_t *entry_assets, json_t **out, size_t *real_precision,
                             kiln_error *err)
{
    *real_precision = 0; /* jansson's default: 17 digits */
    char manifest[KILN_PATH_MAX];
    if (entry_manifest(path, manifest)) {
        if (o->compare) return kiln_error_set(err, KILN_E_USAGE, "--compare works on a KTX2 file");
        return kiln_inspect_entry(manifest, entry_assets, out, err);
    }
    if (kiln_dir_exists(path)) {
        kiln_error_set(err, KILN_E_ASSET_IO,
                       "%s is a folder without a manifest.json: inspect takes a file, a cache "
                       "entry folder or NAME#label in a project",
                       path);
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(path, INSPECT_MAX_SIZE, &m, err);
    if (r != KILN_OK) return r;
    /* A source's extension chooses (the same table as the import's); other names the bytes. */
    const kiln_source_kind *source = kiln_source_kind_of(NULL, path);
    bool named = source == &kiln_source_kind_texture || source == &kiln_source_kind_model;
    bool is_ktx2 = !named && m.size >= 12 && !memcmp(m.data, ktx2_id, 12);
    bool is_container = !named && !is_ktx2 && m.size >= 4 && !memcmp(m.data, "KILN", 4);
    bool is_pack = !named && !is_ktx2 && m.size >= 4 && !memcmp(m.data, "KPAK", 4);
    const char *model =
        source == &kiln_source_kind_model
            ? model_format(kiln_model_format_of_name(path), m.data, m.size)
        : named || is_ktx2 || is_container || is_pack
            ? NULL
            : model_format(kiln_model_format_of_bytes(m.data, m.size), m.data, m.size);
    const char *compare = o->compare;
    if (!is_ktx2 && compare) {
        r = kiln_error_set(err, KILN_E_USAGE, "--compare works on a KTX2 file");
    } else if (is_container) {
        /* A container's reals are float32 values kept as their shortest decimals. */
        *real_precision = KILN_INSPECT_CONTAINER_REAL_PRECISION;
        r = kiln_inspect_container(m.data, m.size, o->kinds, o->kind_count, out, err);
    } else if (is_pack) {
        r = kiln_inspect_pack(m.data, m.size, out, err);
    } else if (model) {
        /* The loader reads the file again, with the buffers and images beside it. */
        kiln_file_unmap(&m);
        return kiln_inspect_model(path, model, out, err);
    } else if (is_ktx2) {
        r = kiln_inspect_ktx2(m.data, m.size, compare, out, err);
    } else {
        r = kiln_inspect_image(m.data, m.size, path, out, err);
    }
    kiln_file_unmap(&m);
    return r;
}

kiln_inspect_opts kiln_inspect_opts_copy(const kiln_inspect_opts *opts)
{
    kiln_inspect_opts o;
    memset(&o, 0, sizeof o);
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    return o;
}

KILN_API kiln_result kiln_inspect_file(const char *path, const kiln_inspect_opts *opts,
                                       char **result_json, kiln_error *err)
{
    kiln_inspect_opts o = kiln_inspect_opts_copy(opts);
    if (!path || !result_json)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_inspect_file needs a path and a result");
    *result_json = NULL;
    json_t *doc = NULL;
    size_t precision = 0;
    kiln_result r = kiln_inspect_doc(path, &o, NULL, &doc, &precision, err);
    if (r != KILN_OK) return r;
    return kiln_inspect_finish(doc, path, precision, result_json, err);
}

kiln_result kiln_inspect_finish(json_t *doc, const char *file, size_t precision, char **result_json,
                                kiln_error *err)
{
    json_object_set_new(doc, "command", json_string("inspect"));
    json_object_set_new(doc, "file", json_string(file));
    size_t flags =
        JSON_SORT_KEYS | JSON_INDENT(2) | (precision ? JSON_REAL_PRECISION(precision) : 0);
    *result_json = json_dumps(doc, flags);
    json_decref(doc);
    if (!*result_json) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    return KILN_OK;
}
