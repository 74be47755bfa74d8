/* import.c — the import of assets: settings → key → cache hit, or cook → publish → record. */
#include "pipeline/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/log.h"
#include "core/progress.h"
#include "pipeline/cache.h"
#include "pipeline/cache_size.h"
#include "pipeline/cache_verify.h"
#include "pipeline/cook.h"
#include "pipeline/record_index.h"
#include "pipeline/remote.h"
#include "pipeline/source.h"
#include "pipeline/why.h"

json_t *kiln_outputs_json(const kiln_asset *a, const json_t *manifest)
{
    json_t *list = json_array();
    size_t i;
    json_t *o;
    json_array_foreach (json_object_get(manifest, "outputs"), i, o) {
        const char *label = kiln_json_str(o, "label", "");
        char id[17], name[KILN_PATH_MAX + 64];
        snprintf(id, sizeof id, "%016llx", (unsigned long long)kiln_asset_id(a->guid, label));
        snprintf(name, sizeof name, "%s#%s", a->rel, label);
        json_t *e = json_deep_copy(o);
        json_object_set_new(e, "asset_id", json_string(id));
        json_object_set_new(e, "name", json_string(name));
        json_array_append_new(list, e);
    }
    return list;
}

static json_t *record_json(const kiln_project *p, const kiln_asset *a, const char *key,
                           const json_t *source_stat, const kiln_deps *deps,
                           const kiln_error *failure)
{
    json_t *r = json_object();
    json_object_set_new(r, "guid", json_string(a->guid));
    json_object_set_new(r, "path", json_string(a->rel));
    json_object_set_new(r, "kind", json_string(kiln_source_kind_name(a->kind)));
    json_object_set_new(r, "key", json_string(key));
    json_object_set_new(r, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    if (source_stat) json_object_set(r, "source", (json_t *)source_stat);
    if (deps && deps->list) json_object_set(r, "deps", deps->list);
    if (failure) json_object_set_new(r, "error", kiln_error_json(failure));
    kiln_record_add_why(p, a, r);
    return r;
}

/* The key of the last import of the asset that worked, from its previous record: that record's
 * key when it did not fail, else the one it carried itself. NULL when none (or it is key). */
static const char *last_good_key(const json_t *old, const char *key)
{
    const char *good = json_object_get(old, "error") ? kiln_json_str(old, "last_good_key", NULL)
                                                     : kiln_json_str(old, "key", NULL);
    return good && strlen(good) == 64 && strcmp(good, key) != 0 ? good : NULL;
}

/* Writes the record unless an equal one is there (a warm import writes nothing). */
static kiln_result write_record(kiln_project *p, const kiln_asset *a, const json_t *old,
                                json_t *rec, kiln_error *err)
{
    if (old && json_equal((json_t *)old, rec)) return KILN_OK;
    return kiln_cache_record_write(p, a->guid, rec, err);
}

/* Records the failure e of the cook under key, so report can say why without cooking and an
 * import of a kind whose failures follow from its key does not cook again (recorded_failure),
 * with the entry of the last import that worked: the runtime keeps loading it and gc keeps it
 * (a source saved half-written or broken must not take the asset away from a game). */
static void record_failure(kiln_project *p, const kiln_asset *a, const json_t *record,
                           const char *key, const kiln_source *src, const kiln_deps *deps,
                           const kiln_error *e)
{
    json_t *rec = record_json(p, a, key, src->stat, deps, e);
    const char *good = last_good_key(record, key);
    if (good) json_object_set_new(rec, "last_good_key", json_string(good));
    kiln_error werr;
    if (write_record(p, a, record, rec, &werr) != KILN_OK)
        kiln_log(&p->logger, KILN_LOG_WARNING, "%s: cannot record the failure: %s", a->rel,
                 werr.message);
    json_decref(rec);
}

/* The failure the record keeps for this very key, into *e, when a's kind's failures follow
 * from its key (source_kind.h) and it is one of the codes that say so: what the source is, not
 * what the machine did (memory, files, a limit). */
static bool recorded_failure(const kiln_asset *a, const json_t *record, const char *key,
                             kiln_error *e)
{
    const json_t *fe = json_object_get(record, "error");
    if (!a->kind->failures_follow_key || !json_is_object(fe) ||
        strcmp(kiln_json_str(record, "key", ""), key) != 0)
        return false;
    static const kiln_result final[] = {KILN_E_IMPORT_FAILED, KILN_E_IMPORT_SETTINGS,
                                        KILN_E_IMPORT_UNSUPPORTED};
    const char *code = kiln_json_str(fe, "code", "");
    kiln_result c = KILN_OK;
    for (size_t i = 0; i < sizeof final / sizeof final[0]; i++)
        if (!strcmp(code, kiln_result_name(final[i]))) c = final[i];
    if (c == KILN_OK) return false;
    kiln_error_clear(e);
    e->code = c;
    snprintf(e->message, sizeof e->message, "%s", kiln_json_str(fe, "message", ""));
    snprintf(e->path, sizeof e->path, "%s", kiln_json_str(fe, "path", ""));
    snprintf(e->json_pointer, sizeof e->json_pointer, "%s", kiln_json_str(fe, "json_pointer", ""));
    long long offset = kiln_json_int(fe, "offset", -1);
    if (offset >= 0) e->offset = (uint64_t)offset;
    return true;
}

/* What a result says of the entry under key: its folder, outputs, summary and warnings, from
 * its manifest or its record index view (the same fields); warnings: this run's, when it cooked. */
static void add_entry(kiln_project *p, json_t *res, const kiln_asset *a, const char *key,
                      const json_t *manifest, json_t *warnings)
{
    char dir[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    json_object_set_new(res, "entry", json_string(dir));
    json_object_set_new(res, "outputs", kiln_outputs_json(a, manifest));
    json_t *summary = json_object_get(manifest, "summary");
    if (summary) json_object_set(res, "summary", summary);
    json_t *w = warnings ? warnings : json_object_get(manifest, "warnings");
    if (w) json_object_set(res, "warnings", w);
    else json_object_set_new(res, "warnings", json_array());
}

kiln_result kiln_import_asset(kiln_project *p, kiln_asset *a, uint32_t flags,
                              const char *compare_key, json_t **result, kiln_error *err)
{
    json_t *res = json_object();
    *result = res;
    json_object_set_new(res, "path", json_string(a->rel));
    json_object_set_new(res, "guid", json_string(a->guid));
    json_object_set_new(res, "kind", json_string(kiln_source_kind_name(a->kind)));
    kiln_error local;
    kiln_error *e = err ? err : &local;
    kiln_error_clear(e);

    kiln_result r = KILN_OK;
    json_t *record = NULL, *manifest = NULL;
    kiln_source src = {0};
    kiln_deps deps = {0};
    kiln_cooked cooked = {0};
    char key[KILN_SHA256_HEX_SIZE] = "";
    bool force = (flags & KILN_IMPORT_FORCE) != 0;

    if (!a->kind && (flags & KILN_IMPORT_ALL)) {
        /* A file of no registered kind: not a failure of an --all run. */
        json_object_set_new(res, "status", json_string("unsupported"));
        return KILN_OK;
    }
    if (!a->kind) {
        r = kiln_error_set(e, KILN_E_IMPORT_UNSUPPORTED, "%s: not a kind kiln imports", a->rel);
        goto done;
    }
    if (a->settings_result != KILN_OK) {
        *e = *kiln_asset_settings_error(a);
        r = a->settings_result;
        goto done;
    }
    record = kiln_cache_record_load(p, a->guid);
    r = kiln_asset_key(p, a, record, force, &src, &deps, key, e);
    if (r != KILN_OK) goto done;
    json_object_set_new(res, "key", json_string(key));

    manifest = kiln_cache_entry_load(p, key, false);
    if (!manifest && !force && !compare_key && recorded_failure(a, record, key, e)) {
        /* Failed before under this key: the same failure, not cooked again. A source read
         * again (its stat was racy) refreshes the record, so the next run need not. */
        r = e->code;
        json_object_set_new(res, "failure", json_string("recorded"));
        if (src.read) record_failure(p, a, record, key, &src, &deps, e);
        goto done;
    }
    if (!manifest && !force && !compare_key && p->remote && kiln_remote_fetch(p->remote, p, key)) {
        /* Every blob was verified and the entry published like a local cook: now a local hit. */
        manifest = kiln_cache_entry_load(p, key, false);
        if (manifest) json_object_set_new(res, "remote", json_string("hit"));
    }
    if (manifest && !force && !compare_key) {
        kiln_cache_entry_touch(p, key);
        json_t *rec = record_json(p, a, key, src.stat, &deps, NULL);
        r = write_record(p, a, record, rec, e);
        json_decref(rec);
        json_object_set_new(res, "status", json_string("cached"));
        goto report_entry;
    }
    if (!src.read) {
        /* The stat shortcut gave the digest, but cooking needs the bytes. */
        kiln_source_free(p, &src);
        kiln_deps_free(&deps);
        r = kiln_asset_key(p, a, record, true, &src, &deps, key, e);
        if (r != KILN_OK) goto done;
        json_object_set_new(res, "key", json_string(key));
        json_decref(manifest);
        manifest = kiln_cache_entry_load(p, key, false);
    }
    r = kiln_cook(p, a, src.data, src.size, &cooked, e);
    if (r != KILN_OK) {
        record_failure(p, a, record, key, &src, &deps, e);
        goto done;
    }
    bool present = false; /* the entry was there when this cook went to publish it */
    if (manifest && force) {
        /* Forced over an entry: when its stored bytes fail their own digests, the entry is
         * damaged (not another cook's bytes) and the new one replaces it. */
        char damage[KILN_ENTRY_REASON_SIZE];
        kiln_error de;
        if (kiln_cache_entry_verify(p, key, damage) == KILN_ENTRY_DAMAGED) {
            if (kiln_cache_entry_discard(p, key, &de) == KILN_OK) {
                kiln_log(&p->logger, KILN_LOG_WARNING,
                         "%s: the stored entry %.12s was damaged (%s); replaced by this cook",
                         a->rel, key, damage);
                json_decref(manifest);
                manifest = NULL;
                /* what was stored is not what this cook made */
                if (!compare_key) json_object_set_new(res, "unchanged", json_false());
            } else {
                kiln_log(&p->logger, KILN_LOG_WARNING,
                         "%s: the stored entry %.12s is damaged (%s): %s", a->rel, key, damage,
                         de.message);
            }
        }
    }
    if (compare_key) {
        json_object_set_new(res, "unchanged",
                            json_boolean(kiln_cache_entry_equals(p, compare_key, cooked.outputs,
                                                                 cooked.output_count)));
    }
    if (manifest) {
        /* Forced: the entry exists and is never rewritten; say whether we made the same bytes. */
        bool same = kiln_cache_entry_equals(p, key, cooked.outputs, cooked.output_count);
        if (!compare_key) json_object_set_new(res, "unchanged", json_boolean(same));
        if (!same)
            json_array_append_new(
                cooked.warnings,
                json_string("processing again gave different bytes than the stored "
                            "entry; the stored entry is kept"));
    } else {
        json_t *m = json_object();
        json_object_set_new(m, "kind", json_string(kiln_source_kind_name(a->kind)));
        json_object_set_new(m, "pipeline_version", json_integer(KILN_PIPELINE_VERSION));
        json_object_set_new(m, "settings", kiln_asset_settings_json(a));
        char src_hex[KILN_SHA256_HEX_SIZE];
        kiln_hex(src.sha, KILN_SHA256_SIZE, src_hex);
        json_object_set_new(m, "source_sha256", json_string(src_hex));
        if (deps.digests) json_object_set(m, "dependencies", deps.digests);
        json_object_set(m, "summary", cooked.summary);
        json_object_set(m, "warnings", cooked.warnings);
        /* The record first, then the entry: gc lists entries before reading records, so it
         * never sees this entry without the record that keeps it. */
        json_t *rec = record_json(p, a, key, src.stat, &deps, NULL);
        r = write_record(p, a, record, rec, e);
        if (r != KILN_OK) {
            json_decref(rec);
            json_decref(m);
            goto done;
        }
        json_decref(record);
        record = rec; /* what is on disk now: the write below finds it equal and skips */
        r = kiln_cache_entry_publish(p, key, m, cooked.outputs, cooked.output_count, &present, e);
        json_decref(m);
        if (r != KILN_OK) goto done;
        manifest = kiln_cache_entry_load(p, key, false);
        if (!manifest) {
            r = kiln_error_set(e, KILN_E_CACHE_CORRUPT,
                               "%s: the entry %s vanished after publishing", a->rel, key);
            goto done;
        }
        /* A runtime that read the record before the entry was there looks again now. */
        kiln_cache_record_touch(p, a->guid);
        /* Share what was cooked; a remote problem is a warning, never this asset's failure. */
        if (p->remote) kiln_remote_upload(p->remote, p, key);
    }
    /* Another worker of this run published the same key first (two sources of equal bytes and
     * settings cooked at once): this one is what it would have been a moment later, cached. */
    json_object_set_new(res, "status", json_string(present ? "cached" : "imported"));
    {
        json_t *rec = record_json(p, a, key, src.stat, &deps, NULL);
        r = write_record(p, a, record, rec, e);
        json_decref(rec);
    }
report_entry:
    if (r == KILN_OK) add_entry(p, res, a, key, manifest, cooked.warnings);
done:
    if (r != KILN_OK) {
        json_object_set_new(res, "status", json_string("failed"));
        json_object_set_new(res, "error", kiln_error_json(e));
    }
    kiln_cooked_free(p, &cooked);
    kiln_source_free(p, &src);
    kiln_deps_free(&deps);
    json_decref(manifest);
    json_decref(record);
    return r;
}

typedef struct import_batch {
    kiln_project *p;
    kiln_asset *assets;
    uint32_t flags;
    json_t **results;
    kiln_result *codes;
    kiln_error **errors; /* per asset: its error when it failed (allocated then), else NULL */
    kiln_progress *progress;
    kiln_cache_index index; /* the record index, empty with --force */
    kiln_index_env env;     /* the assets by name, for the rows of materials */
    bool touch_due;         /* hits refresh their entries' mtimes this run (gc's LRU order) */
    json_t **rows;          /* per asset: its new index row, or NULL */
    bool *hits;             /* per asset: answered by the index */
    size_t *hit_warnings;   /* per hit: how many warnings its entry has */
} import_batch;

/* An asset whose index row holds: a cache hit of kiln_import_asset without reading its record,
 * manifest or source. Its entry is known to be there when its shard is unchanged since the index
 * was written; else the touch (which gc's LRU order wants now and then anyway) tells. With
 * KILN_IMPORT_CHANGES_ONLY nothing more is made of it (*res stays NULL); else its result. False
 * when it needs the full check (no row, a changed input, its entry gone). */
static bool index_result(import_batch *b, const kiln_asset *a, size_t index, json_t **res)
{
    kiln_project *p = b->p;
    kiln_index_hit hit;
    *res = NULL;
    if (!kiln_cache_index_lookup(&b->index, &b->env, a, &hit)) return false;
    if ((!hit.entry_known || b->touch_due) && !kiln_cache_entry_touch(p, hit.key)) return false;
    b->hit_warnings[index] = hit.warnings;
    if (b->flags & KILN_IMPORT_CHANGES_ONLY) return true;
    json_t *view = kiln_cache_index_view(&b->index, &hit);
    if (!view) return false;
    json_t *r = json_object();
    json_object_set_new(r, "path", json_string(a->rel));
    json_object_set_new(r, "guid", json_string(a->guid));
    json_object_set_new(r, "kind", json_string(kiln_source_kind_name(a->kind)));
    json_object_set_new(r, "key", json_string(hit.key));
    json_object_set_new(r, "status", json_string("cached"));
    add_entry(p, r, a, hit.key, view, NULL);
    json_decref(view);
    *res = r;
    return true;
}

/* The index row of an asset this run imported or found cached. */
static json_t *index_row(kiln_project *p, const kiln_asset *a, const json_t *res)
{
    const char *status = kiln_json_str(res, "status", "");
    if ((strcmp(status, "cached") != 0 && strcmp(status, "imported") != 0) ||
        json_object_get(res, "unchanged") || !a->has_source_stat)
        return NULL;
    json_t *view = json_object();
    json_object_set(view, "outputs", json_object_get(res, "outputs"));
    if (json_object_get(res, "summary"))
        json_object_set(view, "summary", json_object_get(res, "summary"));
    json_object_set(view, "warnings", json_object_get(res, "warnings"));
    /* kinds that read other files: their signatures are in the record */
    json_t *record = a->kind && a->kind->dependencies ? kiln_cache_record_load(p, a->guid) : NULL;
    json_t *row = kiln_index_row_make(p, a, kiln_json_str(res, "key", ""), record, view);
    json_decref(record);
    json_decref(view);
    return row;
}

static kiln_result import_job(void *user, size_t index, size_t worker, kiln_error *err)
{
    import_batch *b = user;
    kiln_asset *a = &b->assets[index];
    kiln_progress_set_item(b->progress, a->rel);
    json_t *res;
    if (index_result(b, a, index, &res)) {
        b->results[index] = res;
        b->codes[index] = KILN_OK;
        b->hits[index] = true;
    } else {
        /* an error record is 900 bytes: one per asset up front was 45 MB at 50,000 assets */
        kiln_error e;
        b->codes[index] = kiln_import_asset(b->p, a, b->flags, NULL, &b->results[index], &e);
        if (b->codes[index] != KILN_OK) {
            b->errors[index] = kiln_alloc(&b->p->allocator, sizeof e);
            if (b->errors[index]) *b->errors[index] = e;
        }
        if (b->codes[index] == KILN_OK) b->rows[index] = index_row(b->p, a, b->results[index]);
    }
    kiln_progress_advance(b->progress, 1);
    return KILN_OK; /* failures are per asset; the batch goes on */
}

static int by_rel(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Writes the record index after a run unless every asset was answered by a valid index that
 * holds no row of an asset gone. */
static void update_index(import_batch *b, size_t count, bool whole_tree)
{
    kiln_project *p = b->p;
    size_t hits = 0;
    for (size_t i = 0; i < count; i++) hits += b->hits[i];
    /* Nothing new to say: every asset a hit of a valid index that holds no row of an asset gone,
     * and no shard stamp to refresh (entries that had to be looked at one by one). */
    if (b->index.valid && hits == count && (!whole_tree || b->index.count == hits) &&
        !b->index.shards_stale)
        return;
    json_t *rows = json_object();
    const char **rels = kiln_calloc(&p->allocator, count ? count : 1, sizeof *rels);
    if (!rows || !rels) goto out;
    /* hits at the front (kept), the others after (dropped unless they made a row) */
    size_t nkeep = 0, ndrop = 0;
    for (size_t i = 0; i < count; i++)
        if (b->hits[i]) rels[nkeep++] = b->assets[i].rel;
    for (size_t i = 0; i < count; i++) {
        const kiln_asset *a = &b->assets[i];
        if (b->hits[i]) continue;
        rels[nkeep + ndrop++] = a->rel;
        if (b->rows[i]) json_object_set(rows, a->rel, b->rows[i]);
    }
    qsort(rels, nkeep, sizeof *rels, by_rel);
    qsort(rels + nkeep, ndrop, sizeof *rels, by_rel);
    kiln_cache_index_write(p, &b->index, rows, rels, nkeep, rels + nkeep, ndrop, whole_tree);
out:
    json_decref(rows);
    kiln_free(&p->allocator, rels, (count ? count : 1) * sizeof *rels);
}

kiln_result kiln_import_assets(kiln_project *p, kiln_asset *assets, size_t count, uint32_t flags,
                               json_t **doc, kiln_error *err)
{
    *doc = NULL;
    import_batch b;
    memset(&b, 0, sizeof b);
    b.p = p;
    b.assets = assets;
    b.flags = flags;
    b.results = kiln_calloc(&p->allocator, count ? count : 1, sizeof *b.results);
    b.codes = kiln_calloc(&p->allocator, count ? count : 1, sizeof *b.codes);
    b.errors = kiln_calloc(&p->allocator, count ? count : 1, sizeof *b.errors);
    b.rows = kiln_calloc(&p->allocator, count ? count : 1, sizeof *b.rows);
    b.hits = kiln_calloc(&p->allocator, count ? count : 1, sizeof *b.hits);
    b.hit_warnings = kiln_calloc(&p->allocator, count ? count : 1, sizeof *b.hit_warnings);
    kiln_result r = KILN_OK;
    if (!b.results || !b.codes || !b.errors || !b.rows || !b.hits || !b.hit_warnings) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        goto out;
    }
    r = kiln_cache_prepare(p, err);
    if (r != KILN_OK) goto out;
    if (!(flags & KILN_IMPORT_FORCE)) {
        kiln_cache_index_load(p, &b.index);
        b.touch_due = kiln_cache_index_touch_due(p);
        if (b.index.valid && (r = kiln_index_env_init(&b.env, p, assets, count, err)) != KILN_OK)
            goto out;
    }
    kiln_progress_create(count, "importing", stderr, p->progress, &p->allocator, &b.progress, NULL);
    /* One asset: run it here, so its own work (block encoding) gets the whole pool; a call from
     * inside a job of the pool would run inline. Several: one asset per job. */
    if (count == 1) r = import_job(&b, 0, 0, err);
    else r = kiln_jobs_for(p->jobs, count, import_job, &b, err);
    kiln_progress_destroy(b.progress);
    if (r != KILN_OK) goto out;
    update_index(&b, count, (flags & KILN_IMPORT_ALL) && p->shard_count <= 1);
    (void)kiln_cache_size_known(p, true);         /* the memo report reads (cache_size.h) */
    if (b.touch_due) kiln_cache_index_touched(p); /* every cached entry was touched, hit or not */

    json_t *d = json_object(), *records = json_array(), *failed = json_array();
    size_t imported = 0, cached = 0, nfailed = 0, unsupported = 0, warned = 0;
    bool changes_only = (flags & KILN_IMPORT_CHANGES_ONLY) != 0;
    for (size_t i = 0; i < count; i++) {
        const char *status = b.hits[i] ? "cached" : kiln_json_str(b.results[i], "status", "");
        bool is_cached = !strcmp(status, "cached");
        if (!strcmp(status, "imported")) imported++;
        else if (is_cached) cached++;
        else if (!strcmp(status, "unsupported")) unsupported++;
        if (is_cached && (b.hits[i] ? b.hit_warnings[i] > 0
                                    : json_array_size(json_object_get(b.results[i], "warnings"))))
            warned++;
        if (b.codes[i] != KILN_OK) {
            nfailed++;
            json_t *f = json_object();
            json_object_set_new(f, "path", json_string(assets[i].rel));
            kiln_error oom;
            const kiln_error *e = b.errors[i];
            if (!e) {
                kiln_error_set(&oom, b.codes[i], "%s: failed (out of memory keeping its error)",
                               assets[i].rel);
                e = &oom;
            }
            json_object_set_new(f, "error", kiln_error_json(e));
            json_array_append_new(failed, f);
            if (r == KILN_OK) {
                r = b.codes[i];
                if (err) *err = *e;
            }
        }
        if (b.results[i] && !(changes_only && is_cached))
            json_array_append_new(records, b.results[i]);
        else json_decref(b.results[i]);
        b.results[i] = NULL;
    }
    json_t *totals = json_object();
    json_object_set_new(totals, "assets", json_integer((json_int_t)count));
    json_object_set_new(totals, "imported", json_integer((json_int_t)imported));
    json_object_set_new(totals, "cached", json_integer((json_int_t)cached));
    json_object_set_new(totals, "failed", json_integer((json_int_t)nfailed));
    json_object_set_new(totals, "unsupported", json_integer((json_int_t)unsupported));
    json_object_set_new(totals, "cached_with_warnings", json_integer((json_int_t)warned));
    json_object_set_new(d, "command", json_string("import"));
    kiln_roots_json_set(p, d);
    json_object_set_new(d, "cache", json_string(p->cache));
    json_object_set_new(d, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    json_object_set_new(d, "records", records);
    json_object_set_new(d, "failed", failed);
    json_object_set_new(d, "totals", totals);
    *doc = d;
out:
    for (size_t i = 0; b.results && i < count; i++) json_decref(b.results[i]);
    kiln_free(&p->allocator, b.results, (count ? count : 1) * sizeof *b.results);
    kiln_free(&p->allocator, b.codes, (count ? count : 1) * sizeof *b.codes);
    for (size_t i = 0; b.errors && i < count; i++)
        if (b.errors[i]) kiln_free(&p->allocator, b.errors[i], sizeof *b.errors[i]);
    kiln_free(&p->allocator, b.errors, (count ? count : 1) * sizeof *b.errors);
    for (size_t i = 0; b.rows && i < count; i++) json_decref(b.rows[i]);
    kiln_free(&p->allocator, b.rows, (count ? count : 1) * sizeof *b.rows);
    kiln_free(&p->allocator, b.hits, (count ? count : 1) * sizeof *b.hits);
    kiln_free(&p->allocator, b.hit_warnings, (count ? count : 1) * sizeof *b.hit_warnings);
    kiln_cache_index_free(p, &b.index);
    kiln_index_env_free(&b.env);
    return r;
}

/* --shard i/N: keeps the assets of this shard at the front of the array (the rest cleared, so
 * kiln_assets_free over the whole array still works) and returns how many were kept. */
static size_t shard_filter(kiln_project *p, kiln_asset *assets, size_t n)
{
    if (p->shard_count <= 1) return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kiln_shard_contains(assets[i].guid, p->shard_index, p->shard_count)) {
            kiln_asset t = assets[kept];
            assets[kept++] = assets[i];
            assets[i] = t;
        }
    }
    for (size_t i = kept; i < n; i++) kiln_asset_clear(p, &assets[i]);
    return kept;
}

/* The scale-out parts of an import document: remote counters and the shard. */
static void add_scale_out(const kiln_project *p, json_t *doc, size_t skipped)
{
    if (!doc) return;
    if (p->remote) json_object_set_new(doc, "remote", kiln_remote_stats_json(p->remote));
    if (p->shard_count > 1) {
        json_t *sh = json_object();
        json_object_set_new(sh, "index", json_integer(p->shard_index));
        json_object_set_new(sh, "count", json_integer(p->shard_count));
        json_object_set_new(sh, "skipped", json_integer((json_int_t)skipped));
        json_object_set_new(doc, "shard", sh);
    }
}

KILN_API kiln_result kiln_project_import(kiln_project *p, const char *const *paths, size_t count,
                                         uint32_t flags, char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_asset *assets = NULL;
    size_t n = 0;
    kiln_result r;
    if (flags & KILN_IMPORT_ALL) {
        r = kiln_database_scan(p, &assets, &n, err);
        if (r != KILN_OK) return r;
    } else {
        if (count == 0)
            return kiln_error_set(err, KILN_E_USAGE, "nothing to import: give paths or --all");
        assets = kiln_calloc(&p->allocator, count, sizeof *assets);
        if (!assets) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        /* A path that cannot even be found fails like an asset does: listed, the rest go on. */
        json_t *early = json_array();
        kiln_result first = KILN_OK;
        kiln_error first_err;
        kiln_error_clear(&first_err);
        for (size_t i = 0; i < count; i++) {
            kiln_error e;
            r = kiln_database_find(p, paths[i], &assets[n], &e);
            if (r == KILN_OK) {
                n++;
                continue;
            }
            json_t *f = json_object();
            json_object_set_new(f, "path", json_string(paths[i]));
            json_object_set_new(f, "error", kiln_error_json(&e));
            json_array_append_new(early, f);
            if (first == KILN_OK) {
                first = r;
                first_err = e;
            }
        }
        json_t *doc = NULL;
        size_t found = n;
        n = shard_filter(p, assets, n);
        r = kiln_import_assets(p, assets, n, flags, &doc, err);
        kiln_assets_free(p, assets, count);
        add_scale_out(p, doc, found - n);
        if (!doc) {
            json_decref(early);
            return r;
        }
        if (json_array_size(early)) {
            json_t *failed = json_object_get(doc, "failed");
            json_t *totals = json_object_get(doc, "totals");
            size_t i;
            json_t *f;
            json_array_foreach (early, i, f) {
                json_t *rec = json_object();
                json_object_set(rec, "path", json_object_get(f, "path"));
                json_object_set_new(rec, "status", json_string("failed"));
                json_object_set(rec, "error", json_object_get(f, "error"));
                json_array_append_new(json_object_get(doc, "records"), rec);
                json_array_append(failed, f);
            }
            json_object_set_new(totals, "failed",
                                json_integer(kiln_json_int(totals, "failed", 0) +
                                             (json_int_t)json_array_size(early)));
            json_object_set_new(totals, "assets",
                                json_integer(kiln_json_int(totals, "assets", 0) +
                                             (json_int_t)json_array_size(early)));
            if (r == KILN_OK) {
                r = first;
                if (err) *err = first_err;
            }
        }
        json_decref(early);
        *result_json = kiln_project_take_json(doc);
        return r;
    }
    json_t *doc = NULL;
    size_t kept = shard_filter(p, assets, n);
    r = kiln_import_assets(p, assets, kept, flags, &doc, err);
    kiln_assets_free(p, assets, n);
    add_scale_out(p, doc, n - kept);
    if (doc) *result_json = kiln_project_take_json(doc);
    return r;
}
