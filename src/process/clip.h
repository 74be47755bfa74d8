/* clip.h — an animation of the scene turned into a cooked clip (docs/animation.md): every
 * channel becomes a track aimed at a joint of the skeleton or at a node; constant tracks collapse
 * to one key; optionally tracks are resampled at a fixed rate and keys are removed within a
 * stated error; the error actually introduced is measured and summarised. In memory only:
 * src/write/clip_write.c serializes it (docs/formats.md, "Clips"). */
#ifndef KILN_PROCESS_CLIP_H
#define KILN_PROCESS_CLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_scene.h"
#include "process/skeleton.h"

#define KILN_CLIP_DEFAULT_CONSTANT_TOLERANCE 1e-6
#define KILN_CLIP_MAX_RESAMPLE_FPS           1000.0f

/* Error per path (docs/animation.md, "Error metric"): translation in the node's local units
 * (metres in glTF, unless an ancestor scales), largest component difference; rotation in
 * radians of the rotation between the two quaternions; scale relative, |a - b| / max(|b|, 0.01)
 * per component; weights absolute. */
typedef struct kiln_clip_error {
    float translation, rotation, scale, weights;
} kiln_clip_error;

/* Defaults of the reduction bounds (a zero field takes its default). */
#define KILN_CLIP_DEFAULT_ERROR_TRANSLATION 1e-4f /* 0.1 mm */
#define KILN_CLIP_DEFAULT_ERROR_ROTATION    1e-3f /* 0.057 degrees */
#define KILN_CLIP_DEFAULT_ERROR_SCALE       1e-4f /* 0.01 % */
#define KILN_CLIP_DEFAULT_ERROR_WEIGHTS     1e-3f

/* `= {0}` (or NULL) keeps every key as authored, collapsing only constant tracks. */
typedef struct kiln_clip_opts {
    uint32_t struct_size;      /* sizeof(kiln_clip_opts); 0 is taken as the current size */
    float resample_fps;        /* 0: off; else 1 .. 1000: LINEAR and CUBICSPLINE tracks are
                                  sampled at clip start + k / fps (STEP tracks are kept) */
    bool reduce;               /* remove keys within max_error */
    kiln_clip_error max_error; /* reduction bounds; zero fields take the defaults */
    double constant_tolerance; /* 0: 1e-6 (relative, see kiln_anim_track_is_constant) */
} kiln_clip_opts;

/* What the cook did to a clip, for the manifest summary. */
typedef struct kiln_clip_summary {
    uint32_t tracks;
    uint32_t constant_tracks; /* collapsed to one key */
    uint32_t resampled_tracks;
    uint32_t reduced_tracks;          /* lost keys to reduction (constant ones not counted) */
    uint32_t cubic_tracks_kept;       /* CUBICSPLINE tracks left as they were */
    uint64_t keys_before, keys_after; /* summed over tracks */
    kiln_clip_error bound;            /* the reduction bounds applied (0 when reduce is off) */
    kiln_clip_error max_error;        /* measured against the source channels, per path */
    float duration;                   /* end - start, seconds */
} kiln_clip_summary;

typedef struct kiln_cooked_track {
    uint32_t target;        /* joint index, or node index with KILN_CLIP_TRACK_NODE */
    uint32_t node;          /* the scene node */
    uint32_t flags;         /* KILN_CLIP_TRACK_* */
    uint32_t path;          /* kiln_clip_path */
    uint32_t interpolation; /* kiln_clip_interp */
    uint32_t components;
    uint32_t key_count;
    uint32_t time_offset;  /* into the clip's times */
    uint32_t value_offset; /* into the clip's values */
    float error;           /* measured against the source channel */
} kiln_cooked_track;

typedef struct kiln_cooked_clip {
    uint32_t animation; /* the scene animation */
    char *name;         /* name_size bytes then a NUL */
    size_t name_size;
    float start, end;              /* first and last key over all tracks (0, 0 without any) */
    uint32_t skin;                 /* the skeleton's skin, or 0xFFFFFFFF without one */
    uint32_t skeleton_joint_count; /* 0 without a skeleton */
    uint64_t skeleton_id;          /* the skeleton artifact's asset id: set by the caller */
    float resample_fps;
    uint32_t flags;            /* KILN_CLIP_RESAMPLED, KILN_CLIP_REDUCED */
    kiln_cooked_track *tracks; /* one per channel, in channel order */
    uint32_t track_count;
    float *times; /* key times; tracks with equal times share them */
    size_t time_count, time_capacity;
    float *values;
    size_t value_count, value_capacity;
    kiln_clip_summary summary;
    const kiln_allocator *alloc; /* borrowed */
} kiln_cooked_clip;

/* Builds the cooked clip of scene->animations[animation]. skeleton may be NULL: then every
 * target is a node. opts may be NULL (defaults). `a` may be NULL (libc); it must outlive *out.
 * Free with kiln_cooked_clip_free. Errors: KILN_E_USAGE (animation out of range, bad opts),
 * KILN_E_IMPORT_FAILED (a channel's node, path, shape or times are invalid), KILN_E_LIMIT
 * (over 2^32 - 1 times or values, a channel or resampled track of over 2^24 keys or 2^26
 * value floats), KILN_E_OUT_OF_MEMORY. On error *out is zeroed. Deterministic; thread-safe for
 * distinct out. */
kiln_result kiln_clip_build(const kiln_scene *scene, uint32_t animation,
                            const kiln_cooked_skeleton *skeleton, const kiln_clip_opts *opts,
                            const kiln_allocator *a, kiln_cooked_clip *out, kiln_error *err);

void kiln_cooked_clip_free(kiln_cooked_clip *c); /* zeroes it; NULL is a no-op */

#endif
