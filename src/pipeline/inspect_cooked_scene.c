/* inspect_cooked_scene.c — the "scene" summary of a SCEN container (inspect.h): the node tree
 * with transforms, meshes, skins, cameras, lights and morph weights, and the clips, as
 * kiln_cooked_scene_read finds them. */
#include "pipeline/inspect.h"

static const char *const camera_types[] = {"perspective", "orthographic"};
static const char *const light_types[] = {"directional", "point", "spot"};

static json_t *node_doc(const kiln_cooked_scene_view *v, uint32_t i)
{
    kiln_cooked_node n = kiln_cooked_scene_node(v, i);
    json_t *nj = json_object();
    json_object_set_new(nj, "name", kiln_inspect_str(n.name, n.name_size));
    json_object_set_new(nj, "parent", kiln_inspect_index(n.parent));
    json_object_set_new(nj, "subtree_end", json_integer(n.subtree_end));
    json_object_set_new(nj, "source_node", kiln_inspect_index(n.source_node));
    json_object_set_new(nj, "synthetic", json_boolean(n.flags & KILN_COOKED_NODE_SYNTHETIC));
    json_object_set_new(nj, "matrix_given", json_boolean(n.flags & KILN_COOKED_NODE_MATRIX));
    json_object_set_new(nj, "translation", kiln_inspect_f32s(n.translation, 3));
    json_object_set_new(nj, "rotation", kiln_inspect_f32s(n.rotation, 4));
    json_object_set_new(nj, "scale", kiln_inspect_f32s(n.scale, 3));
    json_object_set_new(nj, "matrix", kiln_inspect_f32s(n.matrix, 16));
    json_object_set_new(nj, "mesh", kiln_inspect_index(n.mesh));
    json_t *prims = json_array();
    for (uint32_t p = 0; p < n.primitive_count; p++)
        json_array_append_new(
            prims, kiln_inspect_id(kiln_cooked_scene_primitive(v, n.first_primitive + p)));
    json_object_set_new(nj, "primitives", prims);
    json_object_set_new(nj, "skin", kiln_inspect_index(n.skin));
    json_object_set_new(nj, "skeleton", kiln_inspect_id(n.skeleton));
    json_object_set_new(nj, "camera", kiln_inspect_index(n.camera));
    json_object_set_new(nj, "light", kiln_inspect_index(n.light));
    json_t *w = json_array();
    for (uint32_t k = 0; k < n.weight_count; k++)
        json_array_append_new(w, kiln_inspect_f32(kiln_cooked_scene_weight(v, n.first_weight + k)));
    json_object_set_new(nj, "weights", w);
    json_object_set_new(nj, "instance_weights",
                        json_boolean(n.flags & KILN_COOKED_NODE_INSTANCE_WEIGHTS));
    return nj;
}

static json_t *camera_doc(const kiln_cooked_scene_view *v, uint32_t i)
{
    kiln_cooked_camera c = kiln_cooked_scene_camera(v, i);
    json_t *cj = json_object();
    json_object_set_new(cj, "name", kiln_inspect_str(c.name, c.name_size));
    json_object_set_new(cj, "type", json_string(kiln_inspect_name(c.type, camera_types, 2)));
    json_object_set_new(cj, "source_camera", json_integer(c.source_camera));
    json_object_set_new(cj, "yfov", kiln_inspect_f32(c.yfov));
    json_object_set_new(cj, "aspect", kiln_inspect_f32(c.aspect));
    json_object_set_new(cj, "xmag", kiln_inspect_f32(c.xmag));
    json_object_set_new(cj, "ymag", kiln_inspect_f32(c.ymag));
    json_object_set_new(cj, "znear", kiln_inspect_f32(c.znear));
    json_object_set_new(cj, "zfar", kiln_inspect_f32(c.zfar));
    return cj;
}

static json_t *light_doc(const kiln_cooked_scene_view *v, uint32_t i)
{
    kiln_cooked_light l = kiln_cooked_scene_light(v, i);
    json_t *lj = json_object();
    json_object_set_new(lj, "name", kiln_inspect_str(l.name, l.name_size));
    json_object_set_new(lj, "type", json_string(kiln_inspect_name(l.type, light_types, 3)));
    json_object_set_new(lj, "source_light", json_integer(l.source_light));
    json_object_set_new(lj, "color", kiln_inspect_f32s(l.color, 3));
    json_object_set_new(lj, "intensity", kiln_inspect_f32(l.intensity));
    json_object_set_new(lj, "range", kiln_inspect_f32(l.range));
    json_object_set_new(lj, "inner_cone", kiln_inspect_f32(l.inner_cone));
    json_object_set_new(lj, "outer_cone", kiln_inspect_f32(l.outer_cone));
    return lj;
}

kiln_result kiln_inspect_cooked_scene(const uint8_t *data, size_t size, json_t **out,
                                      kiln_error *err)
{
    kiln_cooked_scene_view v;
    kiln_result r = kiln_cooked_scene_read(data, size, 0, &v, err);
    if (r != KILN_OK) return r;
    json_t *j = json_object();
    json_object_set_new(j, "name", kiln_inspect_str(v.name, v.name_size));
    json_object_set_new(j, "synthetic_root",
                        json_boolean(v.flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT));
    json_object_set_new(j, "source_scene", kiln_inspect_index(v.source_scene));
    json_object_set_new(j, "bounds",
                        (v.flags & KILN_COOKED_SCENE_HAS_BOUNDS)
                            ? kiln_inspect_bounds(v.bounds_min, v.bounds_max)
                            : json_null());
    json_object_set_new(j, "primitive_count", json_integer(v.primitive_count));
    json_object_set_new(j, "weight_count", json_integer(v.weight_count));
    json_t *nodes = json_array();
    for (uint32_t i = 0; i < v.node_count; i++)
        json_array_append_new(nodes, node_doc(&v, i));
    json_object_set_new(j, "nodes", nodes);
    json_t *cams = json_array();
    for (uint32_t i = 0; i < v.camera_count; i++)
        json_array_append_new(cams, camera_doc(&v, i));
    json_object_set_new(j, "cameras", cams);
    json_t *lights = json_array();
    for (uint32_t i = 0; i < v.light_count; i++)
        json_array_append_new(lights, light_doc(&v, i));
    json_object_set_new(j, "lights", lights);
    json_t *clips = json_array();
    for (uint32_t i = 0; i < v.clip_count; i++)
        json_array_append_new(clips, kiln_inspect_id(kiln_cooked_scene_clip(&v, i)));
    json_object_set_new(j, "clips", clips);
    *out = j;
    return KILN_OK;
}
