/* mesh_write.c — kiln_mesh_write (mesh_write.h): a cooked mesh as a "MESH" container. The layout
 * of every section is in docs/formats.md ("Meshes"); mesh_read.c is its reader. */
#include "write/mesh_write.h"

#include <string.h>

#include "codec/mesh_sections.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

/* Vertex data, indices and meshlet tables are copied as the host holds them. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "kiln writes little-endian meshes from little-endian hosts only"
#endif
_Static_assert(sizeof(kiln_meshlet) == KILN_MESH_MESHLET_SIZE, "meshlet layout");
_Static_assert(sizeof(kiln_meshlet_bounds) == KILN_MESH_BOUNDS_SIZE, "meshlet bounds layout");

static void header_bytes(const kiln_cooked_mesh *m, uint8_t h[KILN_MESH_HEADER_SIZE])
{
    memset(h, 0, KILN_MESH_HEADER_SIZE);
    kiln_store_u32le(h + 0, m->flags);
    kiln_store_u32le(h + 4, m->vertex_count);
    kiln_store_u32le(h + 8, m->index_count);
    kiln_store_u32le(h + 12, m->streams[KILN_MESH_INDICES].stride);
    kiln_store_u32le(h + 16, m->level_count);
    kiln_store_u32le(h + 20, m->meshlet_count);
    kiln_store_u32le(h + 24, m->meshlet_vertex_count);
    kiln_store_u32le(h + 28, m->meshlet_triangle_size);
    kiln_store_u32le(h + 32, m->target_count);
    kiln_store_u32le(h + 36, m->joint_count);
    kiln_store_u64le(h + 40, m->material);
    for (int c = 0; c < 3; c++) {
        kiln_store_f32le(h + 48 + 4 * c, m->bounds_min[c]);
        kiln_store_f32le(h + 60 + 4 * c, m->bounds_max[c]);
        kiln_store_f32le(h + 72 + 4 * c, m->position_scale[c]);
    }
    kiln_store_f32le(h + 84, m->extent);
    for (int s = 0; s < KILN_MESH_MAX_UV_SETS; s++)
        for (int c = 0; c < 2; c++) {
            kiln_store_f32le(h + 88 + 8 * s + 4 * c, m->uv_offset[s][c]);
            kiln_store_f32le(h + 120 + 8 * s + 4 * c, m->uv_scale[s][c]);
        }
    kiln_store_u32le(h + 152, m->meshlet_max_vertices);
    kiln_store_u32le(h + 156, m->meshlet_max_triangles);
    kiln_store_u32le(h + 160, m->uv_set_count);
    kiln_store_u32le(h + 164, m->color_set_count);
    /* 168..175 reserved, zero */
}

/* A stream's section: raw elements, or the encoded bytes (element size 1). Empty: none. */
static kiln_result add_stream(kiln_container_writer *w, const kiln_cooked_mesh *m, int id,
                              kiln_error *err)
{
    const kiln_cooked_stream *s = &m->streams[id];
    if (s->count == 0) return KILN_OK;
    if (s->packed)
        return kiln_container_add(w, kiln_mesh_stream_section(id), 1, s->packed_size, s->packed,
                                  err);
    return kiln_container_add(w, kiln_mesh_stream_section(id), s->stride, s->count, s->data, err);
}

kiln_result kiln_mesh_write(const kiln_cooked_mesh *m, const kiln_allocator *alloc, uint8_t **out,
                            size_t *size, kiln_error *err)
{
    if (!m || !out || !size)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_write: NULL argument");
    *out = NULL;
    *size = 0;
    if (m->level_count < 1 || m->level_count > KILN_MESH_MAX_LEVELS)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_write: %u levels", m->level_count);
    uint8_t header[KILN_MESH_HEADER_SIZE];
    header_bytes(m, header);
    uint8_t lods[KILN_MESH_MAX_LEVELS * KILN_MESH_LOD_SIZE];
    memset(lods, 0, sizeof lods);
    for (uint32_t l = 0; l < m->level_count; l++) {
        uint8_t *p = lods + l * KILN_MESH_LOD_SIZE;
        const kiln_mesh_lod *lvl = &m->levels[l];
        kiln_store_u32le(p + 0, lvl->index_offset);
        kiln_store_u32le(p + 4, lvl->index_count);
        kiln_store_u32le(p + 8, lvl->meshlet_offset);
        kiln_store_u32le(p + 12, lvl->meshlet_count);
        kiln_store_f32le(p + 16, lvl->error);
        kiln_store_f32le(p + 20, lvl->error_absolute);
    }
    size_t tgt_size = (size_t)m->target_count * KILN_MESH_TARGET_SIZE;
    uint8_t *tgts = tgt_size ? kiln_calloc(alloc, m->target_count, KILN_MESH_TARGET_SIZE) : NULL;
    if (tgt_size && !tgts) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "mesh: out of memory");
    for (uint32_t t = 0; t < m->target_count; t++) {
        kiln_store_u32le(tgts + (size_t)t * 8, m->target_flags[t]);
        kiln_store_f32le(tgts + (size_t)t * 8 + 4, m->target_weights[t]);
    }

    kiln_container_writer w;
    kiln_container_begin(&w, KILN_MESH_KIND, KILN_MESH_KIND_VERSION, alloc);
    kiln_result rc =
        kiln_container_add(&w, KILN_MESH_SECTION_HEADER, KILN_MESH_HEADER_SIZE, 1, header, err);
    if (rc == KILN_OK)
        rc = kiln_container_add(&w, KILN_MESH_SECTION_LODS, KILN_MESH_LOD_SIZE, m->level_count,
                                lods, err);
    /* Vertex streams, indices, meshlet tables, targets, target deltas: the order of the file. */
    for (int id = 0; id <= KILN_MESH_INDICES && rc == KILN_OK; id++)
        rc = add_stream(&w, m, id, err);
    if (rc == KILN_OK && m->meshlet_count) {
        rc = kiln_container_add(&w, KILN_MESH_SECTION_MESHLETS, KILN_MESH_MESHLET_SIZE,
                                m->meshlet_count, m->meshlets, err);
        if (rc == KILN_OK)
            rc = kiln_container_add(&w, KILN_MESH_SECTION_BOUNDS, KILN_MESH_BOUNDS_SIZE,
                                    m->meshlet_count, m->meshlet_bounds, err);
        if (rc == KILN_OK)
            rc = kiln_container_add(&w, KILN_MESH_SECTION_MESHLET_VERTICES, 4,
                                    m->meshlet_vertex_count, m->meshlet_vertices, err);
        if (rc == KILN_OK)
            rc = kiln_container_add(&w, KILN_MESH_SECTION_MESHLET_TRIANGLES, 1,
                                    m->meshlet_triangle_size, m->meshlet_triangles, err);
    }
    if (rc == KILN_OK && m->target_count)
        rc = kiln_container_add(&w, KILN_MESH_SECTION_TARGETS, KILN_MESH_TARGET_SIZE,
                                m->target_count, tgts, err);
    for (int id = KILN_MESH_TARGET_POSITIONS; id < KILN_MESH_STREAM_COUNT && rc == KILN_OK; id++)
        rc = add_stream(&w, m, id, err);
    if (rc == KILN_OK) rc = kiln_container_finish(&w, out, size, err);
    kiln_free(alloc, tgts, tgt_size);
    return rc;
}
