/* ibl_sample.h — what the specular filter and the BRDF table share: the Hammersley point set
 * and GGX importance sampling of the half vector (Karis 2013, "Real Shading in Unreal Engine
 * 4"). Tangent space: the normal is +z. */
#ifndef KILN_PROCESS_IBL_SAMPLE_H
#define KILN_PROCESS_IBL_SAMPLE_H

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "process/det_math.h"

#define KILN_IBL_PI 3.14159265358979323846

/* Radiance as the filters read it: NaN (damaged HDR files) becomes 0 and an infinity 65504
 * with its sign, the largest half float. One bad texel would otherwise spread NaN or infinity
 * over every lobe that reaches it. Finite values are kept, however bright: a sun above the half
 * range blurred over a rough lobe can come back within it. */
static inline float kiln_ibl_radiance(float v)
{
    if (v != v) return 0.0f;
    return v > FLT_MAX ? 65504.0f : v < -FLT_MAX ? -65504.0f : v;
}

/* Point i of an n-point Hammersley set: (i / n, the base-2 radical inverse of i). */
static inline void kiln_ibl_hammersley(uint32_t i, uint32_t n, double *u, double *v)
{
    uint32_t b = i;
    b = (b << 16) | (b >> 16);
    b = ((b & 0x55555555u) << 1) | ((b & 0xAAAAAAAAu) >> 1);
    b = ((b & 0x33333333u) << 2) | ((b & 0xCCCCCCCCu) >> 2);
    b = ((b & 0x0F0F0F0Fu) << 4) | ((b & 0xF0F0F0F0u) >> 4);
    b = ((b & 0x00FF00FFu) << 8) | ((b & 0xFF00FF00u) >> 8);
    *u = (double)i / (double)n;
    *v = (double)b * (1.0 / 4294967296.0);
}

/* The half vector for the point (u, v), distributed as D(h) (n.h) for GGX alpha a. */
static inline void kiln_ibl_ggx_half(double u, double v, double a, double h[3])
{
    double a2 = a * a, sp, cp;
    kiln_det_sincos_turns(u, &sp, &cp); /* the angle 2 pi u, without libm */
    double cos_t = sqrt((1.0 - v) / (1.0 + (a2 - 1.0) * v));
    double sin_t = sqrt(fmax(0.0, 1.0 - cos_t * cos_t));
    h[0] = sin_t * cp;
    h[1] = sin_t * sp;
    h[2] = cos_t;
}

/* The GGX normal distribution D(h) for n.h = c and alpha a. */
static inline double kiln_ibl_ggx_d(double c, double a)
{
    double a2 = a * a;
    double k = c * c * (a2 - 1.0) + 1.0;
    return a2 / (KILN_IBL_PI * k * k);
}

#endif
