/* gltf_out_anim.c — skins and animations of the glTF writer, as imported: inverse bind
 * matrices, and per channel one sampler with its key times and values (glTF 2.0 section 3.11;
 * CUBICSPLINE values keep their in-tangent, value, out-tangent layout). When a skin's meshes
 * have quantized positions (gltf_out_mesh.c) its inverse bind matrices carry the
 * dequantization. */
#include <string.h>

#include "write/gltf_out_private.h"

kiln_result kiln_gltf_write_skins(kiln_gltf_state *st, kiln_error *err)
{
    const kiln_scene *sc = st->scene;
    kiln_json_out j;
    kiln_json_out_init_elements(&j, &st->skins_json);
    for (uint32_t s = 0; s < sc->skin_count; s++) {
        const kiln_scene_skin *sk = &sc->skins[s];
        kiln_json_out_object(&j, NULL);
        if (sk->name && *sk->name) kiln_json_out_string(&j, "name", sk->name);
        if (sk->joint_count && sk->inverse_bind) {
            size_t n = (size_t)sk->joint_count * 16;
            float *ibm = kiln_alloc(st->alloc, n * sizeof(float));
            if (!ibm) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
            memcpy(ibm, sk->inverse_bind, n * sizeof(float));
            const kiln_gltf_mesh_q *q = &st->skin_q[s];
            if (q->quantized) /* IBM T(o) S(s), as gltf_out_node.c does for a node's matrix */
                for (uint32_t i = 0; i < sk->joint_count; i++) {
                    float *m = ibm + (size_t)i * 16;
                    for (int c = 0; c < 3; c++)
                        m[12 + c] +=
                            m[c] * q->offset[0] + m[4 + c] * q->offset[1] + m[8 + c] * q->offset[2];
                    for (int k = 0; k < 12; k++)
                        if (k % 4 != 3) m[k] *= q->scale;
                }
            kiln_json_out_int(&j, "inverseBindMatrices",
                              kiln_gltf_add_floats(st, ibm, sk->joint_count, 16, false, 0));
            kiln_free(st->alloc, ibm, n * sizeof(float));
        }
        if (sk->skeleton >= 0) kiln_json_out_int(&j, "skeleton", sk->skeleton);
        kiln_json_out_array(&j, "joints");
        for (uint32_t i = 0; i < sk->joint_count; i++) kiln_json_out_int(&j, NULL, sk->joints[i]);
        kiln_json_out_end(&j);
        kiln_json_out_end(&j);
    }
    return st->failed_memory ? kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory")
                             : KILN_OK;
}

static const char *const path_names[] = {"translation", "rotation", "scale", "weights"};
static const char *const interp_names[] = {"LINEAR", "STEP", "CUBICSPLINE"};

kiln_result kiln_gltf_write_animations(kiln_gltf_state *st, kiln_error *err)
{
    const kiln_scene *sc = st->scene;
    kiln_json_out j;
    kiln_json_out_init_elements(&j, &st->animations_json);
    for (uint32_t a = 0; a < sc->animation_count; a++) {
        const kiln_scene_animation *an = &sc->animations[a];
        uint32_t kept = 0;
        for (uint32_t c = 0; c < an->channel_count; c++)
            if (an->channels[c].key_count && an->channels[c].node < sc->node_count) kept++;
        if (!kept) continue; /* an animation needs a channel */
        int32_t *input = kiln_calloc(st->alloc, an->channel_count, 2 * sizeof(int32_t));
        if (!input) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
        int32_t *output = input + an->channel_count;
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const kiln_scene_channel *ch = &an->channels[c];
            if (!ch->key_count || ch->node >= sc->node_count) continue;
            /* Channels sharing one key time array share its accessor. */
            input[c] = -1;
            for (uint32_t d = 0; d < c; d++)
                if (an->channels[d].times == ch->times &&
                    an->channels[d].key_count == ch->key_count)
                    input[c] = input[d];
            if (input[c] < 0)
                input[c] = kiln_gltf_add_floats(st, ch->times, ch->key_count, 1, true, 0);
            uint32_t per_key = ch->interpolation == KILN_SCENE_INTERP_CUBICSPLINE ? 3 : 1;
            uint32_t comps = ch->components;
            if (ch->path == KILN_SCENE_PATH_WEIGHTS)
                output[c] = kiln_gltf_add_floats(st, ch->values, ch->key_count * per_key * comps, 1,
                                                 false, 0);
            else
                output[c] =
                    kiln_gltf_add_floats(st, ch->values, ch->key_count * per_key, comps, false, 0);
        }
        kiln_json_out_object(&j, NULL);
        if (an->name && *an->name) kiln_json_out_string(&j, "name", an->name);
        uint32_t sampler = 0;
        kiln_json_out_array(&j, "channels");
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const kiln_scene_channel *ch = &an->channels[c];
            if (!ch->key_count || ch->node >= sc->node_count) continue;
            kiln_json_out_object(&j, NULL);
            kiln_json_out_int(&j, "sampler", sampler++);
            kiln_json_out_object(&j, "target");
            kiln_json_out_int(&j, "node", ch->node);
            kiln_json_out_string(&j, "path", path_names[ch->path & 3]);
            kiln_json_out_end(&j);
            kiln_json_out_end(&j);
        }
        kiln_json_out_end(&j);
        kiln_json_out_array(&j, "samplers");
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const kiln_scene_channel *ch = &an->channels[c];
            if (!ch->key_count || ch->node >= sc->node_count) continue;
            kiln_json_out_object(&j, NULL);
            kiln_json_out_int(&j, "input", input[c]);
            if (ch->interpolation != KILN_SCENE_INTERP_LINEAR)
                kiln_json_out_string(&j, "interpolation", interp_names[ch->interpolation % 3]);
            kiln_json_out_int(&j, "output", output[c]);
            kiln_json_out_end(&j);
        }
        kiln_json_out_end(&j);
        kiln_json_out_end(&j);
        kiln_free(st->alloc, input, (size_t)an->channel_count * 2 * sizeof(int32_t));
    }
    return st->failed_memory ? kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory")
                             : KILN_OK;
}
