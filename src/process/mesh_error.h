/* mesh_error.h — how far a simplified surface lies from its source: the error the mesh cook
 * stores for every level of detail and the DAG of virtual geometry stores for every group, and
 * which the runtime selects by, so it must bound the real deviation (docs/meshes.md, "How
 * errors are measured"). */
#ifndef KILN_PROCESS_MESH_ERROR_H
#define KILN_PROCESS_MESH_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/error.h"

/* An upper bound on the symmetric Hausdorff distance between two triangle lists over the same
 * vertices (positions: 3 floats a vertex, indices < vertex_count): the largest distance from a
 * point of either surface to the other surface, in model units. Measured on a bounded sample
 * of each surface and widened by the sample's covering radius, so it holds for every point,
 * not only the sampled ones. Either list empty: the other's distance to nothing is +inf, both
 * empty 0. Scratch from alloc (NULL = libc). Deterministic and thread-safe. Errors:
 * KILN_E_OUT_OF_MEMORY, KILN_E_USAGE (an index >= vertex_count), KILN_E_LIMIT (2^31 or more
 * triangles in a list). */
kiln_result kiln_mesh_deviation(const kiln_allocator *alloc, const float *positions,
                                size_t vertex_count, const uint32_t *a, size_t a_count,
                                const uint32_t *b, size_t b_count, float *out, kiln_error *err);

#endif
