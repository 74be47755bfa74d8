/* bc7_encode.c — kiln's BC7 encoder (Khronos Data Format Specification, BPTC chapter).
 *
 * Per block: rank the 64 two-subset and 64 three-subset partitions by how well a line fits each
 * subset (covariance trace minus its largest eigenvalue: the error left after projecting onto the
 * principal axis), then fully encode the best few in modes 1 and 3 (two subsets), 0 and 2 (three
 * subsets) and always mode 6 (one subset, 4-bit indices). Blocks with alpha use modes 6, 7, 4 and 5
 * instead. A full encode of one subset: principal axis by power iteration, endpoints at the
 * extremes of the projection, quantisation under each allowed p-bit combination, indices chosen
 * by exact error, then rounds of least-squares endpoint refinement from the chosen indices.
 * Errors are exact integer sums of squared RGBA differences of the decoded texels, so the choice
 * between candidates is what PSNR sees. Everything is deterministic: no state outside the call,
 * floats only in the fit, evaluated in one fixed order.
 *
 * The levels (kiln_block_opts.quality) differ only in how many candidates they try; see
 * bc7_level_cfg and docs/bc7.md. */
#include "process/bc7.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/error.h"
#include "process/bc7_private.h"

/* ---- packing --------------------------------------------------------------------------- */

typedef struct bc7_writer {
    uint8_t *out;
    unsigned pos;
} bc7_writer;

static void bc7_put(bc7_writer *w, unsigned v, unsigned n) {
    for (unsigned i = 0; i < n; i++, w->pos++)
        if ((v >> i) & 1u) w->out[w->pos >> 3] |= (uint8_t)(1u << (w->pos & 7));
}

void kiln_bc7_pack(const kiln_bc7_block *b, uint8_t out[16]) {
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[b->mode];
    bc7_writer w = {out, 0};
    unsigned ns = m->subsets;
    memset(out, 0, 16);
    bc7_put(&w, 1u << b->mode, b->mode + 1);
    bc7_put(&w, b->partition, m->partition_bits);
    bc7_put(&w, b->rotation, m->rotation_bits);
    bc7_put(&w, b->isb, m->isb_bits);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned s = 0; s < ns; s++)
            for (unsigned e = 0; e < 2; e++) bc7_put(&w, b->ep[s][e][c], m->color_bits);
    if (m->alpha_bits)
        for (unsigned s = 0; s < ns; s++)
            for (unsigned e = 0; e < 2; e++) bc7_put(&w, b->ep[s][e][3], m->alpha_bits);
    if (m->endpoint_pbits)
        for (unsigned s = 0; s < ns; s++)
            for (unsigned e = 0; e < 2; e++) bc7_put(&w, b->pbit[s][e], 1);
    if (m->shared_pbits)
        for (unsigned s = 0; s < ns; s++) bc7_put(&w, b->pbit[s][0], 1);
    const uint8_t *part = kiln_bc7_partition_row(ns, b->partition);
    for (unsigned i = 0; i < 16; i++) {
        unsigned anchor = i == kiln_bc7_anchor(ns, b->partition, part[i]);
        bc7_put(&w, b->index[i], m->index_bits - anchor);
    }
    if (m->index2_bits)
        for (unsigned i = 0; i < 16; i++) bc7_put(&w, b->index2[i], m->index2_bits - (i == 0));
}

/* ---- levels ----------------------------------------------------------------------------- */

typedef struct bc7_level_cfg {
    unsigned parts2;      /* two-subset partitions fully encoded (modes 1, 3; 7 with alpha) */
    unsigned parts3;      /* three-subset partitions fully encoded in mode 2 (0 = skip) */
    unsigned parts0;      /* three-subset partitions (of the first 16) in mode 0 (0 = skip) */
    unsigned ls_rounds;   /* least-squares refinement rounds per subset */
    bool exhaustive;      /* indices by trying every palette entry, not only the projection's */
    bool opaque45;        /* try modes 4 and 5 (with rotation) on opaque blocks */
    bool perturb;         /* nudge each quantised endpoint channel by +-1 after refinement */
} bc7_level_cfg;

static const bc7_level_cfg bc7_levels[3] = {
    [KILN_QUALITY_FAST] = {4, 0, 0, 1, false, false, false},
    [KILN_QUALITY_NORMAL] = {8, 4, 2, 3, false, true, false},
    [KILN_QUALITY_HIGH] = {16, 8, 4, 3, true, true, true},
};

/* ---- one subset ------------------------------------------------------------------------- */

enum { BC7_P_NONE = 0, BC7_P_SHARED = 1, BC7_P_ENDPOINT = 2 };

typedef struct bc7_spec {
    unsigned nc;      /* channels 1..4 */
    unsigned bits[4]; /* code bits per channel, without the p-bit */
    unsigned pmode;   /* BC7_P_* */
    unsigned pmask;   /* allowed (p0 | p1 << 1) combinations, bit per combination */
    unsigned ib;      /* index bits */
} bc7_spec;

typedef struct bc7_fit {
    uint8_t code[2][4];
    uint8_t p[2];
    uint8_t idx[16];
    uint32_t err;
} bc7_fit;

typedef struct bc7_pixels {
    int v[16][4];
    unsigned n;
} bc7_pixels;

static int bc7_dequant(const bc7_spec *sp, unsigned c, unsigned code, unsigned p) {
    return sp->pmode ? kiln_bc7_expand(code << 1 | p, sp->bits[c] + 1)
                     : kiln_bc7_expand(code, sp->bits[c]);
}

/* Nearest code (under p-bit p) to the 8-bit value f. */
static unsigned bc7_quant(const bc7_spec *sp, unsigned c, float f, unsigned p) {
    unsigned bits = sp->bits[c], maxq = (1u << bits) - 1;
    float x;
    int q;
    if (sp->pmode) {
        x = f * (float)((2u << bits) - 1) / 255.0f;
        q = (int)((x - (float)p) * 0.5f + 0.5f);
    } else {
        x = f * (float)maxq / 255.0f;
        q = (int)(x + 0.5f);
    }
    if (q < 0) q = 0;
    if (q > (int)maxq) q = (int)maxq;
    unsigned best = (unsigned)q;
    float bd = 1e30f;
    for (int d = -1; d <= 1; d++) {
        int t = q + d;
        if (t < 0 || t > (int)maxq) continue;
        float e = (float)bc7_dequant(sp, c, (unsigned)t, p) - f;
        if (e * e < bd) bd = e * e, best = (unsigned)t;
    }
    return best;
}

/* Exact error of the pixels under quantised endpoints, choosing each pixel's index. */
static uint32_t bc7_eval(const bc7_pixels *px, const bc7_spec *sp, const uint8_t code[2][4],
                         const uint8_t p[2], bool exhaustive, uint8_t idx[16]) {
    unsigned nc = sp->nc, np = 1u << sp->ib;
    const uint8_t *w = kiln_bc7_weights(sp->ib);
    int e[2][4] = {{0}}, pal[16][4] = {{0}};
    for (unsigned c = 0; c < nc; c++) {
        e[0][c] = bc7_dequant(sp, c, code[0][c], p[0]);
        e[1][c] = bc7_dequant(sp, c, code[1][c], p[1]);
    }
    for (unsigned j = 0; j < np; j++)
        for (unsigned c = 0; c < nc; c++) pal[j][c] = kiln_bc7_interp(e[0][c], e[1][c], w[j]);
    int dir[4] = {0}, dd = 0;
    for (unsigned c = 0; c < nc; c++) dir[c] = e[1][c] - e[0][c], dd += dir[c] * dir[c];
    uint32_t total = 0;
    for (unsigned i = 0; i < px->n; i++) {
        const int *v = px->v[i];
        unsigned lo = 0, hi = np - 1;
        if (!exhaustive && dd > 0) {
            int dot = 0;
            for (unsigned c = 0; c < nc; c++) dot += (v[c] - e[0][c]) * dir[c];
            int j = (int)(((int64_t)dot * (int)(np - 1) * 2 + dd) / (2 * (int64_t)dd));
            if (dot < 0) j = 0;
            if (j > (int)np - 1) j = (int)np - 1;
            lo = j > 0 ? (unsigned)j - 1 : 0;
            hi = j < (int)np - 1 ? (unsigned)j + 1 : np - 1;
        }
        uint32_t best = UINT32_MAX;
        unsigned bj = lo;
        for (unsigned j = lo; j <= hi; j++) {
            uint32_t d = 0;
            for (unsigned c = 0; c < nc; c++) {
                int t = v[c] - pal[j][c];
                d += (uint32_t)(t * t);
            }
            if (d < best) best = d, bj = j;
        }
        idx[i] = (uint8_t)bj;
        total += best;
    }
    return total;
}

/* Quantises float endpoints under every allowed p-bit combination; keeps the best in *best. */
static void bc7_try_endpoints(const bc7_pixels *px, const bc7_spec *sp, const float ef[2][4],
                              bool exhaustive, bc7_fit *best) {
    static const uint8_t combos[4][2] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}};
    unsigned ncombo = sp->pmode == BC7_P_NONE ? 1 : sp->pmode == BC7_P_SHARED ? 2 : 4;
    for (unsigned k = 0; k < ncombo; k++) {
        uint8_t p[2] = {combos[k][0], combos[k][1]};
        if (sp->pmode && !(sp->pmask & (1u << (p[0] | p[1] << 1)))) continue;
        bc7_fit f;
        memset(&f, 0, sizeof f);
        f.p[0] = p[0], f.p[1] = p[1];
        for (unsigned c = 0; c < sp->nc; c++) {
            f.code[0][c] = (uint8_t)bc7_quant(sp, c, ef[0][c], p[0]);
            f.code[1][c] = (uint8_t)bc7_quant(sp, c, ef[1][c], p[1]);
        }
        f.err = bc7_eval(px, sp, f.code, f.p, exhaustive, f.idx);
        if (f.err < best->err) *best = f;
    }
}

/* A subset of one colour: search endpoint codes that interpolate to it exactly (or closest)
 * for every p-bit combination and index, channel by channel. */
static void bc7_fit_single(const bc7_pixels *px, const bc7_spec *sp, bc7_fit *best) {
    static const uint8_t combos[4][2] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}};
    unsigned ncombo = sp->pmode == BC7_P_NONE ? 1 : sp->pmode == BC7_P_SHARED ? 2 : 4;
    unsigned np = 1u << sp->ib;
    const uint8_t *w = kiln_bc7_weights(sp->ib);
    for (unsigned k = 0; k < ncombo; k++) {
        uint8_t p[2] = {combos[k][0], combos[k][1]};
        if (sp->pmode && !(sp->pmask & (1u << (p[0] | p[1] << 1)))) continue;
        /* Indices past the middle mirror those before it with endpoints swapped. */
        for (unsigned j = 0; j < np / 2 + 1 && j < np; j++) {
            bc7_fit f;
            memset(&f, 0, sizeof f);
            f.p[0] = p[0], f.p[1] = p[1];
            uint32_t err = 0;
            for (unsigned c = 0; c < sp->nc; c++) {
                int v = px->v[0][c];
                unsigned q0 = bc7_quant(sp, c, (float)v, p[0]);
                unsigned q1 = bc7_quant(sp, c, (float)v, p[1]);
                unsigned maxq = (1u << sp->bits[c]) - 1;
                int bd = 1 << 30;
                for (int a = -2; a <= 2; a++)
                    for (int b = -2; b <= 2; b++) {
                        int c0 = (int)q0 + a, c1 = (int)q1 + b;
                        if (c0 < 0 || c1 < 0 || c0 > (int)maxq || c1 > (int)maxq) continue;
                        int r = kiln_bc7_interp(bc7_dequant(sp, c, (unsigned)c0, p[0]),
                                                bc7_dequant(sp, c, (unsigned)c1, p[1]), w[j]);
                        int d = (r - v) * (r - v);
                        if (d < bd) {
                            bd = d;
                            f.code[0][c] = (uint8_t)c0, f.code[1][c] = (uint8_t)c1;
                        }
                    }
                err += (uint32_t)bd;
            }
            f.err = err * px->n;
            for (unsigned i = 0; i < px->n; i++) f.idx[i] = (uint8_t)j;
            if (f.err < best->err) *best = f;
            if (best->err == 0) return;
        }
    }
}

/* Principal axis of the pixels' covariance by power iteration; false if they are all equal. */
static bool bc7_axis(const bc7_pixels *px, unsigned nc, float mean[4], float axis[4]) {
    float cov[4][4] = {{0}};
    for (unsigned c = 0; c < 4; c++) mean[c] = 0, axis[c] = 0;
    for (unsigned i = 0; i < px->n; i++)
        for (unsigned c = 0; c < nc; c++) mean[c] += (float)px->v[i][c];
    for (unsigned c = 0; c < nc; c++) mean[c] /= (float)px->n;
    for (unsigned i = 0; i < px->n; i++) {
        float d[4];
        for (unsigned c = 0; c < nc; c++) d[c] = (float)px->v[i][c] - mean[c];
        for (unsigned a = 0; a < nc; a++)
            for (unsigned b = a; b < nc; b++) cov[a][b] += d[a] * d[b];
    }
    for (unsigned a = 0; a < nc; a++)
        for (unsigned b = 0; b < a; b++) cov[a][b] = cov[b][a];
    /* Start from the covariance row of the largest variance: never orthogonal to the main
     * axis unless the spread is degenerate. */
    unsigned big = 0;
    for (unsigned c = 1; c < nc; c++)
        if (cov[c][c] > cov[big][big]) big = c;
    if (cov[big][big] <= 0.0f) return false;
    float v[4];
    for (unsigned c = 0; c < nc; c++) v[c] = cov[big][c];
    for (unsigned it = 0; it < 6; it++) {
        float t[4] = {0}, m = 0;
        for (unsigned a = 0; a < nc; a++) {
            for (unsigned b = 0; b < nc; b++) t[a] += cov[a][b] * v[b];
            float at = t[a] < 0 ? -t[a] : t[a];
            if (at > m) m = at;
        }
        if (m <= 0.0f) break;
        for (unsigned a = 0; a < nc; a++) v[a] = t[a] / m;
    }
    float len = 0;
    for (unsigned c = 0; c < nc; c++) len += v[c] * v[c];
    if (len <= 0.0f) return false;
    /* Normalising by 1/|v| via a division per channel keeps the result order-independent. */
    float inv = 1.0f / sqrtf(len);
    for (unsigned c = 0; c < nc; c++) axis[c] = v[c] * inv;
    return true;
}

static float bc7_clamp255(float f) { return f < 0.0f ? 0.0f : f > 255.0f ? 255.0f : f; }

/* Least-squares endpoints for fixed indices; false when the indices do not determine a line. */
static bool bc7_least_squares(const bc7_pixels *px, const bc7_spec *sp, const uint8_t idx[16],
                              float ef[2][4]) {
    const uint8_t *w = kiln_bc7_weights(sp->ib);
    float a = 0, b = 0, c2 = 0, x0[4] = {0}, x1[4] = {0};
    for (unsigned i = 0; i < px->n; i++) {
        float t = (float)w[idx[i]] * (1.0f / 64.0f), s = 1.0f - t;
        a += s * s, b += s * t, c2 += t * t;
        for (unsigned c = 0; c < sp->nc; c++) {
            x0[c] += s * (float)px->v[i][c];
            x1[c] += t * (float)px->v[i][c];
        }
    }
    float det = a * c2 - b * b;
    if (det < 1e-4f) return false;
    float inv = 1.0f / det;
    for (unsigned c = 0; c < sp->nc; c++) {
        ef[0][c] = bc7_clamp255((c2 * x0[c] - b * x1[c]) * inv);
        ef[1][c] = bc7_clamp255((a * x1[c] - b * x0[c]) * inv);
    }
    return true;
}

/* Encodes one subset: the best quantised endpoints, p-bits and indices found. */
static void bc7_fit_subset(const bc7_pixels *px, const bc7_spec *sp, const bc7_level_cfg *cfg,
                           bc7_fit *best) {
    memset(best, 0, sizeof *best);
    best->err = UINT32_MAX;
    float mean[4], axis[4];
    if (!bc7_axis(px, sp->nc, mean, axis)) {
        bc7_fit_single(px, sp, best);
        return;
    }
    float tmin = 1e30f, tmax = -1e30f;
    for (unsigned i = 0; i < px->n; i++) {
        float t = 0;
        for (unsigned c = 0; c < sp->nc; c++) t += ((float)px->v[i][c] - mean[c]) * axis[c];
        if (t < tmin) tmin = t;
        if (t > tmax) tmax = t;
    }
    float ef[2][4] = {{0}};
    for (unsigned c = 0; c < sp->nc; c++) {
        ef[0][c] = bc7_clamp255(mean[c] + axis[c] * tmin);
        ef[1][c] = bc7_clamp255(mean[c] + axis[c] * tmax);
    }
    bc7_try_endpoints(px, sp, ef, cfg->exhaustive, best);
    for (unsigned r = 0; r < cfg->ls_rounds && best->err > 0; r++) {
        uint32_t before = best->err;
        if (!bc7_least_squares(px, sp, best->idx, ef)) break;
        bc7_try_endpoints(px, sp, ef, cfg->exhaustive, best);
        if (best->err >= before) break;
    }
    if (cfg->perturb && best->err > 0) {
        for (unsigned pass = 0; pass < 2; pass++) {
            bool improved = false;
            for (unsigned e = 0; e < 2; e++)
                for (unsigned c = 0; c < sp->nc; c++)
                    for (int d = -1; d <= 1; d += 2) {
                        int q = best->code[e][c] + d;
                        if (q < 0 || q > (int)((1u << sp->bits[c]) - 1)) continue;
                        bc7_fit f = *best;
                        f.code[e][c] = (uint8_t)q;
                        f.err = bc7_eval(px, sp, f.code, f.p, true, f.idx);
                        if (f.err < best->err) *best = f, improved = true;
                    }
            if (!improved) break;
        }
    }
}

/* ---- whole blocks ----------------------------------------------------------------------- */

typedef struct bc7_ctx {
    int px[16][4];
    bool opaque;
    const bc7_level_cfg *cfg;
    kiln_bc7_block best;
    uint32_t best_err;
} bc7_ctx;

/* Swaps a subset's endpoints when its anchor index has the top bit set, mirroring indices. */
static void bc7_fix_anchor(uint8_t code[2][4], uint8_t p[2], uint8_t *idx, const uint8_t *part,
                           unsigned subset, unsigned anchor, unsigned ib, unsigned nc0,
                           unsigned nc1) {
    unsigned top = 1u << (ib - 1), max = (1u << ib) - 1;
    if (!(idx[anchor] & top)) return;
    for (unsigned c = nc0; c < nc1; c++) {
        uint8_t t = code[0][c];
        code[0][c] = code[1][c], code[1][c] = t;
    }
    if (p) {
        uint8_t t = p[0];
        p[0] = p[1], p[1] = t;
    }
    for (unsigned i = 0; i < 16; i++)
        if (!part || part[i] == subset) idx[i] = (uint8_t)(max - idx[i]);
}

static void bc7_consider(bc7_ctx *x, const kiln_bc7_block *b, uint32_t err) {
    if (err < x->best_err) x->best_err = err, x->best = *b;
}

/* Modes 0-3, 6 and 7: every channel shares one index per texel. */
static void bc7_try_mode(bc7_ctx *x, unsigned mode, unsigned partition) {
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[mode];
    unsigned ns = m->subsets;
    const uint8_t *part = kiln_bc7_partition_row(ns, partition);
    bool alpha = m->alpha_bits && !x->opaque;
    bc7_spec sp = {alpha ? 4u : 3u,
                   {m->color_bits, m->color_bits, m->color_bits, m->alpha_bits},
                   m->endpoint_pbits ? BC7_P_ENDPOINT : m->shared_pbits ? BC7_P_SHARED : BC7_P_NONE,
                   15u,
                   m->index_bits};
    /* Opaque blocks in modes with alpha: alpha codes all ones with p-bits 1 decode to 255. */
    if (m->alpha_bits && x->opaque) sp.pmask = 1u << 3;
    kiln_bc7_block b;
    memset(&b, 0, sizeof b);
    b.mode = mode, b.partition = partition;
    uint32_t err = 0;
    for (unsigned s = 0; s < ns; s++) {
        bc7_pixels px;
        unsigned map[16];
        px.n = 0;
        for (unsigned i = 0; i < 16; i++)
            if (part[i] == s) {
                memcpy(px.v[px.n], x->px[i], sizeof px.v[0]);
                map[px.n++] = i;
            }
        bc7_fit f;
        bc7_fit_subset(&px, &sp, x->cfg, &f);
        err += f.err;
        if (err >= x->best_err) return;
        for (unsigned e = 0; e < 2; e++) {
            memcpy(b.ep[s][e], f.code[e], 4);
            if (m->alpha_bits && x->opaque) b.ep[s][e][3] = (uint8_t)((1u << m->alpha_bits) - 1);
            b.pbit[s][e] = f.p[e];
        }
        for (unsigned k = 0; k < px.n; k++) b.index[map[k]] = f.idx[k];
        bc7_fix_anchor(b.ep[s], b.pbit[s], b.index, part, s, kiln_bc7_anchor(ns, partition, s),
                       m->index_bits, 0, 4);
    }
    bc7_consider(x, &b, err);
}

/* Modes 4 and 5: colour and one scalar channel (alpha, or the channel rotated into alpha) with
 * separate indices. */
static void bc7_try_mode45(bc7_ctx *x, unsigned mode, unsigned rotation, unsigned isb) {
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[mode];
    unsigned cib = isb ? m->index2_bits : m->index_bits;
    unsigned aib = isb ? m->index_bits : (m->index2_bits ? m->index2_bits : m->index_bits);
    bc7_spec cs = {3, {m->color_bits, m->color_bits, m->color_bits, 0}, BC7_P_NONE, 0, cib};
    bc7_spec as = {1, {m->alpha_bits, 0, 0, 0}, BC7_P_NONE, 0, aib};
    bc7_pixels cp, ap;
    cp.n = ap.n = 16;
    for (unsigned i = 0; i < 16; i++) {
        int v[4];
        memcpy(v, x->px[i], sizeof v);
        if (rotation) {
            int t = v[3];
            v[3] = v[rotation - 1];
            v[rotation - 1] = t;
        }
        for (unsigned c = 0; c < 4; c++) cp.v[i][c] = v[c];
        ap.v[i][0] = v[3];
    }
    bc7_fit cf, af;
    bc7_fit_subset(&cp, &cs, x->cfg, &cf);
    if (cf.err >= x->best_err) return;
    bc7_fit_subset(&ap, &as, x->cfg, &af);
    uint32_t err = cf.err + af.err;
    if (err >= x->best_err) return;
    kiln_bc7_block b;
    memset(&b, 0, sizeof b);
    b.mode = mode, b.rotation = rotation, b.isb = isb;
    for (unsigned e = 0; e < 2; e++) {
        memcpy(b.ep[0][e], cf.code[e], 3);
        b.ep[0][e][3] = af.code[e][0];
    }
    uint8_t *ci = isb ? b.index2 : b.index;
    uint8_t *ai = (m->index2_bits && !isb) ? b.index2 : b.index;
    memcpy(ci, cf.idx, 16);
    memcpy(ai, af.idx, 16);
    bc7_fix_anchor(b.ep[0], NULL, ci, NULL, 0, 0, cib, 0, 3);
    bc7_fix_anchor(b.ep[0], NULL, ai, NULL, 0, 0, aib, 3, 4);
    bc7_consider(x, &b, err);
}

/* Per-texel moments for ranking partitions: RGBA values and their 10 pairwise products (alpha
 * terms are zero for opaque blocks, so one fixed-size path serves both). Fixed sizes let the
 * compiler vectorise the accumulation. */
#define BC7_NM 16
typedef struct bc7_moments {
    int32_t m[16][BC7_NM]; /* 4 sums, 10 products (a <= b), 2 unused */
    int32_t total[BC7_NM];
    float axis[4];         /* the whole block's principal axis: power iteration's start */
} bc7_moments;

static void bc7_moments_init(const bc7_ctx *x, bc7_moments *mo) {
    memset(mo, 0, sizeof *mo);
    for (unsigned i = 0; i < 16; i++) {
        int v[4];
        for (unsigned c = 0; c < 4; c++) v[c] = x->opaque && c == 3 ? 0 : x->px[i][c];
        unsigned k = 0;
        for (unsigned c = 0; c < 4; c++) mo->m[i][k++] = v[c];
        for (unsigned a = 0; a < 4; a++)
            for (unsigned b = a; b < 4; b++) mo->m[i][k++] = v[a] * v[b];
        for (unsigned j = 0; j < BC7_NM; j++) mo->total[j] += mo->m[i][j];
    }
    bc7_pixels all;
    all.n = 16;
    memcpy(all.v, x->px, sizeof all.v);
    float mean[4];
    if (!bc7_axis(&all, x->opaque ? 3 : 4, mean, mo->axis)) mo->axis[0] = mo->axis[1] = mo->axis[2] = 0.57735f;
}

/* Error a line fit leaves in a subset with these sums: the scatter matrix's trace minus its
 * largest eigenvalue, estimated by the Rayleigh quotient after two power steps from the block's
 * axis. The sums are exact integers. */
static float bc7_line_residual(const int32_t *sum, int n, const float start[4]) {
    if (n < 2) return 0.0f;
    static const uint8_t pair[4][4] = {{4, 5, 6, 7}, {5, 8, 9, 10}, {6, 9, 11, 12}, {7, 10, 12, 13}};
    float cov[4][4], inv = 1.0f / (float)n, trace = 0;
    for (unsigned a = 0; a < 4; a++)
        for (unsigned b = 0; b < 4; b++) {
            int64_t c = (int64_t)n * sum[pair[a][b]] - (int64_t)sum[a] * sum[b];
            cov[a][b] = (float)c * inv;
        }
    for (unsigned a = 0; a < 4; a++) trace += cov[a][a];
    if (trace <= 0.0f) return 0.0f;
    float v1[4], v2[4], d11 = 0, d21 = 0;
    for (unsigned a = 0; a < 4; a++)
        v1[a] = cov[a][0] * start[0] + cov[a][1] * start[1] + cov[a][2] * start[2] +
                cov[a][3] * start[3];
    for (unsigned a = 0; a < 4; a++) {
        v2[a] = cov[a][0] * v1[0] + cov[a][1] * v1[1] + cov[a][2] * v1[2] + cov[a][3] * v1[3];
        d11 += v1[a] * v1[a], d21 += v2[a] * v1[a];
    }
    float r = trace - (d11 > 0.0f ? d21 / d11 : 0.0f);
    return r > 0.0f ? r : 0.0f;
}

/* Ranks the partitions of `subsets` subsets by the error line fits leave in their subsets;
 * writes partition numbers, best first. */
static void bc7_rank_partitions(const bc7_moments *mo, unsigned subsets, uint8_t order[64]) {
    float score[64];
    for (unsigned p = 0; p < 64; p++) {
        const uint8_t *part = kiln_bc7_partition_row(subsets, p);
        int32_t s1[BC7_NM] = {0}, s2[BC7_NM] = {0}, s0[BC7_NM];
        int n1 = 0, n2 = 0;
        for (unsigned i = 0; i < 16; i++) {
            /* Branch-free: subset 0 comes from the totals. */
            int32_t a1 = part[i] == 1, a2 = part[i] == 2;
            n1 += a1, n2 += a2;
            for (unsigned j = 0; j < BC7_NM; j++) s1[j] += a1 * mo->m[i][j];
            if (subsets == 3)
                for (unsigned j = 0; j < BC7_NM; j++) s2[j] += a2 * mo->m[i][j];
        }
        for (unsigned j = 0; j < BC7_NM; j++) s0[j] = mo->total[j] - s1[j] - s2[j];
        float total = bc7_line_residual(s0, 16 - n1 - n2, mo->axis) +
                      bc7_line_residual(s1, n1, mo->axis);
        if (subsets == 3) total += bc7_line_residual(s2, n2, mo->axis);
        score[p] = total;
    }
    /* Insertion sort: stable, so ties keep the lower partition number. */
    for (unsigned p = 0; p < 64; p++) {
        unsigned k = p;
        while (k > 0 && score[order[k - 1]] > score[p]) order[k] = order[k - 1], k--;
        order[k] = (uint8_t)p;
    }
}

void kiln_bc7_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[16]) {
    bc7_ctx x;
    unsigned q = o && (unsigned)o->quality <= KILN_QUALITY_HIGH ? (unsigned)o->quality
                                                                 : KILN_QUALITY_NORMAL;
    x.cfg = &bc7_levels[q];
    x.opaque = true;
    for (unsigned i = 0; i < 16; i++) {
        for (unsigned c = 0; c < 4; c++) x.px[i][c] = rgba[4 * i + c];
        if (rgba[4 * i + 3] != 255) x.opaque = false;
    }
    x.best_err = UINT32_MAX;
    memset(&x.best, 0, sizeof x.best);

    bc7_try_mode(&x, 6, 0);
    bool solid = true;
    for (unsigned i = 1; i < 16; i++) solid = solid && !memcmp(x.px[i], x.px[0], sizeof x.px[0]);
    /* A solid colour mode 6 cannot hit (p-bits tie the channels' parity) usually comes out
     * exact in mode 5 or 4 with the odd channel rotated into the 8- or 6-bit scalar. */
    if (solid && x.best_err > 0)
        for (unsigned r = 0; r < 4 && x.best_err > 0; r++) {
            bc7_try_mode45(&x, 5, r, 0);
            bc7_try_mode45(&x, 4, r, 0);
            bc7_try_mode45(&x, 4, r, 1);
        }
    uint8_t order2[64], order3[64];
    bc7_moments mo;
    bc7_moments_init(&x, &mo);
    if (x.opaque) {
        if (x.best_err > 0) {
            bc7_rank_partitions(&mo, 2, order2);
            for (unsigned k = 0; k < x.cfg->parts2 && x.best_err > 0; k++) {
                bc7_try_mode(&x, 1, order2[k]);
                bc7_try_mode(&x, 3, order2[k]);
            }
        }
        if (x.best_err > 0 && (x.cfg->parts3 || x.cfg->parts0)) {
            bc7_rank_partitions(&mo, 3, order3);
            for (unsigned k = 0; k < x.cfg->parts3 && x.best_err > 0; k++)
                bc7_try_mode(&x, 2, order3[k]);
            for (unsigned k = 0, done = 0; k < 64 && done < x.cfg->parts0 && x.best_err > 0; k++)
                if (order3[k] < 16) bc7_try_mode(&x, 0, order3[k]), done++;
        }
        if (x.cfg->opaque45 && x.best_err > 0)
            for (unsigned r = 1; r < 4; r++) {
                bc7_try_mode45(&x, 5, r, 0);
                bc7_try_mode45(&x, 4, r, 0);
                bc7_try_mode45(&x, 4, r, 1);
            }
    } else {
        for (unsigned r = 0; r < 4 && x.best_err > 0; r++) {
            bc7_try_mode45(&x, 5, r, 0);
            if (q != KILN_QUALITY_FAST) {
                bc7_try_mode45(&x, 4, r, 0);
                bc7_try_mode45(&x, 4, r, 1);
            }
            if (q == KILN_QUALITY_FAST) break;
        }
        if (x.best_err > 0) {
            bc7_rank_partitions(&mo, 2, order2);
            for (unsigned k = 0; k < x.cfg->parts2 && x.best_err > 0; k++)
                bc7_try_mode(&x, 7, order2[k]);
        }
    }
    kiln_bc7_pack(&x.best, out);
    if (x.opaque) {
        /* Belt and braces for the opaque promise: every mode above keeps alpha at 255 by
         * construction, but a block that decodes otherwise falls back to mode 3 with
         * partition 0, which has no alpha at all. */
        uint8_t dec[64];
        kiln_bc7_decode_block(out, dec);
        for (unsigned i = 0; i < 16; i++)
            if (KILN_NEVER(dec[4 * i + 3] != 255)) {
                x.best_err = UINT32_MAX;
                bc7_try_mode(&x, 3, 0);
                kiln_bc7_pack(&x.best, out);
                break;
            }
    }
}
