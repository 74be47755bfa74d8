/* pack.c — kiln_project_pack: a project's cooked artifacts gathered from the cache (see pack.h),
 * then written as one .kpak with kiln_pack_write through a temporary file and a rename; and
 * kiln_pack_verify_file. docs/packs.md gives the rules, docs/formats.md ("Packs") the bytes. */
#include "pipeline/pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/id_order.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/log.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/database.h"
#include "pipeline/import.h"
#include "pipeline/roots.h"
#include "pipeline/source.h"
#include "write/pack_write.h"

/* What was asked for: every artifact of an asset (label NULL) or one artifact. */
typedef struct pack_root {
    size_t asset;
    const char *label; /* points into the caller's argument */
    const char *arg;
} pack_root;

static char *dup_format(const kiln_allocator *a, const char *fmt, const char *x, const char *y)
{
    size_t n = strlen(x) + strlen(y) + 2;
    char *s = kiln_alloc(a, n);
    if (s) snprintf(s, n, fmt, x, y);
    return s;
}

static void artifact_free(kiln_project *p, kiln_pack_artifact *a)
{
    if (a->name) kiln_free(&p->allocator, a->name, strlen(a->name) + 1);
    if (a->file) kiln_free(&p->allocator, a->file, strlen(a->file) + 1);
    if (a->map.data) kiln_file_unmap(&a->map);
    kiln_free(&p->allocator, a->refs, a->ref_cap * sizeof *a->refs);
    memset(a, 0, sizeof *a);
}

void kiln_pack_set_free(kiln_project *p, kiln_pack_set *set)
{
    for (size_t i = 0; i < set->count; i++) artifact_free(p, &set->items[i]);
    kiln_free(&p->allocator, set->items, set->capacity * sizeof *set->items);
    json_decref(set->skipped);
    json_decref(set->failed);
    memset(set, 0, sizeof *set);
}

/* One asset's failure into set->failed (the first also into set->first). */
static void note_failure(kiln_pack_set *set, const char *path, const kiln_error *e)
{
    json_array_append_new(set->failed,
                          json_pack("{s:s,s:o}", "path", path, "error", kiln_error_json(e)));
    if (set->first.code == KILN_OK) set->first = *e;
}

/* "fox.glb#mesh0/prim0: mesh0.prim0.kmesh in cache entry 3f2a…: <what>; ..." with the file's
 * full path in err->path (the message must fit its 256 bytes). */
static kiln_result corrupt(kiln_error *err, const char *name, const char *file, const char *what,
                           const char *dir)
{
    const char *key = kiln_path_basename(dir);
    kiln_error_set(err, KILN_E_CACHE_CORRUPT,
                   "%s: %s in cache entry %.12s %s: the entry is damaged", name,
                   kiln_path_basename(file), key, what);
    kiln_error_at_path(err, file);
    return KILN_E_CACHE_CORRUPT;
}

/* Maps one output of an entry and checks it against its manifest record. */
static kiln_result add_artifact(kiln_project *p, kiln_pack_set *s, const kiln_asset *a,
                                size_t asset, const char *dir, const json_t *o, kiln_error *err)
{
    const char *label = kiln_json_str(o, "label", NULL);
    const char *file = kiln_json_str(o, "file", NULL);
    long long size = kiln_json_int(o, "size", -1);
    const char *sha = kiln_json_str(o, "sha256", "");
    if (!label || !label[0] || !file || size < 0 || strlen(sha) != 64)
        return corrupt(err, a->rel, "manifest.json",
                       "lists an output without label, file, size or sha256", dir);
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 64;
        void *q = kiln_realloc(&p->allocator, s->items, s->capacity * sizeof *s->items,
                               cap * sizeof *s->items);
        if (!q) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        s->items = q;
        s->capacity = cap;
    }
    kiln_pack_artifact *x = &s->items[s->count];
    memset(x, 0, sizeof *x);
    x->asset = asset;
    x->canonical = s->count;
    x->name = dup_format(&p->allocator, "%s#%s", a->rel, label);
    x->file = dup_format(&p->allocator, "%s/%s", dir, file);
    if (!x->name || !x->file) {
        artifact_free(p, x);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    s->count++;
    kiln_error e;
    if (kiln_file_map(x->file, (size_t)KILN_PACK_MAX_ENTRY_SIZE, &x->map, &e) != KILN_OK)
        return corrupt(err, x->name, x->file, "cannot be read", dir);
    if ((unsigned long long)x->map.size != (unsigned long long)size)
        return corrupt(err, x->name, x->file, "has another size than its manifest says", dir);
    uint8_t d[KILN_SHA256_SIZE];
    char hex[KILN_SHA256_HEX_SIZE];
    kiln_result r = kiln_sha256_bytes(x->map.data, x->map.size, d, err);
    if (r != KILN_OK) return r;
    kiln_hex(d, sizeof d, hex);
    if (strcmp(hex, sha) != 0)
        return corrupt(err, x->name, x->file, "does not match the SHA-256 of its manifest", dir);
    const char *xxh = kiln_json_str(o, "xxh3_128", NULL);
    if (xxh) { /* optional (entries of older writers); the runtime checks it on every load */
        uint8_t xd[16];
        char xhex[2 * sizeof xd + 1];
        kiln_xxh3_128(x->map.data, x->map.size, xd);
        kiln_hex(xd, sizeof xd, xhex);
        if (strcmp(xhex, xxh) != 0)
            return corrupt(err, x->name, x->file, "does not match the XXH3-128 of its manifest",
                           dir);
    }
    x->asset_id = kiln_asset_id(a->guid, label);
    kiln_cooked_kind_of_bytes(x->map.data, x->map.size, &x->kind);
    if (!x->kind)
        return corrupt(err, x->name, x->file, "is neither KTX2 nor a kiln container", dir);
    return KILN_OK;
}

/* Maps every output of the asset's entry (key) into the set; on failure none of them stays.
 * E_CACHE_CORRUPT when the entry is not whole or an output fails its manifest. */
static kiln_result gather_entry(kiln_project *p, kiln_pack_set *set, const kiln_asset *a,
                                size_t asset, const char *key, kiln_error *e)
{
    json_t *manifest = kiln_cache_entry_load(p, key, false);
    char dir[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    kiln_result ar = KILN_OK;
    size_t first = set->count;
    if (!manifest) {
        ar = kiln_error_set(e, KILN_E_CACHE_CORRUPT, "%s: its cache entry %s is not whole", a->rel,
                            dir);
        kiln_error_at_path(e, dir);
    }
    size_t k;
    json_t *o;
    json_array_foreach (json_object_get(manifest, "outputs"), k, o) {
        ar = add_artifact(p, set, a, asset, dir, o, e);
        if (ar != KILN_OK) break;
    }
    json_decref(manifest);
    if (ar != KILN_OK)
        while (set->count > first) artifact_free(p, &set->items[--set->count]);
    return ar;
}

/* The asset's entry (key) is damaged, e says how (the record index vouched for it without opening
 * it, so the import gave it as cached): it is removed, the asset cooked again and its new entry
 * gathered. On failure e says why: the import's error, else the damage found first. */
static kiln_result recook(kiln_project *p, kiln_pack_set *set, kiln_asset *a, size_t asset,
                          const char *key, kiln_error *e)
{
    json_t *res = NULL;
    kiln_error de;
    kiln_log(&p->logger, KILN_LOG_WARNING, "%s; cooking it again", e->message);
    if (kiln_cache_entry_discard(p, key, &de) != KILN_OK) return e->code;
    kiln_result r = kiln_import_asset(p, a, 0, NULL, &res, &de);
    if (r != KILN_OK) *e = de;
    else r = gather_entry(p, set, a, asset, kiln_json_str(res, "key", ""), &de);
    json_decref(res);
    if (r == KILN_E_OUT_OF_MEMORY) *e = de;
    return r == KILN_OK || r == KILN_E_OUT_OF_MEMORY ? r : e->code;
}

/* Resolves the arguments into assets (each once, in the order given) and roots. An argument
 * that names no asset is a failure (its root's asset SIZE_MAX); a malformed one is E_USAGE. */
static kiln_result resolve_args(kiln_project *p, const char *const *args, size_t count,
                                kiln_asset *assets, size_t *asset_count, pack_root *roots,
                                kiln_pack_set *set, kiln_error *err)
{
    *asset_count = 0;
    for (size_t i = 0; i < count; i++) {
        const char *hash = strchr(args[i], '#');
        char path[KILN_PATH_MAX];
        size_t n = hash ? (size_t)(hash - args[i]) : strlen(args[i]);
        if (n == 0 || n >= sizeof path || (hash && !hash[1]))
            return kiln_error_set(err, KILN_E_USAGE, "bad asset \"%s\": give PATH or PATH#LABEL",
                                  args[i]);
        memcpy(path, args[i], n);
        path[n] = '\0';
        kiln_asset a;
        kiln_error e;
        roots[i].asset = SIZE_MAX;
        roots[i].arg = args[i];
        set->asked++;
        if (kiln_database_find(p, path, &a, &e) != KILN_OK) {
            if (e.code == KILN_E_OUT_OF_MEMORY) {
                *err = e;
                return e.code;
            }
            note_failure(set, path, &e);
            continue;
        }
        size_t k = 0;
        while (k < *asset_count && strcmp(assets[k].rel, a.rel) != 0) k++;
        if (k == *asset_count) assets[(*asset_count)++] = a;
        else {
            kiln_asset_clear(p, &a);
            set->asked--;
        }
        roots[i].asset = k;
        roots[i].label = hash ? hash + 1 : NULL;
        roots[i].arg = args[i];
    }
    return KILN_OK;
}

/* Index of the artifact kept for id (binary search over the sorted order), or SIZE_MAX. */
static size_t find_id(const kiln_pack_set *s, const size_t *sorted, uint64_t id)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->items[sorted[mid]].asset_id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->count && s->items[sorted[lo]].asset_id == id ? sorted[lo] : SIZE_MAX;
}

typedef struct follow_state {
    kiln_pack_set *set;
    const size_t *sorted;
    size_t *stack;
    size_t depth;
    size_t from; /* the artifact whose references are being followed */
    const kiln_allocator *alloc;
    const kiln_kind_registry *kinds;
    const bool *dropped; /* per asset: failed or left out; its artifacts count as absent */
    const size_t *by;    /* per asset: the asset that pulled it in, SIZE_MAX when asked for */
    const kiln_asset *assets;
    size_t asset_count;
    size_t guilty; /* the asset whose artifact failed the walk (E_CACHE_CORRUPT, E_NOT_IMPORTED) */
} follow_state;

/* A source that asset pulled in, itself or through the sources it pulled in (a material's
 * parent's textures), and that failed or was left out, or NULL: what explains an id its
 * artifacts refer to and no packed artifact has. */
static const char *failed_source_of(const follow_state *f, size_t asset)
{
    for (size_t j = 0; j < f->asset_count; j++) {
        if (!f->dropped[j]) continue;
        /* up the chain of who pulled j in; each step goes to an earlier asset */
        for (size_t up = f->by[j]; up < f->asset_count; up = f->by[up])
            if (up == asset) return f->assets[j].rel;
    }
    return NULL;
}

static kiln_result need(follow_state *f, size_t from, uint64_t id, kiln_error *err)
{
    if (id == 0) return KILN_OK;
    size_t k = find_id(f->set, f->sorted, id);
    if (k != SIZE_MAX && f->dropped[f->set->items[f->set->items[k].canonical].asset]) k = SIZE_MAX;
    if (k == SIZE_MAX) {
        f->guilty = f->set->items[from].asset;
        const char *source = failed_source_of(f, f->guilty);
        if (source) {
            kiln_error_set(err, KILN_E_NOT_IMPORTED,
                           "%s needs asset id %016llx, which is not packed: the source it "
                           "depends on, %s, failed; left out",
                           f->set->items[from].name, (unsigned long long)id, source);
            kiln_error_at_path(err, f->set->items[from].file);
            return KILN_E_NOT_IMPORTED;
        }
        if (json_array_size(f->set->failed))
            kiln_error_set(
                err, KILN_E_CACHE_CORRUPT,
                "%s needs asset id %016llx, which is not packed (an asset that failed, or "
                "a damaged entry): left out",
                f->set->items[from].name, (unsigned long long)id);
        else
            kiln_error_set(
                err, KILN_E_CACHE_CORRUPT,
                "%s refers to asset id %016llx, which no artifact of the packed assets has",
                f->set->items[from].name, (unsigned long long)id);
        kiln_error_at_path(err, f->set->items[from].file);
        return KILN_E_CACHE_CORRUPT;
    }
    k = f->set->items[k].canonical;
    if (!f->set->items[k].selected) {
        f->set->items[k].selected = true;
        f->stack[f->depth++] = k;
    }
    return KILN_OK;
}

/* Keeps one reference of the artifact being read (f->from). */
static kiln_result on_ref(void *user, uint64_t id, uint32_t kind, uint32_t flags, kiln_error *err)
{
    follow_state *f = user;
    (void)kind;
    (void)flags; /* every reference ships in the same pack, loaded with it or not */
    kiln_pack_artifact *x = &f->set->items[f->from];
    if (x->ref_count == x->ref_cap) {
        size_t n = x->ref_cap ? x->ref_cap * 2 : 8;
        uint64_t *ids = kiln_realloc(f->alloc, x->refs, x->ref_cap * sizeof *ids, n * sizeof *ids);
        if (!ids) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        x->refs = ids;
        x->ref_cap = n;
    }
    x->refs[x->ref_count++] = id;
    return KILN_OK;
}

/* The ids an artifact's kind's refs lists, read (the kind's reader checks every byte first) on
 * the first walk that reaches it and kept in the artifact. A fourcc no kind has is packed as it
 * is, referring to nothing. */
static kiln_result read_refs(follow_state *f, size_t i, kiln_error *err)
{
    kiln_pack_artifact *x = &f->set->items[i];
    x->ref_count = 0;
    const kiln_cooked_kind *k = kiln_kinds_cooked_of_fourcc(f->kinds, x->kind);
    if (!k || !k->refs) return KILN_OK;
    /* Views are small records (pointers, counts, a few inline tables): on the stack, unless a
     * kind's is larger. */
    _Alignas(max_align_t) uint8_t local[1024];
    void *view = k->view_size <= sizeof local ? local : kiln_alloc(f->alloc, k->view_size);
    if (!view) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_result r = k->read(x->map.data, x->map.size, 0, view, err);
    if (r == KILN_OK) {
        f->from = i;
        r = k->refs(view, on_ref, f, err);
    }
    if (view != local) kiln_free(f->alloc, view, k->view_size);
    if (r != KILN_OK && r != KILN_E_OUT_OF_MEMORY) {
        /* A reader refused the bytes its manifest vouched for: a damaged or foreign entry. */
        if (err) {
            kiln_error_prefix(err, "%s: ", x->name);
            err->code = KILN_E_CACHE_CORRUPT;
            kiln_error_at_path(err, x->file);
        }
        r = KILN_E_CACHE_CORRUPT;
    }
    return r;
}

/* Each asset id an artifact refers to, through `need`. */
static kiln_result follow(follow_state *f, size_t i, kiln_error *err)
{
    kiln_pack_artifact *x = &f->set->items[i];
    if (!x->refs_read) {
        kiln_result r = read_refs(f, i, err);
        if (r == KILN_E_CACHE_CORRUPT) f->guilty = x->asset;
        if (r != KILN_OK) return r;
        x->refs_read = true;
    }
    for (size_t k = 0; k < x->ref_count; k++) {
        kiln_result r = need(f, i, x->refs[k], err);
        if (r != KILN_OK) return r;
    }
    return KILN_OK;
}

/* Same id twice: equal bytes are packed once; different bytes are a conflict naming both. */
static kiln_result resolve_conflicts(kiln_project *p, kiln_pack_set *s, const size_t *sorted,
                                     const kiln_asset *assets, kiln_error *err)
{
    for (size_t i = 1; i < s->count; i++) {
        kiln_pack_artifact *a = &s->items[sorted[i - 1]], *b = &s->items[sorted[i]];
        if (a->asset_id != b->asset_id) continue;
        if (a->map.size == b->map.size && !memcmp(a->map.data, b->map.data, a->map.size)) {
            b->duplicate = true;
            b->canonical = a->canonical;
            continue;
        }
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "asset id %016llx is both %s and %s, with different bytes: their sources "
                       "share GUID %s; give one of their .meta files a new guid",
                       (unsigned long long)a->asset_id, a->name, b->name, assets[b->asset].guid);
        char meta[KILN_PATH_MAX];
        if (kiln_path_format(meta, sizeof meta, "%s.meta", assets[b->asset].abs))
            kiln_error_at_path(err, meta);
        return KILN_E_IMPORT_SETTINGS;
    }
    (void)p;
    return KILN_OK;
}

/* Marks the artifacts asked for and, following references, those they need. An asset with an
 * artifact that refers to an id no artifact has (or only a dropped asset's), or that its reader
 * refuses, is dropped: listed in set->failed and the walk started again without it, so what
 * referred to it goes too. At most one walk per asset. Errors: E_USAGE (an unknown label) and
 * those of the whole command. */
static kiln_result select_roots(kiln_project *p, kiln_pack_set *s, const kiln_asset *assets,
                                size_t asset_count, const pack_root *roots, size_t root_count,
                                bool all, bool *dropped, follow_state *f, kiln_error *err)
{
    (void)p;
again:
    for (size_t i = 0; i < s->count; i++) s->items[i].selected = false;
    f->depth = 0;
    for (size_t a = 0; a < asset_count; a++) {
        if (dropped[a]) continue;
        /* a's roots: every artifact of a, or the labels asked for (a source pulled in has none:
         * what of it is packed is what the others refer to) */
        bool whole = all && f->by[a] == SIZE_MAX;
        for (size_t k = 0; !whole && k < root_count; k++)
            whole = roots[k].asset == a && !roots[k].label;
        for (size_t i = 0; whole && i < s->count; i++)
            if (s->items[i].asset == a) (void)need(f, i, s->items[i].asset_id, err);
        for (size_t k = 0; k < root_count; k++) {
            if (roots[k].asset != a || !roots[k].label) continue;
            const char *rel = assets[a].rel;
            size_t found = SIZE_MAX;
            for (size_t i = 0; i < s->count && found == SIZE_MAX; i++) {
                const char *name = s->items[i].name;
                if (s->items[i].asset == a && !strcmp(name + strlen(rel) + 1, roots[k].label))
                    found = i;
            }
            if (found == SIZE_MAX) {
                char labels[200] = "";
                size_t used = 0;
                for (size_t i = 0; i < s->count && used < sizeof labels - 1; i++)
                    if (s->items[i].asset == a)
                        used +=
                            (size_t)snprintf(labels + used, sizeof labels - used, "%s%s",
                                             used ? ", " : "", s->items[i].name + strlen(rel) + 1);
                return kiln_error_set(err, KILN_E_USAGE,
                                      "%s has no artifact labelled \"%s\" (it has: %s)", rel,
                                      roots[k].label, labels);
            }
            (void)need(f, found, s->items[found].asset_id, err);
        }
        kiln_result r = KILN_OK;
        while (r == KILN_OK && f->depth) r = follow(f, f->stack[--f->depth], err);
        if ((r == KILN_E_CACHE_CORRUPT || r == KILN_E_NOT_IMPORTED) && f->guilty < asset_count &&
            !dropped[f->guilty]) {
            dropped[f->guilty] = true;
            note_failure(s, assets[f->guilty].rel, err);
            s->asset_count--;
            goto again;
        }
        if (r != KILN_OK) return r;
    }
    return KILN_OK;
}

/* Keeps the assets whose name lies under the folder name under ("engine", "engine/shaders"). */
static kiln_result keep_under(kiln_project *p, const char *under, kiln_asset *assets, size_t *n,
                              kiln_error *err)
{
    char name[KILN_PATH_MAX], dir[KILN_PATH_MAX];
    snprintf(name, sizeof name, "%s", under);
    size_t len = strlen(name);
    while (len > 0 && name[len - 1] == '/') name[--len] = '\0';
    if (!len || !kiln_path_is_safe_relative(name) ||
        !kiln_roots_file_of(p, name, dir, sizeof dir) || !kiln_dir_exists(dir))
        return kiln_error_set(err, KILN_E_USAGE,
                              "--under %s names no folder of the asset root%s (a folder name "
                              "such as %s)",
                              under, kiln_roots_named(p) ? "s" : "",
                              kiln_roots_named(p) ? p->roots[0].prefix : "textures");
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        if (!strncmp(assets[i].rel, name, len) && assets[i].rel[len] == '/') {
            if (kept != i) {
                kiln_asset t = assets[kept];
                assets[kept] = assets[i];
                assets[i] = t;
            }
            kept++;
        }
    }
    for (size_t i = kept; i < *n; i++) kiln_asset_clear(p, &assets[i]);
    *n = kept;
    return KILN_OK;
}

/* The assets of a pack: those asked for, then the sources they depend on that were pulled in.
 * Entries past count are zeroed (cleared or never filled), so clearing all cap of them frees
 * what any holds. */
typedef struct pack_assets {
    kiln_asset *items;
    size_t count, cap;
    size_t bytes;  /* the allocation of items (the scan's, or ours) */
    bool *dropped; /* per asset: failed or left out (cap of them) */
    size_t *by;    /* per asset: the asset that pulled it in, SIZE_MAX when asked for */
    json_t *names; /* rel -> true: every asset in items */
} pack_assets;

static void pack_assets_free(kiln_project *p, pack_assets *pa)
{
    for (size_t i = 0; pa->items && i < pa->cap; i++) kiln_asset_clear(p, &pa->items[i]);
    if (pa->items) kiln_free(&p->allocator, pa->items, pa->bytes);
    kiln_free(&p->allocator, pa->dropped, (pa->cap ? pa->cap : 1) * sizeof *pa->dropped);
    kiln_free(&p->allocator, pa->by, (pa->cap ? pa->cap : 1) * sizeof *pa->by);
    json_decref(pa->names);
    memset(pa, 0, sizeof *pa);
}

/* dropped, by and names for the assets in items (cap of them), after the scan or the arguments. */
static kiln_result pack_assets_start(kiln_project *p, pack_assets *pa, kiln_error *err)
{
    pa->dropped = kiln_calloc(&p->allocator, pa->cap ? pa->cap : 1, sizeof *pa->dropped);
    pa->by = kiln_calloc(&p->allocator, pa->cap ? pa->cap : 1, sizeof *pa->by);
    pa->names = json_object();
    if (!pa->dropped || !pa->by || !pa->names)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < pa->cap; i++) pa->by[i] = SIZE_MAX;
    for (size_t i = 0; i < pa->count; i++)
        if (json_object_set_new(pa->names, pa->items[i].rel, json_true()) != 0)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    return KILN_OK;
}

/* Appends a (taken over: cleared on failure too), pulled in by asset by. */
static kiln_result pack_assets_add(kiln_project *p, pack_assets *pa, kiln_asset *a, size_t by,
                                   kiln_error *err)
{
    if (pa->count == pa->cap) { /* new arrays, the old ones moved over: a failure changes nothing */
        size_t cap = pa->cap ? pa->cap * 2 : 8, old = pa->cap ? pa->cap : 1;
        kiln_asset *items = kiln_calloc(&p->allocator, cap, sizeof *items);
        bool *dropped = kiln_calloc(&p->allocator, cap, sizeof *dropped);
        size_t *bys = kiln_calloc(&p->allocator, cap, sizeof *bys);
        if (!items || !dropped || !bys) {
            kiln_free(&p->allocator, items, cap * sizeof *items);
            kiln_free(&p->allocator, dropped, cap * sizeof *dropped);
            kiln_free(&p->allocator, bys, cap * sizeof *bys);
            kiln_asset_clear(p, a);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        }
        if (pa->cap) {
            memcpy(items, pa->items, pa->cap * sizeof *items);
            memcpy(dropped, pa->dropped, pa->cap * sizeof *dropped);
            memcpy(bys, pa->by, pa->cap * sizeof *bys);
        }
        for (size_t i = pa->cap; i < cap; i++) bys[i] = SIZE_MAX;
        if (pa->items) kiln_free(&p->allocator, pa->items, pa->bytes);
        kiln_free(&p->allocator, pa->dropped, old * sizeof *dropped);
        kiln_free(&p->allocator, pa->by, old * sizeof *bys);
        pa->items = items;
        pa->bytes = cap * sizeof *items;
        pa->dropped = dropped;
        pa->by = bys;
        pa->cap = cap;
    }
    if (json_object_set_new(pa->names, a->rel, json_true()) != 0) {
        kiln_asset_clear(p, a);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    pa->items[pa->count] = *a;
    pa->by[pa->count++] = by;
    memset(a, 0, sizeof *a);
    return KILN_OK;
}

/* Imports the assets from `from` on and maps the artifacts of each that did not fail; one that
 * fails is listed in set->failed and dropped. Returns only errors of the whole command. */
static kiln_result import_and_gather(kiln_project *p, kiln_pack_set *set, pack_assets *pa,
                                     size_t from, uint32_t import_flags, kiln_error *err)
{
    json_t *doc = NULL;
    /* An import that failed for some assets still returns the document: their records say why. */
    kiln_error import_err;
    size_t n = pa->count - from;
    kiln_result r = kiln_import_assets(p, pa->items + from, n, import_flags, &doc, &import_err);
    if (!doc) {
        *err = import_err;
        return r;
    }
    if (r != KILN_OK && set->first.code == KILN_OK) set->first = import_err;
    r = KILN_OK;
    size_t k;
    json_t *rec;
    json_array_foreach (json_object_get(doc, "records"), k, rec) {
        if (k >= n) break;
        size_t i = from + k;
        kiln_asset *a = &pa->items[i];
        const char *status = kiln_json_str(rec, "status", "");
        if (!strcmp(status, "failed")) {
            json_array_append_new(set->failed, json_pack("{s:s,s:O}", "path", a->rel, "error",
                                                         json_object_get(rec, "error")));
            pa->dropped[i] = true;
            continue;
        }
        if (!strcmp(status, "unsupported")) {
            json_array_append_new(set->skipped,
                                  json_pack("{s:s,s:s}", "path", a->rel, "status", status));
            continue;
        }
        kiln_error e;
        const char *key = kiln_json_str(rec, "key", "");
        kiln_result ar = gather_entry(p, set, a, i, key, &e);
        if (ar == KILN_E_CACHE_CORRUPT) ar = recook(p, set, a, i, key, &e);
        if (ar == KILN_E_OUT_OF_MEMORY) {
            *err = e;
            r = ar;
            break;
        }
        if (ar != KILN_OK) { /* still damaged after cooking again: this asset fails */
            note_failure(set, a->rel, &e);
            pa->dropped[i] = true;
            continue;
        }
        set->asset_count++;
    }
    json_decref(doc);
    return r;
}

/* Pulls in the sources asset i depends on when its kind's dependencies are sources (a typed
 * material's parent, shaders and textures: its artifact refers to theirs by asset id; a model's
 * templates, whose shaders and textures its typed materials refer to: pulled in their turn), as
 * its record lists them, unless they are in already. One that is not an asset of the project is
 * a failure. */
static kiln_result pull_sources(kiln_project *p, kiln_pack_set *set, pack_assets *pa, size_t i,
                                kiln_error *err)
{
    const kiln_source_kind *kind = pa->items[i].kind;
    if (!kind || (!kind->deps_are_assets && !kind->asset_dependencies)) return KILN_OK;
    json_t *paths = kiln_deps_recorded_sources(p, &pa->items[i]);
    kiln_result r = KILN_OK;
    size_t k;
    json_t *v;
    json_array_foreach (paths, k, v) {
        const char *abs = json_string_value(v);
        kiln_file_info fi;
        if (kiln_file_stat(abs, &fi, NULL) != KILN_OK || !fi.is_file) continue; /* missing */
        kiln_asset dep;
        kiln_error e;
        if (kiln_database_find(p, abs, &dep, &e) != KILN_OK) {
            if (e.code == KILN_E_OUT_OF_MEMORY) {
                *err = e;
                r = e.code;
                break;
            }
            char name[KILN_PATH_MAX];
            set->asked++;
            note_failure(set, kiln_roots_name_of(p, abs, name, sizeof name) ? name : abs, &e);
            continue;
        }
        if (json_object_get(pa->names, dep.rel)) {
            kiln_asset_clear(p, &dep);
            continue;
        }
        set->asked++;
        if ((r = pack_assets_add(p, pa, &dep, i, err)) != KILN_OK) break;
    }
    json_decref(paths);
    return r;
}

kiln_result kiln_pack_gather(kiln_project *p, const char *const *args, size_t count, uint32_t flags,
                             const char *under, kiln_pack_set *set, kiln_error *err)
{
    memset(set, 0, sizeof *set);
    set->skipped = json_array();
    set->failed = json_array();
    bool all = (flags & KILN_IMPORT_ALL) != 0;
    pack_assets pa;
    memset(&pa, 0, sizeof pa);
    pack_root *roots = NULL;
    size_t *sorted = NULL, *stack = NULL;
    kiln_result r;
    if (all) {
        size_t scanned = 0;
        r = kiln_database_scan(p, &pa.items, &scanned, err);
        if (r != KILN_OK) return r;
        pa.count = pa.cap = scanned;
        pa.bytes = (scanned ? scanned : 1) * sizeof *pa.items; /* as kiln_assets_free frees it */
        if (under && (r = keep_under(p, under, pa.items, &pa.count, err)) != KILN_OK) goto out;
        set->asked = pa.count;
    } else {
        if (count == 0)
            return kiln_error_set(err, KILN_E_USAGE, "nothing to pack: give assets or --all");
        pa.items = kiln_calloc(&p->allocator, count, sizeof *pa.items);
        pa.cap = count;
        pa.bytes = count * sizeof *pa.items;
        roots = kiln_calloc(&p->allocator, count, sizeof *roots);
        if (!pa.items || !roots) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            goto out;
        }
        r = resolve_args(p, args, count, pa.items, &pa.count, roots, set, err);
        if (r != KILN_OK) goto out;
    }
    r = pack_assets_start(p, &pa, err);
    /* Part of the assets (--under) is no import of all: the index keeps the others' rows. */
    if (r == KILN_OK)
        r = import_and_gather(p, set, &pa, 0, all && !under ? KILN_IMPORT_ALL : 0, err);
    /* The sources they depend on, transitively (a material's parent brings the shaders and
     * textures it names), pulled in and imported in rounds; of those, what is packed is what the
     * walk below finds referred to (a parent's own material is not). With all, only a source
     * the scan leaves out (an ignore rule) is not in already. */
    for (size_t done = 0; r == KILN_OK && done < pa.count;) {
        size_t end = pa.count;
        for (size_t i = done; r == KILN_OK && i < end; i++)
            if (!pa.dropped[i]) r = pull_sources(p, set, &pa, i, err);
        if (r == KILN_OK && pa.count > end) r = import_and_gather(p, set, &pa, end, 0, err);
        done = end;
    }
    if (r != KILN_OK) goto out;
    sorted = kiln_calloc(&p->allocator, set->count ? set->count : 1, sizeof *sorted);
    stack = kiln_calloc(&p->allocator, set->count ? set->count : 1, sizeof *stack);
    if (!sorted || !stack) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        goto out;
    }
    {
        kiln_id_place *keys = kiln_calloc(&p->allocator, set->count ? set->count : 1, sizeof *keys);
        if (!keys) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            goto out;
        }
        for (size_t k = 0; k < set->count; k++)
            keys[k] = (kiln_id_place){set->items[k].asset_id, k};
        qsort(keys, set->count, sizeof *keys, kiln_id_place_order);
        for (size_t k = 0; k < set->count; k++) sorted[k] = keys[k].place;
        kiln_free(&p->allocator, keys, (set->count ? set->count : 1) * sizeof *keys);
    }
    r = resolve_conflicts(p, set, sorted, pa.items, err);
    if (r != KILN_OK) goto out;
    follow_state f = {set,      sorted,     stack, 0,        0,        &p->allocator,
                      p->kinds, pa.dropped, pa.by, pa.items, pa.count, SIZE_MAX};
    r = select_roots(p, set, pa.items, pa.count, roots, all ? 0 : count, all, pa.dropped, &f, err);
    if (r == KILN_OK) { /* a source pulled in of which nothing is packed is no asset of the pack */
        bool *used = kiln_calloc(&p->allocator, pa.count ? pa.count : 1, sizeof *used);
        if (!used) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < set->count; i++) {
            const kiln_pack_artifact *x = &set->items[i];
            if (x->selected || (x->duplicate && set->items[x->canonical].selected))
                used[x->asset] = true;
        }
        for (size_t a = 0; a < pa.count; a++)
            if (pa.by[a] != SIZE_MAX && !pa.dropped[a] && !used[a] && set->asset_count)
                set->asset_count--;
        kiln_free(&p->allocator, used, (pa.count ? pa.count : 1) * sizeof *used);
    }
out:
    kiln_free(&p->allocator, sorted, (set->count ? set->count : 1) * sizeof *sorted);
    kiln_free(&p->allocator, stack, (set->count ? set->count : 1) * sizeof *stack);
    if (roots) kiln_free(&p->allocator, roots, count * sizeof *roots);
    pack_assets_free(p, &pa);
    return r;
}

static const char *kind_name(uint32_t kind, char out[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)(kind >> (8 * i));
        out[i] = c >= 32 && c < 127 ? c : '?';
    }
    out[4] = '\0';
    return out;
}

static const char *const compress_names[] = {"auto", "none", "zstd"};

/* The pack's path: the caller's output wherever it lies (the caller named it, as kiln texture's
 * OUT; what must stay confined are sources and paths read from files), else <out>/game.kpak. */
static kiln_result output_path(kiln_project *p, const kiln_pack_opts *o, char out[KILN_PATH_MAX],
                               kiln_error *err)
{
    if (o->output && o->output[0]) return kiln_path_absolute(o->output, out, KILN_PATH_MAX, err);
    kiln_result r = kiln_path_join(p->out, "game.kpak", out, KILN_PATH_MAX, err);
    if (r == KILN_OK) r = kiln_project_check_write(p, out, err);
    return r;
}

KILN_API kiln_result kiln_project_pack(kiln_project *p, const char *const *assets, size_t count,
                                       uint32_t flags, const kiln_pack_opts *opts,
                                       char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_pack_opts o = {0};
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    if (o.compress > KILN_PACK_COMPRESS_ZSTD)
        return kiln_error_set(err, KILN_E_USAGE, "unknown compression %u", o.compress);
    char path[KILN_PATH_MAX];
    kiln_result r = output_path(p, &o, path, err);
    if (r != KILN_OK) return r;
    kiln_pack_set set;
    r = kiln_pack_gather(p, assets, count, flags, o.under, &set, err);
    kiln_pack_input *in = NULL;
    kiln_pack_write_entry *written = NULL;
    size_t *which = NULL;
    size_t n = 0, cap = set.count ? set.count : 1;
    uint8_t *bytes = NULL;
    size_t size = 0;
    kiln_pack_write_stats stats;
    if (r != KILN_OK) goto out;
    size_t nfailed = json_array_size(set.failed);
    size_t asked = set.asked - json_array_size(set.skipped);
    if (nfailed && !o.keep_going) {
        /* Nothing is written; the document lists every failure (not only the first). */
        char msg[sizeof err->message];
        size_t rest = set.asset_count; /* what --keep-going would pack */
        if (rest)
            snprintf(msg, sizeof msg,
                     "%zu of %zu assets failed, so nothing was packed; --keep-going "
                     "packs the other %zu",
                     nfailed, asked, rest);
        else
            snprintf(msg, sizeof msg, "%zu of %zu assets failed, so nothing was packed", nfailed,
                     asked);
        json_t *doc = json_object(), *e = json_object(), *totals = json_object();
        json_object_set_new(e, "code", json_string(kiln_result_name(set.first.code)));
        json_object_set_new(e, "message", json_string(msg));
        json_object_set_new(totals, "assets", json_integer((json_int_t)asked));
        json_object_set_new(totals, "failed", json_integer((json_int_t)nfailed));
        json_object_set_new(doc, "command", json_string("pack"));
        json_object_set_new(doc, "output", json_string(path));
        json_object_set_new(doc, "error", e);
        json_object_set(doc, "failed", set.failed);
        json_object_set_new(doc, "totals", totals);
        *result_json = kiln_project_take_json(doc);
        if (err) *err = set.first;
        r = set.first.code;
        goto out;
    }
    in = kiln_calloc(&p->allocator, cap, sizeof *in);
    written = kiln_calloc(&p->allocator, cap, sizeof *written);
    which = kiln_calloc(&p->allocator, cap, sizeof *which);
    if (!in || !written || !which) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < set.count; i++) {
        const kiln_pack_artifact *x = &set.items[i];
        if (!x->selected || x->duplicate) continue;
        in[n].asset_id = x->asset_id;
        in[n].kind = x->kind;
        in[n].name = x->name;
        in[n].data = x->map.data;
        in[n].size = x->map.size;
        which[n++] = i;
    }
    kiln_pack_write_opts wo = {0};
    wo.compress = o.compress; /* the public and the writer's values are the same */
    wo.level = o.level;
    wo.align_4096 = o.align_4096;
    wo.jobs = p->jobs;
    wo.alloc = &p->allocator;
    wo.progress = p->progress;
    r = kiln_pack_write(in, n, &wo, &bytes, &size, written, &stats, err);
    if (r != KILN_OK) goto out;
    /* Read back what is about to be published: a writer bug must not ship. */
    kiln_pack check;
    r = kiln_pack_open_memory(bytes, size, 0, &check, err);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "internal: the pack written does not read back: ");
        err->code = r = KILN_E_INTERNAL;
        goto out;
    }
    /* Its folder is made only now, so a pack that fails earlier leaves no trace. */
    char dir[KILN_PATH_MAX];
    if (kiln_path_dirname(path, dir, sizeof dir)) r = kiln_mkdirs(dir, err);
    if (r == KILN_OK) r = kiln_file_write_atomic(path, bytes, size, err);
    if (r != KILN_OK) goto out;

    uint8_t d[KILN_SHA256_SIZE];
    char hex[KILN_SHA256_HEX_SIZE], id[17], kind[5];
    r = kiln_sha256_bytes(bytes, size, d, err);
    if (r != KILN_OK) goto out;
    kiln_hex(d, sizeof d, hex);
    json_t *doc = json_object(), *list = json_array(), *totals = json_object();
    for (size_t k = 0; k < n; k++) {
        snprintf(id, sizeof id, "%016llx", (unsigned long long)in[k].asset_id);
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(in[k].name));
        json_object_set_new(e, "asset_id", json_string(id));
        json_object_set_new(e, "kind", json_string(kind_name(in[k].kind, kind)));
        json_object_set_new(e, "size", json_integer((json_int_t)in[k].size));
        json_object_set_new(e, "stored_size", json_integer((json_int_t)written[k].stored_size));
        json_object_set_new(e, "compression",
                            json_string(written[k].compression == KILN_PACK_ZSTD ? "zstd" : "raw"));
        json_object_set_new(e, "payload", json_integer(written[k].payload));
        json_object_set_new(e, "shared", json_boolean(written[k].shared));
        json_array_append_new(list, e);
    }
    size_t duplicates = 0;
    for (size_t i = 0; i < set.count; i++) /* equal artifacts folded into one that is packed */
        duplicates += set.items[i].duplicate && set.items[set.items[i].canonical].selected;
    json_object_set_new(totals, "assets", json_integer((json_int_t)set.asset_count));
    json_object_set_new(totals, "failed", json_integer((json_int_t)nfailed));
    json_object_set_new(totals, "entries", json_integer((json_int_t)stats.entries));
    json_object_set_new(totals, "payloads", json_integer((json_int_t)stats.payloads));
    json_object_set_new(totals, "compressed", json_integer((json_int_t)stats.compressed));
    json_object_set_new(totals, "merged", json_integer((json_int_t)duplicates));
    json_object_set_new(totals, "entry_bytes", json_integer((json_int_t)stats.entry_bytes));
    json_object_set_new(totals, "payload_bytes", json_integer((json_int_t)stats.payload_bytes));
    json_object_set_new(totals, "stored_bytes", json_integer((json_int_t)stats.stored_bytes));
    json_object_set_new(totals, "file_size", json_integer((json_int_t)size));
    json_object_set_new(doc, "command", json_string("pack"));
    json_object_set_new(doc, "output", json_string(path));
    json_object_set_new(doc, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    json_object_set_new(doc, "compress", json_string(compress_names[o.compress]));
    json_object_set_new(doc, "level", json_integer(o.level ? o.level : KILN_PACK_DEFAULT_LEVEL));
    json_object_set_new(doc, "align", json_integer(o.align_4096 ? 4096 : 16));
    json_object_set_new(doc, "sha256", json_string(hex));
    json_object_set_new(doc, "entries", list);
    json_object_set(doc, "skipped", set.skipped);
    json_object_set(doc, "failed", set.failed);
    json_object_set_new(doc, "totals", totals);
    *result_json = kiln_project_take_json(doc);
    if (nfailed) { /* --keep-going: the rest is packed, the command still failed */
        if (err) *err = set.first;
        r = set.first.code;
    }
out:
    kiln_free(&p->allocator, bytes, size);
    kiln_free(&p->allocator, in, cap * sizeof *in);
    kiln_free(&p->allocator, written, cap * sizeof *written);
    kiln_free(&p->allocator, which, cap * sizeof *which);
    kiln_pack_set_free(p, &set);
    return r;
}

KILN_API kiln_result kiln_pack_verify_file(const char *path, char **result_json, kiln_error *err)
{
    *result_json = NULL;
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(path, SIZE_MAX, &m, err);
    if (r != KILN_OK) return r;
    kiln_pack pk;
    r = kiln_pack_open_memory(m.data, m.size, 0, &pk, err);
    if (r == KILN_OK) r = kiln_pack_verify(&pk, NULL, err);
    if (r != KILN_OK) {
        if (err && !err->path[0]) kiln_error_at_path(err, path);
        kiln_file_unmap(&m);
        return r;
    }
    uint64_t stored = 0;
    size_t compressed = 0;
    uint32_t next = 0; /* payloads are numbered in the order entries first use them */
    for (uint32_t i = 0; i < pk.entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(&pk, i);
        if (e.payload != next) continue;
        next++;
        stored += e.stored_size;
        compressed += e.compression == KILN_PACK_ZSTD;
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("pack"));
    json_object_set_new(doc, "verify", json_string(path));
    json_object_set_new(doc, "ok", json_true());
    json_object_set_new(doc, "entries", json_integer(pk.entry_count));
    json_object_set_new(doc, "payloads", json_integer(pk.payload_count));
    json_object_set_new(doc, "compressed", json_integer((json_int_t)compressed));
    json_object_set_new(doc, "entry_bytes", json_integer((json_int_t)pk.total_size));
    json_object_set_new(doc, "stored_bytes", json_integer((json_int_t)stored));
    json_object_set_new(doc, "file_size", json_integer((json_int_t)m.size));
    json_object_set_new(doc, "align", json_integer(pk.flags & KILN_PACK_ALIGN_4096 ? 4096 : 16));
    kiln_file_unmap(&m);
    *result_json = kiln_project_take_json(doc);
    return KILN_OK;
}
