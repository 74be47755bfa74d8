/* robust_load.c — see robust_load.h. */
#include "robust_load.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "robust_alloc.h"
#include "scene_check.h"

double kt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double kt_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The allocator of the kept scene, until kt_load_done. One at a time per process is enough. */
static kt_ralloc kept_alloc;

static bool documented(kiln_result r)
{
    switch (r) {
    case KILN_OK:
    case KILN_E_IMPORT_FAILED:
    case KILN_E_IMPORT_UNSUPPORTED:
    case KILN_E_ASSET_IO:
    case KILN_E_OUTPUT_REFUSED:
    case KILN_E_LIMIT:
    case KILN_E_OUT_OF_MEMORY:
        return true;
    default:
        return false;
    }
}

void kt_load_run(kt_load *l, const void *data, size_t size)
{
    static kt_ralloc scratch_alloc;
    kt_ralloc *ra = l->keep ? &kept_alloc : &scratch_alloc;
    kiln_scene_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.flags = l->flags;
    opts.memory_limit = l->memory_limit;
    opts.allocator = *kt_ralloc_init(ra, l->fail_at);
    l->problem = NULL;
    l->scene = (kiln_scene *)&l->why; /* must come back NULL on failure */
    double t0 = kt_cpu_now();
    l->code = kiln_scene_load_memory(data, size, l->base_dir, &opts, &l->scene, &l->err);
    l->seconds = kt_cpu_now() - t0;
    l->calls = ra->calls;
    l->peak_bytes = ra->peak_bytes;
    if (!documented(l->code)) {
        snprintf(l->why, sizeof l->why, "undocumented result %s: %.300s", kiln_result_name(l->code),
                 l->err.message);
        l->problem = l->why;
    } else if (l->code != KILN_OK) {
        if (l->scene) l->problem = "failed but *out is not NULL";
        else if (l->err.code != l->code || !l->err.message[0])
            l->problem = "the error record does not match the result";
        else if (ra->failed && l->code != KILN_E_OUT_OF_MEMORY) {
            snprintf(l->why, sizeof l->why, "a failed allocation reported as %s: %.300s",
                     kiln_result_name(l->code), l->err.message);
            l->problem = l->why;
        } else if (!kt_ralloc_clean(ra)) l->problem = "memory left allocated after a failed load";
        l->scene = NULL;
        return;
    } else if (!l->scene) {
        l->problem = "success without a scene";
        return;
    } else if (ra->failed) {
        l->problem = "an allocation failed, yet the load succeeded";
    } else {
        char why[256];
        const char *bad = kiln_scene_check(l->scene, l->flags, why, sizeof why);
        if (bad) {
            snprintf(l->why, sizeof l->why, "scene invariant: %.300s", bad);
            l->problem = l->why;
        }
    }
    if (!l->keep) {
        kiln_scene_free(l->scene);
        l->scene = NULL;
        if (!l->problem && !kt_ralloc_clean(ra)) l->problem = "memory left after kiln_scene_free";
    }
}

void kt_load_done(kt_load *l)
{
    kiln_scene_free(l->scene);
    l->scene = NULL;
    if (!l->problem && !kt_ralloc_clean(&kept_alloc))
        l->problem = "memory left after kiln_scene_free";
}
