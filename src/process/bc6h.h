/* bc6h.h — kiln's BC6H encoder (bc6h_encode.c): one 4x4 block of half floats at a time, for the
 * block driver (block.c) to run on the job pool. */
#ifndef KILN_PROCESS_BC6H_H
#define KILN_PROCESS_BC6H_H

#include <stdint.h>

#include "process/block.h"

/* Encodes 16 texels (row by row, RGBA little-endian halves: 128 bytes) into one BC6H_UFLOAT
 * block. Alpha is ignored; negative values and NaN encode as 0, values beyond 65504 (and +inf)
 * as 65504. o->quality picks how many partitions and refinement passes are tried; the output
 * depends only on the texels and o. */
void kiln_bc6h_encode_block(const uint8_t *texels, const kiln_block_opts *o, uint8_t *out);

/* The same for BC6H_SFLOAT: negative values are kept (down to -65504; -inf as -65504). */
void kiln_bc6h_sf_encode_block(const uint8_t *texels, const kiln_block_opts *o, uint8_t *out);

#endif
