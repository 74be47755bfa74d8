// thumb_common.glsl — the body of the texture thumbnail shaders (thumb_texture.frag: one 2D image
// or one layer of a cube or array; thumb_volume.frag: one slice of a 3D texture). The including
// shader declares `vec4 fetch(ivec2 at)`, which reads texel `at` of level p.level.

vec3 srgb_to_linear(vec3 c)
{
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

// A texel as linear colour with straight alpha.
vec4 texel(ivec2 at)
{
    vec4 t = fetch(at);
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
