#version 450
// pbr_forward.vert — the reference renderer's vertex stage for kiln's cooked meshes: decodes the
// quantized streams (include/kiln_mesh.glsl) and, in the "skinned" variant (SKINNED defined),
// blends four joint matrices read from a storage buffer (set 2), as kiln_mesh_view stores joints
// (u8x4 or u16x4, as VK_FORMAT_R*_UINT) and weights (unorm8x4 summing to 255).
#extension GL_GOOGLE_include_directive : require

#include "kiln_frame.glsl"
#include "kiln_mesh.glsl"

layout(location = 0) in vec4 a_position; // unorm16x4
layout(location = 1) in vec2 a_normal;   // snorm16x2, octahedral
layout(location = 2) in vec4 a_tangent;  // snorm8x4, octahedral + handedness
layout(location = 3) in vec2 a_uv0;      // unorm16x2
#ifdef SKINNED
layout(location = 4) in uvec4 a_joints;  // u8x4 or u16x4
layout(location = 5) in vec4 a_weights;  // unorm8x4

layout(set = 2, binding = 0, std430) readonly buffer Joints
{
    mat4 joint_matrices[]; // world(joint) * inverse_bind(joint), in the skeleton's joint order
} skin;
#endif

layout(location = 0) out vec3 v_world_position;
layout(location = 1) out vec3 v_normal;
layout(location = 2) out vec4 v_tangent;
layout(location = 3) out vec2 v_uv0;

void main()
{
    vec4 local = vec4(kiln_position(a_position, draw.bounds_min.xyz, draw.position_scale.xyz), 1.0);
    vec3 normal = kiln_oct_decode(a_normal);
    vec4 tangent = kiln_tangent(a_tangent);
    mat4 model = draw.model;
#ifdef SKINNED
    // A skinned mesh is posed by its joints: the node's own transform does not apply (glTF).
    model = a_weights.x * skin.joint_matrices[a_joints.x] +
            a_weights.y * skin.joint_matrices[a_joints.y] +
            a_weights.z * skin.joint_matrices[a_joints.z] +
            a_weights.w * skin.joint_matrices[a_joints.w];
#endif
    vec4 world = model * local;
    mat3 normal_matrix = transpose(inverse(mat3(model)));
    v_world_position = world.xyz;
    v_normal = normalize(normal_matrix * normal);
    v_tangent = vec4(normalize(mat3(model) * tangent.xyz), tangent.w);
    v_uv0 = kiln_uv(a_uv0, draw.uv_transform.xy, draw.uv_transform.zw);
    gl_Position = frame.projection * frame.view * world;
}
