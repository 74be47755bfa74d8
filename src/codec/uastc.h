/* uastc.h — UASTC LDR 4x4, Basis Universal's high-quality universal format: each 16-byte block
 * is a restricted ASTC 4x4 block (one of 19 modes) plus hints that make transcoding to BC7, ETC1
 * and ETC2 EAC cheap. Written from the "UASTC Texture Specification" of Basis Universal's wiki;
 * where the specification leaves a transcoder's choices open, kiln does what basisu's transcoder
 * (v1.15) does so that the blocks are equal (docs/basis.md says per target which ones are).
 *
 * kiln_uastc_unpack parses a block into its logical form; the per-block converters below turn
 * that form into texels or one block of a GPU format; kiln_uastc_transcode does a whole level.
 * Part of libkiln_rt: libc only, no allocation, every bit pattern either unpacks or is refused.
 *
 * Channels of the one- and two-channel targets (basisu's choice, which -unpack shows): BC4 and
 * EAC R11 keep R; BC5 and EAC RG11 keep R and A (A in the second block: basisu's convention for
 * two-channel data such as normal maps stored as X in RGB and Y in alpha). */
#ifndef KILN_CODEC_UASTC_H
#define KILN_CODEC_UASTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/basis.h"
#include "core/error.h"

#define KILN_UASTC_MODE_COUNT 19
#define KILN_UASTC_MODE_SOLID 8 /* one RGBA8 colour for the whole block */

/* The logical content of one UASTC block. */
typedef struct kiln_uastc_block {
    uint8_t mode;           /* 0..18 */
    uint8_t pattern;        /* the mode's common partition pattern index (2- or 3-subset modes) */
    uint8_t subsets;        /* 1..3 */
    uint8_t planes;         /* 1 or 2 */
    uint8_t comps;          /* endpoint channels: 2 (L+A), 3 (RGB) or 4 (RGBA) */
    uint8_t ccs;            /* dual-plane modes: the channel (0..3) on the second plane */
    uint8_t endpoint_range; /* ASTC integer-sequence range index (0..20) */
    uint8_t weight_bits;    /* 1..5 */
    uint16_t seed;          /* ASTC partition seed of the pattern */
    /* Endpoint values as ASTC integer-sequence values (bits | trit or quint << bits), ordered
     * subset by subset, channel by channel, low then high. */
    uint8_t endpoints[18];
    /* Weight indices, texel by texel in raster order; with two planes, texel i's are at 2i
     * (plane 0) and 2i+1 (plane 1). */
    uint8_t weights[32];
    uint8_t part[16]; /* subset of each texel (all 0 with one subset) */
    uint8_t solid[4]; /* mode 8: the colour */
    /* Hints (read by the BC1, ETC1 and ETC2 transcoders). */
    bool bc1_hint0, bc1_hint1;
    bool etc1_flip, etc1_diff;
    uint8_t etc1_inten0, etc1_inten1, etc1_bias;
    bool has_etc1_bias;    /* the mode carries the bias field (0 is a bias too) */
    uint8_t etc2_hints;    /* EAC alpha: table (low 4 bits) and multiplier (high 4) */
    uint8_t etc1_selector; /* mode 8 only: ETC1 solid block selector, base colour below */
    uint8_t etc1_r, etc1_g, etc1_b;
} kiln_uastc_block;

/* Parses the 16 bytes of a block. Returns false (and leaves *out unspecified) for a bit
 * pattern the specification does not define: the reserved mode code, a partition pattern index
 * past the mode's table, or a trit/quint group whose value is out of range. */
bool kiln_uastc_unpack(const uint8_t in[16], kiln_uastc_block *out);

/* The inverse: packs b's mode, pattern, dual-plane channel, hints, endpoints and weights (the
 * fields the mode has; the derived ones are not read) into 16 bytes. Returns false when a field
 * does not fit its mode: a pattern past its table, an endpoint or weight out of range (an
 * anchor weight has one bit less). unpack(pack(b)) gives b back. */
bool kiln_uastc_pack(const kiln_uastc_block *b, uint8_t out[16]);

/* ASTC endpoint unquantization of an integer-sequence value in range `range` to 0..255. */
uint8_t kiln_uastc_unquant_endpoint(unsigned value, unsigned range);

/* The 16 texels (row-major RGBA8) the block decodes to: ASTC's LDR decode with the 16-bit
 * interpolation truncated to 8 bits (what basisu's UASTC decoder and an ASTC UNORM8 decode give).
 * srgb selects ASTC's sRGB endpoint expansion. */
void kiln_uastc_decode(const kiln_uastc_block *b, bool srgb, uint8_t rgba[64]);

/* BC7's and BC1's solid-colour blocks use the endpoint pair that reproduces a channel value
 * best; the searches are done once per value and transcode call, in this caller-owned cache. */
typedef struct kiln_uastc_bc7_solid {
    uint16_t err;
    uint8_t lo, hi;
} kiln_uastc_bc7_solid;
typedef struct kiln_uastc_bc_cache {
    uint8_t done[256]; /* bit 0, 1: m6[v][p] computed; bit 2: m5[v]; bit 3, 4: bc1_5, bc1_6 */
    kiln_uastc_bc7_solid m6[256][2], m5[256];
    uint8_t bc1_5[256][2], bc1_6[256][2]; /* BC1 solid colour: 5- and 6-bit (hi, lo) */
} kiln_uastc_bc_cache;
void kiln_uastc_bc_cache_init(kiln_uastc_bc_cache *cache);

/* One block of each target. Each writes the target's block size (basis.h) to out. */
void kiln_uastc_to_astc(const kiln_uastc_block *b, uint8_t out[16]);
void kiln_uastc_to_bc7(const kiln_uastc_block *b, uint8_t out[16], kiln_uastc_bc_cache *cache);
/* ETC1 colour from the hints and the decoded texels (rgba: kiln_uastc_decode's output). */
void kiln_uastc_to_etc1(const kiln_uastc_block *b, const uint8_t rgba[64], uint8_t out[8]);
/* ETC2 EAC alpha block from the EAC hint and the decoded alpha. */
void kiln_uastc_to_eac_a8(const kiln_uastc_block *b, const uint8_t rgba[64], uint8_t out[8]);

/* BC1 colour block from the BC1 hints and the decoded texels (basisu's real-time path). */
void kiln_uastc_to_bc1(const kiln_uastc_block *b, const uint8_t rgba[64], uint8_t out[8],
                       kiln_uastc_bc_cache *cache);
/* BC4 block of channel `chan` (0..3) of the decoded texels. */
void kiln_uastc_bc4_encode(const uint8_t rgba[64], unsigned chan, uint8_t out[8]);
/* EAC R11 block of channel `chan` of the decoded texels. */
void kiln_uastc_eac_r11_encode(const uint8_t rgba[64], unsigned chan, uint8_t out[8]);

/* Transcodes one level: width x height texels, blocks = ceil(w/4) * ceil(h/4) UASTC blocks
 * (blocks_size bytes, at least that many), to `target` in out (out_size bytes, at least what
 * basis.h says the target needs). has_alpha is the level's DFD: true when its sample says RGBA,
 * false for RGB (then alpha is 255 and the targets with alpha write it opaque). Checks every
 * size first and allocates nothing. Errors: KILN_E_USAGE (NULL pointers, empty level, unknown
 * target, out too small), KILN_E_FORMAT_INVALID (too few block bytes, or a block that
 * kiln_uastc_unpack refuses: the message names it), KILN_E_LIMIT (sizes overflow). */
kiln_result kiln_uastc_transcode(kiln_basis_target target, const uint8_t *blocks,
                                 size_t blocks_size, uint32_t width, uint32_t height,
                                 bool has_alpha, uint8_t *out, size_t out_size, kiln_error *err);

#endif
