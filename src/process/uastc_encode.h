/* uastc_encode.h — kiln's UASTC LDR 4x4 encoder (cook side). Deterministic: each block is encoded
 * by itself, the same bytes for the same texels and level. */
#ifndef KILN_PROCESS_UASTC_ENCODE_H
#define KILN_PROCESS_UASTC_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* Search effort 0 (fastest) .. 4 (slowest), like basisu's -uastc_level. */
#define KILN_UASTC_LEVEL_MAX 4

/* For each endpoint range UASTC uses, the integer-sequence value whose unquantized value is
 * nearest each 8-bit value; built once (kiln_uastc_enc_tables_init) and only read after. */
typedef struct kiln_uastc_enc_tables {
    uint8_t nearest[21][256];
    /* Subset of each texel of every common pattern, per mode (the 2- and 3-subset modes). */
    uint8_t part[19][30][16];
    uint16_t seed[19][30];
    /* The weight index (of 1..5 bits) whose ASTC weight is nearest each of 0..64. */
    uint8_t nearest_weight[6][65];
} kiln_uastc_enc_tables;
void kiln_uastc_enc_tables_init(kiln_uastc_enc_tables *t);

/* Encodes one block of 16 RGBA8 texels (row-major). */
void kiln_uastc_encode_block(const kiln_uastc_enc_tables *t, const uint8_t rgba[64], unsigned level,
                             uint8_t out[16]);

/* Encodes a w x h RGBA8 level (rows `stride` bytes apart) into ceil(w/4) * ceil(h/4) blocks
 * (out_size bytes at least 16 per block); partial edge blocks repeat their last row and column.
 * Errors: KILN_E_USAGE (NULL, empty, level > 4, out too small, stride < w * 4), KILN_E_LIMIT. */
kiln_result kiln_uastc_encode(const uint8_t *rgba, uint32_t w, uint32_t h, size_t stride,
                              unsigned level, uint8_t *out, size_t out_size, kiln_error *err);

/* Rate-distortion pass over blocks kiln_uastc_encode made from the same texels: in raster order,
 * each block may be replaced by its left or upper neighbour, or by the neighbour's mode,
 * endpoints and hints with weights fitted to this block, when that lowers
 * squared error + lambda * 8 * (bytes unlike both neighbours). Larger lambda: more repetition
 * for Zstandard, more error; 0 changes only blocks a neighbour encodes at least as well.
 * Errors: KILN_E_USAGE (bad arguments, a block that does not unpack), KILN_E_LIMIT. */
kiln_result kiln_uastc_rdo(const uint8_t *rgba, uint32_t w, uint32_t h, size_t stride, float lambda,
                           uint8_t *blocks, size_t blocks_size, kiln_error *err);

#endif
