/* cooked_vgeo.c — the virtual geometry kind: container VGEO (vgeo_read.c), loaded with the mesh
 * whose vertices its clusters index; inspect describes its counts and, per DAG level, the
 * clusters, triangles and the range of their own errors. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_vgeo_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_vgeo_view *v = view;
    return fn(user, v->mesh, KILN_MESH_KIND, KILN_REF_LOAD, err);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_vgeo_view *v = view;
    kiln_describe_id(d, "mesh", v->mesh);
    kiln_describe_int(d, "vertex_count", v->vertex_count);
    kiln_describe_bool(d, "stalled", v->flags & KILN_VGEO_STALLED);
    kiln_describe_int(d, "level_count", v->level_count);
    kiln_describe_int(d, "group_count", v->group_count);
    kiln_describe_int(d, "cluster_count", v->cluster_count);
    kiln_describe_int(d, "root_count", v->root_count);
    kiln_describe_int(d, "source_triangles", v->source_triangles);
    kiln_describe_int(d, "max_vertices", v->max_vertices);
    kiln_describe_int(d, "max_triangles", v->max_triangles);
    kiln_describe_float(d, "extent", v->extent);
    uint32_t clusters[KILN_VGEO_MAX_LEVELS] = {0};
    uint64_t triangles[KILN_VGEO_MAX_LEVELS] = {0};
    float lo[KILN_VGEO_MAX_LEVELS], hi[KILN_VGEO_MAX_LEVELS];
    for (uint32_t c = 0; c < v->cluster_count; c++) {
        uint32_t l = kiln_vgeo_cluster_link(v, c).level;
        if (l >= KILN_VGEO_MAX_LEVELS) continue; /* the reader refused it */
        kiln_vgeo_lod self;
        kiln_vgeo_cluster_lod(v, c, &self, NULL);
        if (clusters[l] == 0 || self.error < lo[l]) lo[l] = self.error;
        if (clusters[l] == 0 || self.error > hi[l]) hi[l] = self.error;
        clusters[l]++;
        triangles[l] += kiln_vgeo_cluster(v, c).triangle_count;
    }
    kiln_describe_array(d, "levels");
    for (uint32_t l = 0; l < v->level_count && l < KILN_VGEO_MAX_LEVELS; l++) {
        kiln_describe_object(d, NULL);
        kiln_describe_int(d, "clusters", clusters[l]);
        kiln_describe_int(d, "triangles", (int64_t)triangles[l]);
        kiln_describe_float(d, "error_min", clusters[l] ? lo[l] : 0.0f);
        kiln_describe_float(d, "error_max", clusters[l] ? hi[l] : 0.0f);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static const char *const labels[] = {"vgeo", NULL};

const kiln_cooked_kind kiln_cooked_kind_vgeo = {
    .name = "vgeo",
    .fourcc = KILN_VGEO_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_vgeo_view),
    .read = read,
    .refs = refs,
    .describe = describe,
};
