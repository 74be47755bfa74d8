/* counting_alloc.h — a kiln_allocator for tests that checks the size contract of the hooks
 * (every free and realloc names the size that was allocated) and can fail the Nth call. */
#ifndef KILN_TEST_COUNTING_ALLOC_H
#define KILN_TEST_COUNTING_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

#define KT_COUNTING_MAX_LIVE 2048

typedef struct kt_counting {
    kiln_allocator hooks;    /* points back at this record through user */
    size_t calls;            /* alloc + realloc calls so far */
    size_t fail_at;          /* 1-based call to fail (only that one); 0 = never */
    size_t failures;         /* calls that were failed */
    size_t live;             /* blocks allocated and not yet freed */
    size_t size_mismatches;  /* free/realloc calls whose size differed from the allocation */
    size_t unknown_pointers; /* free/realloc of a pointer this allocator never returned */
    size_t last_size, last_align, last_old_size;
    size_t allocs, reallocs, frees;
    struct {
        void *p;
        size_t size;
    } table[KT_COUNTING_MAX_LIVE];
} kt_counting;

/* Sets up c (with or without a realloc hook) and returns its hooks. */
const kiln_allocator *kt_counting_init(kt_counting *c, bool with_realloc);

/* Asserts (cmocka) that nothing is live and every size matched. */
void kt_counting_assert_clean(const kt_counting *c);

#endif
