/* robust_alloc.h — a kiln_allocator for the glTF robustness tests: counts calls, live blocks and
 * bytes, the peak of live bytes (what a load really asked for), checks that every free names the
 * size allocated, and can fail the Nth call (1-based; 0 = never). No fixed table: each block
 * carries its size in a 64-byte header, so loads with many blocks are fine. */
#ifndef KILN_TEST_ROBUST_ALLOC_H
#define KILN_TEST_ROBUST_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

typedef struct kt_ralloc {
    kiln_allocator hooks; /* user points back here */
    size_t calls;         /* alloc + realloc calls */
    size_t fail_at;       /* the call to fail; 0 = never */
    size_t failed;        /* calls failed */
    size_t live_blocks, live_bytes, peak_bytes;
    size_t bad_frees; /* size mismatch or a pointer with a damaged header */
} kt_ralloc;

/* Resets r and returns its hooks. */
const kiln_allocator *kt_ralloc_init(kt_ralloc *r, size_t fail_at);

/* True when nothing is live and every free was right. */
bool kt_ralloc_clean(const kt_ralloc *r);

#endif
