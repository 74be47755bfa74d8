/* gen_util.c — the PRNG, byte buffer, PNG encoder and file helpers of the example generators
 * (gen_util.h). Values are written byte by byte in little-endian order, so the files are the
 * same on any host. */
#include "gen_util.h"

#include <errno.h>
#include <spng.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint32_t gen_rng_next(gen_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 2685821657736338717ull) >> 32);
}

double gen_rng_unit(gen_rng *r) { return gen_rng_next(r) / 4294967296.0; }

uint8_t gen_clamp8(double v) { return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5); }

static int buf_reserve(gen_buf *b, size_t n)
{
    if (b->failed) return 0;
    if (b->cap - b->size > n) return 1; /* one spare byte for gen_buf_cstr's NUL */
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->size <= n) {
        if (cap > SIZE_MAX / 2) {
            b->failed = 1;
            return 0;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void gen_buf_put(gen_buf *b, const void *p, size_t n)
{
    if (!n || !buf_reserve(b, n)) return;
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

void gen_buf_u8(gen_buf *b, uint8_t v) { gen_buf_put(b, &v, 1); }

void gen_buf_u16(gen_buf *b, uint16_t v)
{
    uint8_t le[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    gen_buf_put(b, le, 2);
}

void gen_buf_u32(gen_buf *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    gen_buf_put(b, le, 4);
}

void gen_buf_f32(gen_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    gen_buf_u32(b, u);
}

void gen_buf_pad(gen_buf *b, size_t align, uint8_t fill)
{
    while (!b->failed && b->size % align) gen_buf_u8(b, fill);
}

void gen_buf_printf(gen_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if (!buf_reserve(b, (size_t)n + 1)) return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

const char *gen_buf_cstr(gen_buf *b)
{
    if (b->failed || !buf_reserve(b, 0)) return "";
    b->data[b->size] = '\0';
    return (const char *)b->data;
}

void gen_buf_free(gen_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

uint8_t *gen_png_encode(const uint8_t *px, uint32_t w, uint32_t h, int channels, size_t *size,
                        const char *what)
{
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx) return NULL;
    spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    struct spng_ihdr ihdr = {0};
    ihdr.width = w;
    ihdr.height = h;
    ihdr.bit_depth = 8;
    ihdr.color_type = channels == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR;
    spng_set_ihdr(ctx, &ihdr);
    int rc = spng_encode_image(ctx, px, (size_t)w * h * (size_t)channels, SPNG_FMT_PNG,
                               SPNG_ENCODE_FINALIZE);
    int err = 0;
    void *buf = rc ? NULL : spng_get_png_buffer(ctx, size, &err);
    spng_ctx_free(ctx);
    if (!buf)
        fprintf(stderr, "gen: PNG encoding of %s failed: %s\n", what, spng_strerror(rc ? rc : err));
    return buf;
}

int gen_write_file(const char *path, const void *data, size_t size)
{
    char tmp[GEN_PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "gen: cannot create %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    int ok = fwrite(data, 1, size, f) == size;
    ok &= fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved = errno;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        if (ok) saved = errno;
        fprintf(stderr, "gen: cannot write %s: %s\n", path, strerror(saved));
        remove(tmp);
        return 1;
    }
    return 0;
}

int gen_mkdirs(const char *path)
{
    char buf[GEN_PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof buf) {
        fprintf(stderr, "gen: path too long: %.200s...\n", path);
        return 1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char c = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "gen: cannot create folder %s: %s\n", buf, strerror(errno));
            return 1;
        }
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "gen: not a folder: %s\n", buf);
            return 1;
        }
        buf[i] = c;
    }
    return 0;
}

int gen_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
