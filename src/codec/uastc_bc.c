/* uastc_bc.c — UASTC to BC1 colour and BC4 (also the halves of BC3 and BC5), encoded in real time
 * from the decoded texels. BC4 is an exact nearest-value fit (endpoints = the channel's maximum
 * and minimum, each texel to the closest of the eight values, ties resolved as basisu's encoder
 * resolves them), so it equals basisu's blocks. BC1 is kiln's own small encoder (principal axis,
 * one least-squares refinement, always the 4-colour mode); basisu uses the BC1 hints and its own
 * encoder instead, so these blocks differ from its: docs/basis.md gives the measured quality. */
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

static uint16_t pack565(float r, float g, float b)
{
    int R = (int)(r * 31.0f / 255.0f + 0.5f), G = (int)(g * 63.0f / 255.0f + 0.5f),
        B = (int)(b * 31.0f / 255.0f + 0.5f);
    R = R < 0 ? 0 : R > 31 ? 31 : R;
    G = G < 0 ? 0 : G > 63 ? 63 : G;
    B = B < 0 ? 0 : B > 31 ? 31 : B;
    return (uint16_t)((R << 11) | (G << 5) | B);
}

/* Selectors (nearest palette colour) for c0 > c1; returns the squared error. */
static unsigned bc1_select(const uint8_t rgba[64], uint16_t c0, uint16_t c1, uint8_t sel[16])
{
    int32_t pal[4][3];
    kiln_bc1_palette(c0, c1, pal);
    unsigned total = 0;
    for (int i = 0; i < 16; i++) {
        unsigned best = 0xFFFFFFFFu;
        for (int k = 0; k < 4; k++) {
            unsigned e = 0;
            for (int c = 0; c < 3; c++) {
                int d = rgba[i * 4 + c] - pal[k][c];
                e += (unsigned)(d * d);
            }
            if (e < best) {
                best = e;
                sel[i] = (uint8_t)k;
            }
        }
        total += best;
    }
    return total;
}

static void bc1_put(uint8_t out[8], uint16_t c0, uint16_t c1, const uint8_t sel[16])
{
    out[0] = (uint8_t)c0;
    out[1] = (uint8_t)(c0 >> 8);
    out[2] = (uint8_t)c1;
    out[3] = (uint8_t)(c1 >> 8);
    uint32_t bits = 0;
    for (int i = 0; i < 16; i++) bits |= (uint32_t)sel[i] << (2 * i);
    for (int k = 0; k < 4; k++) out[4 + k] = (uint8_t)(bits >> (8 * k));
}

/* Endpoints in 4-colour order (c0 > c1), or for equal ones a 4-colour block that still shows
 * the colour: c1 one below with every selector on c0 (or, for black, c0 = 1 and c1). */
static void bc1_finish(uint8_t out[8], uint16_t a, uint16_t b, const uint8_t rgba[64])
{
    uint8_t sel[16];
    if (a == b) {
        if (b > 0) {
            memset(sel, 0, 16);
            bc1_put(out, a, (uint16_t)(b - 1), sel);
        } else {
            memset(sel, 1, 16);
            bc1_put(out, 1, 0, sel);
        }
        return;
    }
    if (a < b) {
        uint16_t t = a;
        a = b;
        b = t;
    }
    bc1_select(rgba, a, b, sel);
    bc1_put(out, a, b, sel);
}

void kiln_uastc_to_bc1(const kiln_uastc_block *blk, const uint8_t rgba[64], uint8_t out[8])
{
    (void)blk;
    float mean[3] = {0, 0, 0};
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < 3; c++) mean[c] += rgba[i * 4 + c];
    for (int c = 0; c < 3; c++) mean[c] /= 16.0f;
    float cov[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 16; i++) {
        float d[3];
        for (int c = 0; c < 3; c++) d[c] = rgba[i * 4 + c] - mean[c];
        cov[0] += d[0] * d[0];
        cov[1] += d[0] * d[1];
        cov[2] += d[0] * d[2];
        cov[3] += d[1] * d[1];
        cov[4] += d[1] * d[2];
        cov[5] += d[2] * d[2];
    }
    /* Principal axis by power iteration from the diagonal's largest direction. */
    float ax[3] = {cov[0], cov[3], cov[5]};
    float n0 = ax[0] > ax[1] ? ax[0] : ax[1];
    n0 = n0 > ax[2] ? n0 : ax[2];
    if (n0 <= 0.0f) {
        uint16_t c = pack565(mean[0], mean[1], mean[2]);
        bc1_finish(out, c, c, rgba);
        return;
    }
    ax[0] = 1.0f, ax[1] = 1.0f, ax[2] = 1.0f;
    for (int it = 0; it < 8; it++) {
        float v[3] = {cov[0] * ax[0] + cov[1] * ax[1] + cov[2] * ax[2],
                      cov[1] * ax[0] + cov[3] * ax[1] + cov[4] * ax[2],
                      cov[2] * ax[0] + cov[4] * ax[1] + cov[5] * ax[2]};
        float m = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (m <= 0.0f) break;
        float mx = 0;
        for (int c = 0; c < 3; c++) mx = (v[c] > mx ? v[c] : -v[c] > mx ? -v[c] : mx);
        for (int c = 0; c < 3; c++) ax[c] = v[c] / mx;
    }
    float tmin = 1e30f, tmax = -1e30f;
    for (int i = 0; i < 16; i++) {
        float t = 0;
        for (int c = 0; c < 3; c++) t += (rgba[i * 4 + c] - mean[c]) * ax[c];
        tmin = t < tmin ? t : tmin;
        tmax = t > tmax ? t : tmax;
    }
    float l2 = ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2];
    float e0[3], e1[3];
    for (int c = 0; c < 3; c++) {
        e0[c] = mean[c] + ax[c] * tmax / l2;
        e1[c] = mean[c] + ax[c] * tmin / l2;
    }
    uint16_t a = pack565(e0[0], e0[1], e0[2]), b = pack565(e1[0], e1[1], e1[2]);
    if (a == b) {
        bc1_finish(out, a, b, rgba);
        return;
    }
    if (a < b) {
        uint16_t t = a;
        a = b;
        b = t;
    }
    uint8_t sel[16];
    unsigned err = bc1_select(rgba, a, b, sel);
    /* One least-squares refit of both endpoints to the chosen selectors. */
    static const float wt[4] = {0.0f, 1.0f, 1.0f / 3.0f, 2.0f / 3.0f}; /* weight of c1 */
    float aa = 0, ab = 0, bb = 0, ax0[3] = {0, 0, 0}, bx[3] = {0, 0, 0};
    for (int i = 0; i < 16; i++) {
        float w1 = wt[sel[i]], w0 = 1.0f - w1;
        aa += w0 * w0;
        ab += w0 * w1;
        bb += w1 * w1;
        for (int c = 0; c < 3; c++) {
            ax0[c] += w0 * rgba[i * 4 + c];
            bx[c] += w1 * rgba[i * 4 + c];
        }
    }
    float det = aa * bb - ab * ab;
    if (det > 1e-6f || det < -1e-6f) {
        float p[3], q[3];
        for (int c = 0; c < 3; c++) {
            p[c] = (ax0[c] * bb - bx[c] * ab) / det;
            q[c] = (bx[c] * aa - ax0[c] * ab) / det;
        }
        uint16_t a2 = pack565(p[0], p[1], p[2]), b2 = pack565(q[0], q[1], q[2]);
        if (a2 < b2) {
            uint16_t t = a2;
            a2 = b2;
            b2 = t;
        }
        if (a2 != b2) {
            uint8_t sel2[16];
            unsigned err2 = bc1_select(rgba, a2, b2, sel2);
            if (err2 < err) {
                bc1_put(out, a2, b2, sel2);
                return;
            }
        }
    }
    bc1_put(out, a, b, sel);
}
