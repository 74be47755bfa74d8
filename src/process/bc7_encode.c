/* bc7_encode.c — kiln's BC7 encoder (Khronos Data Format Specification, BPTC chapter).
 *
 * Per block: mode 6 (one subset) first; then the 64 two-subset and 64 three-subset partitions are
 * ranked from exact integer moment sums (the error a line fit leaves in each subset, plus the
 * error of rounding positions on the line to the mode's index count), and the best few are
 * encoded in modes 1 and 3 (two subsets), 2 and 0 (three subsets); modes 4 and 5 with the most
 * promising rotation. Blocks with alpha use modes 6, 5, 4 and 7. Encoding one subset: principal
 * axis by power iteration, endpoints at the extremes of the projection, p-bits from the
 * unrounded endpoints, indices from the projection (checking the two bracketing entries), then
 * least-squares refinement rounds. The few best candidates are then encoded again with endpoint
 * nudging (each code +-1, and at normal and high joint moves and p-bit flips), which pays more
 * than any other step. Errors are exact integer sums of squared RGBA differences of the decoded
 * texels, so the choice between candidates is what PSNR sees. Everything is deterministic: no
 * state outside the call, floats only in fitting and ranking, evaluated in one fixed order; the
 * hot loops are written to vectorise, and vector width does not change any result.
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

/* Fields go into two 64-bit halves, LSB first; a field never has more than 8 bits. */
typedef struct bc7_writer {
    uint64_t half[2];
    unsigned pos;
} bc7_writer;

static void bc7_put(bc7_writer *w, unsigned v, unsigned n)
{
    uint64_t bits = (uint64_t)(v & ((1u << n) - 1u));
    unsigned h = w->pos >> 6, at = w->pos & 63;
    w->half[h] |= bits << at;
    if (at + n > 64) w->half[1] |= bits >> (64 - at);
    w->pos += n;
}

void kiln_bc7_pack(const kiln_bc7_block *b, uint8_t out[16])
{
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[b->mode];
    bc7_writer w = {{0, 0}, 0};
    unsigned ns = m->subsets;
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
    for (unsigned i = 0; i < 16; i++) out[i] = (uint8_t)(w.half[i >> 3] >> (8 * (i & 7)));
}

/* ---- levels ----------------------------------------------------------------------------- */

typedef struct bc7_level_cfg {
    unsigned parts2;        /* best-ranked two-subset partitions encoded in modes 1 and 3 */
    unsigned parts7;        /* ... in mode 7 (blocks with alpha) */
    unsigned parts3;        /* ... three-subset partitions in mode 2 */
    unsigned parts0;        /* ... three-subset partitions (of the first 16) in mode 0 */
    uint32_t skip3;         /* three-subset modes only while the best error is above this */
    unsigned rot45;         /* rotations (best-ranked first) of modes 4 and 5 on opaque blocks */
    unsigned ls_rounds;     /* least-squares refinement rounds per subset during the search */
    unsigned polish;        /* winners re-encoded with endpoint nudging (BC7_MAX_CAND max) */
    unsigned polish_ls;     /* least-squares rounds when re-encoding them */
    unsigned polish_passes; /* passes of the nudge */
    bool pbit_search;       /* evaluate every p-bit combination, not only the nearest */
    bool wide;              /* the nudge also moves several codes and p-bits at once */
} bc7_level_cfg;

static const bc7_level_cfg bc7_levels[3] = {
    [KILN_QUALITY_FAST] = {1, 4, 1, 0, 256, 0, 2, 0, 1, 1, false, false},
    [KILN_QUALITY_NORMAL] = {2, 4, 1, 1, 256, 1, 1, 1, 2, 2, false, true},
    [KILN_QUALITY_HIGH] = {6, 8, 4, 4, 0, 3, 2, 6, 3, 3, true, true},
};

/* Forced inlining lets every loop over channels specialise for the constant channel count. */
#if defined(__GNUC__)
#define BC7_INLINE static inline __attribute__((always_inline))
#else
#define BC7_INLINE static inline
#endif

/* The two loops that dominate (fitting a subset, scoring partitions) are also compiled for AVX2
 * and chosen at load time (GCC on x86-64 Linux, through an ifunc; kept off under ASan and TSan, as
 * ifunc resolvers run before sanitizer run-times are set up; KILN_BC7_PORTABLE turns it off).
 * Vector width does not change results: the vectorised loops are integer or elementwise float,
 * and AVX2 alone enables no FMA contraction. tests/bc7 compares both paths. */
#if defined(__x86_64__) && defined(__linux__) && !defined(__clang__) && defined(__GNUC__) &&       \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(KILN_BC7_PORTABLE)
#define BC7_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BC7_CLONES
#endif

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
    int v[4][16]; /* [channel][texel]: loops over texels vectorise */
    unsigned n;
} bc7_pixels;

BC7_INLINE int bc7_dequant(const bc7_spec *sp, unsigned c, unsigned code, unsigned p)
{
    return sp->pmode ? kiln_bc7_expand(code << 1 | p, sp->bits[c] + 1)
                     : kiln_bc7_expand(code, sp->bits[c]);
}

/* Nearest code (under p-bit p) to the 8-bit value f; *value receives its expansion. Scaling
 * gives a guess within one step (bit replication rounds the exact scale), and expansion is
 * monotonic, so the nearest code is the guess or its neighbour on f's side. */
BC7_INLINE unsigned bc7_quant(const bc7_spec *sp, unsigned c, float f, unsigned p, int *value)
{
    unsigned bits = sp->bits[c];
    int maxq = (int)(1u << bits) - 1, q;
    if (sp->pmode)
        q = (int)((f * (float)((2u << bits) - 1) * (1.0f / 255.0f) - (float)p) * 0.5f + 0.5f);
    else q = (int)(f * (float)maxq * (1.0f / 255.0f) + 0.5f);
    q = q < 0 ? 0 : q > maxq ? maxq : q;
    int v = bc7_dequant(sp, c, (unsigned)q, p);
    float e = (float)v - f;
    int q2 = e > 0.0f ? q - 1 : q + 1;
    if (q2 >= 0 && q2 <= maxq) {
        int v2 = bc7_dequant(sp, c, (unsigned)q2, p);
        float e2 = (float)v2 - f;
        if (e2 * e2 < e * e) q = q2, v = v2;
    }
    *value = v;
    return (unsigned)q;
}

/* Exact error of the pixels under quantised endpoints, choosing each pixel's index among the
 * two palette entries whose weights bracket its projection onto the endpoint line (the weights
 * are within half a step of uniform, so the nearest entry is one of them; trying every entry
 * measured no better). Weight j is round(64 j / (np - 1)), which is what the specification's
 * tables hold; computing it rather than looking it up leaves the loop without gathers, so it
 * vectorises, and the arithmetic is exact, so any vector width gives the scalar result. nc is a
 * constant at each call site, so the channel loops unroll. */
BC7_INLINE uint32_t bc7_eval_nc(const bc7_pixels *px, const bc7_spec *sp, const uint8_t code[2][4],
                                const uint8_t p[2], uint8_t idx[16], const unsigned nc)
{
    unsigned np = 1u << sp->ib;
    int e[2][4] = {{0}}, dir[4] = {0}, dd = 0;
    for (unsigned c = 0; c < nc; c++) {
        e[0][c] = bc7_dequant(sp, c, code[0][c], p[0]);
        e[1][c] = bc7_dequant(sp, c, code[1][c], p[1]);
        dir[c] = e[1][c] - e[0][c], dd += dir[c] * dir[c];
    }
    float scale = dd > 0 ? (float)(np - 1) / (float)dd : 0.0f, step = 64.0f / (float)(np - 1);
    int jmax = (int)np - 2;
    uint32_t err[16], total = 0;
    int32_t ix[16];
    for (unsigned i = 0; i < px->n; i++) {
        int dot = 0;
        for (unsigned c = 0; c < nc; c++) dot += (px->v[c][i] - e[0][c]) * dir[c];
        /* Clamps as two selects: GCC if-converts these, not a nested conditional. */
        int j = (int)((float)dot * scale);
        j = j > 0 ? j : 0;
        j = j < jmax ? j : jmax;
        int wa = (int)((float)j * step + 0.5f), wb = (int)((float)(j + 1) * step + 0.5f);
        int da = 0, db = 0;
        for (unsigned c = 0; c < nc; c++) {
            int ta = px->v[c][i] - (((64 - wa) * e[0][c] + wa * e[1][c] + 32) >> 6);
            int tb = px->v[c][i] - (((64 - wb) * e[0][c] + wb * e[1][c] + 32) >> 6);
            da += ta * ta, db += tb * tb;
        }
        ix[i] = db < da ? j + 1 : j;
        err[i] = (uint32_t)(db < da ? db : da);
    }
    for (unsigned i = 0; i < px->n; i++) idx[i] = (uint8_t)ix[i], total += err[i];
    return total;
}

/* Quantises float endpoints and keeps the result in *best if it beats it. With `search`, every
 * allowed p-bit combination is evaluated; otherwise only the one whose quantised endpoints lie
 * closest to the float ones (one evaluation instead of up to four, for little loss). */
BC7_INLINE void bc7_try_endpoints(const bc7_pixels *px, const bc7_spec *sp, const float ef[2][4],
                                  bool search, bc7_fit *best, const unsigned nc)
{
    static const uint8_t combos[4][2] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}};
    unsigned ncombo = sp->pmode == BC7_P_NONE ? 1 : sp->pmode == BC7_P_SHARED ? 2 : 4;
    uint8_t code[2][2][4] = {{{0}}}; /* [p][endpoint][channel] */
    float qerr[2][2] = {{0}};        /* [p][endpoint] */
    for (unsigned p = 0; p < (sp->pmode ? 2u : 1u); p++)
        for (unsigned e = 0; e < 2; e++)
            for (unsigned c = 0; c < nc; c++) {
                int v;
                code[p][e][c] = (uint8_t)bc7_quant(sp, c, ef[e][c], p, &v);
                float d = (float)v - ef[e][c];
                qerr[p][e] += d * d;
            }
    unsigned first = 0, last = ncombo;
    if (!search && ncombo > 1) {
        float bq = 1e30f;
        for (unsigned k = 0; k < ncombo; k++) {
            unsigned p0 = combos[k][0], p1 = combos[k][1];
            if (!(sp->pmask & (1u << (p0 | p1 << 1)))) continue;
            float q = qerr[p0][0] + qerr[p1][1];
            if (q < bq) bq = q, first = k;
        }
        last = first + 1;
    }
    for (unsigned k = first; k < last; k++) {
        uint8_t p[2] = {combos[k][0], combos[k][1]};
        if (sp->pmode && !(sp->pmask & (1u << (p[0] | p[1] << 1)))) continue;
        bc7_fit f;
        f.p[0] = p[0], f.p[1] = p[1];
        memcpy(f.code[0], code[p[0]][0], 4);
        memcpy(f.code[1], code[p[1]][1], 4);
        f.err = bc7_eval_nc(px, sp, f.code, f.p, f.idx, nc);
        if (f.err < best->err) *best = f;
    }
}

/* A subset of one colour: search endpoint codes that interpolate to it exactly (or closest)
 * for every p-bit combination and index, channel by channel. */
static void bc7_fit_single(const bc7_pixels *px, const bc7_spec *sp, bc7_fit *best)
{
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
                int v = px->v[c][0];
                int unused;
                unsigned q0 = bc7_quant(sp, c, (float)v, p[0], &unused);
                unsigned q1 = bc7_quant(sp, c, (float)v, p[1], &unused);
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
BC7_INLINE bool bc7_axis(const bc7_pixels *px, const unsigned nc, float mean[4], float axis[4])
{
    float cov[4][4] = {{0}};
    for (unsigned c = 0; c < 4; c++) mean[c] = 0, axis[c] = 0;
    for (unsigned i = 0; i < px->n; i++)
        for (unsigned c = 0; c < nc; c++) mean[c] += (float)px->v[c][i];
    for (unsigned c = 0; c < nc; c++) mean[c] /= (float)px->n;
    for (unsigned i = 0; i < px->n; i++) {
        float d[4];
        for (unsigned c = 0; c < nc; c++) d[c] = (float)px->v[c][i] - mean[c];
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
    for (unsigned it = 0; it < 3; it++) {
        float t[4] = {0}, m = 0;
        for (unsigned a = 0; a < nc; a++) {
            for (unsigned b = 0; b < nc; b++) t[a] += cov[a][b] * v[b];
            float at = t[a] < 0 ? -t[a] : t[a];
            if (at > m) m = at;
        }
        if (m <= 0.0f) break;
        float im = 1.0f / m;
        for (unsigned a = 0; a < nc; a++) v[a] = t[a] * im;
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
BC7_INLINE bool bc7_least_squares(const bc7_pixels *px, const bc7_spec *sp, const uint8_t idx[16],
                                  float ef[2][4], const unsigned nc)
{
    const uint8_t *w = kiln_bc7_weights(sp->ib);
    float a = 0, b = 0, c2 = 0, x0[4] = {0}, x1[4] = {0};
    for (unsigned i = 0; i < px->n; i++) {
        float t = (float)w[idx[i]] * (1.0f / 64.0f), s = 1.0f - t;
        a += s * s, b += s * t, c2 += t * t;
        for (unsigned c = 0; c < nc; c++) {
            x0[c] += s * (float)px->v[c][i];
            x1[c] += t * (float)px->v[c][i];
        }
    }
    float det = a * c2 - b * b;
    if (det < 1e-4f) return false;
    float inv = 1.0f / det;
    for (unsigned c = 0; c < nc; c++) {
        ef[0][c] = bc7_clamp255((c2 * x0[c] - b * x1[c]) * inv);
        ef[1][c] = bc7_clamp255((a * x1[c] - b * x0[c]) * inv);
    }
    return true;
}

/* Moves the single-code nudge cannot make: both endpoints of a channel together, a whole
 * endpoint up or down in every channel, and flipped p-bits. True if the error fell. */
BC7_INLINE bool bc7_polish_wide(const bc7_pixels *px, const bc7_spec *sp, bc7_fit *best,
                                const unsigned nc)
{
    static const int8_t moves[8][2] = {{1, 1}, {-1, -1}, {1, -1}, {-1, 1},
                                       {1, 0}, {-1, 0},  {0, 1},  {0, -1}};
    bool improved = false;
    for (unsigned k = 0; k < 4 + 4 + 4; k++) {
        bc7_fit f = *best;
        bool ok = true;
        if (k < 4) {
            /* both endpoints of every channel together: a shift or a stretch of the line */
            for (unsigned c = 0; c < nc && ok; c++) {
                int maxq = (int)(1u << sp->bits[c]) - 1;
                int q0 = f.code[0][c] + moves[k][0], q1 = f.code[1][c] + moves[k][1];
                ok = q0 >= 0 && q1 >= 0 && q0 <= maxq && q1 <= maxq;
                if (ok) f.code[0][c] = (uint8_t)q0, f.code[1][c] = (uint8_t)q1;
            }
        } else if (k < 8) {
            /* one endpoint up or down in every channel */
            unsigned e = (k - 4) >> 1;
            int d = (k & 1) ? -1 : 1;
            for (unsigned c = 0; c < nc && ok; c++) {
                int q = f.code[e][c] + d;
                ok = q >= 0 && q <= (int)(1u << sp->bits[c]) - 1;
                if (ok) f.code[e][c] = (uint8_t)q;
            }
        } else {
            /* p-bits flipped, each code moved so the value stays near */
            if (sp->pmode == BC7_P_NONE) break;
            unsigned which = k - 8;
            if (sp->pmode == BC7_P_SHARED && which > 0) break;
            uint8_t np0 = f.p[0], np1 = f.p[1];
            if (sp->pmode == BC7_P_SHARED) np0 ^= 1, np1 ^= 1;
            else if (which == 0) np0 ^= 1;
            else if (which == 1) np1 ^= 1;
            else if (which == 2) np0 ^= 1, np1 ^= 1;
            else break;
            if (!(sp->pmask & (1u << (np0 | np1 << 1)))) continue;
            for (unsigned e = 0; e < 2; e++) {
                unsigned np = e ? np1 : np0;
                if (np == f.p[e]) continue;
                for (unsigned c = 0; c < nc; c++) {
                    int v = bc7_dequant(sp, c, f.code[e][c], f.p[e]);
                    f.code[e][c] = (uint8_t)bc7_quant(sp, c, (float)v, np, &v);
                }
            }
            f.p[0] = np0, f.p[1] = np1;
        }
        if (!ok) continue;
        f.err = bc7_eval_nc(px, sp, f.code, f.p, f.idx, nc);
        if (f.err < best->err) *best = f, improved = true;
    }
    return improved;
}

/* Endpoint search around the rounding points: each endpoint channel moves one code up or down
 * while that lowers the error with the indices chosen again. Rounding the least-squares
 * endpoints channel by channel misses these moves, and they pay more than any other step. */
BC7_INLINE void bc7_polish(const bc7_pixels *px, const bc7_spec *sp, const bc7_level_cfg *cfg,
                           bc7_fit *best, const unsigned nc)
{
    for (unsigned pass = 0; pass < cfg->polish_passes && best->err > 0; pass++) {
        bool improved = false;
        for (unsigned e = 0; e < 2; e++)
            for (unsigned c = 0; c < nc; c++)
                for (int d = -1; d <= 1; d += 2) {
                    int q = best->code[e][c] + d;
                    if (q < 0 || q > (int)((1u << sp->bits[c]) - 1)) continue;
                    bc7_fit f = *best;
                    f.code[e][c] = (uint8_t)q;
                    f.err = bc7_eval_nc(px, sp, f.code, f.p, f.idx, nc);
                    if (f.err < best->err) {
                        *best = f, improved = true;
                        break; /* the other direction is back where we came from */
                    }
                }
        if (!improved && cfg->wide) improved = bc7_polish_wide(px, sp, best, nc);
        if (!improved) break;
    }
}

/* Encodes one subset: the best quantised endpoints, p-bits and indices found. */
BC7_INLINE void bc7_fit_subset_nc(const bc7_pixels *px, const bc7_spec *sp,
                                  const bc7_level_cfg *cfg, bool polish, bc7_fit *best,
                                  const unsigned nc)
{
    memset(best, 0, sizeof *best);
    best->err = UINT32_MAX;
    float mean[4], axis[4];
    if (!bc7_axis(px, nc, mean, axis)) {
        bc7_fit_single(px, sp, best);
        return;
    }
    float tmin = 1e30f, tmax = -1e30f;
    for (unsigned i = 0; i < px->n; i++) {
        float t = 0;
        for (unsigned c = 0; c < nc; c++) t += ((float)px->v[c][i] - mean[c]) * axis[c];
        if (t < tmin) tmin = t;
        if (t > tmax) tmax = t;
    }
    float ef[2][4] = {{0}};
    for (unsigned c = 0; c < nc; c++) {
        ef[0][c] = bc7_clamp255(mean[c] + axis[c] * tmin);
        ef[1][c] = bc7_clamp255(mean[c] + axis[c] * tmax);
    }
    bc7_try_endpoints(px, sp, ef, cfg->pbit_search, best, nc);
    unsigned rounds = polish && cfg->polish_ls > cfg->ls_rounds ? cfg->polish_ls : cfg->ls_rounds;
    for (unsigned r = 0; r < rounds && best->err > 0; r++) {
        uint32_t before = best->err;
        uint8_t idx[16];
        memcpy(idx, best->idx, sizeof idx);
        if (!bc7_least_squares(px, sp, best->idx, ef, nc)) break;
        bc7_try_endpoints(px, sp, ef, cfg->pbit_search, best, nc);
        /* Unchanged indices would give the same least-squares endpoints again. */
        if (best->err >= before || !memcmp(idx, best->idx, px->n)) break;
    }
    if (polish && best->err > 0) bc7_polish(px, sp, cfg, best, nc);
}

BC7_CLONES static void bc7_fit_subset(const bc7_pixels *px, const bc7_spec *sp,
                                      const bc7_level_cfg *cfg, bool polish, bc7_fit *best)
{
    switch (sp->nc) {
    case 1:
        bc7_fit_subset_nc(px, sp, cfg, polish, best, 1);
        break;
    case 3:
        bc7_fit_subset_nc(px, sp, cfg, polish, best, 3);
        break;
    default:
        bc7_fit_subset_nc(px, sp, cfg, polish, best, 4);
        break;
    }
}

/* ---- whole blocks ----------------------------------------------------------------------- */

/* A candidate that was the best so far when it was encoded, to be polished at the end. */
typedef struct bc7_cand {
    uint8_t mode, partition, rotation, isb;
    uint32_t err;
} bc7_cand;
#define BC7_MAX_CAND 8

typedef struct bc7_ctx {
    int px[16][4];
    bool opaque;
    bool polish; /* the final pass: fits nudge their endpoints */
    const bc7_level_cfg *cfg;
    kiln_bc7_block best;
    uint32_t best_err;
    bc7_cand cand[BC7_MAX_CAND]; /* the best candidates so far, best first */
    unsigned ncand;
} bc7_ctx;

/* Swaps a subset's endpoints when its anchor index has the top bit set, mirroring indices. */
static void bc7_fix_anchor(uint8_t code[2][4], uint8_t p[2], uint8_t *idx, const uint8_t *part,
                           unsigned subset, unsigned anchor, unsigned ib, unsigned nc0,
                           unsigned nc1)
{
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

/* Error a candidate must stay under to matter: the best's while polishing, else the worst
 * of the candidates kept for polishing (so that they are encoded in full). */
static uint32_t bc7_limit(const bc7_ctx *x)
{
    unsigned k = x->cfg->polish;
    if (x->polish || k <= 1) return x->best_err;
    return x->ncand < k ? UINT32_MAX : x->cand[k - 1].err;
}

static void bc7_consider(bc7_ctx *x, const kiln_bc7_block *b, uint32_t err)
{
    if (err < x->best_err) x->best_err = err, x->best = *b;
    if (x->polish) return;
    unsigned k = x->cfg->polish < BC7_MAX_CAND ? x->cfg->polish : BC7_MAX_CAND;
    unsigned i = x->ncand < k ? x->ncand++ : k;
    if (i == k && (k == 0 || err >= x->cand[k - 1].err)) return;
    if (i == k) i--;
    while (i > 0 && x->cand[i - 1].err > err) x->cand[i] = x->cand[i - 1], i--;
    x->cand[i] = (bc7_cand){(uint8_t)b->mode, (uint8_t)b->partition, (uint8_t)b->rotation,
                            (uint8_t)b->isb, err};
}

/* Modes 0-3, 6 and 7: every channel shares one index per texel. */
static void bc7_try_mode(bc7_ctx *x, unsigned mode, unsigned partition)
{
    const kiln_bc7_mode_info *m = &kiln_bc7_modes[mode];
    unsigned ns = m->subsets;
    const uint8_t *part = kiln_bc7_partition_row(ns, partition);
    bool alpha = m->alpha_bits && !x->opaque;
    bc7_spec sp = {alpha ? 4u : 3u,
                   {m->color_bits, m->color_bits, m->color_bits, m->alpha_bits},
                   m->endpoint_pbits ? BC7_P_ENDPOINT
                   : m->shared_pbits ? BC7_P_SHARED
                                     : BC7_P_NONE,
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
                for (unsigned c = 0; c < 4; c++) px.v[c][px.n] = x->px[i][c];
                map[px.n++] = i;
            }
        bc7_fit f;
        bc7_fit_subset(&px, &sp, x->cfg, x->polish, &f);
        err += f.err;
        if (err >= bc7_limit(x)) return;
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
static void bc7_try_mode45(bc7_ctx *x, unsigned mode, unsigned rotation, unsigned isb)
{
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
        for (unsigned c = 0; c < 4; c++) cp.v[c][i] = v[c];
        ap.v[0][i] = v[3];
    }
    bc7_fit cf, af;
    bc7_fit_subset(&cp, &cs, x->cfg, x->polish, &cf);
    if (cf.err >= bc7_limit(x)) return;
    /* Opaque: the channel holding the rotated-in alpha must decode as 255 at every texel (the
     * fit gets it exact, but a nudge may trade it for the other channels). */
    if (x->opaque && rotation) {
        const uint8_t *w = kiln_bc7_weights(cib);
        int e0 = kiln_bc7_expand(cf.code[0][rotation - 1], m->color_bits);
        int e1 = kiln_bc7_expand(cf.code[1][rotation - 1], m->color_bits);
        for (unsigned i = 0; i < 16; i++)
            if (kiln_bc7_interp(e0, e1, w[cf.idx[i]]) != 255) return;
    }
    bc7_fit_subset(&ap, &as, x->cfg, x->polish, &af);
    uint32_t err = cf.err + af.err;
    if (err >= bc7_limit(x)) return;
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

/* Moments for ranking partitions: per texel, RGB and their 6 pairwise products, 1 (so the sums
 * count texels), then alpha and its 4 products (zero for opaque blocks, whose sums stop after
 * the first 12 entries). Sums over any subset of texels come from per-row tables: for
 * each row of four texels, the sums over each of its 16 texel subsets; a partition's subset is
 * then four table rows added up. All sums are exact integers. */
#define BC7_NM 16
typedef struct bc7_moments {
    int32_t row[4][16][BC7_NM];
    float axis[4]; /* the whole block's principal axis: power iteration's start */
    unsigned nc;   /* 3 for opaque blocks, else 4 */
} bc7_moments;

static void bc7_moments_init(const bc7_ctx *x, bc7_moments *mo)
{
    for (unsigned r = 0; r < 4; r++) {
        memset(mo->row[r][0], 0, sizeof mo->row[r][0]);
        for (unsigned mask = 1; mask < 16; mask++) {
            unsigned t = 0;
            while (!((mask >> t) & 1u)) t++;
            int v[4];
            for (unsigned c = 0; c < 4; c++) v[c] = x->opaque && c == 3 ? 0 : x->px[4 * r + t][c];
            int m[BC7_NM] = {v[0],        v[1],        v[2],        v[0] * v[0],
                             v[0] * v[1], v[0] * v[2], v[1] * v[1], v[1] * v[2],
                             v[2] * v[2], 1,           v[3],        v[0] * v[3],
                             v[1] * v[3], v[2] * v[3], v[3] * v[3], 0};
            const int32_t *prev = mo->row[r][mask & (mask - 1)];
            for (unsigned j = 0; j < BC7_NM; j++) mo->row[r][mask][j] = prev[j] + m[j];
        }
    }
    mo->nc = x->opaque ? 3 : 4;
    bc7_pixels all;
    all.n = 16;
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 4; c++) all.v[c][i] = x->px[i][c];
    float mean[4];
    if (!bc7_axis(&all, mo->nc, mean, mo->axis)) {
        mo->axis[0] = mo->axis[1] = mo->axis[2] = 0.57735f;
        mo->axis[3] = 0.0f;
    }
}

BC7_INLINE void bc7_subset_sums(const bc7_moments *mo, unsigned mask, int32_t out[BC7_NM],
                                const unsigned nm)
{
    const int32_t *r0 = mo->row[0][mask & 15], *r1 = mo->row[1][(mask >> 4) & 15],
                  *r2 = mo->row[2][(mask >> 8) & 15], *r3 = mo->row[3][(mask >> 12) & 15];
    for (unsigned j = 0; j < nm; j++) out[j] = r0[j] + r1[j] + r2[j] + r3[j];
}

/* For one subset of each of the 64 partitions, the error a line fit leaves (the scatter
 * matrix's trace minus its largest eigenvalue) is added to res, and the scatter along the line
 * (that eigenvalue) to along. The eigenvalue is the Rayleigh quotient after two power steps from
 * the block's axis. The loop runs over partitions with no dependence between them, so it
 * vectorises; every operation is elementwise, so vector and scalar code give the same floats.
 * The scatter sums are exact in float: n * sum(ab) and sum(a) * sum(b) stay below 2^24. */
BC7_INLINE void bc7_residuals(const int32_t sum[BC7_NM][64], const float start[4], float res[64],
                              float along[64], const unsigned nc)
{
    const int32_t *n = sum[9]; /* the texel count is a moment too */
    const bool four = nc == 4; /* a constant: the alpha terms fold away for opaque blocks */
    const float t0 = start[0], t1 = start[1], t2 = start[2], t3 = four ? start[3] : 0.0f;
    for (unsigned p = 0; p < 64; p++) {
        /* Divisors made non-zero without a branch: GCC will not if-convert a division. */
        float fn = (float)n[p], inv = 1.0f / (float)(n[p] + (n[p] == 0));
        float r = (float)sum[0][p], g = (float)sum[1][p], b = (float)sum[2][p];
        float al = four ? (float)sum[10][p] : 0.0f;
        /* Scatter matrix entries (n times the covariance, divided by n). */
        float c00 = (fn * (float)sum[3][p] - r * r) * inv,
              c01 = (fn * (float)sum[4][p] - r * g) * inv;
        float c02 = (fn * (float)sum[5][p] - r * b) * inv,
              c11 = (fn * (float)sum[6][p] - g * g) * inv;
        float c12 = (fn * (float)sum[7][p] - g * b) * inv,
              c22 = (fn * (float)sum[8][p] - b * b) * inv;
        float c03 = 0.0f, c13 = 0.0f, c23 = 0.0f, c33 = 0.0f;
        if (four) {
            c03 = (fn * (float)sum[11][p] - r * al) * inv,
            c13 = (fn * (float)sum[12][p] - g * al) * inv;
            c23 = (fn * (float)sum[13][p] - b * al) * inv,
            c33 = (fn * (float)sum[14][p] - al * al) * inv;
        }
        float trace = c00 + c11 + c22 + c33;
        float u0 = c00 * t0 + c01 * t1 + c02 * t2 + c03 * t3;
        float u1 = c01 * t0 + c11 * t1 + c12 * t2 + c13 * t3;
        float u2 = c02 * t0 + c12 * t1 + c22 * t2 + c23 * t3;
        float u3 = c03 * t0 + c13 * t1 + c23 * t2 + c33 * t3;
        float w0 = c00 * u0 + c01 * u1 + c02 * u2 + c03 * u3;
        float w1 = c01 * u0 + c11 * u1 + c12 * u2 + c13 * u3;
        float w2 = c02 * u0 + c12 * u1 + c22 * u2 + c23 * u3;
        float w3 = c03 * u0 + c13 * u1 + c23 * u2 + c33 * u3;
        float d11 = u0 * u0 + u1 * u1 + u2 * u2 + u3 * u3;
        float d21 = w0 * u0 + w1 * u1 + w2 * u2 + w3 * u3;
        /* No division or addition under a condition: GCC will not if-convert one (it might
         * trap), and the loop would not vectorise. d11 is 0 only when d21 is, and otherwise
         * far above 1e-30, so adding that changes nothing but 0 / 0. */
        float lambda = d21 / (d11 + 1e-30f), left = trace - lambda;
        float keep = (float)((n[p] > 1) & (trace > 0.0f));
        res[p] += keep * (left > 0.0f ? left : 0.0f);
        along[p] += keep * lambda;
    }
}

/* Scores every partition of `subsets` subsets for 2-bit indices (score[0]) and 3-bit indices
 * (score[1]): the error line fits leave in its subsets, plus the error of rounding positions
 * along each line to 4 or 8 levels. For texels spread evenly along a line, that rounding costs
 * the scatter along the line divided by (levels - 1)^2; the factor 0.35 was tuned on the Kodak
 * photos (texels are rarely spread evenly). */
BC7_INLINE void bc7_score_partitions_nc(const bc7_moments *mo, unsigned subsets, float score[2][64],
                                        const unsigned nc)
{
    const unsigned nm = nc == 3 ? 12u : BC7_NM;
    int32_t total[BC7_NM], sum[BC7_NM][64], rest[BC7_NM][64];
    float res[64] = {0}, along[64] = {0};
    bc7_subset_sums(mo, 0xffffu, total, nm);
    for (unsigned j = 0; j < nm; j++)
        for (unsigned p = 0; p < 64; p++) rest[j][p] = total[j];
    for (unsigned s = 1; s < subsets; s++) {
        for (unsigned p = 0; p < 64; p++) {
            int32_t t[BC7_NM];
            bc7_subset_sums(mo, subsets == 2 ? kiln_bc7_mask2[p] : kiln_bc7_mask3[p][s - 1], t, nm);
            for (unsigned j = 0; j < nm; j++) sum[j][p] = t[j];
        }
        for (unsigned j = 0; j < nm; j++)
            for (unsigned p = 0; p < 64; p++) rest[j][p] -= sum[j][p];
        bc7_residuals((const int32_t(*)[64])sum, mo->axis, res, along, nc);
    }
    bc7_residuals((const int32_t(*)[64])rest, mo->axis, res, along, nc);
    for (unsigned p = 0; p < 64; p++) {
        score[0][p] = res[p] + along[p] * (0.35f / 9.0f);
        score[1][p] = res[p] + along[p] * (0.35f / 49.0f);
    }
}

/* Scores every partition of `subsets` subsets by the error line fits leave in its subsets. */
BC7_CLONES static void bc7_score_partitions(const bc7_moments *mo, unsigned subsets,
                                            float score[2][64])
{
    if (mo->nc == 3) bc7_score_partitions_nc(mo, subsets, score, 3);
    else bc7_score_partitions_nc(mo, subsets, score, 4);
}

/* Orders the rotations 1..3 of modes 4 and 5 for an opaque block, most promising first. A
 * rotation moves one colour channel into the separately indexed scalar, leaving the other two
 * on a line (the rotated-in alpha is constant); its score is the error a line fit leaves in
 * those two channels plus the cost of rounding positions on that line to 4 levels. */
static void bc7_rank_rotations(const bc7_moments *mo, uint8_t rot[3])
{
    static const uint8_t pair[3][3] = {{3, 4, 5}, {4, 6, 7}, {5, 7, 8}};
    int32_t sum[BC7_NM];
    bc7_subset_sums(mo, 0xffffu, sum, BC7_NM);
    float cov[3][3], score[3];
    for (unsigned a = 0; a < 3; a++)
        for (unsigned b = 0; b < 3; b++)
            cov[a][b] = (float)(16 * sum[pair[a][b]] - sum[a] * sum[b]) * (1.0f / 16.0f);
    for (unsigned r = 0; r < 3; r++) {
        unsigned a = r == 0 ? 1u : 0u, b = r == 2 ? 1u : 2u;
        float caa = cov[a][a], cbb = cov[b][b], cab = cov[a][b], h = 0.5f * (caa - cbb);
        float lambda = 0.5f * (caa + cbb) + sqrtf(h * h + cab * cab);
        score[r] = caa + cbb - lambda + lambda * (0.35f / 9.0f);
    }
    for (unsigned r = 0; r < 3; r++) {
        unsigned k = r;
        while (k > 0 && score[rot[k - 1] - 1] > score[r]) rot[k] = rot[k - 1], k--;
        rot[k] = (uint8_t)(r + 1);
    }
}

/* The k best (lowest-scoring) of partitions 0 .. count-1, best first; ties keep the lower
 * partition number. Returns how many were written (min(k, count)). */
static unsigned bc7_best_partitions(const float score[64], unsigned count, unsigned k,
                                    uint8_t order[64])
{
    unsigned n = 0;
    if (k == 0) return 0;
    if (k == 1) { /* the first lowest: what the general loop below gives, cheaper */
        unsigned b = 0;
        for (unsigned p = 1; p < count; p++) b = score[p] < score[b] ? p : b;
        order[0] = (uint8_t)b;
        return 1;
    }
    for (unsigned p = 0; p < count; p++) {
        if (n == k && !(score[p] < score[order[n - 1]])) continue;
        unsigned i = n < k ? n++ : n - 1;
        while (i > 0 && score[order[i - 1]] > score[p]) order[i] = order[i - 1], i--;
        order[i] = (uint8_t)p;
    }
    return n;
}

void kiln_bc7_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[16])
{
    bc7_ctx x;
    unsigned q =
        o && (unsigned)o->quality <= KILN_QUALITY_HIGH ? (unsigned)o->quality : KILN_QUALITY_NORMAL;
    x.cfg = &bc7_levels[q];
    x.opaque = true;
    for (unsigned i = 0; i < 16; i++) {
        for (unsigned c = 0; c < 4; c++) x.px[i][c] = rgba[4 * i + c];
        if (rgba[4 * i + 3] != 255) x.opaque = false;
    }
    x.best_err = UINT32_MAX;
    x.polish = false;
    x.ncand = 0;
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
    uint8_t order[64];
    float score[2][64];
    bc7_moments mo;
    bc7_moments_init(&x, &mo);
    if (x.opaque) {
        if (x.best_err > 0) {
            bc7_score_partitions(&mo, 2, score);
            unsigned n = bc7_best_partitions(score[1], 64, x.cfg->parts2, order);
            for (unsigned k = 0; k < n && x.best_err > 0; k++) bc7_try_mode(&x, 1, order[k]);
            n = bc7_best_partitions(score[0], 64, x.cfg->parts2, order);
            for (unsigned k = 0; k < n && x.best_err > 0; k++) bc7_try_mode(&x, 3, order[k]);
        }
        /* When two subsets already do well, three rarely do better. */
        if (x.best_err > x.cfg->skip3 && (x.cfg->parts3 || x.cfg->parts0)) {
            bc7_score_partitions(&mo, 3, score);
            unsigned n = bc7_best_partitions(score[0], 64, x.cfg->parts3, order);
            for (unsigned k = 0; k < n && x.best_err > 0; k++) bc7_try_mode(&x, 2, order[k]);
            n = bc7_best_partitions(score[1], 16, x.cfg->parts0, order);
            for (unsigned k = 0; k < n && x.best_err > 0; k++) bc7_try_mode(&x, 0, order[k]);
        }
        if (x.cfg->rot45 && x.best_err > 0) {
            uint8_t rot[3];
            bc7_rank_rotations(&mo, rot);
            for (unsigned k = 0; k < x.cfg->rot45 && x.best_err > 0; k++) {
                unsigned r = rot[k];
                bc7_try_mode45(&x, 5, r, 0);
                bc7_try_mode45(&x, 4, r, 0);
                bc7_try_mode45(&x, 4, r, 1);
            }
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
            bc7_score_partitions(&mo, 2, score);
            unsigned n = bc7_best_partitions(score[0], 64, x.cfg->parts7, order);
            for (unsigned k = 0; k < n && x.best_err > 0; k++) bc7_try_mode(&x, 7, order[k]);
        }
    }
    if (x.best_err > 0 && x.cfg->polish) {
        /* Nudging endpoints pays most where it is applied to the winners only. */
        bc7_cand cand[BC7_MAX_CAND];
        unsigned n = x.ncand < x.cfg->polish ? x.ncand : x.cfg->polish;
        memcpy(cand, x.cand, sizeof cand);
        x.polish = true;
        for (unsigned k = 0; k < n && x.best_err > 0; k++) {
            if (cand[k].mode == 4 || cand[k].mode == 5)
                bc7_try_mode45(&x, cand[k].mode, cand[k].rotation, cand[k].isb);
            else bc7_try_mode(&x, cand[k].mode, cand[k].partition);
        }
    }
    kiln_bc7_pack(&x.best, out);
    /* Modes 0 to 3 have no alpha (it decodes as 255); modes 6 and 7 keep all-ones alpha codes
     * with p-bits 1 on opaque blocks (bc7_try_mode), so only modes 4 and 5 need the check. */
    if (x.opaque && (x.best.mode == 4 || x.best.mode == 5)) {
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
