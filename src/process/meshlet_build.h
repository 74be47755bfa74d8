/* meshlet_build.h — splitting a triangle list into meshlets (clusters of at most max_vertices
 * vertices and max_triangles triangles) for the mesh cook's meshlets of every level and the
 * clusters of virtual geometry (vgeo.h). docs/meshes.md, "Meshlets", says how and what it
 * measures against meshoptimizer. */
#ifndef KILN_PROCESS_MESHLET_BUILD_H
#define KILN_PROCESS_MESHLET_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/error.h"
#include "kiln/kiln_format.h"

/* The most meshlets index_count indices can give (arrays: this many meshlets, this times
 * max_vertices vertices, this times max_triangles * 3 triangle bytes). */
size_t kiln_meshlet_bound(size_t index_count, size_t max_vertices, size_t max_triangles);

/* Splits the triangle list (indices < vertex_count; positions 3 floats a vertex) into meshlets:
 * meshlets[i] ranges over meshlet_vertices (indices into the vertices) and meshlet_triangles
 * (3 bytes a triangle, indices into the meshlet's own vertices, not padded). Every triangle is
 * in exactly one meshlet. cone_weight in [0, 1] trades compactness for narrower normal cones.
 * Scratch memory from alloc (NULL = libc). Deterministic. Thread-safe. Errors: KILN_E_USAGE
 * (limits outside 3..255 vertices / 1..512 triangles), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_meshlet_build(const kiln_allocator *alloc, const uint32_t *indices,
                               size_t index_count, const float *positions, size_t vertex_count,
                               size_t max_vertices, size_t max_triangles, float cone_weight,
                               kiln_meshlet *meshlets, uint32_t *meshlet_vertices,
                               uint8_t *meshlet_triangles, size_t *meshlet_count, kiln_error *err);

#endif
