/* bc6h_encode.c — kiln's BC6H encoder (Khronos Data Format Specification, BPTC chapter, BC6H
 * section; docs/bc6h.md explains the choices and has the measurements).
 *
 * Domains. A BC6H texel decodes to finish(interp(unq(e0), unq(e1), w)), where finish scales the
 * 16-bit interpolated value to a half-float bit pattern (x 31/64 unsigned, x 31/32 signed). The
 * encoder fits endpoints in the interpolation domain (x = half bits x 64/31, or x 32/31 with the
 * sign), where interpolation is linear, and scores every candidate block exactly as the decoder
 * produces it: the squared difference of half-float bit patterns, read as ordered integers. The
 * bit pattern of a half is close to 1024 log2 of its value, so this is a log-space error, the
 * kind of error HDR images are judged by (and the bench measures: log2 RMSE, bench/bench_hdr.c).
 *
 * Search, per block:
 *   one subset: a principal-axis line fit of the 16 texels, tried in modes 15, 11, 7 and 3 (most
 *     endpoint precision first: the first mode whose deltas fit is kept, lower ones cannot win
 *     on precision; high quality also scores the modes whose deltas had to be clamped);
 *   two subsets: all 32 partitions ranked by the residual of a line fit per subset (the variance
 *     off the principal axis), the best few (1 fast, 2 normal, 6 high) fitted and tried in the
 *     ten two-subset modes the same way;
 *   the best candidate is refined by least squares on its indices (0 / 1 / 2 passes), kept only
 *   when the exact score improves.
 * Endpoints are ordered so that each subset's anchor texel gets an index with a clear top bit
 * (the bit the block does not store), and anchor indices are searched in the lower half only, so
 * every block written is valid. Integer and float operations only on the block's own data: the
 * bytes depend on nothing else (no threads, no tables built at run time). */
#include "process/bc6h.h"

#include <math.h>
#include <string.h>

#include "codec/bc6h_tables.h"
#include "codec/bc7_tables.h"
#include "codec/half_float.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

enum { TWO_SUBSET_MODES = 10, ONE_SUBSET_FIRST = 10 };

/* Error weights: a bit-pattern error is a log2 error; errors in texels far darker than 1/256 (of
 * a display's white at exposure 0) matter less, as the log2(v + 2^-8) error the bench reports
 * says: the weight is (v / (v + 2^-8))^2, in 1/256ths, at least WEIGHT_MIN. */
#define WEIGHT_ONE 256u
#define WEIGHT_MIN 4u
#define WEIGHT_EPS (1.0f / 256.0f)

typedef struct bc6h_block_in {
    bool is_signed;
    int32_t t[16][3];  /* target half bit patterns as ordered integers (negative: -magnitude) */
    float x[16][3];    /* the same in the interpolation domain */
    uint32_t w[16][3]; /* error weight of each texel channel (WEIGHT_ONE = full) */
} bc6h_block_in;

/* A scored candidate: mode, partition, quantised endpoints and indices. */
typedef struct bc6h_cand {
    int mode; /* kiln_bc6h_modes index, -1 = none */
    unsigned partition;
    int32_t q[4][3]; /* quantised endpoints (sign-extended for the signed format) */
    uint8_t idx[16];
    uint64_t err;
} bc6h_cand;

/* ---- input ---------------------------------------------------------------------------- */

static void load_block(const uint8_t *texels, bool is_signed, bc6h_block_in *in)
{
    in->is_signed = is_signed;
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < 3; c++) {
            uint32_t h = (uint32_t)texels[8 * i + 2 * c] | (uint32_t)texels[8 * i + 2 * c + 1] << 8;
            uint32_t mag = h & 0x7FFFu;
            bool neg = (h & 0x8000u) != 0;
            if (mag > 0x7C00u) mag = 0, neg = false; /* NaN */
            if (mag > 0x7BFFu) mag = 0x7BFFu;        /* infinity: the largest finite value */
            if (!is_signed && neg) mag = 0;          /* unsigned: negatives clamp to 0 */
            int32_t t = neg ? -(int32_t)mag : (int32_t)mag;
            in->t[i][c] = t;
            /* The middle of the interpolated values that finish to t (finish truncates). */
            float scale = is_signed ? 32.0f / 31.0f : 64.0f / 31.0f;
            float m = t == 0 ? 0.0f : ((float)mag + 0.5f) * scale;
            in->x[i][c] = neg ? -m : m;
            float v = kiln_half_to_float((uint16_t)mag);
            float r = v / (v + WEIGHT_EPS);
            uint32_t wt = (uint32_t)(r * r * (float)WEIGHT_ONE + 0.5f);
            in->w[i][c] = wt < WEIGHT_MIN ? WEIGHT_MIN : wt;
        }
}

/* ---- quantisation ---------------------------------------------------------------------- */

/* The signed range stops one short of -2^(epb-1): with 16-bit endpoints that code unquantises
 * to -32768, which finishes to -infinity (0xFC00); for fewer bits it means the same as the next
 * code up anyway. */
static int32_t q_min(unsigned epb, bool is_signed)
{
    return is_signed ? -(int32_t)(1u << (epb - 1)) + 1 : 0;
}

static int32_t q_max(unsigned epb, bool is_signed)
{
    return is_signed ? (int32_t)(1u << (epb - 1)) - 1 : (int32_t)(1u << epb) - 1;
}

/* The endpoint value of epb bits whose unquantised value is nearest v. Codes other than the two
 * ends unquantise to the middle of their bucket of 2^(16 - epb) values (2^(15 - epb) signed), so
 * the bucket v falls in (rounded toward zero: negative codes mirror positive ones) is the
 * answer; only next to 0 and the ends (which map to the range's edges) can a neighbour be
 * nearer, and those are compared. */
static int32_t quantize(float v, unsigned epb, bool is_signed)
{
    float scale = is_signed ? (float)(1u << (epb - 1)) / 32768.0f : (float)(1u << epb) / 65536.0f;
    float g = v * scale;
    int32_t lo = q_min(epb, is_signed), hi = q_max(epb, is_signed);
    if (g <= (float)lo) g = (float)lo;
    if (g >= (float)hi) g = (float)hi;
    /* 16-bit endpoints (15 unsigned) are not bucketed: unquantisation is the identity. */
    bool identity = epb >= (is_signed ? 16u : 15u);
    int32_t q0 = identity ? (int32_t)floorf(g + 0.5f) : (int32_t)truncf(g); /* toward zero */
    int32_t mag = q0 < 0 ? -q0 : q0;
    if (identity || (mag > 1 && mag < hi - 1)) return q0;
    int32_t best = q0;
    float best_d = -1.0f;
    for (int32_t q = q0 - 1; q <= q0 + 1; q++) {
        if (q < lo || q > hi) continue;
        float d = (float)kiln_bc6h_unquantize(q, epb, is_signed) - v;
        d = d < 0 ? -d : d;
        if (best_d < 0 || d < best_d) best_d = d, best = q;
    }
    return best;
}

/* ---- scoring --------------------------------------------------------------------------- */

static int32_t ordered(uint16_t h) { return h & 0x8000u ? -(int32_t)(h & 0x7FFFu) : (int32_t)h; }

/* Quantises float endpoints ep at epb bits into q (the first 2 * subsets endpoints). */
static void quantize_all(unsigned subsets, unsigned epb, bool is_signed, float ep[4][3],
                         int32_t q[4][3])
{
    for (unsigned e = 0; e < 2u * subsets; e++)
        for (unsigned ch = 0; ch < 3; ch++) q[e][ch] = quantize(ep[e][ch], epb, is_signed);
}

/* Sets c->q from endpoints q quantised at m's epb, clamping the deltas that do not fit in m;
 * returns whether every delta fitted. */
static bool apply_mode(const kiln_bc6h_mode *m, bool is_signed, int32_t q[4][3], bc6h_cand *c)
{
    bool fits = true;
    unsigned n = 2u * m->subsets;
    memcpy(c->q, q, sizeof c->q);
    if (!m->transformed) return true;
    for (unsigned e = 1; e < n; e++)
        for (unsigned ch = 0; ch < 3; ch++) {
            int32_t lo = -(int32_t)(1u << (m->delta[ch] - 1)), hi = -lo - 1;
            int32_t d = c->q[e][ch] - c->q[0][ch];
            if (d < lo || d > hi) {
                fits = false;
                d = d < lo ? lo : hi;
                /* Keep the moved endpoint in range: the decoder wraps E0 + delta at epb bits,
                 * and the score must see what it decodes. Pulling it back in shrinks the
                 * delta's size, so it still fits. */
                int32_t qq = c->q[0][ch] + d, qlo = q_min(m->epb, is_signed);
                int32_t qhi = q_max(m->epb, is_signed);
                c->q[e][ch] = qq < qlo ? qlo : qq > qhi ? qhi : qq;
            }
        }
    return fits;
}

/* Scores c (mode, partition, q set): picks each texel's best index from the exact palette and
 * sums the squared errors; stops early (returning UINT64_MAX) once past limit. */
static uint64_t score(const bc6h_block_in *in, bc6h_cand *c, uint64_t limit)
{
    const kiln_bc6h_mode *m = &kiln_bc6h_modes[c->mode];
    unsigned ns = m->subsets, ib = ns == 2 ? 3 : 4, levels = 1u << ib;
    const uint8_t *weights = kiln_bc7_weights(ib);
    const uint8_t *part = kiln_bc7_partition_row(ns, c->partition);
    int32_t pal[2][16][3];
    for (unsigned s = 0; s < ns; s++) {
        int32_t u0[3], u1[3];
        for (unsigned ch = 0; ch < 3; ch++) {
            u0[ch] = kiln_bc6h_unquantize(c->q[2 * s][ch], m->epb, in->is_signed);
            u1[ch] = kiln_bc6h_unquantize(c->q[2 * s + 1][ch], m->epb, in->is_signed);
        }
        for (unsigned k = 0; k < levels; k++)
            for (unsigned ch = 0; ch < 3; ch++)
                pal[s][k][ch] = ordered(
                    kiln_bc6h_finish(kiln_bc6h_interp(u0[ch], u1[ch], weights[k]), in->is_signed));
    }
    uint64_t total = 0;
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = part[i];
        unsigned top = i == kiln_bc7_anchor(ns, c->partition, s) ? levels / 2 : levels;
        uint64_t best = UINT64_MAX;
        unsigned best_k = 0;
        for (unsigned k = 0; k < top; k++) {
            int64_t d0 = pal[s][k][0] - in->t[i][0], d1 = pal[s][k][1] - in->t[i][1],
                    d2 = pal[s][k][2] - in->t[i][2];
            uint64_t e = (uint64_t)(d0 * d0) * in->w[i][0] + (uint64_t)(d1 * d1) * in->w[i][1] +
                         (uint64_t)(d2 * d2) * in->w[i][2];
            if (e < best) best = e, best_k = k;
        }
        c->idx[i] = (uint8_t)best_k;
        total += best;
        if (total > limit) return UINT64_MAX;
    }
    c->err = total;
    return total;
}

/* ---- fitting --------------------------------------------------------------------------- */

/* Principal-axis line through the texels of mask: endpoints at the extreme projections. */
static void fit_line(const bc6h_block_in *in, uint16_t mask, float e0[3], float e1[3])
{
    float mean[3] = {0, 0, 0};
    float n = 0;
    for (int i = 0; i < 16; i++)
        if (mask >> i & 1) {
            for (int c = 0; c < 3; c++) mean[c] += in->x[i][c];
            n += 1.0f;
        }
    for (int c = 0; c < 3; c++) mean[c] /= n;
    float cov[6] = {0, 0, 0, 0, 0, 0}; /* xx xy xz yy yz zz */
    for (int i = 0; i < 16; i++)
        if (mask >> i & 1) {
            float d0 = in->x[i][0] - mean[0], d1 = in->x[i][1] - mean[1],
                  d2 = in->x[i][2] - mean[2];
            cov[0] += d0 * d0, cov[1] += d0 * d1, cov[2] += d0 * d2;
            cov[3] += d1 * d1, cov[4] += d1 * d2, cov[5] += d2 * d2;
        }
    float axis[3] = {1.0f, 1.0f, 1.0f};
    for (int it = 0; it < 6; it++) {
        float a0 = cov[0] * axis[0] + cov[1] * axis[1] + cov[2] * axis[2];
        float a1 = cov[1] * axis[0] + cov[3] * axis[1] + cov[4] * axis[2];
        float a2 = cov[2] * axis[0] + cov[4] * axis[1] + cov[5] * axis[2];
        float mx = a0 < 0 ? -a0 : a0;
        float m1 = a1 < 0 ? -a1 : a1, m2 = a2 < 0 ? -a2 : a2;
        if (m1 > mx) mx = m1;
        if (m2 > mx) mx = m2;
        if (mx <= 0.0f) break;
        axis[0] = a0 / mx, axis[1] = a1 / mx, axis[2] = a2 / mx;
    }
    float lo = 0, hi = 0, len2 = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
    bool first = true;
    for (int i = 0; i < 16; i++)
        if (mask >> i & 1) {
            float p = (in->x[i][0] - mean[0]) * axis[0] + (in->x[i][1] - mean[1]) * axis[1] +
                      (in->x[i][2] - mean[2]) * axis[2];
            if (first || p < lo) lo = p;
            if (first || p > hi) hi = p;
            first = false;
        }
    for (int c = 0; c < 3; c++) {
        e0[c] = mean[c] + axis[c] * lo / len2;
        e1[c] = mean[c] + axis[c] * hi / len2;
    }
}

/* Swaps e0 and e1 when the anchor texel lies nearer e1, so its index has a clear top bit. */
static void orient(const bc6h_block_in *in, unsigned anchor, float e0[3], float e1[3])
{
    float d = 0, p = 0;
    for (int c = 0; c < 3; c++) {
        float a = e1[c] - e0[c];
        d += a * a;
        p += (in->x[anchor][c] - e0[c]) * a;
    }
    if (d > 0 && p > 0.5f * d)
        for (int c = 0; c < 3; c++) {
            float t = e0[c];
            e0[c] = e1[c];
            e1[c] = t;
        }
}

/* Per texel: x, y, z and the six products the covariance needs, computed once per block for the
 * ranking of the 32 partitions. */
typedef struct bc6h_moments {
    float m[16][9]; /* x y z xx xy xz yy yz zz */
} bc6h_moments;

static void moments_of(const bc6h_block_in *in, bc6h_moments *mo)
{
    for (int i = 0; i < 16; i++) {
        const float *x = in->x[i];
        float *m = mo->m[i];
        m[0] = x[0], m[1] = x[1], m[2] = x[2];
        m[3] = x[0] * x[0], m[4] = x[0] * x[1], m[5] = x[0] * x[2];
        m[6] = x[1] * x[1], m[7] = x[1] * x[2], m[8] = x[2] * x[2];
    }
}

/* Residual of the best line through the texels of mask: total variance minus the largest
 * eigenvalue of the covariance (power iteration), the partition ranking's estimate. */
static float line_residual(const bc6h_moments *mo, uint16_t mask)
{
    float t[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, n = 0;
    for (int i = 0; i < 16; i++)
        if (mask >> i & 1) {
            for (int k = 0; k < 9; k++) t[k] += mo->m[i][k];
            n += 1.0f;
        }
    if (n < 2.0f) return 0.0f;
    const float *s = t, *ss = t + 3;
    float cov[6] = {ss[0] - s[0] * s[0] / n, ss[1] - s[0] * s[1] / n, ss[2] - s[0] * s[2] / n,
                    ss[3] - s[1] * s[1] / n, ss[4] - s[1] * s[2] / n, ss[5] - s[2] * s[2] / n};
    float trace = cov[0] + cov[3] + cov[5];
    float v[3] = {1.0f, 1.0f, 1.0f}, lambda = 0.0f;
    for (int it = 0; it < 4; it++) {
        float a0 = cov[0] * v[0] + cov[1] * v[1] + cov[2] * v[2];
        float a1 = cov[1] * v[0] + cov[3] * v[1] + cov[4] * v[2];
        float a2 = cov[2] * v[0] + cov[4] * v[1] + cov[5] * v[2];
        float len2 = a0 * a0 + a1 * a1 + a2 * a2;
        if (len2 <= 0.0f) return 0.0f;
        float vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        lambda = (v[0] * a0 + v[1] * a1 + v[2] * a2) / vv; /* Rayleigh quotient */
        float mx = a0 < 0 ? -a0 : a0, m1 = a1 < 0 ? -a1 : a1, m2 = a2 < 0 ? -a2 : a2;
        if (m1 > mx) mx = m1;
        if (m2 > mx) mx = m2;
        v[0] = a0 / mx, v[1] = a1 / mx, v[2] = a2 / mx;
    }
    float r = trace - lambda;
    return r > 0.0f ? r : 0.0f;
}

/* Tries float endpoints ep (oriented) for partition in every mode with `subsets` subsets, most
 * precise first; keeps the best in *best. */
static void try_modes(const bc6h_block_in *in, unsigned subsets, unsigned partition, float ep[4][3],
                      bool try_clamped, bc6h_cand *best)
{
    int first = subsets == 2 ? 0 : ONE_SUBSET_FIRST;
    int last = subsets == 2 ? TWO_SUBSET_MODES : KILN_BC6H_MODE_COUNT;
    /* Modes by endpoint precision, most first (ties: the table's order). */
    int order[TWO_SUBSET_MODES];
    int n = 0;
    for (int mi = first; mi < last; mi++) {
        int k = n++;
        while (k > 0 && kiln_bc6h_modes[order[k - 1]].epb < kiln_bc6h_modes[mi].epb) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = mi;
    }
    int fitted_epb = -1, quantized_epb = -1;
    int32_t q[4][3];
    memset(q, 0, sizeof q);
    for (int k = 0; k < n; k++) {
        const kiln_bc6h_mode *m = &kiln_bc6h_modes[order[k]];
        if (fitted_epb >= 0 && m->epb < fitted_epb) break;
        if (m->epb != quantized_epb) { /* modes of equal precision share the quantisation */
            quantize_all(subsets, m->epb, in->is_signed, ep, q);
            quantized_epb = m->epb;
        }
        bc6h_cand c;
        c.mode = order[k];
        c.partition = partition;
        bool fits = apply_mode(m, in->is_signed, q, &c);
        if (!fits && !try_clamped) continue;
        if (fits) fitted_epb = m->epb;
        if (score(in, &c, best->err) < best->err) *best = c;
    }
}

/* Least-squares endpoints for the indices of c, per subset and channel, in the interpolation
 * domain. */
static void refit(const bc6h_block_in *in, const bc6h_cand *c, float ep[4][3])
{
    const kiln_bc6h_mode *m = &kiln_bc6h_modes[c->mode];
    unsigned ns = m->subsets, ib = ns == 2 ? 3 : 4;
    const uint8_t *weights = kiln_bc7_weights(ib);
    const uint8_t *part = kiln_bc7_partition_row(ns, c->partition);
    for (unsigned s = 0; s < ns; s++) {
        /* Weighted normal equations per channel (the score's weights). */
        float aa[3] = {0, 0, 0}, ab[3] = {0, 0, 0}, bb[3] = {0, 0, 0};
        float ax[3] = {0, 0, 0}, bx[3] = {0, 0, 0};
        for (unsigned i = 0; i < 16; i++) {
            if (part[i] != s) continue;
            float b = (float)weights[c->idx[i]] / 64.0f, a = 1.0f - b;
            for (int ch = 0; ch < 3; ch++) {
                float wt = (float)in->w[i][ch];
                aa[ch] += wt * a * a, ab[ch] += wt * a * b, bb[ch] += wt * b * b;
                ax[ch] += wt * a * in->x[i][ch], bx[ch] += wt * b * in->x[i][ch];
            }
        }
        for (int ch = 0; ch < 3; ch++) {
            float u0 = (float)kiln_bc6h_unquantize(c->q[2 * s][ch], m->epb, in->is_signed);
            float u1 = (float)kiln_bc6h_unquantize(c->q[2 * s + 1][ch], m->epb, in->is_signed);
            float det = aa[ch] * bb[ch] - ab[ch] * ab[ch];
            if (det > 1e-3f * (aa[ch] + bb[ch]) * (aa[ch] + bb[ch])) {
                u0 = (ax[ch] * bb[ch] - bx[ch] * ab[ch]) / det;
                u1 = (bx[ch] * aa[ch] - ax[ch] * ab[ch]) / det;
            }
            ep[2 * s][ch] = u0;
            ep[2 * s + 1][ch] = u1;
        }
    }
}

/* Whether c's endpoints are storable in its mode: in range, and deltas within their bits. */
static bool storable(const kiln_bc6h_mode *m, bool is_signed, const bc6h_cand *c)
{
    unsigned n = 2u * m->subsets;
    for (unsigned e = 0; e < n; e++)
        for (unsigned ch = 0; ch < 3; ch++) {
            int32_t q = c->q[e][ch];
            if (q < q_min(m->epb, is_signed) || q > q_max(m->epb, is_signed)) return false;
            if (e == 0 || !m->transformed) continue;
            int32_t lo = -(int32_t)(1u << (m->delta[ch] - 1)), d = q - c->q[0][ch];
            if (d < lo || d > -lo - 1) return false;
        }
    return true;
}

/* One sweep of single steps: each endpoint component moved by -1 and +1 (quantised units),
 * kept when the exact score drops. */
static void perturb(const bc6h_block_in *in, bc6h_cand *best)
{
    const kiln_bc6h_mode *m = &kiln_bc6h_modes[best->mode];
    unsigned n = 2u * m->subsets;
    for (unsigned e = 0; e < n; e++)
        for (unsigned ch = 0; ch < 3; ch++)
            for (int step = -1; step <= 1; step += 2) {
                bc6h_cand c = *best;
                c.q[e][ch] += step;
                if (!storable(m, in->is_signed, &c)) continue;
                if (score(in, &c, best->err) < best->err) *best = c;
            }
}

/* ---- packing --------------------------------------------------------------------------- */

static void put_bits(uint8_t *out, unsigned *pos, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, (*pos)++)
        if (v >> i & 1u) out[*pos >> 3] |= (uint8_t)(1u << (*pos & 7));
}

static void pack(const bc6h_cand *c, uint8_t *out)
{
    const kiln_bc6h_mode *m = &kiln_bc6h_modes[c->mode];
    memset(out, 0, 16);
    uint32_t field[KILN_BC6H_FIELDS] = {0};
    unsigned ns = m->subsets;
    for (unsigned e = 0; e < 2 * ns; e++)
        for (unsigned ch = 0; ch < 3; ch++) {
            int32_t v = c->q[e][ch];
            unsigned bits = m->epb;
            if (e > 0 && m->transformed) v -= c->q[0][ch], bits = m->delta[ch];
            field[e * 3 + ch] = (uint32_t)v & ((1u << bits) - 1u);
        }
    field[KILN_BC6H_FIELD_PARTITION] = c->partition;
    unsigned pos = 0;
    put_bits(out, &pos, m->code, m->code_bits);
    for (unsigned r = 0; r < m->run_count; r++) {
        const kiln_bc6h_run *run = &m->runs[r];
        int step = run->first <= run->last ? 1 : -1;
        for (int bit = run->first;; bit += step) {
            put_bits(out, &pos, field[run->field] >> bit & 1u, 1);
            if (bit == run->last) break;
        }
    }
    unsigned ib = ns == 2 ? 3 : 4;
    const uint8_t *part = kiln_bc7_partition_row(ns, c->partition);
    for (unsigned i = 0; i < 16; i++) {
        unsigned anchor = i == kiln_bc7_anchor(ns, c->partition, part[i]);
        put_bits(out, &pos, c->idx[i], ib - anchor);
    }
}

/* ---- the search ------------------------------------------------------------------------ */

static void encode(const uint8_t *texels, bool is_signed, kiln_quality quality, uint8_t *out)
{
    bc6h_block_in in;
    load_block(texels, is_signed, &in);
    bool high = quality == KILN_QUALITY_HIGH;
    unsigned partitions = quality == KILN_QUALITY_FAST ? 1 : high ? 8 : 6;
    unsigned passes = quality == KILN_QUALITY_FAST ? 0 : high ? 2 : 1;

    bc6h_cand best;
    memset(&best, 0, sizeof best);
    best.mode = -1;
    best.err = UINT64_MAX;
    float ep[4][3];

    /* One subset. */
    fit_line(&in, 0xFFFF, ep[0], ep[1]);
    orient(&in, 0, ep[0], ep[1]);
    try_modes(&in, 1, 0, ep, high, &best);

    /* Two subsets: rank the 32 partitions, fit the best few. */
    if (best.err > 0) {
        float resid[32];
        unsigned rank[32];
        bc6h_moments mo;
        moments_of(&in, &mo);
        for (unsigned p = 0; p < 32; p++) {
            uint16_t m1 = kiln_bc7_mask2[p];
            resid[p] = line_residual(&mo, (uint16_t)~m1) + line_residual(&mo, m1);
            unsigned k = p;
            while (k > 0 && resid[rank[k - 1]] > resid[p]) {
                rank[k] = rank[k - 1];
                k--;
            }
            rank[k] = p;
        }
        for (unsigned r = 0; r < partitions; r++) {
            unsigned p = rank[r];
            uint16_t m1 = kiln_bc7_mask2[p];
            fit_line(&in, (uint16_t)~m1, ep[0], ep[1]);
            fit_line(&in, m1, ep[2], ep[3]);
            orient(&in, 0, ep[0], ep[1]);
            orient(&in, kiln_bc7_anchor2[p], ep[2], ep[3]);
            try_modes(&in, 2, p, ep, high, &best);
        }
    }

    /* Least-squares refinement of the winner, in its subset count. */
    for (unsigned pass = 0; pass < passes && best.err > 0; pass++) {
        const kiln_bc6h_mode *m = &kiln_bc6h_modes[best.mode];
        refit(&in, &best, ep);
        for (unsigned s = 0; s < m->subsets; s++)
            orient(&in, kiln_bc7_anchor(m->subsets, best.partition, s), ep[2 * s], ep[2 * s + 1]);
        uint64_t before = best.err;
        try_modes(&in, m->subsets, best.partition, ep, high, &best);
        if (best.err >= before) break;
    }
    if (high && best.err > 0) perturb(&in, &best);
    pack(&best, out);
}

void kiln_bc6h_encode_block(const uint8_t *texels, const kiln_block_opts *o, uint8_t *out)
{
    encode(texels, false, o->quality, out);
}

void kiln_bc6h_sf_encode_block(const uint8_t *texels, const kiln_block_opts *o, uint8_t *out)
{
    encode(texels, true, o->quality, out);
}
