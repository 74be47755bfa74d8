/* uastc_encode.c — kiln's UASTC encoder. Per block: a solid colour becomes mode 8; otherwise a
 * set of candidate modes that grows with the level (opaque: 0, then 5, 1, 18, then the two- and
 * three-subset modes 2, 4, 3, 7 and the dual-plane mode 6; with alpha: 10, then 12, 14, 9, 11,
 * 13; grey with alpha: 15, 16, 17) is fitted — endpoints along the texels' principal axis,
 * quantized to the mode's range, each texel's best weight, then least-squares refits — and the
 * candidate whose decode (kiln_uastc_decode, exactly what every reader gets) has the smallest
 * squared error wins. The hints are then chosen for the transcoders kiln and basisu share
 * (uastc_etc.c, uastc_bc.c): the ETC1 flip, differential bit, intensity tables and bias, the EAC
 * alpha table and multiplier, and the BC1 hints, each by the error of the transcoded block.
 * No RDO yet. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codec/block_decode.h"
#include "codec/uastc.h"
#include "core/alloc.h"
#include "process/uastc_encode.h"

/* Mode table (uastc_unpack.c has the specification's; these are the fields the fit needs). */
typedef struct enc_mode {
    uint8_t weight_bits, range, subsets, planes, comps, patterns;
} enc_mode;

static const enc_mode modes[KILN_UASTC_MODE_COUNT] = {
    {4, 19, 1, 1, 3, 0},  {2, 20, 1, 1, 3, 0}, {3, 8, 2, 1, 3, 30}, {2, 7, 3, 1, 3, 11},
    {2, 12, 2, 1, 3, 30}, {3, 20, 1, 1, 3, 0}, {2, 18, 1, 2, 3, 0}, {2, 12, 2, 1, 3, 19},
    {0, 0, 1, 1, 4, 0},   {2, 8, 2, 1, 4, 30}, {4, 13, 1, 1, 4, 0}, {2, 13, 1, 2, 4, 0},
    {3, 19, 1, 1, 4, 0},  {1, 20, 1, 2, 4, 0}, {2, 20, 1, 1, 4, 0}, {4, 20, 1, 1, 2, 0},
    {2, 20, 2, 1, 2, 30}, {2, 20, 1, 2, 2, 0}, {5, 11, 1, 1, 3, 0},
};

static const uint16_t range_levels[21] = {2,  3,  4,  5,  6,  8,  10,  12,  16,  20, 24,
                                          32, 40, 48, 64, 80, 96, 128, 160, 192, 256};

/* The ASTC weight (0..64) of index w of an n-bit weight. */
static unsigned weight64(unsigned w, unsigned n)
{
    unsigned v = 0;
    int left = 6;
    while (left > 0) {
        int k = left < (int)n ? left : (int)n;
        v |= (w >> (n - (unsigned)k)) << (left - k);
        left -= k;
    }
    return v > 32 ? v + 1 : v;
}

void kiln_uastc_enc_tables_init(kiln_uastc_enc_tables *t)
{
    memset(t, 0, sizeof(*t));
    static const uint8_t used[] = {7, 8, 11, 12, 13, 18, 19, 20};
    for (size_t k = 0; k < sizeof used; k++) {
        const unsigned r = used[k], levels = range_levels[r];
        for (unsigned v = 0; v < 256; v++) {
            unsigned best = 0, bd = 1000;
            /* The integer-sequence values of a range are 0 .. levels - 1 (low bits, then the
             * trit or quint above them). */
            for (unsigned val = 0; val < levels; val++) {
                unsigned u = kiln_uastc_unquant_endpoint(val, r);
                unsigned d = u > v ? u - v : v - u;
                if (d < bd) {
                    bd = d;
                    best = val;
                }
            }
            t->nearest[r][v] = (uint8_t)best;
        }
    }
    for (unsigned bits = 1; bits <= 5; bits++)
        for (unsigned v = 0; v <= 64; v++) {
            unsigned best = 0, bd = 1000;
            for (unsigned l = 0; l < (1u << bits); l++) {
                unsigned w = weight64(l, bits), d = w > v ? w - v : v - w;
                if (d < bd) {
                    bd = d;
                    best = l;
                }
            }
            t->nearest_weight[bits][v] = (uint8_t)best;
        }
    /* The partitions as the unpacker derives them: pack a probe block, unpack it. */
    for (unsigned m = 0; m < KILN_UASTC_MODE_COUNT; m++)
        for (unsigned p = 0; p < modes[m].patterns; p++) {
            kiln_uastc_block probe, u;
            uint8_t tmp[16];
            memset(&probe, 0, sizeof(probe));
            probe.mode = (uint8_t)m;
            probe.pattern = (uint8_t)p;
            if (kiln_uastc_pack(&probe, tmp) && kiln_uastc_unpack(tmp, &u)) {
                memcpy(t->part[m][p], u.part, 16);
                t->seed[m][p] = u.seed;
            }
        }
}

/* ---- fitting -------------------------------------------------------------------------------- */

typedef struct fit_ctx {
    const kiln_uastc_enc_tables *t;
    const uint8_t *rgba; /* 16 texels */
} fit_ctx;

static unsigned block_error(const uint8_t *a, const uint8_t *b)
{
    unsigned e = 0;
    for (int i = 0; i < 64; i++) {
        int d = (int)a[i] - b[i];
        e += (unsigned)(d * d);
    }
    return e;
}

/* The texel values of channel set `ch` (the mode's endpoint channels: RGB, RGBA, or L+A with L
 * taken from R) for texel i. */
static void texel_vec(const uint8_t *p, unsigned comps, float v[4])
{
    if (comps == 2) {
        v[0] = p[0];
        v[1] = p[3];
    } else {
        for (unsigned c = 0; c < comps; c++) v[c] = p[c];
    }
}

/* Ideal endpoints (floats, 0..255) of the texels in `mask` over `comps` channels, skipping
 * channel `skip` (dual plane: fitted separately), along the principal axis. */
static void pca_endpoints(const uint8_t *rgba, uint16_t mask, unsigned comps, int skip, float lo[4],
                          float hi[4])
{
    float mean[4] = {0, 0, 0, 0};
    unsigned n = 0;
    for (unsigned i = 0; i < 16; i++) {
        if (!(mask >> i & 1u)) continue;
        float v[4];
        texel_vec(&rgba[i * 4], comps, v);
        for (unsigned c = 0; c < comps; c++) mean[c] += v[c];
        n++;
    }
    if (n == 0) n = 1;
    for (unsigned c = 0; c < comps; c++) mean[c] /= (float)n;
    float cov[4][4] = {{0}};
    for (unsigned i = 0; i < 16; i++) {
        if (!(mask >> i & 1u)) continue;
        float v[4];
        texel_vec(&rgba[i * 4], comps, v);
        for (unsigned a = 0; a < comps; a++)
            for (unsigned b = 0; b < comps; b++) cov[a][b] += (v[a] - mean[a]) * (v[b] - mean[b]);
    }
    float ax[4] = {1, 1, 1, 1};
    if (skip >= 0) ax[skip] = 0;
    for (int it = 0; it < 6; it++) {
        float nx[4] = {0, 0, 0, 0}, m = 0;
        for (unsigned a = 0; a < comps; a++) {
            if ((int)a == skip) continue;
            for (unsigned b = 0; b < comps; b++)
                if ((int)b != skip) nx[a] += cov[a][b] * ax[b];
            m = fabsf(nx[a]) > m ? fabsf(nx[a]) : m;
        }
        if (m <= 1e-6f) break;
        const float inv = 1.0f / m;
        for (unsigned a = 0; a < comps; a++) ax[a] = nx[a] * inv;
    }
    float tmin = 1e30f, tmax = -1e30f, l2 = 0;
    for (unsigned c = 0; c < comps; c++)
        if ((int)c != skip) l2 += ax[c] * ax[c];
    if (l2 <= 0) l2 = 1;
    for (unsigned i = 0; i < 16; i++) {
        if (!(mask >> i & 1u)) continue;
        float v[4], t = 0;
        texel_vec(&rgba[i * 4], comps, v);
        for (unsigned c = 0; c < comps; c++)
            if ((int)c != skip) t += (v[c] - mean[c]) * ax[c];
        tmin = t < tmin ? t : tmin;
        tmax = t > tmax ? t : tmax;
    }
    for (unsigned c = 0; c < comps; c++) {
        if ((int)c == skip) continue;
        float a = mean[c] + ax[c] * tmin / l2, b = mean[c] + ax[c] * tmax / l2;
        lo[c] = a < 0 ? 0 : a > 255 ? 255 : a;
        hi[c] = b < 0 ? 0 : b > 255 ? 255 : b;
    }
    if (skip >= 0) {
        float mn = 255, mx = 0;
        for (unsigned i = 0; i < 16; i++) {
            if (!(mask >> i & 1u)) continue;
            float v[4];
            texel_vec(&rgba[i * 4], comps, v);
            mn = v[skip] < mn ? v[skip] : mn;
            mx = v[skip] > mx ? v[skip] : mx;
        }
        lo[skip] = mn;
        hi[skip] = mx;
    }
}

/* Quantizes subset s's float endpoints into b. */
static void set_endpoints(const fit_ctx *f, kiln_uastc_block *b, unsigned s, const float lo[4],
                          const float hi[4])
{
    const unsigned comps = b->comps;
    for (unsigned c = 0; c < comps; c++) {
        int l = (int)(lo[c] + 0.5f), h = (int)(hi[c] + 0.5f);
        l = l < 0 ? 0 : l > 255 ? 255 : l;
        h = h < 0 ? 0 : h > 255 ? 255 : h;
        b->endpoints[s * comps * 2 + c * 2] = f->t->nearest[b->endpoint_range][l];
        b->endpoints[s * comps * 2 + c * 2 + 1] = f->t->nearest[b->endpoint_range][h];
    }
}

/* Each texel's best weight (per plane) for the quantized endpoints in b; anchors limited to the
 * lower half (they are stored one bit short) by swapping the subset's endpoints when needed. */
static void choose_weights(const fit_ctx *f, kiln_uastc_block *b)
{
    const unsigned comps = b->comps, levels = 1u << b->weight_bits;
    unsigned wt[32];
    for (unsigned l = 0; l < levels; l++) wt[l] = weight64(l, b->weight_bits);
    {
        uint8_t e[3][2][4];
        for (unsigned s = 0; s < b->subsets; s++)
            for (unsigned k = 0; k < 2; k++)
                for (unsigned c = 0; c < comps; c++)
                    e[s][k][c] = kiln_uastc_unquant_endpoint(
                        b->endpoints[s * comps * 2 + c * 2 + k], b->endpoint_range);
        for (unsigned i = 0; i < 16; i++) {
            unsigned s = b->part[i];
            float v[4];
            texel_vec(&f->rgba[i * 4], comps, v);
            for (unsigned p = 0; p < b->planes; p++) {
                /* The texel's position along the endpoints' line gives the nearest weight; the
                 * exact decode then decides among it and its two neighbours. */
                float num = 0, den = 0;
                for (unsigned c = 0; c < comps; c++) {
                    bool on_plane1 = b->planes == 2 && (c == (comps == 2 ? 1u : b->ccs));
                    if ((p == 1) != on_plane1) continue;
                    float d = (float)e[s][1][c] - (float)e[s][0][c];
                    num += (v[c] - (float)e[s][0][c]) * d;
                    den += d * d;
                }
                float tw = den > 0 ? num / den * 64.0f : 0.0f;
                const int twi = tw < 0 ? 0 : tw > 64 ? 64 : (int)(tw + 0.5f);
                const unsigned guess = f->t->nearest_weight[b->weight_bits][twi];
                const unsigned lo_l = guess > 0 ? guess - 1 : 0;
                const unsigned hi_l = guess + 1 < levels ? guess + 1 : levels - 1;
                unsigned best = 0;
                float bd = 1e30f;
                for (unsigned l = lo_l; l <= hi_l; l++) {
                    float d = 0;
                    for (unsigned c = 0; c < comps; c++) {
                        bool on_plane1 = b->planes == 2 && (c == (comps == 2 ? 1u : b->ccs));
                        if ((p == 1) != on_plane1) continue;
                        unsigned lo16 = e[s][0][c] * 257u, hi16 = e[s][1][c] * 257u;
                        float x = (float)(((lo16 * (64 - wt[l]) + hi16 * wt[l] + 32) >> 6) >> 8);
                        d += (x - v[c]) * (x - v[c]);
                    }
                    if (d < bd) {
                        bd = d;
                        best = l;
                    }
                }
                b->weights[i * b->planes + p] = (uint8_t)best;
            }
        }
        /* Anchor texels must have the top weight bit clear: flip the subset's plane (swap
         * endpoints, invert weights: exact for the decode, the weights being symmetric). */
        bool seen[3] = {false, false, false};
        for (unsigned i = 0; i < 16; i++) {
            unsigned s = b->part[i];
            if (seen[s]) continue;
            seen[s] = true;
            bool bad = false;
            for (unsigned p = 0; p < b->planes; p++)
                if (b->weights[i * b->planes + p] >= levels / 2) bad = true;
            if (!bad) continue;
            /* Two planes: each plane's channels can be flipped independently. */
            for (unsigned p = 0; p < b->planes; p++) {
                if (b->weights[i * b->planes + p] < levels / 2) continue;
                for (unsigned c = 0; c < comps; c++) {
                    bool on_plane1 = b->planes == 2 && (c == (comps == 2 ? 1u : b->ccs));
                    if ((p == 1) != on_plane1) continue;
                    uint8_t *ep = &b->endpoints[s * comps * 2 + c * 2];
                    uint8_t t = ep[0];
                    ep[0] = ep[1];
                    ep[1] = t;
                }
                for (unsigned j = 0; j < 16; j++)
                    if (b->part[j] == s)
                        b->weights[j * b->planes + p] =
                            (uint8_t)(levels - 1 - b->weights[j * b->planes + p]);
            }
        }
    }
}

/* Least-squares endpoints of subset s for b's weights (each channel on its plane's weights). */
static void refit(const fit_ctx *f, const kiln_uastc_block *b, unsigned s, float lo[4], float hi[4])
{
    const unsigned comps = b->comps;
    for (unsigned c = 0; c < comps; c++) {
        unsigned p = (b->planes == 2 && c == (comps == 2 ? 1u : b->ccs)) ? 1 : 0;
        float aa = 0, ab = 0, bb = 0, ax = 0, bx = 0;
        for (unsigned i = 0; i < 16; i++) {
            if (b->part[i] != s) continue;
            float w = (float)weight64(b->weights[i * b->planes + p], b->weight_bits) / 64.0f;
            float v[4];
            texel_vec(&f->rgba[i * 4], comps, v);
            aa += (1 - w) * (1 - w);
            ab += (1 - w) * w;
            bb += w * w;
            ax += (1 - w) * v[c];
            bx += w * v[c];
        }
        float det = aa * bb - ab * ab;
        if (fabsf(det) < 1e-6f) continue;
        lo[c] = (ax * bb - bx * ab) / det;
        hi[c] = (bx * aa - ax * ab) / det;
    }
}

/* A quick score of a partition: per subset, the texels' squared distance from their principal
 * line (the error of unquantized endpoints with continuous weights), summed. The per-texel
 * moments are computed once per block and mode (texel_moments). */
typedef struct texel_moments {
    float v[16][4];
    float vv[16][4][4];
} texel_moments;

static void texel_moments_init(texel_moments *tm, const uint8_t *rgba, unsigned comps)
{
    for (unsigned i = 0; i < 16; i++) {
        texel_vec(&rgba[i * 4], comps, tm->v[i]);
        for (unsigned a = 0; a < comps; a++)
            for (unsigned b = 0; b < comps; b++) tm->vv[i][a][b] = tm->v[i][a] * tm->v[i][b];
    }
}

/* The principal-line residual of one subset from its texel count and moment sums. */
static float subset_residual(unsigned n, const float s1[4], float cov[4][4], unsigned comps)
{
    if (n < 2) return 0;
    const float inv_n = 1.0f / (float)n;
    for (unsigned a = 0; a < comps; a++)
        for (unsigned b = 0; b < comps; b++) cov[a][b] -= s1[a] * s1[b] * inv_n;
    float ax[4] = {1, 1, 1, 1}, trace = 0;
    for (unsigned c = 0; c < comps; c++) trace += cov[c][c];
    for (int it = 0; it < 3; it++) {
        float nx[4] = {0, 0, 0, 0}, m = 0;
        for (unsigned a = 0; a < comps; a++) {
            for (unsigned b = 0; b < comps; b++) nx[a] += cov[a][b] * ax[b];
            m = fabsf(nx[a]) > m ? fabsf(nx[a]) : m;
        }
        if (m <= 1e-6f) break;
        const float inv = 1.0f / m;
        for (unsigned a = 0; a < comps; a++) ax[a] = nx[a] * inv;
    }
    float l2 = 0, q = 0;
    for (unsigned a = 0; a < comps; a++) {
        l2 += ax[a] * ax[a];
        for (unsigned b = 0; b < comps; b++) q += ax[a] * cov[a][b] * ax[b];
    }
    return l2 > 0 ? trace - q / l2 : trace;
}

static float partition_residual(const texel_moments *tm, const uint8_t part[16], unsigned subsets,
                                unsigned comps)
{
    /* Sums per subset in one pass; with two subsets the second is the total minus the first. */
    float s1[3][4] = {{0}}, cov[3][4][4] = {{{0}}};
    unsigned n[3] = {0, 0, 0};
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = subsets == 2 && part[i] == 1 ? 2 : part[i];
        n[s]++;
        for (unsigned a = 0; a < comps; a++) {
            s1[s][a] += tm->v[i][a];
            for (unsigned b = 0; b < comps; b++) cov[s][a][b] += tm->vv[i][a][b];
        }
    }
    if (subsets == 2) {
        /* Slot 2 held subset 1's texels; fold them into slot 1 via the totals. */
        n[1] = n[2];
        memcpy(s1[1], s1[2], sizeof(s1[1]));
        memcpy(cov[1], cov[2], sizeof(cov[1]));
    }
    float total = 0;
    for (unsigned s = 0; s < subsets; s++) total += subset_residual(n[s], s1[s], cov[s], comps);
    return total;
}

/* Fits mode `mode` with pattern `pattern` (and dual-plane channel ccs); returns the squared
 * error of its decode, the block in *b. */
static unsigned fit_mode(const fit_ctx *f, unsigned mode, unsigned pattern, unsigned ccs,
                         unsigned refits, kiln_uastc_block *b)
{
    const enc_mode *m = &modes[mode];
    memset(b, 0, sizeof(*b));
    b->mode = (uint8_t)mode;
    b->pattern = (uint8_t)pattern;
    b->subsets = m->subsets;
    b->planes = m->planes;
    b->comps = m->comps;
    b->ccs = (uint8_t)ccs;
    b->endpoint_range = m->range;
    b->weight_bits = m->weight_bits;
    b->has_etc1_bias = true;
    if (m->subsets > 1) {
        memcpy(b->part, f->t->part[mode][pattern], 16);
        b->seed = f->t->seed[mode][pattern];
    }
    const int skip = m->planes == 2 ? (int)(m->comps == 2 ? 1u : ccs) : -1;
    float lo[3][4], hi[3][4];
    for (unsigned s = 0; s < m->subsets; s++) {
        uint16_t mask = 0;
        for (unsigned i = 0; i < 16; i++)
            if (b->part[i] == s) mask |= (uint16_t)(1u << i);
        pca_endpoints(f->rgba, mask, m->comps, skip, lo[s], hi[s]);
        set_endpoints(f, b, s, lo[s], hi[s]);
    }
    choose_weights(f, b);
    uint8_t dec[64];
    kiln_uastc_decode(b, false, dec);
    unsigned err = block_error(dec, f->rgba);
    for (unsigned r = 0; r < refits && err > 0; r++) {
        kiln_uastc_block c = *b;
        for (unsigned s = 0; s < m->subsets; s++) {
            /* Refit starts from the current (dequantized) endpoints. */
            for (unsigned ch = 0; ch < m->comps; ch++) {
                lo[s][ch] = kiln_uastc_unquant_endpoint(c.endpoints[s * m->comps * 2 + ch * 2],
                                                        c.endpoint_range);
                hi[s][ch] = kiln_uastc_unquant_endpoint(c.endpoints[s * m->comps * 2 + ch * 2 + 1],
                                                        c.endpoint_range);
            }
            refit(f, &c, s, lo[s], hi[s]);
            set_endpoints(f, &c, s, lo[s], hi[s]);
        }
        choose_weights(f, &c);
        kiln_uastc_decode(&c, false, dec);
        unsigned e2 = block_error(dec, f->rgba);
        if (e2 >= err) break;
        err = e2;
        *b = c;
    }
    return err;
}

/* ---- hints ---------------------------------------------------------------------------------- */

/* Decodes an ETC1 block's 16 texels (RGB), to score the ETC1 hints. */
static void etc1_decode(const uint8_t blk[8], uint8_t rgb[48])
{
    static const int inten[8][4] = {{-8, -2, 2, 8},       {-17, -5, 5, 17},    {-29, -9, 9, 29},
                                    {-42, -13, 13, 42},   {-60, -18, 18, 60},  {-80, -24, 24, 80},
                                    {-106, -33, 33, 106}, {-183, -47, 47, 183}};
    const bool flip = blk[3] & 1u, diff = (blk[3] >> 1) & 1u;
    int base[2][3];
    for (int c = 0; c < 3; c++) {
        if (diff) {
            int v = blk[c] >> 3, d = blk[c] & 7;
            int v1 = (v + (d >= 4 ? d - 8 : d)) & 31;
            base[0][c] = (v << 3) | (v >> 2);
            base[1][c] = (v1 << 3) | (v1 >> 2);
        } else {
            int a = blk[c] >> 4, b = blk[c] & 15;
            base[0][c] = (a << 4) | a;
            base[1][c] = (b << 4) | b;
        }
    }
    const unsigned hi = ((unsigned)blk[4] << 8) | blk[5], lo = ((unsigned)blk[6] << 8) | blk[7];
    static const int order[4] = {2, 3, 1, 0}; /* ETC1 index -> table column */
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned s = flip ? y >> 1 : x >> 1, bit = x * 4 + y;
            unsigned idx = (((hi >> bit) & 1u) << 1) | ((lo >> bit) & 1u);
            unsigned table = s ? (blk[3] >> 2) & 7u : blk[3] >> 5;
            for (int c = 0; c < 3; c++) {
                int v = base[s][c] + inten[table][order[idx]];
                rgb[(y * 4 + x) * 3 + c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
}

/* Squared RGB error of subblock s (of flip) between an ETC1 decode and the source. */
static unsigned etc1_sub_error(const uint8_t rgb[48], const uint8_t *src, bool flip, unsigned s)
{
    unsigned e = 0;
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            if ((flip ? y >> 1 : x >> 1) != s) continue;
            for (int c = 0; c < 3; c++) {
                int d = (int)rgb[(y * 4 + x) * 3 + c] - src[(y * 4 + x) * 4 + c];
                e += (unsigned)(d * d);
            }
        }
    return e;
}

/* ETC1 hints: flip, differential bit, bias and the two intensity tables, by the error of the
 * ETC1 block the transcoder then makes from the decoded texels. */
static unsigned choose_etc1_hints(kiln_uastc_block *b, const uint8_t dec[64], const uint8_t *src,
                                  unsigned level, int fixed_flip, int fixed_diff, bool bias)
{
    unsigned best = 0xFFFFFFFFu;
    kiln_uastc_block best_b = *b;
    const bool biased = b->has_etc1_bias;
    for (unsigned flip = 0; flip < 2; flip++) {
        if (fixed_flip >= 0 && flip != (unsigned)fixed_flip) continue;
        /* Differential mode when the subblocks' 5-bit means are within its delta range (both
         * tried from level 3 on). */
        int q[2][3] = {{0}};
        for (unsigned s2 = 0; s2 < 2; s2++)
            for (int c = 0; c < 3; c++) {
                unsigned sum = 0;
                for (unsigned y = 0; y < 4; y++)
                    for (unsigned x = 0; x < 4; x++)
                        if ((flip ? y >> 1 : x >> 1) == s2) sum += dec[(y * 4 + x) * 4 + c];
                q[s2][c] = (int)((sum * 31 + 1020) / (8 * 255));
            }
        bool fits = true;
        for (int c = 0; c < 3; c++)
            if (q[1][c] - q[0][c] < -4 || q[1][c] - q[0][c] > 3) fits = false;
        /* Below level 3 only the intensity tables near each subblock's spread are tried: the
         * table whose outer modifier is closest to half the subblock's green range, +-1. */
        unsigned tmask = 0xFF;
        if (level < 3 || bias) {
            static const int outer[8] = {8, 17, 29, 42, 60, 80, 106, 183};
            tmask = 0;
            for (unsigned s2 = 0; s2 < 2; s2++) {
                int lo = 255, hi = 0;
                for (unsigned y = 0; y < 4; y++)
                    for (unsigned x = 0; x < 4; x++)
                        if ((flip ? y >> 1 : x >> 1) == s2) {
                            int g = src[(y * 4 + x) * 4 + 1];
                            lo = g < lo ? g : lo;
                            hi = g > hi ? g : hi;
                        }
                int half = (hi - lo) / 2, g = 0;
                for (int k = 1; k < 8; k++)
                    if (abs(outer[k] - half) < abs(outer[g] - half)) g = k;
                for (int k = g - 1; k <= g + 1; k++)
                    if (k >= 0 && k < 8) tmask |= 1u << k;
            }
        }
        for (unsigned diff = 0; diff < 2; diff++) {
            if (fixed_diff >= 0 && diff != (unsigned)fixed_diff) continue;
            if (fixed_diff < 0 && level < 3 && diff != (fits ? 1u : 0u)) continue;
            const unsigned nbias = biased && bias ? 32 : 1;
            for (unsigned bi = 0; bi < nbias; bi++) {
                kiln_uastc_block c = *b;
                c.etc1_flip = flip;
                c.etc1_diff = diff;
                c.etc1_bias = (uint8_t)(nbias == 1 ? 13 : bi); /* 13: no nudge */
                if (!biased) c.etc1_bias = 0;
                unsigned sub_best[2] = {0xFFFFFFFFu, 0xFFFFFFFFu}, sub_t[2] = {0, 0};
                for (unsigned t = 0; t < 8; t++) {
                    if (!(tmask >> t & 1u)) continue;
                    c.etc1_inten0 = c.etc1_inten1 = (uint8_t)t;
                    uint8_t blk[8], rgb[48];
                    kiln_uastc_to_etc1(&c, dec, blk);
                    /* A differential block whose delta was clamped is still valid ETC1. */
                    etc1_decode(blk, rgb);
                    for (unsigned s = 0; s < 2; s++) {
                        unsigned e = etc1_sub_error(rgb, src, flip, s);
                        if (e < sub_best[s]) {
                            sub_best[s] = e;
                            sub_t[s] = t;
                        }
                    }
                }
                unsigned e = sub_best[0] + sub_best[1];
                if (e < best) {
                    best = e;
                    c.etc1_inten0 = (uint8_t)sub_t[0];
                    c.etc1_inten1 = (uint8_t)sub_t[1];
                    best_b = c;
                }
            }
        }
    }
    *b = best_b;
    return best;
}

/* EAC alpha hint: the table and multiplier whose palette (centred by the transcoder between
 * the decoded alpha's extremes) fits the source alpha best. */
static void choose_eac_hint(kiln_uastc_block *b, const uint8_t dec[64], const uint8_t *src)
{
    unsigned best = 0xFFFFFFFFu, best_hint = 0x1D; /* table 13, multiplier 1 */
    for (unsigned mul = 1; mul < 16; mul++) {
        for (unsigned t = 0; t < 16; t++) {
            kiln_uastc_block c = *b;
            c.etc2_hints = (uint8_t)((mul << 4) | t);
            uint8_t blk[8];
            kiln_uastc_to_eac_a8(&c, dec, blk);
            /* Decode the EAC block's alpha. */
            static const int mod[16][8] = {
                {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12},
                {-2, -5, -8, -13, 1, 4, 7, 12}, {-2, -4, -6, -13, 1, 3, 5, 12},
                {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
                {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},
                {-2, -6, -8, -10, 1, 5, 7, 9},  {-2, -5, -8, -10, 1, 4, 7, 9},
                {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
                {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},
                {-4, -6, -8, -9, 3, 5, 7, 8},   {-3, -5, -7, -9, 2, 4, 6, 8}};
            uint64_t bits = 0;
            for (int k = 0; k < 6; k++) bits = (bits << 8) | blk[2 + k];
            const int base = blk[0], m = blk[1] >> 4, tab = blk[1] & 15;
            unsigned e = 0;
            for (unsigned x = 0; x < 4; x++)
                for (unsigned y = 0; y < 4; y++) {
                    unsigned sel = (unsigned)(bits >> (45 - 3 * (x * 4 + y))) & 7u;
                    int v = base + mod[tab][sel] * m;
                    v = v < 0 ? 0 : v > 255 ? 255 : v;
                    int d = v - src[(y * 4 + x) * 4 + 3];
                    e += (unsigned)(d * d);
                }
            if (e < best) {
                best = e;
                best_hint = c.etc2_hints;
            }
        }
    }
    b->etc2_hints = (uint8_t)best_hint;
}

/* BC1 hints: whichever of hint 0, hint 1 and neither gives the transcoder's BC1 block the
 * smallest error. */
static void choose_bc1_hints(kiln_uastc_block *b, const uint8_t dec[64], const uint8_t *src,
                             kiln_uastc_bc_cache *cache)
{
    static const bool h0[3] = {false, false, true}, h1[3] = {false, true, false};
    unsigned best = 0xFFFFFFFFu, bi = 0;
    const bool has_hint1 = b->has_etc1_bias; /* the same modes carry both */
    for (unsigned k = 0; k < 3; k++) {
        if (h1[k] && !has_hint1) continue;
        kiln_uastc_block c = *b;
        c.bc1_hint0 = h0[k];
        c.bc1_hint1 = h1[k];
        uint8_t blk[8], px[64];
        kiln_uastc_to_bc1(&c, dec, blk, cache);
        kiln_bc1_decode_block(blk, px);
        unsigned e = 0;
        for (int i = 0; i < 16; i++)
            for (int ch = 0; ch < 3; ch++) {
                int d = (int)px[i * 4 + ch] - src[i * 4 + ch];
                e += (unsigned)(d * d);
            }
        if (e < best) {
            best = e;
            bi = k;
        }
    }
    b->bc1_hint0 = h0[bi];
    b->bc1_hint1 = h1[bi];
}

/* ETC1 hints of a solid block: the base colour, differential bit, table and selector whose
 * ETC1 value is nearest the colour. */
static void solid_etc1(kiln_uastc_block *b)
{
    static const int inten[8][4] = {{-8, -2, 2, 8},       {-17, -5, 5, 17},    {-29, -9, 9, 29},
                                    {-42, -13, 13, 42},   {-60, -18, 18, 60},  {-80, -24, 24, 80},
                                    {-106, -33, 33, 106}, {-183, -47, 47, 183}};
    /* The transcoder's solid selectors: 0 -> all index 3 (-b), 1 -> index 1 (+b)... as bytes
     * {hi, lo} patterns; index (hi << 1 | lo) per selector value. */
    static const int sel_idx[4] = {3, 1, 0, 2};
    static const int order[4] = {2, 3, 1, 0};
    unsigned best = 0xFFFFFFFFu;
    for (unsigned diff = 0; diff < 2; diff++) {
        const unsigned top = diff ? 31 : 15;
        for (unsigned t = 0; t < 8; t++)
            for (unsigned s = 0; s < 4; s++) {
                const int m = inten[t][order[sel_idx[s]]];
                unsigned e = 0, q[3];
                for (int c = 0; c < 3; c++) {
                    unsigned bq = 0, bd = 0xFFFFFFFFu;
                    for (unsigned v = 0; v <= top; v++) {
                        int base = diff ? (int)((v << 3) | (v >> 2)) : (int)((v << 4) | v);
                        int x = base + m;
                        x = x < 0 ? 0 : x > 255 ? 255 : x;
                        unsigned d = (unsigned)((x - b->solid[c]) * (x - b->solid[c]));
                        if (d < bd) {
                            bd = d;
                            bq = v;
                        }
                    }
                    e += bd;
                    q[c] = bq;
                }
                if (e < best) {
                    best = e;
                    b->etc1_diff = diff;
                    b->etc1_inten0 = (uint8_t)t;
                    b->etc1_selector = (uint8_t)s;
                    b->etc1_r = (uint8_t)q[0];
                    b->etc1_g = (uint8_t)q[1];
                    b->etc1_b = (uint8_t)q[2];
                }
            }
    }
}

/* ---- the block ------------------------------------------------------------------------------ */

void kiln_uastc_encode_block(const kiln_uastc_enc_tables *t, const uint8_t rgba[64], unsigned level,
                             uint8_t out[16])
{
    if (level > KILN_UASTC_LEVEL_MAX) level = KILN_UASTC_LEVEL_MAX;
    fit_ctx f = {t, rgba};
    kiln_uastc_block best;
    int i;
    for (i = 1; i < 16; i++)
        if (memcmp(rgba, rgba + i * 4, 4)) break;
    if (i == 16) {
        memset(&best, 0, sizeof(best));
        best.mode = KILN_UASTC_MODE_SOLID;
        memcpy(best.solid, rgba, 4);
        solid_etc1(&best);
        kiln_uastc_pack(&best, out);
        return;
    }
    bool alpha = false, grey = true;
    for (i = 0; i < 16; i++) {
        if (rgba[i * 4 + 3] != 255) alpha = true;
        if (rgba[i * 4] != rgba[i * 4 + 1] || rgba[i * 4] != rgba[i * 4 + 2]) grey = false;
    }
    /* Candidate modes per level. */
    static const uint8_t opaque[5][12] = {{0, 255},
                                          {0, 18, 2, 4, 255},
                                          {0, 5, 18, 1, 2, 4, 255},
                                          {0, 5, 18, 1, 2, 4, 3, 7, 6, 255},
                                          {0, 5, 18, 1, 2, 4, 3, 7, 6, 255}};
    static const uint8_t with_alpha[5][12] = {{10, 255},
                                              {10, 12, 14, 255},
                                              {10, 12, 14, 9, 11, 255},
                                              {10, 12, 14, 9, 11, 13, 255},
                                              {10, 12, 14, 9, 11, 13, 255}};
    static const uint8_t grey_alpha[5][12] = {{15, 255},
                                              {15, 17, 10, 255},
                                              {15, 16, 17, 10, 12, 255},
                                              {15, 16, 17, 10, 12, 14, 9, 11, 255},
                                              {15, 16, 17, 10, 12, 14, 9, 11, 13, 255}};
    const uint8_t *list = alpha ? (grey ? grey_alpha[level] : with_alpha[level]) : opaque[level];
    const unsigned refits = level == 0 ? 1 : level < 3 ? 2 : 3;
    unsigned best_err = 0xFFFFFFFFu;
    for (const uint8_t *m = list; *m != 255; m++) {
        const enc_mode *md = &modes[*m];
        const unsigned ccs_n = md->planes == 2 ? (md->comps == 2 ? 1u : md->comps) : 1u;
        for (unsigned ccs = 0; ccs < ccs_n; ccs++) {
            unsigned pats = md->patterns ? md->patterns : 1;
            if (md->patterns) {
                /* Rank the patterns by their principal-line residual, then fit the best few. */
                const unsigned keep = level <= 1 ? 1 : level == 2 ? 3 : level == 3 ? 5 : 10;
                float pe[30];
                unsigned top_p[10], nt = 0;
                texel_moments tm;
                texel_moments_init(&tm, rgba, md->comps);
                for (unsigned p = 0; p < pats; p++)
                    pe[p] = partition_residual(&tm, t->part[*m][p], md->subsets, md->comps);
                for (; nt < keep && nt < pats; nt++) {
                    unsigned bp = 0;
                    for (unsigned p = 1; p < pats; p++)
                        if (pe[p] < pe[bp]) bp = p;
                    top_p[nt] = bp;
                    pe[bp] = 1e30f;
                }
                for (unsigned k = 0; k < nt; k++) {
                    kiln_uastc_block c;
                    unsigned e = fit_mode(&f, *m, top_p[k], 0, refits, &c);
                    if (e < best_err) {
                        best_err = e;
                        best = c;
                    }
                }
                continue;
            }
            kiln_uastc_block c;
            unsigned e = fit_mode(&f, *m, 0, md->comps == 2 ? 3u : ccs, refits, &c);
            if (e < best_err) {
                best_err = e;
                best = c;
            }
        }
    }
    /* Mode 17's channel is alpha by definition; the L+A fit put it there. */
    uint8_t dec[64];
    kiln_uastc_decode(&best, false, dec);
    best.has_etc1_bias =
        modes[best.mode].comps != 4 || best.mode == 9 || best.mode == 13 || best.mode == 14;
    /* ETC1 hints: flip, differential bit and tables with a neutral bias; from level 2 on, the
     * bias too for the chosen flip and differential bit (nearby tables only). */
    unsigned etc_err = choose_etc1_hints(&best, dec, rgba, level, -1, -1, false);
    if (level >= 2 && best.has_etc1_bias) {
        kiln_uastc_block c = best;
        if (choose_etc1_hints(&c, dec, rgba, level, best.etc1_flip, best.etc1_diff, true) < etc_err)
            best = c;
    }
    if (best.mode >= 9 && best.mode <= 17) choose_eac_hint(&best, dec, rgba);
    kiln_uastc_bc_cache cache;
    kiln_uastc_bc_cache_init(&cache);
    choose_bc1_hints(&best, dec, rgba, &cache);
    kiln_uastc_pack(&best, out);
}

kiln_result kiln_uastc_encode(const uint8_t *rgba, uint32_t w, uint32_t h, size_t stride,
                              unsigned level, uint8_t *out, size_t out_size, kiln_error *err)
{
    if (!rgba || !out || w == 0 || h == 0 || level > KILN_UASTC_LEVEL_MAX || stride < (size_t)w * 4)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_uastc_encode: bad arguments (%ux%u, level %u)", w, h, level);
    const size_t bx = ((size_t)w + 3) / 4, by = ((size_t)h + 3) / 4;
    size_t nb, need;
    if (!kiln_size_mul(bx, by, &nb) || !kiln_size_mul(nb, 16, &need))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_uastc_encode: %ux%u is too large", w, h);
    if (out_size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_uastc_encode: %zu output bytes, need %zu",
                              out_size, need);
    kiln_uastc_enc_tables t;
    kiln_uastc_enc_tables_init(&t);
    for (size_t y = 0; y < by; y++)
        for (size_t x = 0; x < bx; x++) {
            uint8_t blk[64];
            for (size_t r = 0; r < 4; r++)
                for (size_t c = 0; c < 4; c++) {
                    size_t sy = y * 4 + r < h ? y * 4 + r : h - 1;
                    size_t sx = x * 4 + c < w ? x * 4 + c : w - 1;
                    memcpy(blk + (r * 4 + c) * 4, rgba + sy * stride + sx * 4, 4);
                }
            kiln_uastc_encode_block(&t, blk, level, out + (y * bx + x) * 16);
        }
    return KILN_OK;
}

/* ---- rate-distortion optimization ----------------------------------------------------------- */

static unsigned differing_bytes(const uint8_t *a, const uint8_t *b)
{
    unsigned n = 0;
    for (int i = 0; i < 16; i++) n += a[i] != b[i];
    return n;
}

/* Bytes of blk unlike the nearer of the left and upper neighbours (what a Zstandard match
 * against a recent block would leave to code). */
static unsigned new_bytes(const uint8_t *blk, const uint8_t *left, const uint8_t *up)
{
    unsigned n = 16;
    if (left) n = differing_bytes(blk, left);
    if (up) {
        unsigned m = differing_bytes(blk, up);
        n = m < n ? m : n;
    }
    return n;
}

static unsigned decoded_error(const uint8_t blk[16], const uint8_t *src, bool *ok)
{
    kiln_uastc_block b;
    *ok = kiln_uastc_unpack(blk, &b);
    if (!*ok) return 0xFFFFFFFFu;
    uint8_t px[64];
    kiln_uastc_decode(&b, false, px);
    return block_error(px, src);
}

kiln_result kiln_uastc_rdo(const uint8_t *rgba, uint32_t w, uint32_t h, size_t stride, float lambda,
                           uint8_t *blocks, size_t blocks_size, kiln_error *err)
{
    if (!rgba || !blocks || w == 0 || h == 0 || stride < (size_t)w * 4 || !(lambda >= 0.0f))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_uastc_rdo: bad arguments (%ux%u)", w, h);
    const size_t bx = ((size_t)w + 3) / 4, by = ((size_t)h + 3) / 4;
    size_t nb, need;
    if (!kiln_size_mul(bx, by, &nb) || !kiln_size_mul(nb, 16, &need))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln_uastc_rdo: %ux%u is too large", w, h);
    if (blocks_size < need)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_uastc_rdo: %zu block bytes, need %zu",
                              blocks_size, need);
    kiln_uastc_enc_tables t;
    kiln_uastc_enc_tables_init(&t);
    for (size_t y = 0; y < by; y++)
        for (size_t x = 0; x < bx; x++) {
            uint8_t src[64];
            for (size_t r = 0; r < 4; r++)
                for (size_t c = 0; c < 4; c++) {
                    size_t sy = y * 4 + r < h ? y * 4 + r : h - 1;
                    size_t sx = x * 4 + c < w ? x * 4 + c : w - 1;
                    memcpy(src + (r * 4 + c) * 4, rgba + sy * stride + sx * 4, 4);
                }
            uint8_t *cur = blocks + (y * bx + x) * 16;
            const uint8_t *left = x ? cur - 16 : NULL, *up = y ? cur - bx * 16 : NULL;
            bool ok;
            const unsigned e0 = decoded_error(cur, src, &ok);
            if (!ok)
                return kiln_error_set(err, KILN_E_USAGE, "kiln_uastc_rdo: block %zu invalid",
                                      y * bx + x);
            float best_cost = (float)e0 + lambda * 8.0f * (float)new_bytes(cur, left, up);
            uint8_t best[16];
            memcpy(best, cur, 16);
            const uint8_t *refs[2] = {left, up};
            fit_ctx f = {&t, src};
            for (int k = 0; k < 2; k++) {
                if (!refs[k]) continue;
                /* The neighbour itself. */
                unsigned e = decoded_error(refs[k], src, &ok);
                float cost = (float)e;
                if (ok && cost < best_cost) {
                    best_cost = cost;
                    memcpy(best, refs[k], 16);
                }
                /* Its mode, endpoints and hints with this block's weights. */
                kiln_uastc_block b;
                if (!kiln_uastc_unpack(refs[k], &b) || b.mode == KILN_UASTC_MODE_SOLID) continue;
                choose_weights(&f, &b);
                uint8_t cand[16];
                if (!kiln_uastc_pack(&b, cand)) continue;
                e = decoded_error(cand, src, &ok);
                cost = (float)e + lambda * 8.0f * (float)new_bytes(cand, left, up);
                if (ok && cost < best_cost) {
                    best_cost = cost;
                    memcpy(best, cand, 16);
                }
            }
            memcpy(cur, best, 16);
        }
    return KILN_OK;
}
