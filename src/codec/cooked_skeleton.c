/* cooked_skeleton.c — the skeleton kind: container SKEL (skeleton_read.c), referring to nothing;
 * inspect describes the joints with their parents and nodes. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_skeleton_read(data, size, flags, view, err);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_skeleton_view *v = view;
    kiln_describe_string(d, "name", v->name, v->name_size);
    kiln_describe_int(d, "skin", v->skin);
    kiln_describe_int(d, "joint_count", v->joint_count);
    kiln_describe_int(d, "root_count", v->root_count);
    kiln_describe_int(d, "pre_transform_count", v->pre_count);
    kiln_describe_array(d, "joints");
    for (uint32_t i = 0; i < v->joint_count; i++) {
        kiln_skeleton_joint k = kiln_skeleton_joint_at(v, i);
        kiln_describe_object(d, NULL);
        kiln_describe_string(d, "name", k.name, k.name_size);
        if (k.parent < 0) kiln_describe_null(d, "parent");
        else kiln_describe_int(d, "parent", k.parent);
        kiln_describe_int(d, "node", k.node);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static const char *const labels[] = {"skeleton", NULL};

const kiln_cooked_kind kiln_cooked_kind_skeleton = {
    .name = "skeleton",
    .fourcc = KILN_SKELETON_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_skeleton_view),
    .read = read,
    .refs = NULL,
    .describe = describe,
};
