/* bc1.h — kiln's BC1 (opaque, 4-colour mode), BC4 (one channel) and BC5 (two channels) encoders
 * (S3TC / RGTC, Khronos Data Format Specification). */
#ifndef KILN_PROCESS_BC1_H
#define KILN_PROCESS_BC1_H

#include <stdint.h>

#include "codec/block_decode.h" /* the decoders, shared with libkiln_rt */
#include "process/block.h"

void kiln_bc1_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[8]);

/* BC4 of channel 0 (R) of the texels. */
void kiln_bc4_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[8]);

/* BC5: R then G, each as a BC4 block. */
void kiln_bc5_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[16]);

#endif
