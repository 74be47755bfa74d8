/* inspect_project.c — kiln_project_inspect (kiln.h): cooked output reached by name inside a
 * project. "NAME#label" is the artifact label of the current cache entry of the source NAME
 * (asset_entry.h: its record and current key; nothing is cooked), inspected as the file it is
 * in; an entry folder of the project's cache (or its manifest.json) is listed with the assets
 * whose records name it; anything else is kiln_inspect_file's. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/asset_entry.h"
#include "pipeline/cache.h"
#include "pipeline/inspect.h"

/* Every label of a manifest, "a, b, c", cut to fit out. */
static void list_labels(const json_t *manifest, char *out, size_t size)
{
    size_t used = 0, i;
    json_t *o;
    out[0] = '\0';
    json_array_foreach (json_object_get(manifest, "outputs"), i, o) {
        int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "",
                         kiln_json_str(o, "label", "?"));
        if (n < 0 || (size_t)n >= size - used) {
            if (size > 4) memcpy(out + size - 4, "...", 4);
            return;
        }
        used += (size_t)n;
    }
}

/* name = "NAME#label": that artifact of NAME's current entry. */
static kiln_result inspect_artifact(kiln_project *p, const char *name, const char *hash,
                                    const kiln_inspect_opts *o, char **result_json, kiln_error *err)
{
    char source[KILN_PATH_MAX];
    size_t n = (size_t)(hash - name);
    if (n == 0 || n >= sizeof source)
        return kiln_error_set(err, KILN_E_USAGE, "%s: NAME#label needs a source path before #",
                              name);
    memcpy(source, name, n);
    source[n] = '\0';
    const char *label = hash + 1;
    kiln_asset *a = kiln_calloc(&p->allocator, 1, sizeof *a);
    if (!a) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_result r = kiln_database_find(p, source, a, err);
    char key[KILN_SHA256_HEX_SIZE];
    json_t *manifest = NULL;
    if (r == KILN_OK) r = kiln_asset_current_entry(p, a, key, &manifest, err);
    const char *file = NULL;
    size_t i;
    json_t *out;
    json_array_foreach (json_object_get(manifest, "outputs"), i, out)
        if (!strcmp(kiln_json_str(out, "label", ""), label))
            file = kiln_json_str(out, "file", NULL);
    if (r == KILN_OK && !file) {
        char labels[160];
        list_labels(manifest, labels, sizeof labels);
        r = kiln_error_set(err, KILN_E_USAGE, "%s has no artifact labelled \"%s\" (it has: %s)",
                           a->rel, label, labels);
    }
    char dir[KILN_PATH_MAX], path[KILN_PATH_MAX];
    if (r == KILN_OK) {
        kiln_cache_entry_dir(p, key, dir);
        if (!kiln_path_format(path, sizeof path, "%s/%s", dir, file))
            r = kiln_error_set(err, KILN_E_LIMIT, "%s/%s: path too long", dir, file);
    }
    json_t *doc = NULL;
    size_t precision = 0;
    if (r == KILN_OK) r = kiln_inspect_doc(path, o, NULL, &doc, &precision, err);
    if (r == KILN_OK) {
        char id[19], full[KILN_PATH_MAX + 128];
        snprintf(id, sizeof id, "0x%016llx", (unsigned long long)kiln_asset_id(a->guid, label));
        snprintf(full, sizeof full, "%s#%s", a->rel, label);
        json_t *art = json_object();
        json_object_set_new(art, "name", json_string(full));
        json_object_set_new(art, "source", json_string(a->rel));
        json_object_set_new(art, "label", json_string(label));
        json_object_set_new(art, "asset_id", json_string(id));
        json_object_set_new(art, "key", json_string(key));
        json_object_set_new(art, "path", json_string(path));
        json_object_set_new(doc, "artifact", art);
        r = kiln_inspect_finish(doc, name, precision, result_json, err);
    }
    json_decref(manifest);
    kiln_asset_clear(p, a);
    kiln_free(&p->allocator, a, sizeof *a);
    return r;
}

/* The assets whose records name the entry of key, [{"path", "guid"}] in path order. */
static kiln_result entry_assets(kiln_project *p, const char *key, json_t **out, kiln_error *err)
{
    kiln_asset *assets = NULL;
    size_t count = 0;
    kiln_result r = kiln_database_scan(p, &assets, &count, err);
    if (r != KILN_OK) return r;
    *out = json_array();
    for (size_t i = 0; i < count; i++)
        if (assets[i].kind && kiln_asset_recorded_in(p, &assets[i], key))
            json_array_append_new(
                *out, json_pack("{s:s,s:s}", "path", assets[i].rel, "guid", assets[i].guid));
    kiln_assets_free(p, assets, count);
    return KILN_OK;
}

/* The key of the entry path names when it is one of p's cache (a folder or its manifest):
 * objects/<kk>/<key>[/manifest.json] under the cache folder. */
static bool cache_entry_key(const kiln_project *p, const char *path, char key[KILN_SHA256_HEX_SIZE])
{
    char real[KILN_PATH_MAX];
    if (kiln_path_resolve(path, real, sizeof real, NULL) != KILN_OK) return false;
    size_t len = strlen(real);
    if (len > 14 && !strcmp(real + len - 14, "/manifest.json")) real[len - 14] = '\0';
    const char *rel = kiln_path_relative_to(p->cache, real);
    if (!rel || strncmp(rel, "objects/", 8) != 0) return false;
    rel += 8;
    if (strlen(rel) != 3 + KILN_SHA256_HEX_SIZE - 1 || rel[2] != '/' || strncmp(rel, rel + 3, 2))
        return false;
    memcpy(key, rel + 3, KILN_SHA256_HEX_SIZE);
    return true;
}

KILN_API kiln_result kiln_project_inspect(kiln_project *p, const char *name,
                                          const kiln_inspect_opts *opts, char **result_json,
                                          kiln_error *err)
{
    if (!p || !name || !result_json)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_project_inspect needs a project and a name");
    *result_json = NULL;
    kiln_inspect_opts o = kiln_inspect_opts_copy(opts);
    bool exists = kiln_file_exists(name) || kiln_dir_exists(name);
    const char *hash = strrchr(name, '#');
    if (!exists && hash) {
        if (o.compare) return kiln_error_set(err, KILN_E_USAGE, "--compare works on a KTX2 file");
        return inspect_artifact(p, name, hash, &o, result_json, err);
    }
    char key[KILN_SHA256_HEX_SIZE];
    if (!exists || !cache_entry_key(p, name, key))
        return kiln_inspect_file(name, &o, result_json, err);
    json_t *assets = NULL;
    kiln_result r = entry_assets(p, key, &assets, err);
    json_t *doc = NULL;
    size_t precision = 0;
    if (r == KILN_OK) r = kiln_inspect_doc(name, &o, assets, &doc, &precision, err);
    json_decref(assets);
    if (r == KILN_OK) r = kiln_inspect_finish(doc, name, precision, result_json, err);
    return r;
}
