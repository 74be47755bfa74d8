#version 450
// mesh.vert — tools/view's mesh vertex shader: pulls every attribute from the mesh's storage
// buffer (the streams exactly as kiln cooked them, docs/formats.md "Vertex streams"), decodes the
// quantized formats (docs/meshes.md), applies morph targets and the skin, and transforms.
#include "mesh_common.glsl"

// The mesh: its streams, one after another, as 32-bit words (kv_mesh.c).
layout(std430, set = 2, binding = 0) readonly buffer Streams { uint words[]; };
// The meshlet view's triangles: global vertex indices, 3 per triangle, and each triangle's
// meshlet number.
layout(std430, set = 2, binding = 1) readonly buffer MeshletIndices { uint meshlet_indices[]; };
layout(std430, set = 2, binding = 2) readonly buffer MeshletIds { uint meshlet_ids[]; };
layout(std140, set = 2, binding = 3) uniform Mesh {
    vec4 bounds_min;     // xyz
    vec4 position_scale; // xyz
    vec4 uv[2];          // offset xy, scale zw of UV sets 0 and 1
    uvec4 at0;           // word offsets: position, normal, tangent, uv0 (KV_NONE: absent)
    uvec4 at1;           // uv1, color0, joints, weights
    uvec4 at2;           // target positions, normals, tangents; vertex count
    uvec4 counts;        // targets with positions, normals, tangents; flags
} mesh;

#define MESH_QUANTIZED 1u
#define MESH_JOINTS16  2u

layout(location = 0) out vec3 out_position; // world
layout(location = 1) out vec3 out_normal;   // world, not normalized
layout(location = 2) out vec4 out_tangent;  // world xyz, handedness w
layout(location = 3) out vec4 out_uv;       // sets 0 and 1
layout(location = 4) out vec4 out_color;
layout(location = 5) flat out uint out_draw;
layout(location = 6) flat out uint out_meshlet;

float snorm16(uint v) { return max(float(int(v << 16) >> 16) / 32767.0, -1.0); }
float snorm8(uint v) { return max(float(int(v << 24) >> 24) / 127.0, -1.0); }

vec3 oct_decode(vec2 e)
{
    vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
    if (n.z < 0.0)
        n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
    return normalize(n);
}

vec3 f32x3(uint at, uint i) { uint w = at + i * 3u;
    return vec3(uintBitsToFloat(words[w]), uintBitsToFloat(words[w + 1u]), uintBitsToFloat(words[w + 2u])); }
vec4 f32x4(uint at, uint i) { uint w = at + i * 4u;
    return vec4(uintBitsToFloat(words[w]), uintBitsToFloat(words[w + 1u]),
                uintBitsToFloat(words[w + 2u]), uintBitsToFloat(words[w + 3u])); }
vec2 f32x2(uint at, uint i) { uint w = at + i * 2u;
    return vec2(uintBitsToFloat(words[w]), uintBitsToFloat(words[w + 1u])); }

bool quantized() { return (mesh.counts.w & MESH_QUANTIZED) != 0u; }

vec3 load_position(uint i)
{
    if (!quantized()) return f32x3(mesh.at0.x, i);
    uint a = words[mesh.at0.x + i * 2u], b = words[mesh.at0.x + i * 2u + 1u];
    vec3 q = vec3(float(a & 0xFFFFu), float(a >> 16), float(b & 0xFFFFu)) / 65535.0;
    return mesh.bounds_min.xyz + mesh.position_scale.xyz * q;
}

vec3 load_normal(uint i)
{
    if (mesh.at0.y == KV_NONE) return vec3(0.0);
    if (!quantized()) return f32x3(mesh.at0.y, i);
    uint a = words[mesh.at0.y + i];
    return oct_decode(vec2(snorm16(a & 0xFFFFu), snorm16(a >> 16)));
}

vec4 load_tangent(uint i)
{
    if (mesh.at0.z == KV_NONE) return vec4(0.0);
    if (!quantized()) return f32x4(mesh.at0.z, i);
    uint a = words[mesh.at0.z + i];
    vec3 t = oct_decode(vec2(snorm8(a & 0xFFu), snorm8((a >> 8) & 0xFFu)));
    return vec4(t, snorm8(a >> 24) < 0.0 ? -1.0 : 1.0);
}

vec2 load_uv(uint at, uint set, uint i)
{
    if (at == KV_NONE) return vec2(0.0);
    if (!quantized()) return f32x2(at, i);
    uint a = words[at + i];
    return mesh.uv[set].xy + mesh.uv[set].zw * (vec2(float(a & 0xFFFFu), float(a >> 16)) / 65535.0);
}

vec4 load_color(uint i)
{
    if (mesh.at1.y == KV_NONE) return vec4(1.0);
    if (!quantized()) return f32x4(mesh.at1.y, i);
    return unpackUnorm4x8(words[mesh.at1.y + i]);
}

uvec4 load_joints(uint i)
{
    if ((mesh.counts.w & MESH_JOINTS16) != 0u) {
        uint a = words[mesh.at1.z + i * 2u], b = words[mesh.at1.z + i * 2u + 1u];
        return uvec4(a & 0xFFFFu, a >> 16, b & 0xFFFFu, b >> 16);
    }
    uint a = words[mesh.at1.z + i];
    return uvec4(a & 0xFFu, (a >> 8) & 0xFFu, (a >> 16) & 0xFFu, a >> 24);
}

vec4 load_weights(uint i)
{
    if (!quantized()) return f32x4(mesh.at1.w, i);
    return unpackUnorm4x8(words[mesh.at1.w + i]);
}

void main()
{
    Draw d = draws[push.draw];
    uint vi = uint(gl_VertexIndex);
    out_meshlet = 0u;
    if ((d.flags & 8u) != 0u) { // DRAW_MESHLETS, non-indexed: the pulled meshlet triangles
        uint corner = d.first_triangle * 3u + vi;
        out_meshlet = meshlet_ids[corner / 3u];
        vi = meshlet_indices[corner];
    }
    uint n = mesh.at2.w;
    vec3 p = load_position(vi);
    vec3 nrm = load_normal(vi);
    vec4 tan = load_tangent(vi);
    if (d.weights != KV_NONE) { // morph targets: the weights of the targets with each delta
        for (uint k = 0u; k < mesh.counts.x; k++)
            p += morph_weights[d.weights + k] * f32x3(mesh.at2.x, k * n + vi);
        for (uint k = 0u; k < mesh.counts.y; k++)
            nrm += morph_weights[d.weights + mesh.counts.x + k] * f32x3(mesh.at2.y, k * n + vi);
        for (uint k = 0u; k < mesh.counts.z; k++)
            tan.xyz += morph_weights[d.weights + mesh.counts.x + mesh.counts.y + k] *
                       f32x3(mesh.at2.z, k * n + vi);
    }
    mat4 model = d.model;
    mat3 normal_matrix = mat3(d.normal_matrix);
    if (d.joints != KV_NONE && mesh.at1.z != KV_NONE && mesh.at1.w != KV_NONE) {
        // glTF: a skinned mesh is placed by its joints alone (the node's matrix is ignored).
        uvec4 j = load_joints(vi);
        vec4 w = load_weights(vi);
        model = w.x * joint_matrices[d.joints + j.x] + w.y * joint_matrices[d.joints + j.y] +
                w.z * joint_matrices[d.joints + j.z] + w.w * joint_matrices[d.joints + j.w];
        normal_matrix = transpose(inverse(mat3(model)));
    }
    vec4 world = model * vec4(p, 1.0);
    out_position = world.xyz;
    out_normal = normal_matrix * nrm;
    out_tangent = vec4(mat3(model) * tan.xyz, tan.w);
    out_uv = vec4(load_uv(mesh.at0.w, 0u, vi), load_uv(mesh.at1.x, 1u, vi));
    out_color = load_color(vi);
    out_draw = push.draw;
    gl_Position = frame.proj * frame.view * world;
}
