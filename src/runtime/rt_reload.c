/* rt_reload.c — hot reload. krt_poll_changes notices changed records of the mounted caches (a
 * signature over their names, sizes, times and inodes; or the watcher's flag), reads the mounts
 * again, and for each loaded asset whose artifact now has other bytes starts a reload job. The
 * job decodes into a staged record (an asset of its own, holding its own dependency
 * references); krt_update (krt_reload_apply) swaps the staged data into the live record once its
 * dependencies are ready, through the renderer's replace_* callback, so the handle, its slot and
 * the material table index stay. The optional watcher is an inotify thread that only sets a
 * flag. docs/runtime.md ("Hot reload") is the guide. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "runtime/rt_context.h"

#ifdef __linux__
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>
#endif

static void reload_job(void *arg);

/* A staged record for a reload of a; the caller submits reload_job with it. NULL when memory
 * runs out (the reload is then reported failed). Lock held. */
static krt_asset *start_reload_locked(krt_context *c, krt_asset *a)
{
    krt_asset *n = kiln_calloc(&c->allocator, 1, sizeof *n);
    if (!n) {
        kiln_error_set(&a->reload_error, KILN_E_OUT_OF_MEMORY, "out of memory starting a reload");
        c->reload_failures++;
        return NULL;
    }
    n->ctx = c;
    n->id = a->id;
    n->type = a->type;
    n->ops = a->ops;
    n->slot = a->slot;
    n->phase = KRT_PHASE_LOADING;
    n->mat_index = KRT_INVALID_INDEX;
    n->is_staged = true;
    n->staged = a; /* a staged record's `staged` points back at its owner */
    a->staged = n;
    a->reload_running = true;
    return n;
}

void krt_reload_drop_locked(krt_context *c, krt_asset *a)
{
    krt_asset *n = a->staged;
    if (!n) return;
    krt_unlist_locked(c, n);
    krt_release_deps_locked(c, n);
    krt_asset_drop_data_locked(c, n);
    krt_dependents_free(c, n);
    kiln_free(&c->allocator, n, sizeof *n);
    a->staged = NULL;
}

static void reload_job(void *arg)
{
    krt_asset *n = arg, *a = n->staged;
    krt_context *c = n->ctx;
    kiln_error e;
    kiln_error_clear(&e);
    krt_source src;
    krt_pack_mount *pm = NULL; /* the pack it reads from, a reference held while it does */
    pthread_mutex_lock(&c->mu);
    bool found = krt_source_of_locked(c, a->id, &src);
    if (found) {
        memcpy(n->src_sha256, src.sha256, 32);
        n->src_size = src.size;
        if (src.pack) krt_pack_ref_locked(pm = krt_pack_mount_of(src.pack));
    }
    pthread_mutex_unlock(&c->mu);
    kiln_result r = found ? krt_asset_decode(n, &src, !c->desc.no_verify, c->desc.max_file_size,
                                             &c->types, &c->desc.renderer, &c->allocator, &e)
                          : kiln_error_set(&e, KILN_E_USAGE, "%s %016llx is no longer mounted",
                                           krt_type_name(c, a->type), (unsigned long long)a->id);
    if (r && found) r = krt_verify_classify(n, &src, !c->desc.no_verify, r, &e);
    krt_asset *jobs_small[16];
    krt_asset **jobs = jobs_small;
    size_t job_count = 0, job_cap = 16;
    pthread_mutex_lock(&c->mu);
    if (pm) krt_pack_hand_over_locked(c, n, pm);
    c->resident += n->dec.resident;
    if (r == KILN_OK && n->dec.transcoded) c->transcodes++;
    /* New dependencies load as usual; those the old data has too just count a reference. */
    if (r == KILN_OK && !a->dying)
        r = krt_load_deps_locked(c, n, &jobs, &job_count, &job_cap, jobs_small, &e);
    if (r) {
        n->error = e;
        n->phase = KRT_PHASE_FAILED;
    } else {
        n->phase = KRT_PHASE_DECODED;
    }
    a->reload_running = false;
    krt_pending_add_locked(c, n);               /* krt_update applies it (or fails it) */
    if (a->dying) krt_pending_add_locked(c, a); /* it waited for this job to end */
    pthread_mutex_unlock(&c->mu);
    for (size_t i = 0; i < job_count; i++) krt_submit(c, jobs[i]);
    if (jobs != jobs_small) kiln_free(&c->allocator, jobs, job_cap * sizeof *jobs);
    atomic_fetch_sub(&c->inflight, 1); /* the last touch of c */
}

static void fail_reload_locked(krt_context *c, krt_asset *a, const kiln_error *e)
{
    a->reload_error = *e;
    if (!a->reload_error.code) a->reload_error.code = KILN_E_INTERNAL;
    c->reload_failures++;
    krt_reload_drop_locked(c, a);
}

/* The renderer's object for new data d of an asset that has *gpu (when *has): replace_* in
 * place, or create_* then destroy_* of the old one. No lock held; renderer thread. */
static kiln_result replace_gpu(krt_context *c, const krt_type_ops *t, krt_handle h,
                               const krt_asset *d, void **gpu, bool *has, kiln_error *e)
{
    kiln_result r = KILN_OK;
    if (*has && t->replace) {
        bool replaced = false;
        r = t->replace(c, h, d, gpu, &replaced, e);
        if (replaced) {
            if (r && !e->code)
                kiln_error_set(e, r, "the renderer could not replace this %s", t->kind->name);
            return r;
        }
    }
    void *fresh = NULL;
    bool made;
    r = krt_gpu_create(c, t, h, d, &fresh, &made, e);
    if (r || !made) return r; /* !made: CPU data only */
    if (*has) krt_gpu_destroy(c, t, h, *gpu);
    *gpu = fresh;
    *has = true;
    return KILN_OK;
}

/* After the reload of an asset whose GPU object others build theirs from (a texture,
 * KRT_TYPE_OPS_REBUILD_DEPENDENTS): the ready dependents that do (link_gpu: the materials that
 * sample it, those on its dependents list) get their objects rebuilt with the new object. Lock
 * held (released around each callback; the list may change meanwhile, so the walk starts over
 * when it did, and a mark keeps a dependent from being rebuilt twice). */
static void rebuild_dependents_locked(krt_context *c, krt_asset *dep)
{
    uint32_t mark = ++c->rebuild_serial;
    c->rebuild_visits = 0;
    for (uint32_t i = 0; i < dep->dependent_count; i++) {
        krt_asset *m = dep->dependents[i];
        c->rebuild_visits++;
        if (m->is_staged || !m->ops->link_gpu || m->dying || m->cached ||
            m->phase != KRT_PHASE_READY || m->rebuild_mark == mark)
            continue;
        m->rebuild_mark = mark; /* a material sampling it in two slots is listed twice */
        m->ops->link_gpu(c, m);
        void *gpu = m->gpu;
        bool has = m->has_gpu;
        krt_handle h = m->handle;
        uint64_t serial = c->dep_serial;
        pthread_mutex_unlock(&c->mu);
        kiln_error e;
        kiln_error_clear(&e);
        /* m stays: only krt_update (this thread) frees or swaps assets */
        kiln_result r = replace_gpu(c, m->ops, h, m, &gpu, &has, &e);
        pthread_mutex_lock(&c->mu);
        if (r) {
            m->reload_error = e;
            c->reload_failures++;
        } else {
            m->gpu = gpu;
            m->has_gpu = has;
        }
        if (c->dep_serial != serial) i = UINT32_MAX; /* the list moved: again from the start */
    }
}

bool krt_reload_apply(krt_context *c)
{
    bool progress = false;
    pthread_mutex_lock(&c->mu);
    /* Only the staged reloads on the list: those whose job ended or whose dependency moved.
     * Other threads only append (while the lock is let go around a callback); only this
     * thread removes, so `next` stays valid. */
    for (krt_asset *n = c->reload_head, *next; n; n = next) {
        next = n->pend_next;
        krt_asset *a = n->staged;
        c->update_visits++;
        if (a->cached || a->dying) { /* its retire drops the reload */
            krt_pending_remove_locked(c, n);
            continue;
        }
        if (n->phase == KRT_PHASE_FAILED || a->phase != KRT_PHASE_READY) {
            fail_reload_locked(c, a, &n->error);
            progress = true;
            continue;
        }
        const krt_asset *bad = NULL;
        bool waiting = false;
        for (size_t i = 0; i < n->dec.dep_count && !bad; i++) {
            const krt_asset *d = krt_resolve_locked(c, n->dec.deps[i]);
            if (!d) continue;
            if (d->phase == KRT_PHASE_FAILED) bad = d;
            else if (d->phase != KRT_PHASE_READY) waiting = true;
        }
        if (bad) {
            kiln_error de = bad->error;
            kiln_error_prefix(&de, "%s %016llx: ", krt_type_name(c, bad->type),
                              (unsigned long long)bad->id);
            fail_reload_locked(c, a, &de);
            progress = true;
            continue;
        }
        if (waiting) { /* until a dependency is ready or fails */
            krt_park_locked(c, n);
            continue;
        }
        krt_pending_remove_locked(c, n);
        if (a->ops->link_gpu) a->ops->link_gpu(c, n);
        void *gpu = a->gpu;
        bool has = a->has_gpu;
        krt_handle h = a->handle;
        pthread_mutex_unlock(&c->mu);
        kiln_error e;
        kiln_error_clear(&e);
        kiln_result r = replace_gpu(c, a->ops, h, n, &gpu, &has, &e);
        pthread_mutex_lock(&c->mu);
        progress = true;
        if (r) {
            fail_reload_locked(c, a, &e);
            continue;
        }
        /* The new data into the live record; the old (with its dependency references) out. */
        krt_asset_swap_data(a, n);
        krt_dependents_swapped_locked(c, a, n);
        memcpy(a->src_sha256, n->src_sha256, 32);
        a->src_size = n->src_size;
        a->gpu = gpu;
        a->has_gpu = has;
        krt_reload_drop_locked(c, a);
        krt_cpu_drop_locked(c, a); /* when asked: replace_* took the new data */
        kiln_error_clear(&a->reload_error);
        c->reloads++;
        if (a->ops->table_record || a->ops->table_block) {
            a->mat_serial++;
            c->mat_dirty = true;
        }
        if (a->ops->flags & KRT_TYPE_OPS_REBUILD_DEPENDENTS) rebuild_dependents_locked(c, a);
    }
    pthread_mutex_unlock(&c->mu);
    return progress;
}

kiln_result krt_reload(krt_context *c, krt_handle h, kiln_error *err)
{
    if (!c) return kiln_error_set(err, KILN_E_USAGE, "krt_reload: NULL context");
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h), *n = NULL;
    kiln_result r = KILN_OK;
    if (!a)
        r = kiln_error_set(err, KILN_E_USAGE,
                           "stale handle %016llx (null, released, or not of this context)",
                           (unsigned long long)h.id);
    else if (a->phase != KRT_PHASE_READY)
        r = kiln_error_set(err, KILN_E_USAGE,
                           "handle %016llx is not ready: only ready assets reload",
                           (unsigned long long)h.id);
    else if (!a->staged && !a->reload_running && !(n = start_reload_locked(c, a)))
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory starting a reload");
    pthread_mutex_unlock(&c->mu);
    if (n) krt_submit_fn(c, reload_job, n);
    return r;
}

kiln_result krt_reload_error(krt_context *c, krt_handle h, kiln_error *out)
{
    kiln_error_clear(out);
    if (!c) return kiln_error_set(out, KILN_E_USAGE, "krt_reload_error: NULL context");
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    kiln_result r = KILN_OK;
    if (!a) r = kiln_error_set(out, KILN_E_USAGE, "stale handle %016llx", (unsigned long long)h.id);
    else if (a->reload_error.code) {
        if (out) *out = a->reload_error;
        r = a->reload_error.code;
    }
    pthread_mutex_unlock(&c->mu);
    return r;
}

typedef struct pending { /* a job to submit after unlocking */
    krt_job_fn fn;       /* NULL: a load job (krt_submit) */
    krt_asset *a;
} pending;

/* One live or kept asset against the (new) mount table: evicted when kept and changed, a
 * reload (or a retry when failed) queued into out when changed. Lock held. */
static void compare_one_locked(krt_context *c, krt_asset *a, pending *out, size_t cap,
                               size_t *count, size_t *reloads)
{
    c->poll_visits++;
    if (a->dying) return;
    const krt_artifact *art = krt_mounts_find(&c->mounts, a->id);
    if (!art) return; /* no longer mounted: it keeps its data */
    if (art->size == a->src_size && memcmp(art->sha256, a->src_sha256, 32) == 0) return;
    if (a->cached) {
        krt_budget_evict_locked(c, a);
        return;
    }
    if (*count == cap) { /* more than fit this time: the next poll goes on */
        c->recheck = true;
        return;
    }
    if (a->phase == KRT_PHASE_FAILED && !a->job_running) {
        krt_retry_locked(c, a);
        out[(*count)++] = (pending){NULL, a};
        (*reloads)++;
    } else if (a->phase == KRT_PHASE_READY && !a->staged && !a->reload_running) {
        krt_asset *n = start_reload_locked(c, a);
        if (n) {
            out[(*count)++] = (pending){reload_job, n};
            (*reloads)++;
        }
    } else {
        c->recheck = true; /* loading, or reloading older data: look again next poll */
    }
}

/* Compares the loaded assets whose ids are in ids[0, id_count) (sorted, distinct) with the
 * (new) mount table, through the id map; every live and kept asset when ids is NULL (a recheck,
 * or a read that could not tell what changed). Lock held. */
static size_t compare_locked(krt_context *c, const uint64_t *ids, size_t id_count, pending *out,
                             size_t cap, size_t *count)
{
    size_t reloads = 0;
    *count = 0;
    c->poll_visits = 0;
    if (!ids) {
        for (uint32_t s = 0; s < c->high_water; s++)
            if (c->slots[s].asset)
                compare_one_locked(c, c->slots[s].asset, out, cap, count, &reloads);
        return reloads;
    }
    for (size_t i = 0; i < id_count; i++) {
        uint32_t s1 = krt_map_find_locked(c, ids[i]); /* live and kept assets; not dying ones */
        if (s1) compare_one_locked(c, c->slots[s1 - 1].asset, out, cap, count, &reloads);
    }
    return reloads;
}

/* What one poll took from sources[] and read, one element per mount in mount order. */
typedef struct poll_read {
    size_t n;
    char **dirs;
    char (*platforms)[64];  /* each cache's platform */
    uint64_t *sigs;         /* the signatures seen, then the ones read */
    krt_dir_stamp *stamps;  /* a cache's folder stamp: seen, then the one taken */
    krt_pack_mount **packs; /* a reference held on each while the poll reads */
    krt_pack_mount **fresh; /* packs mapped again (renamed over), until installed */
    krt_cache_memo **memos; /* taken from sources (another poll reads without) */
    krt_cache_memo **next;  /* of this read, until installed */
    size_t stats;           /* stat calls made looking for changes (krt_stats.poll_stats) */
} poll_read;

static kiln_result poll_alloc(const kiln_allocator *al, poll_read *p, size_t n, kiln_error *err)
{
    p->n = n;
    p->dirs = kiln_calloc(al, n, sizeof *p->dirs);
    p->platforms = kiln_calloc(al, n, sizeof *p->platforms);
    p->sigs = kiln_calloc(al, n, sizeof *p->sigs);
    p->stamps = kiln_calloc(al, n, sizeof *p->stamps);
    p->packs = kiln_calloc(al, n, sizeof *p->packs);
    p->fresh = kiln_calloc(al, n, sizeof *p->fresh);
    p->memos = kiln_calloc(al, n, sizeof *p->memos);
    p->next = kiln_calloc(al, n, sizeof *p->next);
    return p->dirs && p->platforms && p->sigs && p->stamps && p->packs && p->fresh && p->memos &&
                   p->next
               ? KILN_OK
               : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory polling");
}

/* Frees what was not installed or given back (each array may be NULL after a failed alloc). */
static void poll_free(krt_context *c, poll_read *p)
{
    const kiln_allocator *al = &c->allocator;
    size_t n = p->n;
    for (size_t i = 0; p->dirs && i < n; i++)
        if (p->dirs[i]) kiln_free(al, p->dirs[i], strlen(p->dirs[i]) + 1);
    for (size_t i = 0; p->fresh && i < n; i++) krt_pack_free(c, p->fresh[i]);
    for (size_t i = 0; p->memos && i < n; i++) krt_memo_destroy(c, p->memos[i]);
    for (size_t i = 0; p->next && i < n; i++) krt_memo_destroy(c, p->next[i]);
    kiln_free(al, p->dirs, n * sizeof *p->dirs);
    kiln_free(al, p->platforms, n * sizeof *p->platforms);
    kiln_free(al, p->sigs, n * sizeof *p->sigs);
    kiln_free(al, p->stamps, n * sizeof *p->stamps);
    kiln_free(al, p->packs, n * sizeof *p->packs);
    kiln_free(al, p->fresh, n * sizeof *p->fresh);
    kiln_free(al, p->memos, n * sizeof *p->memos);
    kiln_free(al, p->next, n * sizeof *p->next);
}

/* Copies sources[] (n of them: the caller checked mount_serial). Lock held. */
static kiln_result take_sources_locked(krt_context *c, poll_read *p, kiln_error *err)
{
    for (size_t i = 0; i < p->n; i++) {
        p->packs[i] = c->sources[i].pack;
        if (p->packs[i]) krt_pack_ref_locked(p->packs[i]);
        p->sigs[i] = c->sources[i].signature;
        p->stamps[i] = c->sources[i].stamp;
        p->memos[i] = c->sources[i].memo;
        memcpy(p->platforms[i], c->sources[i].platform, sizeof p->platforms[i]);
        c->sources[i].memo = NULL;
        if (!(p->dirs[i] = kiln_strdup(&c->allocator, c->sources[i].dir)))
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory polling");
    }
    return KILN_OK;
}

/* Caches: a signature of their records (only a stat of the folder while that shows no change:
 * rt_source_check.c). Packs: of the file; one renamed over the old is mapped and validated
 * here, outside the lock (a damaged one is an error, and the old one stays mounted). *changed
 * is set when any signature moved. */
static kiln_result poll_signatures(krt_context *c, poll_read *p, bool *changed, kiln_error *err)
{
    kiln_result r = KILN_OK;
    for (size_t i = 0; i < p->n && !r; i++) {
        uint64_t now = p->sigs[i];
        if (!p->packs[i]) {
            r = krt_source_signature(p->dirs[i], p->platforms[i], &c->allocator, &now,
                                     &p->stamps[i], &p->stats, err);
            /* a damaged file it skipped was replaced (an entry published again, repaired) */
            *changed |= !r && krt_memo_skips_changed(p->memos[i], &p->stats);
        } else if (p->stats++, (now = krt_file_signature(p->dirs[i])) != p->sigs[i] && now)
            r = krt_pack_open(c, p->dirs[i], &p->fresh[i], err);
        else now = p->sigs[i]; /* unchanged, or gone for now (a rename in progress) */
        *changed |= now != p->sigs[i];
        p->sigs[i] = now;
    }
    return r;
}

/* Reads every mount again, in mount order, so later ones still override earlier ones; a cache
 * parses again only the records that changed since its last read (its memo). */
static kiln_result poll_read_table(krt_context *c, poll_read *p, krt_mounts *table, kiln_error *err)
{
    const kiln_allocator *al = &c->allocator;
    kiln_result r = KILN_OK;
    for (size_t i = 0; i < p->n && !r; i++) {
        krt_mounts m;
        const krt_pack_mount *pm = p->fresh[i] ? p->fresh[i] : p->packs[i];
        if (!pm && !(p->next[i] = kiln_calloc(al, 1, sizeof *p->next[i])))
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory polling");
        else if (pm) r = krt_mounts_read_pack(&pm->pack, p->dirs[i], &c->types, al, &m, err);
        else {
            r = krt_mounts_read_cache_typed(p->dirs[i], p->platforms[i], &c->types, al, p->memos[i],
                                            p->next[i], &m, err);
            /* the read moved what it reused out of the old memo: it cannot go back */
            krt_memo_destroy(c, p->memos[i]);
            p->memos[i] = NULL;
        }
        if (!r) r = krt_mounts_merge(table, &m, err);
    }
    return r;
}

static int id_order(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The ids this read may have changed, sorted and distinct, into *out (*out_count of them, the
 * array *out_cap long): the changed ids of every cache's memo and every entry of a replaced
 * pack, old and new. *out stays NULL when a cache could not tell (no previous read). */
static kiln_result poll_changed_ids(krt_context *c, const poll_read *p, uint64_t **out,
                                    size_t *out_count, size_t *out_cap, kiln_error *err)
{
    *out = NULL;
    *out_count = *out_cap = 0;
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->next[i] && p->next[i]->all_changed) return KILN_OK;
        if (p->next[i]) n += p->next[i]->changed_count;
        if (p->fresh[i]) n += (size_t)p->fresh[i]->pack.entry_count + p->packs[i]->pack.entry_count;
    }
    uint64_t *ids = kiln_alloc(&c->allocator, (n ? n : 1) * sizeof *ids);
    if (!ids) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory polling");
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->next[i] && p->next[i]->changed_count) {
            memcpy(ids + k, p->next[i]->changed, p->next[i]->changed_count * sizeof *ids);
            k += p->next[i]->changed_count;
        }
        if (!p->fresh[i]) continue;
        for (uint32_t e = 0; e < p->fresh[i]->pack.entry_count; e++)
            ids[k++] = kiln_pack_entry_at(&p->fresh[i]->pack, e).asset_id;
        for (uint32_t e = 0; e < p->packs[i]->pack.entry_count; e++)
            ids[k++] = kiln_pack_entry_at(&p->packs[i]->pack, e).asset_id;
    }
    if (k) qsort(ids, k, sizeof *ids, id_order);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || ids[u - 1] != ids[i]) ids[u++] = ids[i];
    *out = ids;
    *out_count = u;
    *out_cap = n ? n : 1;
    return KILN_OK;
}

/* The new table, signatures, memos and replaced packs into the context (sources[] as taken:
 * mount_serial unchanged); *table gets the old table to free. Lock held. */
static void install_locked(krt_context *c, poll_read *p, krt_mounts *table)
{
    krt_mounts old = c->mounts;
    c->mounts = *table;
    *table = old;
    krt_pack_table_replaced_locked(c); /* no unmounted pack is in the new table */
    for (size_t i = 0; i < p->n; i++) {
        c->sources[i].signature = p->sigs[i];
        c->sources[i].stamp = p->stamps[i]; /* the pair: the stamp the signature was taken at */
        if (p->next[i]) { /* the new memo in; the old one (taken, in memos) is freed after */
            krt_memo_destroy(c, c->sources[i].memo);
            c->sources[i].memo = p->next[i];
            p->next[i] = NULL;
        }
        if (!p->fresh[i]) continue;
        krt_pack_retire_locked(c, c->sources[i].pack, false); /* the new table has the new one */
        c->sources[i].pack = p->fresh[i];
        p->fresh[i] = NULL;
        c->mount_serial++;
    }
    c->recheck = false;
}

kiln_result krt_poll_changes(krt_context *c, size_t *reload_count, kiln_error *err)
{
    if (reload_count) *reload_count = 0;
    if (!c) return kiln_error_set(err, KILN_E_USAGE, "krt_poll_changes: NULL context");
    const kiln_allocator *al = &c->allocator;
    pthread_mutex_lock(&c->mu);
    c->poll_stats = 0; /* this poll's, set at its end */
    /* the watcher sees records only: a skipped entry's repair is looked for by every poll */
    bool watching = c->watching, recheck = c->recheck, skipped = c->mounts.skip_count != 0;
    size_t n = c->source_count;
    uint64_t serial = c->mount_serial;
    if (!n && recheck) { /* the last mount went: nothing is mounted any more */
        krt_mounts_free(&c->mounts);
        c->recheck = false;
        krt_pack_table_replaced_locked(c);
    }
    pthread_mutex_unlock(&c->mu);
    if (!n) return KILN_OK;
    if (watching && !atomic_exchange(&c->changed, 0) && !recheck && !skipped) return KILN_OK;
    poll_read p;
    memset(&p, 0, sizeof p);
    kiln_result r = poll_alloc(al, &p, n, err);
    bool changed = recheck;
    pthread_mutex_lock(&c->mu);
    /* Mounted or unmounted while the arrays were allocated: sources[] has moved and may be
     * shorter than n. Nothing is read this time; the next poll reads every mount. */
    bool again = c->mount_serial != serial;
    if (!r && !again) r = take_sources_locked(c, &p, err);
    pthread_mutex_unlock(&c->mu);
    if (again) changed = false;
    if (!r && !again) r = poll_signatures(c, &p, &changed, err);
    krt_mounts table;
    memset(&table, 0, sizeof table);
    table.alloc = al;
    if (!r && changed) r = poll_read_table(c, &p, &table, err);
    size_t started = 0, job_count = 0, cap = 0, id_count = 0, id_cap = 0;
    pending *jobs = NULL;
    uint64_t *ids = NULL; /* what changed; NULL: compare every loaded asset */
    if (!r && changed && !recheck) r = poll_changed_ids(c, &p, &ids, &id_count, &id_cap, err);
    if (!r && changed) {
        pthread_mutex_lock(&c->mu);
        cap = (size_t)c->live + 16;
        pthread_mutex_unlock(&c->mu);
        if (ids && id_count + 16 < cap) cap = id_count + 16;
        jobs = kiln_calloc(al, cap, sizeof *jobs);
        if (!jobs) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory polling");
    }
    if (!r && changed) {
        pthread_mutex_lock(&c->mu);
        if (c->mount_serial != serial) {
            again = true; /* mounted or unmounted meanwhile: read them all again */
        } else {
            /* a recheck set meanwhile (a mount went, an asset could not reload) needs them all */
            bool all = c->recheck || !ids;
            install_locked(c, &p, &table);
            started = compare_locked(c, all ? NULL : ids, id_count, jobs, cap, &job_count);
        }
        pthread_mutex_unlock(&c->mu);
    }
    kiln_free(al, ids, id_cap * sizeof *ids);
    pthread_mutex_lock(&c->mu);
    c->poll_stats = p.stats;
    /* Nothing changed: the stamps taken go in (a racy one seen settled now is trusted next
     * time), each only beside the signature it was checked against. */
    if (!r && !changed && !again && p.stamps && c->mount_serial == serial)
        for (size_t i = 0; i < n; i++)
            if (!c->sources[i].pack && c->sources[i].signature == p.sigs[i])
                c->sources[i].stamp = p.stamps[i];
    for (size_t i = 0; p.packs && i < n; i++) /* the poll's references */
        if (p.packs[i]) krt_pack_unref_locked(c, p.packs[i]);
    /* memos not replaced go back where they came from, if that is still there */
    for (size_t i = 0; p.memos && i < n; i++)
        if (p.memos[i] && c->mount_serial == serial && !c->sources[i].memo) {
            c->sources[i].memo = p.memos[i];
            p.memos[i] = NULL;
        }
    pthread_mutex_unlock(&c->mu);
    for (size_t i = 0; i < job_count; i++) {
        if (jobs[i].fn) krt_submit_fn(c, jobs[i].fn, jobs[i].a);
        else krt_submit(c, jobs[i].a);
    }
    kiln_free(al, jobs, cap * sizeof *jobs);
    krt_mounts_free(&table);
    poll_free(c, &p);
    if (r && watching) atomic_store(&c->changed, 1); /* try again next poll */
    if (again) {
        /* The mounts changed while we read them: the next poll reads them again (looping
         * here could go on as long as another thread keeps mounting). */
        pthread_mutex_lock(&c->mu);
        c->recheck = true;
        pthread_mutex_unlock(&c->mu);
        atomic_store(&c->changed, 1);
    }
    if (reload_count) *reload_count = started;
    return r;
}

/* ---- the watcher ----------------------------------------------------------------------------- */

#ifdef __linux__
#define WATCH_MASK                                                                                 \
    (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)

kiln_result krt_watch_add_locked(krt_context *c, krt_mount_source *s, kiln_error *err)
{
    /* a cache's records; a pack's folder (a new pack is renamed over the old one) */
    char adir[KILN_PATH_MAX];
    int n = krt_records_dir(s->dir, s->platform, adir, sizeof adir) ? 1 : -1;
    if (s->pack) {
        const char *slash = strrchr(s->dir, '/');
        n = slash ? snprintf(adir, sizeof adir, "%.*s", (int)(slash - s->dir), s->dir)
                  : snprintf(adir, sizeof adir, ".");
        if (n == 0) n = snprintf(adir, sizeof adir, "/");
    }
    if (n < 0 || (size_t)n >= sizeof adir)
        return kiln_error_set(err, KILN_E_LIMIT, "cache path too long");
    /* a folder `kiln model` wrote has no records: its manifest lies in the folder itself */
    if (!s->pack && !kiln_dir_exists(adir)) snprintf(adir, sizeof adir, "%s", s->dir);
    s->watch = inotify_add_watch(c->watch_fd, adir, WATCH_MASK);
    if (s->watch < 0)
        return kiln_error_set(err, KILN_E_ASSET_IO, "inotify_add_watch %s: %s", adir,
                              strerror(errno));
    atomic_store(&c->changed, 1);
    return KILN_OK;
}

void krt_watch_remove_locked(krt_context *c, int watch)
{
    if (watch < 0 || !c->watching) return;
    for (size_t i = 0; i < c->source_count; i++)
        if (c->sources[i].watch == watch) return; /* another mount of the same folder */
    (void)inotify_rm_watch(c->watch_fd, watch);   /* the watcher sees IN_IGNORED: a harmless look */
}

static void *watch_main(void *arg)
{
    krt_context *c = arg;
    for (;;) {
        struct pollfd p[2] = {{c->watch_fd, POLLIN, 0}, {c->watch_wake[0], POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (p[1].revents) break;
        if (p[0].revents & POLLIN) {
            /* Only the fact matters: drain the events and raise the flag. */
            _Alignas(struct inotify_event) char buf[4096];
            while (read(c->watch_fd, buf, sizeof buf) > 0) {
            }
            atomic_store(&c->changed, 1);
        }
    }
    return NULL;
}

kiln_result krt_watch_start(krt_context *c, kiln_error *err)
{
    if (!c) return kiln_error_set(err, KILN_E_USAGE, "krt_watch_start: NULL context");
    pthread_mutex_lock(&c->mu);
    kiln_result r = KILN_OK;
    if (c->watching) goto out;
    c->watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (c->watch_fd < 0) {
        r = kiln_error_set(err, KILN_E_ASSET_IO, "inotify_init1: %s", strerror(errno));
        goto out;
    }
    if (pipe(c->watch_wake) != 0) {
        r = kiln_error_set(err, KILN_E_ASSET_IO, "pipe: %s", strerror(errno));
        close(c->watch_fd);
        c->watch_fd = c->watch_wake[0] = c->watch_wake[1] = -1;
        goto out;
    }
    for (size_t i = 0; i < c->source_count && !r; i++)
        r = krt_watch_add_locked(c, &c->sources[i], err);
    if (!r && pthread_create(&c->watch_thread, NULL, watch_main, c) != 0)
        r = kiln_error_set(err, KILN_E_ASSET_IO, "cannot start the watcher thread");
    if (r) {
        close(c->watch_fd);
        close(c->watch_wake[0]);
        close(c->watch_wake[1]);
        c->watch_fd = c->watch_wake[0] = c->watch_wake[1] = -1;
        for (size_t i = 0; i < c->source_count; i++) c->sources[i].watch = -1;
        goto out;
    }
    c->watching = true;
    atomic_store(&c->changed, 1); /* the first poll looks, whatever happened before */
out:
    pthread_mutex_unlock(&c->mu);
    return r;
}

void krt_watch_stop(krt_context *c)
{
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    bool was = c->watching;
    c->watching = false;
    pthread_mutex_unlock(&c->mu);
    if (!was) return;
    ssize_t w;
    do w = write(c->watch_wake[1], "x", 1);
    while (w < 0 && errno == EINTR);
    pthread_join(c->watch_thread, NULL);
    pthread_mutex_lock(&c->mu);
    close(c->watch_fd);
    close(c->watch_wake[0]);
    close(c->watch_wake[1]);
    c->watch_fd = c->watch_wake[0] = c->watch_wake[1] = -1;
    for (size_t i = 0; i < c->source_count; i++) c->sources[i].watch = -1;
    pthread_mutex_unlock(&c->mu);
}
#else
kiln_result krt_watch_add_locked(krt_context *c, krt_mount_source *s, kiln_error *err)
{
    (void)c;
    (void)s;
    return kiln_error_set(err, KILN_E_USAGE, "no inotify on this system");
}
void krt_watch_remove_locked(krt_context *c, int watch)
{
    (void)c;
    (void)watch;
}
kiln_result krt_watch_start(krt_context *c, kiln_error *err)
{
    (void)c;
    return kiln_error_set(err, KILN_E_USAGE, "krt_watch_start: no inotify on this system");
}
void krt_watch_stop(krt_context *c) { (void)c; }
#endif
