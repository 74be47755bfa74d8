/* reader.h — bounds-checked reading of untrusted bytes with a sticky failure flag: after the
 * first short read every further read fails and returns zeros, so parsers check once. */
#ifndef KILN_CORE_READER_H
#define KILN_CORE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct kiln_reader {
    const uint8_t *data;
    size_t size, pos;
    bool failed;
} kiln_reader;

static inline kiln_reader kiln_reader_make(const void *data, size_t size)
{
    kiln_reader r = {(const uint8_t *)data, size, 0, false};
    return r;
}

/* The next n bytes, or NULL once failed. Subtract before compare: pos + n may wrap. */
static inline const uint8_t *kiln_reader_take(kiln_reader *r, size_t n)
{
    if (r->failed || r->size - r->pos < n) {
        r->failed = true;
        return NULL;
    }
    const uint8_t *p = r->data + r->pos;
    r->pos += n;
    return p;
}

static inline bool kiln_reader_seek(kiln_reader *r, size_t pos)
{
    if (r->failed || pos > r->size) {
        r->failed = true;
        return false;
    }
    r->pos = pos;
    return true;
}

static inline uint8_t kiln_read_u8(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 1);
    return p ? p[0] : 0;
}
static inline uint16_t kiln_read_u16le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 2);
    return p ? (uint16_t)(p[0] | (p[1] << 8)) : 0;
}
static inline uint32_t kiln_read_u32le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 4);
    return p ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                   ((uint32_t)p[3] << 24)
             : 0;
}
static inline uint64_t kiln_read_u64le(kiln_reader *r)
{
    /* One take of 8 bytes: two u32 reads would return the low half (and move) on a short read. */
    const uint8_t *p = kiln_reader_take(r, 8);
    if (!p) return 0;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Little-endian loads from bytes the caller has already bounds-checked (no reader state). */
static inline uint32_t kiln_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t kiln_load_u64le(const uint8_t *p)
{
    return (uint64_t)kiln_load_u32le(p) | (uint64_t)kiln_load_u32le(p + 4) << 32;
}

/* Little-endian stores for writers. */
static inline void kiln_store_u16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void kiln_store_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void kiln_store_u64le(uint8_t *p, uint64_t v)
{
    kiln_store_u32le(p, (uint32_t)v);
    kiln_store_u32le(p + 4, (uint32_t)(v >> 32));
}

#endif
