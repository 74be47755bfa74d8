/* inspect_mesh.c — the "mesh" summary of a MESH container (inspect.h): counts, bounds, LOD levels
 * and every stream's format and sizes, as kiln_mesh_read finds them. */
#include "pipeline/inspect.h"

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
static const char *const format_names[] = {
    "none",          "f32x2",        "f32x3",     "f32x4",    "unorm16x4",
    "snorm16x2_oct", "snorm8x4_oct", "unorm16x2", "unorm8x4", "u8x4",
    "u16x4",         "u16",          "u32"};

static json_t *levels_doc(const kiln_mesh_view *v)
{
    json_t *levels = json_array();
    for (uint32_t l = 0; l < v->level_count && l < KILN_MESH_MAX_LEVELS; l++) {
        const kiln_mesh_lod *d = &v->levels[l];
        json_t *lj = json_object();
        json_object_set_new(lj, "triangles", json_integer(d->index_count / 3));
        json_object_set_new(lj, "index_offset", json_integer(d->index_offset));
        json_object_set_new(lj, "meshlets", json_integer(d->meshlet_count));
        json_object_set_new(lj, "error", kiln_inspect_f32(d->error));
        json_object_set_new(lj, "error_absolute", kiln_inspect_f32(d->error_absolute));
        json_array_append_new(levels, lj);
    }
    return levels;
}

static json_t *streams_doc(const kiln_mesh_view *v)
{
    json_t *streams = json_array();
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        const kiln_mesh_stream *st = &v->streams[s];
        if (st->format == KILN_MESH_FORMAT_NONE) continue;
        json_t *sj = json_object();
        json_object_set_new(sj, "stream", json_string(stream_names[s]));
        json_object_set_new(sj, "format",
                            json_string(kiln_inspect_name(st->format, format_names, 13)));
        json_object_set_new(sj, "stride", json_integer(st->stride));
        json_object_set_new(sj, "count", json_integer((json_int_t)st->count));
        json_object_set_new(sj, "size", json_integer((json_int_t)st->size));
        json_array_append_new(streams, sj);
    }
    return streams;
}

kiln_result kiln_inspect_mesh(const uint8_t *data, size_t size, json_t **out, kiln_error *err)
{
    _Static_assert(sizeof stream_names / sizeof stream_names[0] == KILN_MESH_STREAM_COUNT,
                   "a name for every mesh stream");
    kiln_mesh_view v;
    kiln_result r = kiln_mesh_read(data, size, 0, &v, err);
    if (r != KILN_OK) return r;
    json_t *j = json_object();
    json_object_set_new(j, "quantized", json_boolean(v.flags & KILN_MESH_QUANTIZED));
    json_object_set_new(j, "compressed", json_boolean(v.flags & KILN_MESH_COMPRESSED));
    json_object_set_new(j, "vertex_count", json_integer(v.vertex_count));
    json_object_set_new(j, "index_count", json_integer(v.index_count));
    json_object_set_new(j, "material", kiln_inspect_id(v.material));
    json_object_set_new(j, "bounds", kiln_inspect_bounds(v.bounds_min, v.bounds_max));
    json_object_set_new(j, "uv_sets", json_integer(v.uv_set_count));
    json_object_set_new(j, "color_sets", json_integer(v.color_set_count));
    json_object_set_new(j, "joint_count", json_integer(v.joint_count));
    json_object_set_new(j, "target_count", json_integer(v.target_count));
    json_object_set_new(j, "meshlet_count", json_integer(v.meshlet_count));
    json_object_set_new(j, "meshlet_max_vertices", json_integer(v.meshlet_max_vertices));
    json_object_set_new(j, "meshlet_max_triangles", json_integer(v.meshlet_max_triangles));
    json_object_set_new(j, "levels", levels_doc(&v));
    json_object_set_new(j, "streams", streams_doc(&v));
    *out = j;
    return KILN_OK;
}
