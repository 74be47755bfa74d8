/* kv_bounds.c — what the camera frames, by the rule the three.js reference uses
 * (docs/rendering-reference.md, "The camera rule"): the world box of every vertex of every mesh
 * instance of the scene at rest — node transforms as written, morph targets at the node's
 * weights, skinned meshes by their joints at rest — or a mesh's own box. Vertices are decoded on
 * the CPU (kiln_mesh_decode), so this costs one pass over the scene's vertices. */
#include <math.h>
#include <string.h>

#include "kv_scene.h"

static void grow(float bmin[3], float bmax[3], const float p[3])
{
    for (int i = 0; i < 3; i++) {
        if (!isfinite(p[i])) return;
    }
    for (int i = 0; i < 3; i++) {
        if (p[i] < bmin[i]) bmin[i] = p[i];
        if (p[i] > bmax[i]) bmax[i] = p[i];
    }
}

/* One primitive's vertices into the box: morphed by weights, then skinned by joints (16 floats
 * each) or moved by world. */
static kiln_result add_primitive(kv_context *ctx, const kiln_mesh_view *v, const float *weights,
                                 uint32_t weight_count, const float *joints, uint32_t joint_count,
                                 const float world[16], float bmin[3], float bmax[3],
                                 kiln_error *err)
{
    kiln_allocator a = ctx->allocator;
    kiln_mesh_decoded d;
    kiln_result k = kiln_mesh_decode(v, 0, &a, &d, err);
    if (k) return k;
    for (uint32_t i = 0; i < d.vertex_count; i++) {
        float p[3] = {d.positions[i * 3], d.positions[i * 3 + 1], d.positions[i * 3 + 2]};
        if (d.target_positions)
            for (uint32_t t = 0; t < d.target_count; t++) {
                float w = t < weight_count ? weights[t] : kiln_mesh_target_weight(v, t);
                const float *dp = d.target_positions + ((size_t)t * d.vertex_count + i) * 3;
                for (int c = 0; c < 3; c++) p[c] += w * dp[c];
            }
        float out[3];
        if (joints && d.joints && d.weights) {
            float m[16] = {0};
            for (int j = 0; j < 4; j++) {
                uint32_t ji = d.joints[i * 4 + j];
                float w = d.weights[i * 4 + j];
                if (w == 0.0f || ji >= joint_count) continue;
                for (int e = 0; e < 16; e++) m[e] += w * joints[(size_t)ji * 16 + e];
            }
            kv_mat4_point(m, p, out);
        } else {
            kv_mat4_point(world, p, out);
        }
        grow(bmin, bmax, out);
    }
    kiln_mesh_decoded_free(&d);
    return KILN_OK;
}

kiln_result kv_bounds(kv_context *ctx, krt_context *rt, krt_handle h, float bmin[3], float bmax[3],
                      kiln_error *err)
{
    for (int i = 0; i < 3; i++) bmin[i] = INFINITY, bmax[i] = -INFINITY;
    krt_type type = krt_handle_type(h);
    if (type == KRT_TYPE_MESH) {
        krt_mesh_data md;
        if (krt_get_mesh(rt, h, &md, err)) return err->code;
        memcpy(bmin, md.view->bounds_min, 3 * sizeof(float));
        memcpy(bmax, md.view->bounds_max, 3 * sizeof(float));
        return KILN_OK;
    }
    if (type == KRT_TYPE_MATERIAL) {
        /* The unit sphere, framed by the sphere through this box's corners: radius 1.1, so the
         * sphere fills most of the picture with a margin. */
        for (int i = 0; i < 3; i++) bmin[i] = -0.635f, bmax[i] = 0.635f;
        return KILN_OK;
    }
    if (type != KRT_TYPE_SCENE)
        return kv_error(err, KILN_E_USAGE, "kv_bounds: scenes and meshes only");
    krt_scene_data sd;
    if (krt_get_scene(rt, h, &sd, err)) return err->code;
    const kiln_cooked_scene_view *s = sd.view;
    kv_pose pose;
    kiln_result k = kv_pose_scene(ctx, s, NULL, 0.0f, &pose, err);
    if (k) return k;
    for (uint32_t i = 0; i < s->node_count && !k; i++) {
        kiln_cooked_node nd = kiln_cooked_scene_node(s, i);
        if (nd.primitive_count == 0) continue;
        float *joints = NULL;
        uint32_t joint_count = 0;
        if (nd.skin != KILN_COOKED_NONE)
            for (uint32_t j = 0; j < sd.skeleton_count && !joints; j++) {
                const kiln_skeleton_view *sk;
                kiln_error ignored;
                if (krt_asset_id(rt, sd.skeletons[j]) != nd.skeleton ||
                    krt_get_skeleton(rt, sd.skeletons[j], &sk, &ignored))
                    continue;
                joints = kv_alloc(ctx, (size_t)sk->joint_count * 16 * sizeof(float));
                if (!joints) k = kv_error(err, KILN_E_OUT_OF_MEMORY, "bounds: out of memory");
                else {
                    joint_count = sk->joint_count;
                    kv_pose_skin(&pose, sk, joints);
                }
            }
        for (uint32_t p = 0; p < nd.primitive_count && !k; p++) {
            krt_mesh_data md;
            kiln_error ignored;
            if (krt_get_mesh(rt, sd.primitives[nd.first_primitive + p], &md, &ignored)) continue;
            k = add_primitive(ctx, md.view, pose.weights + nd.first_weight, nd.weight_count, joints,
                              joint_count, pose.world + (size_t)i * 16, bmin, bmax, err);
        }
        kv_free(ctx, joints, (size_t)joint_count * 16 * sizeof(float));
    }
    kv_pose_free(ctx, &pose);
    return k;
}
