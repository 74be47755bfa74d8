/* bc6h_tables.h — the BC6H constants and integer arithmetic that kiln's decoder (src/codec, in
 * libkiln_rt) and encoder (src/process) share, so the encoder scores exactly what the decoder
 * produces (Khronos Data Format Specification, BPTC chapter, BC6H section). BC6H reuses BC7's
 * first 32 two-subset partitions, their anchors and the 3- and 4-bit weights (bc7_tables.h). */
#ifndef KILN_CODEC_BC6H_TABLES_H
#define KILN_CODEC_BC6H_TABLES_H

#include <stdbool.h>
#include <stdint.h>

/* Endpoint components a mode's header bits land in: endpoint e (0..3) channel c (0..2) is
 * e * 3 + c (R0 G0 B0 R1 G1 B1 R2 G2 B2 R3 G3 B3), then the partition number. */
enum { KILN_BC6H_FIELD_PARTITION = 12, KILN_BC6H_FIELDS = 13 };

/* One run of header bits: consecutive block bits go to bits first, first +- 1, ..., last of
 * field (first > last: the spec's reversed fields, such as mode 15's R0^10..15). */
typedef struct kiln_bc6h_run {
    uint8_t field, first, last;
} kiln_bc6h_run;

enum { KILN_BC6H_MODE_COUNT = 14, KILN_BC6H_MAX_RUNS = 24 };

/* One row of the specification's mode table, with the block layout of its header. */
typedef struct kiln_bc6h_mode {
    uint8_t code;      /* the mode number stored in the low bits */
    uint8_t code_bits; /* 2 (modes 0, 1) or 5 */
    uint8_t subsets;   /* 2 (32 partitions, 3-bit indices) or 1 (4-bit indices) */
    bool transformed;  /* endpoints 1..3 are deltas from endpoint 0 */
    uint8_t epb;       /* endpoint bits, every channel */
    uint8_t delta[3];  /* bits of a delta per channel R, G, B (= epb when not transformed) */
    uint8_t run_count;
    kiln_bc6h_run runs[KILN_BC6H_MAX_RUNS];
} kiln_bc6h_mode;

/* In the specification's order: 0 1 2 6 10 14 18 22 26 30 (two subsets), 3 7 11 15 (one). */
extern const kiln_bc6h_mode kiln_bc6h_modes[KILN_BC6H_MODE_COUNT];

/* The kiln_bc6h_modes index of a block's mode from its first byte; -1 for the reserved modes
 * (19, 23, 27, 31), which decode to zero. */
int kiln_bc6h_mode_index(uint8_t first_byte);

/* Endpoint value x of epb bits (sign-extended already when is_signed) to the 16-bit
 * interpolation domain (the spec's "unquantize"). */
static inline int32_t kiln_bc6h_unquantize(int32_t x, unsigned epb, bool is_signed)
{
    if (!is_signed) {
        if (epb >= 15 || x == 0) return x;
        if (x == (int32_t)((1u << epb) - 1)) return 0xFFFF;
        return ((x << 15) + 0x4000) >> (epb - 1);
    }
    if (epb >= 16) return x;
    bool neg = x < 0;
    int32_t m = neg ? -x : x, u;
    if (m == 0) u = 0;
    else if (m >= (int32_t)((1u << (epb - 1)) - 1)) u = 0x7FFF;
    else u = ((m << 15) + 0x4000) >> (epb - 1);
    return neg ? -u : u;
}

/* ((64 - w) e0 + w e1 + 32) >> 6 with an arithmetic (flooring) shift, as hardware does for the
 * negative values of the signed format. */
static inline int32_t kiln_bc6h_interp(int32_t e0, int32_t e1, int32_t w)
{
    int32_t v = (64 - w) * e0 + w * e1 + 32;
    return v >= 0 ? v >> 6 : -((-v + 63) >> 6);
}

/* The final unquantisation: an interpolated value to the half-float bit pattern it decodes to. */
static inline uint16_t kiln_bc6h_finish(int32_t i, bool is_signed)
{
    if (!is_signed) return (uint16_t)((i * 31) >> 6);
    return i < 0 ? (uint16_t)((((-i) * 31) >> 5) | 0x8000) : (uint16_t)((i * 31) >> 5);
}

#endif
