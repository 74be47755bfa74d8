/* det_math.c — sin, cos, atan2, acos and log2 from IEEE-exact operations only (det_math.h).
 *
 * Each function reduces its argument exactly or with a few correctly rounded operations to a
 * small interval, then sums a Taylor series long enough that the first dropped term is below
 * 2^-53 of the result: sin and cos on [-pi/4, pi/4] (up to x^17 and x^18), atan on
 * [-1/128, 1/128] around the nearest of 65 tabulated points (up to z^9), ln on
 * [1/sqrt 2, sqrt 2] as 2 atanh((m - 1) / (m + 1)) (up to z^25). floor and frexp are exact. */
#include "process/det_math.h"

#include <math.h>

#ifdef __clang__ /* no fused multiply-adds: the same bits with every compiler */
#pragma STDC FP_CONTRACT OFF
#endif

#define DET_PI     3.14159265358979323846
#define DET_TWO_PI 6.28318530717958647692
#define DET_LN2    0.69314718055994530942

/* Series coefficients as constant expressions: the compiler rounds each quotient once, as
 * IEEE division would at run time, and the loops then only multiply and add. */
static const double inv_sin[9] = {
    0.0,       1.0 / 6,   1.0 / 20,  1.0 / 42, 1.0 / 72,
    1.0 / 110, 1.0 / 156, 1.0 / 210, 1.0 / 272}; /* 1 / ((2k)(2k+1)) */
static const double inv_cos[10] = {0.0,       1.0 / 2,   1.0 / 12,  1.0 / 30, 1.0 / 56, 1.0 / 90,
                                   1.0 / 132, 1.0 / 182, 1.0 / 240, 1.0 / 306}; /* (2k-1)(2k) */
static const double inv_odd[13] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,
                                   1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19,
                                   1.0 / 21, 1.0 / 23, 1.0 / 25};

/* sin and cos of x in [-pi/4, pi/4]. */
static void sincos_small(double x, double *s, double *c)
{
    double x2 = x * x;
    /* Horner from the highest term: sin x = x (1 - x^2/(2*3) (1 - x^2/(4*5) (1 - ...))) */
    double ps = 1.0, pc = 1.0;
    for (int k = 8; k >= 1; k--) ps = 1.0 - x2 * inv_sin[k] * ps;
    for (int k = 9; k >= 1; k--) pc = 1.0 - x2 * inv_cos[k] * pc;
    *s = x * ps;
    *c = pc;
}

void kiln_det_sincos_turns(double u, double *s, double *c)
{
    double r = u - floor(u + 0.5);   /* [-0.5, 0.5], exact */
    double q = floor(4.0 * r + 0.5); /* quadrant -2..2 */
    double f = r - 0.25 * q;         /* [-1/8, 1/8], exact */
    double sx, cx;
    sincos_small(DET_TWO_PI * f, &sx, &cx);
    switch ((int)q) {
    case 0:
        *s = sx, *c = cx;
        break;
    case 1:
        *s = cx, *c = -sx;
        break;
    case -1:
        *s = -cx, *c = sx;
        break;
    default:
        *s = -sx, *c = -cx;
        break; /* +-2: half a turn */
    }
}

/* atan(i / 64), i = 0..64, as double literals (printed by Python 3's math.atan with repr, which
 * round-trips; tests/ibl compares the results with libm). */
static const double atan_table[65] = {
    0.0,
    0.015623728620476831,
    0.031239833430268277,
    0.046840712915969654,
    0.06241880999595735,
    0.0779666338315423,
    0.09347678115858947,
    0.10894195698986579,
    0.12435499454676144,
    0.13970887428916365,
    0.15499674192394097,
    0.1702119252854744,
    0.18534794999569476,
    0.2003985538258785,
    0.21535769969773805,
    0.23021958727684372,
    0.24497866312686414,
    0.2596296294082575,
    0.2741674511196588,
    0.2885873618940774,
    0.3028848683749714,
    0.31705575320914703,
    0.3310960767041321,
    0.34500217720710513,
    0.35877067027057225,
    0.3723984466767542,
    0.38588266939807375,
    0.39922076957525254,
    0.4124104415973873,
    0.42544963737004227,
    0.43833655985795783,
    0.4510696559885235,
    0.4636476090008061,
    0.4760693303227612,
    0.48833395105640554,
    0.5004408131472942,
    0.5123894603107377,
    0.5241796287829132,
    0.5358112379604637,
    0.5472843809874369,
    0.5585993153435624,
    0.5697564534829784,
    0.5807563535676704,
    0.5915997103351114,
    0.6022873461349642,
    0.6128202021652414,
    0.6231993299340659,
    0.6334258829691446,
    0.6435011087932844,
    0.6534263411807619,
    0.6632029927060933,
    0.6728325475937632,
    0.6823165548747481,
    0.6916566218531999,
    0.7008544078844502,
    0.7099116184635249,
    0.7188299996216245,
    0.7276113326265107,
    0.7362574289814281,
    0.7447701257160751,
    0.7531512809621944,
    0.7614027698055784,
    0.7695264804056583,
    0.7775243103733478,
    0.7853981633974483,
};

/* atan(t) for t in [0, 1]: atan(c) + atan((t - c) / (1 + t c)) with c the nearest i / 64, so
 * the series runs on |r| <= 1/128 and five terms reach 2^-53. t - c is exact (Sterbenz). */
static double atan_unit(double t)
{
    double i = floor(t * 64.0 + 0.5); /* t * 64 is exact */
    double c = i * (1.0 / 64.0);
    double r = (t - c) / (1.0 + t * c), r2 = r * r;
    double p = inv_odd[4];
    for (int k = 3; k >= 0; k--) p = inv_odd[k] - r2 * p;
    return atan_table[(int)i] + r * p;
}

double kiln_det_atan2(double y, double x)
{
    double ax = fabs(x), ay = fabs(y);
    if (ax == 0.0 && ay == 0.0) return 0.0;
    double a = ay <= ax ? atan_unit(ay / ax) : DET_PI / 2.0 - atan_unit(ax / ay);
    if (x < 0.0) a = DET_PI - a;
    return y < 0.0 ? -a : a;
}

double kiln_det_acos(double x)
{
    if (x > 1.0) x = 1.0;
    if (x < -1.0) x = -1.0;
    return kiln_det_atan2(sqrt((1.0 - x) * (1.0 + x)), x);
}

double kiln_det_log2(double x)
{
    if (!(x > 0.0)) return -1100.0;
    int e;
    double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1): exact */
    if (m < 0.70710678118654752440) {
        m *= 2.0; /* exact */
        e -= 1;
    }
    double z = (m - 1.0) / (m + 1.0), z2 = z * z, p = 0.0;
    for (int k = 12; k >= 0; k--) p = inv_odd[k] + z2 * p;
    return (double)e + 2.0 * z * p / DET_LN2;
}
