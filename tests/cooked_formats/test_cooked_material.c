/* test_cooked_material.c — cooked materials (src/process/material.c, src/codec/material_*.c):
 * what the build keeps of a scene material (factors, flags, samplers, transforms, ids), the
 * round trip through writer and reader, pinned golden bytes, every flip and truncation refused,
 * hand-made damage with a valid checksum, and the writer refusing what the reader would. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cooked_fixture.h"
#include "core/alloc.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "process/material.h"
#include "write/material_write.h"

static void assert_materials_equal(const kiln_material *a, const kiln_material *b)
{
    assert_int_equal(a->name_size, b->name_size);
    assert_memory_equal(a->name, b->name, a->name_size);
    assert_int_equal(b->name[b->name_size], 0);
    assert_memory_equal(a->base_color, b->base_color, sizeof a->base_color);
    assert_true(a->metallic == b->metallic && a->roughness == b->roughness);
    assert_memory_equal(a->emissive, b->emissive, sizeof a->emissive);
    assert_true(a->emissive_strength == b->emissive_strength);
    assert_true(a->normal_scale == b->normal_scale);
    assert_true(a->occlusion_strength == b->occlusion_strength);
    assert_true(a->alpha_cutoff == b->alpha_cutoff);
    assert_int_equal(a->alpha_mode, b->alpha_mode);
    assert_int_equal(a->double_sided, b->double_sided);
    assert_int_equal(a->unlit, b->unlit);
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kiln_material_texture *x = &a->textures[s], *y = &b->textures[s];
        assert_true(x->image == y->image);
        assert_int_equal(x->texcoord, y->texcoord);
        assert_int_equal(x->mag_filter, y->mag_filter);
        assert_int_equal(x->min_filter, y->min_filter);
        assert_int_equal(x->mip_filter, y->mip_filter);
        assert_int_equal(x->mipmaps, y->mipmaps);
        assert_int_equal(x->wrap_s, y->wrap_s);
        assert_int_equal(x->wrap_t, y->wrap_t);
        assert_int_equal(x->has_transform, y->has_transform);
        assert_memory_equal(x->offset, y->offset, sizeof x->offset);
        assert_true(x->rotation == y->rotation);
        assert_memory_equal(x->scale, y->scale, sizeof x->scale);
        assert_memory_equal(x->matrix, y->matrix, sizeof x->matrix);
    }
}

static void build_fixture(kiln_scene **scene, kiln_cooked_material *m, uint32_t index)
{
    *scene = kt_fixture_scene(false);
    assert_non_null(*scene);
    uint64_t ids[KILN_SCENE_SLOT_COUNT];
    kt_fixture_image_ids(index, ids);
    kiln_error err;
    if (kiln_material_build(*scene, (int32_t)index, ids, m, &err) != KILN_OK)
        fail_msg("%s", err.message);
}

static void build_keeps_every_parameter(void **state)
{
    (void)state;
    kiln_scene *scene;
    kiln_cooked_material m;
    build_fixture(&scene, &m, 0);
    assert_string_equal(m.name, "painted");
    assert_int_equal(m.name_size, 7);
    assert_true(m.base_color[0] == 0.8f && m.base_color[3] == 0.5f);
    assert_true(m.metallic == 0.25f && m.roughness == 0.75f);
    assert_true(m.emissive[0] == 1.0f && m.emissive[1] == 0.5f && m.emissive[2] == 0.0f);
    assert_true(m.emissive_strength == 5.0f); /* kept apart from the factor */
    assert_true(m.normal_scale == 0.5f && m.occlusion_strength == 0.7f);
    assert_int_equal(m.alpha_mode, KILN_MATERIAL_ALPHA_MASK);
    assert_true(m.alpha_cutoff == 0.3f);
    assert_true(m.double_sided);
    assert_false(m.unlit);
    const kiln_material_texture *bc = &m.textures[KILN_MATERIAL_SLOT_BASE_COLOR];
    assert_true(bc->image == kiln_asset_id(KT_FIXTURE_GUID, "image0"));
    assert_int_equal(bc->texcoord, 1);
    assert_int_equal(bc->mag_filter, KILN_MATERIAL_FILTER_LINEAR);
    assert_int_equal(bc->min_filter, KILN_MATERIAL_FILTER_LINEAR);
    assert_int_equal(bc->mip_filter, KILN_MATERIAL_FILTER_LINEAR);
    assert_true(bc->mipmaps);
    assert_int_equal(bc->wrap_s, KILN_MATERIAL_WRAP_CLAMP);
    assert_int_equal(bc->wrap_t, KILN_MATERIAL_WRAP_MIRROR);
    assert_true(bc->has_transform);
    assert_true(bc->offset[0] == 0.5f && bc->offset[1] == 0.25f);
    assert_true(bc->rotation == 1.5707964f);
    assert_true(bc->scale[0] == 2.0f && bc->scale[1] == 3.0f);
    /* Rotation by ~90 degrees, scale (2, 3): u' = 3 v + 0.5, v' = -2 u + 0.25. */
    const float want[6] = {0.0f, -2.0f, 3.0f, 0.0f, 0.5f, 0.25f};
    for (int i = 0; i < 6; i++) assert_true(fabsf(bc->matrix[i] - want[i]) < 1e-6f);
    const kiln_material_texture *mr = &m.textures[KILN_MATERIAL_SLOT_METALLIC_ROUGHNESS];
    assert_true(mr->image == kiln_asset_id(KT_FIXTURE_GUID, "image0/metallic_roughness"));
    assert_int_equal(mr->mag_filter, KILN_MATERIAL_FILTER_NEAREST);
    assert_int_equal(mr->min_filter, KILN_MATERIAL_FILTER_NEAREST);
    assert_false(mr->mipmaps); /* NEAREST has no mip part */
    assert_int_equal(mr->mip_filter, 0);
    assert_int_equal(mr->wrap_s, KILN_MATERIAL_WRAP_REPEAT);
    assert_false(mr->has_transform);
    const float identity[6] = {1, 0, 0, 1, 0, 0};
    assert_memory_equal(mr->matrix, identity, sizeof identity);
    assert_true(mr->scale[0] == 1.0f && mr->scale[1] == 1.0f);
    const kiln_material_texture *nm = &m.textures[KILN_MATERIAL_SLOT_NORMAL];
    /* Texture 2 has no sampler: glTF's default (renderer's filters, mipmaps, repeat). */
    assert_int_equal(nm->mag_filter, 0);
    assert_true(nm->mipmaps);
    assert_int_equal(nm->wrap_s, KILN_MATERIAL_WRAP_REPEAT);
    assert_int_equal(nm->wrap_t, KILN_MATERIAL_WRAP_REPEAT);
    kiln_scene_free(scene);
}

static void the_transform_matrix_moves_uvs_as_renderers_do(void **state)
{
    (void)state;
    /* uv' = T * R * S * uv with R = [c s; -s c]: (1, 0) scaled by 2 then rotated by +90 degrees
     * lands at (0, -2), plus the offset. */
    float m[6];
    const float off[2] = {0.25f, 0.5f}, sc[2] = {2.0f, 4.0f};
    kiln_material_transform_matrix(off, 1.5707964f, sc, m);
    float u = 1, v = 0;
    float u2 = m[0] * u + m[2] * v + m[4], v2 = m[1] * u + m[3] * v + m[5];
    assert_true(fabsf(u2 - 0.25f) < 1e-6f && fabsf(v2 - (0.5f - 2.0f)) < 1e-6f);
    u = 0, v = 1;
    u2 = m[0] * u + m[2] * v + m[4], v2 = m[1] * u + m[3] * v + m[5];
    assert_true(fabsf(u2 - (0.25f + 4.0f)) < 1e-6f && fabsf(v2 - 0.5f) < 1e-6f);
    kiln_material_transform_matrix((const float[2]){0, 0}, 0.0f, (const float[2]){1, 1}, m);
    const float identity[6] = {1, 0, 0, 1, 0, 0};
    assert_memory_equal(m, identity, sizeof identity);
}

static void unlit_blend_and_default_material(void **state)
{
    (void)state;
    kiln_scene *scene;
    kiln_cooked_material m;
    build_fixture(&scene, &m, 1);
    assert_string_equal(m.name, "flat");
    assert_true(m.unlit);
    assert_int_equal(m.alpha_mode, KILN_MATERIAL_ALPHA_BLEND);
    for (int s = 0; s < 5; s++) assert_true(m.textures[s].image == 0);
    kiln_error err;
    assert_int_equal(kiln_material_build(scene, -1, NULL, &m, &err), KILN_OK);
    assert_string_equal(m.name, "");
    assert_true(m.base_color[0] == 1.0f && m.metallic == 1.0f && m.roughness == 1.0f);
    assert_true(m.alpha_cutoff == 0.5f && m.emissive_strength == 1.0f);
    assert_int_equal(m.alpha_mode, KILN_MATERIAL_ALPHA_OPAQUE);
    uint8_t *bytes;
    size_t size;
    assert_int_equal(kiln_material_write(&m, NULL, &bytes, &size, &err), KILN_OK);
    kiln_material_view v;
    assert_int_equal(kiln_material_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_materials_equal(&m, &v.material);
    kiln_free(NULL, bytes, size);
    kiln_scene_free(scene);
}

static void slots_without_an_image_are_empty_and_ids_need_a_texture(void **state)
{
    (void)state;
    kiln_scene *scene;
    kiln_cooked_material m;
    build_fixture(&scene, &m, 0);
    kiln_error err;
    /* The pipeline cooked no images (--textures none): every slot empty, all zero. */
    assert_int_equal(kiln_material_build(scene, 0, NULL, &m, &err), KILN_OK);
    static const kiln_material_texture zero;
    for (int s = 0; s < 5; s++) assert_memory_equal(&m.textures[s], &zero, sizeof zero);
    /* An id for a slot the source leaves empty is the caller's mistake. */
    uint64_t ids[KILN_SCENE_SLOT_COUNT] = {0};
    ids[KILN_MATERIAL_SLOT_EMISSIVE] = 42;
    assert_int_equal(kiln_material_build(scene, 1, ids, &m, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "emissive"));
    assert_int_equal(kiln_material_build(scene, -1, ids, &m, &err), KILN_E_USAGE);
    assert_int_equal(kiln_material_build(scene, 2, NULL, &m, &err), KILN_E_USAGE);
    assert_int_equal(kiln_material_build(scene, -2, NULL, &m, &err), KILN_E_USAGE);
    assert_int_equal(kiln_material_build(NULL, 0, NULL, &m, &err), KILN_E_USAGE);
    kiln_scene_free(scene);
}

static void bad_source_values_are_errors(void **state)
{
    (void)state;
    kiln_scene *scene = kt_fixture_scene(false);
    assert_non_null(scene);
    uint64_t ids[KILN_SCENE_SLOT_COUNT];
    kt_fixture_image_ids(0, ids);
    kiln_scene_material *mats = (kiln_scene_material *)scene->materials;
    kiln_scene_texture *texs = (kiln_scene_texture *)scene->textures;
    kiln_cooked_material m;
    kiln_error err;
    const kiln_scene_material keep = mats[0];
    mats[0].base_color[1] = NAN;
    assert_int_equal(kiln_material_build(scene, 0, ids, &m, &err), KILN_E_IMPORT_FAILED);
    mats[0] = keep;
    mats[0].roughness = 1.5f;
    assert_int_equal(kiln_material_build(scene, 0, ids, &m, &err), KILN_E_IMPORT_FAILED);
    mats[0] = keep;
    mats[0].textures[0].texcoord = 4;
    assert_int_equal(kiln_material_build(scene, 0, ids, &m, &err), KILN_E_IMPORT_UNSUPPORTED);
    mats[0] = keep;
    mats[0].textures[0].uv_scale[0] = INFINITY;
    assert_int_equal(kiln_material_build(scene, 0, ids, &m, &err), KILN_E_IMPORT_FAILED);
    mats[0] = keep;
    mats[0].textures[2].texture = 7;
    assert_int_equal(kiln_material_build(scene, 0, ids, &m, &err), KILN_E_IMPORT_FAILED);
    mats[0] = keep;
    texs[0].sampler = 9;
    assert_int_equal(kiln_material_build(scene, 0, ids, &m, &err), KILN_E_IMPORT_FAILED);
    static const kiln_material zero;
    assert_memory_equal(&m, &zero, sizeof m); /* zeroed on error */
    kiln_scene_free(scene);
}

static void round_trip_and_golden_bytes(void **state)
{
    (void)state;
    kiln_scene *scene;
    kiln_cooked_material m;
    build_fixture(&scene, &m, 0);
    uint8_t *bytes, *again;
    size_t size, again_size;
    kiln_error err;
    assert_int_equal(kiln_material_write(&m, NULL, &bytes, &size, &err), KILN_OK);
    /* header, table, MATP, MTEX, "painted\0" (+8 to align), MEXT, MXTX */
    assert_int_equal(size, 64 + 5 * 32 + 64 + 320 + 16 + 128 + 12 * 64);
    kiln_material_view v;
    assert_int_equal(kiln_material_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_int_equal(v.container.kind, KILN_MATERIAL_KIND);
    assert_materials_equal(&m, &v.material);
    assert_true((const uint8_t *)v.material.name >= bytes &&
                (const uint8_t *)v.material.name < bytes + size); /* a view, not a copy */
    kt_check_golden("material_painted.matl", bytes, size);
    assert_int_equal(kiln_material_write(&m, NULL, &again, &again_size, &err), KILN_OK);
    assert_int_equal(size, again_size);
    assert_memory_equal(bytes, again, size);
    kiln_free(NULL, again, again_size);
    kiln_free(NULL, bytes, size);
    kiln_scene_free(scene);
}

/* What a reader that said OK promises. */
static void assert_valid(const kiln_material *m)
{
    for (int i = 0; i < 4; i++) assert_true(m->base_color[i] >= 0 && m->base_color[i] <= 1);
    assert_true(m->alpha_mode <= 2 && isfinite(m->normal_scale) && m->alpha_cutoff >= 0);
    assert_int_equal(strlen(m->name), m->name_size);
    for (int s = 0; s < 5; s++) {
        const kiln_material_texture *t = &m->textures[s];
        assert_true(t->texcoord < 4 && t->wrap_s <= 2 && t->mag_filter <= 2);
        for (int i = 0; i < 6; i++) assert_true(isfinite(t->matrix[i]));
    }
}

static kiln_result read_material(void *user, const uint8_t *b, size_t n)
{
    kiln_error err;
    return kiln_material_read(b, n, 0, user, &err);
}
static void check_material(void *user) { assert_valid(&((kiln_material_view *)user)->material); }

static void every_flip_and_truncation_is_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = kt_fixture_material_bytes(0, &size);
    assert_non_null(bytes);
    kiln_material_view v;
    kt_flip_counts c = kt_container_flips(bytes, size, read_material, check_material, &v);
    /* Accepted: bits of ids, names, and floats that stay in range. */
    print_message("resealed flips: %zu refused, %zu accepted and valid\n", c.refused, c.accepted);
    free(bytes);
}

static void structural_damage_with_valid_checksum(void **state)
{
    (void)state;
    size_t size;
    kiln_material_view v;
    kiln_error err;
    /* File offsets: table at 64, MATP at 224, MTEX at 288 (slot s at 288 + 64 s), NAME at 608,
     * MEXT at 624, MXTX at 752 (slot s at 752 + 64 s). */
    const struct {
        size_t at;
        uint32_t value;
        int width;
        kiln_result code;
        const char *fragment;
    } cases[] = {
        {8, KILN_FOURCC('M', 'E', 'S', 'H'), 4, KILN_E_FORMAT_INVALID, "not of kind MATL"},
        {12, 1, 4, KILN_E_FORMAT_VERSION, "cook again"},
        {64, KILN_FOURCC('M', 'A', 'T', 'Q'), 4, KILN_E_FORMAT_INVALID, "sections"},
        {224 + 4, 0x40000000u, 4, KILN_E_FORMAT_INVALID, "base colour"}, /* 2.0 */
        {224 + 16, 0x7FC00000u, 4, KILN_E_FORMAT_INVALID, "not finite"}, /* NaN metallic */
        {224 + 36, 0xBF800000u, 4, KILN_E_FORMAT_INVALID, "emissive strength"},
        {224 + 52, 3, 4, KILN_E_FORMAT_INVALID, "alpha mode"},
        {224 + 56, 4, 4, KILN_E_FORMAT_INVALID, "material flags"},
        {224 + 60, 1, 4, KILN_E_FORMAT_INVALID, "reserved"},
        {288 + 8, 4, 4, KILN_E_FORMAT_INVALID, "texcoord"},
        {288 + 12, 3, 1, KILN_E_FORMAT_INVALID, "filter"},
        {288 + 15, 4, 1, KILN_E_FORMAT_INVALID, "texture flags"},
        {288 + 16, 3, 1, KILN_E_FORMAT_INVALID, "wrap"},
        {288 + 18, 1, 1, KILN_E_FORMAT_INVALID, "reserved texture"},
        {288 + 40, 0x7F800000u, 4, KILN_E_FORMAT_INVALID, "not finite"},    /* Inf matrix */
        {288 + 64 + 14, 1, 1, KILN_E_FORMAT_INVALID, "mip filter without"}, /* MR: no mips */
        {608 + 3, 0, 1, KILN_E_FORMAT_INVALID, "holds a NUL"},
        {608 + 7, 'x', 1, KILN_E_FORMAT_INVALID, "no NUL"},
        {624, 1u << 11, 4, KILN_E_FORMAT_INVALID, "unknown extension bits"},
        {624, KILN_MATERIAL_EXT_UNLIT, 4, KILN_E_FORMAT_INVALID, "unlit"},
        {624 + 4, 0x3F000000u, 4, KILN_E_FORMAT_INVALID, "default"}, /* clearcoat 0.5, absent */
        {624 + 56, 0x3F000000u, 4, KILN_E_FORMAT_INVALID, "ior"},    /* 0.5: not 0, not >= 1 */
        {624 + 16, 0x7FC00000u, 4, KILN_E_FORMAT_INVALID, "sheen_color"}, /* NaN */
        {624 + 104, 1, 1, KILN_E_FORMAT_INVALID, "reserved extension"},
        {752, 7, 4, KILN_E_FORMAT_INVALID, "absent"}, /* a clearcoat image, no clearcoat */
        {752 + 8, 4, 4, KILN_E_FORMAT_INVALID, "empty texture slot"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *bytes = kt_fixture_material_bytes(0, &size);
        assert_int_equal(size, 1520);
        if (cases[i].width == 4) kiln_store_u32le(bytes + cases[i].at, cases[i].value);
        else bytes[cases[i].at] = (uint8_t)cases[i].value;
        kt_container_reseal(bytes, size);
        kiln_result r = kiln_material_read(bytes, size, 0, &v, &err);
        if (r != cases[i].code || !strstr(err.message, cases[i].fragment))
            fail_msg("case %zu: %s: %s", i, kiln_result_name(r), err.message);
        if (r == KILN_E_FORMAT_INVALID && cases[i].at >= 224 && err.offset != cases[i].at &&
            !(cases[i].at >= 608 && cases[i].at < 624))
            fail_msg("case %zu: offset %llu, expected %zu", i, (unsigned long long)err.offset,
                     cases[i].at);
        free(bytes);
    }
    /* An empty slot (emissive of material 1) with a stray byte. */
    uint8_t *bytes = kt_fixture_material_bytes(1, &size);
    bytes[288 + 4 * 64 + 30] = 1;
    kt_container_reseal(bytes, size);
    assert_int_equal(kiln_material_read(bytes, size, 0, &v, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "empty texture slot"));
    assert_int_equal(kiln_material_read(bytes, size, 0, NULL, &err), KILN_E_USAGE);
    free(bytes);
}

static void writer_refuses_what_the_reader_would(void **state)
{
    (void)state;
    kiln_scene *scene;
    kiln_cooked_material m;
    build_fixture(&scene, &m, 0);
    uint8_t *bytes = (uint8_t *)1;
    size_t size = 1;
    kiln_error err;
    kiln_cooked_material bad = m;
    bad.base_color[0] = 2.0f;
    assert_int_equal(kiln_material_write(&bad, NULL, &bytes, &size, &err), KILN_E_USAGE);
    assert_null(bytes);
    assert_int_equal(size, 0);
    assert_non_null(strstr(err.message, "base colour"));
    bad = m;
    bad.textures[3].texcoord = 9;
    assert_int_equal(kiln_material_write(&bad, NULL, &bytes, &size, &err), KILN_E_USAGE);
    bad = m;
    bad.name = "a\0b";
    bad.name_size = 3;
    assert_int_equal(kiln_material_write(&bad, NULL, &bytes, &size, &err), KILN_E_USAGE);
    assert_int_equal(kiln_material_write(NULL, NULL, &bytes, &size, &err), KILN_E_USAGE);
    kiln_scene_free(scene);
}

/* KILN_WRITE_FUZZ_SEEDS=1: writes fuzz/corpus/material/ from the fixture (then review them). */
static void fuzz_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS");
    if (!on || strcmp(on, "1") != 0) skip();
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    for (int32_t mat = -1; mat <= 1; mat++) {
        size_t size;
        uint8_t *bytes = kt_fixture_material_bytes(mat, &size);
        assert_non_null(bytes);
        char *path = kt_format("%s/fuzz/corpus/material/%s.matl", src,
                               mat < 0    ? "default"
                               : mat == 0 ? "painted"
                                          : "flat");
        kt_write_file(path, bytes, size);
        free(path);
        free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(build_keeps_every_parameter),
        cmocka_unit_test(the_transform_matrix_moves_uvs_as_renderers_do),
        cmocka_unit_test(unlit_blend_and_default_material),
        cmocka_unit_test(slots_without_an_image_are_empty_and_ids_need_a_texture),
        cmocka_unit_test(bad_source_values_are_errors),
        cmocka_unit_test(round_trip_and_golden_bytes),
        cmocka_unit_test(every_flip_and_truncation_is_refused),
        cmocka_unit_test(structural_damage_with_valid_checksum),
        cmocka_unit_test(writer_refuses_what_the_reader_would),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
