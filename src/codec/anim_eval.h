/* anim_eval.h — the value of one animation track at a time, as glTF 2.0 defines it (appendix
 * "Interpolation"; rules in docs/animation.md, "Sampling"). One implementation for the runtime
 * (kiln_clip_sample) and the cook (resampling, key reduction, the error measure), so what the
 * cook measures is what engines get. */
#ifndef KILN_CODEC_ANIM_EVAL_H
#define KILN_CODEC_ANIM_EVAL_H

#include <stdint.h>

/* A track's keys. times: key_count f32; values: key_count * components f32, three times that for
 * CUBICSPLINE (in-tangent, value, out-tangent per key). Both little-endian and read with
 * kiln_load_f32le, so file bytes at any alignment and float arrays of a little-endian host both
 * work. interpolation and path take the kiln_clip_interp / kiln_clip_path values (equal to the
 * scene's).
 */
typedef struct kiln_anim_keys {
    const uint8_t *times;
    const uint8_t *values;
    uint32_t key_count;  /* >= 1 */
    uint32_t components; /* >= 1; 4 for rotations */
    uint32_t interpolation;
    uint32_t path;
} kiln_anim_keys;

/* The last key whose time is <= t; 0 when t is before the first key or NaN. */
uint32_t kiln_anim_find(const kiln_anim_keys *k, float t);

/* Writes components floats to out. Rotations come out as unit quaternions (a zero one as the
 * identity). Computed in double, rounded once. */
void kiln_anim_eval(const kiln_anim_keys *k, float t, float *out);

/* The value of key i (the middle value for CUBICSPLINE), rotations normalized, into out. */
void kiln_anim_key_value(const kiln_anim_keys *k, uint32_t i, float *out);

#endif
