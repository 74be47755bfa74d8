/* normals.h — smooth vertex normals for a triangle list, each triangle's unit face normal
 * weighted by its corner angle (Thürmer and Wüthrich, "Computing vertex normals from polygonal
 * facets", 1998): the result does not change when a face is split into more triangles. */
#ifndef KILN_PROCESS_NORMALS_H
#define KILN_PROCESS_NORMALS_H

#include <stdint.h>

/* Writes 3 floats per vertex to normals_out (unit length, never NaN).
 *
 * Every triangle adds its unit face normal (counter-clockwise front, glTF's winding) times the
 * angle at each corner to that corner's vertex. Only vertices shared through the index list are
 * smoothed: two vertices at the same position stay apart (their normals may differ, as at a
 * hard edge or a UV seam the file split on purpose).
 *
 * Skipped, adding nothing: triangles with an index >= vertex_count, with a repeated index, with
 * zero area or with a non-finite coordinate. A vertex that no usable triangle reaches, or whose
 * contributions cancel out (a sheet folded flat onto itself), gets (0, 0, 1).
 *
 * positions: 3 floats per vertex. indices: index_count entries read as whole triangles (a last
 * partial triangle is ignored). normals_out must not overlap positions. Each triangle is worked
 * out in double and added in index order, so the same input gives the same bits. */
void kiln_normals_compute(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                          uint32_t index_count, float *normals_out);

#endif
