/* arena.c — blocks of at least 64 KiB, bump allocation inside the newest; an allocation larger
 * than a quarter block gets a block of its own, so big vertex streams waste nothing. */
#include "core/arena.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

#define ARENA_BLOCK_SIZE ((size_t)64 << 10)

struct kiln_arena_block {
    kiln_arena_block *next;
    size_t size; /* bytes after the header */
    size_t pos;
    max_align_t data[];
};

void kiln_arena_init(kiln_arena *a, const kiln_allocator *allocator, size_t limit)
{
    memset(a, 0, sizeof *a);
    if (allocator) a->allocator = *allocator;
    a->limit = limit;
}

static kiln_arena_block *new_block(kiln_arena *a, size_t payload)
{
    size_t total;
    if (!kiln_size_add(payload, sizeof(kiln_arena_block), &total)) return NULL;
    size_t used;
    if (!kiln_size_add(a->used, total, &used) || (a->limit && used > a->limit)) {
        a->over_limit = true;
        return NULL;
    }
    kiln_arena_block *b = kiln_alloc_aligned(&a->allocator, total, 64);
    if (!b) return NULL;
    b->size = payload;
    b->pos = 0;
    a->used = used;
    return b;
}

/* Bump allocation without clearing: for callers that overwrite every byte (file reads). */
static void *arena_take(kiln_arena *a, size_t size, size_t align)
{
    if (size == 0) return NULL;
    if (align == 0) align = 16;
    if (align > 64 || (align & (align - 1))) return NULL;
    kiln_arena_block *b = a->head;
    if (b) {
        size_t pos = (b->pos + align - 1) & ~(align - 1);
        if (pos <= b->size && b->size - pos >= size) {
            b->pos = pos + size;
            return (uint8_t *)b->data + pos;
        }
    }
    if (size > ARENA_BLOCK_SIZE / 4) {
        /* A block of its own, linked behind the head so the head keeps serving small requests. */
        size_t payload;
        if (!kiln_size_add(size, 64, &payload)) return NULL;
        kiln_arena_block *big = new_block(a, payload);
        if (!big) return NULL;
        if (a->head) {
            big->next = a->head->next;
            a->head->next = big;
        } else {
            big->next = NULL;
            a->head = big;
        }
        big->pos = big->size; /* full: nothing else goes in */
        void *p = big->data;  /* 64-aligned: the header is a multiple of 16 after 64 */
        return (void *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
    }
    kiln_arena_block *fresh = new_block(a, ARENA_BLOCK_SIZE);
    if (!fresh) return NULL;
    fresh->next = a->head;
    a->head = fresh;
    size_t pos = (size_t)(((uintptr_t)fresh->data + align - 1) & ~(uintptr_t)(align - 1)) -
                 (size_t)(uintptr_t)fresh->data;
    fresh->pos = pos + size;
    return (uint8_t *)fresh->data + pos;
}

void *kiln_arena_alloc(kiln_arena *a, size_t size, size_t align)
{
    void *p = arena_take(a, size, align);
    if (p) memset(p, 0, size);
    return p;
}

void *kiln_arena_array(kiln_arena *a, size_t count, size_t size)
{
    size_t total;
    if (!kiln_size_mul(count, size, &total)) {
        a->over_limit = true;
        return NULL;
    }
    return kiln_arena_alloc(a, total, size >= 16 ? 16 : 8);
}

char *kiln_arena_strndup(kiln_arena *a, const char *s, size_t n)
{
    char *p = kiln_arena_alloc(a, n + 1, 1);
    if (p) memcpy(p, s, n);
    return p;
}

char *kiln_arena_strdup(kiln_arena *a, const char *s)
{
    return kiln_arena_strndup(a, s, strlen(s));
}

void *kiln_arena_memdup(kiln_arena *a, const void *p, size_t size)
{
    void *q = kiln_arena_alloc(a, size, 16);
    if (q) memcpy(q, p, size);
    return q;
}

void kiln_arena_release(kiln_arena *a)
{
    kiln_arena_block *b = a->head;
    while (b) {
        kiln_arena_block *next = b->next;
        kiln_free(&a->allocator, b, b->size + sizeof *b);
        b = next;
    }
    a->head = NULL;
    a->used = 0;
    a->over_limit = false;
}

/* Allocator hooks promise no zeroing (like malloc), and their users overwrite what they get. */
static void *hook_alloc(void *user, size_t size, size_t align)
{
    return arena_take(user, size, align);
}

static void *hook_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    void *p = arena_take(user, new_size, 16);
    if (p && ptr) memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    return p;
}

static void hook_free(void *user, void *ptr, size_t size)
{
    (void)user, (void)ptr, (void)size; /* released with the arena */
}

kiln_allocator kiln_arena_allocator(kiln_arena *a)
{
    kiln_allocator hooks = {hook_alloc, hook_realloc, hook_free, a};
    return hooks;
}
