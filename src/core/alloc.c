/* alloc.c — the default (libc) allocator and the dispatch to user hooks. */
#define _GNU_SOURCE /* MADV_HUGEPAGE */
#include "core/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define KILN_LARGE_FROM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_LARGE_FROM_MALLOC 1
#endif
#endif

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
    if (has_hooks(a)) a->free(a->user, ptr, size);
    else free(ptr);
}

char *kiln_strdup(const kiln_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = kiln_alloc(a, n);
    if (p) memcpy(p, s, n);
    return p;
}

#if !defined(KILN_LARGE_FROM_MALLOC) && defined(MADV_HUGEPAGE)
static size_t page_round(size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (size + page - 1) / page * page;
}

static bool large_mapped(const kiln_allocator *a, size_t size)
{
    return !has_hooks(a) && size >= KILN_LARGE_BLOCK && size <= SIZE_MAX / 2;
}

void *kiln_alloc_large(const kiln_allocator *a, size_t size)
{
    if (!large_mapped(a, size)) return kiln_alloc(a, size);
    /* map 2 MiB more than needed, keep the aligned middle: huge pages need 2 MiB alignment */
    size_t len = page_round(size), over = len + KILN_LARGE_BLOCK;
    uint8_t *raw = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uintptr_t at = ((uintptr_t)raw + KILN_LARGE_BLOCK - 1) & ~(uintptr_t)(KILN_LARGE_BLOCK - 1);
    uint8_t *p = (uint8_t *)at;
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + over > p + len) munmap(p + len, (size_t)(raw + over - (p + len)));
    (void)madvise(p, len, MADV_HUGEPAGE); /* advice: THP off or refused leaves 4 KiB pages */
    return p;
}

void kiln_free_large(const kiln_allocator *a, void *ptr, size_t size)
{
    if (!ptr) return;
    if (!large_mapped(a, size)) {
        kiln_free(a, ptr, size);
        return;
    }
    munmap(ptr, page_round(size));
}
#else
void *kiln_alloc_large(const kiln_allocator *a, size_t size) { return kiln_alloc(a, size); }
void kiln_free_large(const kiln_allocator *a, void *ptr, size_t size) { kiln_free(a, ptr, size); }
#endif
