/* inspect_skeleton.c — the "skeleton" summary of a SKEL container (inspect.h): the joints with
 * their parents and nodes, as kiln_skeleton_read finds them. */
#include "pipeline/inspect.h"

kiln_result kiln_inspect_skeleton(const uint8_t *data, size_t size, json_t **out, kiln_error *err)
{
    kiln_skeleton_view v;
    kiln_result r = kiln_skeleton_read(data, size, 0, &v, err);
    if (r != KILN_OK) return r;
    json_t *j = json_object();
    json_object_set_new(j, "name", kiln_inspect_str(v.name, v.name_size));
    json_object_set_new(j, "skin", json_integer(v.skin));
    json_object_set_new(j, "joint_count", json_integer(v.joint_count));
    json_object_set_new(j, "root_count", json_integer(v.root_count));
    json_object_set_new(j, "pre_transform_count", json_integer(v.pre_count));
    json_t *joints = json_array();
    for (uint32_t i = 0; i < v.joint_count; i++) {
        kiln_skeleton_joint k = kiln_skeleton_joint_at(&v, i);
        json_t *jj = json_object();
        json_object_set_new(jj, "name", kiln_inspect_str(k.name, k.name_size));
        json_object_set_new(jj, "parent", k.parent < 0 ? json_null() : json_integer(k.parent));
        json_object_set_new(jj, "node", json_integer(k.node));
        json_array_append_new(joints, jj);
    }
    json_object_set_new(j, "joints", joints);
    *out = j;
    return KILN_OK;
}
