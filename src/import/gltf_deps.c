/* gltf_deps.c — the external files a glTF refers to, from its JSON alone (no buffer is read):
 * what the cache key of a model must cover besides the model's own bytes. */
#include "import/gltf_deps.h"

#include <jansson.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "core/json.h"
#include "core/reader.h"
#include "import/gltf.h"
#include "import/uri.h"

/* The JSON text of a .gltf, or the JSON chunk of a .glb. */
static kiln_result json_part(const uint8_t *data, size_t size, const char **json, size_t *n,
                             kiln_error *err)
{
    if (size < 4 || memcmp(data, "glTF", 4) != 0) {
        *json = (const char *)data;
        *n = size;
        return KILN_OK;
    }
    kiln_reader r = kiln_reader_make(data, size);
    kiln_reader_take(&r, 12); /* the header; not r.pos = 12, which a shorter file would pass */
    uint32_t len = kiln_read_u32le(&r), type = kiln_read_u32le(&r);
    const uint8_t *body = kiln_reader_take(&r, len);
    if (!body || type != 0x4E4F534Au)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "GLB without a whole JSON chunk");
    *json = (const char *)body;
    *n = len;
    return KILN_OK;
}

kiln_result kiln_gltf_dependencies(const void *data, size_t size, const char *base_dir,
                                   kiln_gltf_dep_fn fn, void *user, kiln_error *err)
{
    if (!kiln_gltf_detect(data, size)) return kiln_gltf_refuse(data, size, err);
    const char *json = NULL;
    size_t n = 0;
    kiln_result r = json_part(data, size, &json, &n, err);
    if (r != KILN_OK) return r;
    if (n > KILN_GLTF_MAX_JSON_SIZE)
        return kiln_error_set(err, KILN_E_LIMIT, "the JSON part is above %zu bytes",
                              KILN_GLTF_MAX_JSON_SIZE);
    json_t *root = kiln_json_load(json, n, NULL, KILN_E_IMPORT_FAILED, err);
    if (!root) return err && err->code ? err->code : KILN_E_IMPORT_FAILED;
    static const char *const arrays[] = {"buffers", "images"};
    for (size_t a = 0; a < 2 && r == KILN_OK; a++) {
        json_t *list = json_object_get(root, arrays[a]);
        if (!json_is_array(list)) continue;
        for (size_t i = 0; i < json_array_size(list) && r == KILN_OK; i++) {
            const char *uri = json_string_value(json_object_get(json_array_get(list, i), "uri"));
            if (!uri || kiln_uri_is_data(uri)) continue;
            char path[KILN_PATH_MAX];
            r = kiln_uri_resolve_file(base_dir, uri, path, sizeof path, err);
            if (r == KILN_OK) r = fn(user, path, err);
        }
    }
    json_decref(root);
    return r;
}
