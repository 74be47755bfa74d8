/* lod_select.c — kiln_lod_pixels and kiln_lod_select (kiln_format.h): choosing a cooked mesh's
 * level of detail at run time from the levels' absolute errors. Pure functions; docs/meshes.md
 * ("Choosing a level at run time") has the formula and a worked example. */
#include <math.h>

#include "kiln/kiln_format.h"

KILN_API float kiln_lod_pixels(float error, float distance, float screen_height, float fov_y)
{
    if (!(error > 0.0f)) return 0.0f; /* level 0, or nonsense: no visible error */
    float t = tanf(fov_y * 0.5f);
    if (!(distance > 0.0f) || !(t > 0.0f)) return INFINITY;
    return error * screen_height / (2.0f * distance * t);
}

KILN_API uint32_t kiln_lod_select(const float *errors, uint32_t level_count, uint32_t current,
                                  float distance, float screen_height, float fov_y, float threshold,
                                  float hysteresis)
{
    if (!errors || level_count == 0) return 0;
    if (!isfinite(distance) || !isfinite(screen_height) || !isfinite(fov_y) ||
        !isfinite(threshold) || !isfinite(hysteresis))
        return 0;
    if (current >= level_count) current = level_count - 1;
    if (hysteresis < 0.0f) hysteresis = 0.0f;
    if (hysteresis > 0.99f) hysteresis = 0.99f;
    /* The coarsest acceptable level: errors grow with the level, so stop at the first too big. */
    uint32_t fit = 0;
    for (uint32_t l = 1; l < level_count; l++) {
        if (!(kiln_lod_pixels(errors[l], distance, screen_height, fov_y) <= threshold)) break;
        fit = l;
    }
    if (fit <= current) return fit; /* the current level is too coarse (or exactly right) */
    /* Coarser is allowed: go only as far as the levels clear the threshold by the margin. */
    uint32_t pick = current;
    float strict = threshold * (1.0f - hysteresis);
    for (uint32_t l = current + 1; l <= fit; l++) {
        if (!(kiln_lod_pixels(errors[l], distance, screen_height, fov_y) <= strict)) break;
        pick = l;
    }
    return pick;
}
