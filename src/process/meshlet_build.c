/* meshlet_build.c — kiln_meshlet_build (meshlet_build.h), for now through meshoptimizer 0.18's
 * meshopt_buildMeshlets. */
#include "process/meshlet_build.h"

#include <meshoptimizer.h>
#include <string.h>

#include "process/mesh_private.h"

size_t kiln_meshlet_bound(size_t index_count, size_t max_vertices, size_t max_triangles)
{
    return meshopt_buildMeshletsBound(index_count, max_vertices, max_triangles);
}

kiln_result kiln_meshlet_build(const kiln_allocator *alloc, const uint32_t *indices,
                               size_t index_count, const float *positions, size_t vertex_count,
                               size_t max_vertices, size_t max_triangles, float cone_weight,
                               kiln_meshlet *meshlets, uint32_t *meshlet_vertices,
                               uint8_t *meshlet_triangles, size_t *meshlet_count, kiln_error *err)
{
    *meshlet_count = 0;
    if (max_vertices < 3 || max_vertices > 255 || max_triangles < 1 || max_triangles > 512)
        return kiln_error_set(err, KILN_E_USAGE, "meshlets: limits outside 3..255 / 1..512");
    if (index_count == 0) return KILN_OK;
    _Static_assert(sizeof(struct meshopt_Meshlet) == sizeof(kiln_meshlet), "meshlet layout");
    const kiln_allocator *outer = kiln_meshopt_enter(alloc);
    size_t n =
        meshopt_buildMeshlets((struct meshopt_Meshlet *)meshlets, meshlet_vertices,
                              meshlet_triangles, indices, index_count, positions, vertex_count,
                              3 * sizeof(float), max_vertices, max_triangles, cone_weight);
    kiln_meshopt_leave(outer);
    *meshlet_count = n;
    return KILN_OK;
}
