/* basislz_internal.h — what the BasisLZ files share: the LSB-first bit reader, the canonical
 * Huffman decoder, the opened global data, and the slice decoder that turns a slice's bits into
 * ETC1S blocks one at a time. Private to src/codec/basislz_*.c. */
#ifndef KILN_CODEC_BASISLZ_INTERNAL_H
#define KILN_CODEC_BASISLZ_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/basislz.h"

/* Bits are read least significant first, byte by byte (the order BasisLZ writes). Reading past
 * the end gives zero bits and counts them; the callers check `over` once a stream is done, so a
 * short stream is an error, never a read out of bounds. */
typedef struct kiln_blz_bits {
    const uint8_t *data;
    size_t size, pos; /* pos: next byte to load */
    uint64_t buf;     /* bits not yet consumed, the next one in bit 0 */
    uint32_t count;   /* valid bits in buf */
    uint32_t virt;    /* of those, zero bits shifted in past the end (the highest ones) */
    bool over;        /* a read went past the end */
} kiln_blz_bits;

void kiln_blz_bits_init(kiln_blz_bits *b, const uint8_t *data, size_t size);
uint32_t kiln_blz_get(kiln_blz_bits *b, uint32_t n); /* n <= 32 */
/* The variable-length count: chunks of chunk_bits data bits and a continuation bit. */
uint32_t kiln_blz_vlc(kiln_blz_bits *b, uint32_t chunk_bits);

/* Huffman code lengths are at most 16 bits; up to 16383 symbols. */
#define KILN_BLZ_HUFF_MAX_LEN  16
#define KILN_BLZ_HUFF_FAST     10
#define KILN_BLZ_HUFF_MAX_SYMS 16383u

/* A canonical prefix code (codes assigned in order of length, then symbol), decoded as
 * deflate's: a table on the next KILN_BLZ_HUFF_FAST bits, then bit by bit by length. */
typedef struct kiln_blz_huff {
    uint32_t sym_count;                        /* symbols the table covers (0: an empty table) */
    uint16_t count[KILN_BLZ_HUFF_MAX_LEN + 1]; /* codes of each length */
    uint16_t *sorted; /* symbols in code order; sym_count entries allocated */
    uint32_t fast[1u << KILN_BLZ_HUFF_FAST]; /* (length << 16 | symbol), 0 when longer */
} kiln_blz_huff;

/* Reads one table's code lengths from b and builds it (sorted allocated with al). Returns false
 * on a malformed or over-subscribed code or when allocation fails (*oom set). */
bool kiln_blz_huff_read(kiln_blz_huff *h, kiln_blz_bits *b, const kiln_allocator *al, bool *oom);
void kiln_blz_huff_free(kiln_blz_huff *h, const kiln_allocator *al);
/* Decodes one symbol; returns UINT32_MAX for a code no symbol has (or an empty table). */
uint32_t kiln_blz_huff_decode(const kiln_blz_huff *h, kiln_blz_bits *b);

/* An ETC1S endpoint: a 5-bit colour and an intensity table (0..7). */
typedef struct kiln_etc1s_endpoint {
    uint8_t c5[3], inten;
} kiln_etc1s_endpoint;

/* An ETC1S selector: rows[y] holds texel (x, y)'s selector (0..3: the table's -b, -a, +a, +b,
 * the ascending order) in bits 2x+1..2x; etc1[] is the same as the four bytes 4..7 of an ETC1
 * block; lo/hi the smallest and largest selector used, unique how many differ. */
typedef struct kiln_etc1s_selector {
    uint8_t rows[4], etc1[4];
    uint8_t lo, hi, unique;
} kiln_etc1s_selector;

typedef struct kiln_blz_image {
    uint32_t flags, rgb_offset, rgb_length, alpha_offset, alpha_length;
} kiln_blz_image;

struct kiln_basislz {
    uint32_t endpoint_count, selector_count, image_count;
    kiln_etc1s_endpoint *endpoints;
    kiln_etc1s_selector *selectors;
    kiln_blz_image *images;
    kiln_blz_huff endpoint_pred, delta_endpoint, selector, selector_rle;
    uint32_t history_size; /* 1..KILN_BASISLZ_MAX_HISTORY */
    bool has_alpha;
};

/* The decoding state of one slice: blocks come out in row-major order. */
#define KILN_BLZ_MAX_BLOCKS_X 8192u
typedef struct kiln_blz_slice {
    const kiln_basislz *g;
    kiln_blz_bits bits;
    uint32_t blocks_x, blocks_y, x, y;
    uint32_t pred_bits, pred_repeat, prev_pred_sym, prev_endpoint, rle_left, rover;
    uint16_t upper_left; /* the row above's endpoint at x - 1, before row[x - 1] was replaced */
    uint16_t row[KILN_BLZ_MAX_BLOCKS_X];         /* endpoints: this row before x, the last after */
    uint8_t row_pred[KILN_BLZ_MAX_BLOCKS_X / 2]; /* the odd rows' predictor bits per block pair */
    uint16_t history[KILN_BASISLZ_MAX_HISTORY];
} kiln_blz_slice;

void kiln_blz_slice_init(kiln_blz_slice *s, const kiln_basislz *g, const uint8_t *data, size_t size,
                         uint32_t blocks_x, uint32_t blocks_y);
/* The next block's endpoint and selector indices (both checked against the codebooks). Returns
 * false on malformed bits. */
bool kiln_blz_slice_next(kiln_blz_slice *s, uint32_t *endpoint, uint32_t *selector);

#endif
