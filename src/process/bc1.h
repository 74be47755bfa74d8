/* bc1.h — kiln's BC1 (opaque, 4-colour mode), BC4 (one channel) and BC5 (two channels) encoders
 * and decoders (S3TC / RGTC, Khronos Data Format Specification). */
#ifndef KILN_PROCESS_BC1_H
#define KILN_PROCESS_BC1_H

#include <stdint.h>

#include "process/block.h"

void kiln_bc1_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[8]);
void kiln_bc1_decode_block(const uint8_t *in, uint8_t rgba[64]);   /* alpha 255 */

/* BC4 of channel 0 (R) of the texels. */
void kiln_bc4_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[8]);
void kiln_bc4_decode_block(const uint8_t *in, uint8_t rgba[64]);   /* (R, 0, 0, 255) */

/* BC5: R then G, each as a BC4 block. */
void kiln_bc5_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[16]);
void kiln_bc5_decode_block(const uint8_t *in, uint8_t rgba[64]);   /* (R, G, 0, 255) */

#endif
