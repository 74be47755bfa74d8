/* cooked_scene.c — the scene kind: container SCEN (scene_read.c), loaded with every primitive's
 * mesh (one per primitive, positional: a zero id is reported as it is), every clip, and each
 * skeleton its nodes name, once, in node order. */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
{
    return kiln_cooked_scene_read(data, size, flags, view, err);
}

/* Whether a node before `node` names the same skeleton: first among the ids already reported
 * (few: a scene has a skeleton per skin), then, past those, among the nodes. */
static bool skeleton_seen(const kiln_cooked_scene_view *v, uint32_t node, uint64_t id,
                          const uint64_t *seen, size_t seen_count, size_t seen_cap)
{
    for (size_t i = 0; i < seen_count; i++)
        if (seen[i] == id) return true;
    if (seen_count < seen_cap) return false;
    for (uint32_t i = 0; i < node; i++)
        if (kiln_cooked_scene_node(v, i).skeleton == id) return true;
    return false;
}

static kiln_result refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const kiln_cooked_scene_view *v = view;
    kiln_result r = KILN_OK;
    for (uint32_t i = 0; i < v->primitive_count && r == KILN_OK; i++)
        r = fn(user, kiln_cooked_scene_primitive(v, i), KILN_MESH_KIND, KILN_REF_LOAD, err);
    for (uint32_t i = 0; i < v->clip_count && r == KILN_OK; i++)
        r = fn(user, kiln_cooked_scene_clip(v, i), KILN_CLIP_KIND, KILN_REF_LOAD, err);
    uint64_t seen[64];
    size_t seen_count = 0;
    for (uint32_t i = 0; i < v->node_count && r == KILN_OK; i++) {
        uint64_t s = kiln_cooked_scene_node(v, i).skeleton;
        if (!s || skeleton_seen(v, i, s, seen, seen_count, sizeof seen / sizeof seen[0])) continue;
        if (seen_count < sizeof seen / sizeof seen[0]) seen[seen_count++] = s;
        r = fn(user, s, KILN_SKELETON_KIND, KILN_REF_LOAD, err);
    }
    return r;
}

static const char *const labels[] = {"scene", NULL};

const kiln_cooked_kind kiln_cooked_kind_scene = {
    .name = "scene",
    .fourcc = KILN_COOKED_SCENE_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_cooked_scene_view),
    .read = read,
    .refs = refs,
};
