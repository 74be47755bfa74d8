/* jobs.c — the thread pool behind kiln_jobs_for (see jobs.h and docs/core.md "Jobs").
 *
 * One call at a time owns the pool. The caller publishes the job under the mutex and bumps a
 * generation number; workers wake, take chunks of indices from an atomic counter, and check in
 * under the mutex when the counter runs out. Errors are kept per worker (each worker's lowest
 * failing index and its record) and reduced to the lowest index at the end, which is what makes
 * the reported error independent of the thread count; the shared atomic `first_fail` only lets
 * workers skip indices that can no longer matter. */
#include "core/jobs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* Per-worker state, one cache line apart so that workers recording errors do not share lines. */
typedef struct job_slot {
    _Alignas(64) kiln_jobs *pool;
    size_t worker;
    size_t fail_index; /* lowest index that failed on this worker in this call, or SIZE_MAX */
    kiln_result fail_code;
    kiln_error fail_err;
    kiln_error scratch; /* handed to fn; cleared before each index */
} job_slot;

struct kiln_jobs {
    kiln_allocator alloc;
    size_t thread_count;
    pthread_t *threads; /* thread_count - 1 workers; worker w runs on threads[w - 1] */
    job_slot *slots;    /* thread_count; slot 0 belongs to whichever thread called */

    /* Everything below up to the atomics is guarded by mutex. */
    pthread_mutex_t mutex;
    pthread_cond_t wake; /* workers: a new generation or quit */
    pthread_cond_t done; /* the caller: working reached 0 */
    pthread_cond_t idle; /* other callers: busy became false */
    uint64_t generation;
    bool quit;
    bool busy;
    pthread_t owner; /* the thread whose call is running, valid while busy */
    size_t helpers;  /* workers 1..helpers take part in the current generation */
    size_t working;  /* helpers that have not checked in yet */
    kiln_job_fn fn;
    void *user;
    size_t count, chunk;

    _Alignas(64) atomic_size_t next;       /* first index not handed out yet */
    _Alignas(64) atomic_size_t first_fail; /* lowest failing index seen so far, or SIZE_MAX */
};

size_t kiln_jobs_thread_count(const kiln_jobs *pool) { return pool ? pool->thread_count : 1; }

/* Makes the failed index's record complete: the return value is authoritative for the code,
 * and a function that failed silently still gets a message that names the index. */
static void complete_error(kiln_error *e, kiln_result r, size_t index)
{
    if (e->code == KILN_OK || e->message[0] == '\0')
        kiln_error_set(e, r, "job %zu failed (%s)", index, kiln_result_name(r));
    e->code = r;
}

static kiln_result run_inline(size_t count, kiln_job_fn fn, void *user, size_t worker,
                              kiln_error *err)
{
    kiln_error scratch; /* on the stack: a nested call must not touch the outer fn's record */
    for (size_t i = 0; i < count; i++) {
        kiln_error_clear(&scratch);
        kiln_result r = fn(user, i, worker, &scratch);
        if (r != KILN_OK) {
            complete_error(&scratch, r, i);
            if (err) *err = scratch;
            return r;
        }
    }
    return KILN_OK;
}

static void lower_first_fail(atomic_size_t *first_fail, size_t index)
{
    size_t cur = atomic_load_explicit(first_fail, memory_order_relaxed);
    while (index < cur &&
           !atomic_compare_exchange_weak_explicit(first_fail, &cur, index, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

/* Takes chunks until none is left. Skipping is only ever of indices above a value read from
 * first_fail, and every value it holds is an index that did fail, so no index below the lowest
 * failing one is skipped; relaxed order suffices because a stale read only skips less. */
static void run_chunks(kiln_jobs *pool, job_slot *slot)
{
    const size_t count = pool->count, chunk = pool->chunk;
    for (;;) {
        size_t start = atomic_fetch_add_explicit(&pool->next, chunk, memory_order_relaxed);
        if (start >= count) return;
        size_t end = count - start < chunk ? count : start + chunk;
        for (size_t i = start; i < end; i++) {
            /* Chunks are handed out in increasing order: all later ones are higher still. */
            if (i > atomic_load_explicit(&pool->first_fail, memory_order_relaxed)) return;
            kiln_error_clear(&slot->scratch);
            kiln_result r = pool->fn(pool->user, i, slot->worker, &slot->scratch);
            if (r == KILN_OK) continue;
            if (i < slot->fail_index) {
                slot->fail_index = i;
                slot->fail_code = r;
                slot->fail_err = slot->scratch;
                complete_error(&slot->fail_err, r, i);
            }
            lower_first_fail(&pool->first_fail, i);
        }
    }
}

static void *worker_main(void *arg)
{
    job_slot *slot = arg;
    kiln_jobs *pool = slot->pool;
    uint64_t seen = 0; /* not read from the pool: a call may already have started */
    pthread_mutex_lock(&pool->mutex);
    for (;;) {
        while (!pool->quit && pool->generation == seen)
            pthread_cond_wait(&pool->wake, &pool->mutex);
        if (pool->quit) break;
        seen = pool->generation;
        /* Not needed this time; the caller does not wait for us. A worker that is needed cannot
         * sleep through its generation: the next one starts only after it checked in. */
        if (slot->worker > pool->helpers) continue;
        pthread_mutex_unlock(&pool->mutex);
        run_chunks(pool, slot);
        pthread_mutex_lock(&pool->mutex);
        if (--pool->working == 0) pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->mutex);
    return NULL;
}

/* Stops and joins the first `started` workers. */
static void stop_workers(kiln_jobs *pool, size_t started)
{
    pthread_mutex_lock(&pool->mutex);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (size_t i = 0; i < started; i++) pthread_join(pool->threads[i], NULL);
}

static void free_pool(kiln_jobs *pool, int sync_inited)
{
    if (sync_inited > 3) pthread_cond_destroy(&pool->idle);
    if (sync_inited > 2) pthread_cond_destroy(&pool->done);
    if (sync_inited > 1) pthread_cond_destroy(&pool->wake);
    if (sync_inited > 0) pthread_mutex_destroy(&pool->mutex);
    kiln_allocator a = pool->alloc;
    size_t n = pool->thread_count;
    kiln_free(&a, pool->threads, (n - 1) * sizeof *pool->threads);
    kiln_free(&a, pool->slots, n * sizeof *pool->slots);
    kiln_free(&a, pool, sizeof *pool);
}

kiln_result kiln_jobs_create(size_t thread_count, const kiln_allocator *alloc, kiln_jobs **out,
                             kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_jobs_create: out is NULL");
    *out = NULL;
    if (thread_count > KILN_JOBS_MAX_THREADS)
        return kiln_error_set(err, KILN_E_USAGE, "thread count %zu is more than %d", thread_count,
                              KILN_JOBS_MAX_THREADS);
    size_t n = thread_count;
    if (n == 0) {
        n = kiln_cpu_count();
        if (n > KILN_JOBS_MAX_THREADS) n = KILN_JOBS_MAX_THREADS;
    }

    kiln_allocator a = {0};
    if (alloc) a = *alloc;
    kiln_jobs *pool = kiln_alloc_aligned(&a, sizeof *pool, 64);
    if (!pool) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory (thread pool)");
    memset(pool, 0, sizeof *pool);
    pool->alloc = a;
    pool->thread_count = n;
    atomic_init(&pool->next, 0);
    atomic_init(&pool->first_fail, SIZE_MAX);
    pool->slots = kiln_alloc_aligned(&pool->alloc, n * sizeof *pool->slots, 64);
    if (n > 1) pool->threads = kiln_alloc(&pool->alloc, (n - 1) * sizeof *pool->threads);
    if (!pool->slots || (n > 1 && !pool->threads)) {
        free_pool(pool, 0);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory (thread pool)");
    }
    memset(pool->slots, 0, n * sizeof *pool->slots);

    int inited = 0;
    if (pthread_mutex_init(&pool->mutex, NULL) == 0) inited++;
    if (inited == 1 && pthread_cond_init(&pool->wake, NULL) == 0) inited++;
    if (inited == 2 && pthread_cond_init(&pool->done, NULL) == 0) inited++;
    if (inited == 3 && pthread_cond_init(&pool->idle, NULL) == 0) inited++;
    if (inited != 4) {
        free_pool(pool, inited);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "cannot create thread pool locks");
    }

    for (size_t w = 0; w < n; w++) {
        pool->slots[w].pool = pool;
        pool->slots[w].worker = w;
        pool->slots[w].fail_index = SIZE_MAX;
    }
    for (size_t w = 1; w < n; w++) {
        int rc = pthread_create(&pool->threads[w - 1], NULL, worker_main, &pool->slots[w]);
        if (rc != 0) {
            stop_workers(pool, w - 1);
            free_pool(pool, inited);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                  "cannot start worker thread %zu of %zu (error %d)", w, n - 1, rc);
        }
    }
    *out = pool;
    return KILN_OK;
}

void kiln_jobs_destroy(kiln_jobs *pool)
{
    if (!pool) return;
    stop_workers(pool, pool->thread_count - 1);
    free_pool(pool, 4);
}

kiln_result kiln_jobs_for(kiln_jobs *pool, size_t count, kiln_job_fn fn, void *user,
                          kiln_error *err)
{
    if (!fn) return kiln_error_set(err, KILN_E_USAGE, "kiln_jobs_for: fn is NULL");
    if (count == 0) return KILN_OK;
    if (!pool || pool->thread_count == 1) return run_inline(count, fn, user, 0, err);

    /* Nested calls run inline on the thread they come from. Worker threads are recognized by
     * identity (the array is fixed after create); the calling thread by owner. */
    pthread_t self = pthread_self();
    for (size_t w = 1; w < pool->thread_count; w++)
        if (pthread_equal(self, pool->threads[w - 1])) return run_inline(count, fn, user, w, err);

    const size_t n = pool->thread_count;
    size_t chunk = count / (n * 8); /* several chunks per thread evens out uneven work */
    if (chunk == 0) chunk = 1;
    /* The counter runs past count by at most one chunk per thread; keep that from wrapping. */
    if (count > SIZE_MAX - chunk * n) return run_inline(count, fn, user, 0, err);
    size_t chunks = count / chunk + (count % chunk != 0);
    size_t helpers = chunks - 1 < n - 1 ? chunks - 1 : n - 1;

    pthread_mutex_lock(&pool->mutex);
    if (pool->busy && pthread_equal(pool->owner, self)) {
        pthread_mutex_unlock(&pool->mutex);
        return run_inline(count, fn, user, 0, err);
    }
    while (pool->busy) pthread_cond_wait(&pool->idle, &pool->mutex);
    pool->busy = true;
    pool->owner = self;
    pool->fn = fn;
    pool->user = user;
    pool->count = count;
    pool->chunk = chunk;
    atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
    atomic_store_explicit(&pool->first_fail, SIZE_MAX, memory_order_relaxed);
    for (size_t w = 0; w <= helpers; w++) pool->slots[w].fail_index = SIZE_MAX;
    pool->helpers = helpers;
    pool->working = helpers;
    if (helpers > 0) {
        pool->generation++;
        pthread_cond_broadcast(&pool->wake);
    }
    pthread_mutex_unlock(&pool->mutex);

    run_chunks(pool, &pool->slots[0]);

    pthread_mutex_lock(&pool->mutex);
    while (pool->working > 0) pthread_cond_wait(&pool->done, &pool->mutex);
    size_t best = SIZE_MAX, best_w = 0;
    for (size_t w = 0; w <= helpers; w++) {
        if (pool->slots[w].fail_index < best) {
            best = pool->slots[w].fail_index;
            best_w = w;
        }
    }
    kiln_result result = KILN_OK;
    if (best != SIZE_MAX) {
        result = pool->slots[best_w].fail_code;
        if (err) *err = pool->slots[best_w].fail_err;
    }
    pool->busy = false;
    pthread_cond_signal(&pool->idle);
    pthread_mutex_unlock(&pool->mutex);
    return result;
}
