/* bc1_test_images.c — seeded synthetic images for the BC1/4/5 tests: the formulas and seeds are
 * fixed, so quality floors measured on them cannot flap. */
#include "bc1_test_images.h"

#include <math.h>
#include <string.h>

uint32_t bt_rand(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

void bt_image(int which, uint8_t rgba[BT_SIZE * BT_SIZE * 4])
{
    uint32_t seed = which == 0 ? 0x1234567u : 0x89abcdefu;
    for (int y = 0; y < BT_SIZE; y++) {
        for (int x = 0; x < BT_SIZE; x++) {
            uint8_t *p = rgba + (y * BT_SIZE + x) * 4;
            int n = (int)(bt_rand(&seed) % 9) - 4;
            int v[3];
            if (which == 0) {
                double r = sqrt((double)((x - 20) * (x - 20) + (y - 40) * (y - 40)));
                v[0] = x * 4 + n;
                v[1] = (int)(128 + 100 * sin(r * 0.35)) + n;
                v[2] = y * 3 + (x & 16 ? 40 : 0) + n;
            } else {
                uint32_t c = bt_rand(&seed);
                int edge = ((x / 7) + (y / 5)) & 1;
                v[0] = (edge ? 200 : 40) + (int)(c & 63) - 32;
                v[1] = (edge ? 60 : 180) + (int)((c >> 6) & 63) - 32;
                v[2] = (int)((x * 37 + y * 11) & 255) / 2 + (int)((c >> 12) & 31);
            }
            for (int k = 0; k < 3; k++) p[k] = (uint8_t)(v[k] < 0 ? 0 : v[k] > 255 ? 255 : v[k]);
            p[3] = 255;
        }
    }
}

double bt_round_trip_psnr(const uint8_t *rgba, bt_encode_fn enc, bt_decode_fn dec, size_t bytes,
                          kiln_quality q, int channels)
{
    kiln_block_opts o = {.quality = q};
    uint8_t texels[64], block[16], out[64];
    double se = 0;
    for (int by = 0; by < BT_SIZE / 4; by++) {
        for (int bx = 0; bx < BT_SIZE / 4; bx++) {
            for (int i = 0; i < 16; i++)
                memcpy(texels + i * 4, rgba + ((by * 4 + i / 4) * BT_SIZE + bx * 4 + i % 4) * 4, 4);
            memset(block, 0, sizeof block);
            enc(texels, &o, block);
            (void)bytes;
            dec(block, out);
            for (int i = 0; i < 16; i++) {
                for (int k = 0; k < channels; k++) {
                    double d = (double)texels[i * 4 + k] - (double)out[i * 4 + k];
                    se += d * d;
                }
            }
        }
    }
    double mse = se / ((double)BT_SIZE * BT_SIZE * channels);
    return mse > 0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
}
