/* xform.h — the transform maths the importers (glTF, assimp, FBX 6), the skeleton cook and the
 * animation evaluator share: column-major 4x4 matrices (element (row, col) at [col * 4 + row],
 * translation in 12..14) and quaternions stored x, y, z, w.
 *
 * One quaternion policy for all of kiln:
 * - unit length: a zero or non-finite quaternion becomes the identity (0, 0, 0, 1). Quaternions
 *   kiln computes (from a matrix, by slerp, by a cubic spline) are normalised in double and
 *   rounded once; quaternions read as floats from a file (glTF node rotations, FBX keys) are
 *   scaled in single precision, the bits every cooked glTF scene holds. (Rounding in float can
 *   push a nearly unit quaternion away: sqrt(1/2) comes out one ulp too large.)
 * - sign: as the computation gives it, never flipped to w >= 0: q and -q are one rotation, and
 *   clip keys keep the sign of their neighbours;
 * - handedness: decomposing a matrix with a negative determinant (a mirror) negates scale x and
 *   the first column, so the rotation is proper and T * R * S gives the matrix back;
 * - slerp takes the shorter arc and blends linearly when the two are nearly equal.
 * The FBX importers (assimp's reading and kiln's FBX 6 reader) keep the single-precision numerics
 * their cooked files were made with: the _f functions renormalise computed quaternions in float
 * and slerp in float. Every cooked byte of the corpus depends on which variant a path uses.
 * Shared with the runtime: libc only, no allocation, no state. */
#ifndef KILN_CODEC_XFORM_H
#define KILN_CODEC_XFORM_H

#include <stdbool.h>

/* m = the identity matrix. */
void kiln_mat4_identity(float m[16]);
void kiln_mat4d_identity(double m[16]);

/* True when m is exactly the identity. */
bool kiln_mat4_is_identity(const float m[16]);

/* out = a * b. out may be a or b. Each element is a sum of four products in the precision of the
 * arguments (the float one in float: the world matrices of every cooked glTF scene). */
void kiln_mat4_mul(const float a[16], const float b[16], float out[16]);
void kiln_mat4d_mul(const double a[16], const double b[16], double out[16]);

/* m = T * R * S from translation t, unit quaternion q and scale s (glTF 2.0, "Transformations"). */
void kiln_mat4_compose(const float t[3], const float q[4], const float s[3], float m[16]);

/* Splits an affine matrix into translation, rotation and scale: the columns' lengths are the
 * scale, a negative determinant goes into scale x, the rotation is kiln_quat_from_rotation of the
 * scaled-out columns (a column of length 0 becomes zeros first). */
void kiln_mat4_decompose(const float m[16], float t[3], float q[4], float s[3]);

/* kiln_mat4_decompose with the rotation from kiln_quat_from_rotation_f (the FBX importers). */
void kiln_mat4_decompose_f(const float m[16], float t[3], float q[4], float s[3]);

/* The unit quaternion of a rotation matrix given as three columns (element (row, col) =
 * c[col][row]): Shepperd's method in float, then normalised as kiln_quat_normalize_d does. */
void kiln_quat_from_rotation(const float c[3][3], float q[4]);

/* Shepperd's method as kiln_quat_from_rotation, normalised in float by kiln_quat_normalize (the
 * FBX importers' space conversion and node rotations). */
void kiln_quat_from_rotation_f(const float c[3][3], float q[4]);

/* Scales q, read from a file, to unit length in single precision; a zero or non-finite q becomes
 * the identity. Returns the length q had, so callers that refuse short quaternions can check. */
float kiln_quat_normalize(float q[4]);

/* out = q / |q| computed in double, rounded once to float; a zero or non-finite q gives the
 * identity. For quaternions kiln computes. */
void kiln_quat_normalize_d(const double q[4], float out[4]);

/* out = a * b (the rotation b, then a). out may be a or b. */
void kiln_quat_mul(const float a[4], const float b[4], float out[4]);

/* Spherical linear interpolation from a (u = 0) to b (u = 1), as glTF 2.0 defines it for
 * rotation keys: both normalised first, b negated when the dot product is negative (the shorter
 * arc), a linear blend when their dot product is above 1 - 1e-9 (the sine of the angle is too
 * small to divide by), the result normalised. Computed in double, rounded once. */
void kiln_quat_slerp(const float a[4], const float b[4], double u, float out[4]);

/* Slerp in single precision for the FBX importers' baked keys: a and b are unit quaternions
 * (not normalised again), b negated when the dot product is negative, a linear blend above a dot
 * of 0.9995, the result normalised by kiln_quat_normalize. */
void kiln_quat_slerp_f(const float a[4], const float b[4], float u, float out[4]);

#endif
