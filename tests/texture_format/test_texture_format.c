/* test_texture_format.c — the texture format table is consistent with itself and with what
 * refers to it: every row round-trips name <-> id <-> VkFormat pair, its VkFormats are in the
 * KTX2 table as sRGB/linear twins, it has a decoder (HDR rows excepted: RGBA8 cannot hold them)
 * and a cook encoder, format auto picks exactly one row for every role on every GPU, and the
 * picks are what docs/settings.md promises. */
#include <string.h>

#include "support.h"

#include "codec/texture_format.h"
#include "codec/vk_format.h"
#include "process/block.h"

static const kiln_texture_format_info *row_of(int f)
{
    const kiln_texture_format_info *row = kiln_texture_format_get((kiln_texture_format)f);
    assert_non_null(row);
    return row;
}

static void texture_format_rows_round_trip_name_id_and_vk_formats(void **state)
{
    (void)state;
    for (int f = KILN_TEXFMT_AUTO + 1; f < KILN_TEXFMT_COUNT; f++) {
        const kiln_texture_format_info *row = row_of(f);
        assert_non_null(row->name);
        assert_string_equal(kiln_texture_format_name((kiln_texture_format)f), row->name);
        kiln_texture_format back = KILN_TEXFMT_AUTO;
        assert_true(kiln_texture_format_from_name(row->name, strlen(row->name), &back));
        assert_int_equal(back, f);

        bool srgb = true;
        assert_int_not_equal(row->vk_linear, 0);
        /* A Basis row builds RGBA8 levels but writes vkFormat 0: RGBA8 stays the RGBA8 row's */
        if (row->basis) {
            assert_int_equal(kiln_texture_format_of_vk(row->vk_linear, NULL), KILN_TEXFMT_RGBA8);
            continue;
        }
        assert_int_equal(kiln_texture_format_of_vk(row->vk_linear, &srgb), f);
        assert_false(srgb);
        assert_int_equal(kiln_texture_format_vk((kiln_texture_format)f, false), row->vk_linear);
        assert_int_equal(kiln_texture_format_has_srgb((kiln_texture_format)f), row->vk_srgb != 0);
        if (row->vk_srgb) {
            assert_int_equal(kiln_texture_format_of_vk(row->vk_srgb, &srgb), f);
            assert_true(srgb);
            assert_int_equal(kiln_texture_format_vk((kiln_texture_format)f, true), row->vk_srgb);
        } else {
            assert_int_equal(kiln_texture_format_vk((kiln_texture_format)f, true), row->vk_linear);
        }
    }
    kiln_texture_format back = KILN_TEXFMT_BC7;
    assert_true(kiln_texture_format_from_name("auto", 4, &back));
    assert_int_equal(back, KILN_TEXFMT_AUTO);
    assert_false(kiln_texture_format_from_name("bc7x", 4, &back));
    assert_false(kiln_texture_format_from_name("bc", 2, &back));
    assert_null(kiln_texture_format_get(KILN_TEXFMT_AUTO));
    assert_null(kiln_texture_format_get(KILN_TEXFMT_COUNT));
    assert_string_equal(kiln_texture_format_name(KILN_TEXFMT_COUNT), "invalid");
    assert_int_equal(kiln_texture_format_vk(KILN_TEXFMT_AUTO, false), 0);
    assert_int_equal(kiln_texture_format_of_vk(0, NULL), KILN_TEXFMT_AUTO);
    assert_int_equal(kiln_texture_format_of_vk(12345, NULL), KILN_TEXFMT_AUTO);
}

/* The VkFormats of a row are the KTX2 table's twins, and its blocks are ones kiln decodes. */
static void texture_format_rows_point_into_the_vk_format_table(void **state)
{
    (void)state;
    for (int f = KILN_TEXFMT_AUTO + 1; f < KILN_TEXFMT_COUNT; f++) {
        const kiln_texture_format_info *row = row_of(f);
        const kiln_vk_format_info *lin = kiln_vk_format_find(row->vk_linear);
        assert_non_null(lin);
        assert_ptr_equal(kiln_texture_format_block((kiln_texture_format)f), lin);
        assert_false(lin->srgb);
        assert_int_equal(lin->twin, row->vk_srgb);
        if (row->vk_srgb) {
            const kiln_vk_format_info *s = kiln_vk_format_find(row->vk_srgb);
            assert_non_null(s);
            assert_true(s->srgb);
            assert_int_equal(s->block_width, lin->block_width);
            assert_int_equal(s->block_height, lin->block_height);
            assert_int_equal(s->block_size, lin->block_size);
        }
        /* kiln_texture_format_decode_level holds one block of at most 4x4 texels. */
        assert_true(lin->block_width <= 4 && lin->block_height <= 4);
        assert_true(row->channels >= 1 && row->channels <= 4);
        size_t size = 0;
        assert_true(kiln_texture_format_level_size((kiln_texture_format)f, 5, 3, &size));
        assert_int_equal(size, ((5 + lin->block_width - 1) / lin->block_width) *
                                   ((3 + lin->block_height - 1) / lin->block_height) *
                                   (size_t)lin->block_size);
    }
    size_t size;
    assert_false(kiln_texture_format_level_size(KILN_TEXFMT_AUTO, 4, 4, &size));
    /* Every VkFormat kiln reads and writes belongs to one row, but R16G16_SFLOAT (the BRDF
     * table's, which the environment cook writes as it is: no image is cooked to it) and the
     * formats Basis textures are transcoded to at load time (BC3, ETC2, EAC), never cooked. */
    static const uint32_t not_rows[] = {KILN_VK_FORMAT_R16G16_SFLOAT,
                                        KILN_VK_FORMAT_BC3_UNORM_BLOCK,
                                        KILN_VK_FORMAT_BC3_SRGB_BLOCK,
                                        KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
                                        KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
                                        KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
                                        KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
                                        KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK,
                                        KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK};
    for (size_t i = 0; i < kiln_vk_format_count(); i++) {
        uint32_t vk = kiln_vk_format_at(i)->vk_format;
        bool skip = false;
        for (size_t k = 0; k < sizeof not_rows / sizeof not_rows[0]; k++)
            if (vk == not_rows[k]) skip = true;
        if (skip) continue;
        assert_int_not_equal(kiln_texture_format_of_vk(vk, NULL), KILN_TEXFMT_AUTO);
    }
}

/* The public label is the row's settings name for both variants, else the Vulkan name. */
static void vk_format_labels_follow_the_rows(void **state)
{
    (void)state;
    for (int f = KILN_TEXFMT_AUTO + 1; f < KILN_TEXFMT_COUNT; f++) {
        const kiln_texture_format_info *row = kiln_texture_format_get((kiln_texture_format)f);
        if (row->basis) continue; /* vkFormat 0 files: no VkFormat of their own to name */
        bool srgb = true, has_srgb = false;
        assert_string_equal(kiln_vk_format_label(row->vk_linear, &srgb, &has_srgb), row->name);
        assert_false(srgb);
        assert_int_equal(has_srgb, row->vk_srgb != 0);
        if (row->vk_srgb) {
            assert_string_equal(kiln_vk_format_label(row->vk_srgb, &srgb, NULL), row->name);
            assert_true(srgb);
        }
    }
    bool has_srgb = true;
    assert_string_equal(kiln_vk_format_label(KILN_VK_FORMAT_R16G16_SFLOAT, NULL, &has_srgb),
                        "RG16F");
    assert_false(has_srgb);
    assert_null(kiln_vk_format_label(44, NULL, NULL)); /* B8G8R8A8_UNORM: not kiln's */
}

static void texture_format_every_row_has_a_decoder_and_an_encoder(void **state)
{
    (void)state;
    assert_null(kiln_texture_encoder_of(KILN_TEXFMT_AUTO));
    assert_null(kiln_texture_encoder_of(KILN_TEXFMT_COUNT));
    for (int f = KILN_TEXFMT_AUTO + 1; f < KILN_TEXFMT_COUNT; f++) {
        const kiln_texture_format_info *row = row_of(f);
        const kiln_vk_format_info *b = kiln_texture_format_block((kiln_texture_format)f);
        if (row->hdr) {
            assert_null(row->decode); /* kiln_transcode_rgba8 refuses what RGBA8 cannot hold */
            assert_int_equal(row->vk_srgb, 0);
        } else {
            assert_non_null(row->decode);
        }
        const kiln_texture_encoder *e = kiln_texture_encoder_of((kiln_texture_format)f);
        assert_non_null(e);
        /* HDR rows quantise to half floats or to their own packed texels, the others to RGBA8. */
        if (row->hdr) {
            assert_true(e->texels == KILN_TEXELS_RGBA16F || e->texels == KILN_TEXELS_RGB9E5 ||
                        e->texels == KILN_TEXELS_B10G11R11);
            /* A CPU decoder to halves, except ASTC HDR, decoded through libastcenc in the cook. */
            if (f != KILN_TEXFMT_ASTC4X4_HDR) assert_non_null(row->decode_half);
            else assert_non_null(e->decode_half);
        } else {
            assert_int_equal(e->texels, KILN_TEXELS_RGBA8);
            assert_null(row->decode_half);
        }
        bool compressed = b->block_width > 1 || b->block_height > 1;
        if (compressed) {
            /* Exactly one way to make blocks. */
            assert_true((e->block != NULL) != (e->level != NULL));
            assert_int_equal(kiln_block_bytes((kiln_block_format)f), b->block_size);
            assert_string_equal(kiln_block_format_name((kiln_block_format)f), row->name);
        } else {
            /* The quantised texels are the stored ones. */
            assert_null(e->block);
            assert_null(e->level);
            assert_null(e->decode);
            assert_int_equal(kiln_texels_size(e->texels), b->block_size);
            assert_int_equal(kiln_block_bytes((kiln_block_format)f), 0);
        }
    }
}

static void texture_format_auto_picks_one_row_per_role_and_gpu(void **state)
{
    (void)state;
    for (int role = 0; role < KILN_TEXROLE_COUNT; role++) {
        for (int gpu = 0; gpu < KILN_TEXGPU_COUNT; gpu++) {
            kiln_texture_format f =
                kiln_texture_format_pick((kiln_texture_role)role, (kiln_texture_gpu)gpu);
            assert_int_not_equal(f, KILN_TEXFMT_AUTO);
            /* Colour keeps its sRGB encoding, HDR its range. */
            if (role == KILN_TEXROLE_COLOR) assert_true(kiln_texture_format_has_srgb(f));
            assert_int_equal(row_of(f)->hdr,
                             role == KILN_TEXROLE_HDR || role == KILN_TEXROLE_HDR_ALPHA);
            /* A source whose alpha matters gets a row that stores alpha. */
            if (role == KILN_TEXROLE_HDR_ALPHA) assert_int_equal(row_of(f)->channels, 4);
        }
    }
    /* What docs/settings.md says format auto gives. */
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_COLOR, KILN_TEXGPU_DESKTOP),
                     KILN_TEXFMT_BC7);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_NORMAL, KILN_TEXGPU_DESKTOP),
                     KILN_TEXFMT_BC5);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_DATA, KILN_TEXGPU_DESKTOP),
                     KILN_TEXFMT_BC4);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_HDR, KILN_TEXGPU_DESKTOP),
                     KILN_TEXFMT_BC6H);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_HDR_ALPHA, KILN_TEXGPU_DESKTOP),
                     KILN_TEXFMT_RGBA16F);
    for (int role = KILN_TEXROLE_COLOR; role <= KILN_TEXROLE_DATA; role++)
        assert_int_equal(kiln_texture_format_pick((kiln_texture_role)role, KILN_TEXGPU_MOBILE),
                         KILN_TEXFMT_ASTC4X4);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_HDR, KILN_TEXGPU_MOBILE),
                     KILN_TEXFMT_ASTC4X4_HDR);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_HDR_ALPHA, KILN_TEXGPU_MOBILE),
                     KILN_TEXFMT_RGBA16F);
    /* universal: ETC1S colour, UASTC normal maps and data, RGBA16F for HDR */
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_COLOR, KILN_TEXGPU_UNIVERSAL),
                     KILN_TEXFMT_ETC1S);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_NORMAL, KILN_TEXGPU_UNIVERSAL),
                     KILN_TEXFMT_UASTC);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_DATA, KILN_TEXGPU_UNIVERSAL),
                     KILN_TEXFMT_UASTC);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_HDR, KILN_TEXGPU_UNIVERSAL),
                     KILN_TEXFMT_RGBA16F);
    assert_int_equal(kiln_texture_format_pick(KILN_TEXROLE_COUNT, KILN_TEXGPU_DESKTOP),
                     KILN_TEXFMT_AUTO);
    assert_int_equal(kiln_texture_gpu_of_platform("universal"), KILN_TEXGPU_UNIVERSAL);
    assert_int_equal(kiln_texture_gpu_of_platform("mobile"), KILN_TEXGPU_MOBILE);
    assert_int_equal(kiln_texture_gpu_of_platform("android"), KILN_TEXGPU_MOBILE);
    assert_int_equal(kiln_texture_gpu_of_platform("ios"), KILN_TEXGPU_MOBILE);
    assert_int_equal(kiln_texture_gpu_of_platform("pc"), KILN_TEXGPU_DESKTOP);
    assert_int_equal(kiln_texture_gpu_of_platform(""), KILN_TEXGPU_DESKTOP);
    assert_int_equal(kiln_texture_gpu_of_platform(NULL), KILN_TEXGPU_DESKTOP);
}

/* The transcode's answer follows the rows: every VkFormat with a decoder gives the RGBA8 row's
 * VkFormat in the same encoding, HDR ones none. */
static void texture_format_transcode_follows_the_rows(void **state)
{
    (void)state;
    for (int f = KILN_TEXFMT_AUTO + 1; f < KILN_TEXFMT_COUNT; f++) {
        const kiln_texture_format_info *row = row_of(f);
        uint32_t lin = row->decode ? kiln_texture_format_vk(KILN_TEXFMT_RGBA8, false) : 0;
        assert_int_equal(kiln_transcode_rgba8_format(row->vk_linear), lin);
        if (row->vk_srgb)
            assert_int_equal(kiln_transcode_rgba8_format(row->vk_srgb),
                             kiln_texture_format_vk(KILN_TEXFMT_RGBA8, true));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texture_format_rows_round_trip_name_id_and_vk_formats),
        cmocka_unit_test(texture_format_rows_point_into_the_vk_format_table),
        cmocka_unit_test(texture_format_every_row_has_a_decoder_and_an_encoder),
        cmocka_unit_test(vk_format_labels_follow_the_rows),
        cmocka_unit_test(texture_format_auto_picks_one_row_per_role_and_gpu),
        cmocka_unit_test(texture_format_transcode_follows_the_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
