/* golden_measure.h — the perceptual measure the golden images are compared by
 * (docs/rendering.md "Golden images"): both pictures blurred a little (3x3 box, in linear
 * light), then CIELAB ΔE (CIE76) per pixel; the mean and the 99th percentile are what the
 * tolerance bounds. */
#ifndef GOLDEN_MEASURE_H
#define GOLDEN_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* The tolerance (why these numbers: docs/rendering.md). */
#define GOLDEN_MAX_MEAN_DE 1.0
#define GOLDEN_MAX_P99_DE  4.0

typedef struct golden_delta {
    double mean, p99, max;
} golden_delta;

/* ΔE between two RGB8 (sRGB) pictures of w x h pixels; per_pixel (w * h floats, may be NULL)
 * gets each pixel's. Returns 0, or -1 when memory runs out. */
int golden_delta_e(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, float *per_pixel,
                   golden_delta *out);

/* Whether a difference is within the tolerance. */
int golden_within(const golden_delta *d);

/* A picture of per_pixel for people: black where equal, up through red and yellow to white at
 * ΔE 10 and above (RGB8, w * h * 3 bytes). */
void golden_diff_picture(const float *per_pixel, uint32_t w, uint32_t h, uint8_t *rgb);

#endif
