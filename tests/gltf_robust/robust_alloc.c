/* robust_alloc.c — the allocator of robust_alloc.h. Blocks are 64-aligned with the header in the
 * 64 bytes before the pointer handed out; new memory is filled with 0xA5 so an importer that
 * reads memory it did not write is caught by the checks (or by MSan/valgrind). */
#include "robust_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 64
#define MAGIC  0x6B696C6E524F4255ull

typedef struct header {
    uint64_t magic;
    size_t size;
} header;

static bool fail_now(kt_ralloc *r)
{
    r->calls++;
    if (r->fail_at && r->calls == r->fail_at) {
        r->failed++;
        return true;
    }
    return false;
}

static void *take(kt_ralloc *r, size_t size)
{
    void *base = NULL;
    if (size > SIZE_MAX - HEADER || posix_memalign(&base, 64, HEADER + size) != 0) return NULL;
    header *h = base;
    h->magic = MAGIC;
    h->size = size;
    r->live_blocks++;
    r->live_bytes += size;
    if (r->live_bytes > r->peak_bytes) r->peak_bytes = r->live_bytes;
    return (uint8_t *)base + HEADER;
}

static header *header_of(kt_ralloc *r, void *p, size_t size)
{
    header *h = (header *)((uint8_t *)p - HEADER);
    if (h->magic != MAGIC || h->size != size) {
        r->bad_frees++;
        return NULL;
    }
    return h;
}

static void give_back(kt_ralloc *r, header *h)
{
    r->live_blocks--;
    r->live_bytes -= h->size;
    h->magic = 0;
    free(h);
}

static void *hook_alloc(void *user, size_t size, size_t align)
{
    kt_ralloc *r = user;
    if (fail_now(r) || align > 64) return NULL;
    uint8_t *p = take(r, size);
    if (p) memset(p, 0xA5, size);
    return p;
}

static void *hook_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    kt_ralloc *r = user;
    header *h = header_of(r, ptr, old_size);
    if (!h || fail_now(r)) return NULL;
    uint8_t *p = take(r, new_size);
    if (!p) return NULL;
    memset(p, 0xA5, new_size);
    memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    give_back(r, h);
    return p;
}

static void hook_free(void *user, void *ptr, size_t size)
{
    kt_ralloc *r = user;
    if (!ptr) return;
    header *h = header_of(r, ptr, size);
    if (h) give_back(r, h);
}

const kiln_allocator *kt_ralloc_init(kt_ralloc *r, size_t fail_at)
{
    memset(r, 0, sizeof *r);
    r->fail_at = fail_at;
    r->hooks.alloc = hook_alloc;
    r->hooks.realloc = hook_realloc;
    r->hooks.free = hook_free;
    r->hooks.user = r;
    return &r->hooks;
}

bool kt_ralloc_clean(const kt_ralloc *r)
{
    return r->live_blocks == 0 && r->live_bytes == 0 && r->bad_frees == 0;
}
