/* test_golden_images.c — golden images (docs/rendering.md "Golden images"): the cases of
 * tests/golden/cases.txt are drawn by `kiln thumbnail` headless (lavapipe on a machine without a
 * GPU), under the validation layer (KILN_VULKAN_VALIDATION=1: any message fails the command),
 * and compared with the stored PNGs of tests/golden/images/ by a perceptual measure (CIELAB ΔE
 * after a 3x3 blur: mean and 99th percentile, golden_measure.h). Textures are also checked
 * against the same picture computed on the CPU from the cooked level (golden_reference.h), so a
 * golden image cannot be stored wrong unnoticed. A failing comparison leaves the picture drawn
 * and a ΔE map in $KILN_BINARY_DIR/tests/golden/out/ (named in the failure);
 * KILN_GOLDEN_UPDATE=1 (`make golden-update`) writes the pictures drawn into
 * tests/golden/images/ instead, for review. `fewer` lines check the triangle counts the command
 * printed fall along a list of cases (a virtual geometry's cut moved away). Skipped (77) without
 * Vulkan or the corpus. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <spng.h>

#include "golden_measure.h"
#include "golden_reference.h"
#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"
#include "kv.h"
#include "render_fixture.h"
#include "support.h"

#define MAX_CASES 96
#define MAX_ARGS  16

/* One line of cases.txt. */
typedef struct golden_line {
    enum { LINE_ASSET, LINE_THUMB, LINE_APART, LINE_FEWER } kind;
    char *words[MAX_ARGS]; /* asset: NAME SOURCE CROP; thumb: GOLDEN ARGS...; apart: A B;
                            * fewer: GOLDEN GOLDEN... */
    int word_count;
    char *json; /* asset: the .meta "import" object (the rest of the line) */
} golden_line;

typedef struct golden_cases {
    golden_line lines[MAX_CASES];
    int count;
    char *text;
} golden_cases;

static void read_cases(golden_cases *g)
{
    char *path = kt_format("%s/tests/golden/cases.txt", getenv("KILN_SOURCE_DIR"));
    size_t size = 0;
    g->text = kt_read_file(path, &size);
    if (!g->text) fail_msg("cannot read %s", path);
    free(path);
    g->count = 0;
    for (char *line = strtok(g->text, "\n"); line; line = strtok(NULL, "\n")) {
        while (*line == ' ') line++;
        if (!*line || *line == '#') continue;
        assert_true(g->count < MAX_CASES);
        golden_line *l = &g->lines[g->count++];
        memset(l, 0, sizeof *l);
        char *json = strchr(line, '{');
        if (json) json[-1] = '\0';
        l->json = json;
        for (char *w = line, *end; *w; w = end) {
            while (*w == ' ') w++;
            if (!*w) break;
            end = w + strcspn(w, " ");
            if (*end) *end++ = '\0';
            assert_true(l->word_count < MAX_ARGS);
            l->words[l->word_count++] = w;
        }
        const char *k = l->words[0];
        l->kind = !strcmp(k, "asset")   ? LINE_ASSET
                  : !strcmp(k, "thumb") ? LINE_THUMB
                  : !strcmp(k, "fewer") ? LINE_FEWER
                                        : LINE_APART;
        if (l->kind == LINE_APART && strcmp(k, "apart") != 0) fail_msg("cases.txt: '%s'?", k);
        if (l->kind == LINE_FEWER && l->word_count < 3) fail_msg("cases.txt: fewer A B...");
        if (l->kind == LINE_ASSET && (l->word_count != 4 || !json))
            fail_msg("cases.txt: asset NAME SOURCE CROP {import settings}");
        if (l->kind == LINE_THUMB && l->word_count < 3) fail_msg("cases.txt: thumb GOLDEN ARGS");
        if (l->kind == LINE_APART && l->word_count != 3) fail_msg("cases.txt: apart A B");
    }
}

/* A PNG as RGB8 (w, h out); NULL when it cannot be read. */
static uint8_t *read_png_rgb(const char *path, uint32_t *w, uint32_t *h)
{
    size_t size = 0;
    void *png = kt_read_file(path, &size);
    if (!png) return NULL;
    spng_ctx *s = spng_ctx_new(0);
    struct spng_ihdr ihdr;
    size_t n = 0;
    uint8_t *rgb = NULL;
    if (!spng_set_png_buffer(s, png, size) && !spng_get_ihdr(s, &ihdr) &&
        !spng_decoded_image_size(s, SPNG_FMT_RGB8, &n) && (rgb = malloc(n)) &&
        !spng_decode_image(s, rgb, n, SPNG_FMT_RGB8, 0)) {
        *w = ihdr.width;
        *h = ihdr.height;
    } else {
        free(rgb);
        rgb = NULL;
    }
    spng_ctx_free(s);
    free(png);
    return rgb;
}

/* A deterministic RGBA picture with alpha from 0 to 255 and colour (for the checkerboard). */
static uint8_t *synthetic_alpha(uint32_t size)
{
    uint8_t *p = malloc((size_t)size * size * 4);
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            uint8_t *o = p + ((size_t)y * size + x) * 4;
            float dx = (float)x - size / 2.0f, dy = (float)y - size / 2.0f;
            bool ring = sqrtf(dx * dx + dy * dy) < size * 0.3f;
            o[0] = (uint8_t)(x * 255 / (size - 1));
            o[1] = ring ? 200 : 40;
            o[2] = (uint8_t)(y * 255 / (size - 1));
            o[3] = ring ? 255 : (uint8_t)(x * 255 / (size - 1));
        }
    return p;
}

/* Writes the source of an asset line into dir/assets/NAME with its .meta. */
static void write_asset(const char *dir, const golden_line *l)
{
    const char *name = l->words[1], *source = l->words[2], *crop = l->words[3];
    char *file = kt_format("%s/assets/%s", dir, name);
    if (!strcmp(source, "synthetic:alpha")) {
        uint8_t *p = synthetic_alpha(128);
        kt_write_png(file, p, 128, 128, 4);
        free(p);
    } else if (!strcmp(crop, "-")) {
        char *src = kt_corpus_path(source);
        size_t size = 0;
        void *bytes = kt_read_file(src, &size);
        if (!bytes) fail_msg("cannot read %s", src);
        kt_write_file(file, bytes, size);
        free(bytes);
        size_t n = strlen(src);
        if (n > 5 && !strcmp(src + n - 5, ".gltf")) { /* its buffers beside it (not its images) */
            char *cp = kt_format("cp \"$(dirname '%s')\"/*.bin '%s/assets/'", src, dir);
            if (kt_run(cp, NULL) != 0) fail_msg("%s failed", cp);
            free(cp);
        }
        free(src);
    } else {
        uint32_t x, y, w, h;
        if (sscanf(crop, "%u,%u,%u,%u", &x, &y, &w, &h) != 4) fail_msg("crop %s?", crop);
        char *src = kt_corpus_path(source);
        size_t size = 0;
        void *png = kt_read_file(src, &size);
        if (!png) fail_msg("cannot read %s", src);
        spng_ctx *s = spng_ctx_new(0);
        struct spng_ihdr ihdr;
        size_t n = 0;
        assert_int_equal(spng_set_png_buffer(s, png, size), 0);
        assert_int_equal(spng_get_ihdr(s, &ihdr), 0);
        assert_int_equal(spng_decoded_image_size(s, SPNG_FMT_RGBA8, &n), 0);
        uint8_t *full = malloc(n), *part = malloc((size_t)w * h * 4);
        assert_int_equal(spng_decode_image(s, full, n, SPNG_FMT_RGBA8, 0), 0);
        assert_true(x + w <= ihdr.width && y + h <= ihdr.height);
        for (uint32_t r = 0; r < h; r++)
            memcpy(part + (size_t)r * w * 4, full + ((size_t)(y + r) * ihdr.width + x) * 4,
                   (size_t)w * 4);
        kt_write_png(file, part, w, h, 4);
        spng_ctx_free(s);
        free(full);
        free(part);
        free(png);
        free(src);
    }
    char *meta = kt_format("%s.meta", file);
    char *text = kt_format("{\"import\": %s}", l->json);
    kt_write_file(meta, text, strlen(text));
    free(text);
    free(meta);
    free(file);
}

/* The value of option `name` among a thumb line's arguments, or def. */
static const char *option(const golden_line *l, const char *name, const char *def)
{
    for (int i = 3; i + 1 < l->word_count; i++)
        if (!strcmp(l->words[i], name)) return l->words[i + 1];
    return def;
}

/* The CPU's picture of a texture case, compared with what was drawn (PSNR over RGB). */
static double check_reference(krt_context *rt, const golden_line *l, const uint8_t *drawn,
                              uint32_t w, uint32_t h)
{
    kiln_error err;
    krt_handle t = krt_load_texture(rt, l->words[2], &err);
    if (!t.id) fail_msg("%s: %s", l->words[2], err.message);
    krt_finish(rt);
    krt_texture_data d;
    if (krt_get_texture(rt, t, &d, &err)) fail_msg("%s: %s", l->words[2], err.message);
    uint32_t level = (uint32_t)atoi(option(l, "--level", "0"));
    /* a face, layer or slice: the level seen as that one image */
    uint32_t layer = (uint32_t)atoi(option(l, "--layer", "0"));
    assert_true(level < d.level_count);
    assert_true((size_t)(layer + 1) * d.levels[level].image_size <= d.levels[level].size);
    d.levels[level].data += (size_t)layer * d.levels[level].image_size;
    d.levels[level].size = d.levels[level].image_size;
    uint8_t *want = golden_reference(&d, d.vk_format, level, w, h);
    assert_non_null(want);
    double se = 0;
    for (size_t i = 0; i < (size_t)w * h * 3; i++) {
        double e = (double)drawn[i] - (double)want[i];
        se += e * e;
    }
    free(want);
    krt_release(rt, t, NULL);
    return se == 0 ? INFINITY : 10.0 * log10(255.0 * 255.0 / (se / ((double)w * h * 3)));
}

/* The triangle count `kiln thumbnail` printed ("..., 1964 triangles ..."), or -1. */
static long long triangles_said(const char *said)
{
    const char *p = said ? strstr(said, " triangles") : NULL;
    if (!p) return -1;
    const char *q = p;
    while (q > said && q[-1] >= '0' && q[-1] <= '9') q--;
    return q < p ? strtoll(q, NULL, 10) : -1;
}

/* The index of the thumb line drawing GOLDEN, or -1. */
static int thumb_line(const golden_cases *g, const char *golden)
{
    for (int i = 0; i < g->count; i++)
        if (g->lines[i].kind == LINE_THUMB && !strcmp(g->lines[i].words[1], golden)) return i;
    return -1;
}

static void test_golden_images(void **state)
{
    (void)state;
    kt_require_corpus();
    kv_context *probe = render_context_or_skip(); /* skip (77) without Vulkan */
    kv_context_destroy(probe);
    const char *src = getenv("KILN_SOURCE_DIR"), *bin = getenv("KILN_BINARY_DIR");
    const char *update = getenv("KILN_GOLDEN_UPDATE");
    bool updating = update && !strcmp(update, "1");

    golden_cases g;
    read_cases(&g);
    char *dir = kt_tempdir("golden");
    for (int i = 0; i < g.count; i++)
        if (g.lines[i].kind == LINE_ASSET) write_asset(dir, &g.lines[i]);
    kt_import_all(dir);

    /* The cooked levels, as the CPU reference reads them (no renderer: not transcoded). */
    krt_context *rt = NULL;
    kiln_error err;
    assert_int_equal(krt_create(NULL, &rt, &err), KILN_OK);
    char *cache = kt_format("%s/.kiln/cache", dir);
    assert_int_equal(krt_mount_cache(rt, cache, NULL, &err), KILN_OK);

    char *out = kt_format("%s/tests/golden/out", bin);
    char *mk = kt_format("mkdir -p '%s'", out);
    assert_int_equal(kt_run(mk, NULL), 0);
    free(mk);
    int failed = 0, drawn_count = 0;
    long long triangles[MAX_CASES]; /* per thumb line: what it said it drew, -1 unknown */
    for (int i = 0; i < MAX_CASES; i++) triangles[i] = -1;
    for (int i = 0; i < g.count; i++) {
        const golden_line *l = &g.lines[i];
        if (l->kind != LINE_THUMB) continue;
        const char *golden = l->words[1];
        char *actual = kt_format("%s/%s", out, golden);
        char *args = kt_format("%s", "");
        for (int a = 2; a < l->word_count; a++) {
            char *more = kt_format("%s '%s'", args, l->words[a]);
            free(args);
            args = more;
        }
        char *cmd = kt_format("cd '%s' && KILN_VULKAN_VALIDATION=1 '%s' thumbnail%s -o '%s' 2>&1",
                              dir, getenv("KILN_EXE"), args, actual);
        char *said = NULL;
        int rc = kt_run(cmd, &said);
        if (rc != 0) fail_msg("%s: exit %d:\n%s", cmd, rc, said ? said : "");
        triangles[i] = triangles_said(said);
        free(said);
        free(cmd);
        free(args);
        drawn_count++;
        uint32_t w = 0, h = 0, gw = 0, gh = 0;
        uint8_t *drawn = read_png_rgb(actual, &w, &h);
        assert_non_null(drawn);
        /* Textures: against the CPU's picture of the cooked level. */
        if (strstr(l->words[2], "#texture") || strstr(l->words[2], "#specular") ||
            strstr(l->words[2], "#irradiance") || strstr(l->words[2], "#brdf")) {
            double db = check_reference(rt, l, drawn, w, h);
            printf("%-28s %ux%u, %6.2f dB to the CPU's picture\n", golden, w, h, db);
            if (!(db >= 50.0)) {
                printf("FAIL %s: the drawn picture is %.2f dB from the CPU's (>= 50)\n", golden,
                       db);
                failed++;
            }
        }
        char *stored = kt_format("%s/tests/golden/images/%s", src, golden);
        if (updating) {
            size_t size = 0;
            void *png = kt_read_file(actual, &size);
            kt_write_file(stored, png, size);
            free(png);
            printf("golden: wrote %s\n", stored);
        } else {
            uint8_t *want = read_png_rgb(stored, &gw, &gh);
            if (!want) {
                printf("FAIL %s: missing (run `make golden-update` and review)\n", stored);
                failed++;
            } else if (gw != w || gh != h) {
                printf("FAIL %s: %ux%u drawn, %ux%u stored\n", golden, w, h, gw, gh);
                failed++;
            } else {
                float *map = malloc((size_t)w * h * sizeof *map);
                golden_delta d;
                assert_int_equal(golden_delta_e(drawn, want, w, h, map, &d), 0);
                bool ok = golden_within(&d);
                printf("%-28s ΔE mean %.3f, p99 %.3f, max %.3f%s\n", golden, d.mean, d.p99, d.max,
                       ok ? "" : "  FAIL");
                if (!ok) {
                    uint8_t *pic = malloc((size_t)w * h * 3);
                    golden_diff_picture(map, w, h, pic);
                    char *diff = kt_format("%s/%s.diff.png", out, golden);
                    kt_write_png(diff, pic, w, h, 3);
                    printf("FAIL %s: ΔE mean %.3f (<= %.1f), p99 %.3f (<= %.1f); drawn: %s, "
                           "ΔE map: %s\n",
                           golden, d.mean, GOLDEN_MAX_MEAN_DE, d.p99, GOLDEN_MAX_P99_DE, actual,
                           diff);
                    free(diff);
                    free(pic);
                    failed++;
                }
                free(map);
            }
            free(want);
        }
        free(stored);
        free(drawn);
        free(actual);
    }
    /* The tolerance is tight enough to tell these stored pictures apart. */
    for (int i = 0; i < g.count && !updating; i++) {
        const golden_line *l = &g.lines[i];
        if (l->kind != LINE_APART) continue;
        char *a = kt_format("%s/tests/golden/images/%s", src, l->words[1]);
        char *b = kt_format("%s/tests/golden/images/%s", src, l->words[2]);
        uint32_t aw, ah, bw, bh;
        uint8_t *pa = read_png_rgb(a, &aw, &ah), *pb = read_png_rgb(b, &bw, &bh);
        assert_non_null(pa);
        assert_non_null(pb);
        assert_true(aw == bw && ah == bh);
        golden_delta d;
        assert_int_equal(golden_delta_e(pa, pb, aw, ah, NULL, &d), 0);
        printf("apart %s / %s: ΔE mean %.3f, p99 %.3f\n", l->words[1], l->words[2], d.mean, d.p99);
        if (golden_within(&d)) {
            printf("FAIL the tolerance does not tell %s from %s\n", l->words[1], l->words[2]);
            failed++;
        }
        free(pa);
        free(pb);
        free(a);
        free(b);
    }
    /* Triangle counts that must fall along a line (a cut farther away, say). */
    for (int i = 0; i < g.count; i++) {
        const golden_line *l = &g.lines[i];
        if (l->kind != LINE_FEWER) continue;
        long long before = -1;
        for (int w = 1; w < l->word_count; w++) {
            int at = thumb_line(&g, l->words[w]);
            if (at < 0) fail_msg("cases.txt: fewer: no thumb line %s", l->words[w]);
            long long n = triangles[at];
            if (n < 0) fail_msg("%s: its line says no triangle count", l->words[w]);
            printf("fewer %-26s %lld triangles\n", l->words[w], n);
            if (w > 1 && !(n < before)) {
                printf("FAIL %s draws %lld triangles, not fewer than %s's %lld\n", l->words[w], n,
                       l->words[w - 1], before);
                failed++;
            }
            before = n;
        }
    }
    krt_destroy(rt);
    free(cache);
    free(out);
    kt_rmtree(dir);
    free(dir);
    free(g.text);
    assert_true(drawn_count > 0);
    if (failed) fail_msg("%d golden image check(s) failed (above)", failed);
}

int main(void)
{
    render_pin_drivers();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_images),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
