/* test_basislz.c — the BasisLZ reader's contract on small files (fuzz/corpus/basislz: basisu-made
 * KTX2 files of synthetic images, repacked as fuzz_basislz.c's input): every target transcodes,
 * RGBA8 and the ETC1 blocks agree, every truncation of the global data and of the level is
 * refused, single-bit flips never crash and keep error codes consistent, a P-frame is refused,
 * every failed allocation is reported without a leak, and threads share one opened file. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "codec/basislz.h"
#include "codec/block_decode.h"

typedef struct seed {
    uint8_t *bytes;
    size_t size;
    uint32_t count, w, h;
    const uint8_t *sgd, *level;
    size_t sgd_size, level_size;
} seed;

static const char *seed_names[] = {"a13x9_mip", "a16x4", "o1x1", "o8x8", "o8x8_mip"};
#define SEED_COUNT (sizeof seed_names / sizeof seed_names[0])

static void load_seed(const char *name, seed *s)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *path = kt_format("%s/fuzz/corpus/basislz/%s", src, name);
    s->bytes = kt_read_file(path, &s->size);
    if (!s->bytes) fail_msg("cannot read %s", path);
    free(path);
    assert_true(s->size > 9);
    s->count = 1u + s->bytes[0] % 4u;
    s->w = 1u + (s->bytes[1] | (uint32_t)s->bytes[2] << 8);
    s->h = 1u + (s->bytes[3] | (uint32_t)s->bytes[4] << 8);
    s->sgd_size = s->bytes[5] | (size_t)s->bytes[6] << 8 | (size_t)s->bytes[7] << 16 |
                  (size_t)s->bytes[8] << 24;
    assert_true(s->sgd_size <= s->size - 9);
    s->sgd = s->bytes + 9;
    s->level = s->sgd + s->sgd_size;
    s->level_size = s->size - 9 - s->sgd_size;
}

static void every_target_transcodes_and_rgba8_matches_etc1(void **state)
{
    (void)state;
    for (size_t i = 0; i < SEED_COUNT; i++) {
        seed s;
        load_seed(seed_names[i], &s);
        kiln_basislz *g = NULL;
        kiln_error err;
        if (kiln_basislz_open(s.sgd, s.sgd_size, s.count, NULL, &g, &err) != KILN_OK)
            fail_msg("%s: %s", seed_names[i], err.message);
        assert_int_equal(kiln_basislz_has_alpha(g), seed_names[i][0] == 'a');
        uint8_t *out[KILN_BASIS_TARGET_COUNT];
        for (int t = 0; t < KILN_BASIS_TARGET_COUNT; t++) {
            size_t n = kiln_basislz_output_size((kiln_basis_target)t, s.w, s.h);
            out[t] = malloc(n);
            kiln_result r = kiln_basislz_transcode(g, 0, s.level, s.level_size, s.w, s.h,
                                                   (kiln_basis_target)t, out[t], n, &err);
            if (r == KILN_E_IMPORT_UNSUPPORTED) continue; /* ASTC: not yet (docs/basis.md) */
            if (r != KILN_OK) fail_msg("%s target %d: %s", seed_names[i], t, err.message);
        }
        uint32_t bw = (s.w + 3) / 4;
        for (uint32_t y = 0; y < s.h; y++) {
            for (uint32_t x = 0; x < s.w; x++) {
                uint8_t px[64], ap[64];
                kiln_etc1_decode_block(out[KILN_BASIS_TARGET_ETC1] + ((y / 4) * bw + x / 4) * 8,
                                       px);
                kiln_etc2_rgba_decode_block(
                    out[KILN_BASIS_TARGET_ETC2_RGBA] + ((y / 4) * bw + x / 4) * 16, ap);
                const uint8_t *p = out[KILN_BASIS_TARGET_RGBA8] + ((size_t)y * s.w + x) * 4;
                const uint8_t *q = px + ((y % 4) * 4 + x % 4) * 4;
                assert_memory_equal(p, q, 3);
                /* ETC2's EAC alpha approximates the alpha slice; opaque files are 255. */
                if (seed_names[i][0] == 'o') {
                    assert_int_equal(p[3], 255);
                    assert_int_equal(ap[((y % 4) * 4 + x % 4) * 4 + 3], 255);
                }
            }
        }
        for (int t = 0; t < KILN_BASIS_TARGET_COUNT; t++) free(out[t]);
        kiln_basislz_close(g, NULL);
        free(s.bytes);
    }
}

static void truncations_are_refused(void **state)
{
    (void)state;
    seed s;
    load_seed("a13x9_mip", &s);
    kiln_error err;
    for (size_t n = 0; n < s.sgd_size; n++) {
        kiln_basislz *g = (kiln_basislz *)&s; /* must be set to NULL on failure */
        kiln_result r = kiln_basislz_open(s.sgd, n, s.count, NULL, &g, &err);
        if (r != KILN_E_FORMAT_INVALID)
            fail_msg("global data cut to %zu of %zu bytes: %d", n, s.sgd_size, (int)r);
        assert_null(g);
    }
    kiln_basislz *g = NULL;
    assert_int_equal(kiln_basislz_open(s.sgd, s.sgd_size, s.count, NULL, &g, &err), KILN_OK);
    size_t n_out = kiln_basislz_output_size(KILN_BASIS_TARGET_RGBA8, s.w, s.h);
    uint8_t *out = malloc(n_out);
    for (size_t n = 0; n < s.level_size; n++) {
        kiln_result r = kiln_basislz_transcode(g, 0, s.level, n, s.w, s.h, KILN_BASIS_TARGET_RGBA8,
                                               out, n_out, &err);
        if (r == KILN_OK) fail_msg("level cut to %zu of %zu bytes was read", n, s.level_size);
        assert_int_equal(r, KILN_E_FORMAT_INVALID);
    }
    /* Too small an output and a bad image index are the caller's mistakes. */
    assert_int_equal(kiln_basislz_transcode(g, 0, s.level, s.level_size, s.w, s.h,
                                            KILN_BASIS_TARGET_RGBA8, out, n_out - 1, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_basislz_transcode(g, s.count, s.level, s.level_size, s.w, s.h,
                                            KILN_BASIS_TARGET_RGBA8, out, n_out, &err),
                     KILN_E_USAGE);
    free(out);
    kiln_basislz_close(g, NULL);
    free(s.bytes);
}

static void bit_flips_never_crash(void **state)
{
    (void)state;
    seed s;
    load_seed("a16x4", &s);
    size_t refused = 0, read = 0;
    for (size_t bit = 0; bit < s.size * 8; bit++) {
        if (bit < 72) continue; /* the fuzz header, not the file */
        s.bytes[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        kiln_basislz *g = NULL;
        kiln_error err;
        kiln_result r = kiln_basislz_open(s.sgd, s.sgd_size, s.count, NULL, &g, &err);
        if (r == KILN_OK) {
            for (int t = 0; t < KILN_BASIS_TARGET_COUNT; t++) {
                size_t n = kiln_basislz_output_size((kiln_basis_target)t, s.w, s.h);
                uint8_t *out = malloc(n);
                r = kiln_basislz_transcode(g, 0, s.level, s.level_size, s.w, s.h,
                                           (kiln_basis_target)t, out, n, &err);
                if (r != KILN_OK) assert_int_equal(err.code, r);
                if (t == 0) r == KILN_OK ? read++ : refused++;
                free(out);
            }
            kiln_basislz_close(g, NULL);
        } else {
            assert_int_equal(err.code, r);
            assert_null(g);
            refused++;
        }
        s.bytes[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    print_message("single-bit flips: %zu refused, %zu read\n", refused, read);
    assert_true(refused > 0 && read > 0);
    free(s.bytes);
}

static void p_frames_are_refused(void **state)
{
    (void)state;
    seed s;
    load_seed("o8x8", &s);
    s.bytes[9 + 20] |= 0x02; /* image 0's flags: P-frame */
    kiln_basislz *g = NULL;
    kiln_error err;
    assert_int_equal(kiln_basislz_open(s.sgd, s.sgd_size, s.count, NULL, &g, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "P-frame"));
    free(s.bytes);
}

typedef struct fail_alloc {
    int left, live;
} fail_alloc;

static void *fa_alloc(void *user, size_t size, size_t align)
{
    (void)align;
    fail_alloc *f = user;
    if (f->left-- <= 0) return NULL;
    f->live++;
    return malloc(size);
}

static void fa_free(void *user, void *ptr, size_t size)
{
    (void)size;
    fail_alloc *f = user;
    if (ptr) f->live--;
    free(ptr);
}

static void every_failed_allocation_is_reported(void **state)
{
    (void)state;
    seed s;
    load_seed("a13x9_mip", &s);
    int n = 0;
    for (;; n++) {
        fail_alloc f = {n, 0};
        kiln_allocator al = {fa_alloc, NULL, fa_free, &f};
        kiln_basislz *g = NULL;
        kiln_error err;
        kiln_result r = kiln_basislz_open(s.sgd, s.sgd_size, s.count, &al, &g, &err);
        if (r == KILN_OK) {
            kiln_basislz_close(g, &al);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    assert_true(n >= 5); /* object, codebooks, images, Huffman tables */
    free(s.bytes);
}

typedef struct job {
    const kiln_basislz *g;
    const seed *s;
    uint8_t *out;
    size_t size;
    kiln_result r;
} job;

static void *run_job(void *p)
{
    job *j = p;
    kiln_error err;
    for (int i = 0; i < 50 && j->r == KILN_OK; i++)
        j->r = kiln_basislz_transcode(j->g, 0, j->s->level, j->s->level_size, j->s->w, j->s->h,
                                      KILN_BASIS_TARGET_BC7, j->out, j->size, &err);
    return NULL;
}

static void threads_share_one_opened_file(void **state)
{
    (void)state;
    seed s;
    load_seed("a13x9_mip", &s);
    kiln_basislz *g = NULL;
    kiln_error err;
    assert_int_equal(kiln_basislz_open(s.sgd, s.sgd_size, s.count, NULL, &g, &err), KILN_OK);
    size_t n = kiln_basislz_output_size(KILN_BASIS_TARGET_BC7, s.w, s.h);
    job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (job){g, &s, malloc(n), n, KILN_OK};
        assert_int_equal(pthread_create(&th[i], NULL, run_job, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].r, KILN_OK);
        assert_memory_equal(jobs[i].out, jobs[0].out, n);
    }
    for (int i = 0; i < 4; i++) free(jobs[i].out);
    kiln_basislz_close(g, NULL);
    free(s.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_target_transcodes_and_rgba8_matches_etc1),
        cmocka_unit_test(truncations_are_refused),
        cmocka_unit_test(bit_flips_never_crash),
        cmocka_unit_test(p_frames_are_refused),
        cmocka_unit_test(every_failed_allocation_is_reported),
        cmocka_unit_test(threads_share_one_opened_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
