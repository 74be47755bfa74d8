/* cooked_scene.c — the scene kind: container SCEN (scene_read.c), loaded with every primitive's
 * mesh (one per primitive, positional: a zero id is reported as it is), every clip, and each
 * skeleton its nodes name, in node order, flagged KILN_REF_ONCE. inspect describes the node tree
 * with transforms, meshes, skins, cameras, lights and morph weights, and the clips. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_cooked_scene_read(data, size, flags, view, err);
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_cooked_scene_view *v = view;
    kiln_result r = KILN_OK;
    for (uint32_t i = 0; i < v->primitive_count && r == KILN_OK; i++)
        r = fn(user, kiln_cooked_scene_primitive(v, i), KILN_MESH_KIND, KILN_REF_LOAD, err);
    for (uint32_t i = 0; i < v->clip_count && r == KILN_OK; i++)
        r = fn(user, kiln_cooked_scene_clip(v, i), KILN_CLIP_KIND, KILN_REF_LOAD, err);
    /* Skeletons: flagged KILN_REF_ONCE, so the caller drops repeats. The few a scene usually
     * has are deduplicated here already (runs of one skeleton, and the first 64 distinct ones);
     * past those a skeleton may be reported again rather than searched for among the nodes,
     * which would be quadratic in a hostile file's node count. */
    uint64_t seen[64];
    size_t seen_count = 0;
    uint64_t last = 0;
    for (uint32_t i = 0; i < v->node_count && r == KILN_OK; i++) {
        uint64_t s = kiln_cooked_scene_node(v, i).skeleton;
        if (!s || s == last) continue;
        last = s;
        bool seen_before = false;
        for (size_t k = 0; k < seen_count && !seen_before; k++) seen_before = seen[k] == s;
        if (seen_before) continue;
        if (seen_count < sizeof seen / sizeof seen[0]) seen[seen_count++] = s;
        r = fn(user, s, KILN_SKELETON_KIND, KILN_REF_LOAD | KILN_REF_ONCE, err);
    }
    return r;
}

static const char *const camera_types[] = {"perspective", "orthographic"};
static const char *const light_types[] = {"directional", "point", "spot"};

static void describe_node(const kiln_cooked_scene_view *v, uint32_t i, kiln_describe *d)
{
    kiln_cooked_node n = kiln_cooked_scene_node(v, i);
    kiln_describe_object(d, NULL);
    kiln_describe_string(d, "name", n.name, n.name_size);
    kiln_describe_index(d, "parent", n.parent);
    kiln_describe_int(d, "subtree_end", n.subtree_end);
    kiln_describe_index(d, "source_node", n.source_node);
    kiln_describe_bool(d, "synthetic", n.flags & KILN_COOKED_NODE_SYNTHETIC);
    kiln_describe_bool(d, "matrix_given", n.flags & KILN_COOKED_NODE_MATRIX);
    kiln_describe_floats(d, "translation", n.translation, 3);
    kiln_describe_floats(d, "rotation", n.rotation, 4);
    kiln_describe_floats(d, "scale", n.scale, 3);
    kiln_describe_floats(d, "matrix", n.matrix, 16);
    kiln_describe_index(d, "mesh", n.mesh);
    kiln_describe_array(d, "primitives");
    for (uint32_t p = 0; p < n.primitive_count; p++)
        kiln_describe_id(d, NULL, kiln_cooked_scene_primitive(v, n.first_primitive + p));
    kiln_describe_end(d);
    kiln_describe_index(d, "skin", n.skin);
    kiln_describe_id(d, "skeleton", n.skeleton);
    kiln_describe_index(d, "camera", n.camera);
    kiln_describe_index(d, "light", n.light);
    kiln_describe_array(d, "weights");
    for (uint32_t k = 0; k < n.weight_count; k++)
        kiln_describe_float(d, NULL, kiln_cooked_scene_weight(v, n.first_weight + k));
    kiln_describe_end(d);
    kiln_describe_bool(d, "instance_weights", n.flags & KILN_COOKED_NODE_INSTANCE_WEIGHTS);
    kiln_describe_end(d);
}

static void describe_camera(const kiln_cooked_scene_view *v, uint32_t i, kiln_describe *d)
{
    kiln_cooked_camera c = kiln_cooked_scene_camera(v, i);
    kiln_describe_object(d, NULL);
    kiln_describe_string(d, "name", c.name, c.name_size);
    kiln_describe_cstring(d, "type", kiln_describe_name(c.type, camera_types, 2));
    kiln_describe_int(d, "source_camera", c.source_camera);
    kiln_describe_float(d, "yfov", c.yfov);
    kiln_describe_float(d, "aspect", c.aspect);
    kiln_describe_float(d, "xmag", c.xmag);
    kiln_describe_float(d, "ymag", c.ymag);
    kiln_describe_float(d, "znear", c.znear);
    kiln_describe_float(d, "zfar", c.zfar);
    kiln_describe_end(d);
}

static void describe_light(const kiln_cooked_scene_view *v, uint32_t i, kiln_describe *d)
{
    kiln_cooked_light l = kiln_cooked_scene_light(v, i);
    kiln_describe_object(d, NULL);
    kiln_describe_string(d, "name", l.name, l.name_size);
    kiln_describe_cstring(d, "type", kiln_describe_name(l.type, light_types, 3));
    kiln_describe_int(d, "source_light", l.source_light);
    kiln_describe_floats(d, "color", l.color, 3);
    kiln_describe_float(d, "intensity", l.intensity);
    kiln_describe_float(d, "range", l.range);
    kiln_describe_float(d, "inner_cone", l.inner_cone);
    kiln_describe_float(d, "outer_cone", l.outer_cone);
    kiln_describe_end(d);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_cooked_scene_view *v = view;
    kiln_describe_string(d, "name", v->name, v->name_size);
    kiln_describe_bool(d, "synthetic_root", v->flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT);
    kiln_describe_index(d, "source_scene", v->source_scene);
    if (v->flags & KILN_COOKED_SCENE_HAS_BOUNDS)
        kiln_describe_bounds(d, "bounds", v->bounds_min, v->bounds_max);
    else kiln_describe_null(d, "bounds");
    kiln_describe_int(d, "primitive_count", v->primitive_count);
    kiln_describe_int(d, "weight_count", v->weight_count);
    kiln_describe_array(d, "nodes");
    for (uint32_t i = 0; i < v->node_count; i++) describe_node(v, i, d);
    kiln_describe_end(d);
    kiln_describe_array(d, "cameras");
    for (uint32_t i = 0; i < v->camera_count; i++) describe_camera(v, i, d);
    kiln_describe_end(d);
    kiln_describe_array(d, "lights");
    for (uint32_t i = 0; i < v->light_count; i++) describe_light(v, i, d);
    kiln_describe_end(d);
    kiln_describe_array(d, "clips");
    for (uint32_t i = 0; i < v->clip_count; i++)
        kiln_describe_id(d, NULL, kiln_cooked_scene_clip(v, i));
    kiln_describe_end(d);
}

static const char *const labels[] = {"scene", NULL};

const kiln_cooked_kind kiln_cooked_kind_scene = {
    .name = "scene",
    .fourcc = KILN_COOKED_SCENE_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_cooked_scene_view),
    .read = read,
    .refs = refs,
    .describe = describe,
};
