/* bench_textures.c — the texture-encoder benchmark: kiln's BC7, BC1, BC4, BC5
 * and ASTC 4x4 encoders at fast / normal / high, side by side with the encoders a user would
 * otherwise pick — the bc7enc command of bc7enc_rdo (bc7e.ispc, bc7enc.cpp and rgbcx inside; npm
 * @gpu-tex-enc/bc) and ARM's astcenc command — on the Kodak photos, the normal maps beside them and
 * a synthetic 1024x1024 picture. It prints quality and speed; it asserts nothing.
 *
 * Quality is computed in one place, measure(), for kiln and peers alike: every output, kiln's or a
 * peer's, is decoded by kiln's decoders (kiln_blocks_decode) and compared with the same source
 * texels, so a peer's number never comes from the peer's own metric code. Timings: kiln's are the
 * wall clock of kiln_blocks_encode (CLOCK_MONOTONIC); a peer's are the encode times the tool
 * prints itself ("Total encoding time" of bc7enc, "Coding time" of astcenc), which leave out
 * process start-up, PNG reading and file writing. docs/performance.md ("Textures") explains the
 * columns and keeps a measured table.
 *
 *   bench_textures --corpus DIR [--bc7enc PATH|none] [--astcenc PATH|none] [--runs N]
 *                  [--sets kodak,normal,synthetic] [--formats bc7,bc1,bc4,bc5,astc4x4]
 *                  [--levels fast,normal,high]
 *
 * DIR is the corpus's images folder: the PNG files of its kodak/ and normal/ folders are read. Each
 * timing is the minimum over N runs (default 1: the whole benchmark takes minutes). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <spng.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/jobs.h"
#include "core/reader.h"
#include "import/image.h"
#include "kiln/kiln_format.h"
#include "measure.h"
#include "pipeline/settings.h"
#include "process/block.h"

#define TEX_PATH_MAX   4096
#define TEX_MAX_IMAGES 64
#define TEX_MAX_RUNS   100
#define TEX_SYNTH_SIZE 1024u
#define TEX_SYNTH_SEED 0x6B696C6Eu /* "kiln" */
#define TEX_PSNR_CAP   99.99       /* an exact channel would be +infinity; averages need a number */

/* ---- the peers ------------------------------------------------------------------------------ */

typedef enum peer_tool { PEER_BC7ENC, PEER_ASTCENC } peer_tool;

/* One peer configuration, compared with kiln's `format` at `level`. The levels mirror each
 * other where the peer has a ladder (bc7e -u1/-u4/-u5, rgbcx -L2/-L5/-L18, astcenc presets);
 * BC4/BC5 compare kiln's normal and high with rgbcx's default (search radius 5) and kiln's fast
 * with its low-quality 8-value mode (-hl). `args` go to the tool as they are. */
typedef struct peer_def {
    kiln_block_format format;
    kiln_quality level;
    peer_tool tool;
    const char *label;
    const char *args;
} peer_def;

static const peer_def peer_defs[] = {
    {KILN_BLOCK_BC7, KILN_QUALITY_FAST, PEER_BC7ENC, "bc7e -u1", "-u1"},
    {KILN_BLOCK_BC7, KILN_QUALITY_NORMAL, PEER_BC7ENC, "bc7e -u4", "-u4"},
    {KILN_BLOCK_BC7, KILN_QUALITY_NORMAL, PEER_BC7ENC, "bc7enc.cpp -C -u4", "-C -u4"},
    {KILN_BLOCK_BC7, KILN_QUALITY_HIGH, PEER_BC7ENC, "bc7e -u5", "-u5"},
    {KILN_BLOCK_BC1, KILN_QUALITY_FAST, PEER_BC7ENC, "rgbcx -L2", "-1 -L2"},
    {KILN_BLOCK_BC1, KILN_QUALITY_NORMAL, PEER_BC7ENC, "rgbcx -L5", "-1 -L5"},
    {KILN_BLOCK_BC1, KILN_QUALITY_HIGH, PEER_BC7ENC, "rgbcx -L18", "-1 -L18"},
    {KILN_BLOCK_BC4, KILN_QUALITY_FAST, PEER_BC7ENC, "rgbcx -4 -hl", "-4 -hl"},
    {KILN_BLOCK_BC4, KILN_QUALITY_NORMAL, PEER_BC7ENC, "rgbcx -4", "-4"},
    {KILN_BLOCK_BC4, KILN_QUALITY_HIGH, PEER_BC7ENC, "rgbcx -4", "-4"},
    {KILN_BLOCK_BC5, KILN_QUALITY_FAST, PEER_BC7ENC, "rgbcx -5 -hl", "-5 -hl"},
    {KILN_BLOCK_BC5, KILN_QUALITY_NORMAL, PEER_BC7ENC, "rgbcx -5", "-5"},
    {KILN_BLOCK_BC5, KILN_QUALITY_HIGH, PEER_BC7ENC, "rgbcx -5", "-5"},
    {KILN_BLOCK_ASTC4X4, KILN_QUALITY_FAST, PEER_ASTCENC, "astcenc -fast", "-fast"},
    {KILN_BLOCK_ASTC4X4, KILN_QUALITY_NORMAL, PEER_ASTCENC, "astcenc -medium", "-medium"},
    {KILN_BLOCK_ASTC4X4, KILN_QUALITY_HIGH, PEER_ASTCENC, "astcenc -thorough", "-thorough"},
};
#define PEER_COUNT (sizeof peer_defs / sizeof peer_defs[0])

/* ---- images and sets ------------------------------------------------------------------------ */

typedef struct tex_image {
    char name[256];
    char path[TEX_PATH_MAX]; /* the PNG the peers read: the same texels kiln encodes */
    kiln_image img;          /* RGBA8, tightly packed */
} tex_image;

typedef enum tex_set_id { SET_KODAK, SET_NORMAL, SET_SYNTHETIC, SET_COUNT } tex_set_id;
static const char *const set_names[SET_COUNT] = {"kodak", "normal", "synthetic"};

typedef struct tex_set {
    const char *name;
    bool normal; /* unit vectors in R, G (B): angular error with z rebuilt from X and Y */
    bool alpha;  /* some texel has alpha below 255: alpha PSNR for the formats that keep it */
    tex_image *images;
    size_t count;
    double mpix;
} tex_set;

/* ---- quality: the one place where it is computed -------------------------------------------- */

typedef struct tex_quality {
    double psnr;       /* dB over the format's channels: RGB, R (BC4), RG (BC5); X,Y for normals */
    double alpha_psnr; /* dB of alpha, NAN when not measured */
    double angle;      /* mean angular error in degrees, NAN when the set holds no normal maps */
} tex_quality;

static double psnr_of(double sse, double samples)
{
    if (samples <= 0) return NAN;
    double mse = sse / samples;
    if (mse <= 0) return TEX_PSNR_CAP;
    double db = 10.0 * log10(255.0 * 255.0 / mse);
    return db > TEX_PSNR_CAP ? TEX_PSNR_CAP : db;
}

/* A normal as a GPU sampling an XY normal map sees it: X and Y from [0, 255] to [-1, 1], Z
 * rebuilt as sqrt(1 - x^2 - y^2), then made unit length (x^2 + y^2 may exceed 1). */
static void normal_of(uint8_t xs, uint8_t ys, double n[3])
{
    double x = xs / 127.5 - 1.0, y = ys / 127.5 - 1.0, zz = 1.0 - x * x - y * y;
    double z = zz > 0 ? sqrt(zz) : 0.0, len = sqrt(x * x + y * y + z * z);
    n[0] = x / len;
    n[1] = y / len;
    n[2] = z / len;
}

/* Compares decoded texels with the source. y_in_alpha: the decoded Y sits in alpha (ASTC with
 * astcenc's -normal swizzle rrrg); everything else keeps X, Y in R, G. */
static void measure(const tex_set *set, const kiln_image *src, const uint8_t *dec,
                    kiln_block_format f, bool y_in_alpha, tex_quality *q)
{
    size_t texels = (size_t)src->width * src->height;
    const uint8_t *s = src->pixels;
    unsigned src_ch[3] = {0, 1, 2}, dec_ch[3] = {0, 1, 2}, nch = 3;
    if (f == KILN_BLOCK_BC4) {
        nch = 1;
    } else if (f == KILN_BLOCK_BC5 || set->normal) {
        nch = 2;
        if (y_in_alpha) dec_ch[1] = 3;
    }
    bool alpha = set->alpha && !y_in_alpha && (f == KILN_BLOCK_BC7 || f == KILN_BLOCK_ASTC4X4);
    bool angle = set->normal && f != KILN_BLOCK_BC4;
    double sse = 0, sse_a = 0, deg = 0;
    for (size_t i = 0; i < texels; i++) {
        const uint8_t *a = s + i * 4, *b = dec + i * 4;
        for (unsigned c = 0; c < nch; c++) {
            double d = (double)a[src_ch[c]] - b[dec_ch[c]];
            sse += d * d;
        }
        if (alpha) {
            double d = (double)a[3] - b[3];
            sse_a += d * d;
        }
        if (angle) {
            double n0[3], n1[3];
            normal_of(a[0], a[1], n0);
            normal_of(b[dec_ch[0]], b[dec_ch[1]], n1);
            double dot = n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2];
            dot = dot > 1 ? 1 : dot < -1 ? -1 : dot;
            deg += acos(dot) * (180.0 / 3.14159265358979323846);
        }
    }
    q->psnr = psnr_of(sse, (double)texels * nch);
    q->alpha_psnr = alpha ? psnr_of(sse_a, (double)texels) : NAN;
    q->angle = angle ? deg / (double)texels : NAN;
}

/* ---- small helpers -------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool read_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return false;
    bool ok = false;
    long len = -1;
    if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        *data = malloc(len ? (size_t)len : 1);
        ok = *data && fread(*data, 1, (size_t)len, fp) == (size_t)len;
        if (!ok) free(*data);
    }
    fclose(fp);
    if (ok) *size = (size_t)len;
    return ok;
}

/* Paths go to sh inside single quotes; a path holding one cannot be quoted that simply. */
static bool shell_safe(const char *s) { return strchr(s, '\'') == NULL; }

static bool list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        p = e ? e + 1 : NULL;
    }
    return false;
}

/* ---- loading the sets ----------------------------------------------------------------------- */

static bool load_png(const char *path, const char *name, tex_image *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    kiln_error err = {0};
    if (!read_file(path, &data, &size)) {
        fprintf(stderr, "bench_textures: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    kiln_image_opts opts = {0};
    opts.name_hint = name;
    kiln_result r = kiln_image_decode(data, size, &opts, &out->img, &err);
    free(data);
    if (r != KILN_OK) {
        fprintf(stderr, "bench_textures: %s: %s\n", path, err.message);
        return false;
    }
    if (out->img.type != KILN_PIXEL_U8) {
        fprintf(stderr, "bench_textures: %s is not 8 bits per channel; skipped\n", path);
        kiln_image_free(&out->img);
        return false;
    }
    snprintf(out->name, sizeof out->name, "%s", name);
    snprintf(out->path, sizeof out->path, "%s", path);
    return true;
}

static int png_name_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int png_name_filter(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 4 && strcmp(d->d_name + n - 4, ".png") == 0;
}

/* Every *.png of dir, in name order. */
static bool load_folder(const char *dir, tex_set *set)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, png_name_filter, png_name_cmp);
    if (n < 0) {
        fprintf(stderr, "bench_textures: cannot list %s: %s\n", dir, strerror(errno));
        return false;
    }
    set->images = calloc(n > 0 ? (size_t)n : 1, sizeof *set->images);
    bool ok = set->images != NULL;
    for (int i = 0; i < n; i++) {
        char path[TEX_PATH_MAX];
        if (ok &&
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name) < sizeof path &&
            set->count < TEX_MAX_IMAGES && shell_safe(path) &&
            load_png(path, names[i]->d_name, &set->images[set->count]))
            set->count++;
        free(names[i]);
    }
    free(names);
    return ok && set->count > 0;
}

/* xorshift32 (Marsaglia 2003): a fixed, portable sequence for the synthetic noise. */
static uint32_t xorshift32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static uint8_t clamp_u8(double v) { return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)lround(v); }

/* The synthetic picture, 1024x1024, fixed formula and seed, four quadrants that stress
 * different things:
 *   top left:     a colour zone plate, rings whose frequency grows with the radius up to about
 *                 1 radian per texel — sharp, high-contrast detail;
 *   top right:    smooth gradients (red across, green down, blue diagonal) — endpoint precision
 *                 and banding;
 *   bottom left:  uniform per-texel noise in [64, 191] — no correlation between texels at all;
 *   bottom right: rings over a gradient plus light noise — the mixture photos are made of.
 * Alpha is 255 in the left half (opaque blocks must stay exactly opaque) and, in the right
 * half, a vertical ramp with rings on it (30 to about 255). */
static void synth_texel(uint32_t x, uint32_t y, uint32_t *seed, uint8_t px[4])
{
    const double pi = 3.14159265358979323846;
    double r, g, b, a = 255;
    if (x < 512 && y < 512) {
        double dx = (double)x - 256, dy = (double)y - 256, phase = (dx * dx + dy * dy) / 700.0;
        r = 128 + 127 * sin(phase);
        g = 128 + 127 * sin(phase * 1.3 + 1.0);
        b = 128 + 127 * cos(phase * 0.7);
    } else if (y < 512) {
        double u = (x - 512) / 511.0, v = y / 511.0;
        r = 255 * u;
        g = 255 * v;
        b = 255 * (u + v) / 2;
    } else if (x < 512) {
        r = 64 + (xorshift32(seed) & 127);
        g = 64 + (xorshift32(seed) & 127);
        b = 64 + (xorshift32(seed) & 127);
    } else {
        double u = (x - 512) / 511.0, v = (y - 512) / 511.0;
        double rad = hypot((double)x - 768, (double)y - 768);
        r = 60 + 150 * u + 40 * sin(rad / 6) + (double)(xorshift32(seed) % 9) - 4;
        g = 60 + 150 * v + 40 * sin(rad / 9) + (double)(xorshift32(seed) % 9) - 4;
        b = 200 - 120 * u + 30 * sin(rad / 4) + (double)(xorshift32(seed) % 9) - 4;
    }
    if (x >= 512)
        a = 30 + 200 * (y / 1023.0) +
            25 * sin(hypot((double)x - 768, (double)y - 512) / 16 * pi / 2);
    px[0] = clamp_u8(r);
    px[1] = clamp_u8(g);
    px[2] = clamp_u8(b);
    px[3] = clamp_u8(a);
}

static bool write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx) return false;
    struct spng_ihdr ihdr = {w, h, 8, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 0, 0, 0};
    size_t len = 0;
    int e = spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    if (!e) e = spng_set_ihdr(ctx, &ihdr);
    if (!e) e = spng_encode_image(ctx, rgba, (size_t)w * h * 4, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    void *buf = e ? NULL : spng_get_png_buffer(ctx, &len, &e);
    spng_ctx_free(ctx);
    if (!buf) {
        fprintf(stderr, "bench_textures: PNG encoding failed: %s\n", spng_strerror(e));
        return false;
    }
    FILE *fp = fopen(path, "wb");
    bool ok = fp && fwrite(buf, 1, len, fp) == len;
    if (fp && fclose(fp) != 0) ok = false;
    free(buf);
    if (!ok) fprintf(stderr, "bench_textures: cannot write %s\n", path);
    return ok;
}

static bool make_synthetic(const char *tmpdir, tex_set *set)
{
    set->images = calloc(1, sizeof *set->images);
    if (!set->images) return false;
    tex_image *t = &set->images[0];
    uint32_t n = TEX_SYNTH_SIZE, seed = TEX_SYNTH_SEED;
    uint8_t *px = malloc((size_t)n * n * 4);
    if (!px) return false;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) synth_texel(x, y, &seed, px + ((size_t)y * n + x) * 4);
    snprintf(t->name, sizeof t->name, "synthetic-%ux%u", n, n);
    if ((size_t)snprintf(t->path, sizeof t->path, "%s/synthetic.png", tmpdir) >= sizeof t->path)
        return false;
    t->img.width = t->img.height = n;
    t->img.type = KILN_PIXEL_U8;
    t->img.pixels = px;
    t->img.size = (size_t)n * n * 4;
    t->img.has_alpha = true;
    if (!write_png(t->path, px, n, n)) return false;
    set->count = 1;
    return true;
}

/* ---- reading the peers' files --------------------------------------------------------------- */

/* The blocks of a DDS file as bc7enc writes it: a 124-byte header after "DDS ", then a DX10
 * header when the pixel format's fourCC is "DX10", then the top level. Every field read is
 * bounds-checked; the level must be the size the image needs. */
static const uint8_t *dds_blocks(const uint8_t *data, size_t size, uint32_t w, uint32_t h,
                                 size_t need)
{
    kiln_reader r = kiln_reader_make(data, size);
    const uint8_t *magic = kiln_reader_take(&r, 4);
    uint32_t header_size = kiln_read_u32le(&r);
    kiln_read_u32le(&r); /* flags */
    uint32_t height = kiln_read_u32le(&r), width = kiln_read_u32le(&r);
    kiln_reader_seek(&r, 84);
    const uint8_t *fourcc = kiln_reader_take(&r, 4);
    if (r.failed || memcmp(magic, "DDS ", 4) != 0 || header_size != 124 || width != w ||
        height != h)
        return NULL;
    kiln_reader_seek(&r, memcmp(fourcc, "DX10", 4) == 0 ? 148 : 128);
    return kiln_reader_take(&r, need);
}

/* ---- running kiln and the peers ------------------------------------------------------------- */

typedef struct tex_ctx {
    const char *bc7enc, *astcenc; /* NULL: that peer is not run */
    char tmpdir[TEX_PATH_MAX];
    unsigned runs;
    kiln_jobs *pools[2]; /* 1 and 2 threads */
} tex_ctx;

static const unsigned thread_counts[2] = {1, 2};

/* One peer run: the encode time it printed, and (want_blocks) its output file's bytes. */
static bool peer_run_once(const tex_ctx *c, const peer_def *p, const tex_set *set,
                          const tex_image *t, unsigned threads, double *secs, uint8_t **file,
                          size_t *file_size, char *why, size_t why_size)
{
    char out[TEX_PATH_MAX + 32], cmd[3 * TEX_PATH_MAX];
    const char *tool = p->tool == PEER_BC7ENC ? c->bc7enc : c->astcenc;
    const char *key = p->tool == PEER_BC7ENC ? "Total encoding time:" : "Coding time:";
    snprintf(out, sizeof out, "%s/peer.%s", c->tmpdir, p->tool == PEER_BC7ENC ? "dds" : "astc");
    remove(out);
    if (p->tool == PEER_BC7ENC)
        snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=%u '%s' -g %s '%s' '%s' 2>&1", threads, tool,
                 p->args, t->path, out);
    else
        snprintf(cmd, sizeof cmd, "'%s' -cl '%s' '%s' 4x4 %s%s -j %u 2>&1", tool, t->path, out,
                 p->args, set->normal ? " -normal" : "", threads);
    FILE *pp = popen(cmd, "r");
    if (!pp) {
        snprintf(why, why_size, "cannot start %s", tool);
        return false;
    }
    char line[1024];
    double t_s = -1;
    while (fgets(line, sizeof line, pp)) {
        const char *k = strstr(line, key);
        if (k) t_s = strtod(k + strlen(key), NULL);
    }
    int status = pclose(pp);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || t_s < 0) {
        snprintf(why, why_size, "%s failed (status %d%s)", p->label, status,
                 t_s < 0 ? ", no time printed" : "");
        return false;
    }
    *secs = t_s;
    if (file && !read_file(out, file, file_size)) {
        snprintf(why, why_size, "%s wrote no %.100s", p->label, out);
        return false;
    }
    return true;
}

/* What one peer configuration gave for one image; cached, because kiln's normal and high BC4/BC5
 * compare with the same rgbcx run. */
typedef struct peer_result {
    const tex_image *image;
    const peer_def *def;
    bool ok;
    double secs[2];
    tex_quality q;
    bool have_blocks;
    uint8_t *blocks; /* the 1-thread output's blocks (ASTC only: compared with kiln's) */
    char why[160];
} peer_result;

typedef struct peer_cache {
    peer_result *items;
    size_t count, cap;
} peer_cache;

static peer_result *peer_get(const tex_ctx *c, peer_cache *cache, const peer_def *p,
                             const tex_set *set, const tex_image *t, uint8_t *decoded)
{
    for (size_t i = 0; i < cache->count; i++) {
        peer_result *r = &cache->items[i];
        if (r->image == t && r->def->tool == p->tool && strcmp(r->def->args, p->args) == 0 &&
            r->def->format == p->format)
            return r;
    }
    if (cache->count == cache->cap) {
        size_t cap = cache->cap ? cache->cap * 2 : 64;
        peer_result *items = realloc(cache->items, cap * sizeof *items);
        if (!items) return NULL;
        cache->items = items;
        cache->cap = cap;
    }
    peer_result *r = &cache->items[cache->count++];
    memset(r, 0, sizeof *r);
    r->image = t;
    r->def = p;
    const char *tool = p->tool == PEER_BC7ENC ? c->bc7enc : c->astcenc;
    if (!tool) {
        snprintf(r->why, sizeof r->why, "%s not run", p->label);
        return r;
    }
    uint32_t w = t->img.width, h = t->img.height;
    size_t need = 0;
    kiln_blocks_size(p->format, w, h, &need);
    for (unsigned ti = 0; ti < 2; ti++) {
        r->secs[ti] = INFINITY;
        for (unsigned run = 0; run < c->runs; run++) {
            uint8_t *file = NULL;
            size_t file_size = 0;
            double s = 0;
            bool first = ti == 0 && run == 0;
            if (!peer_run_once(c, p, set, t, thread_counts[ti], &s, first ? &file : NULL,
                               &file_size, r->why, sizeof r->why))
                return r;
            if (s < r->secs[ti]) r->secs[ti] = s;
            if (!first) continue;
            const uint8_t *blocks = p->tool == PEER_BC7ENC
                                        ? dds_blocks(file, file_size, w, h, need)
                                        : bench_astc_blocks(file, file_size, w, h, need);
            kiln_error err = {0};
            bool ok = blocks && kiln_blocks_decode(p->format, blocks, need, w, h, false, decoded,
                                                   &err) == KILN_OK;
            if (ok) {
                measure(set, &t->img, decoded, p->format, p->tool == PEER_ASTCENC && set->normal,
                        &r->q);
                if (p->tool == PEER_ASTCENC && (r->blocks = malloc(need)) != NULL) {
                    memcpy(r->blocks, blocks, need);
                    r->have_blocks = true;
                }
            }
            free(file);
            if (!ok) {
                snprintf(r->why, sizeof r->why, "%s: %.120s", p->label,
                         blocks ? err.message : "unexpected output file layout");
                return r;
            }
        }
    }
    r->ok = true;
    return r;
}

/* Sums over the images of a set for one (format, level) and one peer. */
typedef struct tex_sum {
    size_t n;
    double psnr, alpha_psnr, angle, secs[2];
} tex_sum;

static void sum_add(tex_sum *s, const tex_quality *q, const double secs[2])
{
    s->n++;
    s->psnr += q->psnr;
    s->alpha_psnr += q->alpha_psnr;
    s->angle += q->angle;
    s->secs[0] += secs[0];
    s->secs[1] += secs[1];
}

/* A finished row: kept for the targets at the end. */
typedef struct tex_row {
    tex_set_id set;
    kiln_block_format format;
    kiln_quality level;
    const peer_def *peer; /* NULL: no peer for this row */
    bool kiln_ok, peer_ok;
    double mpix;
    tex_sum kiln, other;
    size_t same_bytes, compared;
} tex_row;

/* ---- printing ------------------------------------------------------------------------------- */

static void print_header(const tex_set *set)
{
    printf("\n== %s: %zu image%s, %.2f Mpix%s ==\n", set->name, set->count,
           set->count == 1 ? "" : "s", set->mpix,
           set->normal  ? " (normal maps: X,Y dB and angle with z rebuilt)"
           : set->alpha ? " (with alpha)"
                        : "");
    printf("%-7s %-6s %-18s %-9s %8s %8s %7s | %6s %6s %6s | %6s %6s %6s\n", "format", "level",
           "peer", "metric", "kiln", "peer", "diff", "1t k", "peer", "ratio", "2t k", "peer",
           "ratio");
}

static void print_metric(const char *metric, double k, double p, bool have_p)
{
    char pk[16] = "-", pp[16] = "-", pd[16] = "-";
    if (!isnan(k)) snprintf(pk, sizeof pk, "%.3f", k);
    if (have_p && !isnan(p)) snprintf(pp, sizeof pp, "%.3f", p);
    if (have_p && !isnan(k) && !isnan(p)) snprintf(pd, sizeof pd, "%+.3f", k - p);
    printf("%-9s %8s %8s %7s", metric, pk, pp, pd);
}

static void print_speed(const tex_row *row, unsigned ti)
{
    double k = row->kiln_ok ? row->mpix / row->kiln.secs[ti] : NAN;
    double p = row->peer_ok ? row->mpix / row->other.secs[ti] : NAN;
    char sk[16] = "-", sp[16] = "-", sr[16] = "-";
    if (!isnan(k)) snprintf(sk, sizeof sk, "%.2f", k);
    if (!isnan(p)) snprintf(sp, sizeof sp, "%.2f", p);
    if (!isnan(k) && !isnan(p)) snprintf(sr, sizeof sr, "%.2fx", k / p);
    printf(" | %6s %6s %6s", sk, sp, sr);
}

static void print_row(const tex_set *set, const tex_row *row, const char *why)
{
    double n = row->kiln_ok ? (double)row->kiln.n : NAN,
           m = row->peer_ok ? (double)row->other.n : NAN;
    const char *metric = row->format == KILN_BLOCK_BC4   ? "R dB"
                         : set->normal                   ? "XY dB"
                         : row->format == KILN_BLOCK_BC5 ? "RG dB"
                                                         : "RGB dB";
    printf("%-7s %-6s %-18s ", kiln_block_format_name(row->format), kiln_quality_name(row->level),
           row->peer ? row->peer->label : "-");
    print_metric(metric, row->kiln.psnr / n, row->other.psnr / m, row->peer_ok);
    print_speed(row, 0);
    print_speed(row, 1);
    if (row->compared) printf("  same bytes %zu/%zu", row->same_bytes, row->compared);
    if (why && *why) printf("  (%s)", why);
    printf("\n");
    if (set->alpha && (row->format == KILN_BLOCK_BC7 || row->format == KILN_BLOCK_ASTC4X4)) {
        printf("%-7s %-6s %-18s ", "", "", "");
        print_metric("A dB", row->kiln.alpha_psnr / n, row->other.alpha_psnr / m, row->peer_ok);
        printf("\n");
    }
    if (set->normal && row->format != KILN_BLOCK_BC4) {
        printf("%-7s %-6s %-18s ", "", "", "");
        print_metric("angle deg", row->kiln.angle / n, row->other.angle / m, row->peer_ok);
        printf("\n");
    }
    fflush(stdout);
}

/* ---- one (set, format, level): kiln on every image, then each peer on the same image --------- */

static size_t bench_level(const tex_ctx *c, peer_cache *cache, tex_set_id sid, const tex_set *set,
                          kiln_block_format f, kiln_quality level, tex_row *rows, size_t max_rows)
{
    const peer_def *peers[4];
    size_t np = 0;
    for (size_t i = 0; i < PEER_COUNT && np < 4; i++)
        if (peer_defs[i].format == f && peer_defs[i].level == level) peers[np++] = &peer_defs[i];
    size_t nrows = np ? np : 1;
    if (nrows > max_rows) return 0;
    for (size_t i = 0; i < nrows; i++) {
        memset(&rows[i], 0, sizeof rows[i]);
        rows[i].set = sid;
        rows[i].format = f;
        rows[i].level = level;
        rows[i].peer = np ? peers[i] : NULL;
        rows[i].kiln_ok = rows[i].peer_ok = true;
        rows[i].mpix = set->mpix;
    }
    kiln_block_opts opts = {level, false, set->normal};
    char why[200] = "";
    size_t max_bytes = 0, max_texels = 0;
    for (size_t i = 0; i < set->count; i++) {
        size_t b = 0, t = (size_t)set->images[i].img.width * set->images[i].img.height;
        kiln_blocks_size(f, set->images[i].img.width, set->images[i].img.height, &b);
        if (b > max_bytes) max_bytes = b;
        if (t > max_texels) max_texels = t;
    }
    uint8_t *blocks = malloc(max_bytes), *blocks2 = malloc(max_bytes);
    uint8_t *decoded = malloc(max_texels * 4);
    size_t thread_mismatch = 0;
    if (!blocks || !blocks2 || !decoded) {
        snprintf(why, sizeof why, "out of memory");
        for (size_t i = 0; i < nrows; i++) rows[i].kiln_ok = rows[i].peer_ok = false;
    }
    for (size_t i = 0; blocks && blocks2 && decoded && i < set->count; i++) {
        const tex_image *t = &set->images[i];
        uint32_t w = t->img.width, h = t->img.height;
        size_t need = 0;
        kiln_blocks_size(f, w, h, &need);
        double secs[2] = {INFINITY, INFINITY};
        tex_quality q = {NAN, NAN, NAN};
        kiln_error err = {0};
        bool ok = true;
        /* Quality and the ASTC comparison use the 1-thread blocks; the 2-thread ones only have
         * to equal them (kiln's bytes never depend on the thread count). */
        for (unsigned ti = 0; ok && ti < 2; ti++) {
            for (unsigned run = 0; ok && run < c->runs; run++) {
                double t0 = now_s();
                ok = kiln_blocks_encode(f, t->img.pixels, w, h, (size_t)w * 4, &opts, c->pools[ti],
                                        ti ? blocks2 : blocks, need, &err) == KILN_OK;
                double s = now_s() - t0;
                if (s < secs[ti]) secs[ti] = s;
            }
        }
        if (ok && memcmp(blocks, blocks2, need) != 0) thread_mismatch++;
        ok = ok && kiln_blocks_decode(f, blocks, need, w, h, false, decoded, &err) == KILN_OK;
        if (ok) {
            measure(set, &t->img, decoded, f, f == KILN_BLOCK_ASTC4X4 && set->normal, &q);
        } else if (!*why) {
            snprintf(why, sizeof why, "kiln: %.60s: %.120s", t->name, err.message);
        }
        for (size_t k = 0; k < nrows; k++) {
            tex_row *row = &rows[k];
            if (ok && row->kiln_ok) {
                sum_add(&row->kiln, &q, secs);
            } else {
                row->kiln_ok = false;
            }
            if (!row->peer) {
                row->peer_ok = false;
                continue;
            }
            if (!row->peer_ok) continue;
            peer_result *pr = peer_get(c, cache, row->peer, set, t, decoded);
            if (!pr || !pr->ok) {
                row->peer_ok = false;
                if (!*why) snprintf(why, sizeof why, "%s", pr ? pr->why : "out of memory");
                continue;
            }
            sum_add(&row->other, &pr->q, pr->secs);
            if (ok && pr->have_blocks) {
                row->compared++;
                row->same_bytes += memcmp(pr->blocks, blocks, need) == 0;
            }
        }
    }
    free(blocks);
    free(blocks2);
    free(decoded);
    if (thread_mismatch && !*why)
        snprintf(why, sizeof why, "kiln: 1- and 2-thread bytes differ on %zu image%s",
                 thread_mismatch, thread_mismatch == 1 ? "" : "s");
    for (size_t i = 0; i < nrows; i++) print_row(set, &rows[i], i == 0 ? why : NULL);
    return nrows;
}

/* ---- where kiln stands against the targets (Kodak, 1 thread) ------------------------ */

static const tex_row *find_row(const tex_row *rows, size_t n, kiln_block_format f,
                               kiln_quality level, const char *peer_label, tex_set_id set)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].set == set && rows[i].format == f && rows[i].level == level && rows[i].peer &&
            strcmp(rows[i].peer->label, peer_label) == 0)
            return &rows[i];
    return NULL;
}

/* Prints "db: kiln - peer vs the floor; speed ratio vs the floor" for one target. */
static void print_target(const char *what, const tex_row *r, double min_db, double min_ratio)
{
    printf("  %-44s", what);
    if (!r || !r->kiln_ok || !r->peer_ok) {
        printf(" not measured\n");
        return;
    }
    double d = r->kiln.psnr / (double)r->kiln.n - r->other.psnr / (double)r->other.n;
    printf(" %+.3f dB (floor %+.1f: %s)", d, min_db, d >= min_db ? "met" : "MISSED");
    if (min_ratio > 0) {
        double ratio = r->other.secs[0] / r->kiln.secs[0];
        printf(", speed %.2fx (floor %.1fx: %s)", ratio, min_ratio,
               ratio >= min_ratio ? "met" : "MISSED");
    }
    printf("\n");
}

static void print_targets(const tex_row *rows, size_t n)
{
    bool kodak = false;
    for (size_t i = 0; i < n; i++) kodak = kodak || rows[i].set == SET_KODAK;
    if (!kodak) {
        printf("\nTargets: not evaluated (they are set on the kodak set, not run)\n");
        return;
    }
    printf("\nTargets (Kodak, 1 thread; quality kiln - peer, speed kiln / peer):\n");
    print_target("BC7 normal vs bc7e -u4 (moonshot 1.0x)",
                 find_row(rows, n, KILN_BLOCK_BC7, KILN_QUALITY_NORMAL, "bc7e -u4", SET_KODAK),
                 -0.1, 0.5);
    print_target(
        "BC7 normal vs bc7enc.cpp -C -u4",
        find_row(rows, n, KILN_BLOCK_BC7, KILN_QUALITY_NORMAL, "bc7enc.cpp -C -u4", SET_KODAK),
        -0.1, 2.0);
    print_target("BC7 fast vs bc7e -u1",
                 find_row(rows, n, KILN_BLOCK_BC7, KILN_QUALITY_FAST, "bc7e -u1", SET_KODAK), -0.1,
                 0);
    print_target("BC7 high vs bc7e -u5",
                 find_row(rows, n, KILN_BLOCK_BC7, KILN_QUALITY_HIGH, "bc7e -u5", SET_KODAK), -0.1,
                 0);
    print_target("BC1 normal vs rgbcx -L5",
                 find_row(rows, n, KILN_BLOCK_BC1, KILN_QUALITY_NORMAL, "rgbcx -L5", SET_KODAK),
                 -0.1, 1.0);
    print_target("BC4 normal vs rgbcx -4 (default)",
                 find_row(rows, n, KILN_BLOCK_BC4, KILN_QUALITY_NORMAL, "rgbcx -4", SET_KODAK),
                 -0.3, 10.0);
    print_target("BC5 normal vs rgbcx -5 (default)",
                 find_row(rows, n, KILN_BLOCK_BC5, KILN_QUALITY_NORMAL, "rgbcx -5", SET_KODAK),
                 -0.3, 10.0);
    size_t same[3] = {0}, compared[3] = {0};
    for (size_t i = 0; i < n; i++) {
        same[rows[i].level] += rows[i].same_bytes;
        compared[rows[i].level] += rows[i].compared;
    }
    printf("  %-44s", "ASTC blocks equal to astcenc's (all sets)");
    if (!compared[0] && !compared[1] && !compared[2]) {
        printf(" not measured\n");
        return;
    }
    bool all = true;
    for (int l = 0; l < 3; l++) {
        if (!compared[l]) continue;
        printf(" %s %zu/%zu", kiln_quality_name((kiln_quality)l), same[l], compared[l]);
        all = all && same[l] == compared[l];
    }
    printf(" images (%s)\n", all ? "met" : "MISSED");
}

/* ---- main ----------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(
        stderr,
        "usage: bench_textures --corpus DIR [--bc7enc PATH|none] [--astcenc PATH|none]\n"
        "                      [--runs N] [--sets kodak,normal,synthetic]\n"
        "                      [--formats bc7,bc1,bc4,bc5,astc4x4] [--levels fast,normal,high]\n");
}

static const char *tool_arg(const char *v) { return strcmp(v, "none") == 0 ? NULL : v; }

int main(int argc, char **argv)
{
    const char *corpus = NULL, *sets = "kodak,normal,synthetic",
               *formats = "bc7,bc1,bc4,bc5,astc4x4", *levels = "fast,normal,high";
    tex_ctx c = {0};
    c.bc7enc = NULL;
    c.astcenc = "astcenc";
    c.runs = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            usage();
            return 2;
        }
        i++;
        if (strcmp(a, "--corpus") == 0) corpus = v;
        else if (strcmp(a, "--bc7enc") == 0) c.bc7enc = tool_arg(v);
        else if (strcmp(a, "--astcenc") == 0) c.astcenc = tool_arg(v);
        else if (strcmp(a, "--runs") == 0) c.runs = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(a, "--sets") == 0) sets = v;
        else if (strcmp(a, "--formats") == 0) formats = v;
        else if (strcmp(a, "--levels") == 0) levels = v;
        else {
            usage();
            return 2;
        }
    }
    if (!corpus || c.runs == 0 || c.runs > TEX_MAX_RUNS || (c.bc7enc && !shell_safe(c.bc7enc)) ||
        (c.astcenc && !shell_safe(c.astcenc))) {
        usage();
        return 2;
    }

    snprintf(c.tmpdir, sizeof c.tmpdir, "%s/kiln-bench-textures.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(c.tmpdir) || !shell_safe(c.tmpdir)) {
        fprintf(stderr, "bench_textures: cannot make a temporary folder: %s\n", strerror(errno));
        return 1;
    }
    kiln_error err = {0};
    for (unsigned ti = 0; ti < 2; ti++) {
        if (kiln_jobs_create(thread_counts[ti], NULL, &c.pools[ti], &err) != KILN_OK) {
            fprintf(stderr, "bench_textures: %s\n", err.message);
            return 1;
        }
    }

    tex_set set_list[SET_COUNT];
    memset(set_list, 0, sizeof set_list);
    for (int s = 0; s < SET_COUNT; s++) {
        tex_set *set = &set_list[s];
        set->name = set_names[s];
        set->normal = s == SET_NORMAL;
        if (!list_has(sets, set->name)) continue;
        char dir[TEX_PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", corpus, set->name);
        bool ok = s == SET_SYNTHETIC ? make_synthetic(c.tmpdir, set) : load_folder(dir, set);
        if (!ok) {
            fprintf(stderr, "bench_textures: set %s: no images; skipped\n", set->name);
            set->count = 0;
        }
        for (size_t i = 0; i < set->count; i++) {
            set->mpix += (double)set->images[i].img.width * set->images[i].img.height / 1e6;
            set->alpha = set->alpha || set->images[i].img.has_alpha;
        }
    }

    printf("bench_textures: kiln %d.%d.%d (pipeline %d) vs bc7enc (%s) and astcenc (%s); best of "
           "%u run%s.\n",
           KILN_VERSION_MAJOR, KILN_VERSION_MINOR, KILN_VERSION_PATCH, KILN_PIPELINE_VERSION,
           c.bc7enc ? c.bc7enc : "not run", c.astcenc ? c.astcenc : "not run", c.runs,
           c.runs == 1 ? "" : "s");
    printf(
        "Quality: every output decoded by kiln's decoders and compared with the same source "
        "texels;\naverage of per-image PSNR (dB), diff = kiln - peer. Speed: Mpix/s on 1 and 2 "
        "threads (1t, 2t),\nratio = kiln / peer; kiln: wall clock of kiln_blocks_encode; peers: "
        "the encode time they print\n(bc7enc \"Total encoding time\", astcenc \"Coding time\").\n");

    tex_row rows[SET_COUNT * KILN_BLOCK_FORMAT_COUNT * 3 * 4];
    size_t nrows = 0;
    peer_cache cache = {0};
    static const kiln_block_format order[] = {KILN_BLOCK_BC7, KILN_BLOCK_BC1, KILN_BLOCK_BC4,
                                              KILN_BLOCK_BC5, KILN_BLOCK_ASTC4X4};
    for (int s = 0; s < SET_COUNT; s++) {
        const tex_set *set = &set_list[s];
        if (!set->count) continue;
        print_header(set);
        for (size_t fi = 0; fi < sizeof order / sizeof order[0]; fi++) {
            kiln_block_format f = order[fi];
            /* One channel says nothing about a normal map's direction. */
            if (!list_has(formats, kiln_block_format_name(f)) ||
                (set->normal && f == KILN_BLOCK_BC4))
                continue;
            for (int l = KILN_QUALITY_FAST; l <= KILN_QUALITY_HIGH; l++) {
                if (!list_has(levels, kiln_quality_name((kiln_quality)l))) continue;
                nrows += bench_level(&c, &cache, (tex_set_id)s, set, f, (kiln_quality)l,
                                     rows + nrows, sizeof rows / sizeof rows[0] - nrows);
            }
        }
    }
    print_targets(rows, nrows);

    for (size_t i = 0; i < cache.count; i++) free(cache.items[i].blocks);
    free(cache.items);
    for (int s = 0; s < SET_COUNT; s++) {
        for (size_t i = 0; i < set_list[s].count; i++) {
            if (s == SET_SYNTHETIC) {
                free(set_list[s].images[i].img.pixels);
                remove(set_list[s].images[i].path);
            } else {
                kiln_image_free(&set_list[s].images[i].img);
            }
        }
        free(set_list[s].images);
    }
    char leftover[TEX_PATH_MAX + 16];
    snprintf(leftover, sizeof leftover, "%s/peer.dds", c.tmpdir);
    remove(leftover);
    snprintf(leftover, sizeof leftover, "%s/peer.astc", c.tmpdir);
    remove(leftover);
    rmdir(c.tmpdir);
    for (unsigned ti = 0; ti < 2; ti++) kiln_jobs_destroy(c.pools[ti]);
    return 0;
}
