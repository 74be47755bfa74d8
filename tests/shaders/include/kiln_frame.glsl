// kiln_frame.glsl — what every draw of the reference shaders shares: the camera and one
// directional light (set 0, binding 0), and the per-draw constants that undo kiln's
// quantization (push constants: the model matrix, the position bounds, UV set 0's range).
#ifndef KILN_FRAME_GLSL
#define KILN_FRAME_GLSL

layout(set = 0, binding = 0, std140) uniform Frame
{
    mat4 view;
    mat4 projection;
    vec4 camera_position; // xyz world, w unused
    vec4 light_direction; // xyz: towards the light, normalized
    vec4 light_color;     // rgb linear, a: intensity
    vec4 ambient;         // rgb linear
} frame;

layout(push_constant, std430) uniform Draw
{
    mat4 model;
    vec4 bounds_min;     // xyz
    vec4 position_scale; // xyz
    vec4 uv_transform;   // xy offset, zw scale (UV set 0)
} draw;

#endif
