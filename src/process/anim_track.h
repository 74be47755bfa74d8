/* anim_track.h — one animation track as the clip cook works on it (docs/animation.md): copied
 * from a scene channel, tested for constancy and collapsed, resampled at a fixed rate,
 * densified (cubic to linear), reduced within an error bound, and compared with another track
 * by dense sampling. Every function evaluates tracks through src/codec/anim_eval.c, the
 * sampler engines use, so the measured error is the error engines see. */
#ifndef KILN_PROCESS_ANIM_TRACK_H
#define KILN_PROCESS_ANIM_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/anim_eval.h"
#include "kiln/kiln_scene.h"

/* At most this many keys in one track the cook makes (resampling, densifying). */
#define KILN_ANIM_MAX_TRACK_KEYS (1u << 24)
/* At most this many value floats in one track (256 MiB): weights tracks have many components. */
#define KILN_ANIM_MAX_TRACK_FLOATS (1u << 26)
/* A cubic spline's linear stand-in larger than this many value floats is not made: the spline
 * is kept as authored (reduction would cost more than it is worth). */
#define KILN_ANIM_MAX_DENSE_FLOATS (1u << 22)
/* A reduced linear track keeps at least one key in this many source keys (bounds the work). */
#define KILN_ANIM_REDUCE_SPAN 256u
/* Scales smaller than this count as this in the relative scale error. */
#define KILN_ANIM_SCALE_ERROR_FLOOR 0.01

typedef struct kiln_anim_track {
    uint32_t path;          /* kiln_clip_path */
    uint32_t interpolation; /* kiln_clip_interp */
    uint32_t components;
    uint32_t key_count; /* >= 1 */
    float *times;       /* key_count, owned */
    float *values;      /* key_count * stride, owned */
} kiln_anim_track;

/* Floats per key: components, or 3 * components for CUBICSPLINE. */
size_t kiln_anim_track_stride(const kiln_anim_track *t);
kiln_anim_keys kiln_anim_track_keys(const kiln_anim_track *t);

/* A zeroed track of `keys` keys of that shape. Errors: KILN_E_LIMIT (0 or more than
 * KILN_ANIM_MAX_TRACK_KEYS keys, more than KILN_ANIM_MAX_TRACK_FLOATS values),
 * KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_anim_track_alloc(const kiln_allocator *a, uint32_t path, uint32_t interp,
                                  uint32_t components, size_t keys, kiln_anim_track *out,
                                  kiln_error *err);

/* Copies a scene channel (its arrays must hold key_count times and key_count * stride values). */
kiln_result kiln_anim_track_from_channel(const kiln_allocator *a, const kiln_scene_channel *ch,
                                         kiln_anim_track *out, kiln_error *err);
kiln_result kiln_anim_track_copy(const kiln_allocator *a, const kiln_anim_track *in,
                                 kiln_anim_track *out, kiln_error *err);
void kiln_anim_track_free(const kiln_allocator *a, kiln_anim_track *t); /* zeroes it */

/* Every key's value equals the first's within tol * max(1, |first|) per component (rotations: q
 * and -q equal), and for CUBICSPLINE every tangent is within the same of zero. */
bool kiln_anim_track_is_constant(const kiln_anim_track *t, double tol);

/* A one-key STEP track holding the first key's value (rotations normalized), at the first time. */
kiln_result kiln_anim_track_first_key(const kiln_allocator *a, const kiln_anim_track *in,
                                      kiln_anim_track *out, kiln_error *err);

/* A LINEAR track sampled from `in` at start + k / fps for every k whose time lies inside the
 * track's [first, last] time, plus the first and last times themselves. Rotations are kept in
 * one hemisphere (each key's sign chosen so its dot product with the previous is >= 0).
 * Errors: KILN_E_LIMIT (more than KILN_ANIM_MAX_TRACK_KEYS keys), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_anim_track_resample(const kiln_allocator *a, const kiln_anim_track *in,
                                     double start, double fps, kiln_anim_track *out,
                                     kiln_error *err);

/* A LINEAR track with per_segment evenly spaced samples in every key interval of `in` (its keys
 * included): the piecewise-linear stand-in for a cubic spline that reduction works on.
 * KILN_E_LIMIT when it would hold more than KILN_ANIM_MAX_DENSE_FLOATS values. */
kiln_result kiln_anim_track_densify(const kiln_allocator *a, const kiln_anim_track *in,
                                    uint32_t per_segment, kiln_anim_track *out, kiln_error *err);

/* Key reduction of a LINEAR or STEP track (docs/animation.md, "Key reduction"): the first and
 * last keys are kept, and keys at a time another key shares; a LINEAR key goes when the line (a
 * slerp for rotations) between the kept neighbours reproduces every dropped key, and for
 * rotations every midpoint between them, within `bound` (kiln_anim_value_error); a STEP key goes
 * when its value equals the last kept one within bound. */
kiln_result kiln_anim_track_reduce(const kiln_allocator *a, const kiln_anim_track *in, double bound,
                                   kiln_anim_track *out, kiln_error *err);

/* The error between a value and a reference value of a path: translation and weights the
 * largest absolute component difference; scale the largest |a - b| / max(|b|, 0.01); rotation
 * the angle in radians of the rotation between them (q and -q equal), 4 asin(|a - ±b| / 2). */
double kiln_anim_value_error(uint32_t path, uint32_t components, const float *value,
                             const float *reference);

/* The largest value error of `track` against `reference` (same path and components), sampled at
 * every key time of either and at 7 evenly spaced times inside every key interval of either.
 * Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_anim_track_error(const kiln_allocator *a, const kiln_anim_track *track,
                                  const kiln_anim_track *reference, double *out, kiln_error *err);

#endif
