/* vgeo_write.c — kiln_vgeo_write (vgeo_write.h): a cooked cluster DAG as a "VGEO" container. The
 * layout of every section is in docs/formats.md ("Virtual geometry"); vgeo_read.c is its reader,
 * and the writer reads its own bytes back with it, so a DAG that breaks a rule the reader checks
 * (ranges, links, levels, monotonic errors) is refused here, where the builder can be blamed. */
#include "write/vgeo_write.h"

#include <string.h>

#include "codec/vgeo_sections.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

/* Groups, clusters, links, bounds and cluster vertices are copied as the host holds them. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "kiln writes little-endian virtual geometry from little-endian hosts only"
#endif
_Static_assert(sizeof(kiln_vgeo_group) == KILN_VGEO_GROUP_SIZE, "group layout");
_Static_assert(sizeof(kiln_vgeo_link) == KILN_VGEO_LINK_SIZE, "link layout");
_Static_assert(sizeof(kiln_meshlet) == KILN_VGEO_CLUSTER_SIZE, "cluster layout");
_Static_assert(sizeof(kiln_meshlet_bounds) == KILN_VGEO_BOUNDS_SIZE, "bounds layout");

void kiln_vgeo_header_bytes(const kiln_cooked_vgeo *v, uint8_t h[KILN_VGEO_HEADER_SIZE])
{
    memset(h, 0, KILN_VGEO_HEADER_SIZE); /* the reserved bytes too */
    kiln_store_u64le(h + KILN_VGEO_H_MESH, v->mesh);
    kiln_store_u32le(h + KILN_VGEO_H_VERTEX_COUNT, v->vertex_count);
    kiln_store_u32le(h + KILN_VGEO_H_FLAGS, v->flags);
    kiln_store_u32le(h + KILN_VGEO_H_LEVEL_COUNT, v->level_count);
    kiln_store_u32le(h + KILN_VGEO_H_GROUP_COUNT, v->group_count);
    kiln_store_u32le(h + KILN_VGEO_H_CLUSTER_COUNT, v->cluster_count);
    kiln_store_u32le(h + KILN_VGEO_H_CLUSTER_VERTEX_COUNT, v->cluster_vertex_count);
    kiln_store_u32le(h + KILN_VGEO_H_CLUSTER_TRIANGLE_SIZE, v->cluster_triangle_size);
    kiln_store_u32le(h + KILN_VGEO_H_MAX_VERTICES, v->max_vertices);
    kiln_store_u32le(h + KILN_VGEO_H_MAX_TRIANGLES, v->max_triangles);
    kiln_store_u32le(h + KILN_VGEO_H_SOURCE_TRIANGLES, v->source_triangles);
    kiln_store_f32le(h + KILN_VGEO_H_EXTENT, v->extent);
}

kiln_result kiln_vgeo_write(const kiln_cooked_vgeo *v, const kiln_allocator *alloc, uint8_t **out,
                            size_t *size, kiln_error *err)
{
    if (out) *out = NULL;
    if (size) *size = 0;
    if (!v || !out || !size)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_write: NULL argument");
    if ((v->group_count && !v->groups) ||
        (v->cluster_count && (!v->clusters || !v->links || !v->bounds)) ||
        (v->cluster_vertex_count && !v->cluster_vertices) ||
        (v->cluster_triangle_size && !v->cluster_triangles))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_write: a table with a count is NULL");
    uint8_t header[KILN_VGEO_HEADER_SIZE];
    kiln_vgeo_header_bytes(v, header);

    kiln_container_writer w;
    kiln_container_begin(&w, KILN_VGEO_KIND, KILN_VGEO_KIND_VERSION, alloc);
    /* Every section, empty ones too, in the order of the file. */
    kiln_result rc =
        kiln_container_add(&w, KILN_VGEO_SECTION_HEADER, KILN_VGEO_HEADER_SIZE, 1, header, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_VGEO_SECTION_GROUPS, KILN_VGEO_GROUP_SIZE, v->group_count,
                                v->groups, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_VGEO_SECTION_CLUSTERS, KILN_VGEO_CLUSTER_SIZE,
                                v->cluster_count, v->clusters, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_VGEO_SECTION_LINKS, KILN_VGEO_LINK_SIZE, v->cluster_count,
                                v->links, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_VGEO_SECTION_BOUNDS, KILN_VGEO_BOUNDS_SIZE,
                                v->cluster_count, v->bounds, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_VGEO_SECTION_VERTICES, 4, v->cluster_vertex_count,
                                v->cluster_vertices, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_VGEO_SECTION_TRIANGLES, 1, v->cluster_triangle_size,
                                v->cluster_triangles, err);
    if (rc == KILN_OK) rc = kiln_container_finish(&w, out, size, err);
    if (rc != KILN_OK) return rc;

    kiln_vgeo_view check;
    kiln_error why;
    if (kiln_vgeo_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &check, &why) != KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "virtual geometry refused by its reader: %s",
                              why.message);
    }
    return KILN_OK;
}
