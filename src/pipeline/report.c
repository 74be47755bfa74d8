/* report.c — the state of every asset without processing anything: up_to_date (its entry is in
 * the cache), stale (imported before under another key), not_imported, invalid (settings or
 * source rejected; the error), unsupported (a kind kiln does not import yet), damaged (with
 * KILN_REPORT_VERIFY: its entry's bytes fail their digests); and the files the scan left out,
 * with why (excluded by a rule, owned by a model). */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "pipeline/cache.h"
#include "pipeline/cache_size.h"
#include "pipeline/cache_verify.h"
#include "pipeline/cook.h"
#include "pipeline/import.h"
#include "pipeline/record_index.h"
#include "pipeline/source.h"
#include "pipeline/why.h"

typedef struct report_batch {
    kiln_project *p;
    kiln_asset *assets;
    json_t **rows;
    bool *fresh; /* up to date by the index, no row made (KILN_REPORT_CHANGES_ONLY) */
    bool changes_only;
    bool verify; /* KILN_REPORT_VERIFY: no index, no stat shortcut trusted, entries re-hashed */
    kiln_cache_index index;
    kiln_index_env env; /* the scan's assets by name, for the rows of materials */
} report_batch;

/* An asset whose record index row holds and whose entry is still there (its shard unchanged
 * since the index was written, or else a stat of its manifest): up to date, without reading its
 * record, manifest or source. */
static bool index_row(report_batch *b, size_t index, const kiln_asset *a, json_t *row)
{
    kiln_index_hit hit;
    char manifest[KILN_PATH_MAX];
    if (!kiln_cache_index_lookup(&b->index, &b->env, a, &hit)) return false;
    if (!hit.entry_known) {
        kiln_cache_entry_dir(b->p, hit.key, manifest);
        size_t n = strlen(manifest);
        kiln_file_info fi;
        if (n + 15 >= sizeof manifest) return false;
        memcpy(manifest + n, "/manifest.json", 15);
        if (kiln_file_stat(manifest, &fi, NULL) != KILN_OK || !fi.is_file) return false;
    }
    if (b->changes_only) {
        b->fresh[index] = true;
        return true;
    }
    json_t *view = kiln_cache_index_view(&b->index, &hit);
    if (!view) return false;
    json_object_set_new(row, "source_read", json_false());
    json_object_set_new(row, "settings_origin", kiln_asset_origin_json(b->p, a));
    json_object_set_new(row, "key", json_string(hit.key));
    json_object_set_new(row, "state", json_string("up_to_date"));
    json_object_set_new(row, "outputs", kiln_outputs_json(a, view));
    json_object_set(row, "summary", json_object_get(view, "summary"));
    json_object_set(row, "warnings", json_object_get(view, "warnings"));
    json_decref(view);
    return true;
}

/* --verify: the key from the source's and dependencies' bytes (no record, so no shortcut). When
 * it is not the one the record's digests gave (key), the record lies about a file whose size and
 * times it still matches: the asset is stale, with a "record" reason, under the true key. */
static bool record_lies(report_batch *b, const kiln_asset *a, const json_t *record,
                        const kiln_source *src, const char *key, json_t *row)
{
    kiln_project *p = b->p;
    kiln_source real = {0};
    kiln_deps deps = {0};
    kiln_error e;
    char rkey[KILN_SHA256_HEX_SIZE];
    bool lies = record && kiln_asset_key(p, a, NULL, true, &real, &deps, rkey, &e) == KILN_OK &&
                strcmp(rkey, key) != 0;
    if (lies) {
        char then[KILN_SHA256_HEX_SIZE], now[KILN_SHA256_HEX_SIZE];
        kiln_hex(src->sha, KILN_SHA256_SIZE, then);
        kiln_hex(real.sha, KILN_SHA256_SIZE, now);
        json_t *why = json_object();
        json_object_set_new(why, "what", json_string("record"));
        json_object_set_new(why, "path", json_string(a->rel));
        if (strcmp(then, now) != 0) {
            json_object_set_new(why, "old_sha256", json_string(then));
            json_object_set_new(why, "new_sha256", json_string(now));
            json_object_set_new(
                why, "message",
                json_string("the record's source digest is not the digest of the source's "
                            "bytes, though their size and times are the recorded ones"));
        } else {
            json_object_set_new(
                why, "message",
                json_string("the record's digest of a dependency is not the digest of its "
                            "bytes, though their size and times are the recorded ones"));
        }
        json_object_set_new(row, "state", json_string("stale"));
        json_object_set_new(row, "key", json_string(rkey));
        json_object_set_new(row, "source_read", json_true());
        json_object_set_new(row, "imported_key", json_string(kiln_json_str(record, "key", key)));
        json_t *list = json_array();
        json_array_append_new(list, why);
        json_object_set_new(row, "why", list);
    }
    kiln_source_free(p, &real);
    kiln_deps_free(&deps);
    return lies;
}

static void set_error(json_t *row, const kiln_error *e)
{
    json_object_set_new(row, "state", json_string("invalid"));
    json_object_set_new(row, "error", kiln_error_json(e));
}

static kiln_result report_job(void *user, size_t index, size_t worker, kiln_error *unused)
{
    report_batch *b = user;
    kiln_project *p = b->p;
    kiln_asset *a = &b->assets[index];
    if (a->kind && a->settings_result == KILN_OK && b->changes_only && !b->verify &&
        index_row(b, index, a, NULL))
        return KILN_OK;
    json_t *row = json_object();
    b->rows[index] = row;
    json_object_set_new(row, "path", json_string(a->rel));
    json_object_set_new(row, "guid", json_string(a->guid));
    json_object_set_new(row, "kind", json_string(kiln_source_kind_name(a->kind)));
    if (!a->kind) {
        json_object_set_new(row, "state", json_string("unsupported"));
        return KILN_OK;
    }
    if (a->settings_result != KILN_OK) {
        set_error(row, kiln_asset_settings_error(a));
        return KILN_OK;
    }
    if (!b->changes_only && !b->verify && index_row(b, index, a, row)) return KILN_OK;
    json_t *record = kiln_cache_record_load(p, a->guid);
    kiln_source src;
    kiln_deps deps;
    kiln_error e;
    char key[KILN_SHA256_HEX_SIZE];
    kiln_result r = kiln_asset_key(p, a, record, false, &src, &deps, key, &e);
    json_object_set_new(row, "source_read", json_boolean(r == KILN_OK && (src.read || deps.read)));
    json_object_set_new(row, "settings_origin", kiln_asset_origin_json(p, a));
    if (r != KILN_OK) {
        set_error(row, &e);
        kiln_source_free(p, &src);
        kiln_deps_free(&deps);
        json_decref(record);
        return KILN_OK;
    }
    json_object_set_new(row, "key", json_string(key));
    const char *rec_key = kiln_json_str(record, "key", NULL);
    if (b->verify && record_lies(b, a, record, &src, key, row)) {
        kiln_source_free(p, &src);
        kiln_deps_free(&deps);
        json_decref(record);
        return KILN_OK;
    }
    char damage[KILN_ENTRY_REASON_SIZE] = "";
    kiln_entry_state es = b->verify ? kiln_cache_entry_verify(p, key, damage) : KILN_ENTRY_WHOLE;
    json_t *manifest = es == KILN_ENTRY_WHOLE ? kiln_cache_entry_load(p, key, false) : NULL;
    if (es == KILN_ENTRY_DAMAGED) {
        json_object_set_new(row, "state", json_string("damaged"));
        json_object_set_new(row, "damage", json_string(damage));
    } else if (manifest) {
        json_object_set_new(row, "state", json_string("up_to_date"));
        json_object_set_new(row, "outputs", kiln_outputs_json(a, manifest));
        json_object_set(row, "summary", json_object_get(manifest, "summary"));
        json_object_set(row, "warnings", json_object_get(manifest, "warnings"));
    } else if (rec_key && !strcmp(rec_key, key) && json_object_get(record, "error")) {
        json_object_set_new(row, "state", json_string("invalid"));
        json_object_set(row, "error", json_object_get(record, "error"));
    } else if (rec_key && strcmp(rec_key, key) != 0) {
        json_object_set_new(row, "state", json_string("stale"));
        json_object_set_new(row, "imported_key", json_string(rec_key));
        json_object_set_new(row, "why", kiln_stale_reasons(p, a, record, &src, &deps));
    } else {
        json_object_set_new(row, "state", json_string("not_imported"));
    }
    kiln_source_free(p, &src);
    kiln_deps_free(&deps);
    json_decref(manifest);
    json_decref(record);
    return KILN_OK;
}

KILN_API kiln_result kiln_project_report(kiln_project *p, char **report_json, kiln_error *err)
{
    return kiln_project_report_flags(p, 0, report_json, err);
}

KILN_API kiln_result kiln_project_report_flags(kiln_project *p, uint32_t flags, char **report_json,
                                               kiln_error *err)
{
    *report_json = NULL;
    kiln_asset *assets = NULL;
    size_t n = 0;
    json_t *skipped = json_array();
    kiln_result r = kiln_database_scan_skipped(p, &assets, &n, skipped, err);
    if (r != KILN_OK) {
        json_decref(skipped);
        return r;
    }
    report_batch b;
    memset(&b, 0, sizeof b);
    b.p = p;
    b.assets = assets;
    b.rows = kiln_calloc(&p->allocator, n ? n : 1, sizeof(json_t *));
    b.fresh = kiln_calloc(&p->allocator, n ? n : 1, sizeof *b.fresh);
    b.changes_only = (flags & KILN_REPORT_CHANGES_ONLY) != 0;
    b.verify = (flags & KILN_REPORT_VERIFY) != 0;
    kiln_cache_index_load(p, &b.index);
    if (!b.rows || !b.fresh ||
        (b.index.valid && kiln_index_env_init(&b.env, p, assets, n, NULL) != KILN_OK)) {
        kiln_free(&p->allocator, b.rows, (n ? n : 1) * sizeof(json_t *));
        kiln_free(&p->allocator, b.fresh, (n ? n : 1) * sizeof *b.fresh);
        kiln_cache_index_free(p, &b.index);
        kiln_assets_free(p, assets, n);
        json_decref(skipped);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    r = kiln_jobs_for(p->jobs, n, report_job, &b, err);
    kiln_cache_index_free(p, &b.index);
    kiln_index_env_free(&b.env);
    static const char *const states[] = {"up_to_date", "stale",       "not_imported",
                                         "invalid",    "unsupported", "damaged"};
    size_t counts[6] = {0};
    json_t *rows = json_array();
    for (size_t i = 0; i < n; i++) {
        const char *st = b.fresh[i] ? states[0] : kiln_json_str(b.rows[i], "state", "");
        for (size_t k = 0; k < 6; k++)
            if (!strcmp(st, states[k])) counts[k]++;
        if (b.rows[i] && !(b.changes_only && !strcmp(st, states[0])))
            json_array_append_new(rows, b.rows[i]);
        else json_decref(b.rows[i]);
    }
    kiln_free(&p->allocator, b.rows, (n ? n : 1) * sizeof(json_t *));
    kiln_free(&p->allocator, b.fresh, (n ? n : 1) * sizeof *b.fresh);
    kiln_assets_free(p, assets, n);
    if (r != KILN_OK) {
        json_decref(rows);
        json_decref(skipped);
        return r;
    }
    json_t *totals = json_object();
    json_object_set_new(totals, "assets", json_integer((json_int_t)n));
    for (size_t k = 0; k < (b.verify ? 6u : 5u); k++) /* "damaged" only where it can be */
        json_object_set_new(totals, states[k], json_integer((json_int_t)counts[k]));
    json_t *cache = json_object();
    json_object_set_new(cache, "path", json_string(p->cache));
    json_object_set_new(cache, "size", json_integer((json_int_t)kiln_cache_size_known(p, false)));
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("report"));
    kiln_roots_json_set(p, doc);
    json_object_set_new(doc, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    json_object_set_new(doc, "assets", rows);
    json_object_set_new(doc, "skipped", skipped);
    json_object_set_new(doc, "totals", totals);
    json_object_set_new(doc, "cache", cache);
    *report_json = kiln_project_take_json(doc);
    return KILN_OK;
}
