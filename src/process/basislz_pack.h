/* basislz_pack.h — the writing side of BasisLZ (src/codec/basislz_*.c reads it): an LSB-first
 * bit writer, length-limited canonical Huffman codes and their table format, and the coding of
 * ETC1S codebooks, slices and the global data. Used by etc1s_encode.c. */
#ifndef KILN_PROCESS_BASISLZ_PACK_H
#define KILN_PROCESS_BASISLZ_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

/* One ETC1S endpoint (5-bit colour, intensity 0..7) and one selector (row y: texel x's
 * selector in bits 2x+1..2x), as the codebooks hold them. */
typedef struct kiln_etc1s_ep {
    uint8_t c5[3], inten;
} kiln_etc1s_ep;
typedef struct kiln_etc1s_sel {
    uint8_t rows[4];
} kiln_etc1s_sel;

/* A slice to code: blocks_x x blocks_y blocks, each an endpoint and a selector index. */
typedef struct kiln_blz_slice_in {
    const uint16_t *endpoint, *selector;
    uint32_t blocks_x, blocks_y;
} kiln_blz_slice_in;

/* Codes the endpoint codebook, the selector codebook (raw or XOR deltas), the slice Huffman tables
 * and every slice into the caller's buffers (slice_out: slice_count of them, initialised). Endpoint
 * indices are predicted from the left, upper and upper-left blocks or delta-coded; selector
 * indices are coded directly or as hits in the selector history. Deterministic. Returns false
 * when a buffer's allocation failed. */
bool kiln_blz_pack(const kiln_etc1s_ep *endpoints, uint32_t endpoint_count,
                   const kiln_etc1s_sel *selectors, uint32_t selector_count,
                   const kiln_blz_slice_in *slices, uint32_t slice_count, kiln_buf *endpoint_out,
                   kiln_buf *selector_out, kiln_buf *tables_out, kiln_buf *slice_out);

#endif
