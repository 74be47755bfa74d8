/* uastc_seeds.c — writes the fuzz seeds of fuzz/corpus/uastc/ (fuzz_uastc.c's input layout:
 * target, width, height, flags, blocks). The blocks are made by kiln's own code: for each UASTC
 * mode, pseudo-random bytes behind the mode's code until kiln_uastc_unpack accepts them (so each
 * seed starts with valid blocks of every mode), for every target, at sizes that are and are not
 * multiples of 4; plus a reserved mode code, short data and a short output buffer.
 * usage: uastc_seeds OUTDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/uastc.h"

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint8_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint8_t)(rng >> 24);
}

/* Mode codes (UASTC specification) to start a block with. */
static const uint8_t codes[KILN_UASTC_MODE_COUNT][2] = {
    {0x01, 4}, {0x35, 6}, {0x1D, 5}, {0x03, 5}, {0x13, 5}, {0x0B, 5}, {0x1B, 5},
    {0x07, 5}, {0x17, 5}, {0x0F, 5}, {0x02, 3}, {0x00, 2}, {0x06, 3}, {0x1F, 5},
    {0x0D, 5}, {0x05, 7}, {0x15, 6}, {0x25, 6}, {0x09, 4},
};

static void make_block(unsigned mode, uint8_t out[16])
{
    for (;;) {
        for (int i = 0; i < 16; i++) out[i] = next();
        unsigned len = codes[mode][1];
        out[0] = (uint8_t)((out[0] & ~((1u << len) - 1u)) | codes[mode][0]);
        kiln_uastc_block b;
        if (kiln_uastc_unpack(out, &b) && b.mode == mode) return;
    }
}

static int write_seed(const char *dir, const char *name, const uint8_t *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(data, 1, size, f) != size;
    if (f && fclose(f) != 0) bad = 1;
    if (bad) fprintf(stderr, "uastc_seeds: cannot write %s\n", path);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: uastc_seeds OUTDIR\n");
        return 2;
    }
    static const char *names[KILN_BASIS_TARGET_COUNT] = {"rgba8",     "astc",    "bc7",     "bc1",
                                                         "bc3",       "bc4",     "bc5",     "etc1",
                                                         "etc2_rgba", "eac_r11", "eac_rg11"};
    uint8_t buf[6 + 20 * 16];
    int bad = 0;
    for (unsigned t = 0; t < KILN_BASIS_TARGET_COUNT; t++) {
        /* 19x13 and 20x16 texels: 5 x 4 blocks, every mode at least once. */
        uint32_t w = t % 2 ? 20 : 19, h = t % 2 ? 16 : 13;
        size_t nb = ((w + 3) / 4) * ((h + 3) / 4);
        buf[0] = (uint8_t)t;
        buf[1] = (uint8_t)(w - 1);
        buf[2] = 0;
        buf[3] = (uint8_t)(h - 1);
        buf[4] = 0;
        buf[5] = (uint8_t)(t % 3 == 0 ? 2 : 0);
        for (size_t i = 0; i < nb; i++)
            make_block((unsigned)((i + t) % KILN_UASTC_MODE_COUNT), buf + 6 + i * 16);
        char name[64];
        snprintf(name, sizeof name, "%s_%ux%u", names[t], w, h);
        bad |= write_seed(argv[1], name, buf, 6 + nb * 16);
    }
    /* A reserved mode code in the second block. */
    buf[0] = KILN_BASIS_TARGET_BC7;
    buf[1] = 7, buf[2] = 0, buf[3] = 3, buf[4] = 0, buf[5] = 0;
    make_block(0, buf + 6);
    make_block(8, buf + 22);
    buf[22] = (uint8_t)((buf[22] & 0x80) | 0x45);
    bad |= write_seed(argv[1], "bc7_reserved_mode", buf, 6 + 32);
    /* Short data and a short output buffer. */
    buf[0] = KILN_BASIS_TARGET_ETC2_RGBA;
    make_block(13, buf + 22);
    bad |= write_seed(argv[1], "etc2_short_data", buf, 6 + 31);
    buf[5] = 1;
    bad |= write_seed(argv[1], "etc2_short_out", buf, 6 + 32);
    /* An unknown target. */
    buf[0] = KILN_BASIS_TARGET_COUNT;
    buf[5] = 0;
    bad |= write_seed(argv[1], "unknown_target", buf, 6 + 32);
    return bad;
}
