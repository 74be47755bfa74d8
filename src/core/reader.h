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

/* The IEEE 754 bit pattern of a float or double and back (memcpy: no aliasing). */
static inline uint32_t kiln_f32_bits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}
static inline float kiln_f32_from_bits(uint32_t u)
{
    float v;
    memcpy(&v, &u, 4);
    return v;
}
static inline uint64_t kiln_f64_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}
static inline double kiln_f64_from_bits(uint64_t u)
{
    double v;
    memcpy(&v, &u, 8);
    return v;
}

/* Little-endian loads from bytes the caller has already bounds-checked (no reader state). */
static inline uint16_t kiln_load_u16le(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t kiln_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t kiln_load_u64le(const uint8_t *p)
{
    return (uint64_t)kiln_load_u32le(p) | (uint64_t)kiln_load_u32le(p + 4) << 32;
}
static inline float kiln_load_f32le(const uint8_t *p)
{
    return kiln_f32_from_bits(kiln_load_u32le(p));
}
static inline double kiln_load_f64le(const uint8_t *p)
{
    return kiln_f64_from_bits(kiln_load_u64le(p));
}
/* n consecutive floats from p into out. */
static inline void kiln_load_f32le_array(const uint8_t *p, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = kiln_load_f32le(p + 4 * i);
}

/* Reads through the reader: the value, or 0 once it has failed. One take for the whole value, so
 * a short read never returns (or skips) part of it. */
static inline uint8_t kiln_read_u8(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 1);
    return p ? p[0] : 0;
}
static inline uint16_t kiln_read_u16le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 2);
    return p ? kiln_load_u16le(p) : 0;
}
static inline uint32_t kiln_read_u32le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 4);
    return p ? kiln_load_u32le(p) : 0;
}
static inline uint64_t kiln_read_u64le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 8);
    return p ? kiln_load_u64le(p) : 0;
}
static inline float kiln_read_f32le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 4);
    return p ? kiln_load_f32le(p) : 0.0f;
}
static inline double kiln_read_f64le(kiln_reader *r)
{
    const uint8_t *p = kiln_reader_take(r, 8);
    return p ? kiln_load_f64le(p) : 0.0;
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
static inline void kiln_store_f32le(uint8_t *p, float v) { kiln_store_u32le(p, kiln_f32_bits(v)); }
static inline void kiln_store_f64le(uint8_t *p, double v) { kiln_store_u64le(p, kiln_f64_bits(v)); }
/* n consecutive floats from v to p. */
static inline void kiln_store_f32le_array(uint8_t *p, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_store_f32le(p + 4 * i, v[i]);
}

#endif
