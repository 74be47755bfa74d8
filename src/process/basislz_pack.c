/* basislz_pack.c — writes ETC1S codebooks and slices in BasisLZ's coding, the mirror of
 * src/codec/basislz_read.c and basislz_slice.c (docs/basis.md lays the format out): bits least
 * significant first, canonical Huffman codes of at most 16 bits (complete, as basisu's reader
 * requires), the selector codebook raw or XOR-delta coded, endpoint indices predicted or
 * delta-coded, selector indices direct, from the history
 * or in runs. Every slice is coded twice: once to count symbols, once to write them. */
#include "process/basislz_pack.h"

#include <stdlib.h>
#include <string.h>

#define PRED_SYMBOLS 257u
#define PRED_REPEAT  256u
#define HISTORY_SIZE 64u
#define RLE_SYMBOLS  64u
#define RLE_MIN      3u
#define MAX_CODE_LEN 16u
#define MAX_CL_LEN   7u
#define CL_SYMBOLS   21u

/* ---- bits ------------------------------------------------------------------------------- */

typedef struct bitw {
    kiln_buf *out; /* NULL: count only */
    uint64_t acc;
    uint32_t n;
} bitw;

static void put(bitw *w, uint32_t v, uint32_t bits)
{
    if (!w->out || bits == 0) return;
    w->acc |= (uint64_t)(v & (bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u)) << w->n;
    w->n += bits;
    while (w->n >= 8) {
        uint8_t byte = (uint8_t)w->acc;
        kiln_buf_append(w->out, &byte, 1);
        w->acc >>= 8;
        w->n -= 8;
    }
}

static void flush(bitw *w)
{
    if (w->out && w->n) put(w, 0, 8 - w->n);
}

static void put_vlc(bitw *w, uint32_t v, uint32_t chunk)
{
    do {
        uint32_t c = v & ((1u << chunk) - 1u);
        v >>= chunk;
        put(w, c | (v ? 1u << chunk : 0u), chunk + 1);
    } while (v);
}

/* ---- Huffman codes ---------------------------------------------------------------------- */

typedef struct huff {
    uint32_t n;     /* symbols in the table */
    uint8_t *len;   /* code length per symbol (0: unused) */
    uint16_t *code; /* bit-reversed code, ready for the LSB-first writer */
    uint32_t *freq;
} huff;

static bool huff_init(huff *h, uint32_t n)
{
    h->n = n;
    h->len = calloc(n, 1);
    h->code = calloc(n, sizeof *h->code);
    h->freq = calloc(n, sizeof *h->freq);
    return h->len && h->code && h->freq;
}

static void huff_free(huff *h)
{
    free(h->len);
    free(h->code);
    free(h->freq);
}

typedef struct node {
    uint64_t w;
    int32_t a, b; /* children (node indices), -1 for leaves */
    uint32_t sym;
} node;

static int cmp_node(const void *x, const void *y)
{
    const node *p = x, *q = y;
    if (p->w != q->w) return p->w < q->w ? -1 : 1;
    return p->sym < q->sym ? -1 : p->sym > q->sym;
}

/* Depths of a Huffman tree over the used symbols (two-queue construction on sorted leaves). */
static uint32_t tree_lengths(const uint64_t *w, uint32_t n, uint8_t *len, node *nodes,
                             uint32_t used)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (w[i]) nodes[k++] = (node){w[i], -1, -1, i};
    qsort(nodes, k, sizeof *nodes, cmp_node);
    uint32_t leaf = 0, inner = used, inner_end = used;
    for (uint32_t m = 0; m + 1 < used; m++) {
        int32_t pick[2];
        for (int j = 0; j < 2; j++) {
            if (leaf < used && (inner == inner_end || nodes[leaf].w <= nodes[inner].w))
                pick[j] = (int32_t)leaf++;
            else pick[j] = (int32_t)inner++;
        }
        nodes[inner_end++] = (node){nodes[pick[0]].w + nodes[pick[1]].w, pick[0], pick[1], 0};
    }
    /* Depths from the root (the last node) down: parents come after their children. */
    uint32_t depth_max = 0;
    uint8_t *depth = calloc(inner_end, 1);
    if (!depth) return UINT32_MAX;
    for (int32_t i = (int32_t)inner_end - 1; i >= (int32_t)used; i--) {
        for (int j = 0; j < 2; j++) {
            int32_t c = j ? nodes[i].b : nodes[i].a;
            depth[c] = (uint8_t)(depth[i] + 1);
        }
    }
    for (uint32_t i = 0; i < used; i++) {
        len[nodes[i].sym] = depth[i];
        if (depth[i] > depth_max) depth_max = depth[i];
    }
    free(depth);
    return depth_max;
}

/* Code lengths of at most max_len from h->freq (a symbol 0 is made used when none is, and a
 * single used symbol gets length 1), then the canonical codes. */
static bool huff_build(huff *h, uint32_t max_len)
{
    uint32_t used = 0;
    for (uint32_t i = 0; i < h->n; i++) used += h->freq[i] != 0;
    if (used == 0) {
        h->freq[0] = 1;
        used = 1;
    }
    memset(h->len, 0, h->n);
    if (used == 1) {
        for (uint32_t i = 0; i < h->n; i++)
            if (h->freq[i]) h->len[i] = 1;
    } else {
        uint64_t *w = malloc(h->n * sizeof *w);
        node *nodes = malloc(2 * (size_t)used * sizeof *nodes);
        if (!w || !nodes) {
            free(w);
            free(nodes);
            return false;
        }
        for (uint32_t i = 0; i < h->n; i++) w[i] = h->freq[i];
        /* Too deep: flatten the weights and build again (each round halves their spread). */
        for (;;) {
            uint32_t depth = tree_lengths(w, h->n, h->len, nodes, used);
            if (depth == UINT32_MAX) {
                free(w);
                free(nodes);
                return false;
            }
            if (depth <= max_len) break;
            for (uint32_t i = 0; i < h->n; i++)
                if (w[i]) w[i] = (w[i] >> 1) | 1;
        }
        free(w);
        free(nodes);
    }
    uint32_t count[MAX_CODE_LEN + 2] = {0}, next[MAX_CODE_LEN + 2] = {0}, code = 0;
    for (uint32_t i = 0; i < h->n; i++) count[h->len[i]]++;
    count[0] = 0;
    for (uint32_t l = 1; l <= MAX_CODE_LEN; l++) {
        next[l] = code;
        code = (code + count[l]) << 1;
    }
    for (uint32_t i = 0; i < h->n; i++) {
        uint32_t l = h->len[i];
        if (!l) continue;
        uint32_t c = next[l]++, r = 0;
        for (uint32_t b = 0; b < l; b++, c >>= 1) r = r << 1 | (c & 1);
        h->code[i] = (uint16_t)r;
    }
    return true;
}

static void put_sym(bitw *w, huff *h, uint32_t sym)
{
    if (!w->out) {
        h->freq[sym]++;
        return;
    }
    put(w, h->code[sym], h->len[sym]);
}

/* The table itself: symbol count, the code-length code, then the lengths, run-length coded. */
static bool huff_write(bitw *w, const huff *h)
{
    static const uint8_t order[CL_SYMBOLS] = {17, 18, 19, 20, 0,  8, 7,  9, 6,  10, 5,
                                              11, 4,  12, 3,  13, 2, 14, 1, 15, 16};
    /* Run-length code the lengths: (symbol, extra bits, extra value) triples. */
    uint32_t *ops = malloc((size_t)h->n * 3 * sizeof *ops);
    if (!ops) return false;
    uint32_t nops = 0;
    for (uint32_t i = 0; i < h->n;) {
        uint32_t l = h->len[i], run = 1;
        while (i + run < h->n && h->len[i + run] == l) run++;
        if (l == 0 && run >= 3) {
            uint32_t r = run > 138 ? 138 : run;
            if (r >= 11) {
                ops[nops * 3] = 18, ops[nops * 3 + 1] = 7, ops[nops * 3 + 2] = r - 11;
            } else {
                ops[nops * 3] = 17, ops[nops * 3 + 1] = 3, ops[nops * 3 + 2] = r - 3;
            }
            nops++;
            i += r;
        } else if (l != 0 && run >= 4) {
            /* One literal, then repeats of it. */
            ops[nops * 3] = l, ops[nops * 3 + 1] = 0, ops[nops * 3 + 2] = 0;
            nops++;
            uint32_t r = run - 1 > 134 ? 134 : run - 1;
            if (r >= 7) {
                ops[nops * 3] = 20, ops[nops * 3 + 1] = 7, ops[nops * 3 + 2] = r - 7;
            } else {
                ops[nops * 3] = 19, ops[nops * 3 + 1] = 2, ops[nops * 3 + 2] = r - 3;
            }
            nops++;
            i += 1 + r;
        } else {
            ops[nops * 3] = l, ops[nops * 3 + 1] = 0, ops[nops * 3 + 2] = 0;
            nops++;
            i++;
        }
    }
    huff cl;
    bool ok = huff_init(&cl, CL_SYMBOLS);
    if (ok) {
        for (uint32_t i = 0; i < nops; i++) cl.freq[ops[i * 3]]++;
        ok = huff_build(&cl, MAX_CL_LEN);
    }
    if (ok) {
        uint32_t m = CL_SYMBOLS;
        while (m > 1 && cl.len[order[m - 1]] == 0) m--;
        put(w, h->n, 14);
        put(w, m, 5);
        for (uint32_t i = 0; i < m; i++) put(w, cl.len[order[i]], 3);
        for (uint32_t i = 0; i < nops; i++) {
            put(w, cl.code[ops[i * 3]], cl.len[ops[i * 3]]);
            put(w, ops[i * 3 + 2], ops[i * 3 + 1]);
        }
    }
    huff_free(&cl);
    free(ops);
    return ok;
}

/* ---- codebooks -------------------------------------------------------------------------- */

static int colour_model(uint32_t prev) { return prev <= 9 ? 0 : prev <= 21 ? 1 : 2; }

static bool code_endpoints(const kiln_etc1s_ep *e, uint32_t n, kiln_buf *out)
{
    huff m[4];
    bool ok =
        huff_init(&m[0], 32) && huff_init(&m[1], 32) && huff_init(&m[2], 32) && huff_init(&m[3], 8);
    bool gray = true;
    for (uint32_t i = 0; i < n; i++)
        gray = gray && e[i].c5[0] == e[i].c5[1] && e[i].c5[0] == e[i].c5[2];
    for (int pass = 0; pass < 2 && ok; pass++) {
        bitw w = {pass ? out : NULL, 0, 0};
        if (pass) {
            for (int i = 0; i < 4 && ok; i++) ok = huff_build(&m[i], MAX_CODE_LEN);
            for (int i = 0; i < 4 && ok; i++) ok = huff_write(&w, &m[i]);
            put(&w, gray, 1);
        }
        uint32_t prev[3] = {16, 16, 16}, prev_inten = 0;
        for (uint32_t i = 0; i < n; i++) {
            put_sym(&w, &m[3], (e[i].inten - prev_inten) & 7);
            prev_inten = e[i].inten;
            for (uint32_t c = 0; c < (gray ? 1u : 3u); c++) {
                put_sym(&w, &m[colour_model(prev[c])], (e[i].c5[c] - prev[c]) & 31);
                prev[c] = e[i].c5[c];
            }
        }
        flush(&w);
    }
    for (int i = 0; i < 4; i++) huff_free(&m[i]);
    return ok && !out->failed;
}

/* Selectors raw (4 bytes each) or as Huffman-coded XORs with the previous selector's bytes,
 * whichever is shorter. */
static bool code_selectors(const kiln_etc1s_sel *s, uint32_t n, kiln_buf *out)
{
    huff h;
    if (!huff_init(&h, 256)) {
        huff_free(&h);
        return false;
    }
    for (uint32_t i = 1; i < n; i++)
        for (int y = 0; y < 4; y++) h.freq[s[i].rows[y] ^ s[i - 1].rows[y]]++;
    bool ok = huff_build(&h, MAX_CODE_LEN);
    uint64_t coded = 32;
    for (uint32_t i = 0; ok && i < 256; i++) coded += (uint64_t)h.freq[i] * h.len[i];
    bool raw = !ok || n < 2 || coded + 256 * 4 >= (uint64_t)n * 32;
    bitw w = {out, 0, 0};
    put(&w, 0, 1); /* no global codebook */
    put(&w, 0, 1); /* no hybrid codebook */
    put(&w, raw, 1);
    if (raw) {
        for (uint32_t i = 0; i < n; i++)
            for (int y = 0; y < 4; y++) put(&w, s[i].rows[y], 8);
    } else {
        ok = huff_write(&w, &h);
        for (int y = 0; y < 4; y++) put(&w, s[0].rows[y], 8);
        for (uint32_t i = 1; i < n; i++)
            for (int y = 0; y < 4; y++)
                put(&w, h.code[s[i].rows[y] ^ s[i - 1].rows[y]],
                    h.len[s[i].rows[y] ^ s[i - 1].rows[y]]);
    }
    flush(&w);
    huff_free(&h);
    return !out->failed;
}

/* ---- slices ----------------------------------------------------------------------------- */

typedef struct models {
    huff pred, delta, sel, rle;
    uint32_t endpoint_count, selector_count;
} models;

/* The predictor of block (x, y): 0 left, 1 upper, 2 upper left, 3 delta. prev is the index of
 * the block decoded before it. */
static uint32_t pick_pred(const kiln_blz_slice_in *s, uint32_t x, uint32_t y, uint32_t prev)
{
    uint32_t e = s->endpoint[y * s->blocks_x + x];
    if (x > 0 && e == prev) return 0;
    if (y > 0 && e == s->endpoint[(y - 1) * s->blocks_x + x]) return 1;
    if (x > 0 && y > 0 && e == s->endpoint[(y - 1) * s->blocks_x + x - 1]) return 2;
    return 3;
}

/* The four predictors of the group at (x, y) (y even), as the decoder reads them. */
static uint32_t group_symbol(const kiln_blz_slice_in *s, uint32_t x, uint32_t y)
{
    uint32_t sym = 0;
    for (uint32_t j = 0; j < 4; j++) {
        uint32_t bx = x + (j & 1), by = y + (j >> 1);
        if (bx >= s->blocks_x || by >= s->blocks_y) continue;
        /* The block decoded just before (bx, by) is its left neighbour when bx > 0. */
        uint32_t prev = bx > 0 ? s->endpoint[by * s->blocks_x + bx - 1] : 0;
        sym |= pick_pred(s, bx, by, prev) << (2 * j);
    }
    return sym;
}

static void code_slice(bitw *w, models *m, const kiln_blz_slice_in *s)
{
    uint32_t bx_n = s->blocks_x, by_n = s->blocks_y, total = bx_n * by_n;
    uint16_t history[HISTORY_SIZE] = {0};
    uint32_t rover = HISTORY_SIZE / 2, rle_left = 0, prev_endpoint = 0;
    uint32_t pred_bits = 0, repeat_left = 0, prev_sym = 0;
    uint8_t *row_pred = calloc(bx_n / 2 + 1, 1);
    if (!row_pred) return;
    for (uint32_t y = 0; y < by_n; y++) {
        for (uint32_t x = 0; x < bx_n; x++) {
            if ((x & 1) == 0) {
                if ((y & 1) == 0) {
                    uint32_t sym = group_symbol(s, x, y);
                    if (repeat_left) {
                        repeat_left--;
                    } else {
                        /* A run of 3 or more groups equal to the last coded symbol repeats. */
                        uint32_t run = 0, gx = x, gy = y;
                        while (gy < by_n && group_symbol(s, gx, gy) == prev_sym &&
                               sym == prev_sym) {
                            run++;
                            gx += 2;
                            if (gx >= bx_n) {
                                gx = 0;
                                gy += 2;
                            }
                        }
                        if (run >= 3) {
                            put_sym(w, &m->pred, PRED_REPEAT);
                            put_vlc(w, run - 3, 4);
                            repeat_left = run - 1;
                        } else {
                            put_sym(w, &m->pred, sym);
                            prev_sym = sym;
                        }
                    }
                    pred_bits = sym;
                    row_pred[x / 2] = (uint8_t)(sym >> 4);
                } else {
                    pred_bits = row_pred[x / 2];
                }
            }
            uint32_t pred = pred_bits & 3, e = s->endpoint[y * bx_n + x];
            pred_bits >>= 2;
            if (pred == 3)
                put_sym(w, &m->delta, (e + m->endpoint_count - prev_endpoint) % m->endpoint_count);
            prev_endpoint = e;

            uint32_t sel = s->selector[y * bx_n + x];
            if (rle_left) {
                rle_left--;
                continue;
            }
            uint32_t h = 0;
            while (h < HISTORY_SIZE && history[h] != sel) h++;
            if (h == 0) {
                uint32_t run = 1, i = y * bx_n + x;
                while (i + run < total && s->selector[i + run] == sel) run++;
                if (run >= RLE_MIN) {
                    put_sym(w, &m->sel, m->selector_count + HISTORY_SIZE);
                    if (run - RLE_MIN < RLE_SYMBOLS - 1) {
                        put_sym(w, &m->rle, run - RLE_MIN);
                    } else {
                        put_sym(w, &m->rle, RLE_SYMBOLS - 1);
                        put_vlc(w, run - RLE_MIN, 7);
                    }
                    rle_left = run - 1;
                    continue;
                }
            }
            if (h < HISTORY_SIZE) {
                put_sym(w, &m->sel, m->selector_count + h);
                if (h) {
                    uint16_t t = history[h / 2];
                    history[h / 2] = history[h];
                    history[h] = t;
                }
            } else {
                put_sym(w, &m->sel, sel);
                history[rover++] = (uint16_t)sel;
                if (rover == HISTORY_SIZE) rover = HISTORY_SIZE / 2;
            }
        }
    }
    free(row_pred);
    flush(w);
}

bool kiln_blz_pack(const kiln_etc1s_ep *endpoints, uint32_t endpoint_count,
                   const kiln_etc1s_sel *selectors, uint32_t selector_count,
                   const kiln_blz_slice_in *slices, uint32_t slice_count, kiln_buf *endpoint_out,
                   kiln_buf *selector_out, kiln_buf *tables_out, kiln_buf *slice_out)
{
    if (!code_endpoints(endpoints, endpoint_count, endpoint_out)) return false;
    if (!code_selectors(selectors, selector_count, selector_out)) return false;
    models m;
    memset(&m, 0, sizeof m);
    m.endpoint_count = endpoint_count;
    m.selector_count = selector_count;
    bool ok = huff_init(&m.pred, PRED_SYMBOLS) && huff_init(&m.delta, endpoint_count) &&
              huff_init(&m.sel, selector_count + HISTORY_SIZE + 1) &&
              huff_init(&m.rle, RLE_SYMBOLS);
    for (uint32_t i = 0; i < slice_count && ok; i++) {
        bitw w = {NULL, 0, 0};
        code_slice(&w, &m, &slices[i]);
    }
    ok = ok && huff_build(&m.pred, MAX_CODE_LEN) && huff_build(&m.delta, MAX_CODE_LEN) &&
         huff_build(&m.sel, MAX_CODE_LEN) && huff_build(&m.rle, MAX_CODE_LEN);
    if (ok) {
        bitw w = {tables_out, 0, 0};
        ok = huff_write(&w, &m.pred) && huff_write(&w, &m.delta) && huff_write(&w, &m.sel) &&
             huff_write(&w, &m.rle);
        put(&w, HISTORY_SIZE, 13);
        flush(&w);
    }
    for (uint32_t i = 0; i < slice_count && ok; i++) {
        bitw w = {&slice_out[i], 0, 0};
        code_slice(&w, &m, &slices[i]);
        ok = !slice_out[i].failed;
    }
    huff_free(&m.pred);
    huff_free(&m.delta);
    huff_free(&m.sel);
    huff_free(&m.rle);
    return ok && !tables_out->failed;
}
