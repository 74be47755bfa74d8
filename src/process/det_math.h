/* det_math.h — the elementary functions the cube and IBL code needs (sin, cos, atan2, acos,
 * log2), computed only with +, -, *, / and sqrt, which IEEE 754 rounds exactly on every
 * platform. libm's versions differ in their last bits between implementations and versions, and
 * cooked bytes must not depend on the machine that cooked them (equal cache key, equal bytes).
 *
 * Accuracy: within a few units in the last place of double over the whole range (tests/ibl
 * compares them with libm to 1e-15 relative / absolute), far below what the float outputs keep.
 * Not for NaN or infinite arguments (the callers never pass them). */
#ifndef KILN_PROCESS_DET_MATH_H
#define KILN_PROCESS_DET_MATH_H

/* sin and cos of 2 pi u, for any finite u (one period per unit: Hammersley angles). */
void kiln_det_sincos_turns(double u, double *s, double *c);

/* atan2(y, x) in [-pi, pi]; (0, 0) gives 0. */
double kiln_det_atan2(double y, double x);

/* acos(x) in [0, pi] for x in [-1, 1] (clamped). */
double kiln_det_acos(double x);

/* log2(x) for x > 0 (0 or less gives -1100). */
double kiln_det_log2(double x);

#endif
