/* rt_decode.c — what a load job does with a file, whatever its type: read it (or map it, or view
 * it in a pack), verify it against the manifest (size; the digest for kinds without a checksum
 * of their own, KTX2; the container checksum, checked by the kind's reader, for the rest), hand
 * it to the type's decode (rt_type_<name>.c: the kind's reader, then the type's own work), and
 * collect the dependencies from the cooked kind's refs. Also freeing, linking and swapping what
 * a job made, through the type's ops. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "codec/id_order.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"
#include "runtime/rt_asset.h"

static kiln_result add_dep(krt_decoded *a, size_t *cap, uint64_t id, uint32_t type,
                           const kiln_allocator *al, kiln_error *err)
{
    if (a->dep_count == *cap) {
        size_t n = *cap ? *cap * 2 : 8;
        if (n > (1u << 24)) return kiln_error_set(err, KILN_E_LIMIT, "too many dependencies");
        uint64_t *ids = kiln_alloc(al, n * sizeof *ids);
        uint32_t *types = kiln_alloc(al, n * sizeof *types);
        if (!ids || !types) {
            kiln_free(al, ids, n * sizeof *ids);
            kiln_free(al, types, n * sizeof *types);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for dependencies");
        }
        if (a->dep_count) {
            memcpy(ids, a->dep_ids, a->dep_count * sizeof *ids);
            memcpy(types, a->dep_types, a->dep_count * sizeof *types);
        }
        kiln_free(al, a->dep_ids, *cap * sizeof *ids);
        kiln_free(al, a->dep_types, *cap * sizeof *types);
        a->dep_ids = ids;
        a->dep_types = types;
        *cap = n;
        a->dep_cap = n;
    }
    a->dep_ids[a->dep_count] = id;
    a->dep_types[a->dep_count++] = type;
    return KILN_OK;
}

/* An entry of a mounted pack: raw ones in place (the mapping), compressed ones decompressed
 * here; kiln_pack_entry_view/_read check the entry's XXH3-64 either way. */
static kiln_result read_pack_entry(krt_decoded *a, const krt_source *src, uint64_t max_file_size,
                                   const kiln_allocator *al, kiln_error *err)
{
    kiln_pack_entry e = kiln_pack_entry_at(src->pack, src->entry);
    if (e.size > max_file_size)
        return kiln_error_set(err, KILN_E_LIMIT, "%s: %s is %zu bytes, above max_file_size",
                              src->path, e.name ? e.name : "entry", e.size);
    if (e.compression == KILN_PACK_RAW) {
        const uint8_t *data;
        kiln_result r = kiln_pack_entry_view(src->pack, src->entry, &data, err);
        if (r) return r;
        a->file = (uint8_t *)(uintptr_t)data;
        a->file_size = e.size;
        a->file_borrowed = true;
        return KILN_OK;
    }
    a->file = kiln_alloc_large(al, e.size + 1);
    if (!a->file) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for %s", e.name);
    a->file_size = e.size;
    a->resident += e.size;
    return kiln_pack_entry_read(src->pack, src->entry, a->file, e.size, err);
}

/* Files below this size are read into memory; larger ones are mapped. Setting up, touching and
 * tearing down a mapping costs ~13 us however small the file, on this project's VMs, where a
 * read of 16 KiB into reused heap memory costs ~6 us; a larger file is better mapped (no copy,
 * and no fresh memory to fault in). Materials, skeletons, clips, scenes and small meshes are
 * read. */
#define KRT_READ_BELOW ((uint64_t)16 << 10)
_Static_assert(KRT_READ_BELOW < KILN_LARGE_BLOCK, "a read file must stay a kiln_alloc block");

/* A loose cache file: read (small) or mapped, never rewritten in place — kiln publishes by
 * rename — so a mapping stays valid. Its size is checked against the manifest by the caller. */
static kiln_result read_loose_file(krt_decoded *a, const krt_source *src, uint64_t max_file_size,
                                   const kiln_allocator *al, kiln_error *err)
{
    const char *path = src->path;
    if (src->size < KRT_READ_BELOW) {
        uint8_t *data;
        size_t n;
        kiln_result r = kiln_file_read(path, (size_t)src->size, al, &data, &n, err);
        if (r == KILN_E_LIMIT) {
            kiln_error_set(err, KILN_E_CACHE_CORRUPT,
                           "%s is larger than the %llu bytes its manifest says", path,
                           (unsigned long long)src->size);
            kiln_error_at_path(err, path);
            return KILN_E_CACHE_CORRUPT;
        }
        if (r) return r;
        /* freed by krt_asset_free_data with kiln_free_large(file_size + 1): below
         * KILN_LARGE_BLOCK that is kiln_free, as kiln_file_read allocated it */
        a->file = data;
        a->file_size = n;
        a->resident += n;
        return KILN_OK;
    }
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(
        path, max_file_size > SIZE_MAX - 1 ? SIZE_MAX - 1 : (size_t)max_file_size, &m, err);
    if (r) return r;
    a->file = (uint8_t *)(uintptr_t)m.data;
    a->file_size = m.size;
    a->file_mapped = m.mapping != NULL;
    a->file_borrowed = m.mapping == NULL; /* an empty file maps to a static "" */
    a->resident += a->file_size;
    return KILN_OK;
}

/* A KTX2 file has no checksum of its own: the manifest's digest is the check (a pack's entries
 * carry their own XXH3-64, checked as they are read). XXH3-128 where the manifest has it (memory
 * speed), else SHA-256 (kiln's own, SHA-NI when present: ~1.3 GB/s). */
static bool file_matches(const krt_decoded *a, const krt_source *src)
{
    if (src->has_xxh3) {
        uint8_t x[16];
        kiln_xxh3_128(a->file, a->file_size, x);
        return memcmp(x, src->xxh3_128, 16) == 0;
    }
    uint8_t d[32];
    kiln_sha256_bytes(a->file, a->file_size, d, NULL);
    return memcmp(d, src->sha256, 32) == 0;
}

/* The references a kind's refs lists: those the runtime loads with the asset (KILN_REF_LOAD)
 * into its dependency lists, in the kind's order, each with the type that loads its kind.
 * Types are layered, so that no data can make a cycle of assets waiting for each other: the
 * built-in ones by what they are (scene -> mesh -> material -> texture; scene -> clip,
 * skeleton), a registered one loads only built-in types and those registered before it. */
typedef struct dep_walk {
    uint32_t type; /* of the asset */
    krt_decoded *dec;
    size_t cap;
    const krt_type_registry *types;
    const kiln_allocator *alloc;
    uint32_t last_kind, last_type; /* the previous reference's: most come in runs of a kind */
    /* Where the dependencies from KILN_REF_ONCE references stand: repeats are dropped after. */
    size_t *once_pos;
    size_t once_count, once_cap;
} dep_walk;

/* Drops the repeats of ids reported with KILN_REF_ONCE, keeping each one's first place. By
 * sorting rather than hashing: the ids come from the file, and no choice of them makes this
 * slower than n log n. */
static kiln_result drop_once_repeats(dep_walk *w, kiln_error *err)
{
    krt_decoded *d = w->dec;
    size_t n = w->once_count, count = d->dep_count;
    if (n < 2) return KILN_OK;
    kiln_id_place *v = kiln_alloc(w->alloc, n * sizeof *v);
    bool *drop = kiln_calloc(w->alloc, count, sizeof *drop);
    kiln_result r = KILN_OK;
    if (!v || !drop) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for dependencies");
    } else {
        for (size_t k = 0; k < n; k++)
            v[k] = (kiln_id_place){d->dep_ids[w->once_pos[k]], w->once_pos[k]};
        qsort(v, n, sizeof *v, kiln_id_place_order);
        for (size_t k = 1; k < n; k++)
            if (v[k].id == v[k - 1].id) drop[v[k].place] = true;
        size_t kept = 0;
        for (size_t i = 0; i < count; i++) {
            if (drop[i]) continue;
            d->dep_ids[kept] = d->dep_ids[i];
            d->dep_types[kept++] = d->dep_types[i];
        }
        d->dep_count = kept;
    }
    kiln_free(w->alloc, v, n * sizeof *v);
    kiln_free(w->alloc, drop, count * sizeof *drop);
    return r;
}

/* Notes that the dependency just added came from a KILN_REF_ONCE reference. */
static kiln_result note_once(dep_walk *w, kiln_error *err)
{
    if (w->once_count == w->once_cap) {
        size_t n = w->once_cap ? w->once_cap * 2 : 16;
        size_t *pos =
            kiln_realloc(w->alloc, w->once_pos, w->once_cap * sizeof *pos, n * sizeof *pos);
        if (!pos)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for dependencies");
        w->once_pos = pos;
        w->once_cap = n;
    }
    w->once_pos[w->once_count++] = w->dec->dep_count - 1;
    return KILN_OK;
}

static kiln_result on_ref(void *user, uint64_t id, uint32_t kind, uint32_t flags, kiln_error *err)
{
    dep_walk *w = user;
    if (!(flags & KILN_REF_LOAD)) return KILN_OK;
    if (kind != w->last_kind || !w->last_type) {
        w->last_kind = kind;
        w->last_type = krt_types_of_fourcc(w->types, kind);
    }
    if (!w->last_type)
        return kiln_error_set(err, KILN_E_USAGE,
                              "it refers to asset %016llx of kind %08x, which no type of this "
                              "context loads",
                              (unsigned long long)id, kind);
    if (w->type >= KRT_TYPE_COUNT && w->last_type >= w->type)
        return kiln_error_set(err, KILN_E_USAGE,
                              "it refers to asset %016llx of type %s: a registered type loads "
                              "only built-in types and types registered before it",
                              (unsigned long long)id, krt_types_name(w->types, w->last_type));
    kiln_result r = add_dep(w->dec, &w->cap, id, w->last_type, w->alloc, err);
    if (r == KILN_OK && (flags & KILN_REF_ONCE)) r = note_once(w, err);
    return r;
}

kiln_result krt_asset_decode(krt_asset *a, const krt_source *src, bool verify,
                             uint64_t max_file_size, const krt_type_registry *types,
                             const krt_renderer *rd, const kiln_allocator *al, kiln_error *err)
{
    const char *path = src->path;
    const krt_type_ops *t = a->ops;
    krt_decoded *d = &a->dec;
    kiln_result r;
    if (src->pack) {
        r = read_pack_entry(d, src, max_file_size, al, err);
        if (r) {
            if (err && !err->path[0]) kiln_error_at_path(err, path);
            return r;
        }
    } else {
        r = read_loose_file(d, src, max_file_size, al, err);
        if (r) return r;
        if (d->file_size != src->size) {
            kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s is %zu bytes, the manifest says %llu",
                           path, d->file_size, (unsigned long long)src->size);
            kiln_error_at_path(err, path);
            return KILN_E_CACHE_CORRUPT;
        }
    }
    if ((t->flags & KRT_TYPE_OPS_DIGEST) && verify && !src->pack && !file_matches(d, src)) {
        kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s does not match the %s of its manifest", path,
                       src->has_xxh3 ? "XXH3-128" : "SHA-256");
        kiln_error_at_path(err, path);
        return KILN_E_CACHE_CORRUPT;
    }
    /* A pack entry's bytes were checked against its own XXH3-64 as they were read: the
     * container's checksum over the same bytes would be a second pass for nothing. */
    krt_decode_args args = {verify && !src->pack ? 0 : KILN_CONTAINER_SKIP_CHECKSUM, rd, al};
    dep_walk w = {a->type, d, 0, types, al, 0, 0, NULL, 0, 0};
    r = t->decode(a, &args, err);
    if (r == KILN_OK && t->kind->refs) r = t->kind->refs(t->view(a), on_ref, &w, err);
    if (r == KILN_OK) r = drop_once_repeats(&w, err);
    kiln_free(al, w.once_pos, w.once_cap * sizeof *w.once_pos);
    if (r && err && !err->path[0]) kiln_error_at_path(err, path);
    if (r == KILN_OK && d->dep_count) {
        d->deps = kiln_calloc(al, d->dep_count, sizeof *d->deps);
        if (!d->deps)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for dependencies");
    }
    d->dep_cap = w.cap;
    return r;
}

void krt_asset_link_deps(krt_asset *a)
{
    if (a->ops->link) a->ops->link(a);
}

void krt_asset_free_data(krt_asset *a, const kiln_allocator *al)
{
    krt_decoded *d = &a->dec;
    if (a->ops->free) a->ops->free(a, al);
    if (d->file && d->file_mapped) {
        kiln_mapped_file m = {d->file, d->file_size, d->file}; /* as kiln_file_map gave it */
        kiln_file_unmap(&m);
    } else if (d->file && !d->file_borrowed) {
        kiln_free_large(al, d->file, d->file_size + 1);
    }
    kiln_free(al, d->dep_ids, d->dep_cap * sizeof *d->dep_ids);
    kiln_free(al, d->dep_types, d->dep_cap * sizeof *d->dep_types);
    kiln_free(al, d->deps, d->dep_count * sizeof *d->deps);
    /* keep identity and bookkeeping; clear what was decoded */
    memset(d, 0, sizeof *d);
    memset(&a->data, 0, sizeof a->data);
}

void krt_asset_swap_data(krt_asset *a, krt_asset *b)
{
    krt_decoded d = a->dec;
    a->dec = b->dec;
    b->dec = d;
    a->ops->swap(a, b); /* both of one type: a reload's staged record is its asset's type */
}
