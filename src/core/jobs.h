/* jobs.h — a small pthread pool with one operation: a parallel for over [0, count).
 *
 * Results never depend on the number of threads: fn writes its output for index i into a slot
 * owned by i, and the error reported is always the one of the lowest failing index.
 * Part of libkiln_rt (libc and pthreads only). No global state. */
#ifndef KILN_CORE_JOBS_H
#define KILN_CORE_JOBS_H

#include <stddef.h>

#include "core/cpu.h" /* kiln_cpu_count: the default thread count */
#include "kiln/kiln_format.h"

/* Most threads a pool may have (counting the calling thread). */
#define KILN_JOBS_MAX_THREADS 64

typedef struct kiln_jobs kiln_jobs;

/* The work for one index. worker is in [0, kiln_jobs_thread_count(pool)): the calling thread is
 * worker 0, so per-worker scratch arrays can be indexed by it; no two calls running at the same
 * time share a worker index. On failure fn returns a code other than KILN_OK and should fill
 * err (a per-worker record, cleared before each call); if it leaves err empty, a generic
 * "job <index> failed" message is filled in. Whatever fn writes into err when it returns
 * KILN_OK is ignored. */
typedef kiln_result (*kiln_job_fn)(void *user, size_t index, size_t worker, kiln_error *err);

/* Creates a pool of thread_count threads counting the caller: thread_count - 1 workers are
 * started. 0 = kiln_cpu_count(), capped at KILN_JOBS_MAX_THREADS; 1 starts no thread (every call
 * runs inline). alloc may be NULL (libc); it is kept and used again by destroy.
 * Errors: KILN_E_USAGE (thread_count > KILN_JOBS_MAX_THREADS), KILN_E_OUT_OF_MEMORY (memory, or
 * a thread could not be started; none is left running then). */
kiln_result kiln_jobs_create(size_t thread_count, const kiln_allocator *alloc, kiln_jobs **out,
                             kiln_error *err);

/* Joins the workers and frees the pool. NULL is a no-op. No call may be running on the pool. */
void kiln_jobs_destroy(kiln_jobs *pool);

/* Threads a call may use, counting the caller (>= 1; 1 for a NULL pool). */
size_t kiln_jobs_thread_count(const kiln_jobs *pool);

/* Runs fn(user, i, worker, err) for every i in [0, count) on the pool's workers and the calling
 * thread, and returns when all have returned. Indices are handed out in increasing order in
 * chunks from an atomic counter; the order in which they run is otherwise unspecified.
 *
 * Errors: if fn fails for some indices, returns the code of the LOWEST failing index and copies
 * that index's record into err (may be NULL). That is the same for every thread count: once
 * index k has failed, indices above k may be skipped, but every index below the lowest failing
 * one always runs.
 *
 * pool NULL or of one thread: runs inline on the caller, in index order, stopping at the first
 * failure.
 *
 * Threads: several threads may call this on one pool at once; the calls are serialized (each
 * waits for the pool to be free). fn may call kiln_jobs_for on the same pool: the nested call
 * runs inline on that thread, with the same worker index. Do not call it on a pool whose call
 * is waiting, directly or indirectly, on the current fn (a cycle of pools would deadlock). */
kiln_result kiln_jobs_for(kiln_jobs *pool, size_t count, kiln_job_fn fn, void *user,
                          kiln_error *err);

#endif
