/* mesh_alloc.c — meshoptimizer's scratch memory through the kiln allocator of the mesh cook that
 * calls it (set to kiln's allocator).
 *
 * meshoptimizer 0.18 has one allocator for the whole process (meshopt_setAllocator), while kiln
 * takes an allocator per call. So kiln installs two trampolines once, and each thread says which
 * kiln allocator its meshoptimizer calls use for the time of a mesh build (a thread-local
 * pointer, set by kiln_meshopt_enter and put back by kiln_meshopt_leave, so nested or
 * concurrent builds on other threads are not affected). Outside a build — another library in
 * the same process calling meshoptimizer — the trampolines use malloc and free, which is what
 * meshoptimizer itself would do; so does a block the kiln allocator refuses, since meshoptimizer
 * cannot handle a failed allocation. Each block carries a small header with its size and allocator,
 * because meshoptimizer frees without a size and kiln_free needs one. */
#include <meshoptimizer.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "process/mesh_private.h"

typedef struct block_header {
    const kiln_allocator *alloc; /* NULL: malloc */
    size_t size;                 /* of the whole block, header included */
} block_header;

/* 16 bytes of header keep meshoptimizer's blocks as aligned as malloc's. */
#define HEADER_SIZE 16
_Static_assert(sizeof(block_header) <= HEADER_SIZE, "header fits");

static _Thread_local const kiln_allocator *current;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void *MESHOPTIMIZER_ALLOC_CALLCONV allocate(size_t size)
{
    if (size > SIZE_MAX - HEADER_SIZE) return NULL;
    size_t total = size + HEADER_SIZE;
    const kiln_allocator *a = current;
    unsigned char *p = a ? kiln_alloc(a, total) : NULL;
    /* meshoptimizer 0.18 never checks for NULL: a refused block (an allocator with a budget,
     * or a test failing each allocation in turn) is taken from malloc instead of crashing. */
    if (!p) {
        a = NULL;
        p = malloc(total);
    }
    if (!p) return NULL;
    block_header h = {a, total};
    memcpy(p, &h, sizeof h);
    return p + HEADER_SIZE;
}

static void MESHOPTIMIZER_ALLOC_CALLCONV deallocate(void *ptr)
{
    if (!ptr) return;
    unsigned char *p = (unsigned char *)ptr - HEADER_SIZE;
    block_header h;
    memcpy(&h, p, sizeof h);
    if (h.alloc) kiln_free(h.alloc, p, h.size);
    else free(p);
}

static void install(void) { meshopt_setAllocator(allocate, deallocate); }

const kiln_allocator *kiln_meshopt_enter(const kiln_allocator *a)
{
    pthread_once(&installed, install);
    const kiln_allocator *previous = current;
    current = a;
    return previous;
}

void kiln_meshopt_leave(const kiln_allocator *previous) { current = previous; }
