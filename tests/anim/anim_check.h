/* anim_check.h — checks of cooked skeletons and clips (as read back by kiln's readers) against
 * the scene they came from, worked out independently of kiln's cook: parents from a walk up the
 * node tree, world matrices composed from the cooked bind pose, clip samples against anim_ref.h
 * at a dense rate. Used by the synthetic and the corpus tests. */
#ifndef KILN_TEST_ANIM_CHECK_H
#define KILN_TEST_ANIM_CHECK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "anim_ref.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"

/* The skin-list index of the nearest strict ancestor of node that is a joint of skin, or -1. */
static inline int32_t chk_joint_ancestor(const kiln_scene *s, const kiln_scene_skin *skin,
                                         uint32_t node)
{
    for (int32_t p = s->nodes[node].parent; p >= 0; p = s->nodes[p].parent)
        for (uint32_t i = 0; i < skin->joint_count; i++)
            if (skin->joints[i] == (uint32_t)p) return (int32_t)i;
    return -1;
}

/* Every joint: parent earlier and equal to the scene's nearest joint ancestor, node and inverse
 * bind travelled together, name equal to the node's and found through the table, and the world
 * matrix composed from the cooked data equal to the scene's (relative 1e-5). */
static inline void chk_skeleton(const kiln_scene *s, uint32_t skin_index,
                                const kiln_skeleton_view *v)
{
    const kiln_scene_skin *skin = &s->skins[skin_index];
    assert_int_equal(v->joint_count, skin->joint_count);
    assert_int_equal(v->skin, skin_index);
    assert_string_equal(v->name, skin->name ? skin->name : "");
    double *world = malloc((size_t)v->joint_count * 16 * sizeof *world);
    assert_non_null(world);
    for (uint32_t j = 0; j < v->joint_count; j++) {
        kiln_skeleton_joint jt = kiln_skeleton_joint_at(v, j);
        assert_true(jt.parent < (int32_t)j);
        assert_int_equal(jt.node, skin->joints[jt.skin_joint]);
        int32_t anc = chk_joint_ancestor(s, skin, jt.node);
        if (anc < 0) assert_int_equal(jt.parent, -1);
        else
            assert_int_equal(kiln_skeleton_joint_at(v, (uint32_t)jt.parent).skin_joint,
                             (uint32_t)anc);
        assert_memory_equal(jt.inverse_bind, skin->inverse_bind + (size_t)jt.skin_joint * 16,
                            16 * sizeof(float));
        const char *nm = s->nodes[jt.node].name ? s->nodes[jt.node].name : "";
        assert_string_equal(jt.name, nm);
        if (*nm) {
            int32_t found = kiln_skeleton_find_joint(v, nm);
            assert_true(found >= 0 && found <= (int32_t)j);
            assert_string_equal(kiln_skeleton_joint_at(v, (uint32_t)found).name, nm);
        }
        double local[16], pre[16], tmp[16];
        ref_trs(jt.translation, jt.rotation, jt.scale, local);
        for (int k = 0; k < 16; k++) pre[k] = jt.pre[k];
        if (jt.parent >= 0) ref_mat_mul(world + (size_t)jt.parent * 16, pre, tmp);
        else memcpy(tmp, pre, sizeof tmp);
        ref_mat_mul(tmp, local, world + (size_t)j * 16);
        for (int k = 0; k < 16; k++) {
            double want = s->nodes[jt.node].world[k], got = world[(size_t)j * 16 + k];
            if (fabs(got - want) > 1e-5 * fmax(1.0, fabs(want)))
                fail_msg("joint %u (node %u) world[%d] = %g, scene %g", j, jt.node, k, got, want);
        }
    }
    free(world);
    assert_int_equal(kiln_skeleton_find_joint(v, ""), -1);
    assert_int_equal(kiln_skeleton_find_joint(v, "no joint has this name"), -1);
}

/* The sample times of one channel: every key, 15 points inside each key interval, a 240 Hz grid
 * over [first, last], and a bit outside both ends. Calls fn for each. */
typedef struct chk_errors {
    double per_path[4];
    double per_track_worst;
} chk_errors;

static inline double chk_track_error(const kiln_scene_channel *ch, const kiln_clip_view *v,
                                     uint32_t track)
{
    double want[64];
    float got[64];
    assert_true(ch->components <= 64);
    double worst = 0, t0 = ch->times[0], t1 = ch->times[ch->key_count - 1];
    for (uint32_t k = 0; k < ch->key_count; k++) {
        double a = ch->times[k], b = k + 1 < ch->key_count ? ch->times[k + 1] : a + 0.05;
        for (int j = 0; j < 16; j++) {
            double t = a + (b - a) * j / 16.0;
            assert_int_equal(kiln_clip_sample(v, track, (float)t, got), ch->components);
            ref_sample(ch, (float)t, want);
            double e = ref_error(ch->path, ch->components, got, want);
            if (e > worst) worst = e;
        }
    }
    for (double t = t0 - 0.1; t <= t1 + 0.1; t += 1.0 / 240) {
        kiln_clip_sample(v, track, (float)t, got);
        ref_sample(ch, (float)t, want);
        double e = ref_error(ch->path, ch->components, got, want);
        if (e > worst) worst = e;
    }
    return worst;
}

/* Every channel has its track, in order, aimed at the right target; returns the measured errors
 * per path (max over tracks). skel may be NULL (node targets only). */
static inline chk_errors chk_clip(const kiln_scene *s, uint32_t anim, const kiln_clip_view *v,
                                  const kiln_skeleton_view *skel)
{
    const kiln_scene_animation *a = &s->animations[anim];
    chk_errors e;
    memset(&e, 0, sizeof e);
    assert_int_equal(v->track_count, a->channel_count);
    assert_string_equal(v->name, a->name ? a->name : "");
    for (uint32_t i = 0; i < a->channel_count; i++) {
        const kiln_scene_channel *ch = &a->channels[i];
        kiln_clip_track t = kiln_clip_track_at(v, i);
        assert_int_equal(t.node, ch->node);
        assert_int_equal(t.path, ch->path);
        assert_int_equal(t.components, ch->components);
        int32_t joint = -1;
        if (skel)
            for (uint32_t j = 0; j < skel->joint_count; j++)
                if (kiln_skeleton_joint_at(skel, j).node == ch->node) joint = (int32_t)j;
        if (joint >= 0) {
            assert_int_equal(t.flags & KILN_CLIP_TRACK_NODE, 0);
            assert_int_equal(t.target, joint);
        } else {
            assert_int_equal(t.flags & KILN_CLIP_TRACK_NODE, KILN_CLIP_TRACK_NODE);
            assert_int_equal(t.target, ch->node);
        }
        double err = chk_track_error(ch, v, i);
        if (err > e.per_path[ch->path]) e.per_path[ch->path] = err;
        if (err > e.per_track_worst) e.per_track_worst = err;
    }
    return e;
}

#endif
