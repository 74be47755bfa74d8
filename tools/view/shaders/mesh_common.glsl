// mesh_common.glsl — what tools/view's mesh shaders share: the frame, the draw records, the
// GPU material table (libkiln_rt's krt_gpu_material, docs/runtime.md) and each mesh's layout.
// kv_scene.c fills these buffers; the layouts here and its C structs must agree (std140/std430).

#define KV_VIEW_LIT      0u
#define KV_VIEW_UNLIT    1u
#define KV_VIEW_NORMALS  2u
#define KV_VIEW_UV       3u
#define KV_VIEW_LOD      4u
#define KV_VIEW_MESHLETS 5u

#define KV_NONE 0xFFFFFFFFu

layout(std140, set = 0, binding = 0) uniform Frame {
    mat4 view;
    mat4 proj;
    vec4 camera_position; // xyz
    vec4 light_direction; // xyz: towards the light, unit
    vec4 light_color;     // rgb: linear radiance scale, w: ambient strength
    uvec4 mode;           // x: KV_VIEW_*
} frame;

struct Material { // krt_gpu_material: 256 bytes
    vec4 base_color;
    vec4 emissive; // xyz factor, w strength
    float metallic, roughness, normal_scale, occlusion_strength;
    float alpha_cutoff;
    uint flags, texcoords, reserved;
    uint textures[5];
    uint samplers[3];
    vec4 uv_transforms[10]; // slot s: [2s] = m0 m1 m2 m3, [2s+1] = m4 m5 0 0
};

layout(std430, set = 0, binding = 1) readonly buffer Materials { Material materials[]; };

struct Draw {
    mat4 model;
    mat4 normal_matrix; // inverse transpose of the model's upper 3x3, in a mat4
    uint material;      // index into materials
    uint joints;        // first joint matrix in joint_matrices, or KV_NONE
    uint weights;       // first morph weight in morph_weights, or KV_NONE
    uint lod;           // the level drawn (the LOD view colours it)
    uint first_triangle; // meshlet view: first entry of the level in the mesh's meshlet ids
    uint flags;         // 1 mirrored, 2 flat normals, 4 has tangents, 8 meshlet triangles pulled,
                        // 16 they are a virtual geometry cut's (a key: cluster | level << 24)
    uint pad0, pad1;
};

layout(std430, set = 0, binding = 2) readonly buffer Draws { Draw draws[]; };
layout(std430, set = 0, binding = 3) readonly buffer Joints { mat4 joint_matrices[]; };
layout(std430, set = 0, binding = 4) readonly buffer Weights { float morph_weights[]; };

layout(push_constant) uniform Push { uint draw; } push;
