/* tangent.h — MikkTSpace tangents for a triangle list, written from Morten Mikkelsen's
 * description ("Simulation of Wrinkled Surfaces Revisited", 2008, and the documentation of the
 * reference interface), so that normal maps baked by tools that use MikkTSpace (Blender,
 * Substance, xNormal, Unity, Unreal) look right, as glTF 2.0 asks for primitives without
 * TANGENT. */
#ifndef KILN_PROCESS_TANGENT_H
#define KILN_PROCESS_TANGENT_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* The output of kiln_tangents_generate. Vertices keep their numbers; a vertex whose corners
 * need different tangents (a mirrored UV seam, where the handedness flips) is split: the copies
 * are appended after the input vertices. */
typedef struct kiln_tangent_result {
    float *tangents;       /* 4 per output vertex: unit xyz, w = +1 or -1 */
    uint32_t *remap;       /* per output vertex: the input vertex it copies; remap[i] = i
                              for i < the input count, then the appended copies */
    uint32_t *indices;     /* index_count, the input's with split corners renumbered */
    uint32_t vertex_count; /* input count + split_count */
    uint32_t index_count;  /* = the input's */
    uint32_t split_count;  /* vertices appended */
    size_t tangents_size, remap_size, indices_size; /* bytes, for kiln_free */
} kiln_tangent_result;

/* Generates a tangent per vertex the way MikkTSpace does (genTangSpaceDefault), with glTF's
 * conventions: bitangent = cross(normal, tangent.xyz) * tangent.w, texture coordinates with
 * their origin at the top left (the algorithm runs on (u, -v), as a tool with v up sees them).
 *
 * What the algorithm does, in short:
 * - Corners are welded: two vertices with equal position, normal and uv (float ==) count as one.
 * - Each triangle gets the direction of increasing u and of increasing v over its surface, and
 *   its orientation: whether the uv mapping keeps or mirrors its winding (signed uv area > 0).
 *   A triangle with no uv area (or no position area) groups with any neighbour and adds nothing.
 * - Around each welded vertex, the triangles joined by shared edges (consistent winding) and of
 *   the same orientation form a group; a vertex has one group per mirrored region meeting it.
 * - A group's tangent sums, over its triangles, the u direction projected onto the plane of
 *   the vertex normal and normalised, weighted by the triangle's corner angle in that plane;
 *   the sum is normalised. w is +1 for groups that keep the winding, -1 for mirrored ones.
 *   (MikkTSpace's sub-groups, which leave out a triangle whose tangent and bitangent point
 *   exactly against another's, are kept for groups of up to 64 triangles; larger groups, which
 *   only hostile input has, sum all of their triangles.)
 *
 * Where MikkTSpace leaves a placeholder, kiln chooses (documented divergence, never NaN):
 * - a corner in no group (a triangle with a repeated vertex, or one with no uv area that no
 *   group took in) copies the tangent of the first corner, in index order, of the same welded
 *   vertex that has one;
 * - a tangent that is zero (the u direction parallel to the normal, or no corner to copy), or
 *   not finite (non-finite input), becomes a unit vector perpendicular to the normal: x
 *   projected off the normal, or y when the normal is within 25 degrees of x; (1, 0, 0) when
 *   the normal is zero or not finite; w keeps the group's sign, else +1.
 * - vertices no triangle uses get that fallback too.
 *
 * positions and normals: 3 floats per vertex, uvs: 2 (the normal texture's set). normals should
 * be unit length (they are used as given, as MikkTSpace does). indices: index_count, a multiple
 * of 3, each < vertex_count. a may be NULL (libc). On success *out owns its arrays (free with
 * kiln_tangent_result_free); on error *out is zeroed. Memory: O(vertex_count + index_count),
 * freed before returning. Same input bits give the same output bits. Thread-safe.
 * Errors: KILN_E_IMPORT_FAILED (index count not a multiple of 3, an index out of range),
 * KILN_E_LIMIT (the split vertices would pass 2^32 - 1), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_tangents_generate(const float *positions, const float *normals, const float *uvs,
                                   uint32_t vertex_count, const uint32_t *indices,
                                   uint32_t index_count, const kiln_allocator *a,
                                   kiln_tangent_result *out, kiln_error *err);

/* Frees the arrays of r (allocated with a) and zeroes it. NULL-safe; safe on a zeroed result. */
void kiln_tangent_result_free(const kiln_allocator *a, kiln_tangent_result *r);

#endif
