/* arena.h — a region allocator: many allocations, one release. Blocks come from a
 * kiln_allocator; a byte limit bounds the total so hostile input cannot allocate without end. */
#ifndef KILN_CORE_ARENA_H
#define KILN_CORE_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

typedef struct kiln_arena_block kiln_arena_block;

typedef struct kiln_arena {
    kiln_allocator allocator; /* copied; NULL hooks = libc */
    kiln_arena_block *head;   /* newest block first */
    size_t used;              /* bytes handed out plus block headers, towards limit */
    size_t limit;             /* 0 = no limit */
    bool over_limit;          /* an allocation was refused for the limit (not memory) */
} kiln_arena;

void kiln_arena_init(kiln_arena *a, const kiln_allocator *allocator, size_t limit);

/* Zero-filled memory aligned to `align` (a power of two up to 64; 0 means 16). NULL when size
 * is 0, when the limit would be passed (over_limit is set), or when the allocator fails. */
void *kiln_arena_alloc(kiln_arena *a, size_t size, size_t align);
/* count * size with the multiplication checked. */
void *kiln_arena_array(kiln_arena *a, size_t count, size_t size);
char *kiln_arena_strdup(kiln_arena *a, const char *s);
char *kiln_arena_strndup(kiln_arena *a, const char *s, size_t n);
void *kiln_arena_memdup(kiln_arena *a, const void *p, size_t size);

/* kiln_allocator hooks that allocate from the arena (free does nothing; realloc copies), for
 * code that takes an allocator, such as file reading and image decoding. Valid while a lives. */
kiln_allocator kiln_arena_allocator(kiln_arena *a);

/* Releases every block; the arena may be used again. */
void kiln_arena_release(kiln_arena *a);

#endif
