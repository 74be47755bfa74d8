/* mesh_codec.h — the arithmetic of kiln's quantized vertex formats, shared by the encoder
 * (src/process/mesh_quantize.c) and the decoder (src/codec/mesh_decode.c) so both sides agree
 * to the bit. docs/meshes.md ("Quantization") states the formulas and their error bounds.
 *
 * Octahedral unit vectors (Cigolle et al., "A Survey of Efficient Representations for
 * Independent Unit Vectors", JCGT 2014): the unit sphere is projected onto the octahedron
 * |x| + |y| + |z| = 1, the lower half folded over the upper, and the square [-1,1]^2 stored as
 * two snorm values. */
#ifndef KILN_CODEC_MESH_CODEC_H
#define KILN_CODEC_MESH_CODEC_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

static inline float kiln_sign_not_zero(float x) { return x >= 0.0f ? 1.0f : -1.0f; }

/* snorm value q of a format with maxq = 2^(bits-1) - 1, as GPUs read it. */
static inline float kiln_snorm_decode(int32_t q, int32_t maxq)
{
    float f = (float)q / (float)maxq;
    return f < -1.0f ? -1.0f : f;
}

static inline void kiln_oct_decode(float u, float v, float n[3])
{
    float z = 1.0f - fabsf(u) - fabsf(v);
    if (z < 0.0f) {
        float tu = (1.0f - fabsf(v)) * kiln_sign_not_zero(u);
        float tv = (1.0f - fabsf(u)) * kiln_sign_not_zero(v);
        u = tu, v = tv;
    }
    float len = sqrtf(u * u + v * v + z * z);
    n[0] = u / len, n[1] = v / len, n[2] = z / len;
}

/* The stored pair for unit vector n with maxq steps per half axis: of the four roundings of
 * the exact octahedral point, the one whose decoded direction is closest to n ("precise"
 * encoding; ties go to the first in the order floor/floor, ceil/floor, floor/ceil, ceil/ceil).
 * A zero or non-finite vector is stored as (0, 0), which decodes to +Z. */
static inline void kiln_oct_encode(const float n[3], int32_t maxq, int32_t q[2])
{
    float s = fabsf(n[0]) + fabsf(n[1]) + fabsf(n[2]);
    q[0] = 0, q[1] = 0;
    if (!(s > 0.0f) || !isfinite(s)) return;
    float u = n[0] / s, v = n[1] / s;
    if (n[2] < 0.0f) {
        float tu = (1.0f - fabsf(v)) * kiln_sign_not_zero(u);
        float tv = (1.0f - fabsf(u)) * kiln_sign_not_zero(v);
        u = tu, v = tv;
    }
    int32_t bu = (int32_t)floorf(u * (float)maxq), bv = (int32_t)floorf(v * (float)maxq);
    /* Each candidate is decoded as a shader does (snorm, unfold) and scored by the cosine of its
     * angle to n, in double: the largest cosine is the smallest distance between the unit
     * vectors. The cook encodes every source vertex, so the comparison avoids roots and
     * divisions: cos_a > cos_b is dot_a|dot_a| * len_b^2 > dot_b|dot_b| * len_a^2. */
    double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
    double unit[3] = {n[0] / len, n[1] / len, n[2] / len};
    int32_t cus[2], cvs[2];
    float us[2], vs[2];
    for (int k = 0; k < 2; k++) {
        int32_t cu = bu + k, cv = bv + k;
        cus[k] = cu > maxq ? maxq : cu < -maxq ? -maxq : cu;
        cvs[k] = cv > maxq ? maxq : cv < -maxq ? -maxq : cv;
        us[k] = kiln_snorm_decode(cus[k], maxq);
        vs[k] = kiln_snorm_decode(cvs[k], maxq);
    }
    /* All four scored, then the best picked: the fold and the choice are selects, not branches
     * (the winner depends on the data, and mispredicted branches made this the cook's hottest
     * function of kiln's own). */
    double num[4], len2[4];
    for (int i = 0; i < 4; i++) {
        float du = us[i & 1], dv = vs[i >> 1];
        float au = fabsf(du), av = fabsf(dv);
        float dz = 1.0f - au - av;
        float fu = (1.0f - av) * kiln_sign_not_zero(du);
        float fv = (1.0f - au) * kiln_sign_not_zero(dv);
        bool fold = dz < 0.0f;
        du = fold ? fu : du;
        dv = fold ? fv : dv;
        len2[i] = (double)du * du + (double)dv * dv + (double)dz * dz;
        double dot = (double)du * unit[0] + (double)dv * unit[1] + (double)dz * unit[2];
        num[i] = dot * fabs(dot);
    }
    int best = 0;
    for (int i = 1; i < 4; i++) best = num[i] * len2[best] > num[best] * len2[i] ? i : best;
    q[0] = cus[best & 1], q[1] = cvs[best >> 1];
}

/* unorm16 in [lo, lo + scale]: encode rounds to the nearest step; decode is what a shader does
 * with the unorm value x = q / 65535: lo + scale * x. */
static inline uint16_t kiln_unorm16_encode(float x, float lo, float scale)
{
    if (!(scale > 0.0f)) return 0;
    double t = ((double)x - (double)lo) / (double)scale * 65535.0 + 0.5;
    if (!(t > 0.0)) return 0;
    if (t >= 65535.0) return 65535;
    return (uint16_t)t;
}

static inline float kiln_unorm16_decode(uint16_t q, float lo, float scale)
{
    return lo + scale * ((float)q / 65535.0f);
}

#endif
