/* test_bc6h.c — kiln's BC6H decoder and encoder: the mode layouts against the specification's
 * field widths, hand-built blocks whose texels were worked out from the Khronos Data Format
 * Specification's formulas (unsigned and signed, an untransformed and a transformed mode, the
 * signed format's accidental -infinity), reserved modes, every mode's random bit patterns
 * decoding to valid halves, constant blocks round-tripping exactly, log-space error bounds on a
 * synthetic picture and the corpus sky, negative values, and determinism across thread counts.
 * Bit-exactness against an independent decoder is tests/verify (Mesa). */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/bc6h_tables.h"
#include "codec/half_float.h"
#include "codec/hdr_decode.h"
#include "core/jobs.h"
#include "import/image.h"
#include "process/block.h"
#include "process/half.h"

/* ---- helpers ---------------------------------------------------------------------------- */

typedef struct tw {
    uint8_t b[16];
    unsigned pos;
} tw;

/* Writes n bits of v LSB first, as the specification lays out block fields. */
static void tw_put(tw *w, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, w->pos++)
        if ((v >> i) & 1u) w->b[w->pos >> 3] |= (uint8_t)(1u << (w->pos & 7));
}

/* Writes bits hi down to lo of v, the first written bit being v's bit hi (the spec's reversed
 * fields, such as R0^10..15 in mode 15). */
static void tw_put_reversed(tw *w, uint32_t v, unsigned hi, unsigned lo)
{
    for (unsigned b = hi + 1; b-- > lo;) tw_put(w, v >> b & 1u, 1);
}

static uint64_t rng_next(uint64_t *s)
{ /* xorshift64*: fixed seeds, same everywhere */
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* log2-RMSE of RGB with e = 2^-8, as bench/bench_hdr.c measures (values clamped to >= 0). */
static double log2_rmse(const uint16_t *src, const uint16_t *dec, size_t texels)
{
    double sum = 0;
    for (size_t i = 0; i < texels; i++)
        for (int c = 0; c < 3; c++) {
            double s = kiln_half_to_float(src[4 * i + c]), d = kiln_half_to_float(dec[4 * i + c]);
            s = s > 0 ? s : 0;
            d = d > 0 ? d : 0;
            double e = log2(d + 1.0 / 256) - log2(s + 1.0 / 256);
            sum += e * e;
        }
    return sqrt(sum / (double)(texels * 3));
}

/* A w x h synthetic HDR picture: smooth exponential ramps over 2^-10 .. 2^12, a checker of
 * hard edges between 0.05 and 200, a hue sweep; negative blue where `negative` is set. */
static uint16_t *synthetic(uint32_t w, uint32_t h, bool negative)
{
    uint16_t *p = malloc((size_t)w * h * 8);
    assert_non_null(p);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float r = exp2f((float)x / (float)w * 22.0f - 10.0f);
            float g = ((x / 8 + y / 8) & 1) ? 200.0f : 0.05f;
            float b = 1.0f + 0.9f * sinf((float)(x + 2 * y) * 0.15f);
            if (y >= h / 2) g = exp2f((float)y / (float)h * 8.0f - 4.0f) * (1.0f + r * 0.01f);
            if (negative && ((x / 16 + y / 16) & 1)) b = -b * 3.0f;
            uint16_t *t = p + ((size_t)y * w + x) * 4;
            t[0] = kiln_half_from_float_sat(r);
            t[1] = kiln_half_from_float_sat(g);
            t[2] = kiln_half_from_float_sat(b);
            t[3] = KILN_HALF_ONE;
        }
    return p;
}

static uint8_t *encode(kiln_block_format f, const uint16_t *half, uint32_t w, uint32_t h,
                       kiln_quality q, kiln_jobs *jobs, size_t *size)
{
    assert_true(kiln_blocks_size(f, w, h, size));
    uint8_t *blocks = malloc(*size);
    assert_non_null(blocks);
    kiln_block_opts o = {q, false, false};
    kiln_error err;
    kiln_result r = kiln_blocks_encode(f, (const uint8_t *)half, w, h, (size_t)w * 8, &o, jobs,
                                       blocks, *size, &err);
    if (r != KILN_OK) fail_msg("encode: %s", err.message);
    return blocks;
}

static uint16_t *decode(kiln_block_format f, const uint8_t *blocks, size_t size, uint32_t w,
                        uint32_t h)
{
    uint16_t *dec = malloc((size_t)w * h * 8);
    assert_non_null(dec);
    kiln_error err;
    assert_int_equal(kiln_blocks_decode_half(f, blocks, size, w, h, dec, &err), KILN_OK);
    return dec;
}

/* ---- the tables ------------------------------------------------------------------------- */

/* Every mode's runs write each bit of each field exactly once: endpoint 0 has the mode's
 * endpoint bits, the others their delta bits (or the endpoint bits when not transformed), the
 * partition 5 bits in two-subset modes; mode bits + runs = 82 (two subsets) or 65 (one). */
static void bc6h_mode_layouts_fill_every_field_bit_once(void **state)
{
    (void)state;
    for (int mi = 0; mi < KILN_BC6H_MODE_COUNT; mi++) {
        const kiln_bc6h_mode *m = &kiln_bc6h_modes[mi];
        uint32_t seen[KILN_BC6H_FIELDS] = {0};
        unsigned total = m->code_bits;
        for (unsigned r = 0; r < m->run_count; r++) {
            const kiln_bc6h_run *run = &m->runs[r];
            unsigned lo = run->first < run->last ? run->first : run->last;
            unsigned hi = run->first < run->last ? run->last : run->first;
            for (unsigned b = lo; b <= hi; b++) {
                assert_int_equal(seen[run->field] >> b & 1u, 0);
                seen[run->field] |= 1u << b;
                total++;
            }
        }
        assert_int_equal(total, m->subsets == 2 ? 82 : 65);
        for (unsigned e = 0; e < 4; e++)
            for (unsigned c = 0; c < 3; c++) {
                unsigned bits = e >= 2u * m->subsets        ? 0
                                : e == 0 || !m->transformed ? m->epb
                                                            : m->delta[c];
                uint32_t want = bits ? (uint32_t)((1ull << bits) - 1u) : 0;
                if (seen[e * 3 + c] != want)
                    fail_msg("mode %u field %u: bits 0x%x, want 0x%x", m->code, e * 3 + c,
                             seen[e * 3 + c], want);
            }
        assert_int_equal(seen[KILN_BC6H_FIELD_PARTITION], m->subsets == 2 ? 31u : 0u);
        assert_int_equal(kiln_bc6h_mode_index(m->code), mi);
    }
}

/* ---- hand-built blocks ------------------------------------------------------------------ */

/* Mode 3 (untransformed, 10 bits): E0 = (1023, 0, 512), E1 = (0, 1023, 512); texel 0 index 0,
 * texel 1 index 8, texel 2 index 15. Expected halves from the spec: unsigned unquantise(1023) =
 * 0xFFFF -> 0x7BFF (65504), unquantise(512) = 32800 -> 0x3E0F; index 8 (weight 34) gives
 * 30720 -> 0x3A20 and 34815 -> 0x41DF. Signed: 1023 is -1 -> -96 -> 0x805D, 512 is -512 ->
 * -0x7FFF -> 0xFBFF (-65504). */
static void bc6h_decodes_hand_built_mode3_block(void **state)
{
    (void)state;
    tw w = {{0}, 0};
    tw_put(&w, 3, 5);
    const uint32_t e[6] = {1023, 0, 512, 0, 1023, 512};
    for (int i = 0; i < 6; i++) tw_put(&w, e[i], 10);
    tw_put(&w, 0, 3); /* texel 0: anchor, 3 bits */
    tw_put(&w, 8, 4);
    tw_put(&w, 15, 4);
    assert_int_equal(w.pos, 65 + 3 + 8);
    uint16_t t[64];
    kiln_bc6h_decode_block(w.b, false, t);
    const uint16_t want_u[3][4] = {
        {0x7BFF, 0, 0x3E0F, 0x3C00}, {0x3A20, 0x41DF, 0x3E0F, 0x3C00}, {0, 0x7BFF, 0x3E0F, 0x3C00}};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++) assert_int_equal(t[4 * i + c], want_u[i][c]);
    kiln_bc6h_decode_block(w.b, true, t);
    const uint16_t want_s[3][3] = {
        {0x805D, 0, 0xFBFF}, {0x802B, 0x8031, 0xFBFF}, {0, 0x805D, 0xFBFF}};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++) assert_int_equal(t[4 * i + c], want_s[i][c]);
}

/* Mode 15 (16-bit base, 4-bit deltas, reversed high bits): E0 = (0x8000, 0x7000, 0x0123),
 * deltas (+7, -8, 0). Unsigned: unquantise is the identity, 0x8000 -> 0x3E00 (1.5). Signed:
 * 0x8000 is -32768, whose final unquantisation is 0xFC00, the accidental -infinity the
 * specification describes. Texels 0, 1 and 2 use indices 0, 5 and 15. */
static void bc6h_decodes_hand_built_transformed_mode15_block(void **state)
{
    (void)state;
    const uint32_t e0[3] = {0x8000, 0x7000, 0x0123};
    const int32_t d[3] = {7, -8, 0};
    tw w = {{0}, 0};
    tw_put(&w, 15, 5);
    for (int c = 0; c < 3; c++) tw_put(&w, e0[c] & 0x3FFu, 10);
    for (int c = 0; c < 3; c++) {
        tw_put(&w, (uint32_t)d[c] & 0xFu, 4);
        tw_put_reversed(&w, e0[c], 15, 10);
    }
    assert_int_equal(w.pos, 65);
    tw_put(&w, 0, 3);
    tw_put(&w, 5, 4);
    tw_put(&w, 15, 4);
    uint16_t t[64];
    kiln_bc6h_decode_block(w.b, false, t);
    const uint16_t want_u[3][3] = {
        {0x3E00, 0x3640, 0x008C}, {0x3E00, 0x363E, 0x008C}, {0x3E03, 0x363C, 0x008C}};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++) assert_int_equal(t[4 * i + c], want_u[i][c]);
    kiln_bc6h_decode_block(w.b, true, t);
    const uint16_t want_s[3][3] = {
        {0xFC00, 0x6C80, 0x0119}, {0xFBFE, 0x6C7D, 0x0119}, {0xFBF9, 0x6C78, 0x0119}};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++) assert_int_equal(t[4 * i + c], want_s[i][c]);
}

static void bc6h_decodes_reserved_modes_to_zero_with_alpha_one(void **state)
{
    (void)state;
    static const uint8_t reserved[4] = {19, 23, 27, 31};
    uint64_t s = 0x72657365ull;
    for (int k = 0; k < 4; k++)
        for (int n = 0; n < 64; n++) {
            uint8_t b[16];
            for (int i = 0; i < 16; i++) b[i] = (uint8_t)rng_next(&s);
            b[0] = (uint8_t)((b[0] & ~31u) | reserved[k]);
            assert_int_equal(kiln_bc6h_mode_index(b[0]), -1);
            for (int sg = 0; sg < 2; sg++) {
                uint16_t t[64];
                kiln_bc6h_decode_block(b, sg != 0, t);
                for (int i = 0; i < 16; i++) {
                    assert_int_equal(t[4 * i] | t[4 * i + 1] | t[4 * i + 2], 0);
                    assert_int_equal(t[4 * i + 3], KILN_HALF_ONE);
                }
            }
        }
}

/* Random bits under every mode: unsigned texels are finite and non-negative (at most 65504),
 * signed ones never NaN nor +infinity (-infinity is the one special value they can reach). */
static void bc6h_decodes_random_blocks_of_every_mode_to_valid_halves(void **state)
{
    (void)state;
    uint64_t s = 0x6d6f646573ull;
    size_t minus_inf = 0, nonzero = 0;
    for (int mi = 0; mi < KILN_BC6H_MODE_COUNT; mi++) {
        const kiln_bc6h_mode *m = &kiln_bc6h_modes[mi];
        for (int n = 0; n < 4000; n++) {
            uint8_t b[16];
            uint64_t lo = rng_next(&s), hi = rng_next(&s);
            memcpy(b, &lo, 8);
            memcpy(b + 8, &hi, 8);
            uint8_t mask = m->code_bits == 2 ? 3 : 31;
            b[0] = (uint8_t)((b[0] & ~mask) | m->code);
            uint16_t t[64];
            kiln_bc6h_decode_block(b, false, t);
            for (int i = 0; i < 64; i++) {
                assert_true(i % 4 == 3 ? t[i] == KILN_HALF_ONE : t[i] <= 0x7BFF);
                nonzero += i % 4 != 3 && t[i] != 0;
            }
            kiln_bc6h_decode_block(b, true, t);
            for (int i = 0; i < 64; i++) {
                if (i % 4 == 3) continue;
                uint16_t mag = t[i] & 0x7FFFu;
                assert_true(mag < 0x7C00 || t[i] == 0xFC00);
                minus_inf += t[i] == 0xFC00;
            }
        }
    }
    assert_true(nonzero > 0);
    printf("random blocks: %zu signed channels at -infinity\n", minus_inf);
}

/* ---- the encoder ------------------------------------------------------------------------ */

/* A constant block is exact: a 16-bit endpoint (mode 15) hits every half's interval. */
static void bc6h_round_trips_constant_blocks_exactly(void **state)
{
    (void)state;
    uint64_t s = 0x636f6e7374ull;
    for (int sg = 0; sg < 2; sg++)
        for (int n = 0; n < 3000; n++) {
            uint16_t c[3];
            for (int k = 0; k < 3; k++) {
                uint16_t h = (uint16_t)(rng_next(&s) % 0x7C00u); /* finite, non-negative */
                if (sg && (rng_next(&s) & 1)) h |= 0x8000u;
                c[k] = h;
            }
            uint16_t texels[64];
            for (int i = 0; i < 16; i++) {
                memcpy(texels + 4 * i, c, sizeof c);
                texels[4 * i + 3] = KILN_HALF_ONE;
            }
            size_t size;
            uint8_t *b = encode(sg ? KILN_BLOCK_BC6H_SF : KILN_BLOCK_BC6H, texels, 4, 4,
                                KILN_QUALITY_FAST, NULL, &size);
            uint16_t t[64];
            kiln_bc6h_decode_block(b, sg != 0, t);
            for (int i = 0; i < 16; i++)
                for (int k = 0; k < 3; k++) {
                    uint16_t want = c[k] == 0x8000u ? 0 : c[k]; /* -0 decodes as +0 */
                    if (t[4 * i + k] != want)
                        fail_msg("%s constant 0x%04x: texel %d decodes 0x%04x",
                                 sg ? "signed" : "unsigned", c[k], i, t[4 * i + k]);
                }
            free(b);
        }
}

/* Measured log2-RMSE (e = 2^-8) on the synthetic picture (hard 12-stop edges inside blocks) and
 * the corpus sky, with room for harmless changes: fast 0.0604 / 0.1496, normal 0.0577 / 0.1331,
 * high 0.0566 / 0.1265 (docs/bc6h.md). A broken mode, partition or endpoint order shows up far
 * above these. Higher levels never do worse. */
static void bc6h_meets_log_error_bounds_and_levels_improve_in_order(void **state)
{
    (void)state;
    const uint32_t w = 128, h = 128;
    uint16_t *src = synthetic(w, h, false);
    double err[3];
    const double bound[3] = {0.070, 0.066, 0.065};
    for (int q = 0; q < 3; q++) {
        size_t size;
        uint8_t *b = encode(KILN_BLOCK_BC6H, src, w, h, (kiln_quality)q, NULL, &size);
        uint16_t *dec = decode(KILN_BLOCK_BC6H, b, size, w, h);
        err[q] = log2_rmse(src, dec, (size_t)w * h);
        printf("synthetic %ux%u level %d: log2-RMSE %.5f (bound %.3f)\n", w, h, q, err[q],
               bound[q]);
        assert_true(err[q] < bound[q]);
        free(b);
        free(dec);
    }
    assert_true(err[1] <= err[0] && err[2] <= err[1]);
    free(src);

    char *path = kt_corpus_path("images/hdr/hdr-rgb-00.hdr");
    if (!path) {
        printf("corpus absent: the corpus sky part is skipped\n");
        return;
    }
    size_t fsize;
    void *data = kt_read_file(path, &fsize);
    assert_non_null(data);
    kiln_image img;
    kiln_error e;
    assert_int_equal(kiln_image_decode(data, fsize, NULL, &img, &e), KILN_OK);
    size_t n = (size_t)img.width * img.height * 4;
    uint16_t *sky = malloc(n * sizeof(uint16_t));
    assert_non_null(sky);
    for (size_t i = 0; i < n; i++)
        sky[i] = kiln_half_from_float_sat(((const float *)img.pixels)[i]);
    const double sky_bound[3] = {0.165, 0.148, 0.140};
    for (int q = 0; q < 3; q++) {
        size_t size;
        uint8_t *b =
            encode(KILN_BLOCK_BC6H, sky, img.width, img.height, (kiln_quality)q, NULL, &size);
        uint16_t *dec = decode(KILN_BLOCK_BC6H, b, size, img.width, img.height);
        err[q] = log2_rmse(sky, dec, (size_t)img.width * img.height);
        printf("hdr-rgb-00.hdr level %d: log2-RMSE %.5f (bound %.3f)\n", q, err[q], sky_bound[q]);
        assert_true(err[q] < sky_bound[q]);
        free(b);
        free(dec);
    }
    assert_true(err[1] <= err[0] && err[2] <= err[1]);
    free(sky);
    kiln_image_free(&img);
    free(data);
    free(path);
}

/* Unsigned BC6H clamps negative values to 0; signed BC6H keeps their sign and size. */
static void bc6h_sf_keeps_negative_values_and_bc6h_clamps_them_to_zero(void **state)
{
    (void)state;
    const uint32_t w = 64, h = 64;
    uint16_t *src = synthetic(w, h, true);
    size_t size;
    uint8_t *b = encode(KILN_BLOCK_BC6H_SF, src, w, h, KILN_QUALITY_NORMAL, NULL, &size);
    uint16_t *dec = decode(KILN_BLOCK_BC6H_SF, b, size, w, h);
    size_t negatives = 0;
    double sum = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        float s = kiln_half_to_float(src[4 * i + 2]), d = kiln_half_to_float(dec[4 * i + 2]);
        if (s < -0.1f) {
            negatives++;
            assert_true(d < 0.0f);
            double e = log2(-d) - log2(-s);
            sum += e * e;
        }
    }
    assert_true(negatives > 100);
    printf("negatives: %zu, log2-RMSE %.5f\n", negatives, sqrt(sum / (double)negatives));
    assert_true(sqrt(sum / (double)negatives) < 0.11); /* measured 0.0899 */
    free(b);
    free(dec);
    b = encode(KILN_BLOCK_BC6H, src, w, h, KILN_QUALITY_NORMAL, NULL, &size);
    dec = decode(KILN_BLOCK_BC6H, b, size, w, h);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        assert_true(dec[4 * i + 2] <= 0x7BFF); /* never negative */
        if (kiln_half_to_float(src[4 * i + 2]) < -0.1f)
            assert_true(kiln_half_to_float(dec[4 * i + 2]) < 0.01f);
    }
    free(b);
    free(dec);
    free(src);
}

/* NaN and infinities in the input do not leak: NaN encodes as 0, +-inf as +-65504. */
static void bc6h_encodes_nan_and_infinity_as_finite_values(void **state)
{
    (void)state;
    uint16_t texels[64];
    for (int i = 0; i < 16; i++) {
        texels[4 * i] = 0x7E00;     /* NaN */
        texels[4 * i + 1] = 0x7C00; /* +inf */
        texels[4 * i + 2] = 0xFC00; /* -inf */
        texels[4 * i + 3] = KILN_HALF_ONE;
    }
    size_t size;
    uint8_t *b = encode(KILN_BLOCK_BC6H_SF, texels, 4, 4, KILN_QUALITY_NORMAL, NULL, &size);
    uint16_t t[64];
    kiln_bc6h_decode_block(b, true, t);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(t[4 * i], 0);
        assert_int_equal(t[4 * i + 1], 0x7BFF);
        assert_int_equal(t[4 * i + 2], 0xFBFF);
    }
    free(b);
}

/* Values at the ends of the range: blocks ramping from 2^4..2^15 up to +-65504, wide enough that
 * most modes' deltas do not fit. Every texel keeps its sign and stays within a stop, and no
 * signed block decodes to -infinity (the -32768 code the encoder never writes). */
static void bc6h_keeps_extreme_values_in_range_without_wrapping(void **state)
{
    (void)state;
    const uint32_t w = 64, h = 64;
    uint16_t *src = malloc((size_t)w * h * 8);
    assert_non_null(src);
    uint64_t s = 0x65787472656dull;
    for (int sg = 0; sg < 2; sg++) {
        /* Per block and channel, a ramp from a random low end (2^4 .. 2^15) up to 65504 along
         * the texel order: wide ranges whose top is the largest half, negative in the signed
         * run for half of the blocks. */
        for (uint32_t by = 0; by < h / 4; by++)
            for (uint32_t bx = 0; bx < w / 4; bx++) {
                float lo[3];
                for (int c = 0; c < 3; c++)
                    lo[c] = exp2f(4.0f + 11.0f * (float)(rng_next(&s) % 1000u) / 999.0f);
                bool neg = sg && (bx + by) % 2;
                for (uint32_t t = 0; t < 16; t++) {
                    size_t i = (size_t)(by * 4 + t / 4) * w + bx * 4 + t % 4;
                    for (int c = 0; c < 3; c++) {
                        float v = lo[c] + (65504.0f - lo[c]) * (float)t / 15.0f;
                        src[4 * i + (size_t)c] = kiln_half_from_float_sat(neg ? -v : v);
                    }
                    src[4 * i + 3] = KILN_HALF_ONE;
                }
            }
        kiln_block_format f = sg ? KILN_BLOCK_BC6H_SF : KILN_BLOCK_BC6H;
        for (int q = 0; q < 3; q++) {
            size_t size;
            uint8_t *b = encode(f, src, w, h, (kiln_quality)q, NULL, &size);
            uint16_t *dec = decode(f, b, size, w, h);
            for (size_t i = 0; i < (size_t)w * h * 4; i++) {
                if (i % 4 == 3) continue;
                float a = kiln_half_to_float(src[i]), d = kiln_half_to_float(dec[i]);
                assert_int_not_equal(dec[i], 0xFC00);
                if ((a < 0) != (d < 0) || fabs(log2(fabs((double)d) / fabs((double)a))) > 1.0)
                    fail_msg("%s level %d texel %zu: source %g decodes to %g",
                             sg ? "bc6h_sf" : "bc6h", q, i / 4, (double)a, (double)d);
            }
            free(b);
            free(dec);
        }
    }
    free(src);
}

/* Blocks are encoded one by one: 1 thread and 2 threads give the same bytes, and every block
 * written uses a defined mode. */
static void bc6h_output_is_identical_across_thread_counts_and_never_reserved(void **state)
{
    (void)state;
    const uint32_t w = 61, h = 37; /* partial blocks at both edges */
    uint16_t *src = synthetic(w, h, true);
    kiln_jobs *jobs = NULL;
    kiln_error err;
    assert_int_equal(kiln_jobs_create(2, NULL, &jobs, &err), KILN_OK);
    for (int f = 0; f < 2; f++)
        for (int q = 0; q < 3; q++) {
            kiln_block_format fmt = f ? KILN_BLOCK_BC6H_SF : KILN_BLOCK_BC6H;
            size_t s1, s2;
            uint8_t *a = encode(fmt, src, w, h, (kiln_quality)q, NULL, &s1);
            uint8_t *b = encode(fmt, src, w, h, (kiln_quality)q, jobs, &s2);
            assert_int_equal(s1, s2);
            assert_memory_equal(a, b, s1);
            for (size_t k = 0; k < s1; k += 16) assert_true(kiln_bc6h_mode_index(a[k]) >= 0);
            free(a);
            free(b);
        }
    kiln_jobs_destroy(jobs);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bc6h_mode_layouts_fill_every_field_bit_once),
        cmocka_unit_test(bc6h_decodes_hand_built_mode3_block),
        cmocka_unit_test(bc6h_decodes_hand_built_transformed_mode15_block),
        cmocka_unit_test(bc6h_decodes_reserved_modes_to_zero_with_alpha_one),
        cmocka_unit_test(bc6h_decodes_random_blocks_of_every_mode_to_valid_halves),
        cmocka_unit_test(bc6h_round_trips_constant_blocks_exactly),
        cmocka_unit_test(bc6h_meets_log_error_bounds_and_levels_improve_in_order),
        cmocka_unit_test(bc6h_sf_keeps_negative_values_and_bc6h_clamps_them_to_zero),
        cmocka_unit_test(bc6h_encodes_nan_and_infinity_as_finite_values),
        cmocka_unit_test(bc6h_keeps_extreme_values_in_range_without_wrapping),
        cmocka_unit_test(bc6h_output_is_identical_across_thread_counts_and_never_reserved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
