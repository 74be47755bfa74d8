/* test_bc1_pillow.c — differential check of kiln's BC1/BC4/BC5 decoders against Pillow's (a
 * decoder that shares no code with kiln): random blocks and kiln-encoded blocks go into DDS
 * files (FourCC DXT1, ATI1, ATI2), /usr/bin/python3 with PIL decodes them, and the texels must
 * match kiln's decode bit for bit. Skips (77) when python3 or Pillow is missing. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc1_test_images.h"

#define PX_W      64
#define PX_H      64
#define PX_BLOCKS ((PX_W / 4) * (PX_H / 4))

static const char *python = "/usr/bin/python3";

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A DX9-style DDS: 4-byte magic, 124-byte header with a FourCC pixel format, then the blocks. */
static void write_dds(const char *path, const char *fourcc, const uint8_t *blocks, size_t size)
{
    uint8_t *file = calloc(1, 128 + size);
    assert_non_null(file);
    memcpy(file, "DDS ", 4);
    put32(file + 4, 124);
    put32(file + 8, 0x1007 | 0x80000); /* caps, height, width, pixel format, linear size */
    put32(file + 12, PX_H);
    put32(file + 16, PX_W);
    put32(file + 20, (uint32_t)size);
    put32(file + 76, 32); /* pixel format size */
    put32(file + 80, 4);  /* DDPF_FOURCC */
    memcpy(file + 84, fourcc, 4);
    put32(file + 108, 0x1000); /* DDSCAPS_TEXTURE */
    memcpy(file + 128, blocks, size);
    kt_write_file(path, file, 128 + size);
    free(file);
}

/* Pillow's decode of a DDS as RGBA bytes (L images widen to (L, L, L, 255)). */
static uint8_t *pillow_decode(const char *dir, const char *name)
{
    char *cmd = kt_format("%s -c \"import sys; from PIL import Image; "
                          "im = Image.open(sys.argv[1]); im.load(); "
                          "open(sys.argv[2], 'wb').write(im.convert('RGBA').tobytes())\" "
                          "%s/%s.dds %s/%s.rgba",
                          python, dir, name, dir, name);
    char *log = NULL;
    int rc = kt_run(cmd, &log);
    free(cmd);
    free(log);
    if (rc != 0) fail_msg("Pillow could not decode %s.dds", name);
    char *path = kt_format("%s/%s.rgba", dir, name);
    size_t size = 0;
    uint8_t *px = kt_read_file(path, &size);
    free(path);
    assert_non_null(px);
    assert_int_equal(size, PX_W * PX_H * 4);
    return px;
}

/* Blocks: the first half random bytes (every mode and bit pattern), the second half kiln's own
 * encoding of a synthetic image. */
static void make_blocks(size_t bytes, bt_encode_fn enc, uint8_t *blocks)
{
    uint32_t seed = 2024;
    for (size_t i = 0; i < PX_BLOCKS / 2 * bytes; i++) blocks[i] = (uint8_t)bt_rand(&seed);
    uint8_t *img = malloc(BT_SIZE * BT_SIZE * 4);
    assert_non_null(img);
    bt_image(1, img);
    kiln_block_opts o = {.quality = KILN_QUALITY_NORMAL};
    uint8_t texels[64];
    for (size_t b = PX_BLOCKS / 2; b < PX_BLOCKS; b++) {
        size_t bx = b % (BT_SIZE / 4), by = b / (BT_SIZE / 4) % (BT_SIZE / 4);
        for (int i = 0; i < 16; i++)
            memcpy(texels + i * 4, img + ((by * 4 + i / 4) * BT_SIZE + bx * 4 + i % 4) * 4, 4);
        enc(texels, &o, blocks + b * bytes);
    }
    free(img);
}

/* Compares channels [0, channels) of every texel; BC1 3-colour blocks leave Pillow's alpha 0
 * on index 3 (BC1 with alpha), so alpha is not compared. */
static int compare(const char *name, const uint8_t *blocks, size_t bytes, bt_decode_fn dec,
                   const uint8_t *pillow, int channels)
{
    int mismatches = 0;
    uint8_t texels[64];
    for (size_t b = 0; b < PX_BLOCKS; b++) {
        dec(blocks + b * bytes, texels);
        size_t bx = b % (PX_W / 4), by = b / (PX_W / 4);
        for (int i = 0; i < 16; i++) {
            const uint8_t *p = pillow + ((by * 4 + i / 4) * PX_W + bx * 4 + i % 4) * 4;
            for (int k = 0; k < channels; k++) {
                if (p[k] != texels[i * 4 + k]) {
                    if (mismatches < 5)
                        print_message("%s block %zu texel %d channel %d: kiln %d, Pillow %d\n",
                                      name, b, i, k, texels[i * 4 + k], p[k]);
                    mismatches++;
                }
            }
        }
    }
    return mismatches;
}

static void check_format(const char *name, const char *fourcc, size_t bytes, bt_encode_fn enc,
                         bt_decode_fn dec, int channels)
{
    char *dir = kt_tempdir("bc1_pillow");
    uint8_t *blocks = malloc(PX_BLOCKS * bytes);
    assert_non_null(blocks);
    make_blocks(bytes, enc, blocks);
    char *path = kt_format("%s/%s.dds", dir, name);
    write_dds(path, fourcc, blocks, PX_BLOCKS * bytes);
    free(path);
    uint8_t *pillow = pillow_decode(dir, name);
    int mismatches = compare(name, blocks, bytes, dec, pillow, channels);
    free(pillow);
    free(blocks);
    kt_rmtree(dir);
    free(dir);
    if (mismatches) fail_msg("%s: %d channel values differ from Pillow", name, mismatches);
}

static void bc1_decode_equals_pillow_bit_for_bit(void **state)
{
    (void)state;
    check_format("bc1", "DXT1", 8, kiln_bc1_encode_block, kiln_bc1_decode_block, 3);
}

static void bc4_decode_equals_pillow_bit_for_bit(void **state)
{
    (void)state;
    check_format("bc4", "ATI1", 8, kiln_bc4_encode_block, kiln_bc4_decode_block, 1);
}

static void bc5_decode_equals_pillow_bit_for_bit(void **state)
{
    (void)state;
    check_format("bc5", "ATI2", 16, kiln_bc5_encode_block, kiln_bc5_decode_block, 2);
}

int main(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s -c 'import PIL.DdsImagePlugin' >/dev/null 2>&1", python);
    if (kt_run(cmd, NULL) != 0) {
        fprintf(stderr, "skipped: %s with Pillow (python3-pil) is not available\n", python);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bc1_decode_equals_pillow_bit_for_bit),
        cmocka_unit_test(bc4_decode_equals_pillow_bit_for_bit),
        cmocka_unit_test(bc5_decode_equals_pillow_bit_for_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
