/* rt_fixture.h — a cooked temporary project for the runtime tests, and a recording renderer. */
#ifndef KILN_TEST_RT_FIXTURE_H
#define KILN_TEST_RT_FIXTURE_H

#include <pthread.h>

#include "kiln/kiln_rt.h"

/* Copies the given corpus glTF folders (relative to the corpus) into assets/ of a new project
 * and imports them with libkiln; returns the project folder (malloc'd); the cache is
 * <dir>/.kiln/cache. Skips (77) without the corpus. */
char *rt_cook_project(const char *const *corpus_dirs, size_t count);

typedef struct rt_recorder {
    pthread_mutex_t mu;
    int creates[KRT_TYPE_COUNT], destroys[KRT_TYPE_COUNT];
    int live;                 /* created and not destroyed */
    int fail_textures;        /* create_texture fails when set */
    char log[8192];
    size_t log_size;
} rt_recorder;

void rt_recorder_init(rt_recorder *r);
krt_renderer rt_recorder_renderer(rt_recorder *r);

#endif
