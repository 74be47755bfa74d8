/* shader_compilers.c — the project's idle shader compilers behind a mutex (shader_compilers.h).
 * A compiler is taken by one thread and given back when its cook ends, so a compiler is never
 * shared by two threads at once, while the job pool's workers (and any other thread that
 * cooks) find one already made, whose glslang tables are built. */
#include "pipeline/shader_compilers.h"

#include <pthread.h>
#include <stdbool.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/jobs.h"

/* More idle compilers than a pool has threads are released rather than kept. */
#define MAX_IDLE KILN_JOBS_MAX_THREADS

struct kiln_shader_compilers {
    kiln_allocator allocator;
    pthread_mutex_t mutex;
    kiln_shader_compiler *idle[MAX_IDLE]; /* guarded by mutex */
    size_t idle_count;
};

kiln_result kiln_shader_compilers_create(const kiln_allocator *a, kiln_shader_compilers **out,
                                         kiln_error *err)
{
    *out = NULL;
    kiln_shader_compilers *s = kiln_calloc(a, 1, sizeof *s);
    if (!s) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (a) s->allocator = *a;
    if (pthread_mutex_init(&s->mutex, NULL) != 0) {
        kiln_free(a, s, sizeof *s);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader compilers: no mutex");
    }
    *out = s;
    return KILN_OK;
}

void kiln_shader_compilers_destroy(kiln_shader_compilers *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->idle_count; i++) kiln_shader_compiler_destroy(s->idle[i]);
    pthread_mutex_destroy(&s->mutex);
    kiln_allocator a = s->allocator;
    kiln_free(&a, s, sizeof *s);
}

kiln_result kiln_shader_compilers_take(kiln_shader_compilers *s, kiln_shader_compiler **out,
                                       kiln_error *err)
{
    *out = NULL;
    pthread_mutex_lock(&s->mutex);
    if (s->idle_count > 0) *out = s->idle[--s->idle_count];
    pthread_mutex_unlock(&s->mutex);
    if (*out) return KILN_OK;
    /* made outside the lock: another thread may give one back meanwhile, which only means one
     * more compiler in the set */
    return kiln_shader_compiler_create(&s->allocator, out, err);
}

void kiln_shader_compilers_give(kiln_shader_compilers *s, kiln_shader_compiler *c)
{
    if (!c) return;
    pthread_mutex_lock(&s->mutex);
    bool kept = s->idle_count < MAX_IDLE;
    if (kept) s->idle[s->idle_count++] = c;
    pthread_mutex_unlock(&s->mutex);
    if (!kept) kiln_shader_compiler_destroy(c);
}
