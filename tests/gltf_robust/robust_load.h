/* robust_load.h — one glTF load as the robustness tests run it: kiln_scene_load_memory through
 * the checking allocator (robust_alloc.h), timed, with the result judged the same way for every
 * case — a documented code (or success), *out NULL on failure, the scene's invariants
 * (fuzz/scene_check.h) on success, and nothing left allocated after kiln_scene_free. */
#ifndef KILN_TEST_ROBUST_LOAD_H
#define KILN_TEST_ROBUST_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_scene.h"

typedef struct kt_load {
    /* in */
    const char *base_dir; /* NULL: external URIs refused */
    uint32_t flags;       /* KILN_SCENE_LOAD_* */
    size_t memory_limit;  /* 0 = kiln's default */
    size_t fail_at;       /* fail this allocator call; 0 = never */
    bool keep;            /* leave the scene in .scene (the caller frees it with kt_load_done) */
    /* out */
    kiln_result code;
    kiln_error err;
    kiln_scene *scene;        /* only with keep */
    double seconds;           /* CPU time of the load (the machine may be shared) */
    size_t calls, peak_bytes; /* allocator calls and peak live bytes of the load */
    const char *problem;      /* NULL, or what was wrong (undocumented code, leak, invariant) */
    char why[512];
} kt_load;

/* Runs the load and fills the out fields. Never asserts: the caller decides. */
void kt_load_run(kt_load *l, const void *data, size_t size);

/* Frees a kept scene and checks the allocator ends clean (sets problem otherwise). */
void kt_load_done(kt_load *l);

/* A monotonic clock, and this thread's CPU time, in seconds. */
double kt_now(void);
double kt_cpu_now(void);

#endif
