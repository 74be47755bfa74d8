/* kv_pose.c — a cooked scene posed at a time of one of its clips: each track sampled with
 * kiln_clip_sample (glTF's interpolation rules) onto its node's translation, rotation, scale or
 * morph weights; world matrices in one pass (nodes are stored parents first); skinning matrices
 * from the joints' nodes (docs/animation.md: the skeleton's pre-transforms are the nodes between
 * joints, which the scene holds, so a track on one of them moves the skin here too). */
#include <math.h>
#include <string.h>

#include "kv_scene.h"

void kv_pose_free(kv_context *ctx, kv_pose *p)
{
    if (!p) return;
    kv_free(ctx, p->world, (size_t)p->node_count * 16 * sizeof(float));
    kv_free(ctx, p->weights, (size_t)p->weight_count * sizeof(float));
    kv_free(ctx, p->by_source, (size_t)p->source_count * sizeof(uint32_t));
    memset(p, 0, sizeof *p);
}

typedef struct node_trs {
    float t[3], r[4], s[3];
    bool animated;
} node_trs;

kiln_result kv_pose_scene(kv_context *ctx, const kiln_cooked_scene_view *s,
                          const kiln_clip_view *clip, float time, kv_pose *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n = s->node_count;
    uint32_t sources = 0;
    for (uint32_t i = 0; i < n; i++) {
        kiln_cooked_node nd = kiln_cooked_scene_node(s, i);
        if (nd.source_node != KILN_COOKED_NONE && nd.source_node + 1 > sources)
            sources = nd.source_node + 1;
    }
    out->node_count = n;
    out->weight_count = s->weight_count;
    out->source_count = sources;
    out->world = kv_alloc(ctx, (size_t)n * 16 * sizeof(float) + 1);
    out->weights = kv_alloc(ctx, (size_t)s->weight_count * sizeof(float) + 1);
    out->by_source = kv_alloc(ctx, (size_t)sources * sizeof(uint32_t) + 1);
    node_trs *trs = kv_alloc(ctx, (size_t)n * sizeof *trs + 1);
    if (!out->world || !out->weights || !out->by_source || !trs) {
        kv_free(ctx, trs, (size_t)n * sizeof *trs + 1);
        kv_pose_free(ctx, out);
        return kv_error(err, KILN_E_OUT_OF_MEMORY, "pose: out of memory");
    }
    for (uint32_t i = 0; i < sources; i++) out->by_source[i] = KV_NONE;
    for (uint32_t i = 0; i < s->weight_count; i++) out->weights[i] = kiln_cooked_scene_weight(s, i);
    for (uint32_t i = 0; i < n; i++) {
        kiln_cooked_node nd = kiln_cooked_scene_node(s, i);
        if (nd.source_node != KILN_COOKED_NONE) out->by_source[nd.source_node] = i;
        memcpy(trs[i].t, nd.translation, sizeof trs[i].t);
        memcpy(trs[i].r, nd.rotation, sizeof trs[i].r);
        memcpy(trs[i].s, nd.scale, sizeof trs[i].s);
        trs[i].animated = false;
    }
    if (clip) {
        float value[4];
        for (uint32_t t = 0; t < clip->track_count; t++) {
            kiln_clip_track tr = kiln_clip_track_at(clip, t);
            if (tr.node >= sources || out->by_source[tr.node] == KV_NONE) continue;
            uint32_t i = out->by_source[tr.node];
            if (tr.path == KILN_CLIP_PATH_WEIGHTS) {
                kiln_cooked_node nd = kiln_cooked_scene_node(s, i);
                /* Sample component by component into the node's range: no bound on the count. */
                float *w = out->weights + nd.first_weight;
                uint32_t count = tr.components < nd.weight_count ? tr.components : nd.weight_count;
                if (count == 0) continue;
                float *tmp = kv_alloc(ctx, (size_t)tr.components * sizeof(float));
                if (!tmp) {
                    kv_free(ctx, trs, (size_t)n * sizeof *trs + 1);
                    kv_pose_free(ctx, out);
                    return kv_error(err, KILN_E_OUT_OF_MEMORY, "pose: out of memory");
                }
                kiln_clip_sample(clip, t, time, tmp);
                memcpy(w, tmp, count * sizeof(float));
                kv_free(ctx, tmp, (size_t)tr.components * sizeof(float));
                continue;
            }
            if (tr.components > 4) continue;
            if (kiln_clip_sample(clip, t, time, value) == 0) continue;
            if (tr.path == KILN_CLIP_PATH_TRANSLATION) memcpy(trs[i].t, value, 3 * sizeof(float));
            else if (tr.path == KILN_CLIP_PATH_ROTATION) memcpy(trs[i].r, value, 4 * sizeof(float));
            else if (tr.path == KILN_CLIP_PATH_SCALE) memcpy(trs[i].s, value, 3 * sizeof(float));
            trs[i].animated = true;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        kiln_cooked_node nd = kiln_cooked_scene_node(s, i);
        float local[16];
        if (trs[i].animated || !(nd.flags & KILN_COOKED_NODE_MATRIX))
            kv_mat4_trs(trs[i].t, trs[i].r, trs[i].s, local);
        else memcpy(local, nd.matrix, sizeof local);
        if (nd.parent == KILN_COOKED_NONE) memcpy(out->world + (size_t)i * 16, local, sizeof local);
        else kv_mat4_mul(out->world + (size_t)nd.parent * 16, local, out->world + (size_t)i * 16);
    }
    kv_free(ctx, trs, (size_t)n * sizeof *trs + 1);
    return KILN_OK;
}

void kv_pose_skin(const kv_pose *p, const kiln_skeleton_view *sk, float *out)
{
    /* out first holds each joint's world matrix, then (second pass) the skinning matrix. */
    for (uint32_t j = 0; j < sk->joint_count; j++) {
        kiln_skeleton_joint jt = kiln_skeleton_joint_at(sk, j);
        float *w = out + (size_t)j * 16;
        uint32_t node = jt.node < p->source_count ? p->by_source[jt.node] : KV_NONE;
        if (node != KV_NONE) {
            memcpy(w, p->world + (size_t)node * 16, 16 * sizeof(float));
            continue;
        }
        float local[16], pre_local[16];
        kv_mat4_trs(jt.translation, jt.rotation, jt.scale, local);
        kv_mat4_mul(jt.pre, local, pre_local);
        if (jt.parent >= 0 && (uint32_t)jt.parent < j)
            kv_mat4_mul(out + (size_t)jt.parent * 16, pre_local, w);
        else memcpy(w, pre_local, sizeof pre_local);
    }
    for (uint32_t j = 0; j < sk->joint_count; j++) {
        kiln_skeleton_joint jt = kiln_skeleton_joint_at(sk, j);
        kv_mat4_mul(out + (size_t)j * 16, jt.inverse_bind, out + (size_t)j * 16);
    }
}
