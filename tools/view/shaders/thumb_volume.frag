#version 450
// kiln thumbnail (volume textures): one slice (p.slice) of one mip level of a 3D texture, drawn
// as thumb_texture.frag draws a 2D level (thumb_common.glsl).
#include "thumb_params.glsl"

layout(set = 0, binding = 0) uniform sampler3D tex;

vec4 fetch(ivec2 at) { return texelFetch(tex, ivec3(at, p.slice), p.level); }

#include "thumb_common.glsl"
