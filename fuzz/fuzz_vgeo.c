/* fuzz_vgeo.c — libFuzzer target for kiln_vgeo_read: any input gives an error or a cluster DAG
 * that keeps every promise of kiln_format.h, walked through every accessor and
 * kiln_vgeo_cluster_lod: ranges and local indices inside the tables, links that agree with the
 * groups, levels rising along every edge, errors and spheres growing up the DAG, the roots
 * counted. Checked with the checksum and without it (a fuzzer rarely forges a checksum). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/reader.h"
#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_cluster(const kiln_vgeo_view *v, uint32_t c, uint32_t *roots, uint64_t *level0)
{
    kiln_meshlet m = kiln_vgeo_cluster(v, c);
    kiln_vgeo_link l = kiln_vgeo_cluster_link(v, c);
    kiln_meshlet_bounds b = kiln_vgeo_cluster_bounds(v, c);
    if (m.vertex_count < 1 || m.vertex_count > v->max_vertices || m.triangle_count < 1 ||
        m.triangle_count > v->max_triangles)
        abort();
    if ((uint64_t)m.vertex_offset + m.vertex_count > v->cluster_vertex_count ||
        (uint64_t)m.triangle_offset + 3u * m.triangle_count > v->cluster_triangle_size)
        abort();
    for (uint32_t k = 0; k < m.vertex_count; k++)
        if (kiln_load_u32le(v->cluster_vertices + 4 * ((size_t)m.vertex_offset + k)) >=
            v->vertex_count)
            abort();
    for (uint32_t k = 0; k < 3 * m.triangle_count; k++)
        if (v->cluster_triangles[m.triangle_offset + k] >= m.vertex_count) abort();
    if (!isfinite(b.radius) || b.radius < 0.0f || !isfinite(b.cone_cutoff)) abort();
    if (l.level >= v->level_count) abort();
    if (l.level == 0) *level0 += m.triangle_count;
    if ((l.level == 0) != (l.source_group == KILN_VGEO_NONE)) abort();
    if (l.source_group != KILN_VGEO_NONE &&
        (l.source_group >= v->group_count ||
         kiln_vgeo_group_at(v, l.source_group).level != l.level))
        abort();
    kiln_vgeo_lod self, parent;
    kiln_vgeo_cluster_lod(v, c, &self, &parent);
    if (!isfinite(self.error) || self.error < 0.0f || !(parent.error >= self.error)) abort();
    if (l.group == KILN_VGEO_NONE) {
        (*roots)++;
        if (!isinf(parent.error)) abort();
        return;
    }
    if (l.group >= v->group_count) abort();
    kiln_vgeo_group g = kiln_vgeo_group_at(v, l.group);
    if (c < g.cluster_offset || c - g.cluster_offset >= g.cluster_count || g.level <= l.level)
        abort();
    if (l.level > 0) {
        double dx = (double)parent.center[0] - self.center[0],
               dy = (double)parent.center[1] - self.center[1],
               dz = (double)parent.center[2] - self.center[2];
        if (!(sqrt(dx * dx + dy * dy + dz * dz) + self.radius <= parent.radius)) abort();
    }
}

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_vgeo_view v;
    kiln_error err;
    kiln_result r = kiln_vgeo_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    if (v.cluster_count == 0 || v.level_count < 1 || v.level_count > KILN_VGEO_MAX_LEVELS ||
        v.mesh == 0 || !isfinite(v.extent) || v.extent < 0.0f)
        abort();
    uint32_t roots = 0;
    uint64_t level0 = 0;
    uint32_t top = 0;
    for (uint32_t c = 0; c < v.cluster_count; c++) {
        walk_cluster(&v, c, &roots, &level0);
        uint32_t l = kiln_vgeo_cluster_link(&v, c).level;
        if (l > top) top = l;
    }
    if (roots != v.root_count || roots == 0 || top + 1 != v.level_count ||
        level0 != v.source_triangles || (roots > 1) != ((v.flags & KILN_VGEO_STALLED) != 0))
        abort();
    for (uint32_t g = 0; g < v.group_count; g++) {
        kiln_vgeo_group x = kiln_vgeo_group_at(&v, g);
        if (x.cluster_count == 0 || (uint64_t)x.cluster_offset + x.cluster_count > v.cluster_count)
            abort();
        if (!isfinite(x.error) || x.error < 0.0f || !isfinite(x.radius) || x.radius < 0.0f) abort();
        for (uint32_t c = x.cluster_offset; c < x.cluster_offset + x.cluster_count; c++)
            if (kiln_vgeo_cluster_link(&v, c).group != g) abort();
    }
    /* past the ends: zeros, never a read outside */
    if (kiln_vgeo_cluster(&v, v.cluster_count).vertex_count ||
        kiln_vgeo_group_at(&v, v.group_count).cluster_count ||
        kiln_vgeo_cluster_link(&v, v.cluster_count).group != KILN_VGEO_NONE ||
        kiln_vgeo_cluster_bounds(&v, v.cluster_count).radius != 0.0f)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
