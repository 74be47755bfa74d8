/* deps.c — the dependency digest of a source whose kind reads other files (a model's buffers,
 * images, .mtl files; a shader's includes): each file the kind's `dependencies` lists, hashed (or
 * taken from the record when its stat still matches), combined into one SHA-256 that enters the
 * cache key. Paths are relative to the source's folder (or, for kinds with deps_from_root, to
 * its asset root), so the key is the same in any checkout. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/database.h"
#include "pipeline/roots.h"
#include "pipeline/source.h"

typedef struct deps_walk {
    kiln_project *p;
    const kiln_asset *a;
    char dir[KILN_PATH_MAX];  /* the source's folder, real path */
    char root[KILN_PATH_MAX]; /* the asset root holding it, real path ("" until needed) */
    const json_t *old;        /* the record's list, or NULL */
    kiln_deps *out;
    kiln_sha256 h;
} deps_walk;

/* The recorded stat of a dependency path, if the record has one. */
static const json_t *recorded(const json_t *list, const char *rel)
{
    size_t i;
    json_t *e;
    json_array_foreach (list, i, e) {
        if (strcmp(kiln_json_str(e, "path", ""), rel) == 0) return json_object_get(e, "stat");
    }
    return NULL;
}

/* A dependency that is a source of the project (deps_are_assets): "key <key> guid <guid>" for
 * it, or "missing". Its key comes from its own record and stat shortcut like any key. */
static kiln_result asset_digest(deps_walk *w, const char *rel, const char *abs, const char *base,
                                char *out, size_t cap, kiln_error *err)
{
    snprintf(out, cap, "missing");
    kiln_file_info fi;
    if (kiln_file_stat(abs, &fi, NULL) != KILN_OK || !fi.is_file ||
        kiln_path_confine_read(abs, base, NULL, 0, NULL) != KILN_OK)
        return KILN_OK;
    kiln_asset dep;
    kiln_result r = kiln_database_find(w->p, abs, &dep, err);
    if (r == KILN_OK && dep.settings_result != KILN_OK) {
        r = kiln_asset_settings_error(&dep)->code;
        if (err) *err = *kiln_asset_settings_error(&dep);
    }
    if (r == KILN_OK) {
        json_t *record = kiln_cache_record_load(w->p, dep.guid);
        kiln_source src;
        kiln_deps deps;
        char key[KILN_SHA256_HEX_SIZE];
        r = kiln_asset_key(w->p, &dep, record, false, &src, &deps, key, err);
        if (r == KILN_OK) {
            snprintf(out, cap, "key %s guid %s", key, dep.guid);
            if (src.read || deps.read) w->out->read = true;
        }
        kiln_source_free(w->p, &src);
        kiln_deps_free(&deps);
        json_decref(record);
    }
    kiln_asset_clear(w->p, &dep);
    if (r != KILN_OK) kiln_error_prefix(err, "%s: ", rel);
    return r;
}

static kiln_result root_of(kiln_project *p, const kiln_asset *a, char out[KILN_PATH_MAX],
                           kiln_error *err);

/* One dependency given by its path relative to the model's folder (the root's with
 * deps_from_root), or "/<path>" relative to the asset root: a source of the project that a kind's
 * asset_dependencies lists (a model's material template). */
/* A folder as a dependency (a .ktex's "slices": "ct/"): the SHA-256 of its sorted listing, one
 * name and a newline each, so an added, removed or renamed file changes it (the files a kind
 * reads from it are dependencies of their own). Its stat (mtime moves with the listing) spares
 * the listing on a no-op scan, as a file's spares its bytes. */
static kiln_result listing_sha(const char *abs, uint8_t sha[KILN_SHA256_SIZE], kiln_error *err)
{
    kiln_dir_list l;
    kiln_result r = kiln_dir_list_read(abs, NULL, &l, err);
    if (r != KILN_OK) return r;
    kiln_sha256 h;
    r = kiln_sha256_init(&h, err);
    for (size_t i = 0; r == KILN_OK && i < l.count; i++) {
        kiln_sha256_update(&h, l.names[i], strlen(l.names[i]));
        kiln_sha256_update(&h, "\n", 1);
    }
    if (r == KILN_OK) r = kiln_sha256_final(&h, sha, err);
    kiln_dir_list_free(&l);
    return r;
}

static kiln_result add_dep(deps_walk *w, const char *rel, kiln_error *err)
{
    bool rooted = rel[0] == '/';
    if (rooted && !w->root[0]) {
        kiln_result r = root_of(w->p, w->a, w->root, err);
        if (r != KILN_OK) return r;
    }
    const char *base = rooted ? w->root : w->dir;
    char abs[KILN_PATH_MAX];
    if (kiln_path_join(base, rooted ? rel + 1 : rel, abs, sizeof abs, NULL) != KILN_OK)
        return kiln_error_set(err, KILN_E_LIMIT, "%s: dependency path too long", w->a->rel);
    /* Paths from a record are ours, but a record is a file anyone can edit. */
    if (!kiln_path_is_within(base, abs))
        return kiln_error_set(err, KILN_E_OUTPUT_REFUSED, "dependency %s leads outside %s", rel,
                              base);
    if (rooted || (w->a->kind && w->a->kind->deps_are_assets)) {
        char digest[160];
        kiln_result r = asset_digest(w, rel, abs, base, digest, sizeof digest, err);
        if (r != KILN_OK) return r;
        kiln_sha256_update(&w->h, rel, strlen(rel));
        kiln_sha256_update(&w->h, "\n", 1);
        kiln_sha256_update(&w->h, digest, strlen(digest));
        kiln_sha256_update(&w->h, "\n", 1);
        json_t *e = json_object(), *d = json_object();
        json_object_set_new(e, "path", json_string(rel));
        /* The key and GUID, no stat: the key is recomputed every time, never trusted from the
         * record; the record index holds such a row only while each source's own row holds with
         * this key and GUID (record_index.c); report --why compares the keys. */
        json_t *key = strncmp(digest, "key ", 4) ? NULL : json_object();
        if (key) {
            json_object_set_new(key, "sha256", json_stringn(digest + 4, 64));
            /* "key <64 hex> guid <guid>" */
            json_object_set_new(key, "guid", json_string(digest + 4 + 64 + 6));
        }
        json_object_set_new(e, "stat", key ? key : json_null());
        json_array_append_new(w->out->list, e);
        json_object_set_new(d, "path", json_string(rel));
        /* what report --why compares: the source's key (its bytes, settings, own files) */
        json_object_set_new(
            d, "sha256", strncmp(digest, "key ", 4) ? json_null() : json_stringn(digest + 4, 64));
        json_array_append_new(w->out->digests, d);
        w->out->count++;
        return KILN_OK;
    }
    kiln_file_info fi;
    uint8_t sha[KILN_SHA256_SIZE];
    json_t *stat = NULL;
    /* The read rule: a file whose real path leaves the model's folder (a symlink out of it) is
     * not read, as the import does not read it either; it counts as missing. */
    bool present = kiln_file_stat(abs, &fi, NULL) == KILN_OK && (fi.is_file || fi.is_dir) &&
                   kiln_path_confine_read(abs, w->dir, NULL, 0, NULL) == KILN_OK;
    if (present && !kiln_stat_matches(recorded(w->old, rel), &fi, sha)) {
        int64_t checked = kiln_time_now_ns();
        uint64_t size;
        kiln_result r =
            fi.is_dir ? listing_sha(abs, sha, err) : kiln_sha256_file(abs, sha, &size, err);
        if (r != KILN_OK) return r;
        w->out->read = true;
        kiln_file_info after;
        bool stable = kiln_file_stat(abs, &after, NULL) == KILN_OK && after.size == fi.size &&
                      after.mtime_ns == fi.mtime_ns && after.ino == fi.ino;
        stat = kiln_stat_json(&fi, sha, stable ? checked : 0);
    } else if (present) {
        stat = json_deep_copy(recorded(w->old, rel));
    }
    char hex[KILN_SHA256_HEX_SIZE];
    if (present) kiln_hex(sha, KILN_SHA256_SIZE, hex);
    kiln_sha256_update(&w->h, rel, strlen(rel));
    kiln_sha256_update(&w->h, "\n", 1);
    kiln_sha256_update(&w->h, present ? hex : "missing", present ? 64 : 7);
    kiln_sha256_update(&w->h, "\n", 1);
    json_t *e = json_object();
    json_object_set_new(e, "path", json_string(rel));
    json_object_set_new(e, "stat", stat ? stat : json_null());
    json_array_append_new(w->out->list, e);
    json_t *d = json_object();
    json_object_set_new(d, "path", json_string(rel));
    json_object_set_new(d, "sha256", present ? json_string(hex) : json_null());
    json_array_append_new(w->out->digests, d);
    w->out->count++;
    return KILN_OK;
}

/* The real path of the asset root holding a. */
static kiln_result root_of(kiln_project *p, const kiln_asset *a, char out[KILN_PATH_MAX],
                           kiln_error *err)
{
    const kiln_asset_root *root = kiln_roots_holding(p, a->abs);
    if (!root) return kiln_error_set(err, KILN_E_ASSET_IO, "%s: outside every asset root", a->rel);
    if (!realpath(root->dir, out))
        return kiln_error_set(err, KILN_E_ASSET_IO, "%s: cannot resolve its asset root", a->rel);
    return KILN_OK;
}

/* The real path of the folder a's dependency paths are relative to: its own folder, or the asset
 * root holding it for kinds with deps_from_root. */
static kiln_result deps_base(kiln_project *p, const kiln_asset *a, char out[KILN_PATH_MAX],
                             kiln_error *err)
{
    char folder[KILN_PATH_MAX];
    if (a->kind && a->kind->deps_from_root) {
        return root_of(p, a, out, err);
    } else if (!kiln_path_dirname(a->abs, folder, sizeof folder)) {
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", a->rel);
    }
    if (!realpath(folder, out))
        return kiln_error_set(err, KILN_E_ASSET_IO, "%s: cannot resolve its folder", a->rel);
    return KILN_OK;
}

/* A source of the project that asset_dependencies lists: recorded as "/<root-relative>". */
static kiln_result on_asset_dep(void *user, const char *path, kiln_error *err)
{
    deps_walk *w = user;
    size_t n = strlen(w->root);
    if (KILN_NEVER(strncmp(path, w->root, n) != 0 || path[n] != '/'))
        return kiln_error_set(err, KILN_E_INTERNAL, "%s: dependency outside its root", path);
    return add_dep(w, path + n, err);
}

static kiln_result on_dep(void *user, const char *path, kiln_error *err)
{
    deps_walk *w = user;
    /* kiln_gltf_dependencies confined the path to the folder: it starts with dir + '/'. */
    size_t n = strlen(w->dir);
    if (KILN_NEVER(strncmp(path, w->dir, n) != 0 || path[n] != '/'))
        return kiln_error_set(err, KILN_E_INTERNAL, "%s: dependency outside its folder", path);
    return add_dep(w, path + n + 1, err);
}

kiln_result kiln_deps_digest(kiln_project *p, const kiln_asset *a, const uint8_t *source,
                             size_t size, const json_t *record, kiln_deps *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (source && (!a->kind || !a->kind->dependencies))
        return kiln_error_set(err, KILN_E_USAGE, "%s: its kind reads no other files", a->rel);
    const json_t *old = json_object_get(record, "deps");
    if (!source && !json_is_array(old))
        return kiln_error_set(err, KILN_E_USAGE, "%s: no recorded dependencies", a->rel);
    deps_walk w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.a = a;
    w.old = json_is_array(old) ? old : NULL;
    w.out = out;
    /* The folder with symlinks resolved, as kiln_uri_resolve_file reports paths. */
    kiln_result r = deps_base(p, a, w.dir, err);
    if (r != KILN_OK) return r;
    out->list = json_array();
    out->digests = json_array();
    r = kiln_sha256_init(&w.h, err);
    if (r != KILN_OK) return r;
    if (source) {
        r = a->kind->dependencies(a, source, size, w.dir, on_dep, &w, err);
    } else {
        size_t i;
        json_t *e;
        json_array_foreach (old, i, e) {
            /* the sources asset_dependencies lists follow from the settings: listed anew below */
            const char *rel = kiln_json_str(e, "path", "");
            if (rel[0] == '/' && a->kind->asset_dependencies) continue;
            if ((r = add_dep(&w, rel, err)) != KILN_OK) break;
        }
    }
    if (r == KILN_OK && a->kind->asset_dependencies) {
        if (!w.root[0]) r = root_of(p, a, w.root, err);
        if (r == KILN_OK) r = a->kind->asset_dependencies(a, w.root, on_asset_dep, &w, err);
    }
    if (r != KILN_OK) {
        kiln_sha256_abort(&w.h);
        kiln_deps_free(out);
        /* a compiler's message starts with the file's name already */
        size_t n = strlen(a->rel);
        if (err && (strncmp(err->message, a->rel, n) != 0 || err->message[n] != ':'))
            kiln_error_prefix(err, "%s: ", a->rel);
        return r;
    }
    return kiln_sha256_final(&w.h, out->sha, err);
}

void kiln_deps_free(kiln_deps *d)
{
    json_decref(d->list);
    json_decref(d->digests);
    memset(d, 0, sizeof *d);
}

static json_t *recorded_paths(kiln_project *p, const kiln_asset *a, bool sources_only)
{
    json_t *out = json_array();
    if (!a->kind || !a->kind->dependencies) return out;
    json_t *record = kiln_cache_record_load(p, a->guid);
    char dir[KILN_PATH_MAX], root[KILN_PATH_MAX] = "";
    if (record && deps_base(p, a, dir, NULL) == KILN_OK) {
        size_t i;
        json_t *e;
        json_array_foreach (json_object_get(record, "deps"), i, e) {
            const char *rel = kiln_json_str(e, "path", "");
            bool rooted = rel[0] == '/';
            if (sources_only && !rooted && !a->kind->deps_are_assets) continue;
            if (rooted && !root[0] && root_of(p, a, root, NULL) != KILN_OK) continue;
            const char *base = rooted ? root : dir;
            char abs[KILN_PATH_MAX];
            if (kiln_path_join(base, rooted ? rel + 1 : rel, abs, sizeof abs, NULL) == KILN_OK &&
                kiln_path_is_within(base, abs))
                json_array_append_new(out, json_string(abs));
        }
    }
    json_decref(record);
    return out;
}

json_t *kiln_deps_recorded_paths(kiln_project *p, const kiln_asset *a)
{
    return recorded_paths(p, a, false);
}

json_t *kiln_deps_recorded_sources(kiln_project *p, const kiln_asset *a)
{
    return recorded_paths(p, a, true);
}

kiln_result kiln_asset_key(kiln_project *p, const kiln_asset *a, const json_t *record,
                           bool need_bytes, kiln_source *src, kiln_deps *deps,
                           char key[KILN_SHA256_HEX_SIZE], kiln_error *err)
{
    memset(deps, 0, sizeof *deps);
    kiln_result r = kiln_source_digest(p, a, record, need_bytes, src, err);
    if (r != KILN_OK) return r;
    if (!a->kind || !a->kind->dependencies) return kiln_key_compute(a, src->sha, NULL, key, err);
    if (!src->read && !json_is_array(json_object_get(record, "deps"))) {
        kiln_source_free(p, src);
        if ((r = kiln_source_digest(p, a, NULL, true, src, err)) != KILN_OK) return r;
    }
    r = kiln_deps_digest(p, a, src->read ? src->data : NULL, src->size, record, deps, err);
    if (r == KILN_OK) r = kiln_key_compute(a, src->sha, deps->sha, key, err);
    return r;
}
