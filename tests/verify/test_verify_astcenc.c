/* test_verify_astcenc.c — kiln's ASTC 4x4 decoding against the astcenc command (Debian's
 * astcenc 4.2, `astcenc -dl|-ds in.astc out.png`). The command links the same libastcenc that
 * kiln's shim calls, so this checks kiln's side of the call — block order, edge blocks, the
 * profile, the 8-bit output — while test_verify_mesa holds the decoding itself against Mesa's
 * independent decoder. Exits 77 (skip) when /usr/bin/astcenc is missing. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/image.h"
#include "verify_common.h"

#define ASTCENC "/usr/bin/astcenc"

/* Decodes c with the astcenc command into an RGBA8 PNG and reads that back. */
static uint8_t *astcenc_decode(const vt_case *c)
{
    char *dir = kt_tempdir("verify-astcenc");
    char *in = kt_format("%s/in.astc", dir), *png = kt_format("%s/out.png", dir);
    vt_write_astc(in, c);
    char *cmd = kt_format(ASTCENC " %s '%s' '%s' -silent 2>&1", c->srgb ? "-ds" : "-dl", in, png);
    char *out = NULL;
    int status = kt_run(cmd, &out);
    if (status != 0) fail_msg("%s: %s exited with %d: %s", c->name, cmd, status, out ? out : "");
    size_t size = 0;
    void *data = kt_read_file(png, &size);
    if (!data) fail_msg("%s: astcenc wrote no %s", c->name, png);
    kiln_image_opts opts = {0};
    kiln_image img;
    kiln_error err = {0};
    if (kiln_image_decode(data, size, &opts, &img, &err) != KILN_OK)
        fail_msg("%s: reading astcenc's PNG: %s", c->name, err.message);
    if (img.type != KILN_PIXEL_U8 || img.width != c->w || img.height != c->h)
        fail_msg("%s: astcenc's PNG is %ux%u type %d, expected %ux%u 8-bit", c->name, img.width,
                 img.height, (int)img.type, c->w, c->h);
    uint8_t *pixels = malloc(img.size);
    assert_non_null(pixels);
    memcpy(pixels, img.pixels, img.size);
    kiln_image_free(&img);
    free(data);
    kt_rmtree(dir);
    free(out);
    free(cmd);
    free(png);
    free(in);
    free(dir);
    return pixels;
}

static size_t check(vt_source s, bool srgb)
{
    static const vt_channel exact[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    vt_case c;
    if (!vt_case_make(&c, KILN_BLOCK_ASTC4X4, s, srgb)) return 0;
    uint8_t *peer = astcenc_decode(&c);
    vt_stats st = vt_compare(&c, "astcenc", peer, 4, exact, NULL);
    assert_true(st.texels == (size_t)c.w * c.h);
    free(peer);
    vt_case_free(&c);
    return st.failed;
}

static void astc_linear_blocks_decode_exactly_as_astcenc_decodes_them(void **state)
{
    (void)state;
    size_t failed = check(VT_RANDOM, false);
    failed += check(VT_PHOTO, false);
    failed += check(VT_NORMAL, false);
    assert_int_equal(failed, 0);
}

static void astc_srgb_blocks_decode_exactly_as_astcenc_decodes_them(void **state)
{
    (void)state;
    size_t failed = check(VT_RANDOM, true);
    failed += check(VT_PHOTO, true);
    assert_int_equal(failed, 0);
}

int main(void)
{
    if (access(ASTCENC, X_OK) != 0) {
        printf("SKIP: %s is missing; install astcenc (scripts/setup.sh does)\n", ASTCENC);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(astc_linear_blocks_decode_exactly_as_astcenc_decodes_them),
        cmocka_unit_test(astc_srgb_blocks_decode_exactly_as_astcenc_decodes_them),
    };
    return vt_finish(cmocka_run_group_tests_name("verify_astcenc", tests, NULL, NULL));
}
