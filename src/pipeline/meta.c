/* meta.c — the commands that write .meta files: `meta` (fresh GUIDs) and `reimport` (settings
 * validated, written keeping the GUID and every other field, then the asset processed again). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/cook.h"
#include "pipeline/import.h"

#define META_MAX_SIZE (1u << 20)

static kiln_result meta_path_of(kiln_project *p, const kiln_asset *a, char out[KILN_PATH_MAX],
                                kiln_error *err)
{
    if (snprintf(out, KILN_PATH_MAX, "%s.meta", a->abs) >= KILN_PATH_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "path too long: %s.meta", a->rel);
    /* .meta files live beside sources: the root must be inside the project or output folder. */
    return kiln_project_check_write(p, out, err);
}

KILN_API kiln_result kiln_project_meta(kiln_project *p, const char *const *paths, size_t count,
                                       uint32_t flags, char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_asset *assets = NULL;
    size_t n = 0;
    kiln_result r = KILN_OK;
    if (flags & KILN_IMPORT_ALL) {
        r = kiln_database_scan(p, &assets, &n, err);
    } else {
        assets = kiln_calloc(&p->allocator, count ? count : 1, sizeof *assets);
        if (!assets) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0; r == KILN_OK && i < count; i++) {
            r = kiln_database_find(p, paths[i], &assets[n], err);
            if (r == KILN_OK) n++;
        }
    }
    json_t *written = json_array(), *existing = json_array();
    for (size_t i = 0; r == KILN_OK && i < n; i++) {
        kiln_asset *a = &assets[i];
        char mp[KILN_PATH_MAX];
        if (a->has_meta) {
            json_array_append_new(existing, json_string(a->rel));
            continue;
        }
        r = meta_path_of(p, a, mp, err);
        char guid[33];
        if (r == KILN_OK) r = kiln_guid_random(guid, err);
        if (r != KILN_OK) break;
        json_t *doc = json_object();
        json_object_set_new(doc, "guid", json_string(guid));
        r = kiln_json_write_atomic(mp, doc, err);
        json_decref(doc);
        if (r == KILN_OK) json_array_append_new(written, json_string(a->rel));
    }
    kiln_assets_free(p, assets, (flags & KILN_IMPORT_ALL) ? n : (count ? count : 1));
    if (r != KILN_OK) {
        json_decref(written);
        json_decref(existing);
        return r;
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("meta"));
    json_object_set_new(doc, "written", written);
    json_object_set_new(doc, "existing", existing);
    *result_json = kiln_project_take_json(doc);
    return KILN_OK;
}

KILN_API kiln_result kiln_project_reimport(kiln_project *p, const char *path,
                                           const char *settings_json,
                                           const char *const *assignments, size_t assignment_count,
                                           char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_asset *a = kiln_calloc(&p->allocator, 1, sizeof *a);
    if (!a) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    json_t *doc = NULL, *patch = NULL, *result = NULL, *record = NULL;
    char mp[KILN_PATH_MAX];
    kiln_result r = kiln_database_find(p, path, a, err);
    if (r != KILN_OK) goto out;
    bool changes = settings_json || assignment_count;
    if (changes) {
        r = meta_path_of(p, a, mp, err);
        if (r != KILN_OK) goto out;
        if (a->has_meta) {
            doc = kiln_json_load_file(mp, META_MAX_SIZE, KILN_E_IMPORT_SETTINGS, err);
            if (!doc) {
                r = KILN_E_IMPORT_SETTINGS;
                goto out;
            }
            if (!json_is_object(doc)) {
                r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s.meta: not a JSON object",
                                   a->rel);
                kiln_error_at_pointer(err, "");
                goto out;
            }
        } else {
            doc = json_object();
        }
        /* Keep the asset's identity: a source without .meta has a GUID derived from its path. */
        if (!json_object_get(doc, "guid")) json_object_set_new(doc, "guid", json_string(a->guid));
        if (settings_json) {
            patch = kiln_json_load(settings_json, strlen(settings_json), NULL,
                                   KILN_E_IMPORT_SETTINGS, err);
            if (!patch) {
                r = KILN_E_IMPORT_SETTINGS;
                kiln_error_prefix(err, "--settings: ");
                goto out;
            }
            r = kiln_settings_merge_import(doc, patch, err);
            if (r != KILN_OK) goto out;
        }
        for (size_t i = 0; i < assignment_count; i++) {
            r = kiln_settings_apply_assignment(doc, assignments[i], err);
            if (r != KILN_OK) goto out;
        }
        kiln_asset check = *a;
        r = kiln_settings_from_json_ext(doc, p->platform[0] ? p->platform : NULL,
                                        kiln_kinds_settings(p->kinds), &check.settings, err);
        if (r == KILN_OK) r = kiln_cook_check_settings(&check, err);
        if (r != KILN_OK) goto out; /* nothing written */
    }
    record = kiln_cache_record_load(p, a->guid);
    char old_key[KILN_SHA256_HEX_SIZE] = "";
    const char *rk = kiln_json_str(record, "key", NULL);
    if (rk && strlen(rk) == 64) memcpy(old_key, rk, 65);
    if (changes) {
        r = kiln_json_write_atomic(mp, doc, err);
        if (r != KILN_OK) goto out;
        kiln_asset_load_settings(p, a);
    }
    r = kiln_import_asset(p, a, KILN_IMPORT_FORCE, old_key[0] ? old_key : NULL, &result, err);
    if (!old_key[0] && r == KILN_OK && result && !json_object_get(result, "unchanged"))
        json_object_set_new(result, "unchanged", json_false());
    json_t *d = json_object();
    json_object_set_new(d, "command", json_string("reimport"));
    json_object_set_new(d, "meta_written", json_boolean(changes));
    json_object_set_new(d, "previous_key", old_key[0] ? json_string(old_key) : json_null());
    json_object_set(d, "record", result);
    *result_json = kiln_project_take_json(d);
out:
    json_decref(result);
    json_decref(record);
    json_decref(patch);
    json_decref(doc);
    kiln_asset_clear(p, a);
    kiln_free(&p->allocator, a, sizeof *a);
    return r;
}
