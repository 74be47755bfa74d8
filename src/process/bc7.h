/* bc7.h — kiln's BC7 encoder and decoder (BPTC, Khronos Data Format Specification §BC7). */
#ifndef KILN_PROCESS_BC7_H
#define KILN_PROCESS_BC7_H

#include <stdint.h>

#include "codec/block_decode.h" /* kiln_bc7_decode_block, shared with libkiln_rt */
#include "process/block.h"

/* Encodes 16 RGBA8 texels into one 16-byte block. Opaque blocks (all alpha 255) decode with
 * alpha exactly 255. Deterministic; thread-safe (no shared state). */
void kiln_bc7_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[16]);

#endif
