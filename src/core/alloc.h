/* alloc.h — allocation through kiln_allocator hooks, and overflow-checked size arithmetic. */
#ifndef KILN_CORE_ALLOC_H
#define KILN_CORE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

/* a may be NULL or have NULL hooks: libc is used then. alloc returns NULL on failure or when
 * size is 0. Memory is aligned to at least 16 bytes (align may ask for up to 64). */
void *kiln_alloc(const kiln_allocator *a, size_t size);
void *kiln_alloc_aligned(const kiln_allocator *a, size_t size, size_t align);
void *kiln_calloc(const kiln_allocator *a, size_t count, size_t size); /* zeroed, checked */
/* Like realloc, with the old size (hooks need it). On failure ptr is untouched, NULL returned. */
void *kiln_realloc(const kiln_allocator *a, void *ptr, size_t old_size, size_t new_size);
void kiln_free(const kiln_allocator *a, void *ptr, size_t size); /* NULL is a no-op */
char *kiln_strdup(const kiln_allocator *a, const char *s);       /* free with strlen+1 */

/* Large buffers that are written once, right away (decoded texture levels, unpacked vertex
 * streams). With hooks: the hooks, as kiln_alloc. Without: blocks of KILN_LARGE_BLOCK or more
 * come from their own mapping, 2 MiB-aligned and advised for transparent huge pages, so their
 * first touch faults once per 2 MiB instead of once per 4 KiB (72 MB written into fresh memory:
 * 67 ms in 4 KiB pages, 14 ms in huge pages, on the 2-core VM); smaller ones from malloc. Free
 * with kiln_free_large and the same size. Under AddressSanitizer everything comes from malloc,
 * so its leak check still sees these blocks. */
#define KILN_LARGE_BLOCK ((size_t)2 << 20)
void *kiln_alloc_large(const kiln_allocator *a, size_t size);
void kiln_free_large(const kiln_allocator *a, void *ptr, size_t size); /* NULL is a no-op */

/* Overflow-checked arithmetic: false (and *out untouched) when the result does not fit. */
static inline bool kiln_size_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > (size_t)-1 / b) return false;
    *out = a * b;
    return true;
}
static inline bool kiln_size_add(size_t a, size_t b, size_t *out)
{
    if (a > (size_t)-1 - b) return false;
    *out = a + b;
    return true;
}

#endif
