/* test_shader_format.c — cooked shaders (src/write/shader_write.c, src/codec/shader_read.c,
 * src/codec/cooked_shader.c) from reflection tables built by hand: every field back through
 * the accessors (two variants, nested structs, runtime arrays, spec constants, a compute
 * workgroup), golden bytes, words at any alignment, every flip and truncation refused,
 * structural damage with a valid checksum, what the writer refuses (struct cycles, nesting past
 * the limit, a foreign stage), every allocation failing in turn, the kind's description. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/shader_sections.h"
#include "core/alloc.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"
#include "shader_fixture.h"

#define NONE KILN_SHADER_NONE

static const char *rname(const kiln_shader_reflection *r, uint32_t off) { return r->strings + off; }

/* Every record of the view's variant vi equals the reflection it was written from. */
static void assert_variant_equal(const kiln_shader_view *v, uint32_t vi,
                                 const kiln_cooked_shader_variant *want)
{
    const kiln_shader_reflection *r = want->reflection;
    kiln_shader_variant_info x = kiln_shader_variant_at(v, vi);
    assert_string_equal(x.name, want->name);
    assert_string_equal(x.defines, want->defines ? want->defines : "");
    assert_int_equal(x.word_count, want->word_count);
    assert_non_null(x.words); /* malloc'd bytes on a little-endian host */
    assert_memory_equal(x.words, want->words, want->word_count * 4);
    assert_int_equal(x.binding_count, r->binding_count);
    assert_int_equal(x.block_count, r->block_count);
    assert_int_equal(x.member_count, r->member_count);
    assert_int_equal(x.input_count, r->input_count);
    assert_int_equal(x.output_count, r->output_count);
    assert_int_equal(x.constant_count, r->constant_count);
    assert_memory_equal(x.workgroup, r->workgroup, sizeof x.workgroup);
    assert_memory_equal(x.workgroup_spec, r->workgroup_spec, sizeof x.workgroup_spec);
    assert_int_equal(x.push_block, r->push_block);
    assert_int_equal(x.push_size, r->push_size);
    for (uint32_t i = 0; i < r->binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(v, vi, i);
        const kiln_shader_binding *w = &r->bindings[i];
        assert_string_equal(b.name, rname(r, w->name));
        uint32_t got[] = {b.set,       b.binding,     b.resource,         b.count, b.block,
                          b.image_dim, b.image_flags, b.input_attachment, b.flags};
        assert_memory_equal(got, &w->set, sizeof got);
    }
    for (uint32_t i = 0; i < r->block_count; i++) {
        kiln_shader_block_info b = kiln_shader_block_at(v, vi, i);
        const kiln_shader_block *w = &r->blocks[i];
        assert_string_equal(b.name, rname(r, w->name));
        uint32_t got[] = {b.size, b.layout, b.first_member, b.member_count};
        assert_memory_equal(got, &w->size, sizeof got);
    }
    for (uint32_t i = 0; i < r->member_count; i++) {
        kiln_shader_member_info m = kiln_shader_member_at(v, vi, i);
        const kiln_shader_member *w = &r->members[i];
        assert_string_equal(m.name, rname(r, w->name));
        uint32_t got[] = {m.offset,  m.size,        m.type,         m.vec_size,
                          m.columns, m.array_count, m.array_stride, m.matrix_stride,
                          m.flags,   m.struct_block};
        assert_memory_equal(got, &w->offset, sizeof got);
    }
    for (int out = 0; out <= 1; out++) {
        uint32_t n = out ? r->output_count : r->input_count;
        for (uint32_t i = 0; i < n; i++) {
            kiln_shader_io_info io =
                out ? kiln_shader_output_at(v, vi, i) : kiln_shader_input_at(v, vi, i);
            const kiln_shader_io *w = out ? &r->outputs[i] : &r->inputs[i];
            assert_string_equal(io.name, rname(r, w->name));
            uint32_t got[] = {io.location, io.component,   io.type, io.vec_size,
                              io.columns,  io.array_count, io.flags};
            assert_memory_equal(got, &w->location, sizeof got);
        }
    }
    for (uint32_t i = 0; i < r->constant_count; i++) {
        kiln_shader_constant_info c = kiln_shader_constant_at(v, vi, i);
        const kiln_shader_spec_constant *w = &r->constants[i];
        assert_string_equal(c.name, rname(r, w->name));
        assert_int_equal(c.id, w->id);
        assert_int_equal(c.type, w->type);
        assert_memory_equal(c.default_bits, w->default_bits, 8);
    }
}

static void assert_shader_equal(const kiln_shader_view *v, const kiln_cooked_shader *s)
{
    assert_int_equal(v->container.kind, KILN_SHADER_KIND);
    assert_int_equal(v->stage, s->stage);
    assert_int_equal(v->language, s->language);
    assert_int_equal(v->target, s->target);
    assert_int_equal(v->optimize, s->optimize);
    assert_int_equal(v->flags, s->flags);
    assert_string_equal(v->entry, s->entry);
    assert_int_equal(v->variant_count, s->variant_count);
    for (uint32_t i = 0; i < v->variant_count; i++) assert_variant_equal(v, i, &s->variants[i]);
}

static void round_trip_of_every_field(void **state)
{
    (void)state;
    for (int compute = 0; compute <= 1; compute++) {
        kt_shader_fixture f;
        if (compute) kt_shader_compute(&f);
        else kt_shader_vertex(&f);
        uint8_t *bytes;
        size_t size;
        kiln_error err;
        assert_int_equal(kiln_shader_write(&f.shader, NULL, &bytes, &size, &err), KILN_OK);
        kiln_shader_view v;
        assert_int_equal(kiln_shader_read(bytes, size, 0, &v, &err), KILN_OK);
        assert_shader_equal(&v, &f.shader);
        /* Deterministic: a second write gives the same bytes. */
        uint8_t *again;
        size_t again_size;
        assert_int_equal(kiln_shader_write(&f.shader, NULL, &again, &again_size, &err), KILN_OK);
        assert_int_equal(again_size, size);
        assert_memory_equal(again, bytes, size);
        kiln_free(NULL, again, again_size);
        kiln_free(NULL, bytes, size);
    }
}

static void depths_lookup_and_out_of_range(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = kt_shader_bytes(0, &size);
    assert_non_null(bytes);
    kiln_shader_view v;
    kiln_error err;
    assert_int_equal(kiln_shader_read(bytes, size, 0, &v, &err), KILN_OK);
    /* Globals > Material > Inner; LightBuffer > Light; Push flat. */
    static const uint32_t depths[] = {2, 1, 0, 1, 0, 0};
    for (uint32_t b = 0; b < 6; b++)
        assert_int_equal(kiln_shader_block_at(&v, 1, b).depth, depths[b]);
    assert_int_equal(kiln_shader_find_variant(&v, "skinned"), 1);
    assert_int_equal(kiln_shader_find_variant(&v, "default"), 0);
    assert_int_equal(kiln_shader_find_variant(&v, "skinne"), -1);
    assert_int_equal(kiln_shader_find_variant(&v, NULL), -1);
    assert_null(kiln_shader_variant_at(&v, 2).name);
    assert_null(kiln_shader_binding_at(&v, 0, 3).name); /* "default" has three */
    assert_non_null(kiln_shader_binding_at(&v, 1, 3).name);
    assert_null(kiln_shader_block_at(&v, 2, 0).name);
    assert_null(kiln_shader_member_at(&v, 0, 15).name);
    assert_null(kiln_shader_input_at(&v, 0, 3).name);
    assert_null(kiln_shader_output_at(&v, 1, 2).name);
    assert_null(kiln_shader_constant_at(&v, 0, 3).name);
    assert_string_equal(kiln_shader_constant_at(&v, 0, 2).name, "");
    assert_int_equal(kiln_shader_variant_words(&v, 2, NULL, 0), 0);
    free(bytes);
}

static void golden_bytes(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = kt_shader_bytes(1, &size);
    assert_non_null(bytes);
    kt_check_golden("shader_compute.kshader", bytes, size);
    free(bytes);
}

/* Words at an odd address: no pointer, the copy gives them in host order. */
static void words_at_any_alignment(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = kt_shader_bytes(0, &size);
    assert_non_null(bytes);
    uint8_t *odd = malloc(size + 1);
    assert_non_null(odd);
    memcpy(odd + 1, bytes, size);
    kiln_shader_view v;
    kiln_error err;
    assert_int_equal(kiln_shader_read(odd + 1, size, 0, &v, &err), KILN_OK);
    kt_shader_fixture f;
    kt_shader_vertex(&f);
    for (uint32_t i = 0; i < 2; i++) {
        kiln_shader_variant_info x = kiln_shader_variant_at(&v, i);
        assert_null(x.words);
        uint32_t w[12] = {0};
        assert_int_equal(kiln_shader_variant_words(&v, i, w, 11), 12); /* too small: no copy */
        assert_int_equal(w[0], 0);
        assert_int_equal(kiln_shader_variant_words(&v, i, w, 12), 12);
        assert_memory_equal(w, f.words[i], sizeof w);
        assert_int_equal(w[0], KILN_SHADER_SPIRV_MAGIC);
    }
    free(odd);
    free(bytes);
}

/* ---- damage --------------------------------------------------------------------------------- */

/* What a reader that said OK promises, through the accessors only: every name a string, every
 * index inside its table, every struct walk ending within the depth. */
static void assert_valid(const kiln_shader_view *v)
{
    assert_true(v->variant_count >= 1 && v->variant_count <= KILN_SHADER_MAX_VARIANTS);
    assert_non_null(v->entry);
    for (uint32_t vi = 0; vi < v->variant_count; vi++) {
        kiln_shader_variant_info x = kiln_shader_variant_at(v, vi);
        assert_true(strlen(x.name) > 0);
        (void)strlen(x.defines);
        assert_true(x.word_count >= 5);
        uint32_t *w = malloc(x.word_count * 4);
        assert_non_null(w);
        assert_int_equal(kiln_shader_variant_words(v, vi, w, x.word_count), x.word_count);
        assert_int_equal(w[0], KILN_SHADER_SPIRV_MAGIC);
        free(w);
        assert_true(x.push_block == NONE || x.push_block < x.block_count);
        for (uint32_t i = 0; i < x.binding_count; i++) {
            kiln_shader_binding_info b = kiln_shader_binding_at(v, vi, i);
            (void)strlen(b.name);
            assert_true(b.resource < KILN_SHADER_RESOURCE_COUNT);
            assert_true(b.block == NONE || b.block < x.block_count);
        }
        for (uint32_t b = 0; b < x.block_count; b++) {
            kiln_shader_block_info bk = kiln_shader_block_at(v, vi, b);
            (void)strlen(bk.name);
            assert_true(bk.depth <= KILN_SHADER_MAX_DEPTH);
            assert_true((uint64_t)bk.first_member + bk.member_count <= x.member_count);
            /* Walk down the first struct member of each level: ends within depth steps. */
            uint32_t at = b, steps = 0;
            for (;;) {
                kiln_shader_block_info cur = kiln_shader_block_at(v, vi, at);
                uint32_t next = NONE;
                for (uint32_t m = 0; m < cur.member_count && next == NONE; m++)
                    next = kiln_shader_member_at(v, vi, cur.first_member + m).struct_block;
                if (next == NONE) break;
                assert_true(next < x.block_count);
                assert_true(kiln_shader_block_at(v, vi, next).depth < cur.depth);
                at = next;
                assert_true(++steps <= bk.depth);
            }
        }
        for (uint32_t i = 0; i < x.member_count; i++) {
            kiln_shader_member_info m = kiln_shader_member_at(v, vi, i);
            (void)strlen(m.name);
            assert_true(m.vec_size >= 1 && m.vec_size <= 4 && m.columns >= 1 && m.columns <= 4);
        }
        for (uint32_t i = 0; i < x.input_count + x.output_count; i++) {
            kiln_shader_io_info io = i < x.input_count
                                         ? kiln_shader_input_at(v, vi, i)
                                         : kiln_shader_output_at(v, vi, i - x.input_count);
            (void)strlen(io.name);
        }
        for (uint32_t i = 0; i < x.constant_count; i++)
            (void)strlen(kiln_shader_constant_at(v, vi, i).name);
    }
}

static kiln_result read_shader(void *user, const uint8_t *b, size_t n)
{
    kiln_error err;
    return kiln_shader_read(b, n, 0, user, &err);
}
static void check_shader(void *user) { assert_valid(user); }

static void every_flip_and_truncation_is_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = kt_shader_bytes(0, &size);
    assert_non_null(bytes);
    kiln_shader_view v;
    kt_flip_counts c = kt_container_flips(bytes, size, read_shader, check_shader, &v);
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

static void structural_damage_with_valid_checksum(void **state)
{
    (void)state;
    kiln_shader_view v;
    kiln_error err;
    enum { H, V, W, BI, BL, ME, IN, OU, SP, ST };
    static const uint32_t ids[] = {KILN_SHADER_SECTION_HEADER,    KILN_SHADER_SECTION_VARIANTS,
                                   KILN_SHADER_SECTION_WORDS,     KILN_SHADER_SECTION_BINDINGS,
                                   KILN_SHADER_SECTION_BLOCKS,    KILN_SHADER_SECTION_MEMBERS,
                                   KILN_SHADER_SECTION_INPUTS,    KILN_SHADER_SECTION_OUTPUTS,
                                   KILN_SHADER_SECTION_CONSTANTS, KILN_SHADER_SECTION_STRINGS};
    /* The vertex fixture: variant 0 has 3 bindings, 6 blocks, 15 members (Globals 0..3,
     * LightBuffer 4..5, Push 6..7, Material 8..10, Light 11..13, Inner 14), 3 inputs. */
    const uint32_t V1 = KILN_SHADER_VARIANT_SIZE, BK = KILN_SHADER_BLOCK_SIZE,
                   MB = KILN_SHADER_MEMBER_SIZE, BD = KILN_SHADER_BINDING_SIZE;
    const struct {
        int section;
        size_t at; /* within the section */
        uint32_t value;
        kiln_result code;
        const char *fragment;
    } cases[] = {
        {-1, 8, KILN_FOURCC('M', 'A', 'T', 'L'), KILN_E_FORMAT_INVALID, "not of kind SHDR"},
        {-1, 12, 2, KILN_E_FORMAT_VERSION, "cook again"},
        {-1, 64 + 32 * 3, KILN_FOURCC('B', 'I', 'N', 'X'), KILN_E_FORMAT_INVALID, "section 3"},
        {H, 0, KILN_SHADER_STAGE_COUNT, KILN_E_FORMAT_INVALID, "unknown stage"},
        {H, 4, 2, KILN_E_FORMAT_INVALID, "language"},
        {H, 8, 4, KILN_E_FORMAT_INVALID, "target"},
        {H, 12, 3, KILN_E_FORMAT_INVALID, "optimization"},
        {H, 16, 2, KILN_E_FORMAT_INVALID, "flags"},
        {H, 28, 1, KILN_E_FORMAT_INVALID, "reserved"},
        {H, 20, 0, KILN_E_FORMAT_INVALID, "entry point"},
        {H, 20, 100000, KILN_E_FORMAT_INVALID, "entry point"},
        {H, 24, 1, KILN_E_FORMAT_INVALID, "variant count"},
        {H, 24, 0, KILN_E_FORMAT_INVALID, "variant count"},
        {V, 0, 0, KILN_E_FORMAT_INVALID, "empty name"},
        {V, V1 + 0, 6, KILN_E_FORMAT_INVALID, "the name of variant 0 again"}, /* "default" */
        {V, 4, 99999, KILN_E_FORMAT_INVALID, "bad defines"},
        {V, 8, 1, KILN_E_FORMAT_INVALID, "word range"},
        {V, 12, 4, KILN_E_FORMAT_INVALID, "word range"},
        {V, 12, 11, KILN_E_FORMAT_INVALID, "variant 1: word range"},
        {V, V1 + 12, 13, KILN_E_FORMAT_INVALID, "word range"},
        {V, V1 + 12, 11, KILN_E_FORMAT_INVALID, "cover section SPRV"},
        {V, 16, 1, KILN_E_FORMAT_INVALID, "binding range"},
        {V, 20, 2, KILN_E_FORMAT_INVALID, "binding range"}, /* variant 1 no longer follows */
        {V, V1 + 20, 3, KILN_E_FORMAT_INVALID, "cover section binding"},
        {V, V1 + 60, 9, KILN_E_FORMAT_INVALID, "cover section constant"},
        {V, 88, 6, KILN_E_FORMAT_INVALID, "push block"},
        {V, 88, NONE, KILN_E_FORMAT_INVALID, "push size"},
        {W, 0, 0x03022307u, KILN_E_FORMAT_INVALID, "magic"}, /* the magic byte-swapped */
        {BI, 12, KILN_SHADER_RESOURCE_COUNT, KILN_E_FORMAT_INVALID, "unknown resource"},
        {BI, 20, 6, KILN_E_FORMAT_INVALID, "block out of range"},
        {BI, 2 * BD + 24, 7, KILN_E_FORMAT_INVALID, "image dimension"},
        {BI, 2 * BD + 28, 8, KILN_E_FORMAT_INVALID, "image dimension or flags"},
        {BI, 36, 4, KILN_E_FORMAT_INVALID, "binding 0: unknown flags"},
        {BI, 2 * BD, 99999, KILN_E_FORMAT_INVALID, "binding 2: bad name"},
        {BL, 8, 3, KILN_E_FORMAT_INVALID, "unknown layout"},
        {BL, 12, 13, KILN_E_FORMAT_INVALID, "member range"},
        {BL, 16, 5, KILN_E_FORMAT_INVALID, "member range"}, /* counts sum past the members */
        {BL, 20, 1, KILN_E_FORMAT_INVALID, "block 0: wrong depth"},
        {BL, 5 * BK + 20, 1, KILN_E_FORMAT_INVALID, "block 3: wrong depth"},
        /* Inner's member becomes a struct of Globals: Globals > Material > Inner > Globals. */
        {ME, 14 * MB + 12, KILN_SHADER_TYPE_STRUCT, KILN_E_FORMAT_INVALID, "struct block"},
        {ME, 14 * MB + 40, 0, KILN_E_FORMAT_INVALID, "struct block"},
        {ME, 2 * MB + 40, 6, KILN_E_FORMAT_INVALID, "member 2: struct block out of range"},
        {ME, 2 * MB + 40, 5, KILN_E_FORMAT_INVALID, "block 0: wrong depth"},
        {ME, 12, 15, KILN_E_FORMAT_INVALID, "unknown type"},
        {ME, 16, 5, KILN_E_FORMAT_INVALID, "shape"},
        {ME, 20, 0, KILN_E_FORMAT_INVALID, "shape"},
        {ME, 36, 2, KILN_E_FORMAT_INVALID, "member 0: unknown flags"},
        {IN, 12, 99, KILN_E_FORMAT_INVALID, "input 0: unknown type"},
        {IN, 28, 4, KILN_E_FORMAT_INVALID, "input 0: unknown type, shape or flags"},
        {OU, 16, 0, KILN_E_FORMAT_INVALID, "output 0"},
        {SP, 8, 15, KILN_E_FORMAT_INVALID, "constant 0: unknown type"},
        {SP, 0, 99999, KILN_E_FORMAT_INVALID, "constant 0: bad name"},
        {ST, 0, 'x', KILN_E_FORMAT_INVALID, "start and end with a NUL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        uint8_t *bytes = kt_shader_bytes(0, &size);
        assert_non_null(bytes);
        if (cases[i].section == ST) {
            bytes[section_offset(bytes, ids[ST])] = (uint8_t)cases[i].value;
        } else {
            size_t at = cases[i].at +
                        (cases[i].section < 0 ? 0 : section_offset(bytes, ids[cases[i].section]));
            kiln_store_u32le(bytes + at, cases[i].value);
        }
        kt_container_reseal(bytes, size);
        kiln_result r = kiln_shader_read(bytes, size, 0, &v, &err);
        if (r != cases[i].code || !strstr(err.message, cases[i].fragment))
            fail_msg("case %zu: %s: %s", i, kiln_result_name(r), err.message);
        static const kiln_shader_view zero;
        assert_memory_equal(&v, &zero, sizeof v);
        free(bytes);
    }
    assert_int_equal(kiln_shader_read("", 0, 0, NULL, &err), KILN_E_USAGE);
}

/* ---- what the writer refuses ---------------------------------------------------------------- */

static void expect_refused(const kiln_cooked_shader *s, kiln_result code, const char *fragment)
{
    uint8_t *bytes = (uint8_t *)1;
    size_t size = 1;
    kiln_error err;
    kiln_result r = kiln_shader_write(s, NULL, &bytes, &size, &err);
    if (r != code || !strstr(err.message, fragment))
        fail_msg("expected %s \"%s\", got %s: %s", kiln_result_name(code), fragment,
                 kiln_result_name(r), err.message);
    assert_null(bytes);
    assert_int_equal(size, 0);
}

static void writer_refuses_what_the_reader_would(void **state)
{
    (void)state;
    kt_shader_fixture f;
    kt_shader_vertex(&f);
    /* A cycle: Inner's member becomes a struct of Globals. */
    f.members[0][14].type = KILN_SHADER_TYPE_STRUCT;
    f.members[0][14].struct_block = 0;
    expect_refused(&f.shader, KILN_E_LIMIT, "cycle");
    kt_shader_vertex(&f);
    f.members[0][14].struct_block = 9;
    expect_refused(&f.shader, KILN_E_USAGE, "struct block out of range");
    kt_shader_vertex(&f);
    f.blocks[1][0].member_count = 40;
    expect_refused(&f.shader, KILN_E_USAGE, "members out of range");
    kt_shader_vertex(&f);
    f.reflections[1].stage = KILN_SHADER_FRAGMENT;
    expect_refused(&f.shader, KILN_E_USAGE, "another stage");
    kt_shader_vertex(&f);
    f.shader.entry = "vs_main";
    expect_refused(&f.shader, KILN_E_USAGE, "entry point");
    kt_shader_vertex(&f);
    f.inputs[0][1].name = 4000;
    expect_refused(&f.shader, KILN_E_USAGE, "outside its strings");
    kt_shader_vertex(&f);
    f.variants[1].name = "default";
    expect_refused(&f.shader, KILN_E_USAGE, "the name of variant 0 again");
    kt_shader_vertex(&f);
    f.words[1][0] = 0x03022307u;
    expect_refused(&f.shader, KILN_E_USAGE, "magic");
    kt_shader_vertex(&f);
    f.variants[0].word_count = 4;
    expect_refused(&f.shader, KILN_E_USAGE, "under 5 words");
    kt_shader_vertex(&f);
    f.reflections[0].push_block = NONE; /* push size 8 left */
    expect_refused(&f.shader, KILN_E_USAGE, "push size");
    kt_shader_vertex(&f);
    f.members[0][0].vec_size = 0;
    expect_refused(&f.shader, KILN_E_USAGE, "shape");
    kt_shader_vertex(&f);
    f.shader.variant_count = 0;
    expect_refused(&f.shader, KILN_E_USAGE, "variants");
    kt_shader_vertex(&f);
    f.variants[0].reflection = NULL;
    expect_refused(&f.shader, KILN_E_USAGE, "no reflection");
    kt_shader_vertex(&f);
    f.reflections[0].strings_size = 0;
    expect_refused(&f.shader, KILN_E_USAGE, "NUL");
    expect_refused(NULL, KILN_E_USAGE, "NULL");
}

/* Structs nested exactly KILN_SHADER_MAX_DEPTH deep are written; one more is refused. */
static void nesting_up_to_the_limit(void **state)
{
    (void)state;
    enum { N = KILN_SHADER_MAX_DEPTH + 2 };
    static kiln_shader_block blocks[N];
    static kiln_shader_member members[N];
    static char strings[] = "\0main\0s";
    for (int depth_limit = 0; depth_limit <= 1; depth_limit++) {
        uint32_t n = depth_limit ? N : N - 1; /* blocks; block 0's depth is n - 1 */
        for (uint32_t b = 0; b < n; b++) {
            blocks[b] = (kiln_shader_block){6, 16, KILN_SHADER_LAYOUT_STD430, b, 1};
            members[b] =
                (kiln_shader_member){6, 0, 16, KILN_SHADER_TYPE_STRUCT, 1, 1, 1, 0, 0, 0, b + 1};
        }
        members[n - 1].type = KILN_SHADER_TYPE_FLOAT;
        members[n - 1].struct_block = NONE;
        kiln_shader_reflection r = {0};
        r.stage = KILN_SHADER_FRAGMENT;
        r.entry_point = 1;
        r.push_block = NONE;
        r.blocks = blocks;
        r.block_count = n;
        r.members = members;
        r.member_count = n;
        r.strings = strings;
        r.strings_size = sizeof strings;
        uint32_t words[5] = {KILN_SHADER_SPIRV_MAGIC, 0x10000, 0, 1, 0};
        kiln_cooked_shader_variant var = {"default", NULL, words, 5, &r};
        kiln_cooked_shader s = {KILN_SHADER_FRAGMENT, 0, 0, 0, 0, "main", &var, 1};
        if (depth_limit) {
            expect_refused(&s, KILN_E_LIMIT, "more than 64 deep");
            continue;
        }
        uint8_t *bytes;
        size_t size;
        kiln_error err;
        assert_int_equal(kiln_shader_write(&s, NULL, &bytes, &size, &err), KILN_OK);
        kiln_shader_view v;
        assert_int_equal(kiln_shader_read(bytes, size, 0, &v, &err), KILN_OK);
        assert_int_equal(kiln_shader_block_at(&v, 0, 0).depth, KILN_SHADER_MAX_DEPTH);
        assert_valid(&v);
        kiln_free(NULL, bytes, size);
    }
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
    kt_shader_fixture fx;
    kt_shader_vertex(&fx);
    long n;
    for (n = 0;; n++) {
        failing f = {n, 0};
        kiln_allocator a = {f_alloc, f_realloc, f_free, &f};
        uint8_t *bytes = NULL;
        size_t size = 0;
        kiln_error err;
        kiln_result r = kiln_shader_write(&fx.shader, &a, &bytes, &size, &err);
        if (r == KILN_OK) {
            kiln_free(&a, bytes, size);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    print_message("%ld allocation failures, each an error without a leak\n", n);
    assert_true(n >= 3);
}

/* ---- the kind ------------------------------------------------------------------------------- */

static void the_kind_is_registered(void **state)
{
    (void)state;
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(KILN_SHADER_KIND);
    assert_non_null(k);
    assert_string_equal(k->name, "shader");
    assert_ptr_equal(kiln_cooked_kind_of_label("shader", NULL), k);
    assert_null(k->refs);
    size_t size;
    uint8_t *bytes = kt_shader_bytes(1, &size);
    assert_non_null(bytes);
    uint32_t fourcc;
    assert_ptr_equal(kiln_cooked_kind_of_bytes(bytes, size, &fourcc), k);
    void *view = calloc(1, k->view_size);
    assert_non_null(view);
    kiln_error err;
    assert_int_equal(k->read(bytes, size, 0, view, &err), KILN_OK);
    assert_int_equal(((kiln_shader_view *)view)->stage, KILN_SHADER_COMPUTE);
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
    for (int compute = 0; compute <= 1; compute++) {
        size_t size;
        uint8_t *bytes = kt_shader_bytes(compute, &size);
        assert_non_null(bytes);
        char path[4096];
        snprintf(path, sizeof path, "%s/fuzz/corpus/shader/%s.kshader", src,
                 compute ? "compute" : "vertex_two_variants");
        kt_write_file(path, bytes, size);
        free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_of_every_field),
        cmocka_unit_test(depths_lookup_and_out_of_range),
        cmocka_unit_test(golden_bytes),
        cmocka_unit_test(words_at_any_alignment),
        cmocka_unit_test(every_flip_and_truncation_is_refused),
        cmocka_unit_test(structural_damage_with_valid_checksum),
        cmocka_unit_test(writer_refuses_what_the_reader_would),
        cmocka_unit_test(nesting_up_to_the_limit),
        cmocka_unit_test(every_allocation_failure_is_an_error_without_leaks),
        cmocka_unit_test(the_kind_is_registered),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
