/* inspect_entry.c — what a cache entry holds (inspect.h kiln_inspect_entry): its manifest's key,
 * kind and outputs, each output as an artifact with its cooked kind and, when the asset it
 * belongs to is known, its asset id and name. The manifest is read as untrusted JSON: every
 * member is checked before it is used. */
#include <stdio.h>
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/inspect.h"

#define ENTRY_MANIFEST_MAX_SIZE (16u << 20)

static kiln_result corrupt(kiln_error *err, const char *path, const char *what, size_t index)
{
    if (index == SIZE_MAX)
        kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s: not a kiln cache manifest: %s", path, what);
    else kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s: output %zu %s", path, index, what);
    kiln_error_at_path(err, path);
    return KILN_E_CACHE_CORRUPT;
}

/* "0x" + 16 hex digits, as every inspect document writes asset ids. */
static json_t *asset_id_json(const char *guid, const char *label)
{
    char id[19];
    snprintf(id, sizeof id, "0x%016llx", (unsigned long long)kiln_asset_id(guid, label));
    return json_string(id);
}

static json_t *string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

kiln_result kiln_inspect_entry(const char *manifest_path, const json_t *assets, json_t **out,
                               kiln_error *err)
{
    *out = NULL;
    json_t *m =
        kiln_json_load_file(manifest_path, ENTRY_MANIFEST_MAX_SIZE, KILN_E_CACHE_CORRUPT, err);
    if (!m) return err ? err->code : KILN_E_CACHE_CORRUPT;
    kiln_result r = KILN_OK;
    json_t *outputs = json_object_get(m, "outputs");
    if (!json_is_object(m) || !json_is_integer(json_object_get(m, "kiln_manifest")))
        r = corrupt(err, manifest_path, "no \"kiln_manifest\" version", SIZE_MAX);
    else if (kiln_json_int(m, "kiln_manifest", 0) != KILN_MANIFEST_VERSION)
        r = kiln_error_set(err, KILN_E_FORMAT_VERSION,
                           "%s: manifest version %lld, this kiln reads %d: import again",
                           manifest_path, kiln_json_int(m, "kiln_manifest", 0),
                           KILN_MANIFEST_VERSION);
    else if (!json_is_array(outputs))
        r = corrupt(err, manifest_path, "no \"outputs\" list", SIZE_MAX);
    if (r != KILN_OK) {
        json_decref(m);
        return r;
    }
    /* The assets: the caller's (from a project's records), else the one kiln model names. */
    json_t *owners = assets ? json_deep_copy(assets) : json_array();
    const char *own_guid = kiln_json_str(m, "guid", NULL);
    const char *own_path = kiln_json_str(m, "path", NULL);
    if (!assets && own_guid && own_path && strlen(own_guid) == 32)
        json_array_append_new(owners, json_pack("{s:s,s:s}", "path", own_path, "guid", own_guid));
    json_t *first = json_array_get(owners, 0);
    const char *guid = kiln_json_str(first, "guid", NULL);
    const char *rel = kiln_json_str(first, "path", NULL);

    json_t *list = json_array();
    size_t i;
    json_t *o;
    json_array_foreach (outputs, i, o) {
        const char *label = kiln_json_str(o, "label", NULL);
        const char *file = kiln_json_str(o, "file", NULL);
        long long size = kiln_json_int(o, "size", -1);
        if (!label || !label[0] || !file || !kiln_path_is_safe_relative(file) ||
            strchr(file, '/') || size < 0) {
            r = corrupt(err, manifest_path, "has no label, a bad file name or no size", i);
            break;
        }
        const kiln_cooked_kind *kind = kiln_cooked_kind_of_label(label, NULL);
        json_t *e = json_object();
        json_object_set_new(e, "label", json_string(label));
        json_object_set_new(e, "kind", string_or_null(kind ? kind->name : NULL));
        json_object_set_new(e, "file", json_string(file));
        json_object_set_new(e, "size", json_integer((json_int_t)size));
        json_object_set_new(e, "asset_id", guid ? asset_id_json(guid, label) : json_null());
        if (rel) {
            char name[KILN_PATH_MAX + 128];
            snprintf(name, sizeof name, "%s#%s", rel, label);
            json_object_set_new(e, "name", json_string(name));
        } else {
            json_object_set_new(e, "name", json_null());
        }
        json_array_append_new(list, e);
    }
    if (r != KILN_OK) {
        json_decref(list);
        json_decref(owners);
        json_decref(m);
        return r;
    }
    char folder[KILN_PATH_MAX];
    if (!kiln_path_dirname(manifest_path, folder, sizeof folder)) snprintf(folder, 2, ".");
    json_t *doc = json_object();
    json_object_set_new(doc, "type", json_string("entry"));
    json_object_set_new(doc, "folder", json_string(folder[0] ? folder : "."));
    json_object_set_new(doc, "key", string_or_null(kiln_json_str(m, "key", NULL)));
    json_object_set_new(doc, "kind", string_or_null(kiln_json_str(m, "kind", NULL)));
    json_t *pv = json_object_get(m, "pipeline_version");
    json_object_set_new(doc, "pipeline_version", json_is_integer(pv) ? json_copy(pv) : json_null());
    json_object_set_new(doc, "assets", owners);
    json_object_set_new(doc, "artifacts", list);
    json_decref(m);
    *out = doc;
    return KILN_OK;
}
