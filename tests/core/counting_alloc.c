/* counting_alloc.c — the checking allocator of counting_alloc.h. New blocks are filled with 0xA5
 * so a caller that forgets to initialise (a calloc that does not zero) is caught. */
#include "support.h"

#include "counting_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t find(kt_counting *c, const void *p)
{
    for (size_t i = 0; i < c->live; i++)
        if (c->table[i].p == p) return i;
    return SIZE_MAX;
}

static bool fail_now(kt_counting *c)
{
    c->calls++;
    if (c->fail_at != 0 && c->calls == c->fail_at) {
        c->failures++;
        return true;
    }
    return false;
}

static void *hook_alloc(void *user, size_t size, size_t align)
{
    kt_counting *c = user;
    c->allocs++;
    c->last_size = size;
    c->last_align = align;
    if (fail_now(c)) return NULL;
    assert_true(c->live < KT_COUNTING_MAX_LIVE);
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0) return NULL;
    memset(p, 0xA5, size);
    c->table[c->live].p = p;
    c->table[c->live].size = size;
    c->live++;
    return p;
}

static void hook_free(void *user, void *ptr, size_t size)
{
    kt_counting *c = user;
    c->frees++;
    size_t i = find(c, ptr);
    if (i == SIZE_MAX) {
        c->unknown_pointers++;
        return;
    }
    if (c->table[i].size != size) c->size_mismatches++;
    c->table[i] = c->table[--c->live];
    free(ptr);
}

static void *hook_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    kt_counting *c = user;
    c->reallocs++;
    c->last_old_size = old_size;
    c->last_size = new_size;
    size_t i = find(c, ptr);
    if (i == SIZE_MAX) {
        c->unknown_pointers++;
        return NULL;
    }
    if (c->table[i].size != old_size) c->size_mismatches++;
    if (fail_now(c)) return NULL;
    /* Always move, so a caller that keeps using the old pointer trips ASan. */
    void *p = NULL;
    if (posix_memalign(&p, 16, new_size) != 0) return NULL;
    memset(p, 0xA5, new_size);
    memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    free(ptr);
    c->table[i].p = p;
    c->table[i].size = new_size;
    return p;
}

const kiln_allocator *kt_counting_init(kt_counting *c, bool with_realloc)
{
    memset(c, 0, sizeof *c);
    c->hooks.alloc = hook_alloc;
    c->hooks.realloc = with_realloc ? hook_realloc : NULL;
    c->hooks.free = hook_free;
    c->hooks.user = c;
    return &c->hooks;
}

void kt_counting_assert_clean(const kt_counting *c)
{
    assert_int_equal(c->live, 0);
    assert_int_equal(c->size_mismatches, 0);
    assert_int_equal(c->unknown_pointers, 0);
}
