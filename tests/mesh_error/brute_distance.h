/* brute_distance.h — the tests' own measurement of the distance between two triangle lists,
 * independent of src/process/mesh_error*.c: dense samples of each surface (every vertex, points
 * along every edge, random barycentric points in every triangle, more in larger ones) and, for
 * each, the exact distance to the nearest triangle of the other surface, found in a uniform
 * grid with its own point-triangle distance (projection onto the plane, else the nearest
 * edge). A lower bound on the true Hausdorff distance that approaches it as samples grow. */
#ifndef KILN_TEST_BRUTE_DISTANCE_H
#define KILN_TEST_BRUTE_DISTANCE_H

#include <stddef.h>
#include <stdint.h>

/* The symmetric distance measured on about `samples` interior points (plus vertices and edge
 * points) per surface; a and b are index lists of na / nb indices into pos (3 floats a
 * vertex). 0 when both are empty. */
double bd_hausdorff(const float *pos, const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
                    size_t samples, uint32_t seed);

/* The one-way distance: the largest distance from a sampled point of `from` to the surface
 * `to` (0 when from is empty, +inf when to is). */
double bd_directed(const float *pos, const uint32_t *from, size_t nfrom, const uint32_t *to,
                   size_t nto, size_t samples, uint32_t seed);

#endif
