/* test_verify_pillow.c — kiln's BC1, BC4, BC5 and BC7 decoders against Pillow's (Debian
 * python3-pil 9.4, src/libImaging/BcnDecode.c: no code shared with kiln). The blocks — seeded
 * random bytes and kiln's own encoder output — go into DDS files that pillow_decode.py decodes;
 * every texel is compared with kiln_blocks_decode. Exits 77 (skip) when /usr/bin/python3 or its
 * PIL module is missing. Tolerances and known differences: docs/verification.md. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify_common.h"

#define PYTHON "/usr/bin/python3"

/* Decodes c with Pillow; returns its pixels (mode's channels per texel) and the mode. */
static uint8_t *pillow_decode(const vt_case *c, char mode[8], size_t *channels)
{
    char *dir = kt_tempdir("verify-pillow");
    char *dds = kt_format("%s/in.dds", dir), *raw = kt_format("%s/out.raw", dir);
    vt_write_dds(dds, c);
    const char *src = getenv("KILN_SOURCE_DIR");
    char *cmd = kt_format(PYTHON " '%s/tests/verify/pillow_decode.py' '%s' '%s'", src ? src : ".",
                          dds, raw);
    char *out = NULL;
    int status = kt_run(cmd, &out);
    if (status != 0) fail_msg("%s: %s exited with %d: %s", c->name, cmd, status, out ? out : "");
    unsigned w = 0, h = 0;
    if (!out || sscanf(out, "%7s %u %u", mode, &w, &h) != 3 || w != c->w || h != c->h)
        fail_msg("%s: Pillow reported '%s', expected %ux%u", c->name, out ? out : "", c->w, c->h);
    *channels = !strcmp(mode, "RGBA") ? 4 : !strcmp(mode, "RGB") ? 3 : !strcmp(mode, "L") ? 1 : 0;
    if (*channels == 0) fail_msg("%s: unexpected Pillow mode %s", c->name, mode);
    size_t size = 0;
    uint8_t *pixels = kt_read_file(raw, &size);
    if (!pixels || size != (size_t)c->w * c->h * *channels)
        fail_msg("%s: Pillow wrote %zu bytes, expected %zu", c->name, size,
                 (size_t)c->w * c->h * *channels);
    kt_rmtree(dir);
    free(out);
    free(cmd);
    free(raw);
    free(dds);
    free(dir);
    return pixels;
}

/* Runs one case; returns the number of texels beyond tolerance (0 when the case is skipped). */
static size_t check(kiln_block_format f, vt_source s, const char *want_mode,
                    const vt_channel map[4], vt_excuse_fn excuse)
{
    vt_case c;
    if (!vt_case_make(&c, f, s, false)) return 0;
    char mode[8];
    size_t channels;
    uint8_t *peer = pillow_decode(&c, mode, &channels);
    if (strcmp(mode, want_mode))
        fail_msg("%s: Pillow mode %s, expected %s", c.name, mode, want_mode);
    vt_stats st = vt_compare(&c, "pillow", peer, channels, map, excuse);
    assert_true(st.texels == (size_t)c.w * c.h);
    free(peer);
    vt_case_free(&c);
    return st.failed;
}

static const vt_channel exact_rgba[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};

/* Pillow decodes DXT1 as RGBA, the 3-colour mode's fourth entry transparent black; kiln decodes
 * BC1 opaque (as GL's COMPRESSED_RGB_S3TC_DXT1 and KTX2's BC1_RGB formats do). That texel's alpha
 * is the one difference allowed; kiln's own encoder output must not contain it at all. */
static bool bc1_transparent_entry(const uint8_t *b, unsigned texel, int channel, uint8_t kiln,
                                  uint8_t peer)
{
    unsigned c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
    unsigned index = (b[4 + texel / 4] >> (2 * (texel % 4))) & 3;
    return channel == 3 && c0 <= c1 && index == 3 && kiln == 255 && peer == 0;
}

static void bc1_blocks_decode_exactly_as_pillow_decodes_them(void **state)
{
    (void)state;
    size_t failed = check(KILN_BLOCK_BC1, VT_RANDOM, "RGBA", exact_rgba, bc1_transparent_entry);
    failed += check(KILN_BLOCK_BC1, VT_PHOTO, "RGBA", exact_rgba, NULL);
    assert_int_equal(failed, 0);
}

/* Pillow decodes BC4 (FourCC ATI1) to mode L: its one channel is kiln's R. */
static void bc4_blocks_decode_as_pillow_decodes_them(void **state)
{
    (void)state;
    static const vt_channel r[4] = {{0, 0}, {-1, 0}, {-1, 0}, {-1, 0}};
    size_t failed = check(KILN_BLOCK_BC4, VT_RANDOM, "L", r, NULL);
    failed += check(KILN_BLOCK_BC4, VT_PHOTO, "L", r, NULL);
    failed += check(KILN_BLOCK_BC4, VT_NORMAL, "L", r, NULL);
    assert_int_equal(failed, 0);
}

/* Pillow decodes BC5 (DXGI 83) to mode RGB with blue 0, as kiln does. */
static void bc5_blocks_decode_as_pillow_decodes_them(void **state)
{
    (void)state;
    static const vt_channel rgb[4] = {{0, 0}, {1, 0}, {2, 0}, {-1, 0}};
    size_t failed = check(KILN_BLOCK_BC5, VT_RANDOM, "RGB", rgb, NULL);
    failed += check(KILN_BLOCK_BC5, VT_NORMAL, "RGB", rgb, NULL);
    failed += check(KILN_BLOCK_BC5, VT_PHOTO, "RGB", rgb, NULL);
    assert_int_equal(failed, 0);
}

/* The reserved BC7 pattern (byte 0 zero) decodes to (0, 0, 0, 0) by the specification (and in
 * kiln and Mesa); Pillow 9.4 gives opaque black. That alpha is the one difference allowed. */
static bool bc7_reserved_mode(const uint8_t *b, unsigned texel, int channel, uint8_t kiln,
                              uint8_t peer)
{
    (void)texel;
    return b[0] == 0 && channel == 3 && kiln == 0 && peer == 255;
}

static void bc7_blocks_decode_exactly_as_pillow_decodes_them(void **state)
{
    (void)state;
    size_t failed = check(KILN_BLOCK_BC7, VT_RANDOM, "RGBA", exact_rgba, bc7_reserved_mode);
    failed += check(KILN_BLOCK_BC7, VT_PHOTO, "RGBA", exact_rgba, NULL);
    failed += check(KILN_BLOCK_BC7, VT_NORMAL, "RGBA", exact_rgba, NULL);
    assert_int_equal(failed, 0);
}

int main(void)
{
    if (access(PYTHON, X_OK) != 0) {
        printf("SKIP: %s is missing; install python3-pil (scripts/setup.sh does)\n", PYTHON);
        return 77;
    }
    if (kt_run(PYTHON " -c 'import PIL.DdsImagePlugin' 2>/dev/null", NULL) != 0) {
        printf("SKIP: %s has no PIL module; apt-get install python3-pil\n", PYTHON);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bc1_blocks_decode_exactly_as_pillow_decodes_them),
        cmocka_unit_test(bc4_blocks_decode_as_pillow_decodes_them),
        cmocka_unit_test(bc5_blocks_decode_as_pillow_decodes_them),
        cmocka_unit_test(bc7_blocks_decode_exactly_as_pillow_decodes_them),
    };
    return vt_finish(cmocka_run_group_tests_name("verify_pillow", tests, NULL, NULL));
}
