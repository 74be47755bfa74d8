// thumb_params.glsl — the push constants and output of the texture thumbnail shaders
// (thumb_texture.frag, thumb_volume.frag).
layout(location = 0) out vec4 color;

layout(push_constant) uniform params {
    ivec2 level_size; // texels of the level
    ivec2 out_size;   // pixels of the target
    int level;
    int mode;    // KV_VIEW_*: 0 colour, 1 stored values, 2 grey (R), 3 normal map (XY), 4 float
    int checker; // the checkerboard's square, in pixels
    int slice;   // the slice of a volume (thumb_volume.frag)
} p;

