/* test_verify_mesa.c — kiln's decoders for all five block formats against Mesa's (OSMesa, the
 * software renderer of Debian's libosmesa6: no code shared with kiln). Each case is uploaded with
 * glCompressedTexImage2D and read back twice: with glGetTexImage, and by drawing the texture 1:1
 * with nearest filtering into the OSMesa framebuffer (the sampler a shader would use). CTest runs
 * it under both Gallium drivers: softpipe (util/format's C unpackers) and llvmpipe (BC formats
 * decoded by its JIT, gallivm). Tolerances and known differences: docs/verification.md. */
#include "support.h"

#include <GL/gl.h>
#include <GL/osmesa.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/half_float.h"
#include "codec/hdr_decode.h"
#include "process/half.h"
#include "verify_common.h"

#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#endif
#ifndef GL_COMPRESSED_RED_RGTC1
#define GL_COMPRESSED_RED_RGTC1 0x8DBB
#endif
#ifndef GL_COMPRESSED_RG_RGTC2
#define GL_COMPRESSED_RG_RGTC2 0x8DBD
#endif
#ifndef GL_COMPRESSED_RGBA_BPTC_UNORM
#define GL_COMPRESSED_RGBA_BPTC_UNORM 0x8E8C
#endif
#ifndef GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT
#define GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT   0x8E8E
#define GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT 0x8E8F
#endif
#ifndef GL_COMPRESSED_RGBA_ASTC_4x4_KHR
#define GL_COMPRESSED_RGBA_ASTC_4x4_KHR 0x93B0
#endif
#ifndef GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR
#define GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR 0x93D0
#endif
#ifndef GL_TEXTURE_SRGB_DECODE_EXT
#define GL_TEXTURE_SRGB_DECODE_EXT 0x8A48
#define GL_SKIP_DECODE_EXT         0x8A4A
#endif

enum { FB_SIZE = 256 }; /* framebuffer: the largest case (random, 256x256) */

typedef struct mesa_state {
    OSMesaContext ctx;
    uint8_t *framebuffer;
    bool llvmpipe; /* else softpipe: the tolerances differ (docs/verification.md) */
} mesa_state;

static void require_extension(const char *name)
{
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, name)) fail_msg("this Mesa lacks %s", name);
}

static GLenum gl_format(const vt_case *c)
{
    switch (c->format) {
    case KILN_BLOCK_BC1:
        return GL_COMPRESSED_RGB_S3TC_DXT1_EXT;
    case KILN_BLOCK_BC4:
        return GL_COMPRESSED_RED_RGTC1;
    case KILN_BLOCK_BC5:
        return GL_COMPRESSED_RG_RGTC2;
    case KILN_BLOCK_BC7:
        return GL_COMPRESSED_RGBA_BPTC_UNORM;
    case KILN_BLOCK_ASTC4X4:
        return c->srgb ? GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR : GL_COMPRESSED_RGBA_ASTC_4x4_KHR;
    default:
        fail_msg("no GL format for %s", c->name);
        return 0;
    }
}

/* Uploads c and returns Mesa's decoding: from glGetTexImage (drawn == false) or from drawing the
 * texture 1:1 with nearest filtering into the framebuffer (drawn == true). */
static uint8_t *mesa_decode(const vt_case *c, bool drawn)
{
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    /* kiln decodes sRGB blocks to their encoded values; so must the sampler
     * (EXT_texture_sRGB_decode) */
    if (c->srgb) glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, gl_format(c), (GLsizei)c->w, (GLsizei)c->h, 0,
                           (GLsizei)c->size, c->blocks);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) fail_msg("%s: glCompressedTexImage2D failed (GL error 0x%x)", c->name, e);
    uint8_t *out = malloc((size_t)c->w * c->h * 4);
    assert_non_null(out);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (!drawn) {
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
    } else {
        /* Pixel (x, y)'s centre samples texel (x, y) exactly: viewport = texture size, the quad
         * covers it, and the texture is flipped so row 0 of the texture is row 0 read back. */
        glViewport(0, 0, (GLsizei)c->w, (GLsizei)c->h);
        glMatrixMode(GL_PROJECTION);
        glLoadIdentity();
        glMatrixMode(GL_MODELVIEW);
        glLoadIdentity();
        glDisable(GL_BLEND);
        glDisable(GL_DITHER);
        glEnable(GL_TEXTURE_2D);
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
        glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
        glClear(GL_COLOR_BUFFER_BIT);
        glBegin(GL_QUADS);
        glTexCoord2f(0, 0);
        glVertex2f(-1, -1);
        glTexCoord2f(1, 0);
        glVertex2f(1, -1);
        glTexCoord2f(1, 1);
        glVertex2f(1, 1);
        glTexCoord2f(0, 1);
        glVertex2f(-1, 1);
        glEnd();
        glFinish();
        glDisable(GL_TEXTURE_2D);
        glReadPixels(0, 0, (GLsizei)c->w, (GLsizei)c->h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    }
    e = glGetError();
    if (e != GL_NO_ERROR) fail_msg("%s: reading back failed (GL error 0x%x)", c->name, e);
    glDeleteTextures(1, &tex);
    return out;
}

/* Runs one case both ways; returns the texels beyond tolerance (0 when the case is skipped). */
static size_t check(kiln_block_format f, vt_source s, bool srgb, const vt_channel map[4])
{
    vt_case c;
    if (!vt_case_make(&c, f, s, srgb)) return 0;
    size_t failed = 0;
    for (int drawn = 0; drawn < 2; drawn++) {
        uint8_t *peer = mesa_decode(&c, drawn);
        vt_stats st = vt_compare(&c, drawn ? "mesa-draw" : "mesa-getteximage", peer, 4, map, NULL);
        assert_true(st.texels == (size_t)c.w * c.h);
        failed += st.failed;
        free(peer);
    }
    vt_case_free(&c);
    return failed;
}

static const vt_channel exact[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};

/* softpipe decodes BC1 with util/format's C unpacker ((2 c0 + c1) / 3, as kiln and Pillow);
 * llvmpipe's JIT (gallivm lp_bld_format_s3tc.c) approximates the thirds as c0 + 85 (c1 - c0) / 256
 * and rounds the 3-colour midpoint up: at most one level apart. */
static void bc1_blocks_decode_exactly_as_softpipe_and_within_one_level_of_llvmpipe(void **state)
{
    const mesa_state *m = *state;
    require_extension("GL_EXT_texture_compression_s3tc");
    static const vt_channel near[4] = {{0, 1}, {1, 1}, {2, 1}, {3, 0}};
    const vt_channel *map = m->llvmpipe ? near : exact;
    size_t failed = check(KILN_BLOCK_BC1, VT_RANDOM, false, map);
    failed += check(KILN_BLOCK_BC1, VT_PHOTO, false, map);
    assert_int_equal(failed, 0);
}

/* softpipe's RGTC unpacker matches kiln exactly; llvmpipe's interpolates in fixed point without
 * rounding, within 2 levels (the bound docs/verification.md sets). B and A are exact either way. */
static void
bc4_and_bc5_blocks_decode_exactly_as_softpipe_and_within_two_levels_of_llvmpipe(void **state)
{
    const mesa_state *m = *state;
    require_extension("GL_ARB_texture_compression_rgtc");
    static const vt_channel near[4] = {{0, 2}, {1, 2}, {2, 0}, {3, 0}};
    const vt_channel *map = m->llvmpipe ? near : exact;
    size_t failed = check(KILN_BLOCK_BC4, VT_RANDOM, false, map);
    failed += check(KILN_BLOCK_BC4, VT_PHOTO, false, map);
    failed += check(KILN_BLOCK_BC5, VT_RANDOM, false, map);
    failed += check(KILN_BLOCK_BC5, VT_NORMAL, false, map);
    assert_int_equal(failed, 0);
}

static void bc7_blocks_decode_exactly_as_mesa_decodes_them(void **state)
{
    (void)state;
    require_extension("GL_ARB_texture_compression_bptc");
    size_t failed = check(KILN_BLOCK_BC7, VT_RANDOM, false, exact);
    failed += check(KILN_BLOCK_BC7, VT_PHOTO, false, exact);
    failed += check(KILN_BLOCK_BC7, VT_NORMAL, false, exact);
    assert_int_equal(failed, 0);
}

/* Both drivers decode ASTC with Mesa's own decoder (main/texcompress_astc.cpp, at upload), which
 * turns a linear UNORM16 result into 8 bits by keeping its top byte; libastcenc 4.2 (kiln, and
 * the astcenc command) goes through half floats and rounds: one level apart at most. The sRGB
 * profile's 8-bit result is defined by the specification: exact. */
static void astc_blocks_decode_within_one_level_of_mesa_and_exactly_in_srgb(void **state)
{
    (void)state;
    require_extension("GL_KHR_texture_compression_astc_ldr");
    static const vt_channel near[4] = {{0, 1}, {1, 1}, {2, 1}, {3, 1}};
    size_t failed = check(KILN_BLOCK_ASTC4X4, VT_RANDOM, false, near);
    failed += check(KILN_BLOCK_ASTC4X4, VT_PHOTO, false, near);
    failed += check(KILN_BLOCK_ASTC4X4, VT_NORMAL, false, near);
    failed += check(KILN_BLOCK_ASTC4X4, VT_RANDOM, true, exact);
    failed += check(KILN_BLOCK_ASTC4X4, VT_PHOTO, true, exact);
    assert_int_equal(failed, 0);
}

/* ---- BC6H: half floats, read back as floats ------------------------------------------------ */

enum { BC6H_SIZE = 64, BC6H_BLOCKS = (BC6H_SIZE / 4) * (BC6H_SIZE / 4) };

static uint64_t bc6h_rng(uint64_t *s)
{ /* xorshift64*: fixed seed, same blocks everywhere */
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* 256 random blocks: 16 of each of the 14 modes, then 32 of the 4 reserved ones. */
static void bc6h_random_blocks(uint8_t *blocks)
{
    static const uint8_t codes[18] = {0,  1, 2, 6,  10, 14, 18, 22, 26,
                                      30, 3, 7, 11, 15, 19, 23, 27, 31};
    uint64_t s = 0x6263366863ull; /* "bc6hc" */
    for (size_t b = 0; b < BC6H_BLOCKS; b++) {
        uint64_t lo = bc6h_rng(&s), hi = bc6h_rng(&s);
        memcpy(blocks + 16 * b, &lo, 8);
        memcpy(blocks + 16 * b + 8, &hi, 8);
        unsigned code = codes[b < 224 ? b / 16 : 14 + (b - 224) / 8];
        uint8_t mask = code < 2 ? 3 : 31;
        blocks[16 * b] = (uint8_t)((blocks[16 * b] & ~mask) | code);
    }
}

/* kiln's encoder on a synthetic HDR picture: smooth gradients over 2^-12 .. 2^14, hard edges,
 * and (for the signed format) negative regions. */
static void bc6h_encoded_blocks(bool is_signed, uint8_t *blocks)
{
    uint16_t *half = malloc((size_t)BC6H_SIZE * BC6H_SIZE * 8);
    assert_non_null(half);
    for (int y = 0; y < BC6H_SIZE; y++)
        for (int x = 0; x < BC6H_SIZE; x++) {
            float v[3] = {exp2f((float)x / 2.4f - 12.0f), exp2f((float)y / 3.0f - 8.0f),
                          ((x / 8 + y / 8) & 1) ? 300.0f : 0.02f * (float)(x + 1)};
            for (int c = 0; c < 3; c++) {
                float f = v[c];
                if (is_signed && ((x ^ y) & 16) && c != 1) f = -f;
                half[((size_t)y * BC6H_SIZE + (size_t)x) * 4 + (size_t)c] =
                    kiln_half_from_float_sat(f);
            }
            half[((size_t)y * BC6H_SIZE + (size_t)x) * 4 + 3] = KILN_HALF_ONE;
        }
    kiln_block_opts o = {KILN_QUALITY_NORMAL, false, false};
    kiln_error err;
    if (kiln_blocks_encode(is_signed ? KILN_BLOCK_BC6H_SF : KILN_BLOCK_BC6H, (const uint8_t *)half,
                           BC6H_SIZE, BC6H_SIZE, BC6H_SIZE * 8, &o, NULL, blocks,
                           (size_t)BC6H_BLOCKS * 16, &err) != KILN_OK)
        fail_msg("bc6h encode: %s", err.message);
    free(half);
}

/* Uploads the blocks and compares Mesa's glGetTexImage floats with kiln's halves, bit for bit
 * (every half is exactly a float). Returns the channels that differ. */
static size_t bc6h_compare(const char *name, const uint8_t *blocks, bool is_signed)
{
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0,
                           is_signed ? GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT
                                     : GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
                           BC6H_SIZE, BC6H_SIZE, 0, BC6H_BLOCKS * 16, blocks);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) fail_msg("%s: glCompressedTexImage2D failed (GL error 0x%x)", name, e);
    float *peer = malloc((size_t)BC6H_SIZE * BC6H_SIZE * 4 * sizeof(float));
    assert_non_null(peer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, peer);
    e = glGetError();
    if (e != GL_NO_ERROR) fail_msg("%s: glGetTexImage failed (GL error 0x%x)", name, e);
    glDeleteTextures(1, &tex);
    size_t failed = 0;
    for (size_t b = 0; b < BC6H_BLOCKS; b++) {
        uint16_t mine[64];
        kiln_bc6h_decode_block(blocks + 16 * b, is_signed, mine);
        size_t bx = b % (BC6H_SIZE / 4), by = b / (BC6H_SIZE / 4);
        for (size_t i = 0; i < 16; i++) {
            const float *p = peer + ((by * 4 + i / 4) * BC6H_SIZE + bx * 4 + i % 4) * 4;
            for (size_t c = 0; c < 4; c++) {
                float k = kiln_half_to_float(mine[4 * i + c]);
                if (memcmp(&k, &p[c], sizeof k) == 0) continue;
                if (failed++ < 8)
                    printf("%s: block %zu (mode byte 0x%02x) texel %zu channel %zu: kiln %a "
                           "(0x%04x), mesa %a\n",
                           name, b, blocks[16 * b], i, c, (double)k, mine[4 * i + c], (double)p[c]);
            }
        }
    }
    free(peer);
    printf("%s: %zu channels differ of %d\n", name, failed, BC6H_SIZE * BC6H_SIZE * 4);
    return failed;
}

static void bc6h_blocks_decode_bit_exactly_as_mesa_decodes_them(void **state)
{
    (void)state;
    require_extension("GL_ARB_texture_compression_bptc");
    uint8_t *blocks = malloc((size_t)BC6H_BLOCKS * 16);
    assert_non_null(blocks);
    size_t failed = 0;
    bc6h_random_blocks(blocks);
    failed += bc6h_compare("bc6h-ufloat-random", blocks, false);
    failed += bc6h_compare("bc6h-sfloat-random", blocks, true);
    bc6h_encoded_blocks(false, blocks);
    failed += bc6h_compare("bc6h-ufloat-encoded", blocks, false);
    bc6h_encoded_blocks(true, blocks);
    failed += bc6h_compare("bc6h-sfloat-encoded", blocks, true);
    free(blocks);
    assert_int_equal(failed, 0);
}

int main(void)
{
    mesa_state m = {0};
    m.framebuffer = calloc((size_t)FB_SIZE * FB_SIZE, 4);
    m.ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, NULL);
    if (!m.framebuffer || !m.ctx ||
        !OSMesaMakeCurrent(m.ctx, m.framebuffer, GL_UNSIGNED_BYTE, FB_SIZE, FB_SIZE)) {
        printf("FAIL: cannot create an OSMesa context\n");
        return 1;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("Mesa: %s, %s\n", renderer, (const char *)glGetString(GL_VERSION));
    m.llvmpipe = strncmp(renderer, "llvmpipe", 8) == 0;
    const char *want = getenv("GALLIUM_DRIVER");
    int rc;
    if (want && strncmp(renderer, want, strlen(want)) != 0) {
        /* e.g. a Mesa built without LLVM falls back to softpipe: that run would test nothing new */
        printf("SKIP: GALLIUM_DRIVER=%s but OSMesa runs %s\n", want, renderer);
        rc = 77;
    } else {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_prestate(
                bc1_blocks_decode_exactly_as_softpipe_and_within_one_level_of_llvmpipe, &m),
            cmocka_unit_test_prestate(
                bc4_and_bc5_blocks_decode_exactly_as_softpipe_and_within_two_levels_of_llvmpipe,
                &m),
            cmocka_unit_test_prestate(bc7_blocks_decode_exactly_as_mesa_decodes_them, &m),
            cmocka_unit_test_prestate(
                astc_blocks_decode_within_one_level_of_mesa_and_exactly_in_srgb, &m),
            cmocka_unit_test_prestate(bc6h_blocks_decode_bit_exactly_as_mesa_decodes_them, &m),
        };
        rc = cmocka_run_group_tests_name(
            m.llvmpipe ? "verify_mesa_llvmpipe" : "verify_mesa_softpipe", tests, NULL, NULL);
    }
    OSMesaDestroyContext(m.ctx);
    free(m.framebuffer);
    return vt_finish(rc);
}
