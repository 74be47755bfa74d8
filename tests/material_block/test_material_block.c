/* test_material_block.c — kiln_material_block_pack, _find, _leaves and
 * kiln_shader_interface_check on shaders compiled here (tests/material_block/shaders.h and
 * tests/shaders/). Every packed block is compared, whole, with bytes laid out by hand from the
 * offsets the GLSL (or HLSL) rules give, written beside each member in shaders.h: never with a
 * second run of the packer. Every refusal is checked for its code and for naming the parameter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "core/alloc.h"
#include "import/value_json.h"
#include "mb_shader.h"
#include "process/half.h"
#include "process/material_block.h"
#include "shader_fixture.h"
#include "shaders.h"

#define NONE KILN_SHADER_NONE

/* ---- parameters from JSON text ------------------------------------------------------------ */

typedef struct params {
    kiln_value values[64];
    kiln_material_param p[64];
    char *pointers[64];
    size_t n;
} params;

static void add_param(params *ps, const char *name, const char *json, uint32_t depth)
{
    assert_true(ps->n < 64);
    json_error_t je;
    json_t *j = json_loads(json, JSON_DECODE_ANY, &je);
    if (!j) fail_msg("bad test JSON %s: %s", json, je.text);
    kiln_error err;
    assert_int_equal(kiln_value_from_json(j, NULL, &ps->values[ps->n], &err), KILN_OK);
    json_decref(j);
    ps->pointers[ps->n] = kt_format("/parameters/%s", name);
    ps->p[ps->n] = (kiln_material_param){name, &ps->values[ps->n], depth, ps->pointers[ps->n]};
    ps->n++;
}

static void params_free(params *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        kiln_value_free(&ps->values[i]);
        free(ps->pointers[i]);
    }
    ps->n = 0;
}

static kiln_result pack(const mb_shader *s, uint32_t block, const params *ps, uint8_t **out,
                        size_t *size, kiln_error *err)
{
    return kiln_material_block_pack(&s->view, 0, block, ps->p, ps->n, NULL, out, size, err);
}

/* Packs and compares with expected (size bytes), then frees. */
static void pack_equals(const mb_shader *s, uint32_t block, params *ps, const uint8_t *expected,
                        size_t size)
{
    uint8_t *out = NULL;
    size_t got = 0;
    kiln_error err;
    kiln_result r = pack(s, block, ps, &out, &got, &err);
    if (r != KILN_OK) fail_msg("pack: %s", err.message);
    assert_int_equal(got, size);
    for (size_t i = 0; i < size; i++)
        if (out[i] != expected[i])
            fail_msg("byte %zu: packed 0x%02x, expected 0x%02x", i, out[i], expected[i]);
    kiln_free(NULL, out, got);
    params_free(ps);
}

/* Expects the pack to fail with code, the message holding each of the NULL-terminated words, and
 * (when pointer is not NULL) that JSON pointer. */
static void pack_fails(const mb_shader *s, uint32_t block, params *ps, kiln_result code,
                       const char *pointer, const char *const *words)
{
    uint8_t *out = (uint8_t *)1;
    size_t size = 1;
    kiln_error err;
    memset(&err, 0, sizeof err);
    kiln_result r = pack(s, block, ps, &out, &size, &err);
    if (r != code)
        fail_msg("expected %s, got %s: %s", kiln_result_name(code), kiln_result_name(r),
                 err.message);
    assert_null(out);
    assert_int_equal(size, 0);
    for (size_t i = 0; words[i]; i++)
        if (!strstr(err.message, words[i]))
            fail_msg("message \"%s\" lacks \"%s\"", err.message, words[i]);
    if (pointer) assert_string_equal(err.json_pointer, pointer);
    params_free(ps);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- expected bytes, little-endian -------------------------------------------------------- */

static void put32(uint8_t *b, size_t off, uint32_t v)
{
    for (int i = 0; i < 4; i++) b[off + i] = (uint8_t)(v >> (8 * i));
}
static void putf(uint8_t *b, size_t off, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(b, off, u);
}
static void put64(uint8_t *b, size_t off, uint64_t v)
{
    for (int i = 0; i < 8; i++) b[off + i] = (uint8_t)(v >> (8 * i));
}
static void put16(uint8_t *b, size_t off, uint16_t v)
{
    b[off] = (uint8_t)v;
    b[off + 1] = (uint8_t)(v >> 8);
}

/* ---- packing: layouts ---------------------------------------------------------------------- */

static void std140_block_packs_at_the_hand_computed_offsets(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, std140_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "weights", "[1, 2, 3, 4]", 0);
    add_param(&ps, "tint", "[0.5, 0.25, 0.125]", 0);
    add_param(&ps, "gain", "2", 0);
    add_param(&ps, "basis", "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]", 0);
    /* columns c0..c3, element (column k, row r) = 10 k + r */
    add_param(&ps, "xform", "[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]",
              0);
    add_param(&ps, "cell", "[-3, 7]", 0);
    add_param(&ps, "flags", "4294967295", 0);
    add_param(&ps, "enabled", "true", 0);
    add_param(&ps, "uv", "[0.75, 1e-3]", 0);
    add_param(&ps, "count", "-2.0", 0); /* integral: accepted for an int */

    uint8_t e[320] = {0};
    for (int i = 0; i < 4; i++) putf(e, 16 * i, (float)(i + 1)); /* float[4]: stride 16 */
    putf(e, 64, 0.5f);
    putf(e, 68, 0.25f);
    putf(e, 72, 0.125f);
    putf(e, 76, 2.0f); /* the vec3's fourth slot */
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++) putf(e, 80 + 16 * k + 4 * r, (float)(3 * k + r + 1));
    for (int k = 0; k < 4; k++) /* row-major: row r at 128 + 16 r, column k at + 4 k */
        for (int r = 0; r < 4; r++) putf(e, 128 + 16 * r + 4 * k, (float)(10 * k + r));
    put32(e, 192, (uint32_t)-3);
    put32(e, 196, 7);
    put32(e, 200, 0xFFFFFFFFu);
    put32(e, 204, 1);
    putf(e, 208, 0.75f);
    putf(e, 212, 1e-3f);
    put32(e, 216, (uint32_t)-2);
    pack_equals(&s, b, &ps, e, sizeof e);
    mb_free(&s);
}

static void matrices_take_columns_or_flat_column_major(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, std140_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "basis", "[1, 2, 3, 4, 5, 6, 7, 8, 9]", 0);
    add_param(&ps, "xform", "[0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33]", 0);
    uint8_t e[320] = {0};
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++) putf(e, 80 + 16 * k + 4 * r, (float)(3 * k + r + 1));
    for (int k = 0; k < 4; k++)
        for (int r = 0; r < 4; r++) putf(e, 128 + 16 * r + 4 * k, (float)(10 * k + r));
    pack_equals(&s, b, &ps, e, sizeof e);
    mb_free(&s);
}

static void nested_structs_and_arrays_of_structs_pack_by_path_and_by_object(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "lights[1].color", "[1, 2, 3]", 0);
    add_param(&ps, "lights[0]", "{\"intensity\": 5, \"dir\": [0, 0, 1, 0]}", 0);
    add_param(&ps, "shadow.key.dir", "[4, 5, 6, 7]", 0);
    add_param(&ps, "shadow.cascades[2]", "0.5", 0);
    add_param(&ps, "shadow.bias", "0.25", 0);
    add_param(&ps, "shadow.key", "{\"intensity\": 9}", 0);
    add_param(&ps, "extra", "[8, 8, 8, 8]", 0);
    uint8_t e[176] = {0};
    putf(e, 12, 5.0f); /* lights[0].intensity */
    putf(e, 24, 1.0f); /* lights[0].dir.z */
    putf(e, 32, 1.0f); /* lights[1] at 32 */
    putf(e, 36, 2.0f);
    putf(e, 40, 3.0f);
    putf(e, 64, 0.25f); /* shadow at 64: bias */
    putf(e, 92, 9.0f);  /* shadow.key at 80: intensity at + 12 */
    for (int i = 0; i < 4; i++) putf(e, 96 + 4 * i, (float)(4 + i)); /* key.dir at 80 + 16 */
    putf(e, 144, 0.5f); /* cascades at 64 + 48, stride 16: [2] at 144 */
    for (int i = 0; i < 4; i++) putf(e, 160 + 4 * i, 8.0f);
    pack_equals(&s, b, &ps, e, sizeof e);

    /* a whole array of structs as an array of objects */
    add_param(&ps, "lights", "[{\"color\": [1, 1, 1]}, {\"intensity\": 2}]", 0);
    uint8_t e2[176] = {0};
    putf(e2, 0, 1.0f);
    putf(e2, 4, 1.0f);
    putf(e2, 8, 1.0f);
    putf(e2, 44, 2.0f);
    pack_equals(&s, b, &ps, e2, sizeof e2);
    mb_free(&s);
}

static void std430_storage_and_push_constants_pack(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, std430_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    params ps = {0};
    add_param(&ps, "vals", "[1, 2, 3]", 0);
    add_param(&ps, "pair", "[4, 5]", 0);
    add_param(&ps, "v3", "[6, 7, 8]", 0);
    add_param(&ps, "f", "9", 0);
    add_param(&ps, "m", "[[10, 11], [12, 13]]", 0);
    uint8_t e[64] = {0};
    putf(e, 0, 1);
    putf(e, 4, 2);
    putf(e, 8, 3); /* std430: stride 4 */
    putf(e, 16, 4);
    putf(e, 20, 5);
    putf(e, 32, 6); /* vec3 aligned to 16 */
    putf(e, 36, 7);
    putf(e, 40, 8);
    putf(e, 44, 9);
    putf(e, 48, 10); /* mat2: columns of stride 8 */
    putf(e, 52, 11);
    putf(e, 56, 12);
    putf(e, 60, 13);
    pack_equals(&s, mb_block(&s, 1, 1), &ps, e, sizeof e); /* the runtime array counts 0 */

    add_param(&ps, "model", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]", 0);
    add_param(&ps, "index", "3", 0);
    uint8_t p[68] = {0};
    putf(p, 0, 1);
    putf(p, 20, 1);
    putf(p, 40, 1);
    putf(p, 48, 5);
    putf(p, 52, 6);
    putf(p, 56, 7);
    putf(p, 60, 1);
    put32(p, 64, 3);
    pack_equals(&s, mb_block(&s, NONE, 0), &ps, p, sizeof p);
    mb_free(&s);
}

static void scalar_layout_packs_without_padding(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, scalar_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    assert_int_equal(kiln_shader_block_at(&s.view, 0, b).layout, KILN_SHADER_LAYOUT_SCALAR);
    params ps = {0};
    add_param(&ps, "a", "1", 0);
    add_param(&ps, "b", "[2, 3, 4]", 0);
    add_param(&ps, "c", "[5, 6]", 0);
    add_param(&ps, "d", "[7, 8]", 0);
    uint8_t e[32] = {0};
    for (int i = 0; i < 8; i++) putf(e, 4 * (size_t)i, (float)(i + 1)); /* 0, 4 .. 28: no gaps */
    pack_equals(&s, b, &ps, e, sizeof e);
    mb_free(&s);
}

static void every_scalar_width_is_written_in_its_type(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, widths_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "h", "0.1", 0);
    add_param(&ps, "i8", "-128", 0);
    add_param(&ps, "u8", "255", 0);
    add_param(&ps, "i16", "-32768", 0);
    add_param(&ps, "u16", "65535", 0);
    add_param(&ps, "i64", "-9223372036854775808", 0);
    add_param(&ps, "u64", "9223372036854775807", 0);
    add_param(&ps, "d", "0.1", 0);
    add_param(&ps, "hv", "[65504, -2]", 0);
    /* ties to even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 (mantissa 0 is even);
     * 1 + 3 * 2^-11 is halfway between mantissas 1 and 2 (2 is even) */
    add_param(&ps, "hs", "[1.00048828125, 1.00146484375, 5.9604644775390625e-8]", 0);
    uint8_t e[42] = {0};
    put16(e, 0, 0x2E66); /* 0.1 in binary16 */
    e[2] = 0x80;
    e[3] = 0xFF;
    put16(e, 4, 0x8000);
    put16(e, 6, 0xFFFF);
    put64(e, 8, 0x8000000000000000ull);
    put64(e, 16, 0x7FFFFFFFFFFFFFFFull);
    put64(e, 24, 0x3FB999999999999Aull); /* 0.1 as a double */
    put16(e, 32, 0x7BFF);                /* 65504: the largest half */
    put16(e, 34, 0xC000);
    put16(e, 36, 0x3C00);
    put16(e, 38, 0x3C02);
    put16(e, 40, 0x0001); /* 2^-24: the smallest subnormal */
    pack_equals(&s, b, &ps, e, sizeof e);

    /* the largest uint64 needs a real in JSON (jansson's integers are signed 64-bit) */
    add_param(&ps, "u64", "1.8446744073709550e19", 0);
    uint8_t e2[42] = {0};
    put64(e2, 16, 18446744073709549568ull);
    pack_equals(&s, b, &ps, e2, sizeof e2);
    mb_free(&s);
}

static void halves_round_like_the_float_converter(void **state)
{
    (void)state;
    /* Independent reference: kiln_half_from_float on values a float holds exactly. */
    mb_shader s;
    mb_build(&s, widths_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    const float samples[] = {1.0f,     -1.5f,      3.14159274f, 1e-5f,      6.1e-5f,
                             2.98e-8f, 65519.996f, 1000.1f,     0.33333334f};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char json[64];
        snprintf(json, sizeof json, "%.9g", (double)samples[i]);
        params ps = {0};
        add_param(&ps, "h", json, 0);
        uint8_t e[42] = {0};
        put16(e, 0, kiln_half_from_float(samples[i]));
        pack_equals(&s, b, &ps, e, sizeof e);
    }
    mb_free(&s);
}

static void hlsl_cbuffer_packs_at_its_reflected_offsets(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, cbuffer_hlsl, KILN_SHADER_FRAGMENT, 1, "main", NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "lift", "[1, 2, 3]", 0);
    add_param(&ps, "gamma", "4", 0);
    add_param(&ps, "pivot", "[5, 6]", 0);
    add_param(&ps, "gain", "[7, 8, 9]", 0);
    add_param(&ps, "curve", "[10, 11, 12]", 0);
    add_param(&ps, "after", "13", 0);
    uint8_t e[100] = {0};
    for (int i = 0; i < 4; i++) putf(e, 4 * (size_t)i, (float)(i + 1)); /* lift, gamma */
    putf(e, 16, 5);
    putf(e, 20, 6);
    putf(e, 32, 7);
    putf(e, 36, 8);
    putf(e, 40, 9);
    putf(e, 48, 10);
    putf(e, 64, 11);
    putf(e, 80, 12);
    putf(e, 96, 13);
    pack_equals(&s, b, &ps, e, sizeof e);
    mb_free(&s);

    /* the repository's HLSL pixel shader: ConstantBuffer<UnlitParams> at (1, 0) */
    mb_build_file(&s, "unlit_texture.hlsl", KILN_SHADER_FRAGMENT, 1, "PSMain", NULL);
    add_param(&ps, "base_color_factor", "[1, 0.5, 0.25, 1]", 0);
    add_param(&ps, "alpha_cutoff", "0.5", 0);
    uint8_t u[20] = {0};
    putf(u, 0, 1);
    putf(u, 4, 0.5f);
    putf(u, 8, 0.25f);
    putf(u, 12, 1);
    putf(u, 16, 0.5f);
    pack_equals(&s, mb_block(&s, 1, 0), &ps, u, sizeof u);
    mb_free(&s);
}

static void pbr_forward_material_block_packs(void **state)
{
    (void)state;
    mb_shader s;
    const char *const defines[] = {"NORMAL_MAP", "ALPHA_MASK", NULL};
    mb_build_file(&s, "pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, NULL, defines);
    kiln_block_select sel = {KILN_BLOCK_PICK_DEFAULT, NULL, 0, 0};
    uint32_t b = NONE;
    kiln_error err;
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Material");
    params ps = {0};
    add_param(&ps, "base_color_factor", "[0.8, 0.6, 0.4, 1]", 0);
    add_param(&ps, "emissive_factor", "[0, 0, 0]", 0);
    add_param(&ps, "emissive_strength", "1", 0);
    add_param(&ps, "metallic_factor", "0", 0);
    add_param(&ps, "roughness_factor", "0.5", 0);
    add_param(&ps, "normal_scale", "1", 0);
    add_param(&ps, "occlusion_strength", "1", 0);
    add_param(&ps, "alpha_cutoff", "0.5", 0);
    uint8_t e[52] = {0};
    putf(e, 0, 0.8f);
    putf(e, 4, 0.6f);
    putf(e, 8, 0.4f);
    putf(e, 12, 1);
    putf(e, 28, 1);    /* emissive_factor 16 (vec3), emissive_strength 28 */
    putf(e, 36, 0.5f); /* metallic 32, roughness 36, normal_scale 40, occlusion 44, cutoff 48 */
    putf(e, 40, 1);
    putf(e, 44, 1);
    putf(e, 48, 0.5f);
    pack_equals(&s, b, &ps, e, sizeof e);

    add_param(&ps, "roughnes", "0.5", 0);
    pack_fails(&s, b, &ps, KILN_E_IMPORT_SETTINGS, "/parameters/roughnes",
               WORDS("unknown parameter \"roughnes\" in block Material; members: "
                     "base_color_factor, emissive_factor, emissive_strength, metallic_factor"));
    mb_free(&s);
}

static void an_empty_parameter_list_gives_zeros_of_the_block_size(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    params ps = {0};
    uint8_t e[176] = {0};
    pack_equals(&s, mb_block(&s, 1, 0), &ps, e, sizeof e);
    mb_free(&s);
}

/* ---- layers: a derived material over its parent -------------------------------------------- */

static void a_smaller_depth_overrides_a_larger_one_byte_by_byte(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "lights[1].color", "[7, 7, 7]", 0); /* the material, listed first */
    add_param(&ps, "lights",
              "[{\"color\": [1, 1, 1], \"intensity\": 2}, {\"color\": [3, 3, 3], "
              "\"intensity\": 4}]",
              1);                               /* its parent */
    add_param(&ps, "extra", "[1, 2, 3, 4]", 2); /* the parent's parent */
    add_param(&ps, "extra", "[5, 6, 7, 8]", 1);
    uint8_t e[176] = {0};
    for (int i = 0; i < 3; i++) putf(e, 4 * (size_t)i, 1);
    putf(e, 12, 2);
    for (int i = 0; i < 3; i++) putf(e, 32 + 4 * (size_t)i, 7);
    putf(e, 44, 4);
    for (int i = 0; i < 4; i++) putf(e, 160 + 4 * (size_t)i, (float)(5 + i));
    pack_equals(&s, b, &ps, e, sizeof e);
    mb_free(&s);
}

/* ---- refusals ------------------------------------------------------------------------------ */

static void mistyped_values_are_refused_naming_the_parameter(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, std140_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    kiln_result SET = KILN_E_IMPORT_SETTINGS;
    params ps = {0};
    add_param(&ps, "gain", "\"bright\"", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/gain",
               WORDS("parameter \"gain\"", "expected a number for float, got a string"));
    add_param(&ps, "tint", "[1, 2, 3, 4]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/tint",
               WORDS("parameter \"tint\"", "expected 3 numbers for vec3, got an array of 4"));
    add_param(&ps, "count", "2.5", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/count",
               WORDS("parameter \"count\"", "expected an integer for int, got 2.5"));
    add_param(&ps, "cell", "[1, 2147483648]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/cell/1",
               WORDS("parameter \"cell\"", "2147483648 is out of range for int"));
    add_param(&ps, "flags", "-1", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/flags",
               WORDS("parameter \"flags\"", "-1 is out of range for uint"));
    add_param(&ps, "flags", "4294967296", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("4294967296 is out of range for uint"));
    add_param(&ps, "gain", "1e39", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("parameter \"gain\"", "out of range for float"));
    add_param(&ps, "gain", "true", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("expected a number for float, got true"));
    add_param(&ps, "gain", "[2]", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("expected a number for float, got an array of 1"));
    add_param(&ps, "basis", "[[1, 2, 3], [4, 5, 6]]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/basis",
               WORDS("parameter \"basis\"", "expected 3 columns of 3 numbers (or 9 numbers"));
    add_param(&ps, "basis", "[[1, 2, 3], [4, 5, 6], [7, 8, \"x\"]]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/basis/2/2", WORDS("got a string"));
    add_param(&ps, "weights", "[1, 2, 3]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/weights",
               WORDS("parameter \"weights\"", "expected an array of 4 elements for float[4]"));
    add_param(&ps, "weights", "[1, 2, null, 4]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/weights/2", WORDS("got null"));
    add_param(&ps, "enabled", "2", 0); /* a GLSL bool is a uint: 2 is a uint */
    uint8_t *out;
    size_t size;
    kiln_error err;
    assert_int_equal(pack(&s, b, &ps, &out, &size, &err), KILN_OK);
    kiln_free(NULL, out, size);
    params_free(&ps);
    mb_free(&s);

    mb_build(&s, widths_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    b = mb_block(&s, 1, 0);
    add_param(&ps, "u8", "256", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("parameter \"u8\"", "256 is out of range for uint8_t"));
    add_param(&ps, "i8", "-129", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("-129 is out of range for int8_t"));
    add_param(&ps, "i16", "32768", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("32768 is out of range for int16_t"));
    add_param(&ps, "u64", "-1", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("-1 is out of range for uint64_t"));
    add_param(&ps, "h", "65520", 0);
    pack_fails(&s, b, &ps, SET, NULL,
               WORDS("parameter \"h\"", "65520 is out of range for float16_t"));
    add_param(&ps, "hv", "[1, 1e6]", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/hv/1", WORDS("out of range for float16_t"));
    mb_free(&s);
}

static void bad_paths_are_refused_naming_the_parameter(void **state)
{
    (void)state;
    kiln_result SET = KILN_E_IMPORT_SETTINGS;
    mb_shader s;
    mb_build(&s, std140_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "weights[4]", "1", 0);
    pack_fails(
        &s, b, &ps, SET, "/parameters/weights[4]",
        WORDS("parameter \"weights[4]\"", "index 4 is past the end of weights (4 elements)"));
    add_param(&ps, "weights[99999999999999]", "1", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("parameter \"weights[99999999999999]\""));
    add_param(&ps, "gain[0]", "1", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("parameter \"gain[0]\"", "gain is not an array"));
    add_param(&ps, "tint.x", "1", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("parameter \"tint.x\"", "tint is not a struct"));
    add_param(&ps, "grid[1]", "[1, 2, 3]", 0);
    pack_fails(&s, b, &ps, SET, NULL,
               WORDS("parameter \"grid[1]\"", "grid is a multi-dimensional array"));
    add_param(&ps, "grid", "[1, 2, 3, 4, 5, 6]", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("grid is a multi-dimensional array"));
    const char *syntax[] = {"",           "gain.",       ".gain",       "weights[",
                            "weights[x]", "weights[1]x", "weights[-1]", "a..b"};
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++) {
        add_param(&ps, syntax[i], "1", 0);
        char *quoted = kt_format("parameter \"%s\"", syntax[i]);
        pack_fails(&s, b, &ps, SET, NULL, WORDS(quoted));
        free(quoted);
    }
    mb_free(&s);

    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    b = mb_block(&s, 1, 0);
    add_param(&ps, "lights[0].colr", "[1, 2, 3]", 0);
    pack_fails(&s, b, &ps, SET, NULL,
               WORDS("parameter \"lights[0].colr\"",
                     "no member \"colr\" in struct Light; members: color, intensity, dir"));
    add_param(&ps, "lights[1]", "{\"colour\": [1, 2, 3]}", 0);
    pack_fails(&s, b, &ps, SET, "/parameters/lights[1]/colour",
               WORDS("parameter \"lights[1]\"", "no member \"colour\" in struct Light"));
    add_param(&ps, "lights.color", "[1, 2, 3]", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("lights is an array: name an element"));
    add_param(&ps, "shadow", "[1]", 0);
    pack_fails(&s, b, &ps, SET, NULL,
               WORDS("parameter \"shadow\"", "expected an object for struct Shadow"));
    mb_free(&s);

    mb_build(&s, std430_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    b = mb_block(&s, 1, 1);
    add_param(&ps, "rest[0]", "1", 0);
    pack_fails(&s, b, &ps, SET, NULL,
               WORDS("parameter \"rest[0]\"", "rest is a runtime-sized array"));
    add_param(&ps, "rest", "[1]", 0);
    pack_fails(&s, b, &ps, SET, NULL, WORDS("parameter \"rest\"", "runtime-sized"));
    mb_free(&s);
}

static void a_parameter_given_twice_is_refused(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    uint32_t b = mb_block(&s, 1, 0);
    params ps = {0};
    add_param(&ps, "extra", "[1, 2, 3, 4]", 0);
    add_param(&ps, "extra", "[1, 2, 3, 4]", 0);
    pack_fails(&s, b, &ps, KILN_E_IMPORT_SETTINGS, NULL,
               WORDS("parameter \"extra\"", "parameter \"extra\" already sets"));
    add_param(&ps, "lights", "[{}, {\"color\": [3, 3, 3]}]", 0);
    add_param(&ps, "lights[1].color", "[7, 7, 7]", 0);
    pack_fails(
        &s, b, &ps, KILN_E_IMPORT_SETTINGS, "/parameters/lights[1].color/0",
        WORDS("parameter \"lights[1].color\"", "parameter \"lights\" already sets", "given twice"));
    /* disjoint bytes of one array are not a conflict */
    add_param(&ps, "lights", "[{\"color\": [1, 1, 1]}, {}]", 0);
    add_param(&ps, "lights[1].color", "[7, 7, 7]", 0);
    uint8_t *out;
    size_t size;
    kiln_error err;
    assert_int_equal(pack(&s, b, &ps, &out, &size, &err), KILN_OK);
    kiln_free(NULL, out, size);
    params_free(&ps);
    mb_free(&s);
}

static void limits_and_bad_arguments_are_refused(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s,
             "#version 450\n"
             "layout(set = 1, binding = 0) uniform Big { vec4 v[5000]; } big;\n"
             "layout(location = 0) out vec4 c;\n"
             "void main() { c = big.v[7]; }\n",
             KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    params ps = {0};
    uint8_t *out = NULL;
    size_t size = 0;
    kiln_error err;
    assert_int_equal(pack(&s, mb_block(&s, 1, 0), &ps, &out, &size, &err), KILN_E_LIMIT);
    assert_non_null(strstr(err.message, "80000 bytes"));
    assert_int_equal(kiln_material_block_pack(&s.view, 0, 99, NULL, 0, NULL, &out, &size, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_material_block_pack(&s.view, 5, 0, NULL, 0, NULL, &out, &size, &err),
                     KILN_E_USAGE);
    assert_int_equal(kiln_material_block_pack(NULL, 0, 0, NULL, 0, NULL, &out, &size, &err),
                     KILN_E_USAGE);
    mb_free(&s);

    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    char *long_name = malloc(KILN_MATERIAL_PATH_MAX + 1);
    memset(long_name, 'a', KILN_MATERIAL_PATH_MAX);
    long_name[KILN_MATERIAL_PATH_MAX] = '\0';
    add_param(&ps, long_name, "1", 0);
    assert_int_equal(pack(&s, 0, &ps, &out, &size, &err), KILN_E_LIMIT);
    params_free(&ps);
    free(long_name);
    kiln_material_param many[KILN_MATERIAL_MAX_PARAMS + 1];
    kiln_value one;
    json_t *j = json_integer(1);
    assert_int_equal(kiln_value_from_json(j, NULL, &one, &err), KILN_OK);
    json_decref(j);
    for (size_t i = 0; i < KILN_MATERIAL_MAX_PARAMS + 1; i++)
        many[i] = (kiln_material_param){"extra", &one, 0, NULL};
    assert_int_equal(kiln_material_block_pack(&s.view, 0, 0, many, KILN_MATERIAL_MAX_PARAMS + 1,
                                              NULL, &out, &size, &err),
                     KILN_E_LIMIT);
    kiln_value_free(&one);
    mb_free(&s);
}

static void a_member_outside_its_block_is_format_invalid(void **state)
{
    (void)state;
    /* A reflection built by hand (tests/shader_format's fixture) with block 0 (Globals, 176
     * bytes) member 1 (vec4 tint) moved past the block's end: the reader takes offsets as
     * they are, the packer and the listing bound every write and read by the block. */
    kt_shader_fixture f;
    kt_shader_vertex(&f);
    f.members[0][1].offset = 4000;
    uint8_t *bytes = NULL;
    size_t size = 0;
    kiln_error err;
    assert_int_equal(kiln_shader_write(&f.shader, NULL, &bytes, &size, &err), KILN_OK);
    mb_shader s;
    memset(&s, 0, sizeof s);
    s.bytes = bytes;
    s.size = size;
    assert_int_equal(kiln_shader_read(bytes, size, 0, &s.view, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, 0).name, "Globals");
    params ps = {0};
    add_param(&ps, "tint", "[1, 2, 3, 4]", 0);
    pack_fails(&s, 0, &ps, KILN_E_FORMAT_INVALID, NULL,
               WORDS("parameter \"tint\"", "outside block Globals (176 bytes)"));
    add_param(&ps, "view_proj", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]", 0);
    uint8_t *out;
    assert_int_equal(pack(&s, 0, &ps, &out, &size, &err), KILN_OK); /* the others still pack */
    kiln_free(NULL, out, size);
    params_free(&ps);
    assert_int_equal(kiln_material_block_leaves(&s.view, 0, 0, NULL, NULL, &size, &err),
                     KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "member tint at bytes 4000..4016 is outside its block"));
    mb_free(&s);
}

/* ---- finding the block --------------------------------------------------------------------- */

static void blocks_are_found_by_default_name_binding_and_push(void **state)
{
    (void)state;
    mb_shader s;
    kiln_error err;
    uint32_t b;
    mb_build(&s, std430_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    kiln_block_select sel = {KILN_BLOCK_PICK_DEFAULT, NULL, 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_int_equal(b, NONE); /* no uniform buffer: no parameter block */
    sel = (kiln_block_select){KILN_BLOCK_PICK_NAME, "data", 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Data");
    sel.name = "Data";
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Data");
    sel = (kiln_block_select){KILN_BLOCK_PICK_BINDING, NULL, 1, 1};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Data");
    sel = (kiln_block_select){KILN_BLOCK_PICK_PUSH, NULL, 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Push");
    sel = (kiln_block_select){KILN_BLOCK_PICK_NAME, "Material", 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "no buffer block \"Material\""));
    assert_non_null(strstr(err.message, "data (set 1, binding 1)"));
    sel = (kiln_block_select){KILN_BLOCK_PICK_BINDING, NULL, 1, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "nothing at set 1, binding 0"));
    mb_free(&s);

    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    sel = (kiln_block_select){KILN_BLOCK_PICK_PUSH, NULL, 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "no push constants"));
    mb_free(&s);

    /* pbr_forward.frag: the frame at set 0 and the material at set 1; a sampler is no block */
    mb_build_file(&s, "pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    sel = (kiln_block_select){KILN_BLOCK_PICK_DEFAULT, NULL, 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Material");
    sel = (kiln_block_select){KILN_BLOCK_PICK_BINDING, NULL, 1, 1};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "base_color_texture"));
    assert_non_null(strstr(err.message, "is not a uniform or storage buffer"));
    mb_free(&s);

    /* the only uniform buffer outside set 0, when set 1 binding 0 holds none */
    mb_build(&s,
             "#version 450\n"
             "layout(set = 0, binding = 0) uniform Frame { vec4 a; } frame;\n"
             "layout(set = 2, binding = 3) uniform Mat { vec4 tint; } mat;\n"
             "layout(location = 0) out vec4 c;\n"
             "void main() { c = frame.a + mat.tint; }\n",
             KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    sel = (kiln_block_select){KILN_BLOCK_PICK_DEFAULT, NULL, 0, 0};
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &b, &err), KILN_OK);
    assert_string_equal(kiln_shader_block_at(&s.view, 0, b).name, "Mat");
    mb_free(&s);
}

/* ---- leaves -------------------------------------------------------------------------------- */

typedef struct leaf_list {
    char text[4096];
    size_t n;
} leaf_list;

static void collect(void *user, const kiln_material_leaf *l)
{
    leaf_list *ll = user;
    ll->n += (size_t)snprintf(ll->text + ll->n, sizeof ll->text - ll->n, "%s %u %s\n", l->path,
                              l->offset, l->type_name);
}

static void leaves_list_every_path_with_its_offset_and_type(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    leaf_list ll = {{0}, 0};
    size_t count = 0;
    kiln_error err;
    assert_int_equal(
        kiln_material_block_leaves(&s.view, 0, mb_block(&s, 1, 0), collect, &ll, &count, &err),
        KILN_OK);
    assert_int_equal(count, 12);
    assert_string_equal(ll.text, "lights[0].color 0 vec3\n"
                                 "lights[0].intensity 12 float\n"
                                 "lights[0].dir 16 vec4\n"
                                 "lights[1].color 32 vec3\n"
                                 "lights[1].intensity 44 float\n"
                                 "lights[1].dir 48 vec4\n"
                                 "shadow.bias 64 float\n"
                                 "shadow.key.color 80 vec3\n"
                                 "shadow.key.intensity 92 float\n"
                                 "shadow.key.dir 96 vec4\n"
                                 "shadow.cascades 112 float[3]\n"
                                 "extra 160 vec4\n");
    mb_free(&s);

    mb_build(&s, std140_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    memset(&ll, 0, sizeof ll);
    assert_int_equal(
        kiln_material_block_leaves(&s.view, 0, mb_block(&s, 1, 0), collect, &ll, &count, &err),
        KILN_OK);
    assert_non_null(strstr(ll.text, "basis 80 mat3\nxform 128 mat4\ncell 192 ivec2\n"));
    assert_non_null(strstr(ll.text, "enabled 204 uint\n"));
    assert_non_null(strstr(ll.text, "grid 224 float[6]\n"));
    mb_free(&s);

    mb_build(&s, std430_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    memset(&ll, 0, sizeof ll);
    assert_int_equal(
        kiln_material_block_leaves(&s.view, 0, mb_block(&s, 1, 1), collect, &ll, &count, &err),
        KILN_OK);
    assert_string_equal(ll.text, "vals 0 float[3]\npair 16 vec2\nv3 32 vec3\nf 44 float\n"
                                 "m 48 mat2\nrest 64 float[]\n");
    mb_free(&s);

    char buf[32];
    assert_string_equal(kiln_shader_type_glsl(KILN_SHADER_TYPE_DOUBLE, 3, 2, buf, sizeof buf),
                        "dmat2x3");
    assert_string_equal(kiln_shader_type_glsl(KILN_SHADER_TYPE_HALF, 4, 1, buf, sizeof buf),
                        "f16vec4");
    assert_string_equal(kiln_shader_type_glsl(KILN_SHADER_TYPE_UINT, 1, 1, buf, sizeof buf),
                        "uint");
    assert_string_equal(kiln_shader_type_glsl(99, 1, 1, buf, sizeof buf), "unknown");
}

/* ---- stage interfaces ---------------------------------------------------------------------- */

static void expect_interface(const char *vert, const char *frag, kiln_result code,
                             const char *const *words)
{
    mb_shader v, f;
    mb_build(&v, vert, KILN_SHADER_VERTEX, 0, NULL, NULL);
    mb_build(&f, frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    kiln_error err;
    memset(&err, 0, sizeof err);
    kiln_result r = kiln_shader_interface_check(&v.view, 0, &f.view, 0, &err);
    if (r != code)
        fail_msg("expected %s, got %s: %s", kiln_result_name(code), kiln_result_name(r),
                 err.message);
    for (size_t i = 0; words && words[i]; i++)
        if (!strstr(err.message, words[i]))
            fail_msg("message \"%s\" lacks \"%s\"", err.message, words[i]);
    mb_free(&v);
    mb_free(&f);
}

#define VS(outs, body) "#version 450\n" outs "void main() { " body " gl_Position = vec4(0.0); }\n"
#define FS(ins, body)                                                                              \
    "#version 450\n" ins "layout(location = 0) out vec4 o;\nvoid main() { o = " body "; }\n"

static void stage_interfaces_match_by_location_type_and_flat(void **state)
{
    (void)state;
    /* the repository's PBR pair, every variant combination the renderer uses */
    mb_shader v, f;
    kiln_error err;
    const char *const skinned[] = {"SKINNED", NULL}, *const normal_map[] = {"NORMAL_MAP", NULL};
    mb_build_file(&v, "pbr_forward.vert", KILN_SHADER_VERTEX, 0, NULL, skinned);
    mb_build_file(&f, "pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, NULL, normal_map);
    assert_int_equal(kiln_shader_interface_check(&v.view, 0, &f.view, 0, &err), KILN_OK);
    assert_int_equal(kiln_shader_interface_check(&v.view, 1, &f.view, 0, &err), KILN_E_USAGE);
    assert_int_equal(kiln_shader_interface_check(NULL, 0, &f.view, 0, &err), KILN_E_USAGE);
    mb_free(&v);
    mb_free(&f);

    expect_interface(VS("layout(location = 0) out vec4 a;\nlayout(location = 1) flat out int i;\n",
                        "a = vec4(1.0); i = 1;"),
                     FS("layout(location = 0) in vec3 a;\nlayout(location = 1) flat in int i;\n",
                        "vec4(a, float(i))"),
                     KILN_OK, NULL); /* more output components than the input reads: fine */
    expect_interface(
        VS("layout(location = 1) out vec3 v_normal;\n", "v_normal = vec3(1.0);"),
        FS("layout(location = 1) in vec4 v_tangent;\n", "v_tangent"), KILN_E_IMPORT_SETTINGS,
        WORDS("location 1", "the vertex stage writes vec3 v_normal",
              "the fragment stage reads vec4 v_tangent", "the output has fewer components"));
    expect_interface(VS("layout(location = 2) out vec2 uv;\n", "uv = vec2(1.0);"),
                     FS("layout(location = 3) in vec2 uv;\n", "vec4(uv, 0.0, 1.0)"),
                     KILN_E_IMPORT_SETTINGS,
                     WORDS("location 3", "reads vec2 uv", "the vertex stage does not write"));
    expect_interface(
        VS("layout(location = 0) out vec2 uv;\n", "uv = vec2(1.0);"),
        FS("layout(location = 0) flat in vec2 uv;\n", "vec4(uv, 0.0, 1.0)"), KILN_E_IMPORT_SETTINGS,
        WORDS("location 0", "writes vec2 uv", "reads flat vec2 uv", "only one of them is flat"));
    expect_interface(VS("layout(location = 0) flat out ivec2 id;\n", "id = ivec2(1);"),
                     FS("layout(location = 0) in vec2 id2;\n", "vec4(id2, 0.0, 1.0)"),
                     KILN_E_IMPORT_SETTINGS,
                     WORDS("location 0", "flat ivec2 id", "vec2 id2", "the types differ"));
    expect_interface(VS("layout(location = 0) out float w[2];\n", "w[0] = 1.0; w[1] = 2.0;"),
                     FS("layout(location = 0) in float w[3];\n", "vec4(w[0] + w[2])"),
                     KILN_E_IMPORT_SETTINGS, WORDS("float[2] w", "float[3] w", "array sizes"));
}

/* ---- textures and alpha -------------------------------------------------------------------- */

static void textures_must_name_image_bindings_and_cover_the_material_set(void **state)
{
    (void)state;
    mb_shader s;
    kiln_error err;
    mb_build_file(&s, "pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    const char *all[] = {"base_color_texture", "metallic_roughness_texture", "normal_texture",
                         "occlusion_texture", "emissive_texture"};
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 1, all, NULL, 5, &err), KILN_OK);
    const char *typo[] = {"base_color_texture", "albdo"};
    const char *ptrs[] = {"/textures/base_color_texture", "/textures/albdo"};
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 1, typo, ptrs, 2, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "texture \"albdo\": no image binding"));
    assert_non_null(strstr(err.message, "base_color_texture (set 1, binding 1)"));
    assert_string_equal(err.json_pointer, "/textures/albdo");
    const char *four[] = {"base_color_texture", "metallic_roughness_texture", "occlusion_texture",
                          "emissive_texture"};
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 1, four, NULL, 4, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_non_null(
        strstr(err.message, "binding normal_texture (set 1, binding 3) has no texture"));
    /* set 2 holds no images: nothing is required there */
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 2, NULL, NULL, 0, &err), KILN_OK);
    const char *frame[] = {"frame"}; /* a uniform buffer is not an image */
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 2, frame, NULL, 1, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_int_equal(kiln_material_textures_check(NULL, 0, 1, NULL, NULL, 0, &err), KILN_E_USAGE);
    mb_free(&s);

    /* HLSL: a separate Texture2D counts; its SamplerState is no texture */
    mb_build_file(&s, "unlit_texture.hlsl", KILN_SHADER_FRAGMENT, 1, "PSMain", NULL);
    const char *hl[] = {"base_color_texture"};
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 1, hl, NULL, 1, &err), KILN_OK);
    const char *sm[] = {"base_color_texture", "base_color_sampler"};
    assert_int_equal(kiln_material_textures_check(&s.view, 0, 1, sm, NULL, 2, &err),
                     KILN_E_IMPORT_SETTINGS);
    mb_free(&s);
}

static void a_transparent_material_needs_a_shader_that_writes_alpha(void **state)
{
    (void)state;
    mb_shader s;
    kiln_error err;
    mb_build_file(&s, "pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    for (uint32_t mode = 0; mode < 3; mode++)
        assert_int_equal(kiln_material_alpha_check(&s.view, 0, mode, &err), KILN_OK);
    mb_free(&s);
    mb_build(&s,
             "#version 450\n"
             "layout(location = 0) out vec3 out_color;\n"
             "void main() { out_color = vec3(1.0); }\n",
             KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    assert_int_equal(kiln_material_alpha_check(&s.view, 0, KILN_MATERIAL_ALPHA_OPAQUE, &err),
                     KILN_OK);
    assert_int_equal(kiln_material_alpha_check(&s.view, 0, KILN_MATERIAL_ALPHA_BLEND, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.message, "alpha_mode blend needs a fragment shader that writes alpha: "
                                     "location 0 is vec3 out_color");
    mb_free(&s);
    mb_build(&s,
             "#version 450\n"
             "layout(location = 1) out vec4 other;\n"
             "void main() { other = vec4(1.0); }\n",
             KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    assert_int_equal(kiln_material_alpha_check(&s.view, 0, KILN_MATERIAL_ALPHA_MASK, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "alpha_mode mask needs"));
    assert_non_null(strstr(err.message, "no colour at location 0"));
    mb_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(std140_block_packs_at_the_hand_computed_offsets),
        cmocka_unit_test(matrices_take_columns_or_flat_column_major),
        cmocka_unit_test(nested_structs_and_arrays_of_structs_pack_by_path_and_by_object),
        cmocka_unit_test(std430_storage_and_push_constants_pack),
        cmocka_unit_test(scalar_layout_packs_without_padding),
        cmocka_unit_test(every_scalar_width_is_written_in_its_type),
        cmocka_unit_test(halves_round_like_the_float_converter),
        cmocka_unit_test(hlsl_cbuffer_packs_at_its_reflected_offsets),
        cmocka_unit_test(pbr_forward_material_block_packs),
        cmocka_unit_test(an_empty_parameter_list_gives_zeros_of_the_block_size),
        cmocka_unit_test(a_smaller_depth_overrides_a_larger_one_byte_by_byte),
        cmocka_unit_test(mistyped_values_are_refused_naming_the_parameter),
        cmocka_unit_test(bad_paths_are_refused_naming_the_parameter),
        cmocka_unit_test(a_parameter_given_twice_is_refused),
        cmocka_unit_test(limits_and_bad_arguments_are_refused),
        cmocka_unit_test(a_member_outside_its_block_is_format_invalid),
        cmocka_unit_test(blocks_are_found_by_default_name_binding_and_push),
        cmocka_unit_test(leaves_list_every_path_with_its_offset_and_type),
        cmocka_unit_test(stage_interfaces_match_by_location_type_and_flat),
        cmocka_unit_test(textures_must_name_image_bindings_and_cover_the_material_set),
        cmocka_unit_test(a_transparent_material_needs_a_shader_that_writes_alpha),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
