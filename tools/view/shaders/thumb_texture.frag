#version 450
// kiln thumbnail (textures): one mip level of a texture fitted to the target, over a
// checkerboard (docs/rendering.md "kiln thumbnail"). Each pixel averages n x n texels of the
// level (texelFetch: no filtering, the same on every device): n = ceil(texels per pixel), at
// most 8 a side; a level smaller than the target is magnified without filtering, so its texels
// show. Colours are averaged with alpha premultiplied, then composited over the background in
// linear light; the sRGB target encodes the result.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;

layout(push_constant) uniform params {
    ivec2 level_size; // texels of the level
    ivec2 out_size;   // pixels of the target
    int level;
    int mode;    // KV_VIEW_*: 0 colour, 1 stored values, 2 grey (R), 3 normal map (XY), 4 float
    int checker; // the checkerboard's square, in pixels
    int pad;
} p;

vec3 srgb_to_linear(vec3 c)
{
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

// A texel as linear colour with straight alpha.
vec4 texel(ivec2 at)
{
    vec4 t = texelFetch(tex, at, p.level);
    if (p.mode == 1) { // UNORM data: the stored values are what a picture of it shows
        t.rgb = srgb_to_linear(t.rgb);
    } else if (p.mode == 2) { // one channel (BC4): grey
        t = vec4(srgb_to_linear(t.rrr), 1.0);
    } else if (p.mode == 3) { // two channels (BC5 normal map): z rebuilt, shown as n * 0.5 + 0.5
        vec2 xy = t.rg * 2.0 - 1.0;
        float z = sqrt(max(0.0, 1.0 - dot(xy, xy)));
        t = vec4(srgb_to_linear(vec3(xy, z) * 0.5 + 0.5), 1.0);
    } else if (p.mode == 4) { // float (HDR): linear, clamped to 0..1
        t = clamp(t, 0.0, 1.0);
    }
    return t;
}

void main()
{
    ivec2 px = ivec2(gl_FragCoord.xy);
    vec2 scale = vec2(p.level_size) / vec2(p.out_size); // texels per pixel
    ivec2 n = clamp(ivec2(ceil(scale - 1e-4)), ivec2(1), ivec2(8));
    vec4 sum = vec4(0.0);
    for (int j = 0; j < n.y; j++) {
        for (int i = 0; i < n.x; i++) {
            vec2 at = (vec2(px) + (vec2(i, j) + 0.5) / vec2(n)) * scale;
            vec4 c = texel(clamp(ivec2(floor(at)), ivec2(0), p.level_size - 1));
            sum += vec4(c.rgb * c.a, c.a);
        }
    }
    sum /= float(n.x * n.y);
    bool dark = (((px.x / p.checker) + (px.y / p.checker)) & 1) != 0;
    vec3 background = srgb_to_linear(vec3(dark ? 0.6 : 0.8));
    color = vec4(sum.rgb + background * (1.0 - sum.a), 1.0);
}
