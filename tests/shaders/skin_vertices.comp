#version 450
// skin_vertices.comp — skins a cooked mesh's vertices on the GPU into a float buffer (for
// renderers that skin once per frame and draw the result several times, or ray tracing):
// decodes kiln's quantized positions, normals, joints and weights and blends the joint matrices.
// The workgroup width is a specialization constant (id 0), the vertex count a push constant.
// The streams are read as 32-bit words and unpacked (no 8/16-bit storage feature needed).
#extension GL_GOOGLE_include_directive : require

#include "kiln_mesh.glsl"

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;

struct Skinned {
    vec4 position; // xyz world, w 1
    vec4 normal;   // xyz, w 0
};

layout(set = 0, binding = 0, std430) readonly buffer Positions { uvec2 positions[]; }; // unorm16x4
layout(set = 0, binding = 1, std430) readonly buffer Normals { uint normals[]; };      // snorm16x2
layout(set = 0, binding = 2, std430) readonly buffer Joints { uint joints[]; };        // u8x4
layout(set = 0, binding = 3, std430) readonly buffer Weights { uint weights[]; };      // unorm8x4
layout(set = 0, binding = 4, std430) readonly buffer Matrices { mat4 joint_matrices[]; };
layout(set = 0, binding = 5, std430) writeonly buffer Out { Skinned skinned[]; };

layout(push_constant, std430) uniform Params
{
    vec4 bounds_min;     // xyz
    vec4 position_scale; // xyz
    uint vertex_count;
} params;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.vertex_count) return;
    vec4 q = vec4(unpackUnorm2x16(positions[i].x), unpackUnorm2x16(positions[i].y));
    vec3 p = kiln_position(q, params.bounds_min.xyz, params.position_scale.xyz);
    vec3 n = kiln_oct_decode(unpackSnorm2x16(normals[i])); // max(q / 32767, -1), as kiln decodes
    uint jw = joints[i];
    uvec4 j = uvec4(jw & 255u, (jw >> 8) & 255u, (jw >> 16) & 255u, jw >> 24);
    vec4 w = unpackUnorm4x8(weights[i]);
    mat4 m = w.x * joint_matrices[j.x] + w.y * joint_matrices[j.y] + w.z * joint_matrices[j.z] +
             w.w * joint_matrices[j.w];
    skinned[i].position = vec4((m * vec4(p, 1.0)).xyz, 1.0);
    skinned[i].normal = vec4(normalize(transpose(inverse(mat3(m))) * n), 0.0);
}
