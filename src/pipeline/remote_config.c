/* remote_config.c — the project config file, <project>/kiln.json, which holds what a whole team
 * shares about where cooked data lives: {"remote_cache": ["http://cache:8080/kiln", ...]}.
 * URLs given on the command line replace the file's. Unknown fields are errors, like in .meta. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/remote.h"

#define CONFIG_MAX_SIZE (1u << 20)

/* The fields of kiln.json that other readers own (scan_rules.c): not unknown here. */
static bool read_elsewhere(const char *field)
{
    static const char *const fields[] = {"exclude", "standalone_model_images", "defaults", "roots"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!strcmp(field, fields[i])) return true;
    return false;
}

kiln_result kiln_remote_config_load(const char *project_dir, json_t **urls, kiln_error *err)
{
    *urls = NULL;
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s/%s", project_dir, KILN_PROJECT_CONFIG))
        return kiln_error_set(err, KILN_E_LIMIT, "project folder path too long");
    if (!kiln_file_exists(path)) return KILN_OK;
    /* The read rule (project.h kiln_project_check_read): kiln.json inside the project folder. */
    kiln_result cr = kiln_path_confine_read(path, project_dir, NULL, 0, err);
    if (cr != KILN_OK) {
        kiln_error_prefix(err, "%s: ", KILN_PROJECT_CONFIG);
        return cr;
    }
    json_t *j = kiln_json_load_file(path, CONFIG_MAX_SIZE, KILN_E_IMPORT_SETTINGS, err);
    if (!j) return err ? err->code : KILN_E_IMPORT_SETTINGS;
    kiln_result r = KILN_OK;
    if (!json_is_object(j)) {
        r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s: must be a JSON object", path);
        kiln_error_at_pointer(err, "");
    }
    const char *k;
    json_t *v;
    json_object_foreach (json_is_object(j) ? j : NULL, k, v) {
        if (r != KILN_OK) break;
        if (read_elsewhere(k)) continue;
        if (strcmp(k, "remote_cache") != 0) {
            r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s: unknown field \"%.100s\"", path,
                               k);
            kiln_error_at_pointer(err, "/");
            break;
        }
        size_t i;
        json_t *u;
        if (!json_is_array(v)) r = KILN_E_IMPORT_SETTINGS;
        json_array_foreach (json_is_array(v) ? v : NULL, i, u)
            if (!json_is_string(u)) r = KILN_E_IMPORT_SETTINGS;
        if (r != KILN_OK) {
            kiln_error_set(err, r, "%s: remote_cache must be an array of URL strings", path);
            kiln_error_at_pointer(err, "/remote_cache");
            break;
        }
        *urls = json_incref(v);
    }
    if (r == KILN_OK && err) kiln_error_clear(err);
    if (r != KILN_OK && err) kiln_error_at_path(err, path);
    json_decref(j);
    return r;
}

KILN_API kiln_result kiln_project_set_remote(kiln_project *p, const kiln_remote_opts *opts,
                                             kiln_error *err)
{
    kiln_remote_opts o = {0};
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    if (o.shard_count > 1 && o.shard_index >= o.shard_count)
        return kiln_error_set(err, KILN_E_USAGE, "shard %u/%u: the index must be below the count",
                              o.shard_index, o.shard_count);
    json_t *from_file = NULL;
    const char **urls = NULL;
    size_t count = o.url_count;
    if (count == 0 && !o.ignore_config) {
        kiln_result r = kiln_remote_config_load(p->project_dir, &from_file, err);
        if (r != KILN_OK) return r;
        count = json_array_size(from_file);
    }
    kiln_remote_set *set = NULL;
    if (count) {
        urls = kiln_calloc(&p->allocator, count, sizeof *urls);
        if (!urls) {
            json_decref(from_file);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        }
        for (size_t i = 0; i < count; i++)
            urls[i] = from_file ? json_string_value(json_array_get(from_file, i)) : o.urls[i];
        kiln_result r = kiln_remote_set_create(urls, count, o.read_only, o.timeout_s, &p->allocator,
                                               &p->logger, &set, err);
        kiln_free(&p->allocator, urls, count * sizeof *urls);
        json_decref(from_file);
        if (r != KILN_OK) return r;
    }
    kiln_remote_set_destroy(p->remote);
    p->remote = set;
    p->shard_count = o.shard_count > 1 ? o.shard_count : 0;
    p->shard_index = p->shard_count ? o.shard_index : 0;
    return KILN_OK;
}

KILN_API char *kiln_project_remote_stats(const kiln_project *p)
{
    if (!p || !p->remote) return NULL;
    return kiln_project_take_json(kiln_remote_stats_json(p->remote));
}
