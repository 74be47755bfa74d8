/* database.c — scanning the asset root, GUIDs, settings from .meta files, and cache keys. */
#include "pipeline/database.h"
#include "pipeline/cook.h"
#include "pipeline/settings_layers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/owned.h"
#include "pipeline/project.h"
#include "pipeline/scan_rules.h"

#define META_MAX_SIZE (1u << 20) /* a .meta above 1 MiB is refused */

void kiln_guid_derive(const char *rel, char out[33])
{
    uint8_t d[KILN_SHA256_SIZE];
    kiln_sha256 h;
    if (kiln_sha256_init(&h, NULL) == KILN_OK) {
        kiln_sha256_update(&h, "kiln-guid", 10); /* includes the NUL: a fixed separator */
        kiln_sha256_update(&h, rel, strlen(rel));
        if (kiln_sha256_final(&h, d, NULL) == KILN_OK) {
            kiln_hex(d, 16, out);
            return;
        }
    }
    memset(out, '0', 32); /* OpenSSL could not allocate: a stable, visible placeholder */
    out[32] = '\0';
}

kiln_result kiln_guid_random(char out[33], kiln_error *err)
{
    uint8_t b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return kiln_error_set(err, KILN_E_INTERNAL, "getrandom failed: %s", strerror(errno));
        got += (size_t)n;
    }
    kiln_hex(b, sizeof b, out);
    return KILN_OK;
}

/* What is known of an asset's .meta before looking: a scan's listing says whether the folder
 * holds one and whether it is a regular file there. */
typedef enum meta_listing {
    META_LOOK,   /* unknown: stat it, and it must pass the read rule */
    META_ABSENT, /* the listing holds none: nothing to stat */
    META_PLAIN,  /* listed as a regular file in a folder the walk reached without a symlink: it
                  * lies inside the root, so the read rule needs no realpath */
} meta_listing;

/* Reads a's own .meta into *doc (NULL when it has none). */
static kiln_result own_meta_load(kiln_project *p, kiln_asset *a, meta_listing listing, json_t **doc,
                                 kiln_error *err)
{
    char meta[KILN_PATH_MAX];
    *doc = NULL;
    if (listing == META_ABSENT) return KILN_OK;
    if (snprintf(meta, sizeof meta, "%s.meta", a->abs) >= (int)sizeof meta)
        return kiln_error_set(err, KILN_E_ASSET_IO, "path too long");
    if (kiln_file_stat(meta, &a->meta_stat, NULL) != KILN_OK || !a->meta_stat.is_file)
        return KILN_OK;
    a->has_meta = true;
    /* A .meta that is a symlink out of the root is refused, not read (docs/cache.md). */
    if (listing != META_PLAIN) {
        kiln_result r = kiln_project_check_read(p, meta, err);
        if (r != KILN_OK) {
            kiln_error_prefix(err, "%s.meta: ", a->rel);
            return r;
        }
    }
    uint8_t *text;
    size_t size;
    kiln_result r = kiln_file_read(meta, META_MAX_SIZE, &p->allocator, &text, &size, err);
    if (r != KILN_OK) {
        r = r == KILN_E_LIMIT ? KILN_E_IMPORT_SETTINGS : r;
        if (err) err->code = r;
        return r;
    }
    r = kiln_settings_doc_load((const char *)text, size, doc, err);
    kiln_free(&p->allocator, text, size + 1);
    if (r != KILN_OK) {
        kiln_error_at_path(err, meta);
        kiln_error_prefix(err, "%s.meta: ", a->rel);
    }
    return r;
}

/* The settings of a from its own .meta (doc, may be NULL) and the layers above it. */
static kiln_result settings_from(kiln_project *p, const kiln_settings_layers *layers,
                                 const kiln_asset *a, const json_t *doc, kiln_settings *out,
                                 json_t **origins, kiln_error *err)
{
    char meta[KILN_PATH_MAX];
    snprintf(meta, sizeof meta, "%s.meta", a->abs);
    const char *platform = p->platform[0] ? p->platform : NULL;
    const kiln_settings_ext *ext = kiln_kinds_settings(p->kinds);
    kiln_settings_default_ext(out, ext); /* out is taken as uninitialized */
    *origins = NULL;
    kiln_result r = doc ? kiln_settings_from_json_ext(doc, platform, ext, out, err) : KILN_OK;
    if (r != KILN_OK) {
        if (!err->path[0]) kiln_error_at_path(err, meta);
        kiln_error_prefix(err, "%s.meta: ", a->rel);
        return r;
    }
    bool layered = false;
    if (layers) r = kiln_settings_resolve(p, layers, a->rel, doc, out, origins, &layered, err);
    if (r != KILN_OK || (!doc && !layered)) return r;
    kiln_asset check = *a;
    check.settings = *out; /* borrowed: check is not cleared */
    r = kiln_cook_check_settings(&check, err);
    if (r != KILN_OK) {
        if (doc) kiln_error_at_path(err, meta);
        kiln_error_prefix(err, doc ? "%s.meta: " : "%s: ", a->rel);
    }
    return r;
}

static void settings_error_free(kiln_project *p, kiln_asset *a)
{
    if (a->settings_error) kiln_free(&p->allocator, a->settings_error, sizeof *a->settings_error);
    a->settings_error = NULL;
}

/* Keeps e as a's settings error (a copy; none when out of memory: kiln_asset_settings_error). */
static void settings_error_keep(kiln_project *p, kiln_asset *a, const kiln_error *e)
{
    settings_error_free(p, a);
    a->settings_error = kiln_alloc(&p->allocator, sizeof *a->settings_error);
    if (a->settings_error) *a->settings_error = *e;
}

const kiln_error *kiln_asset_settings_error(const kiln_asset *a)
{
    static const kiln_error unknown = {KILN_E_OUT_OF_MEMORY,
                                       "its settings were refused (out of memory keeping why)", "",
                                       UINT64_MAX, ""};
    return a->settings_error ? a->settings_error : &unknown;
}

static void load_settings_with(kiln_project *p, const kiln_settings_layers *layers,
                               meta_listing listing, kiln_asset *a)
{
    settings_error_free(p, a);
    a->settings_result = KILN_OK;
    json_decref(a->settings_origin);
    a->settings_origin = NULL;
    a->layers_hash = layers ? kiln_settings_layers_hash(layers) : 0;
    kiln_settings_clear(&a->settings);
    kiln_settings_default_ext(&a->settings, kiln_kinds_settings(p->kinds));
    a->prefers_astc = kiln_platform_prefers_astc(p->platform);
    kiln_guid_derive(a->rel, a->guid);
    a->has_meta = false;
    json_t *doc = NULL;
    kiln_error e;
    kiln_result r = own_meta_load(p, a, listing, &doc, &e);
    if (r == KILN_OK) r = settings_from(p, layers, a, doc, &a->settings, &a->settings_origin, &e);
    json_decref(doc);
    a->settings_result = r;
    if (r != KILN_OK) settings_error_keep(p, a, &e);
    if (r == KILN_OK && a->settings.guid[0]) memcpy(a->guid, a->settings.guid, 33);
}

void kiln_asset_load_settings(kiln_project *p, kiln_asset *a)
{
    kiln_settings_layers *layers = NULL;
    kiln_error e;
    kiln_result r = kiln_settings_layers_for(p, a->rel, &layers, &e);
    if (r != KILN_OK) {
        load_settings_with(p, NULL, META_LOOK, a);
        a->settings_result = r;
        settings_error_keep(p, a, &e);
        return;
    }
    load_settings_with(p, layers, META_LOOK, a);
    kiln_settings_layers_destroy(p, layers);
}

kiln_result kiln_asset_check_meta(kiln_project *p, const kiln_asset *a, const json_t *doc,
                                  kiln_error *err)
{
    kiln_error local;
    kiln_error *e = err ? err : &local;
    kiln_settings_layers *layers = NULL;
    kiln_result r = kiln_settings_layers_for(p, a->rel, &layers, e);
    if (r != KILN_OK) return r;
    kiln_settings s;
    json_t *origins = NULL;
    r = settings_from(p, layers, a, doc, &s, &origins, e);
    kiln_settings_clear(&s);
    json_decref(origins);
    kiln_settings_layers_destroy(p, layers);
    return r;
}

static kiln_result asset_init(kiln_project *p, const kiln_settings_layers *layers,
                              meta_listing listing, const char *abs, kiln_asset *a, kiln_error *err)
{
    memset(a, 0, sizeof *a);
    const kiln_asset_root *root = kiln_roots_holding(p, abs);
    char rel[KILN_PATH_MAX];
    if (!root || !strcmp(root->dir, abs) || !kiln_roots_name_of(p, abs, rel, sizeof rel)) {
        char roots[KILN_PATH_MAX];
        kiln_roots_describe(p, roots, sizeof roots);
        kiln_error_set(err, KILN_E_ASSET_IO, "%s is not inside %s", abs, roots);
        kiln_error_at_path(err, abs);
        return KILN_E_ASSET_IO;
    }
    a->abs = kiln_strdup(&p->allocator, abs);
    a->rel = kiln_strdup(&p->allocator, rel);
    if (!a->abs || !a->rel) {
        kiln_asset_clear(p, a);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    a->kind = kiln_source_kind_of(p->kinds, rel);
    if (layers) load_settings_with(p, layers, listing, a);
    else kiln_asset_load_settings(p, a);
    return KILN_OK;
}

typedef struct scan_list {
    kiln_project *p;
    const kiln_scan_rules *rules;
    json_t *skipped;              /* what the rules left out, or NULL */
    kiln_settings_layers *layers; /* the folder defaults above the folder being listed */
    kiln_asset *items;
    size_t count, capacity;
} scan_list;

/* Whether the ignore rules leave out path (a file of a known kind or a folder); says so in
 * l->skipped. */
static bool scan_excluded(scan_list *l, const char *path, bool is_dir)
{
    char rel[KILN_PATH_MAX];
    const kiln_ignore_rule *rule = kiln_roots_name_of(l->p, path, rel, sizeof rel)
                                       ? kiln_scan_rules_match(l->p, l->rules, rel, is_dir)
                                       : NULL;
    if (!rule || rule->negate) return false;
    if (l->skipped) {
        char message[KILN_IGNORE_MAX_PATTERN + 64];
        kiln_scan_rule_describe(rule, message, sizeof message);
        json_t *by = json_object();
        json_object_set_new(by, "file", json_string(rule->origin));
        if (kiln_scan_rule_has_line(rule))
            json_object_set_new(by, "line", json_integer((json_int_t)rule->line));
        else json_object_set_new(by, "json_pointer", json_sprintf("/exclude/%zu", rule->line));
        json_object_set_new(by, "pattern", json_string(rule->text));
        json_t *s = json_object();
        json_object_set_new(s, "path", json_string(rel));
        json_object_set_new(s, "folder", json_boolean(is_dir));
        json_object_set_new(s, "reason", json_string("excluded"));
        json_object_set_new(s, "rule", by);
        json_object_set_new(s, "message", json_string(message));
        json_array_append_new(l->skipped, s);
    }
    return true;
}

/* Whether path (a symlink, or a file readdir could not name) breaks the read rule: resolved, it
 * lies outside its root. Says so in l->skipped. */
static bool scan_outside(scan_list *l, const char *path)
{
    const kiln_asset_root *root = kiln_roots_holding(l->p, path);
    if (root && kiln_path_confine_read(path, root->dir, NULL, 0, NULL) == KILN_OK) return false;
    if (l->skipped) {
        char rel[KILN_PATH_MAX];
        if (!kiln_roots_name_of(l->p, path, rel, sizeof rel)) snprintf(rel, sizeof rel, "%s", path);
        char target[KILN_PATH_MAX];
        if (!realpath(path, target)) snprintf(target, sizeof target, "?");
        json_t *s = json_object();
        json_object_set_new(s, "path", json_string(rel));
        json_object_set_new(s, "reason", json_string("outside"));
        json_object_set_new(s, "target", json_string(target));
        json_object_set_new(
            s, "message",
            json_sprintf("a symlink to %s, outside %s; not read", target,
                         kiln_roots_named(l->p) ? "its asset root" : "the asset root"));
        json_array_append_new(l->skipped, s);
    }
    return true;
}

/* Says in l->skipped that a file of a known kind is read by others only. */
static void scan_library(scan_list *l, const kiln_asset *a)
{
    if (!l->skipped) return;
    json_t *s = json_object();
    json_object_set_new(s, "path", json_string(a->rel));
    json_object_set_new(s, "reason", json_string("library"));
    json_object_set_new(s, "kind", json_string(a->kind->name));
    json_object_set_new(s, "message",
                        json_sprintf("%s is a %s library: not imported on its own, read by the "
                                     "assets that include it",
                                     a->rel, a->kind->name));
    json_array_append_new(l->skipped, s);
}

static kiln_result scan_dir(scan_list *l, const char *dir, int depth, kiln_error *err)
{
    if (depth > 64)
        return kiln_error_set(err, KILN_E_LIMIT, "folders nested deeper than 64 under %s",
                              kiln_roots_holding(l->p, dir)->dir);
    kiln_dir_list names;
    kiln_result r = kiln_dir_list_read(dir, &l->p->allocator, &names, err);
    if (r != KILN_OK) return r;
    char rel[KILN_PATH_MAX];
    if (!kiln_roots_name_of(l->p, dir, rel, sizeof rel)) rel[0] = '\0';
    r = kiln_settings_layers_push(l->p, l->layers, dir, rel, err);
    if (r != KILN_OK) {
        kiln_dir_list_free(&names);
        return r;
    }
    for (size_t i = 0; i < names.count && r == KILN_OK; i++) {
        const char *name = names.names[i];
        if (name[0] == '.') continue; /* .kiln, .git, editors' files */
        char path[KILN_PATH_MAX];
        if (kiln_path_join(dir, name, path, sizeof path, err) != KILN_OK) {
            r = err ? err->code : KILN_E_LIMIT;
            break;
        }
        /* One stat per source and none for anything else: what readdir says a name is decides
         * (a link or an unknown type is stat-ed to know). */
        kiln_dir_entry_kind type = kiln_dir_list_kind(&names, i);
        bool source = kiln_source_kind_of(l->p->kinds, name) != NULL;
        if (type == KILN_DIR_ENTRY_FILE && !source) continue;
        if (type == KILN_DIR_ENTRY_DIR) {
            if (scan_excluded(l, path, true)) continue; /* not descended into */
            r = scan_dir(l, path, depth + 1, err);
            continue;
        }
        kiln_file_info info;
        int64_t clock = kiln_time_now_ns(); /* before the stat: the record index's racy rule */
        if (kiln_file_stat(path, &info, NULL) != KILN_OK) continue; /* dangling link */
        if (info.is_dir) {
            /* Symlinked folders are not followed: a link to an ancestor would make the walk
             * endless (or exponential with two). Symlinked files are assets like any other. */
            struct stat lst;
            if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) continue;
            if (scan_excluded(l, path, true)) continue; /* not descended into */
            r = scan_dir(l, path, depth + 1, err);
            continue;
        }
        if (!info.is_file || !source) continue;
        if (scan_excluded(l, path, false)) continue;
        /* A regular file listed here lies inside the root (the walk follows no folder link); a
         * symlinked file must resolve inside its root too, or it is skipped unread. */
        if (type != KILN_DIR_ENTRY_FILE && scan_outside(l, path)) continue;
        if (l->count == l->capacity) {
            size_t nc = l->capacity ? l->capacity * 2 : 64;
            kiln_asset *ni =
                kiln_realloc(&l->p->allocator, l->items, l->capacity * sizeof *ni, nc * sizeof *ni);
            if (!ni) {
                r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory scanning %s", dir);
                break;
            }
            l->items = ni;
            l->capacity = nc;
        }
        char meta[KILN_PATH_MAX];
        meta_listing listing = META_LOOK;
        if (kiln_path_format(meta, sizeof meta, "%s.meta", name)) {
            size_t at = kiln_dir_list_index(&names, meta);
            listing = at == names.count                                       ? META_ABSENT
                      : kiln_dir_list_kind(&names, at) == KILN_DIR_ENTRY_FILE ? META_PLAIN
                                                                              : META_LOOK;
        }
        r = asset_init(l->p, l->layers, listing, path, &l->items[l->count], err);
        kiln_asset *a = &l->items[l->count];
        if (r == KILN_OK && a->settings_result == KILN_OK && a->kind->standalone &&
            !a->kind->standalone(a)) {
            /* a file only others read (a shader include library): not an asset of its own */
            scan_library(l, a);
            kiln_asset_clear(l->p, a);
            continue;
        }
        if (r == KILN_OK) {
            l->items[l->count].source_stat = info;
            l->items[l->count].stat_clock_ns = clock;
            l->items[l->count].has_source_stat = true;
            l->count++;
        }
    }
    kiln_settings_layers_pop(l->layers);
    kiln_dir_list_free(&names);
    return r;
}

static int skipped_cmp(const void *x, const void *y)
{
    return strcmp(kiln_json_str(*(json_t *const *)x, "path", ""),
                  kiln_json_str(*(json_t *const *)y, "path", ""));
}

/* skipped in path order, whatever order the walk and the owned pass added them in. */
static void skipped_sort(kiln_project *p, json_t *skipped)
{
    size_t n = json_array_size(skipped);
    json_t **items = n ? kiln_calloc(&p->allocator, n, sizeof *items) : NULL;
    if (!items) return; /* out of memory: left in walk order */
    for (size_t i = 0; i < n; i++) items[i] = json_incref(json_array_get(skipped, i));
    qsort(items, n, sizeof *items, skipped_cmp);
    json_array_clear(skipped);
    for (size_t i = 0; i < n; i++) json_array_append_new(skipped, items[i]);
    kiln_free(&p->allocator, items, n * sizeof *items);
}

kiln_result kiln_database_scan_skipped(kiln_project *p, kiln_asset **out, size_t *count,
                                       json_t *skipped, kiln_error *err)
{
    *out = NULL;
    *count = 0;
    kiln_scan_rules rules;
    kiln_result r = kiln_scan_rules_load(p, &rules, err);
    if (r != KILN_OK) {
        kiln_scan_rules_free(&rules);
        return r;
    }
    scan_list l = {p, &rules, skipped, NULL, NULL, 0, 0};
    r = kiln_settings_layers_create(p, &l.layers, err);
    if (r != KILN_OK) {
        kiln_scan_rules_free(&rules);
        return r;
    }
    r = kiln_roots_named(p) ? kiln_settings_layers_push(p, l.layers, NULL, "", err) : KILN_OK;
    for (size_t i = 0; i < p->root_count && r == KILN_OK; i++)
        r = scan_dir(&l, p->roots[i].dir, 0, err); /* sorted by prefix: names stay sorted */
    kiln_settings_layers_destroy(p, l.layers);
    bool standalone = rules.standalone_model_images;
    kiln_scan_rules_free(&rules);
    if (r == KILN_OK && !standalone) r = kiln_owned_remove(p, l.items, &l.count, skipped, err);
    if (r != KILN_OK) {
        for (size_t i = 0; i < l.count; i++) kiln_asset_clear(p, &l.items[i]);
        kiln_free(&p->allocator, l.items, l.capacity * sizeof *l.items);
        return r;
    }
    if (skipped) skipped_sort(p, skipped);
    /* Shrink to count so kiln_assets_free can compute the size. */
    if (l.count < l.capacity) {
        kiln_asset *s = kiln_realloc(&p->allocator, l.items, l.capacity * sizeof *l.items,
                                     (l.count ? l.count : 1) * sizeof *l.items);
        if (s) l.items = s; /* on failure the larger block stays; libc does not need the size */
    }
    *out = l.items;
    *count = l.count;
    return KILN_OK;
}

kiln_result kiln_database_scan(kiln_project *p, kiln_asset **out, size_t *count, kiln_error *err)
{
    return kiln_database_scan_skipped(p, out, count, NULL, err);
}

void kiln_asset_clear(kiln_project *p, kiln_asset *a)
{
    if (a->abs) kiln_free(&p->allocator, a->abs, strlen(a->abs) + 1);
    if (a->rel) kiln_free(&p->allocator, a->rel, strlen(a->rel) + 1);
    a->abs = a->rel = NULL;
    json_decref(a->settings_origin);
    a->settings_origin = NULL;
    kiln_settings_clear(&a->settings);
    settings_error_free(p, a);
}

void kiln_assets_free(kiln_project *p, kiln_asset *assets, size_t count)
{
    for (size_t i = 0; assets && i < count; i++) kiln_asset_clear(p, &assets[i]);
    kiln_free(&p->allocator, assets, (count ? count : 1) * sizeof *assets);
}

kiln_result kiln_database_find(kiln_project *p, const char *path, kiln_asset *out, kiln_error *err)
{
    char abs[KILN_PATH_MAX];
    kiln_result r = kiln_path_absolute(path, abs, sizeof abs, err);
    if (r != KILN_OK) return r;
    /* A path relative to the root is accepted too, when it does not exist from the current
     * folder ("textures/wall.png" run from the project folder). */
    if (!kiln_file_exists(abs) && path[0] != '/') {
        char alt[KILN_PATH_MAX];
        if (kiln_roots_file_of(p, path, alt, sizeof alt) && kiln_file_exists(alt))
            memcpy(abs, alt, sizeof abs);
    }
    if (!kiln_file_exists(abs)) {
        kiln_error_set(err, KILN_E_ASSET_IO, "%s does not exist or is not a file", path);
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    /* Inside the root by name, as a scan of the root sees it (the root itself is resolved, so
     * compare against the resolved parent folder); then, by the read rule, the file itself
     * resolved, so a symlinked file leading out of its root is refused unread. */
    char real[KILN_PATH_MAX], dir[KILN_PATH_MAX], dir_real[KILN_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", abs);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    r = kiln_path_resolve(dir[0] ? dir : "/", dir_real, sizeof dir_real, err);
    if (r == KILN_OK) r = kiln_path_join(dir_real, kiln_path_basename(abs), real, sizeof real, err);
    if (r != KILN_OK) return r;
    const kiln_asset_root *root = kiln_roots_holding(p, real);
    if (!root || !strcmp(root->dir, real)) {
        char roots[KILN_PATH_MAX];
        kiln_roots_describe(p, roots, sizeof roots);
        kiln_error_set(err, KILN_E_ASSET_IO, "%s is not inside %s", path, roots);
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    r = kiln_path_confine_read(real, root->dir, NULL, 0, err);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "%s: ", path);
        return r;
    }
    if (!kiln_source_kind_of(p->kinds, real)) {
        char exts[256];
        kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "%s: not a kind of source kiln imports (%s)",
                       path, kiln_source_kind_extension_list(p->kinds, exts, sizeof exts));
        kiln_error_at_path(err, path);
        return KILN_E_IMPORT_UNSUPPORTED;
    }
    int64_t clock = kiln_time_now_ns();
    kiln_file_info info;
    bool stated = kiln_file_stat(real, &info, NULL) == KILN_OK;
    r = asset_init(p, NULL, META_LOOK, real, out, err);
    if (r == KILN_OK && stated) {
        out->source_stat = info;
        out->stat_clock_ns = clock;
        out->has_source_stat = true;
    }
    return r;
}

json_t *kiln_asset_settings_json(const kiln_asset *a)
{
    return a->kind ? a->kind->settings_json(a) : json_object();
}

kiln_result kiln_key_compute(const kiln_asset *a, const uint8_t source_sha[KILN_SHA256_SIZE],
                             const uint8_t *deps_sha, char key_hex[KILN_SHA256_HEX_SIZE],
                             kiln_error *err)
{
    json_t *settings = kiln_asset_settings_json(a);
    char *canon = settings ? kiln_json_dump_canonical(settings) : NULL;
    json_decref(settings);
    if (!canon) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory computing a key");
    char src_hex[KILN_SHA256_HEX_SIZE], head[128];
    kiln_hex(source_sha, KILN_SHA256_SIZE, src_hex);
    int hn = snprintf(head, sizeof head, "kiln-key\npipeline %d\nkind %s\nsettings ",
                      KILN_PIPELINE_VERSION, kiln_source_kind_name(a->kind));
    kiln_sha256 h;
    kiln_result r = kiln_sha256_init(&h, err);
    if (r == KILN_OK) {
        kiln_sha256_update(&h, head, (size_t)hn);
        kiln_sha256_update(&h, canon, strlen(canon));
        /* Format auto resolves by platform: the resolution must be in the key, or a mobile
         * import would find the desktop entry. Other settings keys are unchanged by it. */
        bool auto_format = a->kind && a->kind->target_dependent && a->kind->target_dependent(a);
        if (auto_format && a->prefers_astc) kiln_sha256_update(&h, "\ntarget astc", 12);
        kiln_sha256_update(&h, "\nsource ", 8);
        kiln_sha256_update(&h, src_hex, 64);
        kiln_sha256_update(&h, "\n", 1);
        if (a->kind && a->kind->key_has_guid) {
            /* Artifacts named by asset ids made from the GUID (models): two copies of one
             * source must not share an entry whose bytes name the other's ids. */
            kiln_sha256_update(&h, "guid ", 5);
            kiln_sha256_update(&h, a->guid, strlen(a->guid));
            kiln_sha256_update(&h, "\n", 1);
        }
        if (deps_sha) { /* kinds with dependencies: the files the source reads */
            char deps_hex[KILN_SHA256_HEX_SIZE];
            kiln_hex(deps_sha, KILN_SHA256_SIZE, deps_hex);
            kiln_sha256_update(&h, "deps ", 5);
            kiln_sha256_update(&h, deps_hex, 64);
            kiln_sha256_update(&h, "\n", 1);
        }
        if (a->kind && a->kind->tools) { /* a compiler's version: a new one cooks again */
            char tools[512];
            a->kind->tools(tools, sizeof tools);
            kiln_sha256_update(&h, "tools ", 6);
            kiln_sha256_update(&h, tools, strlen(tools));
            kiln_sha256_update(&h, "\n", 1);
        }
        uint8_t d[KILN_SHA256_SIZE];
        r = kiln_sha256_final(&h, d, err);
        if (r == KILN_OK) kiln_hex(d, KILN_SHA256_SIZE, key_hex);
    }
    free(canon);
    return r;
}
