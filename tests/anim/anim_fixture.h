/* anim_fixture.h — small hand-built scenes for the skeleton and clip tests: nodes with parents,
 * names and TRS (local and world matrices filled as the importer would), one skin, animations
 * of given channels. Everything lives in one fixture struct; fx_finish wires the pointers. */
#ifndef KILN_TEST_ANIM_FIXTURE_H
#define KILN_TEST_ANIM_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "anim_ref.h"
#include "kiln/kiln_scene.h"

#define FX_MAX_NODES    64
#define FX_MAX_CHANNELS 16

typedef struct fx_scene {
    kiln_scene scene;
    kiln_scene_node nodes[FX_MAX_NODES];
    char names[FX_MAX_NODES][16];
    kiln_scene_skin skin;
    uint32_t joints[FX_MAX_NODES];
    float inverse_bind[FX_MAX_NODES * 16];
    kiln_scene_animation anim;
    kiln_scene_channel channels[FX_MAX_CHANNELS];
} fx_scene;

/* n nodes; parents[i] (-1 root); every node named "n<i>" with identity TRS unless changed. */
static inline void fx_init(fx_scene *f, uint32_t n, const int32_t *parents)
{
    memset(f, 0, sizeof *f);
    for (uint32_t i = 0; i < n; i++) {
        kiln_scene_node *nd = &f->nodes[i];
        snprintf(f->names[i], sizeof f->names[i], "n%u", i);
        nd->name = f->names[i];
        nd->parent = parents ? parents[i] : -1;
        nd->rotation[3] = 1;
        nd->scale[0] = nd->scale[1] = nd->scale[2] = 1;
        nd->mesh = nd->skin = nd->camera = nd->light = -1;
    }
    f->scene.nodes = f->nodes;
    f->scene.node_count = n;
    f->scene.default_scene = -1;
}

static inline void fx_trs(fx_scene *f, uint32_t i, float tx, float ty, float tz, float qx, float qy,
                          float qz, float qw, float s)
{
    kiln_scene_node *nd = &f->nodes[i];
    nd->translation[0] = tx, nd->translation[1] = ty, nd->translation[2] = tz;
    float l = sqrtf(qx * qx + qy * qy + qz * qz + qw * qw);
    nd->rotation[0] = qx / l, nd->rotation[1] = qy / l, nd->rotation[2] = qz / l,
    nd->rotation[3] = qw / l;
    nd->scale[0] = nd->scale[1] = nd->scale[2] = s;
}

/* Local and world matrices from TRS, parents first by recursion over the parent chain. */
static inline void fx_world(fx_scene *f, uint32_t i, double *world)
{
    double local[16];
    ref_trs(f->nodes[i].translation, f->nodes[i].rotation, f->nodes[i].scale, local);
    if (f->nodes[i].parent < 0) {
        memcpy(world, local, sizeof local);
        return;
    }
    double pw[16];
    fx_world(f, (uint32_t)f->nodes[i].parent, pw);
    ref_mat_mul(pw, local, world);
}

/* Skin with the given joint nodes (inverse binds = inverse world would need an inverse; a
 * recognisable pattern is enough: the tests check they travel with their joint). */
static inline void fx_skin(fx_scene *f, const uint32_t *joints, uint32_t count)
{
    memcpy(f->joints, joints, count * sizeof *joints);
    for (uint32_t j = 0; j < count; j++)
        for (int k = 0; k < 16; k++) f->inverse_bind[j * 16 + k] = (float)(joints[j] * 100 + k);
    f->skin.name = "skin";
    f->skin.joints = f->joints;
    f->skin.joint_count = count;
    f->skin.inverse_bind = f->inverse_bind;
    f->skin.skeleton = -1;
    f->scene.skins = &f->skin;
    f->scene.skin_count = 1;
}

static inline void fx_channel(fx_scene *f, uint32_t i, uint32_t node, kiln_scene_path path,
                              kiln_scene_interp interp, uint32_t keys, uint32_t comps,
                              const float *times, const float *values)
{
    kiln_scene_channel *c = &f->channels[i];
    c->node = node, c->path = path, c->interpolation = interp;
    c->key_count = keys, c->components = comps, c->times = times, c->values = values;
}

/* Wires the scene: matrices, the animation of channel_count channels. */
static inline void fx_finish(fx_scene *f, uint32_t channel_count)
{
    for (uint32_t i = 0; i < f->scene.node_count; i++) {
        double m[16], w[16];
        ref_trs(f->nodes[i].translation, f->nodes[i].rotation, f->nodes[i].scale, m);
        fx_world(f, i, w);
        for (int k = 0; k < 16; k++)
            f->nodes[i].matrix[k] = (float)m[k], f->nodes[i].world[k] = (float)w[k];
    }
    if (channel_count) {
        f->anim.name = "anim";
        f->anim.channels = f->channels;
        f->anim.channel_count = channel_count;
        f->scene.animations = &f->anim;
        f->scene.animation_count = 1;
    }
}

#endif
