/* image_fixtures.c — encoders for test images; see image_fixtures.h. The hand-written ones follow
 * the Truevision TGA 2.0 spec, Microsoft's BITMAPINFOHEADER layout and the OpenEXR file layout
 * document ("OpenEXRFileLayout"), not kiln's or stb's readers. */
#include "image_fixtures.h"

#include <spng.h>
#include <stb_image_write.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "support.h"

void kt_bytes_free(kt_bytes *b)
{
    free(b->data);
    b->data = NULL;
    b->size = 0;
}

/* A growable buffer for the hand-written encoders. */
typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
} wbuf;

static void put(wbuf *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        b->p = realloc(b->p, cap);
        assert_non_null(b->p);
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}
static void put8(wbuf *b, uint8_t v) { put(b, &v, 1); }
static void put16(wbuf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(b, x, 2);
}
static void put32(wbuf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}
static void put64(wbuf *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}
static void putstr(wbuf *b, const char *s) { put(b, s, strlen(s) + 1); }
static kt_bytes done(wbuf *b)
{
    kt_bytes r = {b->p, b->n};
    return r;
}

kt_bytes kt_png_encode(uint32_t w, uint32_t h, uint8_t color_type, uint8_t bit_depth,
                       bool interlaced, const void *pixels, size_t pixels_size,
                       const uint8_t (*plte)[3], uint32_t plte_count, const uint8_t *trns_alpha,
                       uint32_t trns_count)
{
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    assert_non_null(ctx);
    assert_int_equal(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), 0);
    struct spng_ihdr ihdr = {w, h, bit_depth, color_type, 0, 0, interlaced ? 1 : 0};
    assert_int_equal(spng_set_ihdr(ctx, &ihdr), 0);
    if (plte) {
        struct spng_plte p;
        memset(&p, 0, sizeof p);
        p.n_entries = plte_count;
        for (uint32_t i = 0; i < plte_count; i++) {
            p.entries[i].red = plte[i][0];
            p.entries[i].green = plte[i][1];
            p.entries[i].blue = plte[i][2];
        }
        assert_int_equal(spng_set_plte(ctx, &p), 0);
    }
    if (trns_alpha) {
        struct spng_trns t;
        memset(&t, 0, sizeof t);
        t.n_type3_entries = trns_count;
        memcpy(t.type3_alpha, trns_alpha, trns_count);
        assert_int_equal(spng_set_trns(ctx, &t), 0);
    }
    int e = spng_encode_image(ctx, pixels, pixels_size, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    if (e) fail_msg("spng_encode_image: %s", spng_strerror(e));
    size_t len = 0;
    void *buf = spng_get_png_buffer(ctx, &len, &e);
    if (!buf) fail_msg("spng_get_png_buffer: %s", spng_strerror(e));
    spng_ctx_free(ctx);
    kt_bytes r = {buf, len};
    return r;
}

kt_bytes kt_jpeg_encode(uint32_t w, uint32_t h, int pixel_format, int subsamp, int quality,
                        const uint8_t *pixels)
{
    tjhandle tj = tjInitCompress();
    assert_non_null(tj);
    unsigned char *jpeg = NULL;
    unsigned long size = 0;
    if (tjCompress2(tj, pixels, (int)w, 0, (int)h, pixel_format, &jpeg, &size, subsamp, quality,
                    TJFLAG_ACCURATEDCT) != 0)
        fail_msg("tjCompress2: %s", tjGetErrorStr2(tj));
    tjDestroy(tj);
    /* Copy into malloc memory so kt_bytes_free can use free(). */
    kt_bytes r = {malloc(size), size};
    assert_non_null(r.data);
    memcpy(r.data, jpeg, size);
    tjFree(jpeg);
    return r;
}

static void tga_pixel(wbuf *b, const uint8_t *px, int bpp)
{
    if (bpp == 8) {
        put8(b, px[0]);
        return;
    }
    put8(b, px[2]);
    put8(b, px[1]);
    put8(b, px[0]);
    if (bpp == 32) put8(b, px[3]);
}

kt_bytes kt_tga_encode(uint32_t w, uint32_t h, const uint8_t *rgba, int bpp, bool rle,
                       bool top_left)
{
    wbuf b = {0};
    put8(&b, 0);                                             /* no image ID */
    put8(&b, 0);                                             /* no colour map */
    put8(&b, (uint8_t)((bpp == 8 ? 3 : 2) + (rle ? 8 : 0))); /* 2/3 raw, 10/11 RLE */
    for (int i = 0; i < 5; i++) put8(&b, 0);                 /* colour map spec */
    put16(&b, 0);
    put16(&b, 0); /* origin */
    put16(&b, (uint16_t)w);
    put16(&b, (uint16_t)h);
    put8(&b, (uint8_t)bpp);
    put8(&b, (uint8_t)((bpp == 32 ? 8 : 0) | (top_left ? 0x20 : 0)));
    /* Texels in file order: rows top-first or bottom-first, each left to right. */
    size_t n = (size_t)w * h;
    const uint8_t **order = malloc(n * sizeof *order);
    assert_non_null(order);
    for (uint32_t fy = 0; fy < h; fy++) {
        uint32_t y = top_left ? fy : h - 1 - fy;
        for (uint32_t x = 0; x < w; x++) order[(size_t)fy * w + x] = rgba + ((size_t)y * w + x) * 4;
    }
    for (size_t i = 0; i < n;) {
        if (!rle) {
            tga_pixel(&b, order[i++], bpp);
            continue;
        }
        /* A run packet for 2+ equal texels (as stored), else a raw packet up to the next run. */
        size_t run = 1;
        while (i + run < n && run < 128 && memcmp(order[i], order[i + run], 4) == 0 &&
               (bpp != 8 || order[i][0] == order[i + run][0]))
            run++;
        if (run >= 2) {
            put8(&b, (uint8_t)(0x80 | (run - 1)));
            tga_pixel(&b, order[i], bpp);
            i += run;
            continue;
        }
        size_t raw = 1;
        while (i + raw < n && raw < 128 &&
               !(i + raw + 1 < n && memcmp(order[i + raw], order[i + raw + 1], 4) == 0))
            raw++;
        put8(&b, (uint8_t)(raw - 1));
        for (size_t k = 0; k < raw; k++) tga_pixel(&b, order[i + k], bpp);
        i += raw;
    }
    free(order);
    return done(&b);
}

kt_bytes kt_bmp_encode(uint32_t w, uint32_t h, const uint8_t *rgba, int bpp)
{
    wbuf b = {0};
    size_t stride = (((size_t)w * (size_t)bpp + 31) / 32) * 4;
    uint32_t data_size = (uint32_t)(stride * h);
    put8(&b, 'B');
    put8(&b, 'M');
    put32(&b, 54 + data_size);
    put32(&b, 0);
    put32(&b, 54); /* pixel data offset */
    put32(&b, 40);
    put32(&b, w);
    put32(&b, h); /* positive: bottom-up */
    put16(&b, 1);
    put16(&b, (uint16_t)bpp);
    put32(&b, 0); /* BI_RGB */
    put32(&b, data_size);
    put32(&b, 2835);
    put32(&b, 2835);
    put32(&b, 0);
    put32(&b, 0);
    for (uint32_t fy = 0; fy < h; fy++) {
        const uint8_t *row = rgba + (size_t)(h - 1 - fy) * w * 4;
        size_t written = 0;
        for (uint32_t x = 0; x < w; x++) {
            put8(&b, row[x * 4 + 2]);
            put8(&b, row[x * 4 + 1]);
            put8(&b, row[x * 4 + 0]);
            written += 3;
            if (bpp == 32) {
                put8(&b, row[x * 4 + 3]);
                written++;
            }
        }
        for (; written < stride; written++) put8(&b, 0);
    }
    return done(&b);
}

static void hdr_sink(void *ctx, void *data, int size) { put(ctx, data, (size_t)size); }

kt_bytes kt_hdr_encode(uint32_t w, uint32_t h, const float *rgb)
{
    wbuf b = {0};
    assert_true(stbi_write_hdr_to_func(hdr_sink, &b, (int)w, (int)h, 3, rgb) != 0);
    return done(&b);
}

uint16_t kt_float_to_half(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u;
    int32_t exp = (int32_t)((u >> 23) & 0xFF) - 127 + 15;
    uint32_t mant = u & 0x7FFFFFu;
    if ((u & 0x7FFFFFFFu) == 0) return (uint16_t)sign;
    assert_true(exp > 0 && exp < 31); /* the tests only use normal halves */
    return (uint16_t)(sign | ((uint32_t)exp << 10) | (mant >> 13));
}

static int cmp_channel(const void *a, const void *b)
{
    return strcmp(((const kt_exr_channel *)a)->name, ((const kt_exr_channel *)b)->name);
}

static void exr_attr(wbuf *b, const char *name, const char *type, uint32_t size)
{
    putstr(b, name);
    putstr(b, type);
    put32(b, size);
}

static void exr_sample(wbuf *b, const kt_exr_channel *c, size_t i)
{
    float v = c->values[i];
    if (c->type == 0) put32(b, (uint32_t)v);
    else if (c->type == 1) put16(b, kt_float_to_half(v));
    else {
        uint32_t u;
        memcpy(&u, &v, 4);
        put32(b, u);
    }
}

kt_bytes kt_exr_encode(uint32_t w, uint32_t h, int32_t min_x, int32_t min_y,
                       const kt_exr_channel *channels, int channel_count, uint32_t tile_w,
                       uint32_t tile_h)
{
    kt_exr_channel ch[8];
    assert_true(channel_count > 0 && channel_count <= 8);
    memcpy(ch, channels, sizeof *ch * (size_t)channel_count);
    qsort(ch, (size_t)channel_count, sizeof *ch, cmp_channel);
    bool tiled = tile_w > 0;

    wbuf b = {0};
    put32(&b, 20000630); /* magic 76 2f 31 01 */
    put32(&b, 2 | (tiled ? 0x200 : 0));
    uint32_t chlist_size = 1;
    for (int i = 0; i < channel_count; i++) chlist_size += (uint32_t)strlen(ch[i].name) + 1 + 16;
    exr_attr(&b, "channels", "chlist", chlist_size);
    for (int i = 0; i < channel_count; i++) {
        putstr(&b, ch[i].name);
        put32(&b, (uint32_t)ch[i].type);
        put32(&b, 0); /* pLinear + reserved */
        put32(&b, 1);
        put32(&b, 1); /* x/y sampling */
    }
    put8(&b, 0);
    exr_attr(&b, "compression", "compression", 1);
    put8(&b, 0); /* NO_COMPRESSION */
    int32_t max_x = min_x + (int32_t)w - 1, max_y = min_y + (int32_t)h - 1;
    exr_attr(&b, "dataWindow", "box2i", 16);
    put32(&b, (uint32_t)min_x);
    put32(&b, (uint32_t)min_y);
    put32(&b, (uint32_t)max_x);
    put32(&b, (uint32_t)max_y);
    exr_attr(&b, "displayWindow", "box2i", 16);
    put32(&b, (uint32_t)min_x);
    put32(&b, (uint32_t)min_y);
    put32(&b, (uint32_t)max_x);
    put32(&b, (uint32_t)max_y);
    exr_attr(&b, "lineOrder", "lineOrder", 1);
    put8(&b, 0);
    exr_attr(&b, "pixelAspectRatio", "float", 4);
    put32(&b, 0x3F800000u);
    exr_attr(&b, "screenWindowCenter", "v2f", 8);
    put64(&b, 0);
    exr_attr(&b, "screenWindowWidth", "float", 4);
    put32(&b, 0x3F800000u);
    if (tiled) {
        exr_attr(&b, "tiles", "tiledesc", 9);
        put32(&b, tile_w);
        put32(&b, tile_h);
        put8(&b, 0); /* ONE_LEVEL, round down */
    }
    put8(&b, 0); /* end of header */

    uint32_t nx = tiled ? (w + tile_w - 1) / tile_w : 1;
    uint32_t ny = tiled ? (h + tile_h - 1) / tile_h : h;
    uint32_t chunks = nx * ny;
    size_t table = b.n;
    for (uint32_t i = 0; i < chunks; i++) put64(&b, 0);
    for (uint32_t cy = 0; cy < ny; cy++) {
        for (uint32_t cx = 0; cx < nx; cx++) {
            uint64_t at = b.n;
            memcpy(b.p + table + (size_t)(cy * nx + cx) * 8, &at, 8); /* little-endian host */
            uint32_t x0 = tiled ? cx * tile_w : 0, y0 = tiled ? cy * tile_h : cy;
            uint32_t cw = tiled ? (x0 + tile_w > w ? w - x0 : tile_w) : w;
            uint32_t chh = tiled ? (y0 + tile_h > h ? h - y0 : tile_h) : 1;
            if (tiled) {
                put32(&b, cx);
                put32(&b, cy);
                put32(&b, 0);
                put32(&b, 0);
            } else {
                put32(&b, (uint32_t)(min_y + (int32_t)y0));
            }
            size_t size_at = b.n;
            put32(&b, 0);
            size_t data_at = b.n;
            for (uint32_t y = y0; y < y0 + chh; y++)
                for (int c = 0; c < channel_count; c++)
                    for (uint32_t x = x0; x < x0 + cw; x++)
                        exr_sample(&b, &ch[c], (size_t)y * w + x);
            uint32_t size = (uint32_t)(b.n - data_at);
            memcpy(b.p + size_at, &size, 4);
        }
    }
    return done(&b);
}
