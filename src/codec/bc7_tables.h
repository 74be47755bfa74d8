/* bc7_tables.h — the BC7 constants and helpers kiln's decoder (src/codec, shared by the cook and
 * libkiln_rt) and encoder (src/process) both use (Khronos Data Format Specification, BPTC
 * chapter: modes, partitions, anchors, interpolation weights). */
#ifndef KILN_CODEC_BC7_TABLES_H
#define KILN_CODEC_BC7_TABLES_H

#include <stdint.h>

/* One row of the specification's mode table (bits per block / channel / texel). */
typedef struct kiln_bc7_mode_info {
    uint8_t subsets;        /* NS */
    uint8_t partition_bits; /* PB */
    uint8_t rotation_bits;  /* RB */
    uint8_t isb_bits;       /* ISB */
    uint8_t color_bits;     /* CB, per channel per endpoint, without the p-bit */
    uint8_t alpha_bits;     /* AB, 0 = alpha decodes as 255 */
    uint8_t endpoint_pbits; /* EPB: one p-bit per endpoint */
    uint8_t shared_pbits;   /* SPB: one p-bit per subset */
    uint8_t index_bits;     /* IB */
    uint8_t index2_bits;    /* IB2, 0 = no secondary indices */
} kiln_bc7_mode_info;

extern const kiln_bc7_mode_info kiln_bc7_modes[8];
/* Subset of each texel (row-major) for the 64 two- and three-subset partitions. */
extern const uint8_t kiln_bc7_partition2[64][16];
extern const uint8_t kiln_bc7_partition3[64][16];
/* Anchor texel of subset 1 (two subsets), of subsets 1 and 2 (three subsets); subset 0's
 * anchor is always texel 0. */
extern const uint8_t kiln_bc7_anchor2[64];
extern const uint8_t kiln_bc7_anchor3a[64];
extern const uint8_t kiln_bc7_anchor3b[64];
/* Texel masks (bit i set = texel i) of subset 1 of each two-subset partition, and of subsets
 * 1 and 2 of each three-subset partition; subset 0 holds the remaining texels. */
extern const uint16_t kiln_bc7_mask2[64];
extern const uint16_t kiln_bc7_mask3[64][2];
/* Interpolation weights (out of 64) for 2-, 3- and 4-bit indices. */
extern const uint8_t kiln_bc7_weights2[4];
extern const uint8_t kiln_bc7_weights3[8];
extern const uint8_t kiln_bc7_weights4[16];

/* The partition row (subset of each texel) for a mode with `subsets` subsets; one subset
 * gives a row of zeros. */
const uint8_t *kiln_bc7_partition_row(unsigned subsets, unsigned partition);
/* Anchor texel of `subset` (0 for subset 0). */
unsigned kiln_bc7_anchor(unsigned subsets, unsigned partition, unsigned subset);
/* Weight table for 2-, 3- or 4-bit indices. */
const uint8_t *kiln_bc7_weights(unsigned index_bits);

/* ((64 - w) * e0 + w * e1 + 32) >> 6, the specification's interpolation. */
static inline int kiln_bc7_interp(int e0, int e1, int w)
{
    return ((64 - w) * e0 + w * e1 + 32) >> 6;
}

/* Expands an n-bit endpoint value (p-bit already appended, 4 <= n <= 8) to 8 bits by
 * replicating its top bits, as the specification does. */
static inline int kiln_bc7_expand(unsigned v, unsigned n)
{
    v <<= 8 - n;
    return (int)(v | (v >> n));
}

#endif
