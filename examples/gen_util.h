/* gen_util.h — what the example generators share: a fixed-seed PRNG, a growable byte buffer
 * that writes little-endian values and formatted text, PNG encoding to memory, and files
 * (written atomically, folders made, existence). Plain libc and libspng: an example uses only
 * the public headers of kiln. Failures are reported on stderr ("gen: ...") and returned as
 * nonzero. */
#ifndef KILN_GEN_UTIL_H
#define KILN_GEN_UTIL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define GEN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GEN_PRINTF(f, a)
#endif

/* The longest path the generators build. */
#define GEN_PATH_MAX 4096

typedef struct gen_rng {
    uint64_t s; /* any nonzero seed */
} gen_rng;

/* xorshift64*: small and the same everywhere. */
uint32_t gen_rng_next(gen_rng *r);
/* A double in [0, 1). */
double gen_rng_unit(gen_rng *r);

uint8_t gen_clamp8(double v);

/* Bytes that grow as they are appended. A failed allocation is sticky: later appends do
 * nothing and `failed` stays set, so callers check once at the end. */
typedef struct gen_buf {
    uint8_t *data;
    size_t size, cap;
    int failed;
} gen_buf;

void gen_buf_put(gen_buf *b, const void *p, size_t n);
void gen_buf_u8(gen_buf *b, uint8_t v);
void gen_buf_u16(gen_buf *b, uint16_t v); /* little-endian */
void gen_buf_u32(gen_buf *b, uint32_t v); /* little-endian */
void gen_buf_f32(gen_buf *b, float v);    /* IEEE 754 binary32, little-endian */
void gen_buf_pad(gen_buf *b, size_t align, uint8_t fill);
/* printf-style text, without the terminating NUL (gen_buf_cstr adds one on demand). */
void gen_buf_printf(gen_buf *b, const char *fmt, ...) GEN_PRINTF(2, 3);
const char *gen_buf_cstr(gen_buf *b); /* NUL-terminated view of the text; "" after a failure */
void gen_buf_free(gen_buf *b);

/* 8-bit RGB (channels 3) or RGBA (4) pixels, rows tightly packed, as a PNG in malloc'd memory
 * (free with free()); NULL on failure. `what` names the image in the error message. */
uint8_t *gen_png_encode(const uint8_t *px, uint32_t w, uint32_t h, int channels, size_t *size,
                        const char *what);

/* Writes bytes to path atomically (a temporary file beside it, renamed over it); 0 on success. */
int gen_write_file(const char *path, const void *data, size_t size);

/* mkdir -p; 0 on success (existing folders are fine). */
int gen_mkdirs(const char *path);

/* Is there a regular file at path? */
int gen_file_exists(const char *path);

#endif
