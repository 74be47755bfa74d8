/* rt_context.c — the context: registry of assets (slots with generations, an id -> slot map,
 * reference counts), load jobs, dependencies, and krt_update. One mutex guards the registry
 * and the mounts; no callback and no file read runs under it. The budget (rt_budget.c), hot
 * reload (rt_reload.c), the material table (rt_material_table.c) and the fallbacks
 * (rt_fallback.c) share the context through rt_context.h. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/cpu.h"
#include "core/error.h"
#include "core/file.h"
#include "runtime/rt_context.h"

const char *krt_type_name(const krt_context *c, uint32_t type)
{
    return krt_types_name(&c->types, type);
}

krt_handle krt_make_handle(uint32_t type, uint32_t gen, uint32_t s)
{
    return (krt_handle){(uint64_t)type << 56 | (uint64_t)(gen & 0xFFFFFFu) << 32 | s};
}

static size_t map_bucket(const krt_context *c, uint64_t id)
{
    return (size_t)(id * 0x9E3779B97F4A7C15ull >> 13) & (c->map_size - 1);
}

uint32_t krt_map_find_locked(const krt_context *c, uint64_t id)
{
    for (size_t b = map_bucket(c, id);; b = (b + 1) & (c->map_size - 1)) {
        if (!c->map_slots[b]) return 0;
        if (c->map_ids[b] == id) return c->map_slots[b];
    }
}

void krt_map_put_locked(krt_context *c, uint64_t id, uint32_t s)
{
    size_t b = map_bucket(c, id);
    while (c->map_slots[b]) b = (b + 1) & (c->map_size - 1);
    c->map_ids[b] = id;
    c->map_slots[b] = s + 1;
}

void krt_map_remove_locked(krt_context *c, uint64_t id)
{
    size_t m = c->map_size - 1, b = map_bucket(c, id);
    while (c->map_slots[b] && c->map_ids[b] != id) b = (b + 1) & m;
    if (!c->map_slots[b]) return;
    c->map_slots[b] = 0;
    /* Backward shift: move later members of the run into the hole when their home allows. */
    for (size_t j = (b + 1) & m; c->map_slots[j]; j = (j + 1) & m) {
        size_t home = map_bucket(c, c->map_ids[j]);
        if (((j - home) & m) >= ((j - b) & m)) {
            c->map_ids[b] = c->map_ids[j];
            c->map_slots[b] = c->map_slots[j];
            c->map_slots[j] = 0;
            b = j;
        }
    }
}

/* The asset of a live (not released, not cached) handle, or NULL. Lock held. */
krt_asset *krt_resolve_locked(krt_context *c, krt_handle h)
{
    uint32_t s = (uint32_t)h.id, gen = (uint32_t)(h.id >> 32) & 0xFFFFFFu;
    if (!h.id || s >= c->max_assets) return NULL;
    krt_asset *a = c->slots[s].asset;
    if (!a || a->dying || a->cached || c->slots[s].generation != gen ||
        a->type != (uint32_t)(h.id >> 56))
        return NULL;
    return a;
}

static kiln_result stale(kiln_error *err, krt_handle h)
{
    return kiln_error_set(err, KILN_E_USAGE,
                          "stale handle %016llx (null, released, or not of this context)",
                          (unsigned long long)h.id);
}

krt_handle krt_handle_of(krt_context *c, const krt_asset *a)
{
    return krt_make_handle(a->type, c->slots[a->slot].generation, a->slot);
}

/* Drops a reference; at zero the handle goes stale and krt_update frees the asset or keeps it
 * resident. Lock held. */
void krt_release_locked(krt_context *c, krt_asset *a)
{
    if (KILN_NEVER(a->refs == 0)) return;
    if (--a->refs) return;
    a->dying = true;
    krt_pending_add_locked(c, a); /* krt_update destroys or keeps it */
    krt_map_remove_locked(c, a->id);
    uint32_t g = (c->slots[a->slot].generation + 1) & 0xFFFFFFu;
    c->slots[a->slot].generation = g ? g : 1;
}

void krt_release_deps_locked(krt_context *c, krt_asset *a)
{
    /* a decode that failed may have counted dependencies without the handle array */
    for (size_t i = 0; a->dec.deps && i < a->dec.dep_count; i++) {
        krt_asset *d = krt_resolve_locked(c, a->dec.deps[i]);
        if (d) {
            krt_dependent_remove_locked(c, d, a);
            krt_release_locked(c, d);
        }
        a->dec.deps[i] = (krt_handle){0};
    }
}

void krt_retry_locked(krt_context *c, krt_asset *a)
{
    if (a->ops->table_record || a->ops->table_block) c->mat_dirty = true;
    krt_release_deps_locked(c, a);
    krt_asset_drop_data_locked(c, a);
    kiln_error_clear(&a->error);
    a->revive = false;
    a->phase = KRT_PHASE_LOADING;
    a->job_running = true;
}

kiln_result krt_load_locked(krt_context *c, uint32_t type, uint64_t id, const kiln_error *absent,
                            krt_handle *out, krt_asset **job, kiln_error *err)
{
    *out = (krt_handle){0};
    *job = NULL;
    uint32_t s1 = krt_map_find_locked(c, id);
    if (s1) {
        krt_asset *a = c->slots[s1 - 1].asset;
        if (a->type != type)
            return kiln_error_set(err, KILN_E_USAGE, "asset %016llx is loaded as a %s, not a %s",
                                  (unsigned long long)id, krt_type_name(c, a->type),
                                  krt_type_name(c, type));
        if (a->cached) {
            /* Released but resident: take it back without I/O; its job only loads its
             * dependencies again, and krt_update creates its GPU object again. */
            krt_budget_unlink_locked(c, a);
            a->cached = false;
            a->refs = 1;
            c->live++;
            c->revivals++;
            a->handle = krt_handle_of(c, a);
            a->phase = KRT_PHASE_LOADING;
            a->revive = true;
            a->job_running = true;
            if (a->ops->table_record) krt_mattab_alloc_locked(c, a);
            *job = a;
            *out = a->handle;
            return KILN_OK;
        }
        a->refs++;
        if (a->phase == KRT_PHASE_FAILED && !a->job_running && absent &&
            !krt_mounts_find(&c->mounts, id)) {
            a->error = *absent; /* still skipped: nothing to read */
        } else if (a->phase == KRT_PHASE_FAILED && !a->job_running) {
            krt_retry_locked(c, a);
            *job = a;
        }
        *out = krt_handle_of(c, a);
        return KILN_OK;
    }
    const krt_artifact *art = krt_mounts_find(&c->mounts, id);
    if (art && art->type != type)
        return kiln_error_set(err, KILN_E_USAGE, "%s is a %s, not a %s", art->name,
                              krt_type_name(c, art->type), krt_type_name(c, type));
    if (!c->free_head && c->high_water == c->max_assets && c->lru_head)
        krt_budget_evict_locked(c, c->lru_head); /* a slot held by resident data is needed */
    if (!c->free_head && c->high_water == c->max_assets)
        return kiln_error_set(err, KILN_E_LIMIT, "%u assets are live (max_assets)", c->max_assets);
    krt_asset *a = kiln_calloc(&c->allocator, 1, sizeof *a);
    if (!a) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for an asset");
    uint32_t s;
    if (c->free_head) {
        s = c->free_head - 1;
        c->free_head = c->slots[s].next_free;
    } else {
        s = c->high_water++;
        c->slots[s].generation = 1;
    }
    c->slots[s].asset = a;
    a->ctx = c;
    a->id = id;
    a->type = type;
    a->ops = krt_types_at(&c->types, type);
    a->slot = s;
    a->refs = 1;
    a->mat_index = KRT_INVALID_INDEX;
    a->handle = krt_make_handle(type, c->slots[s].generation, s);
    c->live++;
    krt_map_put_locked(c, id, s);
    if (a->ops->table_record) krt_mattab_alloc_locked(c, a);
    if (!art) {
        a->phase = KRT_PHASE_FAILED;
        c->failures++;
        if (absent) a->error = *absent;
        else if (c->mounts.skip_count) /* it may be in one of them */
            kiln_error_set(&a->error, KILN_E_USAGE,
                           "%s %016llx is not in any mount (%zu damaged cache files were skipped: "
                           "krt_mount_skipped lists them)",
                           krt_type_name(c, type), (unsigned long long)id, c->mounts.skip_count);
        else
            kiln_error_set(&a->error, KILN_E_USAGE, "%s %016llx is not in any mount",
                           krt_type_name(c, type), (unsigned long long)id);
    } else {
        a->phase = KRT_PHASE_LOADING;
        a->job_running = true;
        *job = a;
    }
    *out = krt_handle_of(c, a);
    return KILN_OK;
}

static void job_run(void *arg);

void krt_submit_fn(krt_context *c, krt_job_fn fn, void *arg)
{
    atomic_fetch_add(&c->inflight, 1);
    if (!c->jobs.submit(c->jobs.user, fn, arg)) {
        fn(arg); /* the queue is full: run it here rather than fail */
        if (c->pool) krt_pool_notify(c->pool);
    }
}

void krt_submit(krt_context *c, krt_asset *a) { krt_submit_fn(c, job_run, a); }

kiln_result krt_load_deps_locked(krt_context *c, krt_asset *a, krt_asset ***jobs, size_t *job_count,
                                 size_t *job_cap, krt_asset **small, kiln_error *err)
{
    kiln_result r = KILN_OK;
    krt_decoded *dd = &a->dec;
    for (size_t i = 0; i < dd->dep_count; i++) {
        krt_asset *j;
        kiln_error de;
        if (krt_load_locked(c, dd->dep_types[i], dd->dep_ids[i], NULL, &dd->deps[i], &j, &de)) {
            r = de.code;
            *err = de;
            kiln_error_prefix(err, "dependency %016llx: ", (unsigned long long)dd->dep_ids[i]);
            break;
        }
        krt_asset *d = krt_resolve_locked(c, dd->deps[i]);
        bool noted = !d || krt_dependent_add_locked(c, d, a);
        if (j && *job_count == *job_cap) {
            /* a scene with many new meshes: submitted under no lock later; grow the list */
            size_t n = *job_cap * 2;
            krt_asset **bigger = kiln_alloc(&c->allocator, n * sizeof *bigger);
            if (!bigger) { /* cannot queue it: fail it now, its load can be retried */
                j->job_running = false;
                j->phase = KRT_PHASE_FAILED;
                kiln_error_set(&j->error, KILN_E_OUT_OF_MEMORY, "out of memory queueing a load");
                krt_dependents_wake_locked(c, j); /* a retried one may have parked dependents */
                j = NULL;
            } else {
                memcpy(bigger, *jobs, *job_count * sizeof **jobs);
                if (*jobs != small) kiln_free(&c->allocator, *jobs, *job_cap * sizeof **jobs);
                *jobs = bigger;
                *job_cap = n;
            }
        }
        if (j) (*jobs)[(*job_count)++] = j; /* queued even when released below: it must end */
        if (!noted) {                       /* not on d's list: do not hold the reference either */
            krt_release_locked(c, d);
            dd->deps[i] = (krt_handle){0};
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a dependency list");
            break;
        }
    }
    krt_asset_link_deps(a);
    return r;
}

bool krt_source_of_locked(krt_context *c, uint64_t id, krt_source *out)
{
    const krt_artifact *art = krt_mounts_find(&c->mounts, id);
    size_t n = art ? strlen(art->path) : 0;
    if (!art || n >= sizeof out->path) return false;
    memcpy(out->path, art->path, n + 1);
    out->size = art->size;
    memcpy(out->sha256, art->sha256, 32);
    memcpy(out->xxh3_128, art->xxh3_128, 16);
    out->has_xxh3 = art->has_xxh3;
    out->pack = art->pack;
    out->entry = art->entry;
    return true;
}

static void job_run(void *arg)
{
    krt_asset *a = arg;
    krt_context *c = a->ctx;
    kiln_error e;
    kiln_error_clear(&e);
    krt_source src;
    bool found, revive;
    krt_pack_mount *pm = NULL; /* the pack it reads from, a reference held while it does */
    pthread_mutex_lock(&c->mu);
    revive = a->revive;
    found = !revive && krt_source_of_locked(c, a->id, &src);
    if (found) {
        memcpy(a->src_sha256, src.sha256, 32);
        a->src_size = src.size;
        if (src.pack) krt_pack_ref_locked(pm = krt_pack_mount_of(src.pack));
    }
    if (!revive) c->loads++;
    pthread_mutex_unlock(&c->mu);
    kiln_result r = revive  ? KILN_OK
                    : found ? krt_asset_decode(a, &src, !c->desc.no_verify, c->desc.max_file_size,
                                               &c->types, &c->desc.renderer, &c->allocator, &e)
                            : kiln_error_set(&e, KILN_E_USAGE, "asset %016llx is not in any mount",
                                             (unsigned long long)a->id);
    if (r && found) r = krt_verify_classify(a, &src, !c->desc.no_verify, r, &e);
    krt_asset *jobs_small[16];
    krt_asset **jobs = jobs_small;
    size_t job_count = 0, job_cap = 16;
    pthread_mutex_lock(&c->mu);
    if (pm) krt_pack_hand_over_locked(c, a, pm);
    if (!revive) c->resident += a->dec.resident;
    if (!revive && r == KILN_OK && a->dec.transcoded) c->transcodes++;
    a->revive = false;
    if (r == KILN_OK && !a->dying)
        r = krt_load_deps_locked(c, a, &jobs, &job_count, &job_cap, jobs_small, &e);
    if (r) {
        a->error = e;
        a->phase = KRT_PHASE_FAILED;
        c->failures++;
        krt_dependents_wake_locked(c, a); /* they fail with it in krt_update */
    } else {
        a->phase = KRT_PHASE_DECODED;
    }
    a->job_running = false;
    c->mat_dirty = true;          /* a material (this one or a dependency) may have failed */
    krt_pending_add_locked(c, a); /* decoded (krt_update creates it) or failed (dependents) */
    pthread_mutex_unlock(&c->mu);
    for (size_t i = 0; i < job_count; i++) krt_submit(c, jobs[i]);
    if (jobs != jobs_small) kiln_free(&c->allocator, jobs, job_cap * sizeof *jobs);
    atomic_fetch_sub(&c->inflight, 1); /* the last touch of c */
}

kiln_result krt_create(const krt_desc *desc, krt_context **out, kiln_error *err)
{
    *out = NULL;
    krt_desc d;
    memset(&d, 0, sizeof d);
    if (desc) {
        size_t n = desc->struct_size ? desc->struct_size : sizeof d;
        if (n > sizeof d)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "krt_desc.struct_size %zu is larger than this library's %zu", n,
                                  sizeof d);
        memcpy(&d, desc, n);
    }
    uint64_t unknown = d.flags & ~(uint64_t)KRT_DESC_DROP_CPU_AFTER_UPLOAD;
    if (unknown)
        return kiln_error_set(err, KILN_E_USAGE, "krt_desc.flags has unknown bits %llx",
                              (unsigned long long)unknown);
    if (!d.jobs.submit != !d.jobs.wait)
        return kiln_error_set(err, KILN_E_USAGE, "krt_jobs needs both submit and wait, or neither");
    if (d.max_assets > (1u << 24))
        return kiln_error_set(err, KILN_E_USAGE, "max_assets is above 2^24");
    if (!d.max_assets) d.max_assets = 16384;
    if (!d.max_file_size) d.max_file_size = 1ull << 30;
    if (!d.queue_capacity) d.queue_capacity = 1024;
    if (!d.worker_count) {
        size_t n = kiln_cpu_count();
        d.worker_count = (uint32_t)(n > 1 ? (n - 1 > 16 ? 16 : n - 1) : 1);
    }
    kiln_allocator al = d.allocator;
    krt_context *c = kiln_calloc(&al, 1, sizeof *c);
    if (!c) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the context");
    c->allocator = al;
    c->desc = d;
    krt_types_init(&c->types);
    c->max_assets = d.max_assets;
    c->mounts.alloc = &c->allocator;
    c->watch_fd = c->watch_wake[0] = c->watch_wake[1] = -1;
    c->map_size = 64;
    while (c->map_size < (size_t)d.max_assets * 2) c->map_size *= 2;
    c->slots = kiln_calloc(&al, d.max_assets, sizeof *c->slots);
    c->map_ids = kiln_calloc(&al, c->map_size, sizeof *c->map_ids);
    c->map_slots = kiln_calloc(&al, c->map_size, sizeof *c->map_slots);
    pthread_mutex_init(&c->mu, NULL);
    atomic_init(&c->inflight, 0);
    atomic_init(&c->changed, 0);
    kiln_result r = KILN_OK;
    if (!c->slots || !c->map_ids || !c->map_slots)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the registry");
    if (!r) r = krt_mattab_create(c, err);
    if (!r && !d.jobs.submit) {
        r = krt_pool_create(d.worker_count, d.queue_capacity, &c->allocator, &c->pool, err);
        if (!r) c->jobs = (krt_jobs){krt_pool_submit, krt_pool_wait, c->pool};
    } else {
        c->jobs = d.jobs;
    }
    if (r) {
        krt_destroy(c);
        return r;
    }
    *out = c;
    return KILN_OK;
}

static bool idle(void *arg) { return atomic_load(&((krt_context *)arg)->inflight) == 0; }

void krt_wait(krt_context *c)
{
    if (c && c->jobs.wait) c->jobs.wait(c->jobs.user, idle, c);
}

void krt_gpu_destroy(krt_context *c, const krt_type_ops *t, krt_handle h, void *gpu)
{
    if (t->destroy) t->destroy(c, t, h, gpu);
}

static void destroy_gpu(krt_context *c, krt_asset *a)
{
    if (!a->has_gpu) return;
    krt_gpu_destroy(c, a->ops, a->handle, a->gpu);
    a->has_gpu = false;
    a->gpu = NULL;
}

void krt_reap_locked(krt_context *c, krt_asset *a)
{
    krt_unlist_locked(c, a);
    krt_asset_drop_data_locked(c, a);
    krt_dependents_free(c, a);
    uint32_t s = a->slot;
    c->slots[s].asset = NULL;
    c->slots[s].next_free = c->free_head;
    c->free_head = s + 1;
    if (!a->cached) c->live--;
    kiln_free(&c->allocator, a, sizeof *a);
}

void krt_pack_free(krt_context *c, krt_pack_mount *pm)
{
    if (!pm) return;
    kiln_file_unmap(&pm->map);
    kiln_free(&c->allocator, pm, sizeof *pm);
}

kiln_result krt_pack_open(krt_context *c, const char *path, krt_pack_mount **out, kiln_error *err)
{
    *out = NULL;
    krt_pack_mount *pm = kiln_calloc(&c->allocator, 1, sizeof *pm);
    if (!pm) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a pack");
    /* Mapped, not read: the table is validated now, payload pages are touched by the jobs. */
    kiln_result r = kiln_file_map(path, SIZE_MAX, &pm->map, err);
    if (r) {
        kiln_free(&c->allocator, pm, sizeof *pm);
        return r;
    }
    r = kiln_pack_open_memory(pm->map.data, pm->map.size,
                              c->desc.no_verify ? KILN_PACK_SKIP_CHECKSUM : 0, &pm->pack, err);
    if (r && !c->desc.no_verify) {
        kiln_error local;
        kiln_error *e = err ? err : &local;
        if (!err) kiln_error_clear(&local);
        r = krt_verify_classify_pack(pm, path, r, e);
    }
    if (r) {
        if (err && !err->path[0]) kiln_error_at_path(err, path);
        krt_pack_free(c, pm);
        return r;
    }
    pm->refs = 1; /* the mount's */
    *out = pm;
    return KILN_OK;
}

void krt_destroy(krt_context *c)
{
    if (!c) return;
    krt_watch_stop(c);
    krt_wait(c);
    krt_pool_destroy(c->pool);
    c->pool = NULL;
    for (uint32_t s = 0; s < c->high_water; s++) {
        krt_asset *a = c->slots[s].asset;
        if (!a) continue;
        destroy_gpu(c, a);
        if (a->staged) krt_reload_drop_locked(c, a);
        if (a->cached) krt_budget_unlink_locked(c, a);
        krt_reap_locked(c, a);
    }
    krt_fallback_destroy(c);
    krt_mattab_destroy(c);
    krt_blocktab_destroy(c);
    krt_custom_types_free(c);
    krt_mounts_free(&c->mounts);
    for (size_t i = 0; i < c->source_count; i++) {
        kiln_free(&c->allocator, c->sources[i].dir, strlen(c->sources[i].dir) + 1);
        krt_pack_free(c, c->sources[i].pack);
        krt_memo_destroy(c, c->sources[i].memo);
    }
    while (c->retired) {
        krt_pack_mount *next = c->retired->next_retired;
        krt_pack_free(c, c->retired);
        c->retired = next;
    }
    kiln_free(&c->allocator, c->sources, c->source_cap * sizeof *c->sources);
    pthread_mutex_destroy(&c->mu);
    kiln_allocator al = c->allocator;
    kiln_free(&al, c->slots, (size_t)c->max_assets * sizeof *c->slots);
    kiln_free(&al, c->map_ids, c->map_size * sizeof *c->map_ids);
    kiln_free(&al, c->map_slots, c->map_size * sizeof *c->map_slots);
    kiln_free(&al, c, sizeof *c);
}

/* Merges a mount's table and records where it came from (taking pack). */
void krt_memo_destroy(krt_context *c, krt_cache_memo *m)
{
    if (!m) return;
    krt_cache_memo_free(&c->allocator, m);
    kiln_free(&c->allocator, m, sizeof *m);
}

static kiln_result add_mount(krt_context *c, const char *where, const char *platform,
                             krt_pack_mount *pack, krt_cache_memo *memo, uint64_t sig,
                             const krt_dir_stamp *stamp, krt_mounts *m, kiln_error *err)
{
    kiln_result r = KILN_OK;
    char *dir = kiln_strdup(&c->allocator, where);
    if (!dir) {
        krt_memo_destroy(c, memo);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a mount");
    }
    pthread_mutex_lock(&c->mu);
    if (c->source_count == c->source_cap) {
        size_t cap = c->source_cap ? c->source_cap * 2 : 4;
        krt_mount_source *ns =
            kiln_realloc(&c->allocator, c->sources, c->source_cap * sizeof *ns, cap * sizeof *ns);
        if (!ns) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a mount");
        else {
            c->sources = ns;
            c->source_cap = cap;
        }
    }
    if (!r) r = krt_mounts_merge(&c->mounts, m, err);
    if (!r) {
        c->mount_serial++;
        krt_mount_source *src = &c->sources[c->source_count++];
        src->dir = dir;
        snprintf(src->platform, sizeof src->platform, "%s", platform ? platform : "");
        src->pack = pack;
        src->signature = sig;
        if (stamp) src->stamp = *stamp;
        else memset(&src->stamp, 0, sizeof src->stamp);
        src->watch = -1;
        src->memo = memo;
        memo = NULL;
        dir = NULL;
        if (c->watching) (void)krt_watch_add_locked(c, src, NULL); /* best effort */
    }
    pthread_mutex_unlock(&c->mu);
    if (dir) kiln_free(&c->allocator, dir, strlen(dir) + 1);
    krt_memo_destroy(c, memo);
    return r;
}

kiln_result krt_mount_cache(krt_context *c, const char *cache_dir, size_t *artifact_count,
                            kiln_error *err)
{
    return krt_mount_cache_platform(c, cache_dir, NULL, artifact_count, err);
}

kiln_result krt_mount_cache_platform(krt_context *c, const char *cache_dir, const char *platform,
                                     size_t *artifact_count, kiln_error *err)
{
    if (artifact_count) *artifact_count = 0;
    if (!c || !cache_dir)
        return kiln_error_set(err, KILN_E_USAGE, "krt_mount_cache: NULL argument");
    /* a folder name inside the cache: the names kiln accepts for --platform */
    bool plain = !platform || strlen(platform) < KRT_PLATFORM_MAX;
    for (const char *s = platform; plain && s && *s; s++)
        plain = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                *s == '-' || *s == '_';
    if (!plain)
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_mount_cache_platform: bad platform name \"%s\"", platform);
    /* The records' signature first: a change between it and the read shows in the next poll. */
    uint64_t sig = 0;
    krt_dir_stamp stamp;
    memset(&stamp, 0, sizeof stamp);
    kiln_result r =
        krt_source_signature(cache_dir, platform, &c->allocator, &sig, &stamp, NULL, err);
    if (r) return r;
    krt_mounts m;
    krt_cache_memo *memo = kiln_calloc(&c->allocator, 1, sizeof *memo); /* for the polls */
    r = memo ? krt_mounts_read_cache_typed(cache_dir, platform, &c->types, &c->allocator, NULL,
                                           memo, &m, err)
             : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a mount");
    if (r) {
        krt_memo_destroy(c, memo);
        return r;
    }
    size_t n = m.count;
    r = add_mount(c, cache_dir, platform, NULL, memo, sig, &stamp, &m, err); /* takes memo */
    krt_mounts_free(&m);
    if (!r && artifact_count) *artifact_count = n;
    return r;
}

kiln_result krt_mount_pack(krt_context *c, const char *pack_path, size_t *artifact_count,
                           kiln_error *err)
{
    if (artifact_count) *artifact_count = 0;
    if (!c || !pack_path) return kiln_error_set(err, KILN_E_USAGE, "krt_mount_pack: NULL argument");
    /* The signature first: a pack renamed over it after this shows in the next poll. */
    uint64_t sig = krt_file_signature(pack_path);
    krt_pack_mount *pm;
    kiln_result r = krt_pack_open(c, pack_path, &pm, err);
    if (r) return r;
    krt_mounts m;
    memset(&m, 0, sizeof m);
    m.alloc = &c->allocator;
    r = krt_mounts_read_pack(&pm->pack, pack_path, &c->types, &c->allocator, &m, err);
    size_t n = m.count;
    if (!r) r = add_mount(c, pack_path, NULL, pm, NULL, sig, NULL, &m, err);
    krt_mounts_free(&m);
    if (r) {
        krt_pack_free(c, pm);
        return r;
    }
    if (artifact_count) *artifact_count = n;
    return KILN_OK;
}

bool krt_lookup(krt_context *c, const char *name, uint64_t *id)
{
    if (!c || !name) return false;
    pthread_mutex_lock(&c->mu);
    const krt_artifact *a = krt_mounts_find_name(&c->mounts, name);
    if (a && id) *id = a->id;
    pthread_mutex_unlock(&c->mu);
    return a != NULL;
}

krt_type krt_lookup_id(krt_context *c, uint64_t id)
{
    if (!c) return KRT_TYPE_NONE;
    pthread_mutex_lock(&c->mu);
    const krt_artifact *a = krt_mounts_find(&c->mounts, id);
    krt_type t = a ? (krt_type)a->type : KRT_TYPE_NONE;
    pthread_mutex_unlock(&c->mu);
    return t;
}

krt_handle krt_load_id(krt_context *c, krt_type type, uint64_t id, kiln_error *err)
{
    krt_handle h = {0};
    if (!c || !krt_types_at(&c->types, (uint32_t)type) || !id) {
        kiln_error_set(err, KILN_E_USAGE, "krt_load: bad context, type or id 0");
        return h;
    }
    krt_asset *job;
    pthread_mutex_lock(&c->mu);
    kiln_result r = krt_load_locked(c, type, id, NULL, &h, &job, err);
    pthread_mutex_unlock(&c->mu);
    if (!r && job) krt_submit(c, job);
    return h;
}

krt_handle krt_load(krt_context *c, krt_type type, const char *name, kiln_error *err)
{
    uint64_t id;
    if (!c || !name) {
        kiln_error_set(err, KILN_E_USAGE, "krt_load: NULL argument");
        return (krt_handle){0};
    }
    if (!krt_lookup(c, name, &id)) return krt_load_skipped(c, type, name, err);
    return krt_load_id(c, type, id, err);
}

kiln_result krt_release(krt_context *c, krt_handle h, kiln_error *err)
{
    if (!c) return kiln_error_set(err, KILN_E_USAGE, "krt_release: NULL context");
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    if (a) krt_release_locked(c, a);
    pthread_mutex_unlock(&c->mu);
    return a ? KILN_OK : stale(err, h);
}

krt_state krt_state_of(krt_context *c, krt_handle h)
{
    if (!c) return KRT_STATE_INVALID;
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    krt_state s = !a                             ? KRT_STATE_INVALID
                  : a->phase == KRT_PHASE_READY  ? KRT_STATE_READY
                  : a->phase == KRT_PHASE_FAILED ? KRT_STATE_FAILED
                                                 : KRT_STATE_LOADING;
    pthread_mutex_unlock(&c->mu);
    return s;
}

kiln_result krt_error(krt_context *c, krt_handle h, kiln_error *out)
{
    kiln_error_clear(out);
    if (!c) return stale(out, h);
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    kiln_result r = KILN_OK;
    if (!a) r = stale(out, h);
    else if (a->phase == KRT_PHASE_FAILED) {
        if (out) *out = a->error;
        r = a->error.code ? a->error.code : KILN_E_INTERNAL;
    }
    pthread_mutex_unlock(&c->mu);
    return r;
}

uint64_t krt_asset_id(krt_context *c, krt_handle h)
{
    if (!c) return 0;
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    uint64_t id = a ? a->id : 0;
    pthread_mutex_unlock(&c->mu);
    return id;
}

kiln_result krt_gpu_create(krt_context *c, const krt_type_ops *t, krt_handle h, const krt_asset *d,
                           void **gpu, bool *made, kiln_error *e)
{
    kiln_result r = KILN_OK;
    *gpu = NULL;
    *made = false;
    if (t->create) r = t->create(c, h, d, gpu, made, e);
    if (r && !e->code) kiln_error_set(e, r, "the renderer could not create this %s", t->kind->name);
    return r;
}

/* A released asset with no job: destroy its GPU object (unlocking around the callback), drop
 * its staged reload and dependencies, then keep it resident or free it. Lock held. */
static void retire_locked(krt_context *c, krt_asset *a)
{
    if (a->has_gpu) {
        pthread_mutex_unlock(&c->mu);
        destroy_gpu(c, a); /* nobody else touches a dying asset */
        pthread_mutex_lock(&c->mu);
    }
    if (a->staged) krt_reload_drop_locked(c, a);
    krt_release_deps_locked(c, a);
    if (a->ops->table_record) krt_mattab_free_locked(c, a);
    if (a->ops->table_block) krt_blocktab_free_locked(c, a);
    /* Keep it only when it holds good data of what is mounted now, no newer copy of the asset
     * is live, and it fits: a load finds it through the id map again. */
    const krt_artifact *art = krt_mounts_find(&c->mounts, a->id);
    bool keep = c->desc.budget_bytes && a->dec.resident <= c->desc.budget_bytes &&
                !a->dec.cpu_dropped &&
                (a->phase == KRT_PHASE_READY || a->phase == KRT_PHASE_DECODED) && art &&
                art->size == a->src_size && memcmp(art->sha256, a->src_sha256, 32) == 0 &&
                !krt_map_find_locked(c, a->id);
    if (!keep) {
        krt_reap_locked(c, a);
        return;
    }
    krt_pending_remove_locked(c, a); /* kept assets are not krt_update's work */
    a->dying = false;
    a->phase = KRT_PHASE_DECODED;
    krt_map_put_locked(c, a->id, a->slot);
    c->live--;
    krt_budget_keep_locked(c, a);
}

size_t krt_update(krt_context *c)
{
    if (!c) return 0;
    if (c->desc.fallbacks && !c->fb_made) krt_fallback_make(c);
    size_t loading;
    bool first = true;
    for (;;) {
        bool progress = false;
        pthread_mutex_lock(&c->mu);
        if (first) c->update_visits = 0; /* this call's work (krt_stats.update_visits) */
        first = false;
        /* Only the assets on the pending list: an idle frame walks nothing, a busy one what
         * changed; those waiting for dependencies are parked off it. Other threads only append
         * to the list (while the lock is let go around a callback below); only this thread
         * removes, so `next` stays valid. */
        for (krt_asset *a = c->pend_head, *next; a; a = next) {
            next = a->pend_next;
            c->update_visits++;
            if (a->cached) { /* cannot happen: kept assets leave the list as they are kept */
                krt_pending_remove_locked(c, a);
                continue;
            }
            if (a->dying) {
                if (a->job_running || a->reload_running || a->phase == KRT_PHASE_CREATING) continue;
                retire_locked(c, a); /* frees it, or keeps it off the list */
                progress = true;
                continue;
            }
            if (a->phase !=
                KRT_PHASE_DECODED) { /* loading again (its job's end adds it), or done */
                krt_pending_remove_locked(c, a);
                continue;
            }
            const krt_asset *bad = NULL;
            bool waiting = false;
            for (size_t i = 0; i < a->dec.dep_count && !bad; i++) {
                const krt_asset *d = krt_resolve_locked(c, a->dec.deps[i]);
                if (!d) continue; /* cannot happen: a holds a reference */
                if (d->phase == KRT_PHASE_FAILED) bad = d;
                else if (d->phase != KRT_PHASE_READY) waiting = true;
            }
            if (bad) {
                kiln_error de = bad->error;
                kiln_error_prefix(&de, "%s %016llx: ", krt_type_name(c, bad->type),
                                  (unsigned long long)bad->id);
                a->error = de;
                a->phase = KRT_PHASE_FAILED;
                c->failures++;
                krt_dependents_wake_locked(c, a); /* exactly the assets that hold it */
                progress = true;
                continue;
            }
            if (waiting) { /* until a dependency is ready or fails */
                krt_park_locked(c, a);
                continue;
            }
            if (a->ops->link_gpu) a->ops->link_gpu(c, a);
            a->phase = KRT_PHASE_CREATING;
            krt_handle h = krt_handle_of(c, a);
            a->handle = h;
            krt_pending_remove_locked(c, a); /* a release meanwhile lists it again */
            pthread_mutex_unlock(&c->mu);
            kiln_error e;
            kiln_error_clear(&e);
            void *gpu = NULL;
            bool made;
            kiln_result r = krt_gpu_create(c, a->ops, h, a, &gpu, &made, &e);
            pthread_mutex_lock(&c->mu);
            a->gpu = gpu;
            a->has_gpu = r == KILN_OK && made;
            if (r) {
                a->error = e;
                a->phase = KRT_PHASE_FAILED;
                c->failures++;
                krt_dependents_wake_locked(c, a); /* they fail with it */
            } else {
                a->phase = KRT_PHASE_READY;
                krt_dependents_ready_locked(c, a); /* the parked ones that wait for it */
                krt_cpu_drop_locked(c, a);         /* when asked: the renderer has the data now */
            }
            progress = true;
        }
        if (progress) c->mat_dirty = true; /* phases changed: records may follow */
        pthread_mutex_unlock(&c->mu);
        if (krt_reload_apply(c)) progress = true;
        if (!progress) break;
    }
    pthread_mutex_lock(&c->mu);
    krt_budget_trim_locked(c);
    krt_mattab_sync_locked(c);
    /* waiting for dependencies (assets and reloads), and jobs queued or running */
    loading = c->parked + (size_t)atomic_load(&c->inflight);
    pthread_mutex_unlock(&c->mu);
    return loading;
}

void krt_finish(krt_context *c)
{
    if (!c) return;
    for (;;) {
        krt_wait(c);
        if (krt_update(c) == 0 && idle(c)) {
            /* released assets whose jobs just ended are freed by this last pass */
            krt_update(c);
            return;
        }
    }
}

krt_asset *krt_ready_locked(krt_context *c, krt_handle h, uint32_t type, kiln_error *err)
{
    if (!c) {
        stale(err, h);
        return NULL;
    }
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    bool ok = a && a->type == type && a->phase == KRT_PHASE_READY;
    if (ok && !a->dec.cpu_dropped) return a;
    uint64_t id = a ? a->id : 0;
    pthread_mutex_unlock(&c->mu);
    if (ok)
        kiln_error_set(err, KILN_E_USAGE,
                       "%s %016llx: its CPU data was released after upload "
                       "(KRT_DESC_DROP_CPU_AFTER_UPLOAD); the renderer's object has it",
                       krt_type_name(c, type), (unsigned long long)id);
    else if (!a) stale(err, h);
    else
        kiln_error_set(err, KILN_E_USAGE, "handle %016llx is not a ready %s",
                       (unsigned long long)h.id, krt_type_name(c, type));
    return NULL;
}

void *krt_gpu(krt_context *c, krt_handle h)
{
    if (!c) return NULL;
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    void *g = NULL;
    if (a && a->phase == KRT_PHASE_READY) g = a->gpu;
    else if (a && a->ops->fallback_gpu) g = a->ops->fallback_gpu(c);
    pthread_mutex_unlock(&c->mu);
    return g;
}

void krt_get_stats(krt_context *c, krt_stats *out)
{
    if (!out) return;
    krt_stats s;
    memset(&s, 0, sizeof s);
    if (c) {
        pthread_mutex_lock(&c->mu);
        s.live_assets = c->live;
        s.loads = c->loads;
        s.failures = c->failures;
        s.resident_bytes = c->resident;
        s.mounted_artifacts = c->mounts.count;
        s.evictions = c->evictions;
        s.reloads = c->reloads;
        s.reload_failures = c->reload_failures;
        s.revivals = c->revivals;
        s.cached_assets = c->cached_count;
        s.cached_bytes = c->cached_bytes;
        s.transcodes = c->transcodes;
        s.poll_visits = c->poll_visits;
        s.rebuild_visits = c->rebuild_visits;
        s.update_visits = c->update_visits;
        s.poll_stats = c->poll_stats;
        pthread_mutex_unlock(&c->mu);
    }
    /* Every field after struct_size is a uint64_t: write those wholly inside the caller's
     * size, never struct_size itself (the caller's, kept for the next call). */
    size_t n = out->struct_size ? out->struct_size : sizeof s;
    if (n > sizeof s) n = sizeof s;
    size_t first = offsetof(krt_stats, live_assets);
    if (n <= first) return;
    n = first + (n - first) / sizeof(uint64_t) * sizeof(uint64_t);
    memcpy((char *)out + first, (const char *)&s + first, n - first);
}
