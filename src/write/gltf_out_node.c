/* gltf_out_node.c — the nodes of the glTF writer, in the scene's order (so skins, animations and
 * scenes keep their node indices), and after them one holder node per node that draws a mesh
 * with quantized positions but cannot take the dequantization transform itself.
 *
 * The dequantization of KHR_mesh_quantization positions is p = offset + q * scale with a uniform
 * scale (gltf_out_mesh.c), i.e. the matrix T(offset) S(scale) after the node's own. A leaf whose
 * transform is not animated takes it: M T(o) S(s) is again a TRS, T(t + R(sc * o)) R S(sc * s),
 * or a matrix. Any other node keeps its transform and the mesh moves to a new child holding
 * T(o) S(s) (and the node's morph weights), as gltfpack does.
 *
 * EXT_mesh_gpu_instancing goes on the node that holds the mesh; the node's world transform comes
 * after each instance's. With T(o) S(s) on that node the instances move inside it:
 * T(t) R S' T(o) S(s) = T(o) S(s) T((t - o + R S' o) / s) R S' (s uniform, so it commutes). */
#include <string.h>

#include "write/gltf_out_private.h"

static void quat_rotate(const float q[4], const float v[3], float out[3])
{
    /* v + 2w (q x v) + 2 q x (q x v) */
    float t[3] = {2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]),
                  2 * (q[0] * v[1] - q[1] * v[0])};
    out[0] = v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]);
    out[1] = v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]);
    out[2] = v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0]);
}

static bool trs_animated(const kiln_scene *sc, uint32_t n)
{
    for (uint32_t a = 0; a < sc->animation_count; a++)
        for (uint32_t c = 0; c < sc->animations[a].channel_count; c++) {
            const kiln_scene_channel *ch = &sc->animations[a].channels[c];
            if (ch->node == n && ch->path != KILN_SCENE_PATH_WEIGHTS) return true;
        }
    return false;
}

static bool is_identity(const float m[16])
{
    for (int i = 0; i < 16; i++)
        if (m[i] != (i % 5 == 0 ? 1.0f : 0.0f)) return false;
    return true;
}

static void write_trs(kiln_json_out *j, const float t[3], const float r[4], const float s[3])
{
    if (t[0] != 0 || t[1] != 0 || t[2] != 0) kiln_json_out_floats(j, "translation", t, 3);
    if (r[0] != 0 || r[1] != 0 || r[2] != 0 || r[3] != 1) kiln_json_out_floats(j, "rotation", r, 4);
    if (s[0] != 1 || s[1] != 1 || s[2] != 1) kiln_json_out_floats(j, "scale", s, 3);
}

/* The node's transform, with T(o) S(s) of a quantized mesh after it when q is not NULL. */
static void write_transform(kiln_json_out *j, const kiln_scene_node *node,
                            const kiln_gltf_mesh_q *q)
{
    if (node->has_matrix) {
        float m[16];
        memcpy(m, node->matrix, sizeof m);
        if (q) { /* M T(o) S(s): columns 0..2 scaled, column 3 moved by M's 3x3 times o */
            for (int c = 0; c < 3; c++) {
                m[12 + c] = node->matrix[12 + c] + node->matrix[c] * q->offset[0] +
                            node->matrix[4 + c] * q->offset[1] + node->matrix[8 + c] * q->offset[2];
            }
            for (int i = 0; i < 12; i++)
                if (i % 4 != 3) m[i] *= q->scale;
        }
        if (!is_identity(m)) kiln_json_out_floats(j, "matrix", m, 16);
        return;
    }
    if (!q) {
        write_trs(j, node->translation, node->rotation, node->scale);
        return;
    }
    float so[3] = {node->scale[0] * q->offset[0], node->scale[1] * q->offset[1],
                   node->scale[2] * q->offset[2]};
    float ro[3], t[3], s[3];
    quat_rotate(node->rotation, so, ro);
    for (int c = 0; c < 3; c++) {
        t[c] = node->translation[c] + ro[c];
        s[c] = node->scale[c] * q->scale;
    }
    write_trs(j, t, node->rotation, s);
}

/* The mesh node n writes (output index), or -1. */
static int32_t node_mesh(const kiln_gltf_state *st, const kiln_scene_node *node)
{
    const kiln_scene *sc = st->scene;
    return node->mesh >= 0 && (uint32_t)node->mesh < sc->mesh_count ? st->mesh_map[node->mesh] : -1;
}

kiln_result kiln_gltf_write_instances(kiln_gltf_state *st, kiln_error *err)
{
    const kiln_scene *sc = st->scene;
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *node = &sc->nodes[n];
        int32_t *acc = st->instance_accessors[n];
        acc[0] = acc[1] = acc[2] = -1;
        if (!node->instance_count || node_mesh(st, node) < 0) continue;
        const kiln_gltf_mesh_q *q = &st->mesh_q[node->mesh];
        bool moved = q->quantized && !q->skinned;
        uint32_t count = node->instance_count;
        if (node->instance_translations || moved) {
            float *t = kiln_alloc(st->alloc, (size_t)count * 3 * sizeof(float));
            if (!t) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
            for (uint32_t i = 0; i < count; i++) {
                float *ti = &t[(size_t)i * 3];
                for (int c = 0; c < 3; c++)
                    ti[c] =
                        node->instance_translations ? node->instance_translations[i * 3 + c] : 0;
                if (!moved) continue;
                const float one[4] = {0, 0, 0, 1}, unit[3] = {1, 1, 1};
                const float *r = node->instance_rotations ? &node->instance_rotations[i * 4] : one;
                const float *sc3 = node->instance_scales ? &node->instance_scales[i * 3] : unit;
                float so[3] = {sc3[0] * q->offset[0], sc3[1] * q->offset[1], sc3[2] * q->offset[2]},
                      ro[3];
                quat_rotate(r, so, ro);
                for (int c = 0; c < 3; c++) ti[c] = (ti[c] - q->offset[c] + ro[c]) / q->scale;
            }
            acc[0] = kiln_gltf_add_floats(st, t, count, 3, false, 0);
            kiln_free(st->alloc, t, (size_t)count * 3 * sizeof(float));
        }
        if (node->instance_rotations)
            acc[1] = kiln_gltf_add_floats(st, node->instance_rotations, count, 4, false, 0);
        if (node->instance_scales)
            acc[2] = kiln_gltf_add_floats(st, node->instance_scales, count, 3, false, 0);
        if (acc[0] < 0 && acc[1] < 0 && acc[2] < 0) /* glTF wants one attribute at least */
            acc[2] = kiln_gltf_add_floats(st, (const float[3]){1, 1, 1}, 1, 3, false, 0);
        st->used_instancing = true;
        if (st->failed_memory)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
    }
    return KILN_OK;
}

/* The node's "extensions" (EXT_mesh_gpu_instancing when it holds the mesh, KHR_lights_punctual)
 * and "extras". */
static void write_node_extensions(kiln_gltf_state *st, kiln_json_out *j, uint32_t n, bool with_mesh,
                                  bool with_rest)
{
    const kiln_scene *sc = st->scene;
    const kiln_scene_node *node = &sc->nodes[n];
    const int32_t *acc = st->instance_accessors[n];
    bool inst = with_mesh && (acc[0] >= 0 || acc[1] >= 0 || acc[2] >= 0);
    bool light = with_rest && node->light >= 0 && (uint32_t)node->light < sc->light_count;
    if (inst || light) {
        static const char *const names[3] = {"TRANSLATION", "ROTATION", "SCALE"};
        kiln_json_out_object(j, "extensions");
        if (inst) {
            kiln_json_out_object(j, "EXT_mesh_gpu_instancing");
            kiln_json_out_object(j, "attributes");
            for (int a = 0; a < 3; a++)
                if (acc[a] >= 0) kiln_json_out_int(j, names[a], acc[a]);
            kiln_json_out_end(j);
            kiln_json_out_end(j);
        }
        if (light) {
            kiln_json_out_object(j, "KHR_lights_punctual");
            kiln_json_out_int(j, "light", node->light);
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
    if (with_rest && node->extras && !kiln_json_out_raw(j, "extras", node->extras))
        st->out->extras_dropped++;
}

void kiln_gltf_write_nodes(kiln_gltf_state *st, kiln_json_out *j)
{
    const kiln_scene *sc = st->scene;
    uint32_t added = 0;
    if (!sc->node_count) return;
    kiln_json_out_array(j, "nodes");
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *node = &sc->nodes[n];
        int32_t mesh = node->mesh >= 0 && (uint32_t)node->mesh < sc->mesh_count
                           ? st->mesh_map[node->mesh]
                           : -1;
        const kiln_gltf_mesh_q *q = mesh >= 0 ? &st->mesh_q[node->mesh] : NULL;
        if (q && (!q->quantized || q->skinned)) q = NULL; /* skinned: in the skin */
        bool fold = q && node->child_count == 0 && !trs_animated(sc, n);
        bool holder = q && !fold;
        kiln_json_out_object(j, NULL);
        if (node->name && *node->name) kiln_json_out_string(j, "name", node->name);
        if (node->child_count || holder) {
            kiln_json_out_array(j, "children");
            for (uint32_t c = 0; c < node->child_count; c++)
                kiln_json_out_int(j, NULL, node->children[c]);
            if (holder) kiln_json_out_int(j, NULL, sc->node_count + added++);
            kiln_json_out_end(j);
        }
        write_transform(j, node, fold ? q : NULL);
        if (mesh >= 0 && !holder) {
            kiln_json_out_int(j, "mesh", mesh);
            if (node->skin >= 0 && (uint32_t)node->skin < sc->skin_count)
                kiln_json_out_int(j, "skin", node->skin);
            if (node->weights && node->weight_count)
                kiln_json_out_floats(j, "weights", node->weights, node->weight_count);
        }
        if (node->camera >= 0 && (uint32_t)node->camera < sc->camera_count)
            kiln_json_out_int(j, "camera", node->camera);
        write_node_extensions(st, j, n, mesh >= 0 && !holder, true);
        kiln_json_out_end(j);
    }
    /* The holders, in the order of the nodes they belong to. */
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *node = &sc->nodes[n];
        int32_t mesh = node->mesh >= 0 && (uint32_t)node->mesh < sc->mesh_count
                           ? st->mesh_map[node->mesh]
                           : -1;
        if (mesh < 0 || !st->mesh_q[node->mesh].quantized || st->mesh_q[node->mesh].skinned)
            continue;
        if (node->child_count == 0 && !trs_animated(sc, n)) continue;
        const kiln_gltf_mesh_q *q = &st->mesh_q[node->mesh];
        float s[3] = {q->scale, q->scale, q->scale}, r[4] = {0, 0, 0, 1};
        kiln_json_out_object(j, NULL);
        write_trs(j, q->offset, r, s);
        kiln_json_out_int(j, "mesh", mesh);
        if (node->weights && node->weight_count)
            kiln_json_out_floats(j, "weights", node->weights, node->weight_count);
        write_node_extensions(st, j, n, true, false);
        kiln_json_out_end(j);
    }
    kiln_json_out_end(j);
    st->out->nodes = sc->node_count + added;
    st->out->nodes_added = added;
}
