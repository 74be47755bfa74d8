/* test_typed_material_format.c — cooked typed materials (src/write/typed_material_write.c,
 * src/codec/typed_material_read.c, src/codec/cooked_typed_material.c) from materials built by
 * hand: every field back (a uniform block and two textures, no block and no texture, a push
 * block, 256 textures and a 64 KiB block), golden bytes, any alignment, every flip and
 * truncation refused, every check of the reader reached by one field changed under a valid
 * checksum, what the writer refuses, every allocation failing in turn, the kind's references
 * and description. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/typed_material_sections.h"
#include "core/alloc.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"
#include "write/typed_material_write.h"

#define VERTEX_ID   0x1111222233334444ull
#define FRAGMENT_ID 0x5555666677778888ull

/* The demo of docs/formats.md: a uniform block of 32 bytes (vec4 base_color, float roughness,
 * float metallic, 8 bytes of std140 padding) at set 1 binding 0, two textures at set 1 bindings
 * 1 and 2, alpha-tested, double-sided, depth tested and written. */
static const uint8_t demo_block[32] = {
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0x3E, 0x00, 0x00, 0x80, 0x3F,
    0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const kiln_typed_material_texture demo_textures[] = {
    {"albedo", 1, 1, 0xA1A1A1A1A1A1A1A1ull, KILN_MATERIAL_FILTER_LINEAR,
     KILN_MATERIAL_FILTER_LINEAR, KILN_MATERIAL_FILTER_LINEAR, KILN_MATERIAL_WRAP_REPEAT,
     KILN_MATERIAL_WRAP_REPEAT},
    {"normal_map", 1, 2, 0xB2B2B2B2B2B2B2B2ull, KILN_MATERIAL_FILTER_NEAREST,
     KILN_MATERIAL_FILTER_DEFAULT, KILN_MATERIAL_FILTER_DEFAULT, KILN_MATERIAL_WRAP_CLAMP,
     KILN_MATERIAL_WRAP_MIRROR},
};

static kiln_typed_material demo(void)
{
    kiln_typed_material m;
    memset(&m, 0, sizeof m);
    m.name = "brick";
    m.vertex = (kiln_typed_material_stage){VERTEX_ID, "default"};
    m.fragment = (kiln_typed_material_stage){FRAGMENT_ID, "alpha_test"};
    m.block_kind = KILN_TYPED_BLOCK_UNIFORM;
    m.block_set = 1;
    m.block_binding = 0;
    m.block_name = "MaterialParams";
    m.block = demo_block;
    m.block_size = sizeof demo_block;
    m.alpha_mode = KILN_MATERIAL_ALPHA_MASK;
    m.alpha_cutoff = 0.5f;
    m.blend = KILN_MATERIAL_BLEND_NONE;
    m.flags = KILN_TYPED_MATERIAL_DOUBLE_SIDED | KILN_TYPED_MATERIAL_DEPTH_TEST |
              KILN_TYPED_MATERIAL_DEPTH_WRITE;
    m.texture_count = 2;
    m.textures = demo_textures;
    return m;
}

static uint8_t *write_ok(const kiln_typed_material *m, size_t *size)
{
    uint8_t *bytes = NULL;
    kiln_error err;
    kiln_result r = kiln_typed_material_write(m, NULL, &bytes, size, &err);
    if (r != KILN_OK) fail_msg("write: %s: %s", kiln_result_name(r), err.message);
    return bytes;
}

/* The demo's bytes, malloc'd (free with free). */
static uint8_t *demo_bytes(size_t *size)
{
    kiln_typed_material m = demo();
    uint8_t *k = write_ok(&m, size);
    uint8_t *copy = malloc(*size);
    assert_non_null(copy);
    memcpy(copy, k, *size);
    kiln_free(NULL, k, *size);
    return copy;
}

static const char *nz(const char *s) { return s ? s : ""; }

static void assert_material_equal(const kiln_typed_material_view *v, const kiln_typed_material *m)
{
    const kiln_typed_material *g = &v->material;
    assert_int_equal(v->container.kind, KILN_TYPED_MATERIAL_KIND);
    assert_string_equal(g->name, nz(m->name));
    assert_true(g->vertex.shader == m->vertex.shader);
    assert_string_equal(g->vertex.variant, m->vertex.variant);
    assert_true(g->fragment.shader == m->fragment.shader);
    assert_string_equal(g->fragment.variant, m->fragment.variant);
    assert_int_equal(g->block_kind, m->block_kind);
    assert_int_equal(g->block_set, m->block_set);
    assert_int_equal(g->block_binding, m->block_binding);
    assert_string_equal(g->block_name, nz(m->block_name));
    assert_int_equal(g->block_size, m->block_size);
    if (m->block_size) assert_memory_equal(g->block, m->block, m->block_size);
    else assert_null(g->block);
    assert_int_equal(g->alpha_mode, m->alpha_mode);
    assert_true(g->alpha_cutoff == m->alpha_cutoff);
    assert_int_equal(g->blend, m->blend);
    assert_int_equal(g->flags, m->flags);
    assert_int_equal(g->texture_count, m->texture_count);
    assert_null(g->textures);
    for (uint32_t i = 0; i < m->texture_count; i++) {
        kiln_typed_material_texture t = kiln_typed_material_texture_at(v, i);
        const kiln_typed_material_texture *w = &m->textures[i];
        assert_string_equal(t.name, nz(w->name));
        assert_int_equal(t.set, w->set);
        assert_int_equal(t.binding, w->binding);
        assert_true(t.image == w->image);
        assert_int_equal(t.mag_filter, w->mag_filter);
        assert_int_equal(t.min_filter, w->min_filter);
        assert_int_equal(t.mip_filter, w->mip_filter);
        assert_int_equal(t.wrap_s, w->wrap_s);
        assert_int_equal(t.wrap_t, w->wrap_t);
    }
    kiln_typed_material_texture past = kiln_typed_material_texture_at(v, m->texture_count);
    assert_null(past.name);
    assert_true(past.image == 0);
}

/* Writes m, reads it back field by field, writes it again: the same bytes. */
static void round_trip(const kiln_typed_material *m)
{
    size_t size, again_size;
    uint8_t *bytes = write_ok(m, &size);
    kiln_typed_material_view v;
    kiln_error err;
    assert_int_equal(kiln_typed_material_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_material_equal(&v, m);
    uint8_t *again = write_ok(m, &again_size);
    assert_int_equal(again_size, size);
    assert_memory_equal(again, bytes, size);
    kiln_free(NULL, again, again_size);
    kiln_free(NULL, bytes, size);
}

static void round_trips(void **state)
{
    (void)state;
    kiln_typed_material m = demo();
    round_trip(&m);

    /* No block, no texture, no name, opaque, blended additively, nothing set. */
    kiln_typed_material bare;
    memset(&bare, 0, sizeof bare);
    bare.vertex = (kiln_typed_material_stage){1, "v"};
    bare.fragment = (kiln_typed_material_stage){2, "f"};
    bare.blend = KILN_MATERIAL_BLEND_ADDITIVE;
    bare.alpha_cutoff = 1.0f;
    round_trip(&bare);

    /* A push block and one texture at set 0 binding 0, premultiplied blending. */
    kiln_typed_material push = demo();
    static const uint8_t push_block[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const kiln_typed_material_texture one = {"t", 0, 0, 7, 2, 2, 0, 2, 2};
    push.block_kind = KILN_TYPED_BLOCK_PUSH;
    push.block_set = push.block_binding = 0;
    push.block_name = "Push";
    push.block = push_block;
    push.block_size = sizeof push_block;
    push.texture_count = 1;
    push.textures = &one;
    push.alpha_mode = KILN_MATERIAL_ALPHA_BLEND;
    push.blend = KILN_MATERIAL_BLEND_PREMULTIPLIED;
    push.alpha_cutoff = 0.0f;
    round_trip(&push);

    /* The most textures (sets and bindings in order, the same image at every binding, names
     * "" and long) and the largest block. */
    static kiln_typed_material_texture many[KILN_TYPED_MATERIAL_MAX_TEXTURES];
    static uint8_t big[KILN_TYPED_MATERIAL_MAX_BLOCK];
    static char names[KILN_TYPED_MATERIAL_MAX_TEXTURES][16];
    for (uint32_t i = 0; i < KILN_TYPED_MATERIAL_MAX_TEXTURES; i++) {
        snprintf(names[i], sizeof names[i], "tex_%u", i);
        many[i] = (kiln_typed_material_texture){i % 3 ? names[i] : NULL,
                                                i / 16,
                                                i % 16 * 3,
                                                42,
                                                (uint8_t)(i % 3),
                                                (uint8_t)((i + 1) % 3),
                                                (uint8_t)((i + 2) % 3),
                                                (uint8_t)(i % 3),
                                                (uint8_t)((i / 3) % 3)};
    }
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7);
    kiln_typed_material full = demo();
    full.texture_count = KILN_TYPED_MATERIAL_MAX_TEXTURES;
    full.textures = many;
    full.block = big;
    full.block_size = sizeof big;
    full.block_set = 9;
    full.block_binding = 99;
    round_trip(&full);
}

static void golden_bytes(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = demo_bytes(&size);
    kt_check_golden("typed_material_demo.tmat", bytes, size);
    free(bytes);
}

static void any_alignment(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = demo_bytes(&size);
    kiln_typed_material m = demo();
    for (size_t shift = 1; shift < 8; shift++) {
        uint8_t *odd = malloc(size + shift);
        assert_non_null(odd);
        memcpy(odd + shift, bytes, size);
        kiln_typed_material_view v;
        kiln_error err;
        assert_int_equal(kiln_typed_material_read(odd + shift, size, 0, &v, &err), KILN_OK);
        assert_material_equal(&v, &m);
        free(odd);
    }
    free(bytes);
}

/* ---- damage --------------------------------------------------------------------------------- */

/* What a reader that said OK promises: every string readable, every field in its range. */
static void assert_valid(const kiln_typed_material_view *v)
{
    const kiln_typed_material *m = &v->material;
    (void)strlen(m->name);
    assert_true(m->vertex.shader && m->fragment.shader);
    assert_true(strlen(m->vertex.variant) > 0 && strlen(m->fragment.variant) > 0);
    assert_true(m->block_kind <= KILN_TYPED_BLOCK_PUSH);
    (void)strlen(m->block_name);
    assert_true(m->block_size <= KILN_TYPED_MATERIAL_MAX_BLOCK);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < m->block_size; i++) sum += m->block[i];
    (void)sum;
    assert_true(m->block_kind != KILN_TYPED_BLOCK_NONE || m->block_size == 0);
    assert_true(m->alpha_mode <= KILN_MATERIAL_ALPHA_BLEND);
    assert_true(m->alpha_cutoff >= 0.0f && m->alpha_cutoff <= 1.0f);
    assert_true(m->blend < KILN_MATERIAL_BLEND_COUNT);
    assert_true(m->texture_count <= KILN_TYPED_MATERIAL_MAX_TEXTURES);
    uint64_t prev = 0;
    for (uint32_t i = 0; i < m->texture_count; i++) {
        kiln_typed_material_texture t = kiln_typed_material_texture_at(v, i);
        (void)strlen(t.name);
        assert_true(t.image != 0);
        uint64_t key = (uint64_t)t.set << 32 | t.binding;
        assert_true(i == 0 || key > prev);
        prev = key;
        assert_true(t.mag_filter <= 2 && t.min_filter <= 2 && t.mip_filter <= 2);
        assert_true(t.wrap_s <= 2 && t.wrap_t <= 2);
    }
}

static kiln_result read_view(void *user, const uint8_t *b, size_t n)
{
    kiln_error err;
    return kiln_typed_material_read(b, n, 0, user, &err);
}
static void check_view(void *user) { assert_valid(user); }

static void every_flip_and_truncation_is_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = demo_bytes(&size);
    kiln_typed_material_view v;
    kt_flip_counts c = kt_container_flips(bytes, size, read_view, check_view, &v);
    print_message("resealed flips: %zu refused, %zu accepted and valid\n", c.refused, c.accepted);
    assert_true(c.refused > 0 && c.accepted > 0);
    free(bytes);
}

/* File offset of section `id`'s data (from the table). */
static size_t section_offset(const uint8_t *bytes, uint32_t id)
{
    uint32_t count = kiln_load_u32le(bytes + 32);
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = bytes + 64 + 32 * (size_t)i;
        if (kiln_load_u32le(e) == id) return (size_t)kiln_load_u64le(e + 8);
    }
    fail_msg("no section");
    return 0;
}

static void one_field_changed_with_a_valid_checksum(void **state)
{
    (void)state;
    enum { FILE_, H, T, B, S };
    static const uint32_t ids[] = {0, KILN_TMAT_SECTION_HEADER, KILN_TMAT_SECTION_TEXTURES,
                                   KILN_TMAT_SECTION_BLOCK, KILN_TMAT_SECTION_STRINGS};
    const uint32_t T1 = KILN_TMAT_TEXTURE_SIZE;
    const uint32_t nan_bits = 0x7FC00000u, one_plus = 0x3F800001u, minus = 0xBF800000u;
    /* width: 1, 4 or 8 bytes written at the offset. The demo's strings: "" at 0, "brick" at 1,
     * "default" at 7, "alpha_test" at 15, "MaterialParams" at 26, "albedo" at 41, "normal_map"
     * at 48; 59 bytes. */
    const struct {
        int section;
        size_t at;
        int width;
        uint64_t value;
        kiln_result code;
        const char *fragment;
    } cases[] = {
        {FILE_, 8, 4, KILN_FOURCC('M', 'A', 'T', 'L'), KILN_E_FORMAT_INVALID, "not of kind TMAT"},
        {FILE_, 12, 4, 2, KILN_E_FORMAT_VERSION, "cook again"},
        {FILE_, 32, 4, 3, KILN_E_FORMAT_INVALID, ""}, /* the container itself refuses it */
        {FILE_, 64 + 32 * 1, 4, KILN_FOURCC('T', 'T', 'E', 'Y'), KILN_E_FORMAT_INVALID,
         "section 1"},
        {FILE_, 64 + 32 * 0 + 4, 4, 64, KILN_E_FORMAT_INVALID, ""},
        {H, KILN_TMAT_H_VERTEX_SHADER, 8, 0, KILN_E_FORMAT_INVALID, "vertex shader's id is 0"},
        {H, KILN_TMAT_H_FRAGMENT_SHADER, 8, 0, KILN_E_FORMAT_INVALID, "fragment shader's id"},
        {H, KILN_TMAT_H_VERTEX_VARIANT, 4, 0, KILN_E_FORMAT_INVALID, "vertex variant"},
        {H, KILN_TMAT_H_VERTEX_VARIANT, 4, 59, KILN_E_FORMAT_INVALID, "outside the strings"},
        {H, KILN_TMAT_H_FRAGMENT_VARIANT, 4, 0, KILN_E_FORMAT_INVALID, "fragment variant"},
        {H, KILN_TMAT_H_FRAGMENT_VARIANT, 4, 1000, KILN_E_FORMAT_INVALID, "fragment variant"},
        {H, KILN_TMAT_H_NAME, 4, 59, KILN_E_FORMAT_INVALID, "the name is outside"},
        {H, KILN_TMAT_H_BLOCK_KIND, 4, 3, KILN_E_FORMAT_INVALID, "unknown block kind"},
        {H, KILN_TMAT_H_BLOCK_KIND, 4, 0, KILN_E_FORMAT_INVALID, "block kind none"},
        {H, KILN_TMAT_H_BLOCK_KIND, 4, KILN_TYPED_BLOCK_PUSH, KILN_E_FORMAT_INVALID,
         "push-constant block with a set"},
        {H, KILN_TMAT_H_BLOCK_NAME, 4, 0xFFFFFFFFu, KILN_E_FORMAT_INVALID, "block's name"},
        {H, KILN_TMAT_H_BLOCK_SIZE, 4, 31, KILN_E_FORMAT_INVALID, "not PBLK's size"},
        {H, KILN_TMAT_H_ALPHA_MODE, 4, 3, KILN_E_FORMAT_INVALID, "unknown alpha mode"},
        {H, KILN_TMAT_H_ALPHA_CUTOFF, 4, nan_bits, KILN_E_FORMAT_INVALID, "cutoff"},
        {H, KILN_TMAT_H_ALPHA_CUTOFF, 4, one_plus, KILN_E_FORMAT_INVALID, "cutoff"},
        {H, KILN_TMAT_H_ALPHA_CUTOFF, 4, minus, KILN_E_FORMAT_INVALID, "cutoff"},
        {H, KILN_TMAT_H_ALPHA_CUTOFF, 4, 0x7F800000u, KILN_E_FORMAT_INVALID, "cutoff"},
        {H, KILN_TMAT_H_BLEND, 4, KILN_MATERIAL_BLEND_COUNT, KILN_E_FORMAT_INVALID,
         "unknown blend"},
        {H, KILN_TMAT_H_FLAGS, 4, 8, KILN_E_FORMAT_INVALID, "unknown material flags"},
        {H, KILN_TMAT_H_TEXTURE_COUNT, 4, 1, KILN_E_FORMAT_INVALID, "not TTEX's count"},
        {H, KILN_TMAT_H_TEXTURE_COUNT, 4, 257, KILN_E_FORMAT_INVALID, "texture count over 256"},
        {H, KILN_TMAT_H_RESERVED, 4, 1, KILN_E_FORMAT_INVALID, "reserved"},
        {T, KILN_TMAT_T_IMAGE, 8, 0, KILN_E_FORMAT_INVALID, "texture 0: image id 0"},
        {T, T1 + KILN_TMAT_T_IMAGE, 8, 0, KILN_E_FORMAT_INVALID, "texture 1: image id 0"},
        {T, KILN_TMAT_T_NAME, 4, 59, KILN_E_FORMAT_INVALID, "texture 0: name outside"},
        {T, T1 + KILN_TMAT_T_BINDING, 4, 1, KILN_E_FORMAT_INVALID, "texture 1: (set, binding)"},
        {T, T1 + KILN_TMAT_T_SET, 4, 0, KILN_E_FORMAT_INVALID, "texture 1: (set, binding)"},
        {T, KILN_TMAT_T_SET, 4, 2, KILN_E_FORMAT_INVALID, "texture 1: (set, binding)"},
        {T, KILN_TMAT_T_MAG, 1, 3, KILN_E_FORMAT_INVALID, "texture 0: unknown filter"},
        {T, KILN_TMAT_T_MIN, 1, 3, KILN_E_FORMAT_INVALID, "unknown filter"},
        {T, T1 + KILN_TMAT_T_MIP, 1, 0xFF, KILN_E_FORMAT_INVALID, "texture 1: unknown filter"},
        {T, KILN_TMAT_T_WRAP_S, 1, 3, KILN_E_FORMAT_INVALID, "unknown wrap"},
        {T, T1 + KILN_TMAT_T_WRAP_T, 1, 3, KILN_E_FORMAT_INVALID, "texture 1: unknown wrap"},
        {T, KILN_TMAT_T_RESERVED, 1, 1, KILN_E_FORMAT_INVALID, "texture 0: reserved"},
        {T, KILN_TMAT_TEXTURE_SIZE - 1, 1, 1, KILN_E_FORMAT_INVALID, "texture 0: reserved"},
        {S, 0, 1, 'x', KILN_E_FORMAT_INVALID, "start and end with a NUL"},
        {S, 58, 1, 'x', KILN_E_FORMAT_INVALID, "start and end with a NUL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        uint8_t *bytes = demo_bytes(&size);
        assert_int_equal(size, 427); /* the layout the offsets above assume */
        size_t at = cases[i].at +
                    (cases[i].section == FILE_ ? 0 : section_offset(bytes, ids[cases[i].section]));
        if (cases[i].width == 1) bytes[at] = (uint8_t)cases[i].value;
        else if (cases[i].width == 4) kiln_store_u32le(bytes + at, (uint32_t)cases[i].value);
        else kiln_store_u64le(bytes + at, cases[i].value);
        kt_container_reseal(bytes, size);
        kiln_typed_material_view v;
        kiln_error err;
        kiln_result r = kiln_typed_material_read(bytes, size, 0, &v, &err);
        if (r != cases[i].code || !strstr(err.message, cases[i].fragment))
            fail_msg("case %zu: %s: %s", i, kiln_result_name(r), err.message);
        static const kiln_typed_material_view zero;
        assert_memory_equal(&v, &zero, sizeof v);
        free(bytes);
    }
    kiln_error err;
    assert_int_equal(kiln_typed_material_read("", 0, 0, NULL, &err), KILN_E_USAGE);
}

/* A block kind of none with a name, a set or a binding (its size stays 0): the reader refuses
 * each, so the writer does. */
static void expect_refused(const kiln_typed_material *m, kiln_result code, const char *fragment)
{
    uint8_t *bytes = (uint8_t *)1;
    size_t size = 1;
    kiln_error err;
    kiln_result r = kiln_typed_material_write(m, NULL, &bytes, &size, &err);
    if (r != code || !strstr(err.message, fragment))
        fail_msg("expected %s \"%s\", got %s: %s", kiln_result_name(code), fragment,
                 kiln_result_name(r), err.message);
    assert_null(bytes);
    assert_int_equal(size, 0);
}

static void writer_refuses_what_the_reader_would(void **state)
{
    (void)state;
    kiln_typed_material m = demo();
    expect_refused(NULL, KILN_E_USAGE, "NULL");
    m.vertex.variant = NULL;
    expect_refused(&m, KILN_E_USAGE, "variant name is NULL");
    m = demo();
    m.fragment.variant = "";
    expect_refused(&m, KILN_E_USAGE, "fragment variant");
    m = demo();
    m.vertex.shader = 0;
    expect_refused(&m, KILN_E_USAGE, "vertex shader's id is 0");
    m = demo();
    m.block = NULL;
    expect_refused(&m, KILN_E_USAGE, "block bytes at NULL");
    m = demo();
    m.textures = NULL;
    expect_refused(&m, KILN_E_USAGE, "textures at NULL");
    m = demo();
    m.block_size = KILN_TYPED_MATERIAL_MAX_BLOCK + 1;
    expect_refused(&m, KILN_E_LIMIT, "block");
    m = demo();
    m.texture_count = KILN_TYPED_MATERIAL_MAX_TEXTURES + 1;
    expect_refused(&m, KILN_E_LIMIT, "textures");
    m = demo();
    m.alpha_cutoff = NAN;
    expect_refused(&m, KILN_E_USAGE, "cutoff");
    m = demo();
    m.alpha_cutoff = 1.5f;
    expect_refused(&m, KILN_E_USAGE, "cutoff");
    m = demo();
    m.blend = 9;
    expect_refused(&m, KILN_E_USAGE, "blend");
    m = demo();
    m.alpha_mode = 3;
    expect_refused(&m, KILN_E_USAGE, "alpha mode");
    m = demo();
    m.flags = 1u << 5;
    expect_refused(&m, KILN_E_USAGE, "flags");
    m = demo();
    m.block_kind = 7;
    expect_refused(&m, KILN_E_USAGE, "block kind");
    m = demo();
    m.block_kind = KILN_TYPED_BLOCK_PUSH; /* set 1 */
    expect_refused(&m, KILN_E_USAGE, "push-constant block with a set");
    m = demo();
    m.block_kind = KILN_TYPED_BLOCK_NONE; /* 32 bytes left */
    expect_refused(&m, KILN_E_USAGE, "block kind none");
    m = demo();
    m.block_kind = KILN_TYPED_BLOCK_NONE;
    m.block_size = 0;
    m.block_set = 0;
    m.block_name = NULL;
    m.block_binding = 3;
    expect_refused(&m, KILN_E_USAGE, "block kind none");
    m.block_binding = 0;
    m.block_name = "Params";
    expect_refused(&m, KILN_E_USAGE, "block kind none");
    m = demo();
    m.block_size = 0;
    expect_refused(&m, KILN_E_USAGE, "without bytes");
    kiln_typed_material_texture swapped[2] = {demo_textures[1], demo_textures[0]};
    m = demo();
    m.textures = swapped;
    expect_refused(&m, KILN_E_USAGE, "texture 1: (set, binding)");
    kiln_typed_material_texture same[2] = {demo_textures[0], demo_textures[0]};
    m.textures = same;
    expect_refused(&m, KILN_E_USAGE, "texture 1: (set, binding)");
    kiln_typed_material_texture bad[2] = {demo_textures[0], demo_textures[1]};
    m.textures = bad;
    bad[1].image = 0;
    expect_refused(&m, KILN_E_USAGE, "texture 1: image id 0");
    bad[1] = demo_textures[1];
    bad[1].wrap_s = 3;
    expect_refused(&m, KILN_E_USAGE, "texture 1: unknown wrap");
    bad[1] = demo_textures[1];
    bad[1].mip_filter = 3;
    expect_refused(&m, KILN_E_USAGE, "texture 1: unknown filter");
}

/* ---- allocation failures -------------------------------------------------------------------- */

typedef struct failing {
    long countdown; /* allocations left before failing; < 0 never fails */
    long live;
} failing;

static void *f_alloc(void *user, size_t size, size_t align)
{
    failing *f = user;
    if (f->countdown == 0) return NULL;
    if (f->countdown > 0) f->countdown--;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size)) return NULL;
    f->live++;
    return p;
}

static void *f_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    failing *f = user;
    (void)old_size;
    if (f->countdown == 0) return NULL;
    if (f->countdown > 0) f->countdown--;
    return realloc(ptr, new_size);
}

static void f_free(void *user, void *ptr, size_t size)
{
    failing *f = user;
    (void)size;
    if (ptr) f->live--;
    free(ptr);
}

static void every_allocation_failure_is_an_error_without_leaks(void **state)
{
    (void)state;
    kiln_typed_material m = demo();
    long n;
    for (n = 0;; n++) {
        failing f = {n, 0};
        kiln_allocator a = {f_alloc, f_realloc, f_free, &f};
        uint8_t *bytes = NULL;
        size_t size = 0;
        kiln_error err;
        kiln_result r = kiln_typed_material_write(&m, &a, &bytes, &size, &err);
        if (r == KILN_OK) {
            kiln_free(&a, bytes, size);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    print_message("%ld allocation failures, each an error without a leak\n", n);
    assert_true(n >= 2);
}

/* ---- the kind ------------------------------------------------------------------------------- */

typedef struct ref_log {
    uint64_t ids[8];
    uint32_t kinds[8], flags[8];
    size_t count;
} ref_log;

static kiln_result log_ref(void *user, uint64_t id, uint32_t kind, uint32_t flags, kiln_error *err)
{
    (void)err;
    ref_log *l = user;
    assert_true(l->count < 8);
    l->ids[l->count] = id;
    l->kinds[l->count] = kind;
    l->flags[l->count++] = flags;
    return KILN_OK;
}

static void the_kind_is_registered_with_its_references(void **state)
{
    (void)state;
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(KILN_TYPED_MATERIAL_KIND);
    assert_non_null(k);
    assert_string_equal(k->name, "typed_material");
    const char *prefix = NULL;
    assert_ptr_equal(kiln_cooked_kind_of_label("typed_material", &prefix), k);
    assert_string_equal(prefix, "typed_material");
    /* "material" stays the glTF material's (MATL). */
    assert_ptr_equal(kiln_cooked_kind_of_label("material", NULL),
                     kiln_cooked_kind_of_fourcc(KILN_MATERIAL_KIND));
    size_t size;
    uint8_t *bytes = demo_bytes(&size);
    uint32_t fourcc;
    assert_ptr_equal(kiln_cooked_kind_of_bytes(bytes, size, &fourcc), k);
    void *view = calloc(1, k->view_size);
    assert_non_null(view);
    kiln_error err;
    assert_int_equal(k->read(bytes, size, 0, view, &err), KILN_OK);
    ref_log log = {0};
    assert_non_null(k->refs);
    assert_int_equal(k->refs(view, log_ref, &log, &err), KILN_OK);
    assert_int_equal(log.count, 4);
    const uint64_t ids[] = {VERTEX_ID, FRAGMENT_ID, 0xA1A1A1A1A1A1A1A1ull, 0xB2B2B2B2B2B2B2B2ull};
    for (size_t i = 0; i < 4; i++) {
        assert_true(log.ids[i] == ids[i]);
        assert_int_equal(log.kinds[i], i < 2 ? KILN_SHADER_KIND : KILN_PACK_KIND_KTX2);
        assert_int_equal(log.flags[i], i < 2 ? KILN_REF_LOAD : KILN_REF_LOAD | KILN_REF_ONCE);
    }
    assert_non_null(k->describe);
    free(view);
    free(bytes);
}

static void fuzz_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS");
    if (!on || strcmp(on, "1") != 0) skip();
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    kiln_typed_material ms[3] = {demo(), demo(), demo()};
    static const uint8_t push_block[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ms[1].block_kind = KILN_TYPED_BLOCK_NONE;
    ms[1].block_size = 0;
    ms[1].block = NULL;
    ms[1].block_name = NULL;
    ms[1].block_set = 0;
    ms[1].texture_count = 0;
    ms[2].block_kind = KILN_TYPED_BLOCK_PUSH;
    ms[2].block_set = 0;
    ms[2].block = push_block;
    ms[2].block_size = sizeof push_block;
    ms[2].texture_count = 1;
    static const char *const names[] = {"demo", "bare", "push"};
    for (int i = 0; i < 3; i++) {
        size_t size;
        uint8_t *bytes = write_ok(&ms[i], &size);
        char path[4096];
        snprintf(path, sizeof path, "%s/fuzz/corpus/typed_material/%s.tmat", src, names[i]);
        kt_write_file(path, bytes, size);
        kiln_free(NULL, bytes, size);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips),
        cmocka_unit_test(golden_bytes),
        cmocka_unit_test(any_alignment),
        cmocka_unit_test(every_flip_and_truncation_is_refused),
        cmocka_unit_test(one_field_changed_with_a_valid_checksum),
        cmocka_unit_test(writer_refuses_what_the_reader_would),
        cmocka_unit_test(every_allocation_failure_is_an_error_without_leaks),
        cmocka_unit_test(the_kind_is_registered_with_its_references),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
