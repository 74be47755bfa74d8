/* test_packed_float.c — the packed HDR texel formats E5B9G9R9_UFLOAT_PACK32 and
 * B10G11R11_UFLOAT_PACK32: decoders checked exhaustively against the Vulkan specification's
 * formulas, encoders against its rounding rules (shared exponent: floor(x / 2^(e - 24) + 0.5)
 * with the exponent raised when the largest mantissa rounds to 512; 11/10-bit floats: nearest,
 * ties to even, clamped to the largest finite value), and the cook writing both formats. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/half_float.h"
#include "codec/hdr_decode.h"
#include "process/packed_float.h"
#include "process/texture.h"

static float dec11(uint32_t v)
{ /* the spec's formula for an unsigned 11-bit float */
    uint32_t e = v >> 6, m = v & 63u;
    if (e == 0) return ldexpf((float)m / 64.0f, -14);
    return ldexpf(1.0f + (float)m / 64.0f, (int)e - 15);
}

static float dec10(uint32_t v)
{
    uint32_t e = v >> 5, m = v & 31u;
    if (e == 0) return ldexpf((float)m / 32.0f, -14);
    return ldexpf(1.0f + (float)m / 32.0f, (int)e - 15);
}

/* Every finite code of each channel decodes to the spec's value and encodes back to itself. */
static void b10g11r11_decodes_every_finite_code_exactly_and_round_trips(void **state)
{
    (void)state;
    for (uint32_t v = 0; v < (31u << 6); v++) { /* 11-bit finite codes */
        uint16_t t[4];
        kiln_b10g11r11_decode(v | v << 11, t);
        assert_true(kiln_half_to_float(t[0]) == dec11(v));
        assert_true(kiln_half_to_float(t[1]) == dec11(v));
        assert_int_equal(t[3], KILN_HALF_ONE);
        float rgb[3] = {dec11(v), dec11(v), 0.0f};
        assert_int_equal(kiln_b10g11r11_from_float(rgb), v | v << 11);
    }
    for (uint32_t v = 0; v < (31u << 5); v++) { /* 10-bit finite codes */
        uint16_t t[4];
        kiln_b10g11r11_decode(v << 22, t);
        assert_true(kiln_half_to_float(t[2]) == dec10(v));
        float rgb[3] = {0.0f, 0.0f, dec10(v)};
        assert_int_equal(kiln_b10g11r11_from_float(rgb), v << 22);
    }
}

/* Halfway between two codes goes to the even one; just above it to the upper one; negative and
 * NaN to 0; beyond the largest finite value (65024 / 64512) to it. */
static void b10g11r11_rounds_to_nearest_even_and_clamps(void **state)
{
    (void)state;
    for (uint32_t v = 0; v + 1 < (31u << 6); v++) {
        float mid = (dec11(v) + dec11(v + 1)) / 2.0f; /* exact: one more bit than the code */
        float rgb[3] = {mid, nextafterf(mid, INFINITY), 0.0f};
        uint32_t p = kiln_b10g11r11_from_float(rgb);
        assert_int_equal(p & 0x7FFu, (v & 1u) ? v + 1 : v);
        assert_int_equal(p >> 11 & 0x7FFu, v + 1);
    }
    float big[3] = {1e9f, 70000.0f, INFINITY};
    assert_int_equal(kiln_b10g11r11_from_float(big),
                     (30u << 6 | 63u) | (30u << 6 | 63u) << 11 | (30u << 5 | 31u) << 22);
    assert_true(dec11(30u << 6 | 63u) == 65024.0f && dec10(30u << 5 | 31u) == 64512.0f);
    float neg[3] = {-1.0f, NAN, -0.0f};
    assert_int_equal(kiln_b10g11r11_from_float(neg), 0);
}

/* Every exponent and mantissa decodes to m 2^(e - 24) exactly. */
static void rgb9e5_decodes_every_exponent_and_mantissa_exactly(void **state)
{
    (void)state;
    for (uint32_t e = 0; e < 32; e++)
        for (uint32_t m = 0; m < 512; m++) {
            uint16_t t[4];
            kiln_rgb9e5_decode(e << 27 | m | (511u - m) << 9 | (m / 2) << 18, t);
            assert_true(kiln_half_to_float(t[0]) == ldexpf((float)m, (int)e - 24));
            assert_true(kiln_half_to_float(t[1]) == ldexpf((float)(511 - m), (int)e - 24));
            assert_true(kiln_half_to_float(t[2]) == ldexpf((float)(m / 2), (int)e - 24));
            assert_int_equal(t[3], KILN_HALF_ONE);
        }
}

static uint32_t e5(float r, float g, float b)
{
    float rgb[3] = {r, g, b};
    return kiln_rgb9e5_from_float(rgb);
}

/* Known values worked out from the spec's formula: 1.0 is exponent 16, mantissa 256; the
 * largest value 65408 is exponent 31, mantissa 511; 0.999 stays at exponent 15 (mantissa 511)
 * but 0.9995 rounds its mantissa to 512, so the exponent goes up to 16 and it becomes 1.0; a
 * channel too small for the shared exponent rounds to 0; negative and NaN give 0. */
static void rgb9e5_encodes_known_values_per_the_shared_exponent_rule(void **state)
{
    (void)state;
    assert_int_equal(e5(1.0f, 0.0f, 0.0f), 16u << 27 | 256u);
    assert_int_equal(e5(65408.0f, 0.0f, 0.0f), 31u << 27 | 511u);
    assert_int_equal(e5(1e9f, 0.0f, 0.0f), 31u << 27 | 511u);
    assert_int_equal(e5(0.999f, 0.0f, 0.0f), 15u << 27 | 511u);    /* 511.49 + 0.5 < 512 */
    assert_int_equal(e5(0.9995f, 0.0f, 0.0f), 16u << 27 | 256u);   /* 511.74 + 0.5 >= 512 */
    assert_int_equal(e5(1000.0f, 0.001f, 0.0f), 25u << 27 | 500u); /* 0.001 / 2 < 0.5 ulp */
    assert_int_equal(e5(-5.0f, NAN, 0.0f), 0u);
    assert_int_equal(e5(0.0f, 0.0f, 0.0f), 0u);
}

/* Random floats: each channel decodes within half a unit of the shared exponent's step, the
 * largest channel keeps 9 significant bits (its mantissa is at least 256 unless tiny), and
 * encoding the decoded value again gives the same value back. */
static void rgb9e5_rounds_within_half_a_step_and_is_idempotent(void **state)
{
    (void)state;
    uint64_t s = 0x726762396535ull;
    for (int n = 0; n < 200000; n++) {
        float rgb[3];
        for (int c = 0; c < 3; c++) {
            s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
            uint64_t r = s * 2685821657736338717ull;
            rgb[c] = ldexpf((float)(r >> 40) / 16777216.0f, (int)(r % 40) - 24);
        }
        uint32_t p = kiln_rgb9e5_from_float(rgb);
        uint16_t t[4];
        kiln_rgb9e5_decode(p, t);
        float step = ldexpf(1.0f, (int)(p >> 27) - 24);
        float max = rgb[0] > rgb[1] ? rgb[0] : rgb[1];
        if (rgb[2] > max) max = rgb[2];
        for (int c = 0; c < 3; c++)
            assert_true(fabsf(kiln_half_to_float(t[c]) - rgb[c]) <= step / 2);
        if (max >= ldexpf(1.0f, -15)) {
            uint32_t mmax = 0;
            for (int c = 0; c < 3; c++) {
                uint32_t m = p >> (9 * c) & 511u;
                if (m > mmax) mmax = m;
            }
            assert_true(mmax >= 256);
        }
        float back[3] = {kiln_half_to_float(t[0]), kiln_half_to_float(t[1]),
                         kiln_half_to_float(t[2])};
        uint16_t t2[4];
        kiln_rgb9e5_decode(kiln_rgb9e5_from_float(back), t2);
        assert_memory_equal(t, t2, sizeof t);
    }
}

/* The cook writes both formats from a float image: one 4-byte texel per texel, values within
 * the formats' precision. */
static void texture_cooks_float_images_to_rgb9e5_and_b10g11r11(void **state)
{
    (void)state;
    const uint32_t w = 16, h = 8;
    float *px = malloc((size_t)w * h * 4 * sizeof(float));
    assert_non_null(px);
    for (uint32_t i = 0; i < w * h; i++) {
        px[4 * i] = ldexpf(1.0f + (float)i / 128.0f, (int)(i % 20) - 8);
        px[4 * i + 1] = 0.5f;
        px[4 * i + 2] = (float)i;
        px[4 * i + 3] = 1.0f;
    }
    kiln_image img;
    memset(&img, 0, sizeof img);
    img.width = w;
    img.height = h;
    img.type = KILN_PIXEL_F32;
    img.pixels = px;
    img.size = (size_t)w * h * 16;
    img.format = KILN_IMAGE_EXR;
    img.source_channels = 4;
    img.source_bits = 32;
    const kiln_texture_format fmts[2] = {KILN_TEXFMT_RGB9E5, KILN_TEXFMT_B10G11R11};
    for (int f = 0; f < 2; f++) {
        kiln_texture_build_opts o;
        memset(&o, 0, sizeof o);
        o.format = fmts[f];
        o.max_size = 16384;
        o.mipmaps = true;
        o.quality = KILN_QUALITY_NORMAL;
        kiln_texture_levels lv;
        kiln_error err;
        kiln_result r = kiln_texture_build(&img, &o, NULL, &lv, &err);
        if (r != KILN_OK) fail_msg("build: %s", err.message);
        assert_int_equal(lv.vk_format, f ? KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32
                                         : KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32);
        assert_int_equal(lv.level_count, 5);
        assert_int_equal(lv.levels[0].size, (size_t)w * h * 4);
        for (uint32_t i = 0; i < w * h; i++) {
            const uint8_t *b = lv.levels[0].data + 4 * i;
            uint32_t p =
                (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            uint16_t t[4];
            if (f) kiln_b10g11r11_decode(p, t);
            else kiln_rgb9e5_decode(p, t);
            /* 6 mantissa bits (B10G11R11) or 9 shared (RGB9E5): within 1/64 of the largest. */
            float tol = f ? 1.0f / 64.0f : 0.0f;
            for (int c = 0; c < 3; c++) {
                float want = px[4 * i + (uint32_t)c], got = kiln_half_to_float(t[c]);
                float scale = f ? want : fmaxf(fmaxf(px[4 * i], px[4 * i + 1]), px[4 * i + 2]);
                assert_true(fabsf(got - want) <= (f ? tol : 1.0f / 512.0f) * scale + 1e-7f);
            }
        }
        kiln_texture_levels_free(&lv);
    }
    free(px);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(b10g11r11_decodes_every_finite_code_exactly_and_round_trips),
        cmocka_unit_test(b10g11r11_rounds_to_nearest_even_and_clamps),
        cmocka_unit_test(rgb9e5_decodes_every_exponent_and_mantissa_exactly),
        cmocka_unit_test(rgb9e5_encodes_known_values_per_the_shared_exponent_rule),
        cmocka_unit_test(rgb9e5_rounds_within_half_a_step_and_is_idempotent),
        cmocka_unit_test(texture_cooks_float_images_to_rgb9e5_and_b10g11r11),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
