/* bc1_test_images.h — seeded synthetic images and block helpers shared by the BC1/4/5 tests. */
#ifndef KILN_TEST_BC1_IMAGES_H
#define KILN_TEST_BC1_IMAGES_H

#include <stdint.h>

#include "process/bc1.h"

#define BT_SIZE 64 /* test images are BT_SIZE x BT_SIZE RGBA8 */

/* xorshift32: fixed sequence for a given seed (never 0). */
uint32_t bt_rand(uint32_t *state);

/* 0: smooth — gradients, rings and a little noise; 1: busy — coloured noise over hard edges. */
void bt_image(int which, uint8_t rgba[BT_SIZE * BT_SIZE * 4]);

typedef void (*bt_encode_fn)(const uint8_t *, const kiln_block_opts *, uint8_t *);
typedef void (*bt_decode_fn)(const uint8_t *, uint8_t *);

/* Encodes then decodes the image block by block; PSNR over the first `channels` channels. */
double bt_round_trip_psnr(const uint8_t *rgba, bt_encode_fn enc, bt_decode_fn dec, size_t bytes,
                          kiln_quality q, int channels);

#endif
