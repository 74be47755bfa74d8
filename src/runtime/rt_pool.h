/* rt_pool.h — the built-in job pool: worker threads over a bounded FIFO queue. submit never
 * blocks: a full queue returns false and the caller runs the job inline. */
#ifndef KILN_RT_POOL_H
#define KILN_RT_POOL_H

#include "kiln/kiln_rt.h"

typedef struct krt_pool krt_pool;

kiln_result krt_pool_create(uint32_t threads, uint32_t capacity, const kiln_allocator *alloc,
                            krt_pool **out, kiln_error *err);
void krt_pool_destroy(krt_pool *p); /* runs what is queued, joins the threads */
bool krt_pool_submit(void *pool, krt_job_fn fn, void *arg);
/* Sleeps until done(arg); woken after every job and by krt_pool_notify. */
void krt_pool_wait(void *pool, bool (*done)(void *), void *arg);
void krt_pool_notify(krt_pool *p);

#endif
