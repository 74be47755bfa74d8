/* remote_graph.c — the build graph of a project for distributed runners: per asset its source,
 * its .meta and the files its key depends on (a .gltf's buffers and images), and the entry its
 * current key names. Computes keys like report does (stat shortcut), cooks and writes nothing.
 * `kiln graph --ninja` (tools/kiln/cmd_graph.c) turns the document into a build.ninja. */
#include <string.h>

#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/cook.h"
#include "pipeline/database.h"
#include "pipeline/source.h"

static json_t *asset_node(kiln_project *p, kiln_asset *a, kiln_error *e)
{
    json_t *record = kiln_cache_record_load(p, a->guid);
    kiln_source src = {0};
    kiln_deps deps = {0};
    char key[KILN_SHA256_HEX_SIZE];
    kiln_result r = kiln_asset_key(p, a, record, false, &src, &deps, key, e);
    json_t *node = NULL;
    if (r == KILN_OK) {
        node = json_object();
        json_t *inputs = json_array();
        json_array_append_new(inputs, json_string(a->abs));
        char path[KILN_PATH_MAX], dir[KILN_PATH_MAX];
        kiln_path_format(path, sizeof path, "%s.meta", a->abs);
        if (kiln_file_exists(path)) json_array_append_new(inputs, json_string(path));
        kiln_path_dirname(a->abs, dir, sizeof dir);
        size_t i;
        json_t *d;
        json_array_foreach (deps.list, i, d) {
            /* A missing file enters the key as "missing"; ninja cannot depend on it. */
            if (json_is_null(json_object_get(d, "stat"))) continue;
            if (kiln_path_join(dir, kiln_json_str(d, "path", ""), path, sizeof path, NULL) ==
                KILN_OK)
                json_array_append_new(inputs, json_string(path));
        }
        char entry[KILN_PATH_MAX];
        kiln_cache_entry_dir(p, key, entry);
        json_object_set_new(node, "path", json_string(a->rel));
        json_object_set_new(node, "guid", json_string(a->guid));
        json_object_set_new(node, "kind", json_string(kiln_source_kind_name(a->kind)));
        json_object_set_new(node, "key", json_string(key));
        json_object_set_new(node, "entry", json_string(entry));
        json_object_set_new(node, "inputs", inputs);
    }
    kiln_source_free(p, &src);
    kiln_deps_free(&deps);
    json_decref(record);
    return node;
}

KILN_API kiln_result kiln_project_graph(kiln_project *p, char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_asset *assets = NULL;
    size_t n = 0;
    kiln_result r = kiln_database_scan(p, &assets, &n, err);
    if (r != KILN_OK) return r;
    json_t *doc = json_object(), *list = json_array(), *failed = json_array();
    for (size_t i = 0; i < n; i++) {
        kiln_asset *a = &assets[i];
        if (!a->kind) continue;
        kiln_error e;
        kiln_error_clear(&e);
        json_t *node = NULL;
        if (a->settings_result != KILN_OK) e = *kiln_asset_settings_error(a);
        else node = asset_node(p, a, &e);
        if (node) {
            json_array_append_new(list, node);
        } else {
            /* Still an edge: its import reports the error where people look for it. */
            json_t *f = json_object();
            json_object_set_new(f, "path", json_string(a->rel));
            json_object_set_new(f, "error", kiln_error_json(&e));
            json_array_append_new(failed, f);
        }
    }
    kiln_assets_free(p, assets, n);
    json_object_set_new(doc, "command", json_string("graph"));
    json_object_set_new(doc, "project", json_string(p->project_dir));
    kiln_roots_json_set(p, doc);
    json_object_set_new(doc, "out", json_string(p->out));
    json_object_set_new(doc, "cache", json_string(p->cache));
    json_object_set_new(doc, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    json_object_set_new(doc, "assets", list);
    json_object_set_new(doc, "failed", failed);
    *result_json = kiln_project_take_json(doc);
    return KILN_OK;
}
