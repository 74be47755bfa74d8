/* bc4.c — kiln's BC4 (one channel) and BC5 (two BC4 blocks: R then G) encoders
 * (Khronos Data Format Specification 1.3, section 21.3 "BC4": two 8-bit endpoints and 3-bit
 * indices, texel 0 in the low bits). With a0 > a1 the indices 2..7 name six interpolants
 * ((8-i)*a0 + (i-1)*a1) / 7; otherwise 2..5 name four interpolants ((6-i)*a0 + (i-1)*a1) / 5,
 * and 6, 7 name 0 and 255. The divisions truncate, as in Mesa's u_format_rgtc and Pillow.
 *
 * The encoder starts from the block's minimum and maximum, then searches: least-squares refits
 * of the endpoints from the chosen indices, endpoints moved inward and outward by a few steps,
 * and the 6-value mode when the block reaches 0 or 255. Every candidate is scored by the exact
 * squared error of the decoded values with per-texel nearest indices. BC5 normal maps store X
 * and Y this way; the shader rebuilds Z. The decoders are in src/codec/bc_decode.c, the palette
 * in format/block_decode.h. */
#include "process/bc1.h"

#include <string.h>

#include "codec/block_decode.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct bc4_cand {
    uint8_t a0, a1;
    uint8_t idx[16];
    uint32_t err;
} bc4_cand;

/* Per-level search breadth. */
typedef struct bc4_effort {
    int ls_rounds; /* least-squares refits */
    int radius;    /* endpoints tried within ±radius of the current best, each end alone */
    int passes;    /* repeats of that search while it improves */
} bc4_effort;

static const bc4_effort bc4_efforts[3] = {
    {1, 1, 1}, /* fast */
    {2, 2, 2}, /* normal */
    {3, 4, 3}, /* high */
};

/* Scores endpoints (a0, a1) as given (their order picks the mode): nearest index per texel
 * (ties to the lower index) and the total squared error. */
static void bc4_eval(const int32_t v[16], int32_t a0, int32_t a1, bc4_cand *out)
{
    int32_t pal[8];
    kiln_bc4_palette(a0, a1, pal);
    uint32_t err = 0;
#if defined(__SSE2__)
    /* Four texels at a time in float: squares below 2^16 and sums below 2^21 are exact, so
     * this picks the same indices as the portable loop. */
    __m128 total = _mm_setzero_ps();
    for (int q = 0; q < 4; q++) {
        __m128 x = _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(v + 4 * q)));
        __m128 d0 = _mm_sub_ps(x, _mm_set1_ps((float)pal[0]));
        __m128 e = _mm_mul_ps(d0, d0);
        __m128i idx = _mm_setzero_si128();
        for (int k = 1; k < 8; k++) {
            __m128 dk = _mm_sub_ps(x, _mm_set1_ps((float)pal[k]));
            dk = _mm_mul_ps(dk, dk);
            __m128i lt = _mm_castps_si128(_mm_cmplt_ps(dk, e)); /* ties keep the lower */
            e = _mm_min_ps(e, dk);
            idx = _mm_or_si128(_mm_andnot_si128(lt, idx), _mm_and_si128(lt, _mm_set1_epi32(k)));
        }
        total = _mm_add_ps(total, e);
        int32_t lane[4];
        _mm_storeu_si128((__m128i *)lane, idx);
        for (int j = 0; j < 4; j++) out->idx[4 * q + j] = (uint8_t)lane[j];
    }
    float sums[4];
    _mm_storeu_ps(sums, total);
    err = (uint32_t)(sums[0] + sums[1] + sums[2] + sums[3]);
#else
    for (int i = 0; i < 16; i++) {
        int32_t e = (v[i] - pal[0]) * (v[i] - pal[0]);
        uint8_t best = 0;
        for (int k = 1; k < 8; k++) {
            int32_t d = (v[i] - pal[k]) * (v[i] - pal[k]);
            if (d < e) {
                e = d;
                best = (uint8_t)k;
            }
        }
        out->idx[i] = best;
        err += (uint32_t)e;
    }
#endif
    out->a0 = (uint8_t)a0;
    out->a1 = (uint8_t)a1;
    out->err = err;
}

static int32_t bc4_clamp(int32_t x) { return x < 0 ? 0 : x > 255 ? 255 : x; }

static void bc4_try(const int32_t v[16], int32_t a0, int32_t a1, bc4_cand *best)
{
    a0 = bc4_clamp(a0);
    a1 = bc4_clamp(a1);
    if ((a0 > a1) != (best->a0 > best->a1)) return; /* stay in the candidate's mode */
    if (a0 == best->a0 && a1 == best->a1) return;
    bc4_cand c;
    bc4_eval(v, a0, a1, &c);
    if (c.err < best->err) *best = c;
}

/* Least-squares endpoints for fixed indices. Texels on the 0/255 entries of the 6-value mode
 * take no part. Weights are in steps of 1/7 (8-value mode) or 1/5 (6-value mode). */
static void bc4_refit(const int32_t v[16], bc4_cand *best)
{
    bool eight = best->a0 > best->a1;
    int32_t n = eight ? 7 : 5;
    int64_t aa = 0, ab = 0, bb = 0, ax = 0, bx = 0;
    for (int i = 0; i < 16; i++) {
        int32_t k = best->idx[i], a;
        if (k == 0) a = n;
        else if (k == 1) a = 0;
        else if (eight || k < 6) a = n + 1 - k; /* index k sits (k-1)/n of the way to a1 */
        else continue;
        int32_t b = n - a;
        aa += a * a;
        ab += a * b;
        bb += b * b;
        ax += a * v[i];
        bx += b * v[i];
    }
    int64_t det = aa * bb - ab * ab;
    if (det == 0) return;
    /* Rounded division of the solution scaled by n, kept in integers. */
    int64_t num0 = (bb * ax - ab * bx) * n, num1 = (aa * bx - ab * ax) * n;
    int64_t e0 = num0 >= 0 ? (num0 + det / 2) / det : -((-num0 + det / 2) / det);
    int64_t e1 = num1 >= 0 ? (num1 + det / 2) / det : -((-num1 + det / 2) / det);
    int32_t a0 = bc4_clamp((int32_t)(e0 < -1 ? -1 : e0 > 256 ? 256 : e0));
    int32_t a1 = bc4_clamp((int32_t)(e1 < -1 ? -1 : e1 > 256 ? 256 : e1));
    if (eight && a0 == a1) {
        /* Equal endpoints switch to the 6-value mode; keep them one apart. */
        if (a0 < 255) a0++;
        else a1--;
    }
    if (!eight && a0 > a1) {
        int32_t s = a0;
        a0 = a1;
        a1 = s;
    }
    bc4_try(v, a0, a1, best);
}

/* Moves each endpoint alone within ±radius, then both together inward and outward, keeping
 * what lowers the error. */
static void bc4_search(const int32_t v[16], int radius, int passes, bc4_cand *best)
{
    for (int p = 0; p < passes; p++) {
        uint32_t before = best->err;
        int32_t a0 = best->a0, a1 = best->a1;
        for (int d = -radius; d <= radius; d++) {
            if (d == 0) continue;
            bc4_try(v, a0 + d, a1, best);
            bc4_try(v, a0, a1 + d, best);
            bc4_try(v, a0 + d, a1 - d, best);
        }
        if (best->err == before) break;
    }
}

static void bc4_encode_values(const int32_t v[16], const kiln_block_opts *o, uint8_t out[8])
{
    unsigned q =
        o && (unsigned)o->quality <= KILN_QUALITY_HIGH ? (unsigned)o->quality : KILN_QUALITY_NORMAL;
    const bc4_effort *eff = &bc4_efforts[q];
    int32_t lo = 255, hi = 0;
    for (int i = 0; i < 16; i++) {
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
    }
    bc4_cand best;
    if (lo == hi) {
        bc4_eval(v, lo, hi, &best); /* index 0 is the value itself, exact */
    } else {
        bc4_eval(v, hi, lo, &best);
        for (int r = 0; r < eff->ls_rounds; r++) {
            uint32_t before = best.err;
            bc4_refit(v, &best);
            if (best.err == before) break;
        }
        bc4_search(v, eff->radius, eff->passes, &best);

        /* The 6-value mode pays when some texels sit at (or near) 0 or 255: those take the
         * fixed entries and the six-step ramp spans only the rest. */
        if (best.err > 0 && (lo <= 8 || hi >= 247)) {
            int32_t ilo = 255, ihi = 0;
            for (int i = 0; i < 16; i++) {
                bool extreme = (lo <= 8 && v[i] <= 8 && v[i] * 2 < lo + hi) ||
                               (hi >= 247 && v[i] >= 247 && v[i] * 2 > lo + hi);
                if (extreme) continue;
                if (v[i] < ilo) ilo = v[i];
                if (v[i] > ihi) ihi = v[i];
            }
            if (ilo <= ihi) {
                bc4_cand six;
                bc4_eval(v, ilo, ihi, &six);
                for (int r = 0; r < eff->ls_rounds; r++) {
                    uint32_t before = six.err;
                    bc4_refit(v, &six);
                    if (six.err == before) break;
                }
                bc4_search(v, eff->radius, eff->passes, &six);
                if (six.err < best.err) best = six;
            }
        }
    }
    out[0] = best.a0;
    out[1] = best.a1;
    uint64_t bits = 0;
    for (int i = 0; i < 16; i++) bits |= (uint64_t)best.idx[i] << (3 * i);
    for (int i = 0; i < 6; i++) out[2 + i] = (uint8_t)(bits >> (8 * i));
}

void kiln_bc4_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[8])
{
    int32_t v[16];
    for (int i = 0; i < 16; i++) v[i] = rgba[i * 4];
    bc4_encode_values(v, o, out);
}

void kiln_bc5_encode_block(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t out[16])
{
    int32_t v[16];
    for (int i = 0; i < 16; i++) v[i] = rgba[i * 4];
    bc4_encode_values(v, o, out);
    for (int i = 0; i < 16; i++) v[i] = rgba[i * 4 + 1];
    bc4_encode_values(v, o, out + 8);
}
