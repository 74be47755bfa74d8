/* gltf_anim.c — animations: each channel flattened with its sampler's keys (times checked to
 * be finite and non-decreasing, values counted against the path and interpolation). */
#include "import/gltf_private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* checked[accessor]: bit 0 its values were checked as key times, bit 1 as finite values; so
 * many channels sharing one sampler (or accessor) check it once, not once each. */
static kiln_result read_channel(gltf_ctx *c, const json_t *aj, const json_t *samplers,
                                const json_t *ch, const char *ptr, kiln_scene_channel *out,
                                bool *keep, uint8_t *checked)
{
    kiln_scene *s = c->scene;
    *keep = false;
    int32_t sampler, node;
    json_t *target;
    const char *path;
    kiln_result r;
    if ((r = gltf_get_index(c, ch, "sampler", ptr, json_array_size(samplers), true, &sampler)) ||
        (r = gltf_get_object(c, ch, "target", ptr, &target)))
        return r;
    if (!target) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "\"target\" is missing");
    char tptr[96];
    snprintf(tptr, sizeof tptr, "%s/target", ptr);
    if ((r = gltf_get_index(c, target, "node", tptr, s->node_count, false, &node)) ||
        (r = gltf_get_string(c, target, "path", tptr, &path)))
        return r;
    char mp[112]; /* the pointer of a member at fault */
    snprintf(mp, sizeof mp, "%s/path", tptr);
    if (!path) return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"path\" is missing");
    uint32_t components = 0;
    if (strcmp(path, "translation") == 0) out->path = KILN_SCENE_PATH_TRANSLATION, components = 3;
    else if (strcmp(path, "rotation") == 0) out->path = KILN_SCENE_PATH_ROTATION, components = 4;
    else if (strcmp(path, "scale") == 0) out->path = KILN_SCENE_PATH_SCALE, components = 3;
    else if (strcmp(path, "weights") == 0) out->path = KILN_SCENE_PATH_WEIGHTS;
    else {
        if (!kiln_scene_warn(s, "%s: animated path \"%.40s\" is not supported; channel ignored",
                             tptr, path))
            return gltf_nomem(c, "a warning");
        return KILN_OK;
    }
    if (node < 0) { /* only extensions target something else; nothing kiln can animate */
        if (!kiln_scene_warn(s, "%s: no \"node\"; channel ignored", tptr))
            return gltf_nomem(c, "a warning");
        return KILN_OK;
    }
    char sptr[96];
    /* The pointer of the sampler within this animation: ptr is ".../channels/i". */
    const char *slash = strstr(ptr, "/channels/");
    snprintf(sptr, sizeof sptr, "%.*s/samplers/%d", (int)(slash ? slash - ptr : 0), ptr, sampler);
    json_t *sj = json_array_get(samplers, (size_t)sampler);
    if (!json_is_object(sj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr, "not an object");
    int32_t input, output;
    const char *interp;
    if ((r = gltf_get_index(c, sj, "input", sptr, c->accessor_count, true, &input)) ||
        (r = gltf_get_index(c, sj, "output", sptr, c->accessor_count, true, &output)) ||
        (r = gltf_get_string(c, sj, "interpolation", sptr, &interp)))
        return r;
    if (!interp || strcmp(interp, "LINEAR") == 0) out->interpolation = KILN_SCENE_INTERP_LINEAR;
    else if (strcmp(interp, "STEP") == 0) out->interpolation = KILN_SCENE_INTERP_STEP;
    else if (strcmp(interp, "CUBICSPLINE") == 0) out->interpolation = KILN_SCENE_INTERP_CUBICSPLINE;
    else {
        snprintf(mp, sizeof mp, "%s/interpolation", sptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"interpolation\" \"%.32s\" is not LINEAR, STEP or CUBICSPLINE", interp);
    }
    const gltf_accessor *in, *outa;
    if ((r = gltf_accessor_info(c, (uint32_t)input, &in)) ||
        (r = gltf_accessor_info(c, (uint32_t)output, &outa)))
        return r;
    snprintf(mp, sizeof mp, "%s/input", sptr);
    if (in->components != 1 || in->component_type != 5126)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"input\" must be a SCALAR FLOAT accessor");
    bool cubic = out->interpolation == KILN_SCENE_INTERP_CUBICSPLINE;
    if (cubic && in->count < 2)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr, "CUBICSPLINE needs at least 2 keys");
    uint64_t per_key = cubic ? 3 : 1;
    if (out->path == KILN_SCENE_PATH_WEIGHTS) {
        const kiln_scene_node *n = &s->nodes[node];
        const kiln_scene_mesh *m = n->mesh >= 0 ? &s->meshes[n->mesh] : NULL;
        components = !m ? 0 : m->primitive_count ? m->primitives[0].target_count : m->weight_count;
        if (!components)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, tptr,
                             "weights animated on node %d, whose mesh has no morph targets", node);
        snprintf(mp, sizeof mp, "%s/output", sptr);
        if (outa->components != 1)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "weights \"output\" must be SCALAR");
    } else if (outa->components != components) {
        snprintf(mp, sizeof mp, "%s/output", sptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "%s \"output\" must be VEC%u", path,
                         components);
    }
    snprintf(mp, sizeof mp, "%s/output", sptr);
    uint64_t expect = (uint64_t)in->count * per_key * (outa->components == 1 ? components : 1);
    if (outa->count != expect)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"output\" has %u elements; %u keys need %llu", outa->count, in->count,
                         (unsigned long long)expect);
    const float *times, *values;
    if ((r = gltf_accessor_floats(c, (uint32_t)input, &times)) ||
        (r = gltf_accessor_floats(c, (uint32_t)output, &values)))
        return r;
    for (uint32_t k = 0; !(checked[input] & 1) && k < in->count; k++)
        if (!isfinite(times[k]) || times[k] < 0 || (k && times[k] < times[k - 1]))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr,
                             "key time %u (%g) is negative, not finite or decreasing", k,
                             (double)times[k]);
    checked[input] |= 1;
    size_t nv = (size_t)outa->count * outa->components;
    for (size_t k = 0; !(checked[output] & 2) && k < nv; k++)
        if (!isfinite(values[k]))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr, "output value %zu is not finite", k);
    checked[output] |= 2;
    out->node = (uint32_t)node;
    out->key_count = in->count;
    out->components = components;
    out->times = times;
    out->values = values;
    (void)aj;
    *keep = true;
    return KILN_OK;
}

kiln_result gltf_read_animations(gltf_ctx *c)
{
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "animations", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK || !list || !json_array_size(list)) return r;
    size_t n = json_array_size(list);
    kiln_scene_animation *anims = kiln_arena_array(c->arena, n, sizeof *anims);
    uint8_t *checked = kiln_arena_array(&c->scratch, c->accessor_count ? c->accessor_count : 1, 1);
    if (!anims || !checked) return gltf_nomem(c, "animations");
    for (size_t i = 0; i < n; i++) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/animations/%zu", i);
        json_t *aj = json_array_get(list, i), *channels, *samplers;
        if (!json_is_object(aj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        kiln_scene_animation *a = &anims[i];
        if ((r = gltf_get_name(c, aj, ptr, &a->name)) ||
            (r = gltf_get_array(c, aj, "channels", ptr, KILN_GLTF_MAX_ITEMS, &channels)) ||
            (r = gltf_get_array(c, aj, "samplers", ptr, KILN_GLTF_MAX_ITEMS, &samplers)))
            return r;
        if (!channels || !json_array_size(channels) || !samplers || !json_array_size(samplers))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "\"channels\" and \"samplers\" must each hold at least one");
        size_t cn = json_array_size(channels);
        kiln_scene_channel *out = kiln_arena_array(c->arena, cn, sizeof *out);
        if (!out) return gltf_nomem(c, "animation channels");
        uint32_t kept = 0;
        for (size_t k = 0; k < cn; k++) {
            char cptr[80];
            snprintf(cptr, sizeof cptr, "%s/channels/%zu", ptr, k);
            json_t *ch = json_array_get(channels, k);
            if (!json_is_object(ch))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, cptr, "not an object");
            bool keep;
            if ((r = read_channel(c, aj, samplers, ch, cptr, &out[kept], &keep, checked))) return r;
            if (keep) kept++;
        }
        a->channels = out;
        a->channel_count = kept;
        for (uint32_t k = 0; k < kept; k++) {
            float first = out[k].times[0], last = out[k].times[out[k].key_count - 1];
            if (k == 0 || first < a->start) a->start = first;
            if (k == 0 || last > a->end) a->end = last;
        }
    }
    c->scene->animations = anims;
    c->scene->animation_count = (uint32_t)n;
    return KILN_OK;
}
