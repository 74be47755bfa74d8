/* cooked_mesh.c — the mesh kind: container MESH (mesh_read.c), loaded with its material; inspect
 * describes its counts, bounds, LOD levels and every stream's format and sizes. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_mesh_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_mesh_view *v = view;
    if (!v->material) return KILN_OK;
    return fn(user, v->material, KILN_MATERIAL_KIND, KILN_REF_LOAD, err);
}

static const char *const stream_names[] = {"position",
                                           "normal",
                                           "tangent",
                                           "uv0",
                                           "uv1",
                                           "uv2",
                                           "uv3",
                                           "color0",
                                           "color1",
                                           "joints",
                                           "weights",
                                           "indices",
                                           "target_positions",
                                           "target_normals",
                                           "target_tangents"};
_Static_assert(sizeof stream_names / sizeof stream_names[0] == KILN_MESH_STREAM_COUNT,
               "a name for every mesh stream");
static const char *const format_names[] = {
    "none",          "f32x2",        "f32x3",     "f32x4",    "unorm16x4",
    "snorm16x2_oct", "snorm8x4_oct", "unorm16x2", "unorm8x4", "u8x4",
    "u16x4",         "u16",          "u32"};

static void describe(const void *view, kiln_describe *d)
{
    const kiln_mesh_view *v = view;
    kiln_describe_bool(d, "quantized", v->flags & KILN_MESH_QUANTIZED);
    kiln_describe_bool(d, "compressed", v->flags & KILN_MESH_COMPRESSED);
    kiln_describe_int(d, "vertex_count", v->vertex_count);
    kiln_describe_int(d, "index_count", v->index_count);
    kiln_describe_id(d, "material", v->material);
    kiln_describe_bounds(d, "bounds", v->bounds_min, v->bounds_max);
    kiln_describe_int(d, "uv_sets", v->uv_set_count);
    kiln_describe_int(d, "color_sets", v->color_set_count);
    kiln_describe_int(d, "joint_count", v->joint_count);
    kiln_describe_int(d, "target_count", v->target_count);
    kiln_describe_int(d, "meshlet_count", v->meshlet_count);
    kiln_describe_int(d, "meshlet_max_vertices", v->meshlet_max_vertices);
    kiln_describe_int(d, "meshlet_max_triangles", v->meshlet_max_triangles);
    kiln_describe_array(d, "levels");
    for (uint32_t l = 0; l < v->level_count && l < KILN_MESH_MAX_LEVELS; l++) {
        const kiln_mesh_lod *lod = &v->levels[l];
        kiln_describe_object(d, NULL);
        kiln_describe_int(d, "triangles", lod->index_count / 3);
        kiln_describe_int(d, "index_offset", lod->index_offset);
        kiln_describe_int(d, "meshlets", lod->meshlet_count);
        kiln_describe_float(d, "error", lod->error);
        kiln_describe_float(d, "error_absolute", lod->error_absolute);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
    kiln_describe_array(d, "streams");
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        const kiln_mesh_stream *st = &v->streams[s];
        if (st->format == KILN_MESH_FORMAT_NONE) continue;
        kiln_describe_object(d, NULL);
        kiln_describe_cstring(d, "stream", stream_names[s]);
        kiln_describe_cstring(d, "format", kiln_describe_name(st->format, format_names, 13));
        kiln_describe_int(d, "stride", st->stride);
        kiln_describe_int(d, "count", (int64_t)st->count);
        kiln_describe_int(d, "size", (int64_t)st->size);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static const char *const labels[] = {"mesh", NULL};

const kiln_cooked_kind kiln_cooked_kind_mesh = {
    .name = "mesh",
    .fourcc = KILN_MESH_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_mesh_view),
    .read = read,
    .refs = refs,
    .describe = describe,
};
