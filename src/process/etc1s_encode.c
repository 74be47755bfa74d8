/* etc1s_encode.c — ETC1S with BasisLZ. Blocks (colour, and alpha as grey) are clustered on
 * their mean colour and intensity table into endpoints (k-means in two levels: sqrt(k) groups,
 * then within each group); each block then moves to the endpoint of its group that draws it best
 * and the endpoints are refit. Each block's best selectors for its endpoint are clustered the same
 * way; every codebook selector becomes the best for its blocks under their own endpoints (real
 * colour error), each block takes the best selector of its group, and the endpoints are refit.
 * A rate-distortion pass in coding order lets a block take a neighbour's endpoint or a selector
 * of the coder's history when its error grows by little; the codebooks are ordered greedily for
 * their delta codes, and basislz_pack.c writes everything. Codebook sizes follow the quality as
 * basisu 1.15's do. Single-threaded, deterministic; docs/basis.md compares it with basisu. */
#include "process/etc1s_encode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/error.h"
#include "process/basislz_pack.h"

#define KMEANS_ROUNDS      3
#define ETC1S_EP_PASSES    2 /* above q 128; one up to it (the second adds ~0.1 dB there) */
#define ETC1S_EP_RDO       384
#define ETC1S_ORDER_WINDOW 256
#define ETC1S_FINAL_PASSES 1
#define ETC1S_HISTORY      64 /* BasisLZ's selector history */
#define ETC1S_SEL_RDO      320

static const int modifiers[8][4] = {{-8, -2, 2, 8},       {-17, -5, 5, 17},    {-29, -9, 9, 29},
                                    {-42, -13, 13, 42},   {-60, -18, 18, 60},  {-80, -24, 24, 80},
                                    {-106, -33, 33, 106}, {-183, -47, 47, 183}};

typedef struct block_px {
    uint8_t px[16][3];
} block_px;

static int ext5(int c) { return c << 3 | c >> 2; }

/* Squared error of the block under endpoint (c5, t) with each texel's best selector (written to
 * rows when not NULL). */
static uint32_t eval(const block_px *b, const int c5[3], int t, uint8_t rows[4])
{
    int col[4][3];
    for (int k = 0; k < 3; k++) {
        int base = ext5(c5[k]);
        for (int s = 0; s < 4; s++) {
            int v = base + modifiers[t][s];
            col[s][k] = v < 0 ? 0 : v > 255 ? 255 : v;
        }
    }
    uint32_t total = 0;
    if (rows) memset(rows, 0, 4);
    for (int i = 0; i < 16; i++) {
        uint32_t best = UINT32_MAX;
        int bs = 0;
        for (int s = 0; s < 4; s++) {
            int dr = b->px[i][0] - col[s][0], dg = b->px[i][1] - col[s][1],
                db = b->px[i][2] - col[s][2];
            uint32_t e = (uint32_t)(dr * dr + dg * dg + db * db);
            if (e < best) {
                best = e;
                bs = s;
            }
        }
        total += best;
        if (rows) rows[i >> 2] |= (uint8_t)(bs << (2 * (i & 3)));
    }
    return total;
}

/* eval's total without the selectors, giving up (returning stop or more) once it reaches stop. */
static uint32_t eval_stop(const block_px *b, const int c5[3], int t, uint32_t stop)
{
    int col[4][3];
    for (int k = 0; k < 3; k++) {
        int base = ext5(c5[k]);
        for (int s = 0; s < 4; s++) {
            int v = base + modifiers[t][s];
            col[s][k] = v < 0 ? 0 : v > 255 ? 255 : v;
        }
    }
    uint32_t total = 0;
    for (int i = 0; i < 16 && total < stop; i++) {
        uint32_t best = UINT32_MAX;
        for (int s = 0; s < 4; s++) {
            int dr = b->px[i][0] - col[s][0], dg = b->px[i][1] - col[s][1],
                db = b->px[i][2] - col[s][2];
            uint32_t e = (uint32_t)(dr * dr + dg * dg + db * db);
            best = e < best ? e : best;
        }
        total += best;
    }
    return total;
}

/* The best endpoint for a set of blocks, starting near a colour (8-bit, per channel): for every
 * intensity table, the colour rounded to 5 bits, then twice the least-squares base for the
 * selectors that colour gives (texels minus their modifiers, averaged), each tried as is and
 * shifted by -1 and +1 on all channels together. */
static uint64_t total_error(const block_px *blocks, const uint32_t *members, uint32_t count,
                            const int c5[3], int t, uint64_t stop, double acc[3])
{
    uint64_t e = 0;
    if (acc) acc[0] = acc[1] = acc[2] = 0;
    for (uint32_t m = 0; m < count && e < stop; m++) {
        const block_px *b = &blocks[members ? members[m] : m];
        uint8_t rows[4];
        e += eval(b, c5, t, acc ? rows : NULL);
        if (acc)
            for (int i = 0; i < 16; i++) {
                int sv = (rows[i >> 2] >> (2 * (i & 3))) & 3;
                for (int k = 0; k < 3; k++) acc[k] += b->px[i][k] - modifiers[t][sv];
            }
    }
    return e;
}

static kiln_etc1s_ep fit(const block_px *blocks, const uint32_t *members, uint32_t count,
                         const float rgb[3], int t_lo, int t_hi)
{
    kiln_etc1s_ep best_ep = {{0, 0, 0}, 0};
    uint64_t best = UINT64_MAX;
    t_lo = t_lo < 0 ? 0 : t_lo;
    t_hi = t_hi > 7 ? 7 : t_hi;
    for (int t = t_lo; t <= t_hi; t++) {
        int r5[3];
        for (int k = 0; k < 3; k++) {
            int v = (int)(rgb[k] * 31.0f / 255.0f + 0.5f);
            r5[k] = v < 0 ? 0 : v > 31 ? 31 : v;
        }
        for (int iter = 0; iter < 3; iter++) {
            double acc[3];
            int next[3];
            for (int d = -1; d <= 1; d++) {
                int c5[3];
                for (int k = 0; k < 3; k++) {
                    int v = r5[k] + d;
                    c5[k] = v < 0 ? 0 : v > 31 ? 31 : v;
                }
                uint64_t e = total_error(blocks, members, count, c5, t, d == 0 ? UINT64_MAX : best,
                                         d == 0 ? acc : NULL);
                if (e < best) {
                    best = e;
                    best_ep = (kiln_etc1s_ep){{(uint8_t)c5[0], (uint8_t)c5[1], (uint8_t)c5[2]},
                                              (uint8_t)t};
                }
            }
            for (int k = 0; k < 3; k++) {
                double v = acc[k] / (16.0 * count) * 31.0 / 255.0 + 0.5;
                next[k] = v < 0 ? 0 : v > 31 ? 31 : (int)v;
            }
            if (!memcmp(next, r5, sizeof next)) break;
            memcpy(r5, next, sizeof next);
        }
    }
    return best_ep;
}

static void block_mean(const block_px *b, float rgb[3])
{
    for (int k = 0; k < 3; k++) {
        int s = 0;
        for (int i = 0; i < 16; i++) s += b->px[i][k];
        rgb[k] = (float)s / 16.0f;
    }
}

/* k-means of n points of dim floats into k centres (seeded with points spread through an
 * order by the first coordinate sum, then index); assign[i] gets each point's centre. */
typedef struct sort_key {
    float key;
    uint32_t index;
} sort_key;

static int cmp_key(const void *a, const void *b)
{
    const sort_key *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return p->index < q->index ? -1 : p->index > q->index;
}

/* Squared distances of fixed length, in loops the compiler can vectorise. */
static float dist16(const float *p, const float *q)
{
    float e[4] = {0, 0, 0, 0};
    for (int d = 0; d < 16; d += 4)
        for (int j = 0; j < 4; j++) e[j] += (p[d + j] - q[d + j]) * (p[d + j] - q[d + j]);
    return (e[0] + e[1]) + (e[2] + e[3]);
}

static float dist4(const float *p, const float *q)
{
    float e = 0;
    for (int d = 0; d < 4; d++) e += (p[d] - q[d]) * (p[d] - q[d]);
    return e;
}

static bool kmeans(const float *pts, uint32_t n, uint32_t dim, uint32_t *k_inout, float *centres,
                   uint32_t *assign)
{
    uint32_t k = *k_inout;
    sort_key *keys = malloc(n * sizeof *keys);
    double *sum = malloc((size_t)k * dim * sizeof *sum);
    uint32_t *cnt = malloc(k * sizeof *cnt);
    if (!keys || !sum || !cnt) {
        free(keys);
        free(sum);
        free(cnt);
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        float s = 0;
        for (uint32_t d = 0; d < dim; d++) s += pts[(size_t)i * dim + d];
        keys[i] = (sort_key){s, i};
    }
    qsort(keys, n, sizeof *keys, cmp_key);
    /* Seeds spread over the distinct points (in the order above), so no two start equal. */
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *p = pts + (size_t)keys[i].index * dim;
        if (distinct && !memcmp(p, pts + (size_t)keys[distinct - 1].index * dim, dim * sizeof *p))
            continue;
        keys[distinct++] = keys[i];
    }
    if (k > distinct) k = distinct;
    for (uint32_t c = 0; c < k; c++)
        memcpy(centres + (size_t)c * dim,
               pts + (size_t)keys[(uint64_t)c * distinct / k].index * dim, dim * sizeof *centres);
    for (int round = 0; round <= KMEANS_ROUNDS; round++) {
        for (uint32_t i = 0; i < n; i++) {
            const float *p = pts + (size_t)i * dim;
            float best = 3.4e38f;
            uint32_t bc = 0;
            for (uint32_t c = 0; c < k; c++) {
                const float *q = centres + (size_t)c * dim;
                float e = dim == 16 ? dist16(p, q) : dim == 4 ? dist4(p, q) : 0;
                for (uint32_t d = dim == 16 || dim == 4 ? dim : 0; d < dim; d++)
                    e += (p[d] - q[d]) * (p[d] - q[d]);
                if (e < best) {
                    best = e;
                    bc = c;
                }
            }
            assign[i] = bc;
        }
        if (round == KMEANS_ROUNDS) break;
        memset(sum, 0, (size_t)k * dim * sizeof *sum);
        memset(cnt, 0, k * sizeof *cnt);
        for (uint32_t i = 0; i < n; i++) {
            cnt[assign[i]]++;
            for (uint32_t d = 0; d < dim; d++)
                sum[(size_t)assign[i] * dim + d] += pts[(size_t)i * dim + d];
        }
        for (uint32_t c = 0; c < k; c++)
            if (cnt[c])
                for (uint32_t d = 0; d < dim; d++)
                    centres[(size_t)c * dim + d] = (float)(sum[(size_t)c * dim + d] / cnt[c]);
    }
    free(keys);
    free(sum);
    free(cnt);
    *k_inout = k;
    return true;
}

/* k-means in two levels, for large k: about sqrt(k) coarse centres over all points, then each
 * coarse group's points into a share of the k centres in proportion to its size (at least one).
 * A point is compared with sqrt(k) + k / sqrt(k) centres instead of k. assign[i] gets each
 * point's centre, group_start (sqrt(k) + 2 entries) the first centre of each group, *groups their
 * number; *k_inout the centres made. */
static bool kmeans_grouped(const float *pts, uint32_t n, uint32_t dim, uint32_t *k_inout,
                           float *centres, uint32_t *assign, uint32_t *group_start,
                           uint32_t *groups)
{
    uint32_t k = *k_inout, k1 = 1;
    while ((k1 + 1) * (k1 + 1) <= k) k1++;
    float *cc = malloc((size_t)k1 * dim * sizeof *cc), *tmp = malloc((size_t)n * dim * sizeof *tmp);
    uint32_t *g = malloc(n * sizeof *g), *cnt = calloc(k1 + 1, sizeof *cnt),
             *idx = malloc(n * sizeof *idx), *ta = malloc(n * sizeof *ta);
    bool ok = cc && tmp && g && cnt && idx && ta && kmeans(pts, n, dim, &k1, cc, g);
    uint32_t off = 0;
    if (ok) {
        uint32_t nonempty = 0;
        for (uint32_t i = 0; i < n; i++) cnt[g[i]]++;
        for (uint32_t j = 0; j < k1; j++) nonempty += cnt[j] != 0;
        uint32_t spare = k > nonempty ? k - nonempty : 0;
        for (uint32_t j = 0; ok && j < k1; j++) {
            group_start[j] = off;
            if (!cnt[j]) continue;
            uint32_t m = 0;
            for (uint32_t i = 0; i < n; i++)
                if (g[i] == j) {
                    idx[m] = i;
                    memcpy(tmp + (size_t)m * dim, pts + (size_t)i * dim, dim * sizeof *tmp);
                    m++;
                }
            uint32_t kj = 1 + (uint32_t)((uint64_t)spare * m / n);
            ok = kmeans(tmp, m, dim, &kj, centres + (size_t)off * dim, ta);
            for (uint32_t t = 0; ok && t < m; t++) assign[idx[t]] = off + ta[t];
            off += kj;
        }
        group_start[k1] = off;
    }
    free(cc);
    free(tmp);
    free(g);
    free(cnt);
    free(idx);
    free(ta);
    *k_inout = off;
    *groups = k1;
    return ok;
}

/* The block's error drawn with endpoint e and selector s. */
static uint32_t block_cost(const block_px *b, const kiln_etc1s_ep *e, const kiln_etc1s_sel *s)
{
    int col[4][3];
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 4; v++) {
            int x = ext5(e->c5[k]) + modifiers[e->inten][v];
            col[v][k] = x < 0 ? 0 : x > 255 ? 255 : x;
        }
    uint32_t total = 0;
    for (int t = 0; t < 16; t++) {
        int v = (s->rows[t >> 2] >> (2 * (t & 3))) & 3;
        int dr = b->px[t][0] - col[v][0], dg = b->px[t][1] - col[v][1],
            db = b->px[t][2] - col[v][2];
        total += (uint32_t)(dr * dr + dg * dg + db * db);
    }
    return total;
}

/* Counting sort of n labels below k: order lists the items label by label, start[c] is where
 * label c's begin (k + 1 entries). */
static void bucket(const uint32_t *label, uint32_t n, uint32_t k, uint32_t *order, uint32_t *start)
{
    memset(start, 0, (k + 1) * sizeof *start);
    for (uint32_t i = 0; i < n; i++) start[label[i] + 1]++;
    for (uint32_t c = 0; c < k; c++) start[c + 1] += start[c];
    for (uint32_t i = 0; i < n; i++) order[start[label[i]]++] = i;
    for (uint32_t c = k; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
}

/* te[t * 4 + v]: the squared error of texel t of the block drawn with selector v of endpoint e. */
static void selector_errors(const block_px *b, const kiln_etc1s_ep *e, uint32_t te[64])
{
    int col[4][3];
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 4; v++) {
            int x = ext5(e->c5[k]) + modifiers[e->inten][v];
            col[v][k] = x < 0 ? 0 : x > 255 ? 255 : x;
        }
    for (int t = 0; t < 16; t++)
        for (int v = 0; v < 4; v++) {
            int dr = b->px[t][0] - col[v][0], dg = b->px[t][1] - col[v][1],
                db = b->px[t][2] - col[v][2];
            te[t * 4 + v] = (uint32_t)(dr * dr + dg * dg + db * db);
        }
}

static void best_selectors(const uint32_t te[64], uint8_t rows[4])
{
    memset(rows, 0, 4);
    for (int t = 0; t < 16; t++) {
        int bv = 0;
        for (int v = 1; v < 4; v++)
            if (te[t * 4 + v] < te[t * 4 + bv]) bv = v;
        rows[t >> 2] |= (uint8_t)(bv << (2 * (t & 3)));
    }
}

/* The block's error with selector s (stops counting at stop). */
static uint32_t selector_cost(const uint32_t te[64], const kiln_etc1s_sel *s, uint32_t stop)
{
    uint32_t e = 0;
    for (int t = 0; t < 16 && e < stop; t++)
        e += te[t * 4 + ((s->rows[t >> 2] >> (2 * (t & 3))) & 3)];
    return e;
}

/* The selector with the least total error over the blocks listed (unchanged for none). */
static void refine_selector(const uint32_t *texel_err, const uint32_t *members, uint32_t m,
                            kiln_etc1s_sel *s)
{
    if (!m) return;
    uint64_t sum[64] = {0};
    for (uint32_t j = 0; j < m; j++) {
        const uint32_t *te = texel_err + (size_t)members[j] * 64;
        for (int q = 0; q < 64; q++) sum[q] += te[q];
    }
    kiln_etc1s_sel r = {{0, 0, 0, 0}};
    for (int t = 0; t < 16; t++) {
        int bv = 0;
        for (int v = 1; v < 4; v++)
            if (sum[t * 4 + v] < sum[t * 4 + bv]) bv = v;
        r.rows[t >> 2] |= (uint8_t)(bv << (2 * (t & 3)));
    }
    *s = r;
}

/* Each endpoint refit to its blocks and their selectors: per intensity table, the least-squares
 * base colour (texel minus modifier, averaged), rounded, and its 26 neighbours. */
static void refit_endpoints(const block_px *blocks, const uint16_t *bend,
                            const kiln_etc1s_sel *bsel_rows, uint32_t n, kiln_etc1s_ep *eps,
                            uint32_t ne, uint32_t *order, uint32_t *start)
{
    uint32_t *lab = malloc(n * sizeof *lab);
    if (!lab) return; /* the endpoints stay as they are */
    for (uint32_t i = 0; i < n; i++) lab[i] = bend[i];
    bucket(lab, n, ne, order, start);
    free(lab);
    for (uint32_t c = 0; c < ne; c++) {
        const uint32_t *members = order + start[c];
        uint32_t m = start[c + 1] - start[c];
        if (!m) continue;
        uint64_t best = UINT64_MAX;
        kiln_etc1s_ep best_ep = eps[c];
        for (int t = 0; t < 8; t++) {
            double acc[3] = {0, 0, 0};
            for (uint32_t j = 0; j < m; j++) {
                const block_px *b = &blocks[members[j]];
                const kiln_etc1s_sel *sr = &bsel_rows[members[j]];
                for (int i = 0; i < 16; i++) {
                    int sv = (sr->rows[i >> 2] >> (2 * (i & 3))) & 3;
                    for (int k = 0; k < 3; k++) acc[k] += b->px[i][k] - modifiers[t][sv];
                }
            }
            int r5[3];
            for (int k = 0; k < 3; k++) {
                double v = acc[k] / (16.0 * m) * 31.0 / 255.0 + 0.5;
                r5[k] = v < 0 ? 0 : v > 31 ? 31 : (int)v;
            }
            /* The error is a sum over channels: each channel's base is the best of three. */
            uint64_t e = 0;
            int c5[3];
            for (int k = 0; k < 3; k++) {
                uint64_t bk = UINT64_MAX;
                c5[k] = r5[k];
                for (int d = -1; d <= 1; d++) {
                    int v = r5[k] + d, col[4];
                    if (v < 0 || v > 31) continue;
                    for (int sv = 0; sv < 4; sv++) {
                        int x = ext5(v) + modifiers[t][sv];
                        col[sv] = x < 0 ? 0 : x > 255 ? 255 : x;
                    }
                    uint64_t ek = 0;
                    for (uint32_t j = 0; j < m; j++) {
                        const block_px *b = &blocks[members[j]];
                        const kiln_etc1s_sel *sr = &bsel_rows[members[j]];
                        for (int i = 0; i < 16; i++) {
                            int dd = b->px[i][k] - col[(sr->rows[i >> 2] >> (2 * (i & 3))) & 3];
                            ek += (uint64_t)(dd * dd);
                        }
                    }
                    if (ek < bk) {
                        bk = ek;
                        c5[k] = v;
                    }
                }
                e += bk;
            }
            if (e < best) {
                best = e;
                best_ep =
                    (kiln_etc1s_ep){{(uint8_t)c5[0], (uint8_t)c5[1], (uint8_t)c5[2]}, (uint8_t)t};
            }
        }
        eps[c] = best_ep;
    }
}

/* A cost of coding entry b after entry a in the codebooks. */
static uint32_t ep_distance(const void *pa, const void *pb)
{
    const kiln_etc1s_ep *a = pa, *b = pb;
    uint32_t d = a->inten != b->inten ? 4u : 0u;
    for (int k = 0; k < 3; k++) d += (uint32_t)abs(a->c5[k] - b->c5[k]);
    return d;
}

static uint32_t sel_distance(const void *pa, const void *pb)
{
    const kiln_etc1s_sel *a = pa, *b = pb;
    uint32_t x = (uint32_t)(a->rows[0] ^ b->rows[0]) | (uint32_t)(a->rows[1] ^ b->rows[1]) << 8 |
                 (uint32_t)(a->rows[2] ^ b->rows[2]) << 16 |
                 (uint32_t)(a->rows[3] ^ b->rows[3]) << 24;
    /* 4 for each byte that differs, plus the bits that differ (SWAR counts). */
    uint32_t nz = x | x >> 4;
    nz |= nz >> 2;
    nz |= nz >> 1;
    nz &= 0x01010101u;
    uint32_t c = x - ((x >> 1) & 0x55555555u);
    c = (c & 0x33333333u) + ((c >> 2) & 0x33333333u);
    c = (((c + (c >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
    return ((nz * 0x01010101u) >> 24) * 4 + c;
}

/* A greedy path through n items: from item 0, each next one the nearest not yet taken among the
 * first `window` not taken (in their order). perm[new] = old, inv[old] = new. */
static void greedy_order(const void *items, size_t size, uint32_t n,
                         uint32_t (*dist)(const void *, const void *), uint32_t window,
                         uint32_t *perm, uint32_t *inv)
{
    const uint8_t *it = items;
    /* The items not taken, as a linked list in their order. */
    uint32_t *next = inv; /* reused: inv is written at the end */
    if (!n) return;
    for (uint32_t i = 0; i < n; i++) next[i] = i + 1;
    uint32_t head = 1, cur = 0;
    perm[0] = 0;
    for (uint32_t k = 1; k < n; k++) {
        uint32_t best = UINT32_MAX, bi = head, prev_best = UINT32_MAX;
        uint32_t p = UINT32_MAX, w = 0;
        for (uint32_t i = head; i < n && w < window; p = i, i = next[i], w++) {
            uint32_t d = dist(it + (size_t)cur * size, it + (size_t)i * size);
            if (d < best) {
                best = d;
                bi = i;
                prev_best = p;
            }
            if (!d) break;
        }
        if (prev_best == UINT32_MAX) head = next[bi];
        else next[prev_best] = next[bi];
        perm[k] = bi;
        cur = bi;
    }
    for (uint32_t k = 0; k < n; k++) inv[perm[k]] = k;
}

typedef struct slice_info {
    uint32_t image, blocks_x, blocks_y, first; /* first: index of its first block */
    bool alpha;
} slice_info;

kiln_result kiln_etc1s_encode(const kiln_etc1s_image *images, uint32_t image_count,
                              uint32_t quality, int alpha, const kiln_allocator *al,
                              kiln_etc1s_encoded *out, kiln_error *err)
{
    if (!images || !image_count || !out || quality == 0 || quality > 255)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_etc1s_encode: bad arguments");
    memset(out, 0, sizeof *out);
    bool has_alpha = alpha == 1;
    for (uint32_t i = 0; i < image_count; i++) {
        const kiln_etc1s_image *im = &images[i];
        if (!im->rgba || !im->width || !im->height || im->level >= KILN_ETC1S_MAX_LEVELS ||
            (i && im->level < images[i - 1].level))
            return kiln_error_set(err, KILN_E_USAGE, "kiln_etc1s_encode: image %u is bad", i);
        if (alpha < 0)
            for (size_t t = 0; t < (size_t)im->width * im->height && !has_alpha; t++)
                has_alpha = im->rgba[t * 4 + 3] != 255;
    }
    uint32_t slice_count = image_count * (has_alpha ? 2 : 1);
    slice_info *sl = calloc(slice_count, sizeof *sl);
    if (!sl) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ETC1S: out of memory");
    size_t total = 0;
    for (uint32_t i = 0; i < slice_count; i++) {
        const kiln_etc1s_image *im = &images[has_alpha ? i / 2 : i];
        sl[i] = (slice_info){has_alpha ? i / 2 : i, (im->width + 3) / 4, (im->height + 3) / 4,
                             (uint32_t)total, has_alpha && (i & 1)};
        total += (size_t)sl[i].blocks_x * sl[i].blocks_y;
    }
    if (total > (1u << 26)) {
        free(sl);
        return kiln_error_set(err, KILN_E_LIMIT, "ETC1S: %zu blocks is too many", total);
    }
    uint32_t n = (uint32_t)total;
    block_px *blocks = malloc(n * sizeof *blocks);
    float *pts = malloc((size_t)n * 16 * sizeof *pts);
    uint32_t *assign = malloc(n * sizeof *assign), *members = calloc(n, sizeof *members);
    uint16_t *bend = malloc(n * sizeof *bend), *bsel = malloc(n * sizeof *bsel);
    kiln_etc1s_sel *bsel_rows = malloc(n * sizeof *bsel_rows);
    /* Rate-distortion thresholds, error ratios in 1/256 (basisu's defaults are 1.5 and 1.25):
     * 1.5 and 1.25 up to q 128, going down to 1.25 and 1.125 at q 255. */
    uint32_t ep_rdo = ETC1S_EP_RDO, sel_rdo = ETC1S_SEL_RDO;
    if (quality > 128) { /* above the middle, less of the error budget goes to bytes */
        ep_rdo -= 64 * (quality - 128) / 127;
        sel_rdo -= 32 * (quality - 128) / 127;
    }
    /* Codebook sizes by quality, near what basisu 1.15 keeps for a 768x512 image (907, 1414
     * and 1414 endpoints, 168, 2711 and 16086 selectors at q 32, 128 and 255): endpoints grow
     * quickly then level off, selectors as q^2.3. */
    double qf = quality / 255.0;
    uint32_t ke = (uint32_t)(400 + 1400 * pow(qf, 0.6)), ks = (uint32_t)(32 + 16096 * pow(qf, 2.6));
    /* A Huffman table has at most 16383 symbols: the endpoint deltas one per endpoint, the
     * selector symbols one per selector plus the history (64) and the run symbol. */
    if (ke > 16383) ke = 16383;
    if (ks > 16383 - 65) ks = 16383 - 65;
    if (ke > n) ke = n;
    if (ks > n) ks = n;
    float *centres = malloc((size_t)(ke > ks ? ke : ks) * 16 * sizeof *centres);
    kiln_etc1s_ep *eps = malloc(ke * sizeof *eps);
    kiln_etc1s_sel *sels = malloc(ks * sizeof *sels);
    uint32_t kmax = ke > ks ? ke : ks;
    uint32_t *remap = malloc(kmax * sizeof *remap);
    uint32_t *order = malloc(n * sizeof *order),
             *start = malloc(((size_t)kmax + 1) * sizeof *start);
    uint32_t *group_start = malloc(((size_t)kmax + 2) * sizeof *group_start);
    uint32_t *texel_err = malloc((size_t)n * 64 * sizeof *texel_err);
    uint32_t *ep_group = malloc(kmax * sizeof *ep_group),
             *ep_group_end = malloc(kmax * sizeof *ep_group_end);
    kiln_result r = KILN_OK;
    if (!blocks || !pts || !assign || !members || !bend || !bsel || !bsel_rows || !centres ||
        !eps || !sels || !remap || !order || !start || !group_start || !texel_err || !ep_group ||
        !ep_group_end) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ETC1S: out of memory");
        goto done;
    }

    /* Blocks, edge texels repeated; alpha slices carry alpha as grey. */
    for (uint32_t i = 0; i < slice_count; i++) {
        const kiln_etc1s_image *im = &images[sl[i].image];
        for (uint32_t by = 0; by < sl[i].blocks_y; by++) {
            for (uint32_t bx = 0; bx < sl[i].blocks_x; bx++) {
                block_px *b = &blocks[sl[i].first + by * sl[i].blocks_x + bx];
                for (uint32_t t = 0; t < 16; t++) {
                    uint32_t x = bx * 4 + (t & 3), y = by * 4 + (t >> 2);
                    if (x >= im->width) x = im->width - 1;
                    if (y >= im->height) y = im->height - 1;
                    const uint8_t *p = im->rgba + ((size_t)y * im->width + x) * 4;
                    for (int k = 0; k < 3; k++) b->px[t][k] = sl[i].alpha ? p[3] : p[k];
                }
            }
        }
    }

    /* Endpoints: each block's own fit, clustered on (colour, modifier), refit per cluster. */
    for (uint32_t i = 0; i < n; i++) {
        float rgb[3];
        block_mean(&blocks[i], rgb);
        /* The block's intensity table: the best at its mean colour rounded to 5 bits. */
        int c5[3], best_t = 0;
        for (int k = 0; k < 3; k++) c5[k] = (int)(rgb[k] * 31.0f / 255.0f + 0.5f);
        uint32_t best = UINT32_MAX;
        for (int t = 0; t < 8; t++) {
            uint32_t v = eval_stop(&blocks[i], c5, t, best);
            if (v < best) {
                best = v;
                best_t = t;
            }
        }
        kiln_etc1s_ep e = {{0, 0, 0}, (uint8_t)best_t};
        /* The block's mean colour (not its 5-bit base: more distinct points to cluster). */
        for (int k = 0; k < 3; k++) pts[i * 4 + (uint32_t)k] = rgb[k];
        pts[i * 4 + 3] = (float)modifiers[e.inten][3] * 0.5f;
    }
    uint32_t groups = 0;
    if (!kmeans_grouped(pts, n, 4, &ke, centres, assign, group_start, &groups)) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ETC1S: out of memory");
        goto done;
    }
    bucket(assign, n, ke, order, start);
    uint32_t ne = 0;
    for (uint32_t g = 0, c = 0; g < groups; g++) {
        uint32_t first = ne;
        for (; c < group_start[g + 1]; c++) {
            uint32_t m = start[c + 1] - start[c];
            remap[c] = UINT32_MAX;
            if (!m) continue;
            remap[c] = ne;
            ep_group[ne] = first;
            eps[ne++] = fit(blocks, order + start[c], m, centres + (size_t)c * 4, 0, 7);
        }
        for (uint32_t e = first; e < ne; e++) ep_group_end[e] = ne;
    }
    for (uint32_t i = 0; i < n; i++) assign[i] = remap[assign[i]];
    /* Each block moves to the endpoint of its group that draws it best (each texel with its best
     * selector), and the endpoints are fit again to their new blocks; twice above q 128. */
    for (int pass = 0; pass < (quality > 128 ? ETC1S_EP_PASSES : 1); pass++) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t cur = assign[i], bc = cur;
            int c5[3] = {eps[cur].c5[0], eps[cur].c5[1], eps[cur].c5[2]};
            uint32_t best = eval(&blocks[i], c5, eps[cur].inten, NULL);
            for (uint32_t e = ep_group[cur]; e < ep_group_end[cur] && best; e++) {
                if (e == cur) continue;
                int d5[3] = {eps[e].c5[0], eps[e].c5[1], eps[e].c5[2]};
                uint32_t v = eval_stop(&blocks[i], d5, eps[e].inten, best);
                if (v < best) {
                    best = v;
                    bc = e;
                }
            }
            assign[i] = bc;
        }
        bucket(assign, n, ne, order, start);
        for (uint32_t e = 0; e < ne; e++) {
            uint32_t m = start[e + 1] - start[e];
            if (!m) continue;
            float rgb[3] = {0, 0, 0};
            for (uint32_t j = 0; j < m; j++)
                for (int k = 0; k < 3; k++) rgb[k] += pts[order[start[e] + j] * 4 + (uint32_t)k];
            for (int k = 0; k < 3; k++) rgb[k] /= (float)m;
            eps[e] = fit(blocks, order + start[e], m, rgb, eps[e].inten - 1, eps[e].inten + 1);
        }
    }
    for (uint32_t c = 0; c < ne; c++) remap[c] = c;
    /* Selectors for each block's endpoint, then clustered (16 values 0..3) in groups; each
     * codebook selector is then the best one for its blocks under their own endpoints (real
     * colour error), and each block takes the best selector of its group; twice, with the
     * endpoints refit to their blocks' selectors in between. */
    for (uint32_t i = 0; i < n; i++) {
        bend[i] = (uint16_t)remap[assign[i]];
        selector_errors(&blocks[i], &eps[bend[i]], texel_err + (size_t)i * 64);
        uint8_t rows[4];
        best_selectors(texel_err + (size_t)i * 64, rows);
        for (uint32_t t = 0; t < 16; t++)
            pts[i * 16 + t] = (float)((rows[t >> 2] >> (2 * (t & 3))) & 3);
    }
    if (!kmeans_grouped(pts, n, 16, &ks, centres, assign, group_start, &groups)) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ETC1S: out of memory");
        goto done;
    }
    for (uint32_t c = 0; c < ks; c++) { /* the centres rounded: kept by clusters left empty */
        kiln_etc1s_sel z = {{0, 0, 0, 0}};
        for (uint32_t t = 0; t < 16; t++) {
            int v = (int)(centres[(size_t)c * 16 + t] + 0.5f);
            z.rows[t >> 2] |= (uint8_t)((v < 0 ? 0 : v > 3 ? 3 : v) << (2 * (t & 3)));
        }
        sels[c] = z;
    }
    for (uint32_t g = 0; g < groups; g++)
        for (uint32_t c = group_start[g]; c < group_start[g + 1]; c++) remap[c] = g;
    for (int pass = 0; pass < 2; pass++) {
        bucket(assign, n, ks, order, start);
        for (uint32_t c = 0; c < ks; c++)
            refine_selector(texel_err, order + start[c], start[c + 1] - start[c], &sels[c]);
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t *te = texel_err + (size_t)i * 64;
            uint32_t g = remap[assign[i]], best_c = assign[i];
            uint32_t best = selector_cost(te, &sels[best_c], UINT32_MAX);
            for (uint32_t c = group_start[g]; c < group_start[g + 1]; c++) {
                uint32_t e = selector_cost(te, &sels[c], best);
                if (e < best) {
                    best = e;
                    best_c = c;
                }
            }
            assign[i] = best_c;
        }
        bucket(assign, n, ks, order, start);
        for (uint32_t c = 0; c < ks; c++)
            refine_selector(texel_err, order + start[c], start[c + 1] - start[c], &sels[c]);
        for (uint32_t i = 0; i < n; i++) bsel_rows[i] = sels[assign[i]];
        if (pass) break;
        refit_endpoints(blocks, bend, bsel_rows, n, eps, ne, order, start);
        for (uint32_t i = 0; i < n; i++)
            selector_errors(&blocks[i], &eps[bend[i]], texel_err + (size_t)i * 64);
    }
    /* Rate-distortion: in coding order, a block takes the endpoint of its left, upper or
     * upper-left neighbour (coded as a 2-bit prediction instead of a delta) when that costs at
     * most ETC1S_EP_RDO times its error, then the selector of its left or upper neighbour (a run
     * or a history hit instead of a full index) when that costs at most ETC1S_SEL_RDO times. */
    for (uint32_t si = 0; si < slice_count; si++) {
        uint32_t bw = sl[si].blocks_x, bh = sl[si].blocks_y, f = sl[si].first;
        /* The coder's selector history (basislz_pack.c), which runs leave as it is. */
        uint32_t hist[ETC1S_HISTORY] = {0}, hist_n = ETC1S_HISTORY, rover = ETC1S_HISTORY / 2;
        for (uint32_t y = 0; y < bh; y++)
            for (uint32_t x = 0; x < bw; x++) {
                uint32_t i = f + y * bw + x;
                uint32_t cand[3], nc = 0;
                if (x) cand[nc++] = i - 1;
                if (y) cand[nc++] = i - bw;
                if (x && y) cand[nc++] = i - bw - 1;
                uint32_t cur = block_cost(&blocks[i], &eps[bend[i]], &sels[assign[i]]);
                uint64_t limit = (uint64_t)cur * ep_rdo / 256;
                uint32_t best = UINT32_MAX, bj = 0;
                for (uint32_t c = 0; c < nc; c++) {
                    uint32_t j = cand[c];
                    if (bend[j] == bend[i]) {
                        best = UINT32_MAX;
                        break;
                    }
                    uint32_t e = block_cost(&blocks[i], &eps[bend[j]], &sels[assign[i]]);
                    if (e <= limit && e < best) {
                        best = e;
                        bj = j;
                    }
                }
                if (best != UINT32_MAX) {
                    bend[i] = bend[bj];
                    cur = best;
                }
                /* The selector: one in the coder's history (a shorter code than an index; the
                 * first can start a run) when the block's own is not there. */
                limit = (uint64_t)cur * sel_rdo / 256;
                uint32_t bsel_c = assign[i], hit = UINT32_MAX;
                for (uint32_t h = 0; h < hist_n; h++)
                    if (hist[h] == assign[i]) hit = h;
                if (hit == UINT32_MAX) {
                    best = UINT32_MAX;
                    for (uint32_t h = 0; h < hist_n; h++) {
                        uint32_t e = block_cost(&blocks[i], &eps[bend[i]], &sels[hist[h]]);
                        if (e <= limit && e < best) {
                            best = e;
                            bsel_c = hist[h];
                            hit = h;
                        }
                    }
                }
                assign[i] = bsel_c;
                bsel_rows[i] = sels[bsel_c];
                if (hit == UINT32_MAX) {
                    hist[rover] = bsel_c;
                    if (++rover == ETC1S_HISTORY) rover = ETC1S_HISTORY / 2;
                } else if (hit) {
                    uint32_t t = hist[hit / 2];
                    hist[hit / 2] = hist[hit];
                    hist[hit] = t;
                }
            }
    }
    /* Endpoints no block uses are dropped. */
    {
        uint32_t *lab = members;
        for (uint32_t i = 0; i < n; i++) lab[i] = bend[i];
        bucket(lab, n, ne, order, start);
        uint32_t kept = 0;
        for (uint32_t c = 0; c < ne; c++) {
            remap[c] = kept;
            if (start[c + 1] > start[c]) eps[kept++] = eps[c];
        }
        for (uint32_t i = 0; i < n; i++) bend[i] = (uint16_t)remap[bend[i]];
        ne = kept;
    }
    /* Selectors no block uses are dropped; the rest keep their order. */
    bucket(assign, n, ks, order, start);
    uint32_t ns = 0;
    for (uint32_t c = 0; c < ks; c++) {
        remap[c] = ns;
        if (start[c + 1] > start[c]) sels[ns++] = sels[c];
    }
    for (uint32_t i = 0; i < n; i++) bsel[i] = (uint16_t)remap[assign[i]];
    refit_endpoints(blocks, bend, bsel_rows, n, eps, ne, order, start);
    /* Once more now that the blocks' choices are final: the selectors for their blocks'
     * endpoints, then the endpoints for those selectors. */
    for (int pass = 0; pass < ETC1S_FINAL_PASSES; pass++) {
        for (uint32_t i = 0; i < n; i++) {
            assign[i] = bsel[i];
            selector_errors(&blocks[i], &eps[bend[i]], texel_err + (size_t)i * 64);
        }
        bucket(assign, n, ns, order, start);
        for (uint32_t c = 0; c < ns; c++)
            refine_selector(texel_err, order + start[c], start[c + 1] - start[c], &sels[c]);
        for (uint32_t i = 0; i < n; i++) bsel_rows[i] = sels[bsel[i]];
        refit_endpoints(blocks, bend, bsel_rows, n, eps, ne, order, start);
    }

    /* Codebook orders that code well: each entry followed by the nearest of the next ones. */
    {
        uint32_t *perm = members; /* n >= ne, ns */
        kiln_etc1s_ep *ep2 = malloc(ne * sizeof *ep2);
        kiln_etc1s_sel *sel2 = malloc(ns * sizeof *sel2);
        if (ep2 && sel2) {
            greedy_order(eps, sizeof *eps, ne, ep_distance, ETC1S_ORDER_WINDOW, perm, remap);
            for (uint32_t c = 0; c < ne; c++) ep2[c] = eps[perm[c]];
            memcpy(eps, ep2, ne * sizeof *eps);
            for (uint32_t i = 0; i < n; i++) bend[i] = (uint16_t)remap[bend[i]];
            greedy_order(sels, sizeof *sels, ns, sel_distance, ETC1S_ORDER_WINDOW, perm, remap);
            for (uint32_t c = 0; c < ns; c++) sel2[c] = sels[perm[c]];
            memcpy(sels, sel2, ns * sizeof *sels);
            for (uint32_t i = 0; i < n; i++) bsel[i] = (uint16_t)remap[bsel[i]];
        }
        free(ep2);
        free(sel2);
    }

    /* Code it all, then lay out the levels and the global data. */
    {
        kiln_buf eb, sb, tb, gd;
        kiln_buf_init(&eb, al);
        kiln_buf_init(&sb, al);
        kiln_buf_init(&tb, al);
        kiln_buf_init(&gd, al);
        kiln_buf *slice_bytes = calloc(slice_count, sizeof *slice_bytes);
        kiln_blz_slice_in *in = calloc(slice_count, sizeof *in);
        bool ok = slice_bytes && in;
        for (uint32_t i = 0; ok && i < slice_count; i++) {
            kiln_buf_init(&slice_bytes[i], al);
            in[i] = (kiln_blz_slice_in){bend + sl[i].first, bsel + sl[i].first, sl[i].blocks_x,
                                        sl[i].blocks_y};
        }
        ok = ok && kiln_blz_pack(eps, ne, sels, ns, in, slice_count, &eb, &sb, &tb, slice_bytes);
        uint32_t(*desc)[5] = ok ? calloc(image_count, sizeof *desc) : NULL;
        ok = ok && desc;
        kiln_buf levels[KILN_ETC1S_MAX_LEVELS];
        for (uint32_t l = 0; l < KILN_ETC1S_MAX_LEVELS; l++) kiln_buf_init(&levels[l], al);
        for (uint32_t i = 0; ok && i < slice_count; i++) {
            uint32_t img = sl[i].image;
            kiln_buf *lv = &levels[images[img].level];
            uint32_t at = sl[i].alpha ? 3 : 1;
            desc[img][at] = (uint32_t)lv->size;
            desc[img][at + 1] = (uint32_t)slice_bytes[i].size;
            kiln_buf_append(lv, slice_bytes[i].data, slice_bytes[i].size);
        }
        if (ok) {
            uint8_t h[20];
            h[0] = (uint8_t)ne, h[1] = (uint8_t)(ne >> 8);
            h[2] = (uint8_t)ns, h[3] = (uint8_t)(ns >> 8);
            uint32_t lens[4] = {(uint32_t)eb.size, (uint32_t)sb.size, (uint32_t)tb.size, 0};
            for (int k = 0; k < 4; k++)
                for (int j = 0; j < 4; j++) h[4 + 4 * k + j] = (uint8_t)(lens[k] >> (8 * j));
            kiln_buf_append(&gd, h, 20);
            for (uint32_t i = 0; i < image_count; i++)
                for (int k = 0; k < 5; k++) kiln_buf_append_u32le(&gd, desc[i][k]);
            kiln_buf_append(&gd, eb.data, eb.size);
            kiln_buf_append(&gd, sb.data, sb.size);
            kiln_buf_append(&gd, tb.data, tb.size);
            ok = !gd.failed;
        }
        for (uint32_t l = 0; l < KILN_ETC1S_MAX_LEVELS; l++) {
            ok = ok && !levels[l].failed;
            if (l <= images[image_count - 1].level && ok)
                out->level[l] =
                    kiln_buf_detach(&levels[l], &out->level_size[l], &out->level_capacity[l]);
            kiln_buf_free(&levels[l]);
        }
        if (ok) {
            out->level_count = images[image_count - 1].level + 1;
            out->sgd = kiln_buf_detach(&gd, &out->sgd_size, &out->sgd_capacity);
            out->alpha = has_alpha;
            out->endpoint_count = ne;
            out->selector_count = ns;
        }
        for (uint32_t i = 0; slice_bytes && i < slice_count; i++) kiln_buf_free(&slice_bytes[i]);
        free(slice_bytes);
        free(in);
        free(desc);
        kiln_buf_free(&eb);
        kiln_buf_free(&sb);
        kiln_buf_free(&tb);
        kiln_buf_free(&gd);
        if (!ok) {
            kiln_etc1s_encoded_free(out, al);
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ETC1S: out of memory");
        }
    }
done:
    free(sl);
    free(blocks);
    free(pts);
    free(assign);
    free(members);
    free(bend);
    free(bsel);
    free(bsel_rows);
    free(centres);
    free(eps);
    free(sels);
    free(remap);
    free(order);
    free(start);
    free(group_start);
    free(texel_err);
    free(ep_group);
    free(ep_group_end);
    return r;
}

void kiln_etc1s_encoded_free(kiln_etc1s_encoded *e, const kiln_allocator *al)
{
    if (!e) return;
    kiln_free(al, e->sgd, e->sgd_capacity);
    for (uint32_t l = 0; l < KILN_ETC1S_MAX_LEVELS; l++)
        kiln_free(al, e->level[l], e->level_capacity[l]);
    memset(e, 0, sizeof *e);
}
