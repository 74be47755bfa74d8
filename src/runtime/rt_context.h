/* rt_context.h — the context as the runtime's files share it: the registry (slots with
 * generations, id -> slot map), the mounts and where they came from, the budget's LRU list, the
 * material table, the fallbacks and the watcher. One mutex (mu) guards everything but what the
 * comments give to the renderer thread. Functions named *_locked need mu held. */
#ifndef KILN_RT_CONTEXT_H
#define KILN_RT_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/file.h"
#include "runtime/rt_asset.h"
#include "runtime/rt_mount.h"
#include "runtime/rt_pool.h"
#include "runtime/rt_source_check.h"

/* Size classes of the material block table: slots of 256 B, 512 B ... 64 KiB
 * (KILN_TYPED_MATERIAL_MAX_BLOCK). */
#define KRT_BLOCK_CLASSES 9

typedef struct krt_slot {
    krt_asset *asset;
    uint32_t generation; /* 1 .. 2^24-1 */
    uint32_t next_free;  /* slot index + 1; 0 = end */
} krt_slot;

/* A mounted .kpak, mapped while anything uses it: refs counts one for being mounted (held on
 * after an unmount until the mount table no longer names it), one per load or reload job that
 * copied an artifact of it, one per poll that took it, and one per asset (live, kept or a
 * staged reload) whose file is a view into the mapping. The last release unmaps it. */
typedef struct krt_pack_mount {
    kiln_mapped_file map;
    kiln_pack pack;
    uint32_t refs;
    struct krt_pack_mount *next_retired; /* the context's list of unmounted packs */
} krt_pack_mount;

typedef struct krt_mount_source { /* one krt_mount_cache or krt_mount_pack call, in order */
    char *dir;                    /* the cache folder or the pack file */
    char platform[64];            /* a cache's platform ("" = default: KRT_PLATFORM_MAX) */
    krt_pack_mount *pack;         /* NULL for a cache folder */
    uint64_t signature;           /* of its records' names, sizes, times and inodes (caches), of
                                   * the file's size, times and inode (packs) */
    krt_dir_stamp stamp;          /* a cache's assets/ folder when signature was taken */
    int watch;                    /* inotify watch descriptor, -1 when none */
    krt_cache_memo *memo; /* what the last read of a cache parsed (NULL: none, or a poll has it) */
} krt_mount_source;

struct krt_context {
    kiln_allocator allocator;
    krt_desc desc;
    /* The types assets can have: the built-ins and those registered (rt_type_custom.c), fixed
     * before the first mount or load, so read without the lock. */
    krt_type_registry types;
    krt_pool *pool;
    krt_jobs jobs;
    pthread_mutex_t mu;
    krt_mounts mounts;
    krt_mount_source *sources;
    size_t source_count, source_cap;
    bool recheck;            /* a changed asset could not reload yet, or a mount went: compare
                              * (read) again next poll */
    uint64_t mount_serial;   /* bumped by every change of sources[] (mount, unmount, new pack) */
    krt_pack_mount *retired; /* unmounted packs the mount table may still name (their mount
                              * reference goes when the table is next replaced) */
    krt_slot *slots;
    uint32_t max_assets, high_water, free_head, live;
    uint64_t *map_ids;   /* id -> slot: open addressing, linear probing, backward-shift delete */
    uint32_t *map_slots; /* slot + 1; 0 = empty */
    size_t map_size;
    atomic_uint_fast64_t inflight;
    uint64_t loads, failures, resident;
    /* budget (rt_budget.c) */
    krt_asset *lru_head, *lru_tail;
    uint64_t cached_count, cached_bytes, evictions, revivals;
    /* hot reload (rt_reload.c) */
    uint64_t reloads, reload_failures;
    /* work counters (krt_stats) */
    uint64_t poll_visits;    /* assets the last poll's comparison looked at */
    uint64_t rebuild_visits; /* dependents the last texture reload's rebuild looked at */
    uint64_t update_visits;  /* assets and staged reloads the last krt_update looked at */
    uint64_t poll_stats;     /* files and folders the last poll stat'ed */
    uint64_t dep_serial;     /* bumped by every change of a dependents list */
    uint32_t rebuild_serial; /* one per texture reload's rebuild */
    /* krt_update's work (rt_worklist.c): assets, staged reloads, and how many are parked */
    krt_asset *pend_head, *pend_tail;
    krt_asset *reload_head, *reload_tail;
    size_t parked;
    atomic_int changed; /* set by the watcher */
    bool watching;
    int watch_fd, watch_wake[2];
    pthread_t watch_thread;
    /* material table (rt_material_table.c): indices under mu, records on the renderer thread */
    uint32_t *mat_free; /* stack of free indices, max_assets entries */
    uint32_t mat_free_count, mat_high;
    krt_gpu_material *mat_records;
    size_t mat_record_count; /* records allocated (renderer thread) */
    uint64_t mat_generation;
    bool mat_dirty; /* something may have changed a record or block: krt_update scans */
    /* material block table (rt_block_table.c): slots under mu, bytes on the renderer thread */
    uint8_t *blk_bytes;
    size_t blk_cap;                        /* bytes allocated */
    size_t blk_high;                       /* bytes handed out as slots */
    uint32_t *blk_free[KRT_BLOCK_CLASSES]; /* per size class: free slots' offsets */
    uint32_t blk_free_count[KRT_BLOCK_CLASSES], blk_free_cap[KRT_BLOCK_CLASSES];
    uint64_t blk_generation;
    /* fallbacks (rt_fallback.c): made on the renderer thread, read under mu */
    bool fb_made; /* all made: krt_update stops trying */
    void *fb_texture, *fb_material;
    bool fb_texture_ok, fb_material_ok;
    bool fb_material_textured;    /* the material was made with the fallback texture */
    uint8_t fb_pixels[4 * 4 * 4]; /* the fallback texture's RGBA8 texels, kept with the context */
    uint64_t transcodes;
};

krt_handle krt_make_handle(uint32_t type, uint32_t gen, uint32_t slot);
krt_handle krt_handle_of(krt_context *c, const krt_asset *a);
krt_asset *krt_resolve_locked(krt_context *c, krt_handle h);
uint32_t krt_map_find_locked(const krt_context *c, uint64_t id);
void krt_map_put_locked(krt_context *c, uint64_t id, uint32_t s);
void krt_map_remove_locked(krt_context *c, uint64_t id);
void krt_release_locked(krt_context *c, krt_asset *a);
/* rt_worklist.c */
/* Puts a on the list krt_update walks (a staged reload: on the reload list), unparking it;
 * no-op when it is on it. */
void krt_pending_add_locked(krt_context *c, krt_asset *a);
void krt_pending_remove_locked(krt_context *c, krt_asset *a); /* no-op when not on it */
/* Off the lists until a dependency of a becomes ready or fails (krt_dependents_ready_locked,
 * krt_dependents_wake_locked) or a is released: counted as loading. */
void krt_park_locked(krt_context *c, krt_asset *a);
void krt_unlist_locked(krt_context *c, krt_asset *a); /* off the lists and unparked */
/* Finds, revives or makes the asset for id with one more reference; *job gets an asset whose
 * job the caller submits after unlocking (krt_submit), or NULL. absent (may be NULL): the error
 * an asset no mount has fails with (a skipped entry's), instead of "not in any mount"; a failed
 * one is then not tried again while no mount has it. */
kiln_result krt_load_locked(krt_context *c, uint32_t type, uint64_t id, const kiln_error *absent,
                            krt_handle *out, krt_asset **job, kiln_error *err);
/* Puts a failed asset back to loading (its deps released, data freed); the caller submits it. */
void krt_retry_locked(krt_context *c, krt_asset *a);
/* Loads a's dependencies into a->deps (jobs for new ones appended to *jobs), links them. */
kiln_result krt_load_deps_locked(krt_context *c, krt_asset *a, krt_asset ***jobs, size_t *job_count,
                                 size_t *job_cap, krt_asset **small, kiln_error *err);
/* Where asset id is read from now (false when no mount has it). */
bool krt_source_of_locked(krt_context *c, uint64_t id, krt_source *out);
void krt_submit(krt_context *c, krt_asset *a);
void krt_submit_fn(krt_context *c, krt_job_fn fn, void *arg);
/* Frees an asset that has no GPU object and whose deps are released; its slot is reused. */
void krt_reap_locked(krt_context *c, krt_asset *a);
/* Releases every dependency a holds and clears the handles. */
void krt_release_deps_locked(krt_context *c, krt_asset *a);
/* The renderer's callbacks through the type's ops (no lock held, renderer thread). create:
 * *made is set when the renderer made an object (the type has one and the renderer a callback
 * for it); e gets a message when the callback failed without one. */
kiln_result krt_gpu_create(krt_context *c, const krt_type_ops *t, krt_handle h,
                           const krt_asset *data, void **gpu, bool *made, kiln_error *e);
void krt_gpu_destroy(krt_context *c, const krt_type_ops *t, krt_handle h, void *gpu);
/* The ready asset of type behind h with the lock held (the caller copies what it needs, then
 * unlocks: a hot reload swaps the data in krt_update under the same lock), or NULL unlocked
 * with err filled (stale, another type, not ready, its CPU data dropped). */
krt_asset *krt_ready_locked(krt_context *c, krt_handle h, uint32_t type, kiln_error *err);
/* The name of type (its cooked kind's), for messages; "none" for a number it does not define. */
const char *krt_type_name(const krt_context *c, uint32_t type);

/* For the built-in types' files (rt_type_<name>.c). KRT_TYPE_API: the public krt_load_<name>
 * and krt_get_<name> (expr: what *out gets from the ready asset a, under the lock).
 * KRT_TYPE_RENDERER_OPS: the ops create, replace and destroy that call the renderer's
 * create_<name>, replace_<name> and destroy_<name> with the record data.<name>.data;
 * KRT_TYPE_RENDERER_OPS_IN finds those callbacks in another member of krt_desc (the shaders'
 * renderer_shaders), with renderer.user still their user pointer. */
#define KRT_TYPE_API(name, TYPE, out_type, expr)                                                   \
    krt_handle krt_load_##name(krt_context *c, const char *n, kiln_error *e)                       \
    {                                                                                              \
        return krt_load(c, TYPE, n, e);                                                            \
    }                                                                                              \
    kiln_result krt_get_##name(krt_context *c, krt_handle h, out_type *out, kiln_error *err)       \
    {                                                                                              \
        krt_asset *a = krt_ready_locked(c, h, TYPE, err);                                          \
        if (!a) return KILN_E_USAGE;                                                               \
        *out = expr;                                                                               \
        pthread_mutex_unlock(&c->mu);                                                              \
        return KILN_OK;                                                                            \
    }

#define KRT_TYPE_RENDERER_OPS(name) KRT_TYPE_RENDERER_OPS_IN(name, renderer)

#define KRT_TYPE_RENDERER_OPS_IN(name, member)                                                     \
    static kiln_result create(krt_context *c, krt_handle h, const krt_asset *a, void **gpu,        \
                              bool *made, kiln_error *e)                                           \
    {                                                                                              \
        if (!c->desc.member.create_##name) return KILN_OK;                                         \
        *made = true;                                                                              \
        return c->desc.member.create_##name(c->desc.renderer.user, h, &a->data.name.data, gpu, e); \
    }                                                                                              \
    static kiln_result replace(krt_context *c, krt_handle h, const krt_asset *a, void **gpu,       \
                               bool *replaced, kiln_error *e)                                      \
    {                                                                                              \
        if (!c->desc.member.replace_##name) return KILN_OK;                                        \
        *replaced = true;                                                                          \
        return c->desc.member.replace_##name(c->desc.renderer.user, h, &a->data.name.data, gpu,    \
                                             e);                                                   \
    }                                                                                              \
    static void destroy(krt_context *c, const krt_type_ops *t, krt_handle h, void *gpu)            \
    {                                                                                              \
        (void)t;                                                                                   \
        if (c->desc.member.destroy_##name)                                                         \
            c->desc.member.destroy_##name(c->desc.renderer.user, h, gpu);                          \
    }

/* Exchanges two lvalues of type T (the types' swap ops). */
#define KRT_SWAP(T, x, y)                                                                          \
    do {                                                                                           \
        T swap_tmp_ = (x);                                                                         \
        (x) = (y);                                                                                 \
        (y) = swap_tmp_;                                                                           \
    } while (0)

/* A pack mapped and its table validated (the checksum unless no_verify); free with
 * krt_pack_free. No lock needed. */
kiln_result krt_pack_open(krt_context *c, const char *path, krt_pack_mount **out, kiln_error *err);
void krt_pack_free(krt_context *c, krt_pack_mount *pm);

void krt_memo_destroy(krt_context *c, krt_cache_memo *m); /* NULL is a no-op */

/* rt_unmount.c */
/* pm is no longer mounted: its mount reference goes now, or when the table is next replaced
 * if it may still name pm (in_table). */
void krt_pack_retire_locked(krt_context *c, krt_pack_mount *pm, bool in_table);
void krt_pack_table_replaced_locked(krt_context *c); /* the retired packs' mount references go */
krt_pack_mount *krt_pack_mount_of(const kiln_pack *pack); /* the mount a table's pack is in */
void krt_pack_ref_locked(krt_pack_mount *pm);
void krt_pack_unref_locked(krt_context *c, krt_pack_mount *pm); /* unmaps at the last one */
/* Frees the asset's decoded data (krt_asset_free_data) and the references that come with it:
 * resident bytes, the pack mapping its file is in. */
void krt_asset_drop_data_locked(krt_context *c, krt_asset *a);
/* A job's source read from a pack: the reference the job took goes to the asset when its file
 * is a view into pm's mapping, else it goes. */
void krt_pack_hand_over_locked(krt_context *c, krt_asset *a, krt_pack_mount *pm);

/* rt_skipped.c */
/* krt_load of a name no mount has: a handle that fails with the error of the skipped entry whose
 * record names the name's path (krt_mount_skipped), else the 0 handle and KILN_E_USAGE. */
krt_handle krt_load_skipped(krt_context *c, krt_type type, const char *name, kiln_error *err);

/* rt_dependents.c */
/* Notes that owner holds one reference on d as a dependency; false when memory runs out. */
bool krt_dependent_add_locked(krt_context *c, krt_asset *d, krt_asset *owner);
/* Drops one such note (no-op when there is none). */
void krt_dependent_remove_locked(krt_context *c, krt_asset *d, krt_asset *owner);
/* After krt_asset_swap_data(a, n): the references a's deps had from n are now a's, and those
 * n's deps had from a are n's. */
void krt_dependents_swapped_locked(krt_context *c, krt_asset *a, krt_asset *n);
/* Puts every live dependent of a, and every staged reload that holds it, on krt_update's lists
 * (a failed: they fail with it). */
void krt_dependents_wake_locked(krt_context *c, krt_asset *a);
/* a became ready: its parked dependents (and staged reloads) go back on krt_update's lists. */
void krt_dependents_ready_locked(krt_context *c, krt_asset *a);
void krt_dependents_free(krt_context *c, krt_asset *a); /* the list's memory */

/* rt_cpu_drop.c */
/* After the renderer's create_* or replace_* took a's data (lock held): frees the CPU data of a
 * type that allows it (KRT_TYPE_OPS_CPU_DROP: textures, meshes) when
 * KRT_DESC_DROP_CPU_AFTER_UPLOAD asks and the renderer made an object. */
void krt_cpu_drop_locked(krt_context *c, krt_asset *a);

/* rt_verify.c */
/* After a load or reload failed with r: KILN_E_CACHE_CORRUPT (e filled, naming the check and
 * the file or entry) when the failure is a checksum over bytes that changed after they were
 * written (a loose container's, a pack entry's stored bytes'), else r. No lock needed; a's file
 * and, for a pack, the job's reference on it are still held. */
kiln_result krt_verify_classify(const krt_asset *a, const krt_source *src, bool verify,
                                kiln_result r, kiln_error *e);
/* The same for a pack whose table failed to validate: its table-of-contents checksum. */
kiln_result krt_verify_classify_pack(const krt_pack_mount *pm, const char *path, kiln_result r,
                                     kiln_error *e);

/* rt_budget.c */
void krt_budget_keep_locked(krt_context *c, krt_asset *a);   /* a released asset into the LRU */
void krt_budget_unlink_locked(krt_context *c, krt_asset *a); /* out of the LRU (revived, evicted) */
void krt_budget_evict_locked(krt_context *c, krt_asset *a);  /* frees a cached asset */
void krt_budget_trim_locked(krt_context *c);                 /* evicts past budget_bytes */

/* rt_reload.c */
/* krt_update's part (no lock held): the staged reloads on the reload list into place (those
 * waiting for dependencies are parked); true when it did something. */
bool krt_reload_apply(krt_context *c);
void krt_reload_drop_locked(krt_context *c, krt_asset *a); /* frees a's staged reload */
kiln_result krt_watch_add_locked(krt_context *c, krt_mount_source *s, kiln_error *err);
/* The inotify watch of a source that is gone (no-op when none, or when a mounted source shares
 * it: inotify gives one folder one watch). Call after taking it out of sources[]. */
void krt_watch_remove_locked(krt_context *c, int watch);

/* rt_material_table.c */
kiln_result krt_mattab_create(krt_context *c, kiln_error *err);
void krt_mattab_destroy(krt_context *c);
void krt_mattab_alloc_locked(krt_context *c, krt_asset *a); /* an index for a new material */
void krt_mattab_free_locked(krt_context *c, krt_asset *a);  /* renderer thread: zero, reuse */
void krt_mattab_sync_locked(krt_context *c);                /* renderer thread: write records */

/* rt_block_table.c */
void krt_blocktab_destroy(krt_context *c);
void krt_blocktab_free_locked(krt_context *c, krt_asset *a); /* renderer thread: zero, reuse */
/* Renderer thread: a's slot follows its data (taken, moved to another size class, written,
 * freed when it is not ready). */
void krt_blocktab_sync_locked(krt_context *c, krt_asset *a);

/* rt_type_custom.c */
void krt_custom_types_free(krt_context *c); /* the registered types' tables (krt_destroy) */

/* rt_fallback.c */
/* Makes what is missing of the fallbacks (renderer thread, every krt_update until fb_made). */
void krt_fallback_make(krt_context *c);
void krt_fallback_destroy(krt_context *c); /* krt_destroy */

#endif
