/* scene_check.h — the invariants every kiln_scene promises (include/kiln/kiln_scene.h, and what
 * process/scene_complete.h adds), checked after a successful kiln_scene_load_memory by the glTF
 * fuzz target (fuzz_gltf.c) and the tests of tests/gltf_robust. Header-only so both build it
 * without a library of their own.
 *
 * kiln_scene_check(scene, flags the load used, why, size) returns NULL when the scene holds, else
 * why, holding a description of the first broken invariant. It only reads. */
#ifndef KILN_FUZZ_SCENE_CHECK_H
#define KILN_FUZZ_SCENE_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_scene.h"

#define KSC_FAIL(...)                                                                              \
    do {                                                                                           \
        snprintf(why, why_size, __VA_ARGS__);                                                      \
        return why;                                                                                \
    } while (0)

/* -1 or an index below count. */
static inline bool ksc_ref(int32_t i, uint32_t count)
{
    return i >= -1 && (i < 0 || (uint32_t)i < count);
}

static inline bool ksc_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static inline const char *ksc_check_primitive(const kiln_scene *s, uint32_t flags, uint32_t m,
                                              uint32_t p, char *why, size_t why_size)
{
    const kiln_scene_primitive *pr = &s->meshes[m].primitives[p];
    size_t vc = pr->vertex_count;
    if (!vc || !pr->positions) KSC_FAIL("mesh %u prim %u: no vertices or positions", m, p);
    if (!ksc_finite(pr->positions, vc * 3)) KSC_FAIL("mesh %u prim %u: NaN/Inf position", m, p);
    if (pr->index_count % 3) KSC_FAIL("mesh %u prim %u: index_count %u", m, p, pr->index_count);
    if (pr->index_count && !pr->indices) KSC_FAIL("mesh %u prim %u: NULL indices", m, p);
    for (uint32_t i = 0; i < pr->index_count; i++)
        if (pr->indices[i] >= vc)
            KSC_FAIL("mesh %u prim %u: index %u = %u >= %zu", m, p, i, pr->indices[i], vc);
    if (!ksc_ref(pr->material, s->material_count)) KSC_FAIL("mesh %u prim %u: material", m, p);
    if (pr->mapping_count && !pr->mappings) KSC_FAIL("mesh %u prim %u: NULL mappings", m, p);
    for (uint32_t k = 0; k < pr->mapping_count; k++) {
        const kiln_scene_variant_mapping *vm = &pr->mappings[k];
        if (vm->material < 0 || (uint32_t)vm->material >= s->material_count || !vm->variants ||
            !vm->variant_count)
            KSC_FAIL("mesh %u prim %u: variant mapping %u", m, p, k);
        for (uint32_t v = 0; v < vm->variant_count; v++)
            if (vm->variants[v] >= s->variant_count)
                KSC_FAIL("mesh %u prim %u: mapping %u names variant %u", m, p, k, vm->variants[v]);
    }
    if (pr->mode != KILN_SCENE_MODE_TRIANGLES && pr->mode != KILN_SCENE_MODE_TRIANGLE_STRIP &&
        pr->mode != KILN_SCENE_MODE_TRIANGLE_FAN)
        KSC_FAIL("mesh %u prim %u: mode %d", m, p, (int)pr->mode);
    if (pr->texcoord_count > KILN_SCENE_MAX_UV_SETS ||
        pr->color_count > KILN_SCENE_MAX_COLOR_SETS ||
        pr->joint_set_count > KILN_SCENE_MAX_JOINT_SETS)
        KSC_FAIL("mesh %u prim %u: set counts", m, p);
    for (uint32_t t = 0; t < pr->texcoord_count; t++)
        if (!pr->texcoords[t]) KSC_FAIL("mesh %u prim %u: NULL texcoord set %u", m, p, t);
    for (uint32_t t = 0; t < pr->color_count; t++)
        if (!pr->colors[t]) KSC_FAIL("mesh %u prim %u: NULL colour set %u", m, p, t);
    if (pr->normals)
        for (size_t v = 0; v < vc; v++) {
            const float *n = pr->normals + v * 3;
            double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
            if (!(fabs(len - 1.0) < 1e-3))
                KSC_FAIL("mesh %u prim %u: normal %zu length %g", m, p, v, len);
        }
    for (uint32_t set = 0; set < pr->joint_set_count; set++)
        if (!pr->joints[set] || !pr->weights[set]) KSC_FAIL("mesh %u prim %u: NULL joints", m, p);
    if (pr->joint_set_count)
        for (size_t v = 0; v < vc; v++) {
            double sum = 0;
            for (uint32_t set = 0; set < pr->joint_set_count; set++)
                for (int k = 0; k < 4; k++) {
                    float w = pr->weights[set][v * 4 + k];
                    if (!(w >= 0.0f) || !isfinite(w))
                        KSC_FAIL("mesh %u prim %u: weight %g at vertex %zu", m, p, (double)w, v);
                    sum += w;
                }
            if (fabs(sum - 1.0) > 1e-3)
                KSC_FAIL("mesh %u prim %u: weights sum %g at vertex %zu", m, p, sum, v);
        }
    if (pr->target_count && !pr->targets) KSC_FAIL("mesh %u prim %u: NULL targets", m, p);
    if (pr->tangents)
        for (size_t v = 0; v < vc; v++) {
            const float *t = pr->tangents + v * 4;
            if (!ksc_finite(t, 3) || (t[3] != 1.0f && t[3] != -1.0f))
                KSC_FAIL("mesh %u prim %u: tangent %zu not finite or w not +-1", m, p, v);
        }
    /* What kiln_scene_complete adds (process/scene_complete.h). */
    if (!(flags & KILN_SCENE_LOAD_NO_NORMALS) && !pr->normals)
        KSC_FAIL("mesh %u prim %u: no normals after completion", m, p);
    if (pr->material >= 0) {
        const kiln_scene_material *mt = &s->materials[pr->material];
        for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++)
            if (mt->textures[k].texture >= 0 && mt->textures[k].texcoord >= pr->texcoord_count)
                KSC_FAIL("mesh %u prim %u: slot %d reads UV set %u of %u", m, p, k,
                         mt->textures[k].texcoord, pr->texcoord_count);
        if (mt->textures[KILN_SCENE_SLOT_NORMAL].texture >= 0 && !pr->tangents &&
            !(flags & (KILN_SCENE_LOAD_NO_NORMALS | KILN_SCENE_LOAD_NO_TANGENTS)))
            KSC_FAIL("mesh %u prim %u: normal-mapped without tangents", m, p);
    }
    for (int k = 0; k < 3; k++)
        if (!(pr->bounds_min[k] <= pr->bounds_max[k])) KSC_FAIL("mesh %u prim %u: bounds", m, p);
    return NULL;
}

static inline const char *kiln_scene_check(const kiln_scene *s, uint32_t flags, char *why,
                                           size_t why_size)
{
    for (uint32_t i = 0; i < s->image_count; i++) {
        const kiln_scene_image *im = &s->images[i];
        if (!im->name || !im->uri || !im->path || !im->mime_type)
            KSC_FAIL("image %u: NULL string", i);
        if (im->encoded_size && !im->encoded) KSC_FAIL("image %u: NULL bytes", i);
        if (im->pixel != KILN_SCENE_PIXEL_NONE && (!im->pixels || !im->width || !im->height))
            KSC_FAIL("image %u: decoded without pixels", i);
    }
    for (uint32_t i = 0; i < s->texture_count; i++)
        if (!ksc_ref(s->textures[i].image, s->image_count) ||
            !ksc_ref(s->textures[i].sampler, s->sampler_count))
            KSC_FAIL("texture %u: image %d / sampler %d out of range", i, s->textures[i].image,
                     s->textures[i].sampler);
    for (uint32_t i = 0; i < s->material_count; i++) {
        const kiln_scene_material *mt = &s->materials[i];
        if ((unsigned)mt->alpha_mode > KILN_SCENE_ALPHA_BLEND)
            KSC_FAIL("material %u: alpha mode", i);
        for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++)
            if (!ksc_ref(mt->textures[k].texture, s->texture_count) ||
                mt->textures[k].texcoord >= KILN_SCENE_MAX_UV_SETS)
                KSC_FAIL("material %u slot %d: texture %d texcoord %u", i, k,
                         mt->textures[k].texture, mt->textures[k].texcoord);
        if (mt->ext.present & ~(uint32_t)KILN_MATERIAL_EXT_ALL)
            KSC_FAIL("material %u: extension bits 0x%x", i, mt->ext.present);
        const float *ef = &mt->ext.clearcoat; /* the factors: every float after present */
        if (!ksc_finite(ef, (sizeof mt->ext - sizeof mt->ext.present) / sizeof *ef))
            KSC_FAIL("material %u: extension factor not finite", i);
    }
    if (s->variant_count && !s->variants) KSC_FAIL("NULL variants");
    for (uint32_t i = 0; i < s->variant_count; i++)
        if (!s->variants[i]) KSC_FAIL("variant %u: no name", i);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const kiln_scene_mesh *me = &s->meshes[m];
        if (me->primitive_count && !me->primitives) KSC_FAIL("mesh %u: NULL primitives", m);
        for (uint32_t p = 0; p < me->primitive_count; p++) {
            const char *bad = ksc_check_primitive(s, flags, m, p, why, why_size);
            if (bad) return bad;
            if (me->primitives[p].target_count != me->primitives[0].target_count)
                KSC_FAIL("mesh %u: primitives disagree on morph targets", m);
        }
        if (me->weight_count && !me->weights) KSC_FAIL("mesh %u: NULL weights", m);
    }
    uint64_t children = 0;
    for (uint32_t i = 0; i < s->node_count; i++) {
        const kiln_scene_node *n = &s->nodes[i];
        if (!ksc_ref(n->parent, s->node_count) || n->parent == (int32_t)i)
            KSC_FAIL("node %u: parent %d", i, n->parent);
        if (!ksc_ref(n->mesh, s->mesh_count) || !ksc_ref(n->skin, s->skin_count) ||
            !ksc_ref(n->camera, s->camera_count) || !ksc_ref(n->light, s->light_count))
            KSC_FAIL("node %u: mesh/skin/camera/light out of range", i);
        if (n->skin >= 0 && n->mesh < 0) KSC_FAIL("node %u: skin without mesh", i);
        if (n->child_count && !n->children) KSC_FAIL("node %u: NULL children", i);
        for (uint32_t k = 0; k < n->child_count; k++) {
            uint32_t ch = n->children[k];
            if (ch >= s->node_count || s->nodes[ch].parent != (int32_t)i)
                KSC_FAIL("node %u: child %u does not name it as parent", i, ch);
        }
        children += n->child_count;
        if (n->parent >= 0) {
            const kiln_scene_node *pn = &s->nodes[n->parent];
            bool listed = false;
            for (uint32_t k = 0; k < pn->child_count; k++) listed |= pn->children[k] == i;
            if (!listed) KSC_FAIL("node %u: parent %d does not list it", i, n->parent);
        }
        if (!ksc_finite(n->matrix, 16) || !ksc_finite(n->world, 16) ||
            !ksc_finite(n->translation, 3) || !ksc_finite(n->rotation, 4) ||
            !ksc_finite(n->scale, 3))
            KSC_FAIL("node %u: transform not finite", i);
        if (n->weight_count && !n->weights) KSC_FAIL("node %u: NULL weights", i);
        if (n->instance_count &&
            ((!n->instance_translations && !n->instance_rotations && !n->instance_scales) ||
             n->mesh < 0))
            KSC_FAIL("node %u: instances without attributes or mesh", i);
    }
    /* Weighted joint indices name joints of the skin: the largest per mesh, found once. */
    uint32_t *needed = s->mesh_count ? malloc(s->mesh_count * sizeof *needed) : NULL;
    if (s->mesh_count && !needed) KSC_FAIL("no memory for the joint check");
    for (uint32_t m = 0; m < s->mesh_count; m++) needed[m] = UINT32_MAX;
    for (uint32_t i = 0; i < s->node_count; i++) {
        const kiln_scene_node *n = &s->nodes[i];
        if (n->skin < 0) continue;
        if (needed[n->mesh] == UINT32_MAX) {
            const kiln_scene_mesh *me = &s->meshes[n->mesh];
            needed[n->mesh] = 0;
            for (uint32_t p = 0; p < me->primitive_count; p++) {
                const kiln_scene_primitive *pr = &me->primitives[p];
                for (uint32_t set = 0; set < pr->joint_set_count; set++)
                    for (size_t v = 0; v < (size_t)pr->vertex_count * 4; v++)
                        if (pr->weights[set][v] > 0 && pr->joints[set][v] >= needed[n->mesh])
                            needed[n->mesh] = pr->joints[set][v] + 1u;
            }
        }
        if (needed[n->mesh] > s->skins[n->skin].joint_count) {
            snprintf(why, why_size, "node %u: joint %u of skin %d with %u joints", i,
                     needed[n->mesh] - 1, n->skin, s->skins[n->skin].joint_count);
            free(needed);
            return why;
        }
    }
    free(needed);
    /* Every parent chain ends at a root: walk each chain once, marking nodes in progress (1)
     * and done (2); meeting a node in progress is a cycle. */
    if (s->node_count) {
        uint8_t *mark = calloc(s->node_count, 1);
        if (!mark) KSC_FAIL("no memory for the cycle check");
        for (uint32_t i = 0; i < s->node_count; i++) {
            int32_t up = (int32_t)i;
            while (up >= 0 && mark[up] == 0) {
                mark[up] = 1;
                up = s->nodes[up].parent;
            }
            bool cycle = up >= 0 && mark[up] == 1;
            for (up = (int32_t)i; up >= 0 && mark[up] == 1; up = s->nodes[up].parent) mark[up] = 2;
            if (cycle) {
                free(mark);
                KSC_FAIL("node %u: its parent chain loops", i);
            }
        }
        free(mark);
    }
    uint64_t with_parent = 0;
    for (uint32_t i = 0; i < s->node_count; i++) with_parent += s->nodes[i].parent >= 0;
    if (children != with_parent)
        KSC_FAIL("nodes: %llu children but %llu nodes with a parent", (unsigned long long)children,
                 (unsigned long long)with_parent);
    for (uint32_t i = 0; i < s->skin_count; i++) {
        const kiln_scene_skin *sk = &s->skins[i];
        if (!sk->joint_count || !sk->joints || !sk->inverse_bind) KSC_FAIL("skin %u: empty", i);
        if (!ksc_ref(sk->skeleton, s->node_count)) KSC_FAIL("skin %u: skeleton", i);
        for (uint32_t k = 0; k < sk->joint_count; k++)
            if (sk->joints[k] >= s->node_count) KSC_FAIL("skin %u: joint %u", i, sk->joints[k]);
        if (!ksc_finite(sk->inverse_bind, (size_t)sk->joint_count * 16))
            KSC_FAIL("skin %u: matrix", i);
    }
    for (uint32_t i = 0; i < s->animation_count; i++) {
        const kiln_scene_animation *a = &s->animations[i];
        for (uint32_t k = 0; k < a->channel_count; k++) {
            const kiln_scene_channel *ch = &a->channels[k];
            if (ch->node >= s->node_count || (unsigned)ch->path > KILN_SCENE_PATH_WEIGHTS ||
                (unsigned)ch->interpolation > KILN_SCENE_INTERP_CUBICSPLINE || !ch->key_count ||
                !ch->components || !ch->times || !ch->values)
                KSC_FAIL("animation %u channel %u: bad header", i, k);
            if (ch->times[0] < a->start || ch->times[ch->key_count - 1] > a->end)
                KSC_FAIL("animation %u: start/end do not cover channel %u", i, k);
            /* Channels sharing the previous one's keys were checked with it. */
            if (k && ch->times == a->channels[k - 1].times &&
                ch->values == a->channels[k - 1].values &&
                ch->key_count == a->channels[k - 1].key_count &&
                ch->components == a->channels[k - 1].components &&
                ch->interpolation == a->channels[k - 1].interpolation)
                continue;
            for (uint32_t t = 0; t < ch->key_count; t++)
                if (!isfinite(ch->times[t]) || (t && ch->times[t] < ch->times[t - 1]))
                    KSC_FAIL("animation %u channel %u: key time %u", i, k, t);
            size_t nv = (size_t)ch->key_count * ch->components *
                        (ch->interpolation == KILN_SCENE_INTERP_CUBICSPLINE ? 3 : 1);
            if (!ksc_finite(ch->values, nv)) KSC_FAIL("animation %u channel %u: values", i, k);
        }
    }
    for (uint32_t i = 0; i < s->scene_count; i++)
        for (uint32_t k = 0; k < s->scenes[i].node_count; k++)
            if (s->scenes[i].nodes[k] >= s->node_count)
                KSC_FAIL("scene %u: node %u", i, s->scenes[i].nodes[k]);
    if (!ksc_ref(s->default_scene, s->scene_count)) KSC_FAIL("default scene %d", s->default_scene);
    for (uint32_t i = 0; i < s->root_count; i++)
        if (s->roots[i] >= s->node_count || s->nodes[s->roots[i]].parent >= 0)
            KSC_FAIL("root %u: node %u", i, s->roots[i]);
    if (s->warning_count > 256) KSC_FAIL("%u warnings", s->warning_count);
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (!s->warnings[i]) KSC_FAIL("warning %u is NULL", i);
    for (uint32_t i = 0; i < s->file_count; i++)
        if (!s->files[i] || s->files[i][0] != '/') KSC_FAIL("file %u is not absolute", i);
    if (!s->generator) KSC_FAIL("generator is NULL");
    return NULL;
}

#undef KSC_FAIL

#endif
