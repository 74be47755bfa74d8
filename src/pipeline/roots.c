/* roots.c — the asset roots of a project (roots.h): reading kiln.json "roots", and turning names
 * into files and files into names. */
#include "pipeline/roots.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/project.h"
#include "pipeline/remote.h" /* KILN_PROJECT_CONFIG */

#define CONFIG_MAX_SIZE (1u << 20)

/* Absolute, normalised, symlinks resolved in the existing part. */
static kiln_result resolve_dir(const char *base, const char *path, char *out, kiln_error *err)
{
    char joined[KILN_PATH_MAX];
    kiln_result r = kiln_path_join(base, path, joined, sizeof joined, err);
    if (r == KILN_OK) r = kiln_path_resolve(joined, out, KILN_PATH_MAX, err);
    return r;
}

static void pointer_of(const char *prefix, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "/roots/");
    for (const char *c = prefix; *c && n + 3 < size; c++) {
        if (*c == '~' || *c == '/') {
            out[n++] = '~';
            out[n++] = *c == '~' ? '0' : '1';
        } else {
            out[n++] = *c;
        }
    }
    out[n] = '\0';
}

static kiln_result config_error(kiln_error *err, const char *path, const char *prefix,
                                const char *fmt, ...) KILN_PRINTF(4, 5);
static kiln_result config_error(kiln_error *err, const char *path, const char *prefix,
                                const char *fmt, ...)
{
    char message[512], pointer[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s: %s", KILN_PROJECT_CONFIG, message);
    kiln_error_at_path(err, path);
    if (prefix) pointer_of(prefix, pointer, sizeof pointer);
    kiln_error_at_pointer(err, prefix ? pointer : "/roots");
    return KILN_E_IMPORT_SETTINGS;
}

/* A prefix is the first segment of a name: a folder name that is not a dot-name (the scan skips
 * those), with no '/' (it would be two segments) and no '#' (it ends a name in "name#label"). */
static bool prefix_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= KILN_ROOT_PREFIX_MAX || s[0] == '.') return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '-' || *c == '_' || *c == '.'))
            return false;
    return true;
}

static int root_cmp(const void *x, const void *y)
{
    return strcmp(((const kiln_asset_root *)x)->prefix, ((const kiln_asset_root *)y)->prefix);
}

/* The "roots" object of kiln.json (path) into p->roots. */
static kiln_result roots_read(kiln_project *p, const json_t *roots, const char *path,
                              kiln_error *err)
{
    if (!json_is_object(roots) || json_object_size(roots) == 0)
        return config_error(err, path, NULL,
                            "roots must be an object naming at least one root: {\"game\": "
                            "\"assets\"}");
    if (json_object_size(roots) > KILN_ROOTS_MAX)
        return config_error(err, path, NULL, "roots names more than %d roots", KILN_ROOTS_MAX);
    const char *prefix;
    json_t *v;
    json_object_foreach ((json_t *)roots, prefix, v) {
        if (!prefix_ok(prefix))
            return config_error(err, path, prefix,
                                "bad root prefix \"%.80s\": one folder name of letters, digits, "
                                "'-', '_' and '.', not starting with '.'",
                                prefix);
        if (!json_is_string(v) || json_string_length(v) == 0)
            return config_error(err, path, prefix,
                                "the root \"%s\" must be a folder path (relative to the project "
                                "folder, or absolute)",
                                prefix);
        kiln_asset_root *root = &p->roots[p->root_count];
        snprintf(root->prefix, sizeof root->prefix, "%s", prefix);
        kiln_error e;
        if (resolve_dir(p->project_dir, json_string_value(v), root->dir, &e) != KILN_OK ||
            strlen(root->dir) > KILN_PATH_MAX - 512)
            return config_error(err, path, prefix, "the root \"%s\" has a path too long", prefix);
        if (!kiln_dir_exists(root->dir))
            return config_error(err, path, prefix, "the root \"%s\" (%s) is not a folder", prefix,
                                root->dir);
        /* Nested roots would give one file two names (and two GUIDs). */
        for (size_t i = 0; i < p->root_count; i++) {
            const kiln_asset_root *o = &p->roots[i];
            if (kiln_path_is_within(o->dir, root->dir) || kiln_path_is_within(root->dir, o->dir))
                return config_error(err, path, prefix,
                                    "the roots \"%s\" (%s) and \"%s\" (%s) overlap: roots may not "
                                    "lie inside one another",
                                    prefix, root->dir, o->prefix, o->dir);
        }
        p->root_count++;
    }
    qsort(p->roots, p->root_count, sizeof p->roots[0], root_cmp);
    p->roots_named = true;
    return KILN_OK;
}

/* kiln.json's "roots" when the file parses and has the field: *found true. */
static kiln_result config_roots(kiln_project *p, bool *found, kiln_error *err)
{
    *found = false;
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s/%s", p->project_dir, KILN_PROJECT_CONFIG))
        return kiln_error_set(err, KILN_E_LIMIT, "project folder path too long");
    /* A file that does not parse, or that breaks the read rule (a symlink out of the project
     * folder), is reported by the readers of its other fields, in the same words as before there
     * were roots. */
    if (!kiln_file_exists(path) || kiln_project_check_read(p, path, NULL) != KILN_OK)
        return KILN_OK;
    json_t *doc = kiln_json_load_file(path, CONFIG_MAX_SIZE, KILN_E_IMPORT_SETTINGS, NULL);
    const json_t *roots = json_object_get(doc, "roots");
    kiln_result r = KILN_OK;
    if (roots) {
        *found = true;
        r = roots_read(p, roots, path, err);
    }
    json_decref(doc);
    return r;
}

static void id_compute(kiln_project *p)
{
    if (!p->roots_named) {
        snprintf(p->roots_id, sizeof p->roots_id, "%s", p->roots[0].dir);
        return;
    }
    uint64_t h = 0;
    for (size_t i = 0; i < p->root_count; i++) {
        uint64_t link[3] = {h, kiln_xxh3_64(p->roots[i].prefix, strlen(p->roots[i].prefix) + 1),
                            kiln_xxh3_64(p->roots[i].dir, strlen(p->roots[i].dir) + 1)};
        h = kiln_xxh3_64(link, sizeof link);
    }
    snprintf(p->roots_id, sizeof p->roots_id, "named %016llx", (unsigned long long)h);
}

kiln_result kiln_roots_open(kiln_project *p, const char *root_opt, const char *cwd, kiln_error *err)
{
    p->root_count = 0;
    p->roots_named = false;
    bool found;
    kiln_result r = config_roots(p, &found, err);
    if (r != KILN_OK) return r;
    if (found && root_opt)
        return kiln_error_set(err, KILN_E_USAGE,
                              "--root names one asset root, but kiln.json names the project's "
                              "roots (\"roots\"): give one or the other");
    if (!found) {
        kiln_asset_root *root = &p->roots[0];
        root->prefix[0] = '\0';
        r = resolve_dir(root_opt ? cwd : p->project_dir, root_opt ? root_opt : "assets", root->dir,
                        err);
        if (r != KILN_OK) return r;
        if (strlen(root->dir) > KILN_PATH_MAX - 512)
            return kiln_error_set(err, KILN_E_LIMIT, "the cache or asset root path is too long");
        if (!kiln_dir_exists(root->dir)) {
            r = kiln_error_set(err, KILN_E_ASSET_IO, "the asset root %s does not exist", root->dir);
            kiln_error_at_path(err, root->dir);
            return r;
        }
        p->root_count = 1;
    }
    id_compute(p);
    return KILN_OK;
}

bool kiln_roots_named(const kiln_project *p) { return p->roots_named; }

bool kiln_roots_file_of(const kiln_project *p, const char *name, char *out, size_t size)
{
    if (!p->roots_named)
        return name[0] ? kiln_path_format(out, size, "%s/%s", p->roots[0].dir, name)
                       : kiln_path_format(out, size, "%s", p->roots[0].dir);
    const char *slash = strchr(name, '/');
    size_t n = slash ? (size_t)(slash - name) : strlen(name);
    for (size_t i = 0; i < p->root_count; i++) {
        const kiln_asset_root *root = &p->roots[i];
        if (strlen(root->prefix) != n || strncmp(root->prefix, name, n) != 0) continue;
        return slash && slash[1] ? kiln_path_format(out, size, "%s/%s", root->dir, slash + 1)
                                 : kiln_path_format(out, size, "%s", root->dir);
    }
    return false;
}

const kiln_asset_root *kiln_roots_holding(const kiln_project *p, const char *abs)
{
    for (size_t i = 0; i < p->root_count; i++)
        if (kiln_path_relative_to(p->roots[i].dir, abs)) return &p->roots[i];
    return NULL;
}

const char *kiln_roots_below(const char *abs, const char *root, const char *fallback)
{
    size_t n = strlen(root);
    return !strncmp(abs, root, n) && abs[n] == '/' ? abs + n + 1 : fallback;
}

bool kiln_roots_name_of(const kiln_project *p, const char *abs, char *out, size_t size)
{
    const kiln_asset_root *root = kiln_roots_holding(p, abs);
    const char *rel = root ? kiln_path_relative_to(root->dir, abs) : NULL;
    if (!rel) return false;
    if (!root->prefix[0]) return kiln_path_format(out, size, "%s", rel);
    return kiln_path_format(out, size, "%s%s%s", root->prefix, rel[0] ? "/" : "", rel);
}

void kiln_roots_describe(const kiln_project *p, char *out, size_t size)
{
    if (!p->roots_named) {
        snprintf(out, size, "the asset root %s", p->roots[0].dir);
        return;
    }
    /* prefixes only: the folders would not fit an error message (kiln.json lists them) */
    size_t n = (size_t)snprintf(out, size, "any of the asset roots (");
    for (size_t i = 0; i < p->root_count && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", p->roots[i].prefix);
    if (n < size) snprintf(out + n, size - n, ")");
}

void kiln_roots_json_set(const kiln_project *p, json_t *doc)
{
    json_object_set_new(doc, "root", json_string(p->roots[0].dir));
    if (!p->roots_named) return;
    json_t *roots = json_object();
    for (size_t i = 0; i < p->root_count; i++)
        json_object_set_new(roots, p->roots[i].prefix, json_string(p->roots[i].dir));
    json_object_set_new(doc, "roots", roots);
}

const char *kiln_roots_id(const kiln_project *p) { return p->roots_id; }
