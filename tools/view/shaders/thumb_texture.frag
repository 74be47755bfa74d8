#version 450
// kiln thumbnail (textures): one mip level of a texture fitted to the target, over a
// checkerboard (docs/rendering.md "kiln thumbnail"). Each pixel averages n x n texels of the
// level (texelFetch: no filtering, the same on every device): n = ceil(texels per pixel), at
// most 8 a side; a level smaller than the target is magnified without filtering, so its texels
// show. Colours are averaged with alpha premultiplied, then composited over the background in
// linear light; the sRGB target encodes the result.
#include "thumb_params.glsl"

layout(set = 0, binding = 0) uniform sampler2D tex;

vec4 fetch(ivec2 at) { return texelFetch(tex, at, p.level); }

#include "thumb_common.glsl"
