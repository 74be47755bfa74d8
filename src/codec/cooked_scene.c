/* cooked_scene.c — the scene kind: container SCEN (scene_read.c), loaded with every primitive's
 * mesh (one per primitive, positional: a zero id is reported as it is), every clip, and each
 * skeleton its nodes name, in node order, flagged KILN_REF_ONCE. */
#include "codec/cooked_kind.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err)
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

static const char *const labels[] = {"scene", NULL};

const kiln_cooked_kind kiln_cooked_kind_scene = {
    .name = "scene",
    .fourcc = KILN_COOKED_SCENE_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_cooked_scene_view),
    .read = read,
    .refs = refs,
};
