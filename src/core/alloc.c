/* alloc.c — the default (libc) allocator and the dispatch to user hooks. */
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

static bool has_hooks(const kiln_allocator *a) { return a && a->alloc && a->free; }

void *kiln_alloc_aligned(const kiln_allocator *a, size_t size, size_t align)
{
    if (size == 0) return NULL;
    if (align < 16) align = 16;
    if (has_hooks(a)) return a->alloc(a->user, size, align);
    if (align <= 16) return malloc(size); /* glibc malloc is 16-byte aligned on 64-bit */
    void *p = NULL;
    return posix_memalign(&p, align, size) == 0 ? p : NULL;
}

void *kiln_alloc(const kiln_allocator *a, size_t size) { return kiln_alloc_aligned(a, size, 16); }

void *kiln_calloc(const kiln_allocator *a, size_t count, size_t size)
{
    size_t total;
    if (!kiln_size_mul(count, size, &total)) return NULL;
    void *p = kiln_alloc(a, total);
    if (p) memset(p, 0, total);
    return p;
}

void *kiln_realloc(const kiln_allocator *a, void *ptr, size_t old_size, size_t new_size)
{
    if (!ptr) return kiln_alloc(a, new_size);
    if (new_size == 0) {
        kiln_free(a, ptr, old_size);
        return NULL;
    }
    if (has_hooks(a)) {
        if (a->realloc) return a->realloc(a->user, ptr, old_size, new_size);
        void *p = a->alloc(a->user, new_size, 16);
        if (!p) return NULL;
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
        a->free(a->user, ptr, old_size);
        return p;
    }
    return realloc(ptr, new_size);
}

void kiln_free(const kiln_allocator *a, void *ptr, size_t size)
{
    if (!ptr) return;
    if (has_hooks(a))
        a->free(a->user, ptr, size);
    else
        free(ptr);
}

char *kiln_strdup(const kiln_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = kiln_alloc(a, n);
    if (p) memcpy(p, s, n);
    return p;
}
