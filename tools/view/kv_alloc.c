/* kv_alloc.c — allocation through the caller's kiln_allocator (libc when all NULL). */
#include <stdlib.h>
#include <string.h>

#include "kv_internal.h"

void *kv_alloc(kv_context *ctx, size_t size)
{
    if (ctx->allocator.alloc) return ctx->allocator.alloc(ctx->allocator.user, size, 16);
    return malloc(size);
}

void *kv_calloc(kv_context *ctx, size_t size)
{
    void *p = kv_alloc(ctx, size);
    if (p) memset(p, 0, size);
    return p;
}

void kv_free(kv_context *ctx, void *p, size_t size)
{
    if (!p) return;
    if (ctx->allocator.free) ctx->allocator.free(ctx->allocator.user, p, size);
    else free(p);
}
