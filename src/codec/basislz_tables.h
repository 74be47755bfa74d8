/* basislz_tables.h — the fit tables of the ETC1S transcoder, computed at build time by
 * src/codec/gen/basislz_tables_gen.c (which says how). Entries are indexed by an ETC1S
 * endpoint's intensity table t and one 5-bit channel value c as (t * 32 + c), then by the
 * selector range (the lowest and highest selector a block uses; the generator lists them). */
#ifndef KILN_CODEC_BASISLZ_TABLES_H
#define KILN_CODEC_BASISLZ_TABLES_H

#include <stdint.h>

/* BC1 endpoints of one channel: [(t * 32 + c) * 60 + range * 10 + mapping]. */
typedef struct kiln_blz_bc1_fit {
    uint8_t lo, hi;
    uint16_t err;
} kiln_blz_bc1_fit;
extern const kiln_blz_bc1_fit kiln_blz_bc1_fit5[8 * 32 * 6 * 10];
extern const kiln_blz_bc1_fit kiln_blz_bc1_fit6[8 * 32 * 6 * 10];

/* Single-colour BC1 endpoints for an 8-bit value (5- or 6-bit, selector 1 or 0). */
typedef struct kiln_blz_bc1_match {
    uint8_t lo, hi;
} kiln_blz_bc1_match;
extern const kiln_blz_bc1_match kiln_blz_bc1_match5_sel1[256], kiln_blz_bc1_match6_sel1[256];
extern const kiln_blz_bc1_match kiln_blz_bc1_match5_sel0[256], kiln_blz_bc1_match6_sel0[256];

/* EAC blocks: base, table << 4 | multiplier, and each selector's 3-bit index (3 bits per
 * selector); [(t * 32 + c) * 4 + range]. */
typedef struct kiln_blz_eac_fit {
    uint8_t base, table_mul;
    uint16_t trans;
} kiln_blz_eac_fit;
extern const kiln_blz_eac_fit kiln_blz_eac_a8_fit[8 * 32 * 4];
extern const kiln_blz_eac_fit kiln_blz_eac_r11_fit[8 * 32 * 4];

/* BC4 blocks: alpha0, alpha1 and each selector's 3-bit index; [(t * 32 + c) * 4 + range]. */
typedef struct kiln_blz_bc4_fit {
    uint8_t a0, a1;
    uint16_t trans;
} kiln_blz_bc4_fit;
extern const kiln_blz_bc4_fit kiln_blz_bc4_fits[8 * 32 * 4];

/* BC7 mode 5: colour endpoints of one channel (7 bits; laid out as the BC1 fits), alpha
 * endpoints and each selector's 2-bit index (2 bits per selector; [(t * 32 + c) * 6 + range]),
 * single-colour endpoints. */
extern const kiln_blz_bc1_fit kiln_blz_bc7_colour_fit[8 * 32 * 6 * 10];
typedef struct kiln_blz_bc7_alpha_fit {
    uint8_t lo, hi, trans;
} kiln_blz_bc7_alpha_fit;
extern const kiln_blz_bc7_alpha_fit kiln_blz_bc7_alpha_fits[8 * 32 * 6];
extern const kiln_blz_bc1_match kiln_blz_bc7_match[256];

/* ASTC: endpoint fits of one channel (laid out as the BC1 fits) as 48-level ISE values and as
 * 8-bit values; the 48-level unquantisation; single-colour fits (nearest level; lo/hi for
 * weight 1); and the 8-bit code of five trits (index t0 + 3 t1 + 9 t2 + 27 t3 + 81 t4). */
extern const kiln_blz_bc1_fit kiln_blz_astc_fit47[8 * 32 * 6 * 10];
extern const kiln_blz_bc1_fit kiln_blz_astc_fit255[8 * 32 * 6 * 10];
extern const uint8_t kiln_blz_astc_unquant48[48];
extern const uint8_t kiln_blz_astc_single0[256];
extern const kiln_blz_bc1_match kiln_blz_astc_single1[256];
extern const uint8_t kiln_blz_astc_trits[243];

#endif
