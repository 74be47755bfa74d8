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

/* What a reimport changed, for people and --json: each setting whose resolved value differs
 * ({"path": "texture.format", "before", "after"}) and each output's size before and after
 * ({"label", "before", "after"}; null where the output did not exist, or the previous entry is
 * gone). */
static json_t *reimport_changes(const json_t *settings_before, const json_t *settings_after,
                                const json_t *old_manifest, const json_t *record)
{
    json_t *settings = json_array(), *outputs = json_array();
    const char *group;
    json_t *after_group;
    json_object_foreach ((json_t *)settings_after, group, after_group) {
        const json_t *before_group = json_object_get(settings_before, group);
        const char *field;
        json_t *now;
        json_object_foreach (after_group, field, now) {
            const json_t *was = json_object_get(before_group, field);
            if (was && json_equal(was, now)) continue;
            char path[160];
            snprintf(path, sizeof path, "%s.%s", group, field);
            json_t *c = json_object();
            json_object_set_new(c, "path", json_string(path));
            json_object_set_new(c, "before", was ? json_deep_copy(was) : json_null());
            json_object_set_new(c, "after", json_deep_copy(now));
            json_array_append_new(settings, c);
        }
    }
    const json_t *old_outputs = json_object_get(old_manifest, "outputs");
    const json_t *new_outputs = json_object_get(record, "outputs");
    size_t i, j;
    const json_t *o;
    json_array_foreach (new_outputs, i, o) {
        const char *label = json_string_value(json_object_get(o, "label"));
        json_t *c = json_object();
        json_object_set_new(c, "label", json_string(label ? label : ""));
        json_t *before = json_null();
        const json_t *old;
        json_array_foreach (old_outputs, j, old) {
            const char *l = json_string_value(json_object_get(old, "label"));
            if (label && l && !strcmp(l, label))
                before = json_deep_copy(json_object_get(old, "size"));
        }
        json_object_set_new(c, "before", before ? before : json_null());
        json_object_set_new(c, "after", json_deep_copy(json_object_get(o, "size")));
        json_array_append_new(outputs, c);
    }
    json_array_foreach (old_outputs, j, o) { /* outputs the new cook no longer makes */
        const char *label = json_string_value(json_object_get(o, "label"));
        bool kept = false;
        const json_t *n;
        json_array_foreach (new_outputs, i, n) {
            const char *l = json_string_value(json_object_get(n, "label"));
            if (label && l && !strcmp(l, label)) kept = true;
        }
        if (kept || !label) continue;
        json_t *c = json_object();
        json_object_set_new(c, "label", json_string(label));
        json_object_set_new(c, "before", json_deep_copy(json_object_get(o, "size")));
        json_object_set_new(c, "after", json_null());
        json_array_append_new(outputs, c);
    }
    json_t *d = json_object();
    json_object_set_new(d, "settings", settings);
    json_object_set_new(d, "outputs", outputs);
    return d;
}

KILN_API kiln_result kiln_project_reimport(kiln_project *p, const char *path,
                                           const char *settings_json,
                                           const char *const *assignments, size_t assignment_count,
                                           char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_asset *a = kiln_calloc(&p->allocator, 1, sizeof *a);
    if (!a) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    json_t *doc = NULL, *before = NULL, *patch = NULL, *result = NULL, *record = NULL;
    json_t *settings_before = NULL, *settings_after = NULL, *old_manifest = NULL;
    char mp[KILN_PATH_MAX];
    kiln_result r = kiln_database_find(p, path, a, err);
    if (r != KILN_OK) goto out;
    const kiln_settings_ext *ext = kiln_kinds_settings(p->kinds);
    const char *const *groups = a->kind ? a->kind->settings_groups : NULL;
    if (a->settings_result == KILN_OK)
        settings_before = kiln_settings_groups_json(&a->settings, ext, groups);
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
        before = json_deep_copy(doc);
        if (!before) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            goto out;
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
        /* A group the kind does not read would be written and then do nothing. */
        if (a->kind)
            r = kiln_settings_check_edit_applies(before, doc, a->kind->settings_groups,
                                                 a->kind->name, err);
        if (r != KILN_OK) goto out;
        kiln_asset check = *a;
        r = kiln_settings_from_json_ext(doc, p->platform[0] ? p->platform : NULL,
                                        kiln_kinds_settings(p->kinds), &check.settings, err);
        if (r == KILN_OK) {
            r = kiln_cook_check_settings(&check, err);
            kiln_settings_clear(&check.settings);
        }
        /* and with the folder defaults above it, as the import will load it */
        if (r == KILN_OK) r = kiln_asset_check_meta(p, a, doc, err);
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
    if (old_key[0]) old_manifest = kiln_cache_entry_load(p, old_key, false);
    r = kiln_import_asset(p, a, KILN_IMPORT_FORCE, old_key[0] ? old_key : NULL, &result, err);
    if (a->settings_result == KILN_OK)
        settings_after = kiln_settings_groups_json(&a->settings, ext, groups);
    if (!old_key[0] && r == KILN_OK && result && !json_object_get(result, "unchanged"))
        json_object_set_new(result, "unchanged", json_false());
    json_t *d = json_object();
    json_object_set_new(d, "command", json_string("reimport"));
    json_object_set_new(d, "meta_written", json_boolean(changes));
    json_object_set_new(d, "previous_key", old_key[0] ? json_string(old_key) : json_null());
    json_object_set(d, "record", result);
    if (r == KILN_OK && settings_after)
        json_object_set_new(
            d, "changes", reimport_changes(settings_before, settings_after, old_manifest, result));
    *result_json = kiln_project_take_json(d);
out:
    json_decref(result);
    json_decref(record);
    json_decref(settings_before);
    json_decref(settings_after);
    json_decref(old_manifest);
    json_decref(patch);
    json_decref(before);
    json_decref(doc);
    kiln_asset_clear(p, a);
    kiln_free(&p->allocator, a, sizeof *a);
    return r;
}
