/* report_html_jobs.c — the picture pass of `kiln report --html`: every KTX2 artifact the first
 * walk over the assets listed is decoded into its level pictures and, where planned, level 0's
 * PSNR is measured against the source, on several threads. A job touches only itself, its files
 * and the PNG writer (opened before the threads start, only read after), so the results do not
 * depend on the thread count or the order the jobs ran in. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

typedef struct rh_pool {
    rh_job *jobs;
    size_t count, next; /* next: guarded by lock */
    rh_png *png;        /* NULL: png_error says why */
    const kiln_error *png_error;
    const char *dir;
    pthread_mutex_t lock;
} rh_pool;

/* Level 0's PSNR against the source, measured now by kiln's own decoders (kiln_inspect_file
 * with compare, what `kiln inspect --compare` prints): the cook records none. */
static void psnr_measure(rh_job *job)
{
    kiln_inspect_opts o = {.struct_size = sizeof o, .compare = job->source};
    char *doc = NULL;
    kiln_error err;
    if (kiln_inspect_file(job->ktx2, &o, &doc, &err) != KILN_OK) {
        snprintf(job->psnr_text, sizeof job->psnr_text, "PSNR not measured: %s", err.message);
        return;
    }
    json_t *d = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    const json_t *p = json_object_get(json_object_get(d, "compare"), "psnr");
    if (json_is_number(p))
        snprintf(job->psnr_text, sizeof job->psnr_text,
                 "level 0 PSNR %.2f dB (measured now against the source; other levels: none)",
                 json_number_value(p));
    else snprintf(job->psnr_text, sizeof job->psnr_text, "PSNR not measured");
    json_decref(d);
}

/* A job of the picture pass: its pictures, then its PSNR. */
static void job_run(rh_pool *pool, rh_job *job)
{
    if (!pool->png) {
        job->r = pool->png_error->code;
        job->err = *pool->png_error;
        return;
    }
    job->r = rh_texture_pictures(&pool->png, job->ktx2, pool->dir, job->stem, &job->t, &job->err);
    if (job->r == KILN_OK && job->psnr) psnr_measure(job);
}

static void *worker(void *arg)
{
    rh_pool *pool = arg;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        size_t i = pool->next++;
        pthread_mutex_unlock(&pool->lock);
        if (i >= pool->count) return NULL;
        job_run(pool, &pool->jobs[i]);
    }
}

void rh_jobs_run(rh_job *jobs, size_t count, rh_png **png, const char *dir, unsigned threads)
{
    if (!count) return;
    kiln_error png_error;
    rh_pool pool = {.jobs = jobs, .count = count, .dir = dir, .png_error = &png_error};
    if (rh_png_open(png, &png_error) == KILN_OK) pool.png = *png;
    if (threads > count) threads = (unsigned)count;
    if (threads > RH_MAX_THREADS) threads = RH_MAX_THREADS;
    pthread_t tid[RH_MAX_THREADS];
    unsigned started = 0;
    pthread_mutex_init(&pool.lock, NULL);
    for (unsigned i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, worker, &pool) == 0) started++;
    worker(&pool); /* the calling thread works too; with no thread started it does it all */
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&pool.lock);
}
