/* basislz_slice.c — decodes an ETC1S slice's bits into (endpoint, selector) index pairs, block
 * by block in row-major order (the "ETC1S Texture Format" page of Basis Universal's wiki, "Slice
 * decoding"). Endpoint indices are predicted: each 2x2 group of blocks starts (on its even row)
 * with one Huffman symbol holding four 2-bit predictors (left, upper, upper-left, or a coded
 * delta from the previous index), symbol 256 repeating the previous group's symbol a VLC-coded
 * number of times. Selector indices are Huffman-coded: a codebook index, an entry of a small
 * approximate move-to-front history, or a run of the history's first entry. */
#include <string.h>

#include "codec/basislz_internal.h"

#define PRED_REPEAT_SYMBOL 256u
#define RLE_ESCAPE_SYMBOL  63u /* the longest coded run: the count follows as a VLC */

void kiln_blz_slice_init(kiln_blz_slice *s, const kiln_basislz *g, const uint8_t *data, size_t size,
                         uint32_t blocks_x, uint32_t blocks_y)
{
    s->g = g;
    kiln_blz_bits_init(&s->bits, data, size);
    s->blocks_x = blocks_x;
    s->blocks_y = blocks_y;
    s->x = s->y = 0;
    s->pred_bits = s->pred_repeat = s->prev_pred_sym = s->prev_endpoint = s->rle_left = 0;
    s->upper_left = 0;
    s->rover = g->history_size / 2;
    memset(s->history, 0, g->history_size * sizeof s->history[0]);
}

static bool next_endpoint(kiln_blz_slice *s, uint32_t *out)
{
    const kiln_basislz *g = s->g;
    uint32_t x = s->x, y = s->y;
    if ((x & 1) == 0) {
        if ((y & 1) == 0) {
            if (s->pred_repeat) {
                s->pred_repeat--;
                s->pred_bits = s->prev_pred_sym;
            } else {
                uint32_t sym = kiln_blz_huff_decode(&g->endpoint_pred, &s->bits);
                if (sym > PRED_REPEAT_SYMBOL) return false;
                if (sym == PRED_REPEAT_SYMBOL) {
                    /* The repeat covers this group and count - 1 more. */
                    s->pred_repeat = kiln_blz_vlc(&s->bits, 4) + 3 - 1;
                    s->pred_bits = s->prev_pred_sym;
                } else {
                    s->pred_bits = sym;
                    s->prev_pred_sym = sym;
                }
            }
            /* The group's lower two predictors wait for the next row. */
            s->row_pred[x / 2] = (uint8_t)(s->pred_bits >> 4);
        } else {
            s->pred_bits = s->row_pred[x / 2];
        }
    }
    uint32_t pred = s->pred_bits & 3, e;
    s->pred_bits >>= 2;
    switch (pred) {
    case 0: /* left */
        if (x == 0) return false;
        e = s->prev_endpoint;
        break;
    case 1: /* upper: row[x] still holds the row above */
        if (y == 0) return false;
        e = s->row[x];
        break;
    case 2: /* upper left */
        if (x == 0 || y == 0) return false;
        e = s->upper_left;
        break;
    default: {
        uint32_t d = kiln_blz_huff_decode(&g->delta_endpoint, &s->bits);
        if (d == UINT32_MAX) return false;
        e = d + s->prev_endpoint;
        if (e >= g->endpoint_count) e -= g->endpoint_count;
        if (e >= g->endpoint_count) return false;
    }
    }
    s->upper_left = s->row[x];
    s->row[x] = (uint16_t)e;
    s->prev_endpoint = e;
    *out = e;
    return true;
}

static bool next_selector(kiln_blz_slice *s, uint32_t *out)
{
    const kiln_basislz *g = s->g;
    uint32_t n = g->selector_count, sym;
    if (s->rle_left) {
        s->rle_left--;
        sym = n;
    } else {
        sym = kiln_blz_huff_decode(&g->selector, &s->bits);
        if (sym == UINT32_MAX) return false;
        if (sym == n + g->history_size) {
            /* A run of the history's first entry, this block included. */
            uint32_t run = kiln_blz_huff_decode(&g->selector_rle, &s->bits);
            if (run == UINT32_MAX) return false;
            uint64_t count = run == RLE_ESCAPE_SYMBOL ? (uint64_t)kiln_blz_vlc(&s->bits, 7) + 3
                                                      : (uint64_t)run + 3;
            if (count > (uint64_t)s->blocks_x * s->blocks_y) return false;
            s->rle_left = (uint32_t)count - 1;
            sym = n;
        }
    }
    uint32_t sel;
    if (sym >= n) {
        uint32_t h = sym - n;
        if (h >= g->history_size) return false;
        sel = s->history[h];
        if (h != 0) { /* approximate move to front: swap halfway towards the front */
            uint16_t t = s->history[h / 2];
            s->history[h / 2] = s->history[h];
            s->history[h] = t;
        }
    } else {
        sel = sym;
        s->history[s->rover++] = (uint16_t)sel;
        if (s->rover == g->history_size) s->rover = g->history_size / 2;
    }
    *out = sel;
    return true;
}

bool kiln_blz_slice_next(kiln_blz_slice *s, uint32_t *endpoint, uint32_t *selector)
{
    if (s->y >= s->blocks_y) return false;
    if (!next_endpoint(s, endpoint) || !next_selector(s, selector)) return false;
    if (++s->x == s->blocks_x) {
        s->x = 0;
        s->y++;
    }
    return !s->bits.over;
}
