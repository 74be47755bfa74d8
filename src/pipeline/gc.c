/* gc.c — cache garbage collection: entries no asset record points to go first, then the least
 * recently used (folder mtime, refreshed on every cache hit) until the cache fits the limit.
 * Leftover temporary folders of crashed imports older than an hour go too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/database.h"
#include "pipeline/record_index.h"
#include "pipeline/source.h"

#define TMP_MAX_AGE_NS (3600LL * 1000000000LL)

typedef struct gc_entry {
    char key[65];
    char dir[KILN_PATH_MAX];
    int64_t used_ns;
    uint64_t size;
    bool referenced;
} gc_entry;

static uint64_t dir_size(const char *dir)
{
    kiln_dir_list l;
    uint64_t total = 0;
    if (kiln_dir_list_read(dir, NULL, &l, NULL) != KILN_OK) return 0;
    for (size_t i = 0; i < l.count; i++) {
        char p[KILN_PATH_MAX];
        kiln_path_format(p, sizeof p, "%s/%s", dir, l.names[i]);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) total += (uint64_t)st.st_size;
    }
    kiln_dir_list_free(&l);
    return total;
}

/* Does the record still describe an asset under the root: its source exists and has the same
 * GUID (from its .meta, or derived from its path)? Unreadable records are not live. */
static bool record_is_live(kiln_project *p, const char *guid, const json_t *rec)
{
    const char *rel = kiln_json_str(rec, "path", NULL);
    if (!rel || !kiln_path_is_safe_relative(rel)) return false;
    char abs[KILN_PATH_MAX];
    if (!kiln_roots_file_of(p, rel, abs, sizeof abs)) return false;
    kiln_asset *a = kiln_calloc(&p->allocator, 1, sizeof *a);
    if (!a) return true; /* out of memory: keep, never drop on doubt */
    bool live = kiln_database_find(p, abs, a, NULL) == KILN_OK && !strcmp(a->guid, guid);
    kiln_asset_clear(p, a);
    kiln_free(&p->allocator, a, sizeof *a);
    return live;
}

/* The records in one records folder: the keys of live ones into referenced, the others into
 * dead (their path -> their key). */
static void collect_records(kiln_project *p, const char *dir, json_t *referenced, json_t *dead,
                            size_t *live)
{
    kiln_dir_list recs;
    if (kiln_dir_list_read(dir, NULL, &recs, NULL) != KILN_OK) return;
    for (size_t i = 0; i < recs.count; i++) {
        const char *name = recs.names[i];
        size_t len = strlen(name);
        if (len < 6 || strcmp(name + len - 5, ".json") != 0) continue;
        char guid[64], path[KILN_PATH_MAX];
        kiln_path_format(guid, sizeof guid, "%.*s", (int)(len - 5), name);
        kiln_path_format(path, sizeof path, "%s/%s", dir, name);
        json_t *rec = kiln_json_load_file(path, 1u << 20, KILN_E_CACHE_CORRUPT, NULL);
        const char *k = kiln_json_str(rec, "key", NULL);
        if (record_is_live(p, guid, rec)) {
            (*live)++;
            if (k) json_object_set_new(referenced, k, json_true());
            /* a failed import's record keeps the entry the runtime still loads */
            const char *good = kiln_json_str(rec, "last_good_key", NULL);
            if (good) json_object_set_new(referenced, good, json_true());
        } else {
            /* The asset is gone, or is another asset now: its record points at nothing. */
            json_object_set_new(dead, path, json_string(k ? k : ""));
        }
        json_decref(rec);
    }
    kiln_dir_list_free(&recs);
}

/* The record indexes go before gc removes the first entry or record (they are rebuilt by the next
 * import): a row says its entry is whole without looking. */
static void drop_indexes(kiln_project *p, bool *kept)
{
    if (*kept) kiln_cache_index_remove_all(p);
    *kept = false;
}

static int by_age(const void *x, const void *y)
{
    const gc_entry *a = x, *b = y;
    if (a->referenced != b->referenced) return a->referenced ? 1 : -1;
    if (a->used_ns != b->used_ns) return a->used_ns < b->used_ns ? -1 : 1;
    return strcmp(a->key, b->key);
}

static bool is_key(const char *s)
{
    if (strlen(s) != 64) return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))) return false;
    return true;
}

KILN_API kiln_result kiln_cache_gc(kiln_project *p, uint64_t max_size, char **result_json,
                                   kiln_error *err)
{
    *result_json = NULL;
    kiln_result r = kiln_cache_prepare(p, err);
    if (r != KILN_OK) return r;
    char dir[KILN_PATH_MAX];

    /* Every entry, listed before the references are read: an import writes its record before
     * it publishes its entry, so any entry seen here has its record visible below, and a
     * concurrent import never loses a fresh entry to gc. */
    gc_entry *entries = NULL;
    size_t n = 0, cap = 0;
    kiln_path_format(dir, sizeof dir, "%s/objects", p->cache);
    kiln_dir_list shards;
    if (kiln_dir_list_read(dir, NULL, &shards, NULL) == KILN_OK) {
        for (size_t s = 0; s < shards.count; s++) {
            char sd[KILN_PATH_MAX];
            kiln_path_format(sd, sizeof sd, "%s/%s", dir, shards.names[s]);
            struct stat lst; /* never delete through a planted symlink */
            if (lstat(sd, &lst) != 0 || !S_ISDIR(lst.st_mode)) continue;
            kiln_dir_list keys;
            if (kiln_dir_list_read(sd, NULL, &keys, NULL) != KILN_OK) continue;
            for (size_t k = 0; k < keys.count; k++) {
                if (!is_key(keys.names[k])) continue;
                if (n == cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    gc_entry *ne = kiln_realloc(NULL, entries, cap * sizeof *ne, nc * sizeof *ne);
                    if (!ne) break;
                    entries = ne;
                    cap = nc;
                }
                gc_entry *e = &entries[n];
                memcpy(e->key, keys.names[k], 65);
                kiln_path_format(e->dir, sizeof e->dir, "%s/%s", sd, keys.names[k]);
                kiln_file_info fi;
                e->used_ns = kiln_file_stat(e->dir, &fi, NULL) == KILN_OK ? fi.mtime_ns : 0;
                e->size = dir_size(e->dir);
                n++;
            }
            kiln_dir_list_free(&keys);
        }
        kiln_dir_list_free(&shards);
    }
    /* Keys the asset records of every platform point to: the default platform's under
     * <cache>/assets, each named one's under <cache>/platforms/<name>/assets. */
    size_t records_removed = 0, live = 0;
    json_t *referenced = json_object(), *dead = json_object();
    bool indexes_kept = true; /* an index row names an entry as whole: it goes before any */
    kiln_path_format(dir, sizeof dir, "%s/assets", p->cache);
    collect_records(p, dir, referenced, dead, &live);
    kiln_path_format(dir, sizeof dir, "%s/platforms", p->cache);
    kiln_dir_list platforms;
    if (kiln_dir_list_read(dir, NULL, &platforms, NULL) == KILN_OK) {
        for (size_t i = 0; i < platforms.count; i++) {
            char rd[KILN_PATH_MAX];
            if (platforms.names[i][0] == '.') continue;
            kiln_path_format(rd, sizeof rd, "%s/%s/assets", dir, platforms.names[i]);
            struct stat st;
            if (lstat(rd, &st) == 0 && S_ISDIR(st.st_mode))
                collect_records(p, rd, referenced, dead, &live);
        }
        kiln_dir_list_free(&platforms);
    }
    /* The entries the assets under the root point to now, whatever the records say (an asset
     * given a new GUID by `kiln meta` is up to date on its old entry until imported again). */
    kiln_asset *assets = NULL;
    size_t asset_count = 0;
    if (kiln_database_scan(p, &assets, &asset_count, NULL) == KILN_OK) {
        for (size_t i = 0; i < asset_count; i++) {
            kiln_asset *a = &assets[i];
            if (!a->kind || a->settings_result != KILN_OK) continue;
            json_t *rec = kiln_cache_record_load(p, a->guid);
            kiln_source src;
            kiln_deps deps;
            char key[KILN_SHA256_HEX_SIZE];
            if (kiln_asset_key(p, a, rec, false, &src, &deps, key, NULL) == KILN_OK) {
                json_object_set_new(referenced, key, json_true());
                live++;
            }
            kiln_source_free(p, &src);
            kiln_deps_free(&deps);
            json_decref(rec);
        }
        kiln_assets_free(p, assets, asset_count);
    }
    /* No record matching any asset usually means the wrong --root, not a project whose every
     * asset was deleted: keep everything then, and say so. */
    bool keep_dead = live == 0 && json_object_size(dead) > 0;
    const char *dead_name;
    json_t *dead_key;
    json_object_foreach (dead, dead_name, dead_key) {
        if (keep_dead) {
            if (json_string_length(dead_key))
                json_object_set_new(referenced, json_string_value(dead_key), json_true());
        } else if (drop_indexes(p, &indexes_kept), remove(dead_name) == 0) {
            records_removed++;
        }
    }
    json_decref(dead);

    for (size_t i = 0; i < n; i++)
        entries[i].referenced = json_object_get(referenced, entries[i].key) != NULL;
    json_decref(referenced);

    json_t *removed = json_array();
    uint64_t freed = 0;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (entries[i].referenced) continue;
        drop_indexes(p, &indexes_kept);
        if (kiln_remove_tree(entries[i].dir, err) != KILN_OK) continue;
        json_t *o = json_object();
        json_object_set_new(o, "key", json_string(entries[i].key));
        json_object_set_new(o, "size", json_integer((json_int_t)entries[i].size));
        json_object_set_new(o, "reason", json_string("unreferenced"));
        json_array_append_new(removed, o);
        freed += entries[i].size;
        entries[i].size = UINT64_MAX; /* gone */
    }
    /* Temporary folders of imports that died. */
    kiln_path_format(dir, sizeof dir, "%s/tmp", p->cache);
    kiln_dir_list tmps;
    int64_t now = kiln_time_now_ns();
    if (kiln_dir_list_read(dir, NULL, &tmps, NULL) == KILN_OK) {
        for (size_t i = 0; i < tmps.count; i++) {
            char tp[KILN_PATH_MAX];
            kiln_path_format(tp, sizeof tp, "%s/%s", dir, tmps.names[i]);
            kiln_file_info fi;
            if (kiln_file_stat(tp, &fi, NULL) == KILN_OK && now - fi.mtime_ns > TMP_MAX_AGE_NS) {
                uint64_t s = dir_size(tp);
                if (kiln_remove_tree(tp, NULL) == KILN_OK) freed += s;
            }
        }
        kiln_dir_list_free(&tmps);
    }
    if (max_size > 0) {
        uint64_t total = kiln_cache_size(p);
        if (n > 1) qsort(entries, n, sizeof *entries, by_age);
        for (size_t i = 0; i < n && total > max_size; i++) {
            if (entries[i].size == UINT64_MAX) continue;
            drop_indexes(p, &indexes_kept);
            if (kiln_remove_tree(entries[i].dir, err) != KILN_OK) continue;
            json_t *o = json_object();
            json_object_set_new(o, "key", json_string(entries[i].key));
            json_object_set_new(o, "size", json_integer((json_int_t)entries[i].size));
            json_object_set_new(o, "reason", json_string("lru"));
            json_array_append_new(removed, o);
            freed += entries[i].size;
            total = total > entries[i].size ? total - entries[i].size : 0;
            entries[i].size = UINT64_MAX;
        }
    }
    for (size_t i = 0; i < n; i++) kept += entries[i].size != UINT64_MAX;
    kiln_free(NULL, entries, cap * sizeof *entries);
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("cache gc"));
    json_object_set_new(doc, "records_removed", json_integer((json_int_t)records_removed));
    json_t *warnings = json_array();
    if (keep_dead)
        json_array_append_new(warnings,
                              json_string("no asset record matches a source under the root "
                                          "(is --root right?): records kept"));
    json_object_set_new(doc, "warnings", warnings);
    json_object_set_new(doc, "removed", removed);
    json_object_set_new(doc, "freed", json_integer((json_int_t)freed));
    json_object_set_new(doc, "kept", json_integer((json_int_t)kept));
    json_object_set_new(doc, "cache_size", json_integer((json_int_t)kiln_cache_size(p)));
    json_object_set_new(doc, "max_size", json_integer((json_int_t)max_size));
    *result_json = kiln_project_take_json(doc);
    return KILN_OK;
}
