/* rt_mount.c — reading a kiln cache folder into the artifact table (rt_mount.h). Only what the
 * runtime needs is read from the JSON: a record's guid, path and key; a manifest's key and its
 * outputs' file, label, sha256 and size. */
#include "runtime/rt_mount.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"
#include "runtime/rt_json.h"

#define MAX_JSON_SIZE (64u << 20)

krt_type krt_label_type(const krt_type_registry *types, const char *label)
{
    return (krt_type)krt_types_of_label(types, label);
}

/* Asset ids come from the files mounted: hashed through XXH3 so that no choice of them piles
 * into one run of slots (a multiplicative hash is inverted in a line). */
static size_t id_bucket(uint64_t id, size_t slots)
{
    return (size_t)kiln_xxh3_64(&id, sizeof id) & (slots - 1);
}

static size_t name_bucket(const char *name, size_t slots)
{
    return (size_t)kiln_xxh3_64(name, strlen(name)) & (slots - 1);
}

static void free_artifact(const kiln_allocator *a, krt_artifact *x)
{
    if (x->path) kiln_free(a, x->path, strlen(x->path) + 1);
    if (x->name) kiln_free(a, x->name, strlen(x->name) + 1);
    x->path = x->name = NULL;
}

static void free_skip(const kiln_allocator *a, krt_skip *s);

void krt_mounts_free(krt_mounts *m)
{
    for (size_t i = 0; i < m->skip_count; i++) free_skip(m->alloc, &m->skips[i]);
    kiln_free(m->alloc, m->skips, m->skip_cap * sizeof *m->skips);
    for (size_t i = 0; i < m->count; i++) free_artifact(m->alloc, &m->items[i]);
    kiln_free(m->alloc, m->items, m->capacity * sizeof *m->items);
    kiln_free(m->alloc, m->by_id, m->slots * sizeof *m->by_id);
    kiln_free(m->alloc, m->by_name, m->slots * sizeof *m->by_name);
    const kiln_allocator *a = m->alloc;
    memset(m, 0, sizeof *m);
    m->alloc = a;
}

const krt_artifact *krt_mounts_find(const krt_mounts *m, uint64_t id)
{
    if (!m->slots) return NULL;
    for (size_t b = id_bucket(id, m->slots);; b = (b + 1) & (m->slots - 1)) {
        uint32_t v = m->by_id[b];
        if (!v) return NULL;
        if (m->items[v - 1].id == id) return &m->items[v - 1];
    }
}

const krt_artifact *krt_mounts_find_name(const krt_mounts *m, const char *name)
{
    if (!m->slots) return NULL;
    for (size_t b = name_bucket(name, m->slots);; b = (b + 1) & (m->slots - 1)) {
        uint32_t v = m->by_name[b];
        if (!v) return NULL;
        if (strcmp(m->items[v - 1].name, name) == 0) return &m->items[v - 1];
    }
}

/* Rebuilds both maps for at least `want` items. */
static kiln_result rehash(krt_mounts *m, size_t want, kiln_error *err)
{
    size_t slots = 64;
    while (slots < want * 2 + 2) {
        if (slots > ((size_t)1 << 30))
            return kiln_error_set(err, KILN_E_LIMIT, "too many artifacts");
        slots *= 2;
    }
    uint32_t *by_id = kiln_calloc(m->alloc, slots, sizeof *by_id);
    uint32_t *by_name = kiln_calloc(m->alloc, slots, sizeof *by_name);
    if (!by_id || !by_name) {
        kiln_free(m->alloc, by_id, slots * sizeof *by_id);
        kiln_free(m->alloc, by_name, slots * sizeof *by_name);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the mount table");
    }
    for (size_t i = 0; i < m->count; i++) {
        size_t b = id_bucket(m->items[i].id, slots);
        while (by_id[b]) b = (b + 1) & (slots - 1);
        by_id[b] = (uint32_t)(i + 1);
        b = name_bucket(m->items[i].name, slots);
        while (by_name[b]) b = (b + 1) & (slots - 1);
        by_name[b] = (uint32_t)(i + 1);
    }
    kiln_free(m->alloc, m->by_id, m->slots * sizeof *m->by_id);
    kiln_free(m->alloc, m->by_name, m->slots * sizeof *m->by_name);
    m->by_id = by_id;
    m->by_name = by_name;
    m->slots = slots;
    return KILN_OK;
}

/* Adds x (taking its strings) or replaces the artifact with its id. A name that another id had
 * before keeps pointing at the older item only until the rehash below: names are unique per id
 * in kiln's caches (the id is made from the GUID and label, the name from the path and label). */
static kiln_result put(krt_mounts *m, krt_artifact *x, kiln_error *err)
{
    krt_artifact *old = (krt_artifact *)krt_mounts_find(m, x->id);
    if (old) {
        bool same_name = strcmp(old->name, x->name) == 0;
        free_artifact(m->alloc, old);
        *old = *x;
        memset(x, 0, sizeof *x);
        return same_name ? KILN_OK : rehash(m, m->count, err);
    }
    if (m->count >= UINT32_MAX - 1) return kiln_error_set(err, KILN_E_LIMIT, "too many artifacts");
    if (m->count == m->capacity) {
        size_t cap = m->capacity ? m->capacity * 2 : 64, bytes;
        if (!kiln_size_mul(cap, sizeof *m->items, &bytes))
            return kiln_error_set(err, KILN_E_LIMIT, "too many artifacts");
        krt_artifact *items =
            kiln_realloc(m->alloc, m->items, m->capacity * sizeof *m->items, bytes);
        if (!items)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the mount table");
        m->items = items;
        m->capacity = cap;
    }
    m->items[m->count++] = *x;
    memset(x, 0, sizeof *x);
    if (m->slots < m->count * 2 + 2) return rehash(m, m->count, err);
    size_t b = id_bucket(m->items[m->count - 1].id, m->slots);
    while (m->by_id[b]) b = (b + 1) & (m->slots - 1);
    m->by_id[b] = (uint32_t)m->count;
    b = name_bucket(m->items[m->count - 1].name, m->slots);
    while (m->by_name[b]) b = (b + 1) & (m->slots - 1);
    m->by_name[b] = (uint32_t)m->count;
    return KILN_OK;
}

kiln_result krt_mounts_read_pack(const kiln_pack *pack, const char *path,
                                 const krt_type_registry *types, const kiln_allocator *alloc,
                                 krt_mounts *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    kiln_result r = KILN_OK;
    for (uint32_t i = 0; i < pack->entry_count && !r; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(pack, i);
        krt_artifact x;
        memset(&x, 0, sizeof x);
        x.id = e.asset_id;
        x.type = krt_types_of_fourcc(types, e.kind);
        x.size = e.size;
        for (int k = 0; k < 8; k++) x.sha256[k] = (uint8_t)(e.checksum >> (8 * k));
        x.pack = pack;
        x.entry = i;
        x.path = kiln_strdup(alloc, path);
        x.name = kiln_strdup(alloc, e.name);
        if (!x.path || !x.name)
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory mounting %s", path);
        /* a kind no type of this context loads (shaders, later) is not mounted */
        if (!r && x.type != KRT_TYPE_NONE) r = put(out, &x, err);
        free_artifact(alloc, &x);
    }
    if (r) krt_mounts_free(out);
    return r;
}

static kiln_result skips_put(const kiln_allocator *a, krt_skip **skips, size_t *count, size_t *cap,
                             krt_skip *s, kiln_error *err);

kiln_result krt_mounts_merge(krt_mounts *dst, krt_mounts *src, kiln_error *err)
{
    kiln_result r = KILN_OK;
    for (size_t i = 0; i < src->count && r == KILN_OK; i++) r = put(dst, &src->items[i], err);
    for (size_t i = 0; i < src->skip_count && r == KILN_OK; i++)
        r = skips_put(dst->alloc, &dst->skips, &dst->skip_count, &dst->skip_cap, &src->skips[i],
                      err);
    krt_mounts_free(src);
    return r;
}

const krt_skip *krt_mounts_find_skip(const krt_mounts *m, const char *name)
{
    const char *hash = strrchr(name, '#');
    if (!hash) return NULL;
    size_t n = (size_t)(hash - name);
    for (size_t i = m->skip_count; i-- > 0;) {
        const krt_skip *s = &m->skips[i];
        if (s->asset[0] && strlen(s->asset) == n && memcmp(s->asset, name, n) == 0) return s;
    }
    return NULL;
}

static bool is_hex(const char *s, size_t n)
{
    if (strlen(s) != n) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

static char *join3(const kiln_allocator *a, const char *x, const char *sep, const char *y)
{
    size_t n = strlen(x) + strlen(sep) + strlen(y) + 1;
    char *s = kiln_alloc(a, n);
    if (s) snprintf(s, n, "%s%s%s", x, sep, y);
    return s;
}

typedef struct json_doc {
    uint8_t *text;
    size_t size;
    krt_json_token *tok;
    size_t tok_cap, count;
} json_doc;

static void doc_free(const kiln_allocator *a, json_doc *d)
{
    if (d->text) kiln_free(a, d->text, d->size + 1);
    if (d->tok) kiln_free(a, d->tok, d->tok_cap * sizeof *d->tok);
    memset(d, 0, sizeof *d);
}

/* err's message without the file's name (the read errors of core/file.c name it): what a skip
 * says after "<file>: ". */
static void reason_of(const kiln_error *e, const char *path, char *out, size_t size)
{
    const char *m = e->message, *at = strstr(m, path);
    if (!at) {
        snprintf(out, size, "%.180s", m);
        return;
    }
    const char *rest = at + strlen(path);
    if (rest[0] == ':' && rest[1] == ' ') rest += 2;
    else if (rest[0] == ' ') rest++;
    int head = (int)(at - m);
    while (head > 0 && m[head - 1] == ' ') head--; /* "cannot open <path>: x" -> "cannot open: x" */
    snprintf(out, size, "%.*s%s%s", head, m, head && rest[0] != ':' ? ": " : "", rest);
}

/* Reads and tokenizes a record or manifest. KILN_E_OUT_OF_MEMORY (err filled) ends the mount;
 * any other failure is the file's (it cannot be read, is too large, empty or not JSON): its code
 * is returned with why[0, why_size) saying what, and the caller skips the file. */
static kiln_result doc_read(const char *path, const kiln_allocator *a, json_doc *d, char *why,
                            size_t why_size, kiln_error *err)
{
    memset(d, 0, sizeof *d);
    kiln_error e;
    kiln_error_clear(&e);
    kiln_result r = kiln_file_read(path, MAX_JSON_SIZE, a, &d->text, &d->size, &e);
    if (r == KILN_E_OUT_OF_MEMORY) {
        if (err) *err = e;
        return r;
    }
    if (r) {
        reason_of(&e, path, why, why_size);
        return r == KILN_E_LIMIT ? KILN_E_CACHE_CORRUPT : r;
    }
    if (d->size == 0) {
        doc_free(a, d);
        snprintf(why, why_size, "empty");
        return KILN_E_CACHE_CORRUPT;
    }
    d->tok_cap = d->size / 2 + 2; /* every value but one needs a byte and a separator */
    d->tok = kiln_calloc(a, d->tok_cap, sizeof *d->tok);
    if (!d->tok) {
        doc_free(a, d);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory reading %s", path);
    }
    r = krt_json_parse((const char *)d->text, d->size, d->tok, d->tok_cap, &d->count, &e);
    if (r) {
        /* "JSON: unexpected end at byte 17" */
        const char *what = strncmp(e.message, "JSON: ", 6) == 0 ? e.message + 6 : e.message;
        snprintf(why, why_size, "not JSON: %.160s", what);
        doc_free(a, d);
        return KILN_E_CACHE_CORRUPT;
    }
    if (d->tok[0].type != KRT_JSON_OBJECT) {
        doc_free(a, d);
        snprintf(why, why_size, "not a JSON object");
        return KILN_E_CACHE_CORRUPT;
    }
    return KILN_OK;
}

static kiln_result corrupt(kiln_error *err, const char *path, const char *what)
{
    kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s: %s", path, what);
    kiln_error_at_path(err, path);
    return KILN_E_CACHE_CORRUPT;
}

/* The manifest's version: KILN_OK for KRT_MANIFEST_VERSION; KILN_E_FORMAT_VERSION for another
 * (a newer kiln wrote it); KILN_E_CACHE_CORRUPT without one. The cook side refuses the same. */
static kiln_result check_version(const char *text, const json_doc *man, char *why, size_t size)
{
    uint64_t v = 0;
    uint32_t vv = krt_json_member(text, man->tok, 0, "kiln_manifest");
    if (!vv || !krt_json_uint(text, man->tok, vv, &v)) {
        snprintf(why, size, "no \"kiln_manifest\" version");
        return KILN_E_CACHE_CORRUPT;
    }
    if (v != KRT_MANIFEST_VERSION) {
        snprintf(why, size, "manifest version %llu, this runtime reads %d: import again",
                 (unsigned long long)v, KRT_MANIFEST_VERSION);
        return KILN_E_FORMAT_VERSION;
    }
    return KILN_OK;
}

/* One output of a manifest into an artifact. KILN_E_CACHE_CORRUPT with *bad saying what is
 * wrong (err untouched), or KILN_E_OUT_OF_MEMORY with err filled. */
static kiln_result read_output(const char *text, const krt_json_token *t, uint32_t o,
                               const char *entry_dir, const char *guid, const char *asset_path,
                               const krt_type_registry *types, const kiln_allocator *a,
                               krt_artifact *x, const char **bad, kiln_error *err)
{
    char file[256], label[256], sha[80];
    uint64_t size;
    memset(x, 0, sizeof *x);
    if (t[o].type != KRT_JSON_OBJECT) {
        *bad = "an output is not an object";
        return KILN_E_CACHE_CORRUPT;
    }
    uint32_t vf = krt_json_member(text, t, o, "file"), vl = krt_json_member(text, t, o, "label");
    uint32_t vs = krt_json_member(text, t, o, "sha256"), vz = krt_json_member(text, t, o, "size");
    if (!vf || !vl || !vs || !vz || !krt_json_string(text, t, vf, file, sizeof file) ||
        !krt_json_string(text, t, vl, label, sizeof label) ||
        !krt_json_string(text, t, vs, sha, sizeof sha) || !krt_json_uint(text, t, vz, &size)) {
        *bad = "an output lacks file, label, sha256 or size";
        return KILN_E_CACHE_CORRUPT;
    }
    if (!file[0] || strchr(file, '/') || strcmp(file, ".") == 0 || strcmp(file, "..") == 0 ||
        !label[0] || !is_hex(sha, 64) || !kiln_unhex(sha, x->sha256, 32)) {
        *bad = "an output has a bad file name, label or sha256";
        return KILN_E_CACHE_CORRUPT;
    }
    /* optional: the fast digest loose KTX2 files are verified with (SHA-256 without it) */
    uint32_t vx = krt_json_member(text, t, o, "xxh3_128");
    if (vx) {
        char xh[40];
        if (!krt_json_string(text, t, vx, xh, sizeof xh) || !is_hex(xh, 32) ||
            !kiln_unhex(xh, x->xxh3_128, 16)) {
            *bad = "an output has a bad xxh3_128";
            return KILN_E_CACHE_CORRUPT;
        }
        x->has_xxh3 = true;
    }
    x->id = kiln_asset_id(guid, label);
    x->type = krt_label_type(types, label);
    x->size = size;
    x->path = join3(a, entry_dir, "/", file);
    x->name = join3(a, asset_path, "#", label);
    if (!x->path || !x->name) {
        free_artifact(a, x);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    return KILN_OK;
}

/* Appends x to the memo's items, taking its strings (x's are cleared). */
static kiln_result memo_take(const kiln_allocator *a, krt_cache_memo *memo, krt_artifact *x,
                             kiln_error *err)
{
    if (memo->item_count == memo->item_cap) {
        size_t cap = memo->item_cap ? memo->item_cap * 2 : 64, bytes;
        if (!kiln_size_mul(cap, sizeof *memo->items, &bytes))
            return kiln_error_set(err, KILN_E_LIMIT, "too many artifacts");
        krt_artifact *items =
            kiln_realloc(a, memo->items, memo->item_cap * sizeof *memo->items, bytes);
        if (!items)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the mount table");
        memo->items = items;
        memo->item_cap = cap;
    }
    memo->items[memo->item_count++] = *x;
    x->path = x->name = NULL;
    return KILN_OK;
}

/* Appends a copy of x to the memo's items (strings duplicated). */
static kiln_result memo_add(const kiln_allocator *a, krt_cache_memo *memo, const krt_artifact *x,
                            kiln_error *err)
{
    krt_artifact y = *x;
    y.path = kiln_strdup(a, x->path);
    y.name = kiln_strdup(a, x->name);
    kiln_result r = y.path && y.name ? memo_take(a, memo, &y, err)
                                     : kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                                      "out of memory for the mount table");
    free_artifact(a, &y);
    return r;
}

/* x into the table (taking its strings) and, when memo is given, a copy into the memo. */
static kiln_result emit(const kiln_allocator *a, krt_mounts *m, krt_cache_memo *memo,
                        krt_artifact *x, kiln_error *err)
{
    kiln_result r = memo ? memo_add(a, memo, x, err) : KILN_OK;
    if (!r) r = put(m, x, err);
    free_artifact(a, x);
    return r;
}

/* Checks every output a manifest lists (vo: its "outputs" array) of the asset (guid, path) in
 * folder dir, then mounts them as its artifacts: an entry mounts whole or not at all.
 * KILN_E_CACHE_CORRUPT with *bad set when an output is malformed (nothing mounted). A label
 * this runtime does not load is not mounted (as a pack's unknown kinds): the listing and the
 * look-ups only show what loads. */
static kiln_result mount_outputs(const char *text, const json_doc *man, uint32_t vo,
                                 const char *dir, const char *guid, const char *path,
                                 const krt_type_registry *types, const kiln_allocator *a,
                                 krt_mounts *m, krt_cache_memo *memo, const char **bad,
                                 kiln_error *err)
{
    kiln_result r = KILN_OK;
    for (int pass = 0; pass < 2 && r == KILN_OK; pass++) {
        uint32_t o = vo + 1;
        for (uint32_t i = 0; i < man->tok[vo].count && r == KILN_OK; i++, o = man->tok[o].next) {
            krt_artifact x;
            r = read_output(text, man->tok, o, dir, guid, path, types, a, &x, bad, err);
            if (r == KILN_OK && (pass == 0 || x.type == KRT_TYPE_NONE)) free_artifact(a, &x);
            else if (r == KILN_OK) r = emit(a, m, memo, &x, err);
        }
    }
    return r;
}

static uint64_t signature_of(const kiln_file_info *f);

static void free_skip(const kiln_allocator *a, krt_skip *s)
{
    if (s->mount) kiln_free(a, s->mount, strlen(s->mount) + 1);
    if (s->file) kiln_free(a, s->file, strlen(s->file) + 1);
    if (s->asset) kiln_free(a, s->asset, strlen(s->asset) + 1);
    s->mount = s->file = s->asset = NULL;
}

/* Appends s to skips[0, *count) (taking its strings), or replaces the one of the same file and
 * asset (a later mount's). */
static kiln_result skips_put(const kiln_allocator *a, krt_skip **skips, size_t *count, size_t *cap,
                             krt_skip *s, kiln_error *err)
{
    for (size_t i = 0; i < *count; i++) /* one entry may serve several assets */
        if (strcmp((*skips)[i].file, s->file) == 0 && strcmp((*skips)[i].asset, s->asset) == 0) {
            free_skip(a, &(*skips)[i]);
            (*skips)[i] = *s;
            memset(s, 0, sizeof *s);
            return KILN_OK;
        }
    if (*count == *cap) {
        size_t n = *cap ? *cap * 2 : 8, bytes;
        krt_skip *grown = kiln_size_mul(n, sizeof *grown, &bytes)
                              ? kiln_realloc(a, *skips, *cap * sizeof *grown, bytes)
                              : NULL;
        if (!grown) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a mount");
        *skips = grown;
        *cap = n;
    }
    (*skips)[(*count)++] = *s;
    memset(s, 0, sizeof *s);
    return KILN_OK;
}

/* A copy of s (strings duplicated) into *out; false when memory runs out. */
static bool skip_copy(const kiln_allocator *a, const krt_skip *s, krt_skip *out)
{
    *out = *s;
    out->mount = kiln_strdup(a, s->mount);
    out->file = kiln_strdup(a, s->file);
    out->asset = kiln_strdup(a, s->asset);
    if (out->mount && out->file && out->asset) return true;
    free_skip(a, out);
    return false;
}

/* What a read of one cache folder needs to skip a damaged file. */
typedef struct skip_sink {
    const char *mount;
    const kiln_allocator *a;
    krt_mounts *m;
    krt_cache_memo *memo; /* may be NULL */
} skip_sink;

/* file (of the asset path / guid its record names: "" when the record is the file) is
 * skipped: into the table's skips and the memo's. stamp: the file's signature taken before it
 * was read (0: take it now), so that a file replaced since shows in the next poll. Only running
 * out of memory is an error. */
static kiln_result skip(const skip_sink *k, const char *file, uint64_t stamp, const char *asset,
                        const char *guid, kiln_result code, const char *why, kiln_error *err)
{
    krt_skip s;
    memset(&s, 0, sizeof s);
    s.code = code;
    snprintf(s.guid, sizeof s.guid, "%s", guid);
    snprintf(s.reason, sizeof s.reason, "%s", why);
    s.stamp = stamp ? stamp : krt_file_signature(file);
    s.mount = kiln_strdup(k->a, k->mount);
    s.file = kiln_strdup(k->a, file);
    s.asset = kiln_strdup(k->a, asset);
    kiln_result r = s.mount && s.file && s.asset
                        ? KILN_OK
                        : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a mount");
    krt_skip copy;
    memset(&copy, 0, sizeof copy);
    if (!r && k->memo && !skip_copy(k->a, &s, &copy))
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a mount");
    if (!r) r = skips_put(k->a, &k->m->skips, &k->m->skip_count, &k->m->skip_cap, &s, err);
    if (!r && k->memo)
        r = skips_put(k->a, &k->memo->skips, &k->memo->skip_count, &k->memo->skip_cap, &copy, err);
    free_skip(k->a, &s);
    free_skip(k->a, &copy);
    return r;
}

/* One record: its entry's outputs into m (and memo). A record without an entry (a failed or
 * unfinished import, a collected entry) is passed over; a damaged record, or an entry whose
 * manifest is damaged, of another version or of another key, is skipped (skip above): the
 * cook side takes such an entry as absent too (src/pipeline/cache.c kiln_cache_entry_load).
 * Errors end the mount: KILN_E_OUT_OF_MEMORY, KILN_E_LIMIT. */
static kiln_result read_record(const skip_sink *k, const char *cache_dir, const char *rpath,
                               uint64_t rstamp, const char *platform,
                               const krt_type_registry *types, krt_mounts *m, krt_cache_memo *memo,
                               kiln_error *err)
{
    const kiln_allocator *a = k->a;
    json_doc rec, man;
    char why[192];
    kiln_result r = doc_read(rpath, a, &rec, why, sizeof why, err);
    if (r == KILN_E_OUT_OF_MEMORY) return r;
    if (r) return skip(k, rpath, rstamp, "", "", r, why, err);
    const char *text = (const char *)rec.text;
    char guid[64], path[1024], key[80];
    uint32_t vg = krt_json_member(text, rec.tok, 0, "guid");
    uint32_t vp = krt_json_member(text, rec.tok, 0, "path");
    /* A failed import keeps the entry of the last one that worked (last_good_key): that is
     * what loads until the source imports again. */
    uint32_t vk = krt_json_member(text, rec.tok, 0, "last_good_key");
    if (!vk) vk = krt_json_member(text, rec.tok, 0, "key");
    if (!vg || !vp || !krt_json_string(text, rec.tok, vg, guid, sizeof guid) || !is_hex(guid, 32) ||
        !krt_json_string(text, rec.tok, vp, path, sizeof path) || !path[0]) {
        doc_free(a, &rec);
        return skip(k, rpath, rstamp, "", "", KILN_E_CACHE_CORRUPT,
                    "a record needs a guid (32 hex digits) and a path", err);
    }
    bool has_key = vk && krt_json_string(text, rec.tok, vk, key, sizeof key) && is_hex(key, 64);
    /* a record of another platform (written where last-import-won) is not this platform's */
    char pf[KRT_PLATFORM_MAX] = "";
    uint32_t vpf = krt_json_member(text, rec.tok, 0, "platform");
    if (vpf && rec.tok[vpf].type == KRT_JSON_STRING &&
        !krt_json_string(text, rec.tok, vpf, pf, sizeof pf))
        has_key = false;
    if (strcmp(pf, platform ? platform : "") != 0) has_key = false;
    doc_free(a, &rec);
    if (!has_key) return KILN_OK; /* never imported successfully */
    char dir[KILN_PATH_MAX], mpath[KILN_PATH_MAX + 32];
    int n = snprintf(dir, sizeof dir, "%s/objects/%.2s/%s", cache_dir, key, key);
    if (n < 0 || (size_t)n >= sizeof dir || (size_t)n + 16 >= sizeof mpath)
        return kiln_error_set(err, KILN_E_LIMIT, "cache path too long");
    snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
    /* its stat before the read, for skip (and only when not a file: not whole, as below) */
    kiln_file_info mfi;
    if (kiln_file_stat(mpath, &mfi, NULL) != KILN_OK || !mfi.is_file)
        return KILN_OK; /* collected or never written */
    uint64_t mstamp = signature_of(&mfi);
    r = doc_read(mpath, a, &man, why, sizeof why, err);
    if (r == KILN_E_OUT_OF_MEMORY) return r;
    if (r) return skip(k, mpath, mstamp, path, guid, r, why, err);
    text = (const char *)man.text;
    char mkey[80];
    uint32_t vmk = krt_json_member(text, man.tok, 0, "key");
    uint32_t vo = krt_json_member(text, man.tok, 0, "outputs");
    r = check_version(text, &man, why, sizeof why);
    if (!r && (!vmk || !krt_json_string(text, man.tok, vmk, mkey, sizeof mkey))) {
        snprintf(why, sizeof why, "no \"key\"");
        r = KILN_E_CACHE_CORRUPT;
    } else if (!r && strcmp(mkey, key) != 0) {
        snprintf(why, sizeof why, "its key %.64s is not its folder's", mkey);
        r = KILN_E_CACHE_CORRUPT;
    } else if (!r && (!vo || man.tok[vo].type != KRT_JSON_ARRAY)) {
        snprintf(why, sizeof why, "no \"outputs\" list");
        r = KILN_E_CACHE_CORRUPT;
    } else if (!r && man.tok[vo].count == 0) {
        snprintf(why, sizeof why, "an empty \"outputs\" list");
        r = KILN_E_CACHE_CORRUPT;
    }
    const char *bad = NULL;
    if (!r) r = mount_outputs(text, &man, vo, dir, guid, path, types, a, m, memo, &bad, err);
    if (r == KILN_E_CACHE_CORRUPT && bad) snprintf(why, sizeof why, "%s", bad);
    doc_free(a, &man);
    if (r == KILN_E_CACHE_CORRUPT || r == KILN_E_FORMAT_VERSION)
        return skip(k, mpath, mstamp, path, guid, r, why, err);
    return r;
}

/* A folder `kiln model` wrote: its outputs beside a manifest.json that names the asset (the
 * record's "guid" and "path" members in the manifest itself), mounted as one entry. A cache
 * entry's manifest names no asset (one entry may serve several): the cache is to be mounted.
 * The one entry damaged is the mount's error (nothing else would mount). */
static kiln_result read_entry_folder(const char *dir, const char *mpath,
                                     const krt_type_registry *types, const kiln_allocator *a,
                                     krt_mounts *m, krt_cache_memo *memo, kiln_error *err)
{
    json_doc man;
    char why[192];
    kiln_result r = doc_read(mpath, a, &man, why, sizeof why, err);
    if (r == KILN_E_OUT_OF_MEMORY) return r;
    if (r) {
        kiln_error_set(err, r, "%s: %s", mpath, why);
        kiln_error_at_path(err, mpath);
        return r;
    }
    const char *text = (const char *)man.text;
    char guid[64], path[1024];
    uint32_t vg = krt_json_member(text, man.tok, 0, "guid");
    uint32_t vp = krt_json_member(text, man.tok, 0, "path");
    uint32_t vo = krt_json_member(text, man.tok, 0, "outputs");
    if (!vg && !vp) {
        doc_free(a, &man);
        kiln_error_set(err, KILN_E_USAGE,
                       "%s is a cache entry (its manifest names no asset), not a cache; mount the "
                       "cache folder it lies in",
                       dir);
        kiln_error_at_path(err, dir);
        return KILN_E_USAGE;
    }
    if ((r = check_version(text, &man, why, sizeof why))) {
        doc_free(a, &man);
        kiln_error_set(err, r, "%s: %s", mpath, why);
        kiln_error_at_path(err, mpath);
        return r;
    }
    if (!vg || !vp || !krt_json_string(text, man.tok, vg, guid, sizeof guid) || !is_hex(guid, 32) ||
        !krt_json_string(text, man.tok, vp, path, sizeof path) || !path[0] || !vo ||
        man.tok[vo].type != KRT_JSON_ARRAY) {
        doc_free(a, &man);
        return corrupt(err, mpath, "a manifest needs a guid (32 hex digits), a path and outputs");
    }
    const char *bad = NULL;
    r = mount_outputs(text, &man, vo, dir, guid, path, types, a, m, memo, &bad, err);
    doc_free(a, &man);
    if (r == KILN_E_CACHE_CORRUPT && bad) return corrupt(err, mpath, bad);
    return r;
}

bool krt_memo_skips_changed(const krt_cache_memo *memo, size_t *stats)
{
    for (size_t i = 0; memo && i < memo->skip_count; i++) {
        if (stats) (*stats)++;
        if (krt_file_signature(memo->skips[i].file) != memo->skips[i].stamp) return true;
    }
    return false;
}

void krt_cache_memo_free(const kiln_allocator *alloc, krt_cache_memo *m)
{
    for (size_t i = 0; i < m->skip_count; i++) free_skip(alloc, &m->skips[i]);
    kiln_free(alloc, m->skips, m->skip_cap * sizeof *m->skips);
    kiln_free(alloc, m->changed, m->changed_cap * sizeof *m->changed);
    for (size_t i = 0; i < m->record_count; i++)
        kiln_free(alloc, m->records[i].name, strlen(m->records[i].name) + 1);
    for (size_t i = 0; i < m->item_count; i++) free_artifact(alloc, &m->items[i]);
    kiln_free(alloc, m->records, m->record_cap * sizeof *m->records);
    kiln_free(alloc, m->items, m->item_cap * sizeof *m->items);
    memset(m, 0, sizeof *m);
}

static uint64_t signature_of(const kiln_file_info *f)
{
    kiln_file_info fi = *f;
    struct {
        uint64_t size, ino, dev;
        int64_t mtime, ctime;
    } k = {fi.size, fi.ino, fi.dev, fi.mtime_ns, fi.ctime_ns};
    uint64_t h = kiln_xxh3_64(&k, sizeof k);
    return h ? h : 1; /* 0: unknown, never equal */
}

uint64_t krt_file_signature(const char *path)
{
    kiln_file_info fi;
    return kiln_file_stat(path, &fi, NULL) == KILN_OK ? signature_of(&fi) : 0;
}

/* The ids of items[first, first + count) into memo->changed. */
static kiln_result note_changed(const kiln_allocator *a, krt_cache_memo *memo,
                                const krt_artifact *items, size_t first, size_t count,
                                kiln_error *err)
{
    if (count > SIZE_MAX / 2 - memo->changed_count)
        return kiln_error_set(err, KILN_E_LIMIT, "too many artifacts");
    if (memo->changed_count + count > memo->changed_cap) {
        size_t cap = memo->changed_cap ? memo->changed_cap : 16, bytes;
        while (cap < memo->changed_count + count) cap *= 2;
        if (!kiln_size_mul(cap, sizeof *memo->changed, &bytes))
            return kiln_error_set(err, KILN_E_LIMIT, "too many artifacts");
        uint64_t *ids = kiln_realloc(a, memo->changed, memo->changed_cap * sizeof *ids, bytes);
        if (!ids)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the mount table");
        memo->changed = ids;
        memo->changed_cap = cap;
    }
    for (size_t k = 0; k < count; k++) memo->changed[memo->changed_count++] = items[first + k].id;
    return KILN_OK;
}

/* The ids prev's record p gave (it changed or went) into next->changed. */
static kiln_result note_record(const kiln_allocator *a, krt_cache_memo *next,
                               const krt_cache_memo *prev, size_t p, kiln_error *err)
{
    return note_changed(a, next, prev->items, prev->records[p].first, prev->records[p].count, err);
}

static kiln_result memo_record(const kiln_allocator *a, krt_cache_memo *memo, const char *name,
                               uint64_t stamp, size_t first, kiln_error *err)
{
    if (memo->record_count == memo->record_cap) {
        size_t cap = memo->record_cap ? memo->record_cap * 2 : 64, bytes;
        if (!kiln_size_mul(cap, sizeof *memo->records, &bytes))
            return kiln_error_set(err, KILN_E_LIMIT, "too many records");
        krt_record_memo *r =
            kiln_realloc(a, memo->records, memo->record_cap * sizeof *memo->records, bytes);
        if (!r)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the mount table");
        memo->records = r;
        memo->record_cap = cap;
    }
    char *n = kiln_strdup(a, name);
    if (!n) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the mount table");
    memo->records[memo->record_count++] =
        (krt_record_memo){n, stamp, first, memo->item_count - first};
    return KILN_OK;
}

/* A project folder (or kiln's output folder) is not a cache, though a project's assets/ holds
 * sources where a cache's holds records: mounting it would list its sources' folder and mount
 * nothing. A folder without objects/ that has the cache below it is named with the folder to
 * mount instead. */
static kiln_result not_a_project(const char *dir, kiln_error *err)
{
    static const char *const below[] = {".kiln/cache", "cache"};
    static const char *const what[] = {"a kiln project", "a kiln output folder"};
    char sub[KILN_PATH_MAX];
    int n = snprintf(sub, sizeof sub, "%s/objects", dir);
    if (n < 0 || (size_t)n >= sizeof sub || kiln_dir_exists(sub)) return KILN_OK;
    for (size_t i = 0; i < 2; i++) {
        n = snprintf(sub, sizeof sub, "%s/%s/objects", dir, below[i]);
        bool found = n >= 0 && (size_t)n < sizeof sub && kiln_dir_exists(sub);
        /* a project with no cache yet still has its kiln.json */
        n = snprintf(sub, sizeof sub, "%s/kiln.json", dir);
        found = found || (i == 0 && n >= 0 && (size_t)n < sizeof sub && kiln_file_exists(sub));
        if (!found) continue;
        size_t len = strlen(dir);
        const char *sep = len && dir[len - 1] == '/' ? "" : "/";
        kiln_error_set(err, KILN_E_USAGE, "%s is %s, not a cache; mount %s%s%s", dir, what[i], dir,
                       sep, below[i]);
        kiln_error_at_path(err, dir);
        return KILN_E_USAGE;
    }
    return KILN_OK;
}

bool krt_records_dir(const char *cache_dir, const char *platform, char *out, size_t size)
{
    int n = platform && platform[0]
                ? snprintf(out, size, "%s/platforms/%s/assets", cache_dir, platform)
                : snprintf(out, size, "%s/assets", cache_dir);
    return n >= 0 && (size_t)n < size;
}

kiln_result krt_mounts_read_cache(const char *cache_dir, const kiln_allocator *alloc,
                                  krt_mounts *out, kiln_error *err)
{
    return krt_mounts_read_cache_typed(cache_dir, NULL, NULL, alloc, NULL, NULL, out, err);
}

kiln_result krt_mounts_read_cache_memo(const char *cache_dir, const kiln_allocator *alloc,
                                       krt_cache_memo *prev, krt_cache_memo *next, krt_mounts *out,
                                       kiln_error *err)
{
    return krt_mounts_read_cache_typed(cache_dir, NULL, NULL, alloc, prev, next, out, err);
}

kiln_result krt_mounts_read_cache_typed(const char *cache_dir, const char *platform,
                                        const krt_type_registry *types, const kiln_allocator *alloc,
                                        krt_cache_memo *prev, krt_cache_memo *next, krt_mounts *out,
                                        kiln_error *err)
{
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    char adir[KILN_PATH_MAX];
    int n;
    if (!krt_records_dir(cache_dir, platform, adir, sizeof adir))
        return kiln_error_set(err, KILN_E_LIMIT, "cache path too long");
    kiln_result r = not_a_project(cache_dir, err);
    if (r) return r;
    char mpath[KILN_PATH_MAX];
    n = snprintf(mpath, sizeof mpath, "%s/manifest.json", cache_dir);
    if (kiln_dir_exists(cache_dir) && !kiln_dir_exists(adir) && n > 0 && (size_t)n < sizeof mpath &&
        kiln_file_exists(mpath)) {
        if (next) next->all_changed = prev == NULL;
        r = read_entry_folder(cache_dir, mpath, types, alloc, out, next, err);
        if (r) krt_mounts_free(out);
        return r;
    }
    if (!kiln_dir_exists(cache_dir) || !kiln_dir_exists(adir)) {
        if (platform && platform[0] && kiln_dir_exists(cache_dir))
            kiln_error_set(err, KILN_E_ASSET_IO,
                           "%s has no records of platform \"%s\" (import with --platform %s)",
                           cache_dir, platform, platform);
        else
            kiln_error_set(err, KILN_E_ASSET_IO, "%s is not a kiln cache folder (no assets/ in it)",
                           cache_dir);
        kiln_error_at_path(err, cache_dir);
        return KILN_E_ASSET_IO;
    }
    kiln_dir_list list;
    r = kiln_dir_list_read(adir, alloc, &list, err);
    if (r) return r;
    skip_sink sink = {cache_dir, alloc, out, next};
    size_t p = 0; /* walks prev's records alongside: both are in the listing's sorted order */
    if (next) next->all_changed = prev == NULL;
    for (size_t i = 0; i < list.count && r == KILN_OK; i++) {
        const char *name = list.names[i];
        size_t len = strlen(name);
        if (len < 6 || strcmp(name + len - 5, ".json") != 0 || name[0] == '.') continue;
        char rpath[KILN_PATH_MAX];
        n = snprintf(rpath, sizeof rpath, "%s/%s", adir, name);
        if (n < 0 || (size_t)n >= sizeof rpath) {
            r = kiln_error_set(err, KILN_E_LIMIT, "cache path too long");
            break;
        }
        uint64_t stamp = prev || next ? krt_file_signature(rpath) : 0;
        size_t first = next ? next->item_count : 0;
        /* prev's records before this name are gone: their ids changed (now unmounted) */
        for (; prev && p < prev->record_count && strcmp(prev->records[p].name, name) < 0 && !r; p++)
            if (next) r = note_record(alloc, next, prev, p, err);
        bool same_name = prev && p < prev->record_count && strcmp(prev->records[p].name, name) == 0;
        const krt_record_memo *old =
            same_name && stamp && prev->records[p].stamp == stamp ? &prev->records[p] : NULL;
        if (same_name && !old && next && !r) /* replaced: what it gave before changed too */
            r = note_record(alloc, next, prev, p, err);
        if (same_name) p++;
        if (r) break;
        if (old) { /* unchanged: its artifacts as read last time */
            for (size_t k = 0; k < old->count && r == KILN_OK; k++) {
                krt_artifact *src = &prev->items[old->first + k];
                krt_artifact x = *src; /* the table's copy: the one copy of the strings */
                x.path = kiln_strdup(alloc, src->path);
                x.name = kiln_strdup(alloc, src->name);
                if (!x.path || !x.name)
                    r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
                else if (next) r = memo_take(alloc, next, src, err); /* prev's strings move */
                if (!r) r = put(out, &x, err);
                free_artifact(alloc, &x); /* what put did not take */
            }
        } else {
            size_t skips = out->skip_count;
            r = read_record(&sink, cache_dir, rpath, stamp, platform, types, out, next, err);
            if (!r && next && prev) /* what it gives now */
                r = note_changed(alloc, next, next->items, first, next->item_count - first, err);
            if (out->skip_count != skips) stamp = 0; /* damaged: read again by every read */
        }
        if (next) next->reused += old != NULL, next->parsed += old == NULL;
        if (!r && next) r = memo_record(alloc, next, name, stamp, first, err);
    }
    for (; prev && next && p < prev->record_count && !r; p++) /* after the last name: gone */
        r = note_record(alloc, next, prev, p, err);
    kiln_dir_list_free(&list);
    if (r) krt_mounts_free(out);
    return r;
}
