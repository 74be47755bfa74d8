/* test_runtime_basis.c — one Basis Universal file serves every GPU: a UASTC and an ETC1S texture
 * (made by the reference tool, basisu, from a corpus image, with mips; written into a cache as
 * cooked artifacts) reach the recording renderer as BC7 when it samples BC7 but neither ASTC nor
 * ETC2, as ASTC when it samples ASTC (UASTC), as ETC2 when it samples ETC2 (ETC1S), and as RGBA8
 * when it samples none of the block formats or says nothing (no supports_format). Each level the
 * renderer gets equals kiln_basis_transcode of the file's level to that format; the stats count
 * the transcodes. Skips without the tool or the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../basislz/basislz_ref.h"
#include "rt_fixture.h"
#include "support.h"

static bool bc_only(void *user, uint32_t f)
{
    (void)user;
    return f == KILN_VK_FORMAT_BC7_SRGB_BLOCK || f == KILN_VK_FORMAT_BC7_UNORM_BLOCK ||
           f == KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK || f == KILN_VK_FORMAT_BC3_SRGB_BLOCK ||
           f == KILN_VK_FORMAT_R8G8B8A8_SRGB || f == KILN_VK_FORMAT_R8G8B8A8_UNORM;
}
static bool astc_only(void *user, uint32_t f)
{
    (void)user;
    return f == KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK || f == KILN_VK_FORMAT_R8G8B8A8_SRGB;
}
static bool etc2_only(void *user, uint32_t f)
{
    (void)user;
    return f == KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK ||
           f == KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK || f == KILN_VK_FORMAT_R8G8B8A8_SRGB;
}
static bool rgba8_only(void *user, uint32_t f)
{
    (void)user;
    return f == KILN_VK_FORMAT_R8G8B8A8_SRGB || f == KILN_VK_FORMAT_R8G8B8A8_UNORM;
}

typedef struct renderer_case {
    const char *what;
    bool (*supports)(void *, uint32_t); /* NULL: the renderer says nothing */
    uint32_t want_uastc, want_etc1s;
} renderer_case;

static const renderer_case k_renderers[] = {
    {"desktop (BC)", bc_only, KILN_VK_FORMAT_BC7_SRGB_BLOCK, KILN_VK_FORMAT_BC7_SRGB_BLOCK},
    {"ASTC", astc_only, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK},
    {"ETC2", etc2_only, KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
     KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK},
    {"RGBA8 only", rgba8_only, KILN_VK_FORMAT_R8G8B8A8_SRGB, KILN_VK_FORMAT_R8G8B8A8_SRGB},
    {"no supports_format", NULL, KILN_VK_FORMAT_R8G8B8A8_SRGB, KILN_VK_FORMAT_R8G8B8A8_SRGB},
};

/* The runtime's choice: kiln_basis_pick_target with the renderer's answers (the table above
 * pins the same, so the list's order is checked too). */
static uint32_t expected(const kiln_ktx2_info *info, const renderer_case *rc)
{
    return kiln_basis_pick_target(info, rc->supports, NULL);
}

static void one_file_serves_every_renderer(void **state)
{
    (void)state;
    char *basisu = br_basisu();
    char *src = kt_corpus_path("images/kodak/kodim07.png");
    if (!basisu || !src || !kt_file_exists(src)) {
        print_message("skipped: basisu or the corpus is absent\n");
        free(basisu);
        free(src);
        return;
    }
    char *dir = kt_tempdir("rt_basis");
    static const struct {
        const char *name, *args, *guid;
    } files[] = {
        {"u", "-uastc -uastc_level 1 -mipmap -resample 128 96", "0123456789abcdef0123456789abcdef"},
        {"e", "-q 128 -mipmap -resample 128 96", "fedcba9876543210fedcba9876543210"},
    };
    char *cache = kt_format("%s/cache", dir);
    uint8_t *bytes[2];
    size_t sizes[2];
    for (int i = 0; i < 2; i++) {
        char *path = br_make(basisu, dir, files[i].name, src, files[i].args);
        if (!path) fail_msg("basisu failed for %s", files[i].name);
        bytes[i] = kt_read_file(path, &sizes[i]);
        char *asset = kt_format("%s.png", files[i].name);
        rt_write_artifact(cache, files[i].guid, asset, "texture", bytes[i], sizes[i]);
        free(asset);
        free(path);
    }
    for (size_t ri = 0; ri < sizeof k_renderers / sizeof k_renderers[0]; ri++) {
        const renderer_case *rc = &k_renderers[ri];
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_desc d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        d.worker_count = 2;
        d.renderer = rt_recorder_renderer(&rec);
        d.renderer.supports_format = rc->supports;
        krt_context *c = NULL;
        kiln_error err;
        assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
        assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
        for (int i = 0; i < 2; i++) {
            kiln_ktx2_info info;
            assert_int_equal(kiln_ktx2_read(bytes[i], sizes[i], &info, &err), KILN_OK);
            uint32_t want = expected(&info, rc);
            assert_int_equal(want, i == 0 ? rc->want_uastc : rc->want_etc1s);
            char *name = kt_format("%s.png#texture", files[i].name);
            krt_handle h = rt_load_ready(c, KRT_TYPE_TEXTURE, name);
            krt_texture_data t;
            assert_int_equal(krt_get_texture(c, h, &t, &err), KILN_OK);
            if (t.vk_format != want)
                fail_msg("%s, %s: got vkFormat %u, expected %u", rc->what, name, t.vk_format, want);
            assert_int_equal(rec.last_vk_format, want); /* what create_texture saw */
            assert_true(t.srgb);
            assert_int_equal(t.width, 128);
            assert_int_equal(t.level_count, info.level_count);
            kiln_basis *b = NULL;
            assert_int_equal(kiln_basis_open(&info, NULL, &b, &err), KILN_OK);
            for (uint32_t l = 0; l < t.level_count; l++) {
                size_t n = kiln_basis_level_size(&info, l, want);
                assert_int_equal(t.levels[l].size, n);
                assert_int_equal(t.levels[l].width, info.levels[l].width);
                uint8_t *ref = malloc(n);
                assert_int_equal(kiln_basis_transcode(b, l, want, ref, n, &err), KILN_OK);
                assert_memory_equal(t.levels[l].data, ref, n);
                free(ref);
            }
            kiln_basis_close(b);
            assert_int_equal(krt_release(c, h, &err), KILN_OK);
            free(name);
        }
        krt_stats st = {.struct_size = sizeof st};
        krt_get_stats(c, &st);
        assert_int_equal(st.transcodes, 2);
        krt_finish(c);
        krt_destroy(c);
        assert_int_equal(rec.live, 0);
    }
    for (int i = 0; i < 2; i++) free(bytes[i]);
    char *rm = kt_format("rm -rf '%s'", dir);
    kt_run(rm, NULL);
    free(rm);
    free(cache);
    free(dir);
    free(src);
    free(basisu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_file_serves_every_renderer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
