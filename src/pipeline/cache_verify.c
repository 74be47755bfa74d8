/* cache_verify.c — kiln_cache_verify: every entry of the cache checked byte for byte against both
 * digests of its manifest, and every asset's record against its source's bytes; with
 * KILN_CACHE_VERIFY_REPAIR, damaged entries are removed and the assets that use them (and the
 * assets whose record lies) are cooked again. The stat shortcut and the record index trust what
 * they recorded (docs/cache.md "The stat shortcut", "The record index"): this is how to check. */
#include "pipeline/cache_verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/jobs.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/database.h"
#include "pipeline/import.h"
#include "pipeline/record_index.h"
#include "pipeline/source.h"

#define MANIFEST_MAX_SIZE (16u << 20)

static kiln_entry_state damaged(char *reason, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static kiln_entry_state damaged(char *reason, const char *fmt, ...)
{
    if (reason) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(reason, KILN_ENTRY_REASON_SIZE, fmt, ap);
        va_end(ap);
    }
    return KILN_ENTRY_DAMAGED;
}

static bool is_hex(const char *s, size_t n)
{
    if (strlen(s) != n) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

static bool is_plain_name(const char *s)
{
    return s && s[0] && s[0] != '.' && !strchr(s, '/') && !strchr(s, '\\') && strlen(s) < 128 &&
           strcmp(s, "manifest.json") != 0;
}

/* One output of a manifest against its file. */
static kiln_entry_state check_output(const char *dir, size_t index, const json_t *o, char *reason)
{
    const char *file = kiln_json_str(o, "file", NULL);
    long long size = kiln_json_int(o, "size", -1);
    const char *sha = kiln_json_str(o, "sha256", "");
    const json_t *xj = json_object_get(o, "xxh3_128");
    const char *xxh = json_is_string(xj) ? json_string_value(xj) : NULL;
    if (!is_plain_name(file))
        return damaged(reason, "manifest.json: output %zu has no plain file name", index);
    if (size < 0) return damaged(reason, "manifest.json: output %s has no size", file);
    if (!is_hex(sha, 64))
        return damaged(reason, "manifest.json: output %s has no SHA-256 of 64 hex digits", file);
    if ((xj && !xxh) || (xxh && !is_hex(xxh, 32)))
        return damaged(reason, "manifest.json: output %s has an xxh3_128 not of 32 hex digits",
                       file);
    char fp[KILN_PATH_MAX];
    kiln_path_format(fp, sizeof fp, "%s/%s", dir, file);
    struct stat st;
    if (lstat(fp, &st) != 0) return damaged(reason, "%s: missing", file);
    if (!S_ISREG(st.st_mode)) return damaged(reason, "%s: not a regular file", file);
    if ((unsigned long long)st.st_size != (unsigned long long)size)
        return damaged(reason, "%s: %lld bytes, its manifest says %lld", file,
                       (long long)st.st_size, size);
    kiln_mapped_file m;
    if (kiln_file_map(fp, SIZE_MAX, &m, NULL) != KILN_OK)
        return damaged(reason, "%s: cannot be read", file);
    uint8_t d[KILN_SHA256_SIZE], x[16];
    char hex[KILN_SHA256_HEX_SIZE], xhex[2 * sizeof x + 1];
    bool sha_ok = m.size == (size_t)size && kiln_sha256_bytes(m.data, m.size, d, NULL) == KILN_OK;
    if (sha_ok) {
        kiln_hex(d, sizeof d, hex);
        sha_ok = strcmp(hex, sha) == 0;
    }
    kiln_xxh3_128(m.data, m.size, x);
    kiln_hex(x, sizeof x, xhex);
    kiln_file_unmap(&m);
    if (!sha_ok) return damaged(reason, "%s: does not match the SHA-256 of its manifest", file);
    if (xxh && strcmp(xhex, xxh) != 0)
        return damaged(reason, "%s: does not match the XXH3-128 of its manifest", file);
    return KILN_ENTRY_WHOLE;
}

kiln_entry_state kiln_cache_entry_verify(const kiln_project *p, const char *key,
                                         char reason[KILN_ENTRY_REASON_SIZE])
{
    if (reason) reason[0] = '\0';
    char dir[KILN_PATH_MAX], path[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    struct stat st;
    if (lstat(dir, &st) != 0) return KILN_ENTRY_ABSENT;
    if (!S_ISDIR(st.st_mode)) return damaged(reason, "the entry is not a folder");
    kiln_path_format(path, sizeof path, "%s/manifest.json", dir);
    if (lstat(path, &st) != 0) return damaged(reason, "manifest.json: missing");
    if (!S_ISREG(st.st_mode)) return damaged(reason, "manifest.json: not a regular file");
    kiln_error e;
    json_t *m = kiln_json_load_file(path, MANIFEST_MAX_SIZE, KILN_E_CACHE_CORRUPT, &e);
    if (!m) {
        /* the message names the file itself; the reason names it once */
        const char *msg = e.message;
        size_t n = strlen(path);
        if (!strncmp(msg, path, n) && msg[n] == ':') msg += n + 1;
        while (*msg == ' ') msg++;
        return damaged(reason, "manifest.json: %s", msg[0] ? msg : "cannot be read");
    }
    kiln_entry_state s = KILN_ENTRY_WHOLE;
    long long version = kiln_json_int(m, "kiln_manifest", -1);
    const char *mkey = kiln_json_str(m, "key", NULL);
    json_t *outs = json_object_get(m, "outputs");
    if (!json_is_object(m)) s = damaged(reason, "manifest.json: not a JSON object");
    else if (version != 1) s = damaged(reason, "manifest.json: kiln_manifest %lld, not 1", version);
    else if (!mkey || strcmp(mkey, key) != 0)
        s = damaged(reason, "manifest.json: its key %.64s is not the folder's name",
                    mkey ? mkey : "(none)");
    else if (!json_is_array(outs) || json_array_size(outs) == 0)
        s = damaged(reason, "manifest.json: lists no outputs");
    size_t i;
    json_t *o;
    json_array_foreach (outs, i, o) {
        if (s != KILN_ENTRY_WHOLE) break;
        s = check_output(dir, i, o, reason);
    }
    json_decref(m);
    return s;
}

/* ---- kiln_cache_verify ------------------------------------------------------------------- */

typedef struct verify_entry {
    char key[KILN_SHA256_HEX_SIZE];
    kiln_entry_state state;
    char reason[KILN_ENTRY_REASON_SIZE];
    bool remove_failed; /* --repair could not remove it */
} verify_entry;

typedef struct verify_asset {
    char key[KILN_SHA256_HEX_SIZE]; /* the current key from the source's bytes; "" when none */
    char record_damage[KILN_ENTRY_REASON_SIZE]; /* "" unless the record's digests lie */
    bool recook;
} verify_asset;

typedef struct verify_run {
    kiln_project *p;
    verify_entry *entries;
    size_t entry_count, entry_cap;
    kiln_asset *assets;
    verify_asset *va;
} verify_run;

static bool is_shard_name(const char *s) { return is_hex(s, 2); }

/* Every folder name under objects/<xx>/ that is a key of that shard. */
static kiln_result list_entries(verify_run *v, kiln_error *err)
{
    kiln_project *p = v->p;
    char objects[KILN_PATH_MAX];
    kiln_path_format(objects, sizeof objects, "%s/objects", p->cache);
    kiln_dir_list shards;
    if (kiln_dir_list_read(objects, &p->allocator, &shards, NULL) != KILN_OK) return KILN_OK;
    kiln_result r = KILN_OK;
    for (size_t s = 0; r == KILN_OK && s < shards.count; s++) {
        if (!is_shard_name(shards.names[s])) continue;
        char shard[KILN_PATH_MAX];
        kiln_path_format(shard, sizeof shard, "%s/%s", objects, shards.names[s]);
        kiln_dir_list l;
        if (kiln_dir_list_read(shard, &p->allocator, &l, NULL) != KILN_OK) continue;
        for (size_t i = 0; i < l.count; i++) {
            const char *name = l.names[i];
            if (!is_hex(name, 64) || strncmp(name, shards.names[s], 2) != 0) continue;
            if (v->entry_count == v->entry_cap) {
                size_t cap = v->entry_cap ? v->entry_cap * 2 : 64;
                void *q = kiln_realloc(&p->allocator, v->entries, v->entry_cap * sizeof *v->entries,
                                       cap * sizeof *v->entries);
                if (!q) {
                    r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
                    break;
                }
                v->entries = q;
                v->entry_cap = cap;
            }
            verify_entry *e = &v->entries[v->entry_count++];
            memset(e, 0, sizeof *e);
            memcpy(e->key, name, 64);
        }
        kiln_dir_list_free(&l);
    }
    kiln_dir_list_free(&shards);
    return r;
}

static kiln_result entry_job(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker;
    (void)err;
    verify_run *v = user;
    verify_entry *e = &v->entries[index];
    e->state = kiln_cache_entry_verify(v->p, e->key, e->reason);
    return KILN_OK;
}

/* The asset's key from its bytes (no record: no shortcut for the source or its dependencies),
 * and whether the key the record's digests give (what import and report use while the stat
 * holds) is another. */
static kiln_result asset_job(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker;
    (void)err;
    verify_run *v = user;
    kiln_project *p = v->p;
    kiln_asset *a = &v->assets[index];
    verify_asset *va = &v->va[index];
    if (!a->kind || a->settings_result != KILN_OK) return KILN_OK;
    kiln_source src = {0}, rsrc = {0};
    kiln_deps deps = {0}, rdeps = {0};
    kiln_error e;
    char key[KILN_SHA256_HEX_SIZE];
    if (kiln_asset_key(p, a, NULL, true, &src, &deps, key, &e) == KILN_OK)
        memcpy(va->key, key, sizeof key);
    json_t *record = kiln_cache_record_load(p, a->guid);
    if (va->key[0] && record &&
        kiln_asset_key(p, a, record, false, &rsrc, &rdeps, key, &e) == KILN_OK &&
        strcmp(key, va->key) != 0) {
        char now[KILN_SHA256_HEX_SIZE], then[KILN_SHA256_HEX_SIZE];
        kiln_hex(src.sha, KILN_SHA256_SIZE, now);
        kiln_hex(rsrc.sha, KILN_SHA256_SIZE, then);
        if (strcmp(now, then) != 0)
            snprintf(va->record_damage, sizeof va->record_damage,
                     "its record's source digest %s is not its bytes' %s (size and times "
                     "unchanged)",
                     then, now);
        else
            snprintf(va->record_damage, sizeof va->record_damage,
                     "its record's digest of a dependency is not the digest of that file's "
                     "bytes (size and times unchanged)");
    }
    kiln_source_free(p, &rsrc);
    kiln_deps_free(&rdeps);
    kiln_source_free(p, &src);
    kiln_deps_free(&deps);
    json_decref(record);
    return KILN_OK;
}

static int by_key(const void *x, const void *y)
{
    return strcmp(((const verify_entry *)x)->key, ((const verify_entry *)y)->key);
}

static verify_entry *find_entry(verify_run *v, const char *key)
{
    verify_entry probe;
    memcpy(probe.key, key, sizeof probe.key);
    return bsearch(&probe, v->entries, v->entry_count, sizeof *v->entries, by_key);
}

KILN_API kiln_result kiln_cache_verify(kiln_project *p, uint32_t flags, char **result_json,
                                       kiln_error *err)
{
    *result_json = NULL;
    bool repair = (flags & KILN_CACHE_VERIFY_REPAIR) != 0;
    verify_run v;
    memset(&v, 0, sizeof v);
    v.p = p;
    size_t n = 0;
    json_t *damaged_list = json_array(), *cooked = json_array();
    kiln_result r = list_entries(&v, err);
    if (r == KILN_OK) r = kiln_jobs_for(p->jobs, v.entry_count, entry_job, &v, err);
    if (r == KILN_OK) r = kiln_database_scan(p, &v.assets, &n, err);
    if (r != KILN_OK) goto out;
    v.va = kiln_calloc(&p->allocator, n ? n : 1, sizeof *v.va);
    if (!v.va) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        goto out;
    }
    r = kiln_jobs_for(p->jobs, n, asset_job, &v, err);
    if (r != KILN_OK) goto out;
    qsort(v.entries, v.entry_count, sizeof *v.entries, by_key);

    /* Which assets are cooked again: those whose current key names a damaged entry, and those
     * whose record lies about their source. */
    size_t damaged_entries = 0, damaged_records = 0, recook = 0;
    for (size_t i = 0; i < v.entry_count; i++)
        damaged_entries += v.entries[i].state == KILN_ENTRY_DAMAGED;
    for (size_t i = 0; i < n; i++) {
        verify_entry *e = v.va[i].key[0] ? find_entry(&v, v.va[i].key) : NULL;
        v.va[i].recook = (e && e->state == KILN_ENTRY_DAMAGED) || v.va[i].record_damage[0];
        damaged_records += v.va[i].record_damage[0] != 0;
        recook += v.va[i].recook;
    }
    json_t *results = NULL; /* per asset cooked again: its import record */
    size_t failed = 0;
    if (repair && (damaged_entries || damaged_records)) {
        /* an index row vouches for an entry without opening it: it goes first (as in gc) */
        kiln_cache_index_remove_all(p);
        for (size_t i = 0; i < v.entry_count; i++) {
            verify_entry *e = &v.entries[i];
            kiln_error de;
            if (e->state == KILN_ENTRY_DAMAGED &&
                kiln_cache_entry_discard(p, e->key, &de) != KILN_OK)
                e->remove_failed = true;
        }
        /* the assets to cook again at the front (kiln_assets_free frees all in any order) */
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!v.va[i].recook) continue;
            kiln_asset ta = v.assets[k];
            verify_asset tv = v.va[k];
            v.assets[k] = v.assets[i];
            v.va[k] = v.va[i];
            v.assets[i] = ta;
            v.va[i] = tv;
            k++;
        }
        json_t *doc = NULL;
        kiln_error ie;
        /* forced: no index, the sources read, records rewritten from the bytes */
        if (k) (void)kiln_import_assets(p, v.assets, k, KILN_IMPORT_FORCE, &doc, &ie);
        if (k && !doc) {
            *err = ie;
            r = ie.code;
            goto out;
        }
        results = json_incref(json_object_get(doc, "records"));
        json_decref(doc);
    }
    /* the document */
    size_t repaired = 0, unrepaired = 0;
    for (size_t i = 0; i < v.entry_count; i++) {
        verify_entry *e = &v.entries[i];
        if (e->state != KILN_ENTRY_DAMAGED) continue;
        json_t *assets = json_array();
        bool ok = repair && !e->remove_failed;
        for (size_t a = 0; a < n; a++) {
            if (strcmp(v.va[a].key, e->key) != 0) continue;
            json_array_append_new(assets, json_string(v.assets[a].rel));
            /* recook: at the front, where results[a] is its import */
            const json_t *res = repair && v.va[a].recook ? json_array_get(results, a) : NULL;
            if (repair && strcmp(kiln_json_str(res, "status", "failed"), "imported") != 0)
                ok = false;
        }
        char dir[KILN_PATH_MAX];
        kiln_cache_entry_dir(p, e->key, dir);
        json_t *d = json_object();
        json_object_set_new(d, "what", json_string("entry"));
        json_object_set_new(d, "key", json_string(e->key));
        json_object_set_new(d, "path", json_string(dir));
        json_object_set_new(d, "reason", json_string(e->reason));
        json_object_set_new(d, "assets", assets);
        json_object_set_new(d, "repaired", json_boolean(ok));
        json_array_append_new(damaged_list, d);
        if (ok) repaired++;
        else unrepaired++;
    }
    for (size_t a = 0; a < n; a++) {
        if (!v.va[a].record_damage[0]) continue;
        const json_t *res = repair ? json_array_get(results, a) : NULL;
        bool ok = repair && strcmp(kiln_json_str(res, "status", "failed"), "failed") != 0;
        json_t *d = json_object();
        json_object_set_new(d, "what", json_string("record"));
        json_object_set_new(d, "asset", json_string(v.assets[a].rel));
        json_object_set_new(d, "guid", json_string(v.assets[a].guid));
        json_object_set_new(d, "reason", json_string(v.va[a].record_damage));
        json_object_set_new(d, "repaired", json_boolean(ok));
        json_array_append_new(damaged_list, d);
        if (ok) repaired++;
        else unrepaired++;
    }
    for (size_t a = 0; repair && a < n; a++) {
        if (!v.va[a].recook) continue;
        const json_t *res = json_array_get(results, a);
        json_t *c = json_object();
        json_object_set_new(c, "path", json_string(v.assets[a].rel));
        json_object_set_new(c, "status", json_string(kiln_json_str(res, "status", "failed")));
        if (json_object_get(res, "key")) json_object_set(c, "key", json_object_get(res, "key"));
        if (json_object_get(res, "error"))
            json_object_set(c, "error", json_object_get(res, "error"));
        if (strcmp(kiln_json_str(res, "status", "failed"), "failed") == 0) failed++;
        json_array_append_new(cooked, c);
    }
    json_decref(results);
    json_t *totals = json_object();
    json_object_set_new(totals, "entries", json_integer((json_int_t)v.entry_count));
    json_object_set_new(totals, "damaged_entries", json_integer((json_int_t)damaged_entries));
    json_object_set_new(totals, "damaged_records", json_integer((json_int_t)damaged_records));
    json_object_set_new(totals, "repaired", json_integer((json_int_t)repaired));
    json_object_set_new(totals, "unrepaired", json_integer((json_int_t)unrepaired));
    json_object_set_new(totals, "cooked", json_integer((json_int_t)(repair ? recook : 0)));
    json_object_set_new(totals, "failed", json_integer((json_int_t)failed));
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("cache verify"));
    kiln_roots_json_set(p, doc);
    json_object_set_new(doc, "cache", json_string(p->cache));
    json_object_set_new(doc, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    json_object_set_new(doc, "repair", json_boolean(repair));
    json_object_set_new(doc, "damaged", damaged_list);
    json_object_set_new(doc, "cooked", cooked);
    json_object_set_new(doc, "totals", totals);
    damaged_list = cooked = NULL;
    *result_json = kiln_project_take_json(doc);
out:
    json_decref(damaged_list);
    json_decref(cooked);
    kiln_free(&p->allocator, v.entries, v.entry_cap * sizeof *v.entries);
    kiln_free(&p->allocator, v.va, (n ? n : 1) * sizeof *v.va);
    if (v.assets) kiln_assets_free(p, v.assets, n);
    return r;
}
