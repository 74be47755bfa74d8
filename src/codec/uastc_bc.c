/* uastc_bc.c — UASTC to BC1 colour and BC4 (also the halves of BC3 and BC5), encoded in real time
 * from the decoded texels. BC4 is an exact nearest-value fit (endpoints = the channel's maximum
 * and minimum, each texel to the closest of the eight values, ties resolved as basisu's encoder
 * resolves them), so it equals basisu's blocks. BC1 follows basisu's real-time path (the
 * transcoder's default quality): hint 0 keeps the UASTC endpoints and weights, hint 1 keeps the
 * weights as selectors and fits endpoints by least squares, otherwise a principal-axis search
 * plus one least-squares pass; solid colours use the best-matching endpoint pair. Always the
 * 4-colour mode (BC3's colour half has no other). */
#include <math.h>
#include <string.h>

#include "codec/block_decode.h"
#include "codec/uastc.h"

void kiln_uastc_bc4_encode(const uint8_t rgba[64], unsigned chan, uint8_t out[8])
{
    int lo = 255, hi = 0;
    for (int i = 0; i < 16; i++) {
        int v = rgba[i * 4 + chan];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    memset(out, 0, 8);
    out[0] = (uint8_t)hi;
    out[1] = (uint8_t)lo;
    if (hi == lo) return;
    /* With a0 = hi > a1 = lo the palette is lo + k * delta / 7; the texel's position times 14,
     * plus 4 for the palette's truncating divisions, against the midpoints (odd multiples of
     * delta) gives how many palette steps above lo it is nearest to. */
    const int delta = hi - lo;
    static const uint8_t index_of_step[8] = {1, 7, 6, 5, 4, 3, 2, 0};
    uint64_t bits = 0;
    for (int i = 0; i < 16; i++) {
        int v = (rgba[i * 4 + chan] - lo) * 14 + 4, steps = 0;
        for (int k = 1; k <= 13; k += 2) steps += v >= delta * k;
        bits |= (uint64_t)index_of_step[steps] << (3 * i);
    }
    for (int k = 0; k < 6; k++) out[2 + k] = (uint8_t)(bits >> (8 * k));
}

/* ---- BC1 ------------------------------------------------------------------------------------ */

/* Selectors here run 0..3 from the low endpoint (BC1 colour 0) to the high one (colour 1);
 * BC1 stores 0, 2, 3, 1 for them. */
static const uint8_t bc1_code[4] = {0, 2, 3, 1};

static unsigned expand5(unsigned v) { return (v << 3) | (v >> 2); }

static unsigned expand6(unsigned v) { return (v << 2) | (v >> 4); }

/* The endpoint pair (hi, lo) of `bits` bits whose 2:1 interpolation (hi * 2 + lo) / 3 is
 * closest to v, with a small penalty on the endpoints' distance; the first found in (lo, hi)
 * order among equals. Computed on first use in the cache. */
static const uint8_t *bc1_match(kiln_uastc_bc_cache *cache, unsigned v, unsigned bits)
{
    uint8_t(*t)[2] = bits == 5 ? cache->bc1_5 : cache->bc1_6;
    const uint8_t flag = bits == 5 ? 8u : 16u;
    if (!(cache->done[v] & flag)) {
        const unsigned n = 1u << bits;
        int lowest = 256;
        for (unsigned lo = 0; lo < n; lo++) {
            for (unsigned hi = 0; hi < n; hi++) {
                int le = (int)(bits == 5 ? expand5(lo) : expand6(lo));
                int he = (int)(bits == 5 ? expand5(hi) : expand6(hi));
                int e = (he * 2 + le) / 3 - (int)v;
                e = e < 0 ? -e : e;
                e += ((he > le ? he - le : le - he) * 3) / 100;
                if (e < lowest) {
                    t[v][0] = (uint8_t)hi;
                    t[v][1] = (uint8_t)lo;
                    lowest = e;
                }
            }
        }
        cache->done[v] |= flag;
    }
    return t[v];
}

static void bc1_put(uint8_t out[8], unsigned c0, unsigned c1, uint32_t sels)
{
    out[0] = (uint8_t)c0;
    out[1] = (uint8_t)(c0 >> 8);
    out[2] = (uint8_t)c1;
    out[3] = (uint8_t)(c1 >> 8);
    for (int k = 0; k < 4; k++) out[4 + k] = (uint8_t)(sels >> (8 * k));
}

/* A solid colour: both endpoints from the match tables with every texel on the 2:1 value;
 * never the 3-colour mode (colour 0 > colour 1), which BC3's colour half cannot use. */
static void bc1_solid(uint8_t out[8], unsigned r, unsigned g, unsigned b,
                      kiln_uastc_bc_cache *cache)
{
    uint32_t mask = 0xAA;
    unsigned mx = ((unsigned)bc1_match(cache, r, 5)[0] << 11) |
                  ((unsigned)bc1_match(cache, g, 6)[0] << 5) | bc1_match(cache, b, 5)[0];
    unsigned mn = ((unsigned)bc1_match(cache, r, 5)[1] << 11) |
                  ((unsigned)bc1_match(cache, g, 6)[1] << 5) | bc1_match(cache, b, 5)[1];
    if (mn == mx) {
        mask = 0;
        if (mn > 0) mn--;
        else {
            mx = 1;
            mn = 0;
            mask = 0x55;
        }
    }
    if (mx < mn) {
        unsigned t = mx;
        mx = mn;
        mn = t;
        mask ^= 0x55;
    }
    bc1_put(out, mx, mn, mask * 0x01010101u);
}

/* Selectors for endpoints (lr, lg, lb) .. (hr, hg, hb) (5:6:5): each texel's projection on the
 * axis against the midpoints of the palette's projections (integer arithmetic). */
static void bc1_find_sels(const uint8_t rgba[64], const int l[3], const int h[3], uint8_t sels[16])
{
    int pal[4][3];
    pal[0][0] = (int)expand5((unsigned)l[0]);
    pal[0][1] = (int)expand6((unsigned)l[1]);
    pal[0][2] = (int)expand5((unsigned)l[2]);
    pal[3][0] = (int)expand5((unsigned)h[0]);
    pal[3][1] = (int)expand6((unsigned)h[1]);
    pal[3][2] = (int)expand5((unsigned)h[2]);
    int ax[3], dots[4];
    for (int c = 0; c < 3; c++) {
        pal[1][c] = (pal[0][c] * 2 + pal[3][c]) / 3;
        pal[2][c] = (pal[3][c] * 2 + pal[0][c]) / 3;
        ax[c] = pal[3][c] - pal[0][c];
    }
    for (int i = 0; i < 4; i++) dots[i] = pal[i][0] * ax[0] + pal[i][1] * ax[1] + pal[i][2] * ax[2];
    const int t0 = dots[0] + dots[1], t1 = dots[1] + dots[2], t2 = dots[2] + dots[3];
    for (int i = 0; i < 16; i++) {
        const uint8_t *p = &rgba[i * 4];
        int d = (p[0] * ax[0] + p[1] * ax[1] + p[2] * ax[2]) * 2;
        sels[i] = (uint8_t)(3 - ((d <= t0) + (d < t1) + (d < t2)));
    }
}

/* Least-squares endpoints for fixed selectors (weights 0, 1/3, 2/3, 1 of the high endpoint),
 * by the normal equations scaled by 9, in float as basisu computes them. false when the system
 * is singular (every selector the same). */
static bool bc1_least_squares(const uint8_t rgba[64], const uint8_t sels[16], float xl[3],
                              float xh[3])
{
    unsigned q00[3] = {0, 0, 0}, tot[3] = {0, 0, 0}, z00 = 0, z10 = 0, z11 = 0;
    for (int i = 0; i < 16; i++) {
        unsigned s = sels[i];
        z00 += s * s;             /* 9 w^2 */
        z10 += s * (3 - s);       /* 9 w (1 - w) */
        z11 += (3 - s) * (3 - s); /* 9 (1 - w)^2 */
        for (int c = 0; c < 3; c++) {
            tot[c] += rgba[i * 4 + c];
            q00[c] += s * rgba[i * 4 + c];
        }
    }
    const float fz00 = (float)z00, fz10 = (float)z10, fz11 = (float)z11, fz01 = fz10;
    float det = fz00 * fz11 - fz01 * fz10;
    if (fabsf(det) < 1e-8f) return false;
    det = 3.0f / det;
    const float iz00 = fz11 * det, iz01 = -fz01 * det, iz10 = -fz10 * det, iz11 = fz00 * det;
    for (int c = 0; c < 3; c++) {
        const float a = (float)q00[c], b = (float)tot[c] * 3.0f - a;
        xl[c] = iz00 * a + iz01 * b;
        xh[c] = iz10 * a + iz11 * b;
    }
    /* A channel pushed out of range by a singular sub-problem: constant channels stay exact. */
    for (int c = 0; c < 3; c++) {
        if (xl[c] < 0.0f || xh[c] > 255.0f) {
            unsigned lo = 255, hi = 0;
            for (int i = 0; i < 16; i++) {
                unsigned v = rgba[i * 4 + c];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            if (lo == hi) xl[c] = xh[c] = (float)lo;
        }
    }
    return true;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static unsigned to5(unsigned v)
{
    v = v * 31 + 128;
    return (v + (v >> 8)) >> 8;
}

static unsigned to6(unsigned v)
{
    v = v * 63 + 128;
    return (v + (v >> 8)) >> 8;
}

/* Endpoints from the given selectors by one least-squares pass, the selectors refitted to them,
 * then the block (basisu's encode_bc1 after its selector search, one pass). */
static void bc1_from_sels(const uint8_t rgba[64], uint8_t sels[16], uint8_t out[8],
                          kiln_uastc_bc_cache *cache)
{
    int l[3], h[3];
    float xl[3], xh[3];
    if (!bc1_least_squares(rgba, sels, xl, xh)) {
        unsigned tot[3] = {0, 0, 0};
        for (int i = 0; i < 16; i++)
            for (int c = 0; c < 3; c++) tot[c] += rgba[i * 4 + c];
        for (int c = 0; c < 3; c++) {
            const uint8_t *m = bc1_match(cache, (tot[c] + 8) >> 4, c == 1 ? 6 : 5);
            l[c] = m[0];
            h[c] = m[1];
        }
    } else {
        static const float scale[3] = {31.0f / 255.0f, 63.0f / 255.0f, 31.0f / 255.0f};
        static const int top[3] = {31, 63, 31};
        for (int c = 0; c < 3; c++) {
            l[c] = clampi((int)(xl[c] * scale[c] + 0.5f), 0, top[c]);
            h[c] = clampi((int)(xh[c] * scale[c] + 0.5f), 0, top[c]);
        }
    }
    bc1_find_sels(rgba, l, h, sels);
    unsigned lc = ((unsigned)l[0] << 11) | ((unsigned)l[1] << 5) | (unsigned)l[2];
    unsigned hc = ((unsigned)h[0] << 11) | ((unsigned)h[1] << 5) | (unsigned)h[2];
    if (lc == hc) {
        uint32_t mask = 0;
        if (hc > 0) hc--;
        else {
            hc = 0;
            lc = 1;
            mask = 0x55;
        }
        bc1_put(out, lc, hc, mask * 0x01010101u);
        return;
    }
    uint32_t invert = 0;
    if (lc < hc) {
        unsigned t = lc;
        lc = hc;
        hc = t;
        invert = 0x55555555u;
    }
    uint32_t packed = 0;
    for (int i = 0; i < 16; i++) packed |= (uint32_t)bc1_code[sels[i]] << (2 * i);
    bc1_put(out, lc, hc, packed ^ invert);
}

/* No usable hint: the texels' first and last along their principal axis (four power
 * iterations from the bounding box's diagonal) start the search. */
static void bc1_encode(const uint8_t rgba[64], uint8_t out[8], kiln_uastc_bc_cache *cache)
{
    int i;
    for (i = 1; i < 16; i++)
        if (memcmp(rgba, rgba + i * 4, 3)) break;
    if (i == 16) {
        bc1_solid(out, rgba[0], rgba[1], rgba[2], cache);
        return;
    }
    int tot[3] = {0, 0, 0}, mx[3] = {0, 0, 0}, mn[3] = {255, 255, 255};
    for (i = 0; i < 16; i++)
        for (int c = 0; c < 3; c++) {
            int v = rgba[i * 4 + c];
            tot[c] += v;
            mx[c] = v > mx[c] ? v : mx[c];
            mn[c] = v < mn[c] ? v : mn[c];
        }
    int avg[3], icov[6] = {0, 0, 0, 0, 0, 0};
    for (int c = 0; c < 3; c++) avg[c] = (tot[c] + 8) >> 4;
    for (i = 0; i < 16; i++) {
        int r = rgba[i * 4] - avg[0], g = rgba[i * 4 + 1] - avg[1], b = rgba[i * 4 + 2] - avg[2];
        icov[0] += r * r;
        icov[1] += r * g;
        icov[2] += r * b;
        icov[3] += g * g;
        icov[4] += g * b;
        icov[5] += b * b;
    }
    float cov[6];
    for (int k = 0; k < 6; k++) cov[k] = (float)icov[k] * (1.0f / 255.0f);
    float xr = (float)(mx[0] - mn[0]), xg = (float)(mx[1] - mn[1]), xb = (float)(mx[2] - mn[2]);
    for (int it = 0; it < 4; it++) {
        float r = xr * cov[0] + xg * cov[1] + xb * cov[2];
        float g = xr * cov[1] + xg * cov[3] + xb * cov[4];
        float b = xr * cov[2] + xg * cov[4] + xb * cov[5];
        xr = r;
        xg = g;
        xb = b;
    }
    float k = fabsf(xr);
    k = fabsf(xg) > k ? fabsf(xg) : k;
    k = fabsf(xb) > k ? fabsf(xb) : k;
    int axis[3] = {306, 601, 117}; /* luma when the axis vanishes */
    if (k >= 2) {
        float m = 1024.0f / k;
        axis[0] = (int)(xr * m);
        axis[1] = (int)(xg * m);
        axis[2] = (int)(xb * m);
    }
    int low_dot = 0x7FFFFFFF, high_dot = -0x7FFFFFFF - 1, low_i = 0, high_i = 0;
    for (i = 0; i < 16; i++) {
        int dot = rgba[i * 4] * axis[0] + rgba[i * 4 + 1] * axis[1] + rgba[i * 4 + 2] * axis[2];
        if (dot < low_dot) {
            low_dot = dot;
            low_i = i;
        }
        if (dot > high_dot) {
            high_dot = dot;
            high_i = i;
        }
    }
    const uint8_t *lp = &rgba[low_i * 4], *hp = &rgba[high_i * 4];
    int l[3] = {(int)to5(lp[0]), (int)to6(lp[1]), (int)to5(lp[2])};
    int h[3] = {(int)to5(hp[0]), (int)to6(hp[1]), (int)to5(hp[2])};
    uint8_t sels[16];
    bc1_find_sels(rgba, l, h, sels);
    bc1_from_sels(rgba, sels, out, cache);
}

/* The BC1 selector (in low-to-high order) nearest a UASTC weight: ASTC weight W of 64 against
 * BC1's 0, 1/3, 2/3, 1 (no UASTC weight lies halfway). */
static uint8_t bc1_sel_of_weight(unsigned w, unsigned bits)
{
    unsigned v = 0;
    int left = 6;
    while (left > 0) {
        int n = left < (int)bits ? left : (int)bits;
        v |= (w >> (bits - (unsigned)n)) << (left - n);
        left -= n;
    }
    unsigned W = v > 32 ? v + 1 : v, best = 0, bd = 1000;
    for (unsigned s = 0; s < 4; s++) {
        unsigned d = 3 * W > 64 * s ? 3 * W - 64 * s : 64 * s - 3 * W;
        if (d < bd) {
            bd = d;
            best = s;
        }
    }
    return (uint8_t)best;
}

static uint16_t pack565_scaled(unsigned r, unsigned g, unsigned b)
{
    r = (r * 31 + 127) / 255;
    g = (g * 63 + 127) / 255;
    b = (b * 31 + 127) / 255;
    return (uint16_t)((b > 31 ? 31 : b) | ((g > 63 ? 63 : g) << 5) | ((r > 31 ? 31 : r) << 11));
}

void kiln_uastc_to_bc1(const kiln_uastc_block *b, const uint8_t rgba[64], uint8_t out[8],
                       kiln_uastc_bc_cache *cache)
{
    if (b->mode == KILN_UASTC_MODE_SOLID) {
        bc1_solid(out, b->solid[0], b->solid[1], b->solid[2], cache);
        return;
    }
    if (b->bc1_hint0) {
        /* Hint 0: the UASTC endpoints and weights are good BC1 ones as they are. */
        unsigned lo[3], hi[3];
        for (unsigned c = 0; c < 3; c++) {
            unsigned k = b->comps == 2 ? 0 : c;
            lo[c] = kiln_uastc_unquant_endpoint(b->endpoints[k * 2], b->endpoint_range);
            hi[c] = kiln_uastc_unquant_endpoint(b->endpoints[k * 2 + 1], b->endpoint_range);
        }
        unsigned lc = pack565_scaled(lo[0], lo[1], lo[2]), hc = pack565_scaled(hi[0], hi[1], hi[2]);
        if (lc == hc) {
            uint32_t mask = 0;
            if (hc > 0) hc--;
            else {
                hc = 0;
                lc = 1;
                mask = 0x55;
            }
            bc1_put(out, lc, hc, mask * 0x01010101u);
            return;
        }
        uint32_t invert = 0;
        if (lc < hc) {
            unsigned t = lc;
            lc = hc;
            hc = t;
            invert = 0x55555555u;
        }
        uint32_t packed = 0;
        for (int i = 0; i < 16; i++)
            packed |=
                (uint32_t)bc1_code[bc1_sel_of_weight(b->weights[i * b->planes], b->weight_bits)]
                << (2 * i);
        bc1_put(out, lc, hc, packed ^ invert);
        return;
    }
    if (b->bc1_hint1) {
        /* Hint 1: the UASTC weights are good BC1 selectors; fit endpoints to them. */
        uint8_t sels[16];
        for (int i = 0; i < 16; i++)
            sels[i] = bc1_sel_of_weight(b->weights[i * b->planes], b->weight_bits);
        bc1_from_sels(rgba, sels, out, cache);
        return;
    }
    bc1_encode(rgba, out, cache);
}
