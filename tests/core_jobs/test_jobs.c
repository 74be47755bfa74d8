/* test_jobs.c — the thread pool: coverage of indices, determinism across thread counts, the
 * lowest-failing-index rule, nesting, reuse, concurrent callers, teardown and allocator use.
 * cmocka's assertions are not thread-safe, so job functions only record into atomics and
 * arrays; the checks run on the main thread. */
#include "support.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/jobs.h"

static const size_t thread_counts[] = {1, 2, 3, 8};
#define N_THREAD_COUNTS (sizeof thread_counts / sizeof thread_counts[0])

static kiln_jobs *make_pool(size_t threads)
{
    kiln_jobs *pool = NULL;
    kiln_error err;
    kiln_result r = kiln_jobs_create(threads, NULL, &pool, &err);
    if (r != KILN_OK) fail_msg("kiln_jobs_create(%zu): %s", threads, err.message);
    assert_non_null(pool);
    assert_int_equal(kiln_jobs_thread_count(pool), threads);
    return pool;
}

/* ---- every index exactly once ------------------------------------------------------------ */

typedef struct cover_ctx {
    atomic_int *hits;
    size_t thread_count;
    atomic_int bad_worker;
} cover_ctx;

static kiln_result cover_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    cover_ctx *c = user;
    atomic_fetch_add(&c->hits[index], 1);
    if (worker >= c->thread_count) atomic_store(&c->bad_worker, 1);
    return KILN_OK;
}

static void check_cover(kiln_jobs *pool, size_t count)
{
    cover_ctx c = {0};
    c.hits = calloc(count ? count : 1, sizeof *c.hits);
    assert_non_null(c.hits);
    c.thread_count = kiln_jobs_thread_count(pool);
    atomic_init(&c.bad_worker, 0);
    kiln_error err;
    assert_int_equal(kiln_jobs_for(pool, count, cover_fn, &c, &err), KILN_OK);
    for (size_t i = 0; i < count; i++)
        if (atomic_load(&c.hits[i]) != 1)
            fail_msg("threads %zu count %zu: index %zu ran %d times", c.thread_count, count, i,
                     atomic_load(&c.hits[i]));
    assert_int_equal(atomic_load(&c.bad_worker), 0);
    free(c.hits);
}

static void jobs_for_runs_every_index_exactly_once_for_1_2_3_and_8_threads(void **state)
{
    static const size_t counts[] = {0, 1, 7, 10000};
    for (size_t t = 0; t < N_THREAD_COUNTS; t++) {
        kiln_jobs *pool = make_pool(thread_counts[t]);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) check_cover(pool, counts[c]);
        kiln_jobs_destroy(pool);
    }
}

static void jobs_for_with_null_pool_runs_every_index_inline(void **state)
{
    assert_int_equal(kiln_jobs_thread_count(NULL), 1);
    check_cover(NULL, 0);
    check_cover(NULL, 7);
    check_cover(NULL, 10000);
}

/* ---- determinism ------------------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

/* Uneven work per index so that threads finish in a different order each run. */
static uint64_t slow_hash(size_t index)
{
    uint64_t h = index;
    for (size_t k = 0; k < (index % 97) * 4; k++) h = mix(h + k);
    return mix(h);
}

static kiln_result hash_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    uint64_t *out = user;
    out[index] = slow_hash(index);
    return KILN_OK;
}

static void jobs_for_per_index_outputs_are_identical_for_1_and_8_threads(void **state)
{
    const size_t count = 5000;
    uint64_t *one = calloc(count, sizeof *one), *eight = calloc(count, sizeof *eight);
    assert_non_null(one);
    assert_non_null(eight);
    kiln_jobs *p1 = make_pool(1), *p8 = make_pool(8);
    kiln_error err;
    assert_int_equal(kiln_jobs_for(p1, count, hash_fn, one, &err), KILN_OK);
    assert_int_equal(kiln_jobs_for(p8, count, hash_fn, eight, &err), KILN_OK);
    assert_memory_equal(one, eight, count * sizeof *one);
    /* And both are what a plain loop computes (a pool that skipped work would leave zeros). */
    for (size_t i = 0; i < count; i++)
        if (one[i] != slow_hash(i)) fail_msg("index %zu differs from a plain loop", i);
    kiln_jobs_destroy(p1);
    kiln_jobs_destroy(p8);
    free(one);
    free(eight);
}

/* ---- errors ------------------------------------------------------------------------------ */

typedef struct fail_ctx {
    atomic_int *hits;
    size_t count, low; /* low is the lowest failing index */
    bool gate;         /* low waits until a higher index has failed */
    atomic_int higher_failed, gate_timed_out;
} fail_ctx;

static double clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000L};
    nanosleep(&ts, NULL);
}

/* Fails at low, low + 1 (same chunk, after it), low + count / 3 and count - 1, with distinct
 * codes. With several threads, low first waits until a higher index has failed on another
 * worker, so the failures happen in the "wrong" order in time: the pool must still report low,
 * and must have run every index below it. */
static kiln_result several_fail_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    fail_ctx *c = user;
    atomic_fetch_add(&c->hits[index], 1);
    volatile uint64_t spin = index; /* a little work, so chunks overlap in time */
    for (int k = 0; k < 200; k++) spin = mix(spin);
    if (index == c->low) {
        double start = clock_ms();
        while (c->gate && !atomic_load(&c->higher_failed)) {
            if (clock_ms() - start > 5000.0) {
                atomic_store(&c->gate_timed_out, 1);
                break;
            }
            sleep_us(200);
        }
        return kiln_error_set(err, KILN_E_LIMIT, "index %zu is too big", index);
    }
    if (index == c->low + 1)
        return kiln_error_set(err, KILN_E_ASSET_IO, "index %zu cannot be read", index);
    if (index == c->low + c->count / 3 || index == c->count - 1) {
        atomic_store(&c->higher_failed, 1);
        return kiln_error_set(err, index == c->count - 1 ? KILN_E_INTERNAL : KILN_E_IMPORT_FAILED,
                              "index %zu is damaged", index);
    }
    return KILN_OK;
}

static void jobs_for_reports_the_lowest_failing_index_for_every_thread_count(void **state)
{
    static const size_t lows[] = {0, 777, 3001, 6500};
    const size_t count = 10000;
    for (size_t t = 0; t < N_THREAD_COUNTS; t++) {
        kiln_jobs *pool = make_pool(thread_counts[t]);
        for (size_t l = 0; l < sizeof lows / sizeof lows[0]; l++) {
            fail_ctx c = {.count = count, .low = lows[l], .gate = thread_counts[t] > 1};
            c.hits = calloc(count, sizeof *c.hits);
            assert_non_null(c.hits);
            atomic_init(&c.higher_failed, 0);
            atomic_init(&c.gate_timed_out, 0);
            kiln_error err;
            kiln_error_clear(&err);
            kiln_result r = kiln_jobs_for(pool, count, several_fail_fn, &c, &err);
            assert_int_equal(atomic_load(&c.gate_timed_out), 0);
            assert_int_equal(r, KILN_E_LIMIT);
            assert_int_equal(err.code, KILN_E_LIMIT);
            char *expect = kt_format("index %zu is too big", lows[l]);
            assert_string_equal(err.message, expect);
            free(expect);
            /* Never skipped below the lowest failing index, never run twice anywhere. */
            for (size_t i = 0; i <= lows[l]; i++)
                if (atomic_load(&c.hits[i]) != 1)
                    fail_msg("threads %zu: index %zu ran %d times", thread_counts[t], i,
                             atomic_load(&c.hits[i]));
            for (size_t i = lows[l] + 1; i < count; i++) assert_true(atomic_load(&c.hits[i]) <= 1);
            free(c.hits);
        }
        kiln_jobs_destroy(pool);
    }
}

static kiln_result silent_fail_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    if (index == 5 || index == 300) return KILN_E_IMPORT_FAILED; /* err left empty */
    if (index == 2) {
        /* Ignored: the index succeeded. */
        kiln_error_set(err, KILN_E_INTERNAL, "noise");
    }
    return KILN_OK;
}

static void jobs_for_names_the_index_when_fn_fails_without_a_message(void **state)
{
    for (size_t t = 0; t < N_THREAD_COUNTS; t++) {
        kiln_jobs *pool = make_pool(thread_counts[t]);
        kiln_error err;
        kiln_error_clear(&err);
        assert_int_equal(kiln_jobs_for(pool, 1000, silent_fail_fn, NULL, &err),
                         KILN_E_IMPORT_FAILED);
        assert_int_equal(err.code, KILN_E_IMPORT_FAILED);
        assert_string_equal(err.message, "job 5 failed (E_IMPORT_FAILED)");
        /* err may be NULL. */
        assert_int_equal(kiln_jobs_for(pool, 1000, silent_fail_fn, NULL, NULL),
                         KILN_E_IMPORT_FAILED);
        kiln_jobs_destroy(pool);
    }
}

static void jobs_for_leaves_err_untouched_on_success(void **state)
{
    kiln_jobs *pool = make_pool(3);
    kiln_error err;
    kiln_error_set(&err, KILN_E_USAGE, "before");
    assert_int_equal(kiln_jobs_for(pool, 1000, silent_fail_fn, NULL, &err), KILN_E_IMPORT_FAILED);
    kiln_error_set(&err, KILN_E_USAGE, "before");
    assert_int_equal(kiln_jobs_for(pool, 5, silent_fail_fn, NULL, &err), KILN_OK);
    assert_string_equal(err.message, "before");
    kiln_jobs_destroy(pool);
}

/* ---- nesting ----------------------------------------------------------------------------- */

enum { OUTER = 24, INNER = 60 };

typedef struct nest_ctx {
    kiln_jobs *pool;
    uint32_t out[OUTER][INNER];
    atomic_int worker_mismatch;
    size_t fail_outer, fail_inner; /* SIZE_MAX = no failure */
} nest_ctx;

typedef struct inner_ctx {
    nest_ctx *nest;
    size_t outer, outer_worker;
} inner_ctx;

static kiln_result inner_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    inner_ctx *ic = user;
    if (worker != ic->outer_worker) atomic_store(&ic->nest->worker_mismatch, 1);
    ic->nest->out[ic->outer][index] = (uint32_t)(ic->outer * 1000 + index);
    if (ic->outer >= ic->nest->fail_outer && index == ic->nest->fail_inner)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "inner %zu of outer %zu", index,
                              ic->outer);
    return KILN_OK;
}

static kiln_result outer_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    nest_ctx *c = user;
    inner_ctx ic = {c, index, worker};
    kiln_result r = kiln_jobs_for(c->pool, INNER, inner_fn, &ic, err);
    if (r != KILN_OK) kiln_error_prefix(err, "outer %zu: ", index);
    return r;
}

static void jobs_for_nested_calls_run_inline_on_the_same_worker(void **state)
{
    for (size_t t = 0; t < N_THREAD_COUNTS; t++) {
        nest_ctx *c = calloc(1, sizeof *c);
        assert_non_null(c);
        c->pool = make_pool(thread_counts[t]);
        c->fail_outer = c->fail_inner = SIZE_MAX;
        atomic_init(&c->worker_mismatch, 0);
        kiln_error err;
        assert_int_equal(kiln_jobs_for(c->pool, OUTER, outer_fn, c, &err), KILN_OK);
        for (size_t i = 0; i < OUTER; i++)
            for (size_t j = 0; j < INNER; j++) assert_int_equal(c->out[i][j], i * 1000 + j);
        assert_int_equal(atomic_load(&c->worker_mismatch), 0);

        /* An inner failure surfaces through the outer call, lowest outer index first. */
        c->fail_outer = 9;
        c->fail_inner = 17;
        assert_int_equal(kiln_jobs_for(c->pool, OUTER, outer_fn, c, &err), KILN_E_IMPORT_FAILED);
        assert_string_equal(err.message, "outer 9: inner 17 of outer 9");
        kiln_jobs_destroy(c->pool);
        free(c);
    }
}

/* ---- reuse and concurrency --------------------------------------------------------------- */

typedef struct sum_ctx {
    size_t *out;
    size_t salt;
    atomic_int *worker_busy; /* one flag per worker index: two jobs must never share one */
    atomic_int overlap;
} sum_ctx;

static kiln_result sum_fn(void *user, size_t index, size_t worker, kiln_error *err)
{
    sum_ctx *c = user;
    if (c->worker_busy && atomic_exchange(&c->worker_busy[worker], 1) != 0)
        atomic_store(&c->overlap, 1);
    c->out[index] = index * 3 + c->salt;
    if (c->worker_busy) atomic_store(&c->worker_busy[worker], 0);
    return KILN_OK;
}

static void jobs_for_many_consecutive_calls_on_one_pool_all_complete(void **state)
{
    kiln_jobs *pool = make_pool(3);
    size_t out[200];
    for (size_t call = 0; call < 2000; call++) {
        size_t count = call % 200;
        sum_ctx c = {.out = out, .salt = call};
        atomic_init(&c.overlap, 0);
        for (size_t i = 0; i < count; i++) out[i] = SIZE_MAX;
        kiln_error err;
        assert_int_equal(kiln_jobs_for(pool, count, sum_fn, &c, &err), KILN_OK);
        for (size_t i = 0; i < count; i++)
            if (out[i] != i * 3 + call) fail_msg("call %zu index %zu not done", call, i);
    }
    kiln_jobs_destroy(pool);
}

typedef struct caller_ctx {
    kiln_jobs *pool;
    atomic_int *worker_busy;
    size_t salt;
    int failures;
    int overlaps;
} caller_ctx;

static void *caller_main(void *arg)
{
    caller_ctx *cc = arg;
    size_t out[500];
    for (size_t call = 0; call < 150; call++) {
        sum_ctx c = {.out = out, .salt = cc->salt + call, .worker_busy = cc->worker_busy};
        atomic_init(&c.overlap, 0);
        memset(out, 0xff, sizeof out);
        if (kiln_jobs_for(cc->pool, 500, sum_fn, &c, NULL) != KILN_OK) cc->failures++;
        for (size_t i = 0; i < 500; i++)
            if (out[i] != i * 3 + c.salt) cc->failures++;
        if (atomic_load(&c.overlap)) cc->overlaps++;
    }
    return NULL;
}

static void jobs_for_from_two_threads_at_once_on_one_pool_is_serialized(void **state)
{
    kiln_jobs *pool = make_pool(4);
    atomic_int busy[4];
    for (int i = 0; i < 4; i++) atomic_init(&busy[i], 0);
    caller_ctx a = {pool, busy, 1000000, 0, 0}, b = {pool, busy, 2000000, 0, 0};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, caller_main, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, caller_main, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_int_equal(a.failures, 0);
    assert_int_equal(b.failures, 0);
    /* Worker indices stay exclusive across concurrent callers (per-worker scratch is safe). */
    assert_int_equal(a.overlaps + b.overlaps, 0);
    kiln_jobs_destroy(pool);
}

/* ---- lifetime ---------------------------------------------------------------------------- */

static int process_thread_count(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    int n = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &n) == 1) break;
    fclose(f);
    return n;
}

static void jobs_destroy_without_calls_joins_every_worker(void **state)
{
    int before = process_thread_count();
    if (before < 0) skip();
    kiln_jobs *pool = make_pool(8);
    assert_int_equal(process_thread_count(), before + 7);
    kiln_jobs_destroy(pool);
    assert_int_equal(process_thread_count(), before);
    kiln_jobs_destroy(NULL); /* a no-op */

    pool = make_pool(1); /* one thread: no worker started */
    assert_int_equal(process_thread_count(), before);
    kiln_jobs_destroy(pool);
}

static void jobs_create_zero_threads_means_cpu_count_capped_at_64(void **state)
{
    size_t cpus = kiln_cpu_count();
    assert_true(cpus >= 1);
    assert_int_equal(cpus, (size_t)sysconf(_SC_NPROCESSORS_ONLN));
    kiln_jobs *pool = NULL;
    assert_int_equal(kiln_jobs_create(0, NULL, &pool, NULL), KILN_OK);
    assert_int_equal(kiln_jobs_thread_count(pool), cpus > 64 ? 64 : cpus);
    kiln_jobs_destroy(pool);
}

static void jobs_create_rejects_more_than_64_threads(void **state)
{
    kiln_jobs *pool = (kiln_jobs *)&pool;
    kiln_error err;
    assert_int_equal(kiln_jobs_create(KILN_JOBS_MAX_THREADS + 1, NULL, &pool, &err), KILN_E_USAGE);
    assert_null(pool);
    assert_non_null(strstr(err.message, "65"));
}

typedef struct count_alloc {
    atomic_size_t live_bytes, allocs, frees;
    size_t fail_after; /* fail the Nth allocation (1-based), 0 = never */
} count_alloc;

static void *ca_alloc(void *user, size_t size, size_t align)
{
    count_alloc *c = user;
    size_t n = atomic_fetch_add(&c->allocs, 1) + 1;
    if (c->fail_after && n >= c->fail_after) {
        atomic_fetch_sub(&c->allocs, 1);
        return NULL;
    }
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0) return NULL;
    atomic_fetch_add(&c->live_bytes, size);
    return p;
}

static void ca_free(void *user, void *ptr, size_t size)
{
    count_alloc *c = user;
    atomic_fetch_add(&c->frees, 1);
    atomic_fetch_sub(&c->live_bytes, size);
    free(ptr);
}

static void jobs_pool_allocates_through_hooks_and_frees_what_it_allocated(void **state)
{
    for (size_t fail_after = 0; fail_after < 5; fail_after++) {
        count_alloc c = {0};
        c.fail_after = fail_after;
        kiln_allocator a = {ca_alloc, NULL, ca_free, &c};
        kiln_jobs *pool = NULL;
        kiln_error err;
        kiln_result r = kiln_jobs_create(3, &a, &pool, &err);
        if (fail_after == 0 || fail_after > 3) {
            assert_int_equal(r, KILN_OK);
            assert_true(atomic_load(&c.allocs) > 0);
            size_t out[100];
            sum_ctx sc = {.out = out, .salt = 1};
            atomic_init(&sc.overlap, 0);
            assert_int_equal(kiln_jobs_for(pool, 100, sum_fn, &sc, &err), KILN_OK);
            kiln_jobs_destroy(pool);
        } else {
            /* Each of the first allocations failing is reported, with nothing leaked. */
            assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
            assert_null(pool);
        }
        assert_int_equal(atomic_load(&c.allocs), atomic_load(&c.frees));
        assert_int_equal(atomic_load(&c.live_bytes), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jobs_for_runs_every_index_exactly_once_for_1_2_3_and_8_threads),
        cmocka_unit_test(jobs_for_with_null_pool_runs_every_index_inline),
        cmocka_unit_test(jobs_for_per_index_outputs_are_identical_for_1_and_8_threads),
        cmocka_unit_test(jobs_for_reports_the_lowest_failing_index_for_every_thread_count),
        cmocka_unit_test(jobs_for_names_the_index_when_fn_fails_without_a_message),
        cmocka_unit_test(jobs_for_leaves_err_untouched_on_success),
        cmocka_unit_test(jobs_for_nested_calls_run_inline_on_the_same_worker),
        cmocka_unit_test(jobs_for_many_consecutive_calls_on_one_pool_all_complete),
        cmocka_unit_test(jobs_for_from_two_threads_at_once_on_one_pool_is_serialized),
        cmocka_unit_test(jobs_destroy_without_calls_joins_every_worker),
        cmocka_unit_test(jobs_create_zero_threads_means_cpu_count_capped_at_64),
        cmocka_unit_test(jobs_create_rejects_more_than_64_threads),
        cmocka_unit_test(jobs_pool_allocates_through_hooks_and_frees_what_it_allocated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
