/* remote.c — the remote cache protocol on top of the transports: the Bazel HTTP cache layout
 * (ac/<entry key> holds the entry's manifest.json, cas/<sha256> each output's bytes), fetching
 * with verification of every blob before anything enters the local cache, uploading with HEAD
 * before PUT and the AC record last (a reader that finds the AC record finds its blobs), and
 * ccache's rule that a remote never fails a cook. */
#include "pipeline/remote.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"

typedef struct kiln_remote {
    char url[1024]; /* as given, options stripped: messages and rendezvous id */
    kiln_remote_transport *t;
    bool read_only;
    atomic_bool disabled;        /* a transport error happened: skipped for the rest of the run */
    atomic_bool uploads_refused; /* the server refused a PUT: no more uploads (one warning) */
} kiln_remote;

struct kiln_remote_set {
    kiln_allocator alloc;
    const kiln_logger *logger;
    kiln_remote remotes[KILN_REMOTE_MAX];
    const char *ids[KILN_REMOTE_MAX];
    size_t count;
    atomic_uint_fast64_t hits, misses, uploads, errors;
};

/* Splits "URL?opt&opt" into the URL and its options. */
static kiln_result parse_url(const char *spec, bool *read_only, uint32_t *timeout_s, char *url,
                             size_t url_size, kiln_error *err)
{
    const char *q = strchr(spec, '?');
    size_t n = q ? (size_t)(q - spec) : strlen(spec);
    if (n == 0 || n >= url_size)
        return kiln_error_set(err, KILN_E_USAGE, "bad remote cache URL \"%.200s\"", spec);
    memcpy(url, spec, n);
    url[n] = '\0';
    while (n > 1 && url[n - 1] == '/') url[--n] = '\0';
    for (const char *o = q ? q + 1 : NULL; o && *o;) {
        const char *end = strchr(o, '&');
        size_t len = end ? (size_t)(end - o) : strlen(o);
        if (len == 9 && !strncmp(o, "read-only", 9)) {
            *read_only = true;
        } else if (len > 8 && !strncmp(o, "timeout=", 8)) {
            char num[16];
            size_t l = len - 8;
            if (l >= sizeof num) l = sizeof num - 1;
            memcpy(num, o + 8, l);
            num[l] = '\0';
            char *e;
            long v = strtol(num, &e, 10);
            if (*e || v < 1 || v > 3600)
                return kiln_error_set(err, KILN_E_USAGE,
                                      "remote cache URL %.200s: timeout must be 1..3600 seconds",
                                      spec);
            *timeout_s = (uint32_t)v;
        } else if (len) {
            return kiln_error_set(err, KILN_E_USAGE,
                                  "remote cache URL %.200s: unknown option \"%.*s\" (read-only, "
                                  "timeout=SECONDS)",
                                  spec, (int)(len < 64 ? len : 64), o);
        }
        o = end ? end + 1 : NULL;
    }
    return KILN_OK;
}

kiln_result kiln_remote_set_create(const char *const *urls, size_t count, bool read_only,
                                   uint32_t timeout_s, const kiln_allocator *a,
                                   const kiln_logger *logger, kiln_remote_set **out,
                                   kiln_error *err)
{
    *out = NULL;
    if (count > KILN_REMOTE_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "at most %d remote caches", KILN_REMOTE_MAX);
    kiln_remote_set *s = kiln_calloc(a, 1, sizeof *s);
    if (!s) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (a) s->alloc = *a;
    s->logger = logger;
    kiln_result r = KILN_OK;
    for (size_t i = 0; r == KILN_OK && i < count; i++) {
        kiln_remote *rm = &s->remotes[i];
        bool ro = read_only;
        uint32_t timeout = timeout_s ? timeout_s : 10;
        r = parse_url(urls[i], &ro, &timeout, rm->url, sizeof rm->url, err);
        if (r != KILN_OK) break;
        rm->read_only = ro;
        if (!strncmp(rm->url, "http://", 7) || !strncmp(rm->url, "https://", 8)) {
            r = kiln_remote_http_create(rm->url, &s->alloc, timeout, &rm->t, err);
        } else if (!strncmp(rm->url, "file:", 5)) {
            /* file:///abs, file:/abs or file:relative (to the current folder) */
            const char *path = rm->url + 5;
            if (!strncmp(path, "//", 2)) {
                path += 2;
                if (*path != '/')
                    r = kiln_error_set(err, KILN_E_USAGE,
                                       "remote cache URL %.200s: only local file: URLs "
                                       "(file:///folder)",
                                       rm->url);
            }
            char abs[KILN_PATH_MAX];
            if (r == KILN_OK && !*path)
                r = kiln_error_set(err, KILN_E_USAGE, "remote cache URL %.200s: no folder",
                                   rm->url);
            if (r == KILN_OK) r = kiln_path_absolute(path, abs, sizeof abs, err);
            if (r == KILN_OK) r = kiln_remote_file_create(abs, &s->alloc, &rm->t, err);
        } else {
            r = kiln_error_set(err, KILN_E_USAGE,
                               "remote cache URL %.200s: use http://, https:// or file:", rm->url);
        }
        if (r == KILN_OK) {
            s->ids[i] = rm->url;
            s->count = i + 1;
        }
    }
    if (r != KILN_OK) {
        kiln_remote_set_destroy(s);
        return r;
    }
    *out = s;
    return KILN_OK;
}

void kiln_remote_set_destroy(kiln_remote_set *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->count; i++)
        if (s->remotes[i].t) s->remotes[i].t->destroy(s->remotes[i].t);
    kiln_allocator a = s->alloc;
    kiln_free(&a, s, sizeof *s);
}

/* The first transport error takes the remote out of this run, with one warning and one count:
 * requests already in flight on other threads that fail the same way are the same outage (so
 * the count does not depend on the thread count or timing). */
static void disable(kiln_remote_set *s, kiln_remote *rm, const kiln_error *e)
{
    if (atomic_exchange(&rm->disabled, true)) return;
    atomic_fetch_add(&s->errors, 1);
    kiln_log(s->logger, KILN_LOG_WARNING,
             "remote cache %s disabled for this run: %s (cooking locally)", rm->url, e->message);
}

/* One output as the AC record lists it, and its downloaded bytes. */
typedef struct fetched_blob {
    const char *label, *file, *sha;
    size_t size;
    uint8_t *data;
    size_t capacity;
} fetched_blob;

static bool plain_name(const char *s)
{
    return s && s[0] && s[0] != '.' && !strchr(s, '/') && !strchr(s, '\\') && strlen(s) < 128 &&
           strcmp(s, "manifest.json") != 0;
}

static bool is_hex64(const char *s)
{
    uint8_t d[KILN_SHA256_SIZE];
    return s && strlen(s) == 64 && kiln_unhex(s, d, sizeof d);
}

/* Checks an AC record: our manifest version, this key, outputs with plain distinct names,
 * sizes within the limit, SHA-256 in hex. Fills blobs (pointing into m). */
static bool check_manifest(const json_t *m, const char *key, fetched_blob *blobs, size_t *count,
                           size_t max_count)
{
    if (!json_is_object(m) || kiln_json_int(m, "kiln_manifest", 0) != KILN_MANIFEST_VERSION ||
        strcmp(kiln_json_str(m, "key", ""), key) != 0)
        return false;
    const json_t *outs = json_object_get(m, "outputs");
    size_t n = json_array_size(outs), total = 0;
    if (!json_is_array(outs) || n == 0 || n > max_count) return false;
    for (size_t i = 0; i < n; i++) {
        const json_t *o = json_array_get(outs, i);
        fetched_blob *b = &blobs[i];
        b->label = kiln_json_str(o, "label", NULL);
        b->file = kiln_json_str(o, "file", NULL);
        b->sha = kiln_json_str(o, "sha256", NULL);
        long long size = kiln_json_int(o, "size", -1);
        if (!b->label || !plain_name(b->file) || !is_hex64(b->sha) || size < 0 ||
            (unsigned long long)size > KILN_REMOTE_ENTRY_MAX_SIZE)
            return false;
        b->size = (size_t)size;
        if (!kiln_size_add(total, b->size, &total) || total > KILN_REMOTE_ENTRY_MAX_SIZE)
            return false;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(blobs[j].file, b->file)) return false;
    }
    *count = n;
    return true;
}

/* The entry's outputs live in one folder, so their number is bounded by what a cook makes;
 * this bound only keeps a hostile AC record from asking for an unbounded table. */
#define MAX_OUTPUTS 65536

bool kiln_remote_fetch(kiln_remote_set *s, kiln_project *p, const char *key)
{
    if (!s || s->count == 0) return false;
    kiln_remote *rm = &s->remotes[kiln_remote_rendezvous(s->ids, s->count, key)];
    if (atomic_load(&rm->disabled)) {
        atomic_fetch_add(&s->misses, 1);
        return false;
    }
    kiln_error e;
    kiln_error_clear(&e);
    char path[128];
    snprintf(path, sizeof path, "ac/%s", key);
    uint8_t *ac = NULL;
    size_t ac_size = 0, ac_cap = 0;
    kiln_remote_status st =
        rm->t->get(rm->t, path, KILN_REMOTE_AC_MAX_SIZE, &ac, &ac_size, &ac_cap, &e);
    if (st == KILN_REMOTE_ERROR) disable(s, rm, &e);
    if (st == KILN_REMOTE_TOO_LARGE) atomic_fetch_add(&s->errors, 1);
    if (st != KILN_REMOTE_OK) {
        atomic_fetch_add(&s->misses, 1);
        return false;
    }
    bool hit = false;
    json_t *m = kiln_json_load((const char *)ac, ac_size, path, KILN_E_CACHE_CORRUPT, NULL);
    kiln_free(&s->alloc, ac, ac_cap);
    size_t n = 0;
    fetched_blob *blobs = NULL;
    kiln_output *outs = NULL;
    size_t n_max = m ? json_array_size(json_object_get(m, "outputs")) : 0;
    if (n_max > MAX_OUTPUTS) n_max = 0;
    if (n_max) {
        blobs = kiln_calloc(&s->alloc, n_max, sizeof *blobs);
        outs = kiln_calloc(&s->alloc, n_max, sizeof *outs);
    }
    if (!blobs || !outs || !check_manifest(m, key, blobs, &n, n_max)) {
        kiln_log(s->logger, KILN_LOG_INFO, "remote cache %s: ac/%s is not a valid manifest",
                 rm->url, key);
        atomic_fetch_add(&s->errors, 1);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        fetched_blob *b = &blobs[i];
        snprintf(path, sizeof path, "cas/%s", b->sha);
        size_t got = 0;
        st = rm->t->get(rm->t, path, b->size, &b->data, &got, &b->capacity, &e);
        if (st == KILN_REMOTE_ERROR) {
            disable(s, rm, &e);
            goto out;
        }
        if (st != KILN_REMOTE_OK) {
            /* Evicted (404) or longer than the manifest says: the entry is not there. */
            if (st == KILN_REMOTE_TOO_LARGE) atomic_fetch_add(&s->errors, 1);
            goto out;
        }
        uint8_t d[KILN_SHA256_SIZE];
        char hex[KILN_SHA256_HEX_SIZE];
        kiln_sha256_bytes(b->data ? b->data : (const uint8_t *)"", got, d, NULL);
        kiln_hex(d, sizeof d, hex);
        if (got != b->size || strcmp(hex, b->sha) != 0) {
            kiln_log(
                s->logger, KILN_LOG_WARNING,
                "remote cache %s: blob %s of entry %s is damaged (%zu bytes, SHA-256 %.12s...); "
                "not used",
                rm->url, b->sha, key, got, hex);
            atomic_fetch_add(&s->errors, 1);
            goto out;
        }
        outs[i].label = b->label;
        outs[i].file = b->file;
        outs[i].data = b->data ? b->data : (const uint8_t *)"";
        outs[i].size = b->size;
    }
    {
        /* Every byte checked: publish exactly as a local cook does (temporary folder, rename). */
        json_t *manifest = json_deep_copy(m);
        bool present = false;
        kiln_result r = manifest ? kiln_cache_entry_publish(p, key, manifest, outs, n, &present, &e)
                                 : KILN_E_OUT_OF_MEMORY;
        json_decref(manifest);
        if (r != KILN_OK) {
            kiln_log(s->logger, KILN_LOG_WARNING, "remote cache %s: cannot store entry %s: %s",
                     rm->url, key, e.message);
            goto out;
        }
        hit = true;
    }
out:
    for (size_t i = 0; blobs && i < n_max; i++)
        kiln_free(&s->alloc, blobs[i].data, blobs[i].capacity);
    kiln_free(&s->alloc, blobs, n_max * sizeof *blobs);
    kiln_free(&s->alloc, outs, n_max * sizeof *outs);
    json_decref(m);
    atomic_fetch_add(hit ? &s->hits : &s->misses, 1);
    return hit;
}

/* One failed upload: a warning (the first time for a refusing server), never an error. */
static void upload_failed(kiln_remote_set *s, kiln_remote *rm, kiln_remote_status st,
                          const kiln_error *e)
{
    if (st == KILN_REMOTE_ERROR) {
        disable(s, rm, e);
        return;
    }
    atomic_fetch_add(&s->errors, 1);
    if (!atomic_exchange(&rm->uploads_refused, true))
        kiln_log(s->logger, KILN_LOG_WARNING,
                 "remote cache %s refused an upload: %s (no more uploads to it this run)", rm->url,
                 e->message);
}

void kiln_remote_upload(kiln_remote_set *s, kiln_project *p, const char *key)
{
    if (!s || s->count == 0) return;
    kiln_remote *rm = &s->remotes[kiln_remote_rendezvous(s->ids, s->count, key)];
    if (rm->read_only || atomic_load(&rm->disabled) || atomic_load(&rm->uploads_refused)) return;
    json_t *m = kiln_cache_entry_load(p, key, false);
    if (!m) return;
    char dir[KILN_PATH_MAX], fp[KILN_PATH_MAX], path[128];
    kiln_cache_entry_dir(p, key, dir);
    kiln_error e;
    kiln_error_clear(&e);
    kiln_remote_status st = KILN_REMOTE_OK;
    size_t i;
    json_t *o;
    json_array_foreach (json_object_get(m, "outputs"), i, o) {
        const char *sha = kiln_json_str(o, "sha256", "");
        size_t size = (size_t)kiln_json_int(o, "size", 0);
        snprintf(path, sizeof path, "cas/%s", sha);
        uint64_t have = 0;
        st = rm->t->head(rm->t, path, &have, &e);
        if (st == KILN_REMOTE_OK && (have == UINT64_MAX || have == size)) continue;
        if (st != KILN_REMOTE_OK && st != KILN_REMOTE_MISS) goto failed;
        kiln_path_format(fp, sizeof fp, "%s/%s", dir, kiln_json_str(o, "file", ""));
        kiln_mapped_file f;
        if (kiln_file_map(fp, KILN_REMOTE_ENTRY_MAX_SIZE, &f, &e) != KILN_OK) goto local_bad;
        /* The name of a CAS blob is a promise about its bytes: check before making it. */
        uint8_t d[KILN_SHA256_SIZE];
        char hex[KILN_SHA256_HEX_SIZE];
        kiln_sha256_bytes(f.data, f.size, d, NULL);
        kiln_hex(d, sizeof d, hex);
        if (f.size != size || strcmp(hex, sha) != 0) {
            kiln_file_unmap(&f);
            goto local_bad;
        }
        st = rm->t->put(rm->t, path, f.data, f.size, &e);
        kiln_file_unmap(&f);
        if (st != KILN_REMOTE_OK) goto failed;
    }
    {
        /* The AC record last: it is what readers look up, and every blob it names is there. */
        kiln_path_format(fp, sizeof fp, "%s/manifest.json", dir);
        kiln_mapped_file f;
        if (kiln_file_map(fp, KILN_REMOTE_AC_MAX_SIZE, &f, &e) != KILN_OK) goto local_bad;
        snprintf(path, sizeof path, "ac/%s", key);
        st = rm->t->put(rm->t, path, f.data, f.size, &e);
        kiln_file_unmap(&f);
        if (st != KILN_REMOTE_OK) goto failed;
        atomic_fetch_add(&s->uploads, 1);
    }
    json_decref(m);
    return;
local_bad:
    kiln_log(s->logger, KILN_LOG_WARNING,
             "not uploading entry %s: its local files do not match its manifest", key);
    atomic_fetch_add(&s->errors, 1);
    json_decref(m);
    return;
failed:
    upload_failed(s, rm, st, &e);
    json_decref(m);
}

json_t *kiln_remote_stats_json(const kiln_remote_set *s)
{
    json_t *j = json_object();
    json_object_set_new(j, "hits", json_integer(s ? (json_int_t)atomic_load(&s->hits) : 0));
    json_object_set_new(j, "misses", json_integer(s ? (json_int_t)atomic_load(&s->misses) : 0));
    json_object_set_new(j, "uploads", json_integer(s ? (json_int_t)atomic_load(&s->uploads) : 0));
    json_object_set_new(j, "errors", json_integer(s ? (json_int_t)atomic_load(&s->errors) : 0));
    json_t *list = json_array();
    for (size_t i = 0; s && i < s->count; i++) {
        json_t *r = json_object();
        json_object_set_new(r, "url", json_string(s->remotes[i].url));
        json_object_set_new(r, "read_only", json_boolean(s->remotes[i].read_only));
        json_object_set_new(r, "disabled", json_boolean(atomic_load(&s->remotes[i].disabled)));
        json_array_append_new(list, r);
    }
    json_object_set_new(j, "remotes", list);
    return j;
}
