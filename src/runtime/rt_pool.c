/* rt_pool.c — the built-in job pool (rt_pool.h). */
#include "runtime/rt_pool.h"

#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

typedef struct pool_job {
    krt_job_fn fn;
    void *arg;
} pool_job;

struct krt_pool {
    const kiln_allocator *alloc;
    pthread_mutex_t mu;
    pthread_cond_t work, idle;
    pool_job *queue;
    uint32_t capacity, head, count;
    uint32_t running; /* jobs taken by a worker and not finished */
    bool stop;
    uint32_t thread_count, thread_alloc;
    pthread_t *threads;
};

/* Takes the oldest queued job (p->count > 0) and runs it with the lock released; called and
 * returns with p->mu held. Waiters wait for the pool to be idle: they are woken when it is, not
 * after every job (a wake per job costs the waiting thread a futex round trip each time). */
static void run_one_locked(krt_pool *p)
{
    pool_job j = p->queue[p->head];
    p->head = (p->head + 1) % p->capacity;
    p->count--;
    p->running++;
    pthread_mutex_unlock(&p->mu);
    j.fn(j.arg);
    pthread_mutex_lock(&p->mu);
    if (--p->running == 0 && p->count == 0) pthread_cond_broadcast(&p->idle);
}

static void *worker(void *arg)
{
    krt_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->count && !p->stop) pthread_cond_wait(&p->work, &p->mu);
        if (!p->count) break; /* stopping and drained */
        run_one_locked(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

kiln_result krt_pool_create(uint32_t threads, uint32_t capacity, const kiln_allocator *alloc,
                            krt_pool **out, kiln_error *err)
{
    *out = NULL;
    krt_pool *p = kiln_calloc(alloc, 1, sizeof *p);
    if (!p) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the job pool");
    p->alloc = alloc;
    p->capacity = capacity;
    p->thread_alloc = threads;
    p->queue = kiln_calloc(alloc, capacity, sizeof *p->queue);
    p->threads = kiln_calloc(alloc, threads, sizeof *p->threads);
    if (!p->queue || !p->threads) {
        kiln_free(alloc, p->queue, capacity * sizeof *p->queue);
        kiln_free(alloc, p->threads, threads * sizeof *p->threads);
        kiln_free(alloc, p, sizeof *p);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the job pool");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->idle, NULL);
    for (uint32_t i = 0; i < threads; i++) {
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0) {
            p->thread_count = i;
            krt_pool_destroy(p);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "cannot start job thread %u", i);
        }
    }
    p->thread_count = threads;
    *out = p;
    return KILN_OK;
}

void krt_pool_destroy(krt_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < p->thread_count; i++) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    const kiln_allocator *a = p->alloc;
    kiln_free(a, p->queue, p->capacity * sizeof *p->queue);
    kiln_free(a, p->threads, p->thread_alloc * sizeof *p->threads);
    kiln_free(a, p, sizeof *p);
}

bool krt_pool_submit(void *pool, krt_job_fn fn, void *arg)
{
    krt_pool *p = pool;
    pthread_mutex_lock(&p->mu);
    bool ok = p->count < p->capacity && !p->stop && p->thread_count > 0;
    if (ok) {
        p->queue[(p->head + p->count) % p->capacity] = (pool_job){fn, arg};
        p->count++;
        pthread_cond_signal(&p->work);
    }
    pthread_mutex_unlock(&p->mu);
    return ok;
}

/* The waiting thread runs queued jobs itself rather than sleep while there are any (jobs run on
 * any thread: a full queue already runs them inline on the caller of krt_load), so a wait costs
 * no hand-off latency and the waiter's core does work; it sleeps only while jobs it cannot take
 * are running on the workers. */
void krt_pool_wait(void *pool, bool (*done)(void *), void *arg)
{
    krt_pool *p = pool;
    pthread_mutex_lock(&p->mu);
    while (!done(arg)) {
        if (p->count) run_one_locked(p);
        else pthread_cond_wait(&p->idle, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

void krt_pool_notify(krt_pool *p)
{
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->idle);
    pthread_mutex_unlock(&p->mu);
}
