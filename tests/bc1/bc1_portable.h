/* bc1_portable.h — kiln's BC1 codec built with its portable path (bc1_portable.c), for tests
 * that compare it with the library's SIMD build byte for byte. */
#ifndef KILN_TEST_BC1_PORTABLE_H
#define KILN_TEST_BC1_PORTABLE_H

#include <stdint.h>

#include "process/block.h"

void kiln_bc1_encode_block_portable(const uint8_t rgba[64], const kiln_block_opts *o,
                                    uint8_t out[8]);

#endif
