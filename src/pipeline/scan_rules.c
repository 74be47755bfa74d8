/* scan_rules.c — loading the scan rules (scan_rules.h) from kiln.json and .kilnignore. kiln.json
 * is shared with other readers (remote_config.c: "remote_cache"); each reads its own fields. */
#include "pipeline/scan_rules.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/project.h"
#include "pipeline/remote.h"

#define CONFIG_MAX_SIZE (1u << 20)
#define IGNORE_MAX_SIZE (1u << 20)
#define ORIGIN_CONFIG   "kiln.json"

static kiln_result config_error(kiln_error *err, const char *path, const char *pointer,
                                const char *message)
{
    kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s: %s", path, message);
    kiln_error_at_path(err, path);
    kiln_error_at_pointer(err, pointer);
    return KILN_E_IMPORT_SETTINGS;
}

static kiln_result read_exclude(kiln_scan_rules *out, const json_t *list, const char *path,
                                kiln_error *err)
{
    if (!json_is_array(list))
        return config_error(err, path, "/exclude", "exclude must be an array of patterns");
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) {
        char pointer[64];
        snprintf(pointer, sizeof pointer, "/exclude/%zu", i);
        const char *s = json_string_value(v);
        if (!s) return config_error(err, path, pointer, "an exclude pattern must be a string");
        bool added;
        kiln_result r =
            kiln_ignore_add(&out->ignore, s, json_string_length(v), ORIGIN_CONFIG, i, &added, err);
        if (r == KILN_E_OUT_OF_MEMORY) return r;
        if (r != KILN_OK) return config_error(err, path, pointer, "an exclude pattern is too long");
        if (!added)
            return config_error(err, path, pointer,
                                "an exclude pattern is empty or a comment (it names nothing)");
    }
    return KILN_OK;
}

kiln_result kiln_scan_config_load(const kiln_project *p, kiln_scan_rules *out, kiln_error *err)
{
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s/%s", p->project_dir, KILN_PROJECT_CONFIG))
        return kiln_error_set(err, KILN_E_LIMIT, "project folder path too long");
    if (!kiln_file_exists(path)) return KILN_OK;
    kiln_result cr = kiln_project_check_read(p, path, err); /* inside the project folder */
    if (cr != KILN_OK) {
        kiln_error_prefix(err, "%s: ", KILN_PROJECT_CONFIG);
        return cr;
    }
    json_t *j = kiln_json_load_file(path, CONFIG_MAX_SIZE, KILN_E_IMPORT_SETTINGS, err);
    if (!j) return err ? err->code : KILN_E_IMPORT_SETTINGS;
    kiln_result r = KILN_OK;
    if (!json_is_object(j)) r = config_error(err, path, "", "must be a JSON object");
    json_t *exclude = json_object_get(j, "exclude");
    if (r == KILN_OK && exclude) r = read_exclude(out, exclude, path, err);
    json_t *standalone = json_object_get(j, "standalone_model_images");
    if (r == KILN_OK && standalone) {
        if (json_is_boolean(standalone)) out->standalone_model_images = json_is_true(standalone);
        else
            r = config_error(err, path, "/standalone_model_images",
                             "standalone_model_images must be true or false");
    }
    json_decref(j);
    return r;
}

/* The lines of <dir>/.kilnignore, when it exists, into ig. */
static kiln_result ignore_file_load(const kiln_project *p, const char *dir, kiln_ignore *ig,
                                    const char *origin, kiln_error *err)
{
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s/%s", dir, KILN_IGNORE_FILE))
        return kiln_error_set(err, KILN_E_LIMIT, "asset root path too long");
    if (!kiln_file_exists(path)) return KILN_OK;
    uint8_t *text;
    size_t size;
    kiln_result r = kiln_project_check_read(p, path, err); /* inside its root */
    if (r != KILN_OK) kiln_error_prefix(err, "%s: ", origin);
    if (r == KILN_OK) r = kiln_file_read(path, IGNORE_MAX_SIZE, &p->allocator, &text, &size, err);
    if (r != KILN_OK) return r;
    r = kiln_ignore_add_text(ig, (const char *)text, size, origin, err);
    kiln_free(&p->allocator, text, size + 1);
    if (r != KILN_OK) kiln_error_at_path(err, path);
    return r;
}

kiln_result kiln_scan_rules_load(const kiln_project *p, kiln_scan_rules *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    out->ignore.allocator = p->allocator;
    for (size_t i = 0; i < KILN_ROOTS_MAX; i++) out->root_ignore[i].allocator = p->allocator;
    kiln_result r = kiln_scan_config_load(p, out, err);
    if (r != KILN_OK) return r;
    if (!kiln_roots_named(p))
        return ignore_file_load(p, p->roots[0].dir, &out->ignore, KILN_IGNORE_FILE, err);
    for (size_t i = 0; i < p->root_count && r == KILN_OK; i++) {
        snprintf(out->root_origin[i], sizeof out->root_origin[i], "%s/%s", p->roots[i].prefix,
                 KILN_IGNORE_FILE);
        r = ignore_file_load(p, p->roots[i].dir, &out->root_ignore[i], out->root_origin[i], err);
    }
    return r;
}

void kiln_scan_rules_free(kiln_scan_rules *r)
{
    kiln_ignore_free(&r->ignore);
    for (size_t i = 0; i < KILN_ROOTS_MAX; i++) kiln_ignore_free(&r->root_ignore[i]);
}

const kiln_ignore_rule *kiln_scan_rules_match(const kiln_project *p, const kiln_scan_rules *rules,
                                              const char *name, bool is_dir)
{
    if (kiln_roots_named(p)) {
        const char *slash = strchr(name, '/');
        size_t n = slash ? (size_t)(slash - name) : strlen(name);
        for (size_t i = 0; slash && i < p->root_count; i++) {
            if (strlen(p->roots[i].prefix) != n || strncmp(p->roots[i].prefix, name, n) != 0)
                continue;
            const kiln_ignore_rule *rule =
                kiln_ignore_match(&rules->root_ignore[i], slash + 1, is_dir);
            if (rule) return rule;
        }
    }
    return kiln_ignore_match(&rules->ignore, name, is_dir);
}

bool kiln_scan_rule_has_line(const kiln_ignore_rule *rule)
{
    return strcmp(rule->origin, ORIGIN_CONFIG) != 0;
}

void kiln_scan_rule_describe(const kiln_ignore_rule *rule, char *out, size_t out_size)
{
    if (!strcmp(rule->origin, ORIGIN_CONFIG))
        snprintf(out, out_size, "excluded by kiln.json exclude '%s'", rule->text);
    else snprintf(out, out_size, "excluded by %s:%zu '%s'", rule->origin, rule->line, rule->text);
}
