/* buf.h — a growable byte buffer for writers, with a sticky failure flag like kiln_reader:
 * after an allocation fails every append is a no-op, and the writer checks `failed` once. */
#ifndef KILN_CORE_BUF_H
#define KILN_CORE_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

typedef struct kiln_buf {
    uint8_t *data;
    size_t size, capacity;
    const kiln_allocator *alloc; /* borrowed; NULL = libc */
    bool failed;
} kiln_buf;

void kiln_buf_init(kiln_buf *b, const kiln_allocator *alloc);
bool kiln_buf_reserve(kiln_buf *b, size_t extra); /* room for `extra` more bytes */
bool kiln_buf_append(kiln_buf *b, const void *p, size_t n);
bool kiln_buf_append_zeros(kiln_buf *b, size_t n);
bool kiln_buf_append_str(kiln_buf *b, const char *s); /* without the terminator */
bool kiln_buf_align(kiln_buf *b, size_t align);       /* pad with zeros to a multiple */
bool kiln_buf_append_u32le(kiln_buf *b, uint32_t v);
bool kiln_buf_append_u64le(kiln_buf *b, uint64_t v);
/* Hands the bytes to the caller (free with kiln_free(alloc, p, capacity_out)); resets b. */
uint8_t *kiln_buf_detach(kiln_buf *b, size_t *size_out, size_t *capacity_out);
void kiln_buf_free(kiln_buf *b);

#endif
