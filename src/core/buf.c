/* buf.c — growable byte buffer. */
#include "core/buf.h"

#include <string.h>

#include "core/alloc.h"
#include "core/reader.h"

void kiln_buf_init(kiln_buf *b, const kiln_allocator *alloc)
{
    memset(b, 0, sizeof *b);
    b->alloc = alloc;
}

bool kiln_buf_reserve(kiln_buf *b, size_t extra)
{
    if (b->failed) return false;
    size_t need;
    if (!kiln_size_add(b->size, extra, &need)) return !(b->failed = true);
    if (need <= b->capacity) return true;
    size_t cap = b->capacity ? b->capacity : 256;
    while (cap < need) {
        if (cap > ((size_t)-1) / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    uint8_t *p = kiln_realloc(b->alloc, b->data, b->capacity, cap);
    if (!p) return !(b->failed = true);
    b->data = p;
    b->capacity = cap;
    return true;
}

bool kiln_buf_append(kiln_buf *b, const void *p, size_t n)
{
    if (n == 0) return !b->failed;
    if (!kiln_buf_reserve(b, n)) return false;
    memcpy(b->data + b->size, p, n);
    b->size += n;
    return true;
}

bool kiln_buf_append_zeros(kiln_buf *b, size_t n)
{
    if (n == 0) return !b->failed;
    if (!kiln_buf_reserve(b, n)) return false;
    memset(b->data + b->size, 0, n);
    b->size += n;
    return true;
}

bool kiln_buf_append_str(kiln_buf *b, const char *s) { return kiln_buf_append(b, s, strlen(s)); }

bool kiln_buf_align(kiln_buf *b, size_t align)
{
    size_t rem = align ? b->size % align : 0;
    return kiln_buf_append_zeros(b, rem ? align - rem : 0);
}

bool kiln_buf_append_u32le(kiln_buf *b, uint32_t v)
{
    uint8_t t[4];
    kiln_store_u32le(t, v);
    return kiln_buf_append(b, t, 4);
}

bool kiln_buf_append_u64le(kiln_buf *b, uint64_t v)
{
    uint8_t t[8];
    kiln_store_u64le(t, v);
    return kiln_buf_append(b, t, 8);
}

uint8_t *kiln_buf_detach(kiln_buf *b, size_t *size_out, size_t *capacity_out)
{
    uint8_t *p = b->data;
    if (size_out) *size_out = b->size;
    if (capacity_out) *capacity_out = b->capacity;
    const kiln_allocator *a = b->alloc;
    kiln_buf_init(b, a);
    return p;
}

void kiln_buf_free(kiln_buf *b)
{
    kiln_free(b->alloc, b->data, b->capacity);
    kiln_buf_init(b, b->alloc);
}
