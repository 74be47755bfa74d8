/* basislz_huffman.c — BasisLZ's bit reader and Huffman tables (the "ETC1S Texture Format"
 * page of Basis Universal's wiki and the KTX 2.0 specification's BasisLZ section): bits least
 * significant first; a table is 14 bits of symbol count, 5 bits of code-length-code count, 3-bit
 * lengths for those codes in a fixed order, then every symbol's code length coded with them
 * (17/18: runs of zeros, 19/20: repeats of the previous length). Codes are canonical, like
 * deflate's, and read from their first bit. */
#include <string.h>

#include "codec/basislz_internal.h"
#include "core/alloc.h"

void kiln_blz_bits_init(kiln_blz_bits *b, const uint8_t *data, size_t size)
{
    memset(b, 0, sizeof *b);
    b->data = data;
    b->size = data ? size : 0;
}

/* Tops buf up to at least 57 bits; past the end it shifts in zeros without advancing pos. */
static void refill(kiln_blz_bits *b)
{
    while (b->count <= 56) {
        uint64_t c = 0;
        if (b->pos < b->size) c = b->data[b->pos++];
        else b->virt += 8;
        b->buf |= c << b->count;
        b->count += 8;
    }
}

static void consume(kiln_blz_bits *b, uint32_t n)
{
    b->buf >>= n;
    b->count -= n;
    /* Bits that came from past the end count as an overrun once consumed. */
    if (b->count < b->virt) {
        b->over = true;
        b->virt = b->count;
    }
}

uint32_t kiln_blz_get(kiln_blz_bits *b, uint32_t n)
{
    if (n == 0) return 0;
    if (b->count < n) refill(b);
    uint32_t v = (uint32_t)(b->buf & ((n == 32) ? 0xFFFFFFFFu : ((1u << n) - 1u)));
    consume(b, n);
    return v;
}

uint32_t kiln_blz_vlc(kiln_blz_bits *b, uint32_t chunk_bits)
{
    uint32_t v = 0, shift = 0, more = 1u << chunk_bits;
    for (;;) {
        uint32_t s = kiln_blz_get(b, chunk_bits + 1);
        v |= (s & (more - 1)) << shift;
        shift += chunk_bits;
        /* A value past 32 bits stops where basisu's reader stops. */
        if (!(s & more) || shift >= 32) break;
    }
    return v;
}

static uint32_t reverse_bits(uint32_t code, uint32_t len)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < len; i++, code >>= 1) r = r << 1 | (code & 1);
    return r;
}

/* Builds the decoder from lengths[0..n). False when the code is over-subscribed. */
static bool huff_build(kiln_blz_huff *h, const uint8_t *lengths, uint32_t n)
{
    memset(h->count, 0, sizeof h->count);
    memset(h->fast, 0, sizeof h->fast);
    for (uint32_t i = 0; i < n; i++) h->count[lengths[i]]++;
    h->count[0] = 0;
    int32_t left = 1; /* Kraft: codes of each length still free */
    uint32_t offs[KILN_BLZ_HUFF_MAX_LEN + 2], next_code[KILN_BLZ_HUFF_MAX_LEN + 2];
    uint32_t code = 0;
    offs[1] = 0;
    for (uint32_t len = 1; len <= KILN_BLZ_HUFF_MAX_LEN; len++) {
        left = left * 2 - h->count[len];
        if (left < 0) return false;
        offs[len + 1] = offs[len] + h->count[len];
        next_code[len] = code;
        code = (code + h->count[len]) << 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = lengths[i];
        if (len == 0) continue;
        h->sorted[offs[len]++] = (uint16_t)i;
        uint32_t c = next_code[len]++;
        if (len <= KILN_BLZ_HUFF_FAST) {
            uint32_t r = reverse_bits(c, len);
            for (; r < (1u << KILN_BLZ_HUFF_FAST); r += 1u << len) h->fast[r] = len << 16 | i;
        }
    }
    return true;
}

bool kiln_blz_huff_read(kiln_blz_huff *h, kiln_blz_bits *b, const kiln_allocator *al, bool *oom)
{
    /* The order in which the code-length codes' own lengths are sent (basisu.h's
     * g_huffman_sorted_codelength_codes: the format's constant). */
    static const uint8_t order[21] = {17, 18, 19, 20, 0,  8, 7,  9, 6,  10, 5,
                                      11, 4,  12, 3,  13, 2, 14, 1, 15, 16};
    memset(h, 0, sizeof *h);
    uint32_t n = kiln_blz_get(b, 14);
    if (n == 0) return !b->over;
    uint32_t ncl = kiln_blz_get(b, 5);
    if (ncl < 1 || ncl > 21) return false;
    uint8_t cl_lengths[21] = {0};
    for (uint32_t i = 0; i < ncl; i++) cl_lengths[order[i]] = (uint8_t)kiln_blz_get(b, 3);
    /* The code-length code lives on the stack: 21 symbols. */
    uint16_t cl_sorted[21];
    kiln_blz_huff cl;
    memset(&cl, 0, sizeof cl);
    cl.sym_count = 21;
    cl.sorted = cl_sorted;
    if (!huff_build(&cl, cl_lengths, 21)) return false;

    uint8_t lengths[KILN_BLZ_HUFF_MAX_SYMS];
    uint32_t cur = 0;
    while (cur < n) {
        uint32_t c = kiln_blz_huff_decode(&cl, b);
        if (c == UINT32_MAX || b->over) return false;
        if (c <= 16) {
            lengths[cur++] = (uint8_t)c;
        } else if (c == 17 || c == 18) {
            uint32_t run = c == 17 ? kiln_blz_get(b, 3) + 3 : kiln_blz_get(b, 7) + 11;
            if (run > n - cur) return false;
            memset(lengths + cur, 0, run);
            cur += run;
        } else {
            uint32_t run = c == 19 ? kiln_blz_get(b, 2) + 3 : kiln_blz_get(b, 7) + 7;
            if (cur == 0 || lengths[cur - 1] == 0 || run > n - cur) return false;
            memset(lengths + cur, lengths[cur - 1], run);
            cur += run;
        }
    }
    if (b->over) return false;
    h->sorted = kiln_alloc(al, (size_t)n * sizeof *h->sorted);
    if (!h->sorted) {
        *oom = true;
        return false;
    }
    h->sym_count = n;
    return huff_build(h, lengths, n);
}

void kiln_blz_huff_free(kiln_blz_huff *h, const kiln_allocator *al)
{
    kiln_free(al, h->sorted, (size_t)h->sym_count * sizeof *h->sorted);
    h->sorted = NULL;
    h->sym_count = 0;
}

uint32_t kiln_blz_huff_decode(const kiln_blz_huff *h, kiln_blz_bits *b)
{
    if (h->sym_count == 0) return UINT32_MAX;
    if (b->count < KILN_BLZ_HUFF_MAX_LEN) refill(b);
    uint32_t e = h->fast[b->buf & ((1u << KILN_BLZ_HUFF_FAST) - 1)];
    if (e) {
        consume(b, e >> 16);
        return e & 0xFFFF;
    }
    /* Longer codes (or none): bit by bit, the first bit read is the code's highest. */
    uint32_t code = 0, first = 0, index = 0;
    uint64_t bits = b->buf;
    for (uint32_t len = 1; len <= KILN_BLZ_HUFF_MAX_LEN; len++) {
        code |= (uint32_t)(bits & 1);
        bits >>= 1;
        uint32_t count = h->count[len];
        if (code - first < count) {
            consume(b, len);
            return h->sorted[index + code - first];
        }
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return UINT32_MAX;
}
