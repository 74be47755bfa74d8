/* verify_common.c — cases and comparison shared by the decoder cross-checks (see
 * verify_common.h). DDS layout: Microsoft's "DDS file layout" (DDS_HEADER, DDS_PIXELFORMAT,
 * DDS_HEADER_DXT10); .astc layout: ARM's astcenc file header (magic 0x5CA1AB13). */
#include "verify_common.h"

#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/image.h"

#define VT_SEED 0x6B696C6E76657269ull /* "kilnveri": fixed so that a failure reproduces */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform random bytes alone would leave some paths nearly untested (BC7 mode 7 is one block in
 * 256, equal BC1/BC4 endpoints one in 65536), so every other block is steered to one. */
static void random_block(kiln_block_format f, size_t i, uint64_t *s, uint8_t *out)
{
    uint8_t b[16]; /* always 16 random bytes; 8-byte formats keep the first 8 */
    size_t bytes = kiln_block_bytes(f);
    uint64_t lo = splitmix64(s), hi = splitmix64(s);
    for (int k = 0; k < 8; k++) {
        b[k] = (uint8_t)(lo >> (8 * k));
        b[8 + k] = (uint8_t)(hi >> (8 * k));
    }
    size_t v = i / 2;
    if (i % 2 == 0) f = KILN_BLOCK_FORMAT_COUNT; /* pure random: no steering below */
    switch (f) {
    case KILN_BLOCK_BC1:
        /* equal endpoints: the 3-colour mode with a degenerate palette, then colour0 > colour1
         * and colour0 <= colour1 by choice rather than by chance */
        if (v % 3 == 0) {
            b[2] = b[0];
            b[3] = b[1];
        } else if (v % 3 == 1 && (b[1] << 8 | b[0]) < (b[3] << 8 | b[2])) {
            uint8_t t0 = b[0], t1 = b[1];
            b[0] = b[2];
            b[1] = b[3];
            b[2] = t0;
            b[3] = t1;
        }
        break;
    case KILN_BLOCK_BC4:
        if (v % 2 == 0) b[1] = b[0]; /* equal endpoints: the 6-value mode with 0 and 255 */
        break;
    case KILN_BLOCK_BC5:
        if (v % 2 == 0) b[1] = b[0];
        else b[9] = b[8];
        break;
    case KILN_BLOCK_BC7: {
        unsigned m = (unsigned)(v % 9); /* modes 0..7, then the reserved pattern (byte 0 zero) */
        b[0] = m < 8 ? (uint8_t)((b[0] & (0xFEu << m)) | (1u << m)) : 0;
        break;
    }
    case KILN_BLOCK_ASTC4X4:
        if (v % 2 == 0) {
            /* LDR void-extent block with no extent (all coordinates ones): a constant colour */
            static const uint8_t ve[8] = {0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
            memcpy(b, ve, 8);
        }
        break; /* vt_case_make replaces blocks 2 and 3 of every 4 (astc_randomise_payload) */
    default:
        break;
    }
    memcpy(out, b, bytes);
}

/* A synthetic RGBA picture that makes an ASTC encoder use many block modes: rings, a hard edge,
 * gradients, noise, and alpha that is constant, smooth or noisy by region. */
static uint8_t *synthetic_image(uint32_t w, uint32_t h, uint64_t *s)
{
    uint8_t *img = malloc((size_t)w * h * 4);
    assert_non_null(img);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = img + ((size_t)y * w + x) * 4;
            uint32_t n = (uint32_t)splitmix64(s);
            uint32_t r2 = (x - w / 2) * (x - w / 2) + (y - h / 2) * (y - h / 2);
            p[0] = (uint8_t)(r2 / 16 % 256);            /* rings */
            p[1] = (uint8_t)(x < y ? x : 255 - y);      /* gradient, hard diagonal */
            p[2] = (uint8_t)((y / 32 % 2) ? n : x + y); /* noise in bands */
            p[3] = (uint8_t)(x < w / 3 ? 255 : x < 2 * w / 3 ? y : n >> 8);
        }
    }
    return img;
}

/* Keeps the header of a block kiln encoded (block mode, partitions, colour endpoint modes) and
 * randomises the bits after it (endpoint values and weights: every pattern is a legal
 * integer-sequence encoding), so most blocks stay valid yet take values no encoder would pick.
 * Pure random bytes are mostly illegal ASTC blocks (95% decode to the error colour). */
static void astc_randomise_payload(uint8_t *b, uint64_t *s)
{
    bool void_extent = (b[0] | (b[1] & 1) << 8) == 0x1FC;
    unsigned partitions = ((b[1] >> 3) & 3) + 1;
    unsigned keep = void_extent ? 64 : partitions == 1 ? 17 : 29;
    uint64_t lo = splitmix64(s), hi = splitmix64(s);
    for (unsigned bit = keep; bit < 128; bit++) {
        unsigned r = (unsigned)((bit < 64 ? lo >> bit : hi >> (bit - 64)) & 1);
        b[bit / 8] = (uint8_t)((b[bit / 8] & ~(1u << (bit % 8))) | r << (bit % 8));
    }
}

/* Test-program state (never library state): how many corpus cases could not run. */
static int corpus_cases_skipped;

int vt_finish(int cmocka_result)
{
    if (cmocka_result == 0 && corpus_cases_skipped > 0) {
        printf("%d corpus-based case(s) skipped: reporting the test as skipped\n",
               corpus_cases_skipped);
        return 77;
    }
    return cmocka_result;
}

static uint8_t *load_region(const char *rel, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h)
{
    char *path = kt_corpus_path(rel);
    if (!path) return NULL;
    size_t size = 0;
    void *data = kt_read_file(path, &size);
    if (!data) fail_msg("cannot read %s", path);
    kiln_image_opts opts = {0};
    kiln_image img;
    kiln_error err = {0};
    if (kiln_image_decode(data, size, &opts, &img, &err) != KILN_OK)
        fail_msg("%s: %s", path, err.message);
    if (img.type != KILN_PIXEL_U8 || img.width < x0 + w || img.height < y0 + h)
        fail_msg("%s: expected an 8-bit image of at least %ux%u", path, x0 + w, y0 + h);
    uint8_t *out = malloc((size_t)w * h * 4);
    assert_non_null(out);
    for (uint32_t y = 0; y < h; y++)
        memcpy(out + (size_t)y * w * 4,
               (const uint8_t *)img.pixels + (((size_t)y0 + y) * img.width + x0) * 4,
               (size_t)w * 4);
    kiln_image_free(&img);
    free(data);
    free(path);
    return out;
}

static const char *const source_names[] = {"random", "photo", "normal"};

bool vt_case_make(vt_case *c, kiln_block_format f, vt_source s, bool srgb)
{
    memset(c, 0, sizeof *c);
    c->format = f;
    c->source = s;
    c->srgb = srgb;
    kiln_error err = {0};
    uint8_t *src = NULL;
    if (s == VT_RANDOM) {
        c->w = 256;
        c->h = 256;
    } else if (s == VT_PHOTO) {
        c->w = 130;
        c->h = 98;
        src = load_region("images/kodak/kodim03.png", 300, 200, c->w, c->h);
    } else {
        c->w = 66;
        c->h = 70;
        src = load_region("images/normal/ldr-xy-00.png", 40, 40, c->w, c->h);
    }
    snprintf(c->name, sizeof c->name, "%s%s %s %ux%u", kiln_block_format_name(f),
             srgb ? " srgb" : "", source_names[s], c->w, c->h);
    if (s != VT_RANDOM && !src) {
        printf("SKIP %s: the corpus is absent (set KILN_CORPUS)\n", c->name);
        corpus_cases_skipped++;
        return false;
    }
    assert_true(kiln_blocks_size(f, c->w, c->h, &c->size));
    c->blocks = malloc(c->size);
    c->kiln = malloc((size_t)c->w * c->h * 4);
    assert_non_null(c->blocks);
    assert_non_null(c->kiln);
    if (s == VT_RANDOM) {
        uint64_t state = VT_SEED ^ ((uint64_t)f << 32);
        size_t bytes = kiln_block_bytes(f);
        for (size_t i = 0; i < c->size / bytes; i++)
            random_block(f, i, &state, c->blocks + i * bytes);
        if (f == KILN_BLOCK_ASTC4X4) {
            /* half the blocks (2, 3, 6, 7, ...) from kiln's encoding of a synthetic picture with
             * their payload randomised; the rest stay pure random (0, 4, ...) or void-extent
             * (1, 5, ...) */
            uint8_t *img = synthetic_image(c->w, c->h, &state), *enc = malloc(c->size);
            assert_non_null(enc);
            kiln_block_opts o = {.quality = KILN_QUALITY_FAST, .srgb = srgb};
            if (kiln_blocks_encode(f, img, c->w, c->h, (size_t)c->w * 4, &o, NULL, enc, c->size,
                                   &err) != KILN_OK)
                fail_msg("%s: kiln_blocks_encode: %s", c->name, err.message);
            for (size_t i = 0; i < c->size / 16; i++) {
                if (i % 4 < 2) continue;
                memcpy(c->blocks + i * 16, enc + i * 16, 16);
                astc_randomise_payload(c->blocks + i * 16, &state);
            }
            free(enc);
            free(img);
        }
    } else {
        /* normal: the level that uses the widest range of block modes */
        kiln_block_opts o = {
            .quality = KILN_QUALITY_NORMAL, .srgb = srgb, .normal_map = s == VT_NORMAL};
        if (kiln_blocks_encode(f, src, c->w, c->h, (size_t)c->w * 4, &o, NULL, c->blocks, c->size,
                               &err) != KILN_OK)
            fail_msg("%s: kiln_blocks_encode: %s", c->name, err.message);
        free(src);
    }
    if (kiln_blocks_decode(f, c->blocks, c->size, c->w, c->h, srgb, c->kiln, &err) != KILN_OK)
        fail_msg("%s: kiln_blocks_decode: %s", c->name, err.message);
    return true;
}

void vt_case_free(vt_case *c)
{
    free(c->blocks);
    free(c->kiln);
    memset(c, 0, sizeof *c);
}

enum { VT_REPORT_MAX = 6 };

static void print_block(const vt_case *c, uint32_t x, uint32_t y)
{
    size_t bytes = kiln_block_bytes(c->format);
    size_t index = (size_t)(y / 4) * ((c->w + 3) / 4) + x / 4;
    const uint8_t *b = c->blocks + index * bytes;
    printf("    block %zu (bx %u, by %u) bytes", index, x / 4, y / 4);
    for (size_t k = 0; k < bytes; k++) printf(" %02x", b[k]);
    printf("\n");
}

vt_stats vt_compare(const vt_case *c, const char *peer_name, const uint8_t *peer,
                    size_t peer_channels, const vt_channel map[4], vt_excuse_fn excuse)
{
    size_t bytes = kiln_block_bytes(c->format), blocks_x = (c->w + 3) / 4;
    static const char ch_names[4] = {'R', 'G', 'B', 'A'};
    vt_stats st = {0};
    for (uint32_t y = 0; y < c->h; y++) {
        for (uint32_t x = 0; x < c->w; x++) {
            const uint8_t *k = c->kiln + ((size_t)y * c->w + x) * 4;
            const uint8_t *p = peer + ((size_t)y * c->w + x) * peer_channels;
            const uint8_t *block = c->blocks + ((size_t)(y / 4) * blocks_x + x / 4) * bytes;
            bool differ = false, failed = false, excused = false;
            for (int ch = 0; ch < 4; ch++) {
                if (map[ch].peer < 0) continue;
                uint8_t pv = p[map[ch].peer];
                int d = abs((int)k[ch] - (int)pv);
                differ |= d != 0;
                if (d <= map[ch].tolerance) {
                    if (d > st.max_diff[ch]) st.max_diff[ch] = d;
                } else if (excuse && excuse(block, (y % 4) * 4 + x % 4, ch, k[ch], pv)) {
                    excused = true;
                } else {
                    if (d > st.max_diff[ch]) st.max_diff[ch] = d;
                    failed = true;
                }
            }
            st.texels++;
            st.differ += differ;
            st.excused += excused && !failed;
            if (!failed) continue;
            if (st.failed++ < VT_REPORT_MAX) {
                printf("  MISMATCH %s vs %s at texel (%u, %u): kiln", c->name, peer_name, x, y);
                for (int ch = 0; ch < 4; ch++)
                    if (map[ch].peer >= 0) printf(" %c=%u", ch_names[ch], k[ch]);
                printf(", %s", peer_name);
                for (int ch = 0; ch < 4; ch++)
                    if (map[ch].peer >= 0) printf(" %c=%u", ch_names[ch], p[map[ch].peer]);
                printf("\n");
                print_block(c, x, y);
            }
        }
    }
    printf("%-27s vs %-14s: %zu texels, %zu differ, %zu excused, %zu beyond tolerance; "
           "max |diff|",
           c->name, peer_name, st.texels, st.differ, st.excused, st.failed);
    for (int ch = 0; ch < 4; ch++)
        if (map[ch].peer >= 0)
            printf(" %c %d/%d", ch_names[ch], st.max_diff[ch], map[ch].tolerance);
    printf("\n");
    return st;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

void vt_write_dds(const char *path, const vt_case *c)
{
    uint8_t head[4 + 124 + 20] = {0};
    const char *fourcc;
    uint32_t dxgi = 0;
    switch (c->format) {
    case KILN_BLOCK_BC1:
        fourcc = "DXT1";
        break;
    case KILN_BLOCK_BC4:
        fourcc = "ATI1";
        break;
    case KILN_BLOCK_BC5:
        fourcc = "DX10";
        dxgi = 83;
        break; /* DXGI_FORMAT_BC5_UNORM */
    case KILN_BLOCK_BC7:
        fourcc = "DX10";
        dxgi = 98;
        break; /* DXGI_FORMAT_BC7_UNORM */
    default:
        fail_msg("no DDS form for %s", c->name);
        return;
    }
    memcpy(head, "DDS ", 4);
    uint8_t *h = head + 4;
    put_u32(h + 0, 124);
    put_u32(h + 4,
            0x1 | 0x2 | 0x4 | 0x1000 | 0x80000); /* CAPS HEIGHT WIDTH PIXELFORMAT LINEARSIZE */
    put_u32(h + 8, c->h);
    put_u32(h + 12, c->w);
    put_u32(h + 16, (uint32_t)c->size);
    put_u32(h + 24, 1);   /* one mip level */
    put_u32(h + 72, 32);  /* DDS_PIXELFORMAT size */
    put_u32(h + 76, 0x4); /* DDPF_FOURCC */
    memcpy(h + 80, fourcc, 4);
    put_u32(h + 104, 0x1000); /* DDSCAPS_TEXTURE */
    size_t head_size = 4 + 124;
    if (dxgi) {
        uint8_t *x = head + head_size;
        put_u32(x + 0, dxgi);
        put_u32(x + 4, 3);  /* D3D10_RESOURCE_DIMENSION_TEXTURE2D */
        put_u32(x + 12, 1); /* arraySize */
        head_size += 20;
    }
    uint8_t *file = malloc(head_size + c->size);
    assert_non_null(file);
    memcpy(file, head, head_size);
    memcpy(file + head_size, c->blocks, c->size);
    kt_write_file(path, file, head_size + c->size);
    free(file);
}

void vt_write_astc(const char *path, const vt_case *c)
{
    uint8_t *file = malloc(16 + c->size);
    assert_non_null(file);
    put_u32(file, 0x5CA1AB13u);
    file[4] = 4; /* block x, y, z */
    file[5] = 4;
    file[6] = 1;
    uint32_t dims[3] = {c->w, c->h, 1};
    for (int d = 0; d < 3; d++)
        for (int k = 0; k < 3; k++) file[7 + d * 3 + k] = (uint8_t)(dims[d] >> (8 * k));
    memcpy(file + 16, c->blocks, c->size);
    kt_write_file(path, file, 16 + c->size);
    free(file);
}
