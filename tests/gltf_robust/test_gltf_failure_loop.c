/* test_gltf_failure_loop.c — failure loops over small third-party glTF files (the corpus, read
 * in place, never copied into the repository): every truncation (for GLBs also with the header
 * and last chunk lengths patched to the cut, so the chunk and buffer code runs, not only the
 * header check), byte flips with several XOR masks (every byte of files under 4 KiB, a fixed
 * sample of 4096 positions of larger ones), and the Nth allocation failed for every N.
 *
 * Each load must give a documented code or a scene that keeps every invariant of kiln_scene.h;
 * a failed allocation must give KILN_E_OUT_OF_MEMORY; nothing may stay allocated afterwards
 * (robust_load.h); no load may take a second. Under the sanitizers (KILN_TEST_SANITIZED=1)
 * truncations and flips are sampled more sparsely to stay within a minute. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust_load.h"

typedef struct sample_file {
    const char *rel;       /* under the corpus */
    const char *companion; /* a file the model reads from its folder, or NULL */
} sample_file;

static const sample_file samples[] = {
    {"gltf/Box/glTF-Binary/Box.glb", NULL},
    {"gltf/BoxTextured/glTF-Binary/BoxTextured.glb", NULL},
    {"gltf/SimpleSparseAccessor/glTF-Embedded/SimpleSparseAccessor.gltf", NULL},
    {"gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", NULL},
    {"gltf/Pirate-meshopt/glTF-Binary/pirate.glb", NULL},
    {"gltf/Box/glTF-Draco/Box.gltf", "Box.bin"},
};

static const uint8_t masks[] = {0x01, 0x10, 0x80, 0xFF};

static bool sanitized(void)
{
    const char *s = getenv("KILN_TEST_SANITIZED");
    return s && strcmp(s, "1") == 0;
}

/* What one file's loops saw. */
typedef struct tally {
    const char *file;
    size_t loads, ok, problems;
    size_t by_code[16];
    double slowest;
} tally;

static void run(tally *t, const void *data, size_t size, const char *base_dir, uint32_t flags,
                size_t fail_at, const char *what, size_t where)
{
    kt_load l;
    memset(&l, 0, sizeof l);
    l.base_dir = base_dir;
    l.flags = flags;
    l.fail_at = fail_at;
    kt_load_run(&l, data, size);
    t->loads++;
    if (l.code == KILN_OK) t->ok++;
    if ((unsigned)l.code < 16) t->by_code[l.code]++;
    if (l.seconds > t->slowest) t->slowest = l.seconds;
    double budget = sanitized() ? 10.0 : 1.0;
    if (l.problem || l.seconds > budget) {
        if (t->problems++ < 20)
            print_error("%s: %s %zu: %s (%s: %s, %.2f s)\n", t->file, what, where,
                        l.problem ? l.problem : "too slow", kiln_result_name(l.code), l.err.message,
                        l.seconds);
    }
}

static bool is_glb(const uint8_t *d, size_t n) { return n >= 12 && memcmp(d, "glTF", 4) == 0; }

static void put_u32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16),
    b[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* A GLB cut to len bytes with the header length and the length of the chunk the cut falls in
 * made to agree with it (when the cut leaves that chunk's 8-byte header whole). */
static void patch_glb_cut(uint8_t *d, size_t len)
{
    if (len < 12) return;
    put_u32(d + 8, (uint32_t)len);
    size_t at = 12;
    while (at + 8 <= len) {
        size_t body = get_u32(d + at);
        if (body > len - at - 8) {
            put_u32(d + at, (uint32_t)(len - at - 8));
            return;
        }
        at += 8 + ((body + 3) & ~(size_t)3);
    }
}

/* Positions to flip: all of a small file, else a fixed spread of `count` positions. */
static size_t flip_position(size_t i, size_t size, size_t count)
{
    if (size <= count) return i;
    uint64_t x = 0x9E3779B97F4A7C15ull * (i + 1); /* a fixed jitter within each stride */
    x ^= x >> 29;
    size_t stride = size / count;
    return i * stride + (size_t)(x % stride);
}

static void loop_file(const sample_file *sf, tally *t)
{
    char *path = kt_corpus_path(sf->rel);
    size_t size;
    uint8_t *orig = kt_read_file(path, &size);
    if (!orig) fail_msg("cannot read %s", path);
    t->file = sf->rel;

    /* Files the model reads live in a temporary copy of its folder; the model itself is loaded
     * from memory with that folder as base, so its bytes can be damaged freely. */
    char *dir = NULL, *companion = NULL, *companion_src = NULL;
    uint8_t *comp = NULL;
    size_t comp_size = 0;
    if (sf->companion) {
        dir = kt_tempdir("gltf-loop");
        companion = kt_format("%s/%s", dir, sf->companion);
        char *slash = strrchr(path, '/');
        companion_src = kt_format("%.*s/%s", (int)(slash - path), path, sf->companion);
        comp = kt_read_file(companion_src, &comp_size);
        assert_non_null(comp);
        kt_write_file(companion, comp, comp_size);
    }

    /* The file loads as it is, with and without pixels; K allocations. */
    kt_load l;
    memset(&l, 0, sizeof l);
    l.base_dir = dir;
    kt_load_run(&l, orig, size);
    if (l.code != KILN_OK || l.problem)
        fail_msg("%s does not load: %s %s", sf->rel, kiln_result_name(l.code),
                 l.problem ? l.problem : l.err.message);
    size_t calls = l.calls;
    l.flags = KILN_SCENE_LOAD_NO_PIXELS;
    kt_load_run(&l, orig, size);
    assert_int_equal(l.code, KILN_OK);
    size_t calls_no_pixels = l.calls;

    bool san = sanitized();
    uint8_t *d = malloc(size ? size : 1);
    assert_non_null(d);

    /* Every N-th allocation failed. */
    for (size_t n = 1; n <= calls; n++) run(t, orig, size, dir, 0, n, "fail allocation", n);
    for (size_t n = 1; n <= calls_no_pixels; n++)
        run(t, orig, size, dir, KILN_SCENE_LOAD_NO_PIXELS, n, "fail allocation (no pixels)", n);

    /* Every truncation (each length; sanitized: every 3rd, plus the last 64). The copy is
     * exact-size so reads past the cut are caught by ASan. */
    size_t step = san && size > 2048 ? 3 : 1;
    for (size_t len = 0; len < size; len++) {
        if (step > 1 && len % step && len + 64 < size) continue;
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, orig, len);
        run(t, cut, len, dir, 0, 0, "cut at", len);
        if (is_glb(orig, size) && len >= 12) {
            patch_glb_cut(cut, len);
            run(t, cut, len, dir, 0, 0, "cut (lengths patched) at", len);
        }
        free(cut);
    }

    /* Byte flips. */
    size_t positions = size < 4096 ? size : san ? 1024 : 4096;
    for (size_t i = 0; i < positions; i++) {
        size_t p = flip_position(i, size, positions);
        for (size_t m = 0; m < sizeof masks; m++) {
            memcpy(d, orig, size);
            d[p] ^= masks[m];
            run(t, d, size, dir, 0, 0, "flip at", p);
        }
    }

    /* The companion file damaged the same ways (cut at every length, every byte flipped). */
    if (comp) {
        for (size_t len = 0; len < comp_size; len++) {
            kt_write_file(companion, comp, len);
            run(t, orig, size, dir, 0, 0, "companion cut at", len);
        }
        uint8_t *cd = malloc(comp_size);
        for (size_t p = 0; p < comp_size; p++)
            for (size_t m = 0; m < sizeof masks; m++) {
                memcpy(cd, comp, comp_size);
                cd[p] ^= masks[m];
                kt_write_file(companion, cd, comp_size);
                run(t, orig, size, dir, 0, 0, "companion flip at", p);
            }
        free(cd);
        kt_rmtree(dir);
    }

    free(d);
    free(orig);
    free(path);
    free(dir), free(companion), free(companion_src), free(comp);
}

static void corpus_files_survive_cuts_flips_and_failed_allocations(void **state)
{
    (void)state;
    kt_require_corpus();
    size_t problems = 0;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        tally t;
        memset(&t, 0, sizeof t);
        double t0 = kt_now();
        loop_file(&samples[i], &t);
        printf("[ LOOP     ] %-66s %6zu loads %5zu ok  import_failed %zu unsupported %zu "
               "oom %zu limit %zu io %zu refused %zu  slowest %.1f ms  %.1f s\n",
               t.file, t.loads, t.ok, t.by_code[KILN_E_IMPORT_FAILED],
               t.by_code[KILN_E_IMPORT_UNSUPPORTED], t.by_code[KILN_E_OUT_OF_MEMORY],
               t.by_code[KILN_E_LIMIT], t.by_code[KILN_E_ASSET_IO],
               t.by_code[KILN_E_OUTPUT_REFUSED], t.slowest * 1e3, kt_now() - t0);
        problems += t.problems;
    }
    assert_int_equal(problems, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_files_survive_cuts_flips_and_failed_allocations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
