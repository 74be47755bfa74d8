#version 450
// pbr_forward.frag — glTF metallic-roughness shading of a kiln material: the parameter block
// (set 1, binding 0) mirrors kiln_material (factors, alpha cutoff, normal scale, occlusion
// strength, emissive strength) under the names a glTF material's values go by when a model cooks
// against a template (docs/shaders.md), and the five texture slots follow at bindings 1..5 in
// kiln's slot order. Variants: NORMAL_MAP (tangent-space normal mapping with the cooked tangents),
// ALPHA_MASK (discard below the cutoff).
#extension GL_GOOGLE_include_directive : require

#include "kiln_frame.glsl"
#include "kiln_pbr.glsl"

layout(set = 1, binding = 0, std140) uniform Material
{
    vec4 base_color_factor;
    vec3 emissive_factor;
    float emissive_strength;
    float metallic_factor;
    float roughness_factor;
    float normal_scale;
    float occlusion_strength;
    float alpha_cutoff;
} material;

layout(set = 1, binding = 1) uniform sampler2D base_color_texture;
layout(set = 1, binding = 2) uniform sampler2D metallic_roughness_texture;
layout(set = 1, binding = 3) uniform sampler2D normal_texture;
layout(set = 1, binding = 4) uniform sampler2D occlusion_texture;
layout(set = 1, binding = 5) uniform sampler2D emissive_texture;

layout(location = 0) in vec3 v_world_position;
layout(location = 1) in vec3 v_normal;
layout(location = 2) in vec4 v_tangent;
layout(location = 3) in vec2 v_uv0;

layout(location = 0) out vec4 out_color;

void main()
{
    vec4 base = material.base_color_factor * texture(base_color_texture, v_uv0);
#ifdef ALPHA_MASK
    if (base.a < material.alpha_cutoff) discard;
#endif
    vec2 mr = texture(metallic_roughness_texture, v_uv0).bg; // glTF: metal in B, roughness in G
    float metallic = clamp(material.metallic_factor * mr.x, 0.0, 1.0);
    float roughness = clamp(material.roughness_factor * mr.y, 0.04, 1.0);
    vec3 n = normalize(v_normal);
#ifdef NORMAL_MAP
    vec3 t = normalize(v_tangent.xyz - n * dot(n, v_tangent.xyz));
    vec3 b = cross(n, t) * v_tangent.w;
    vec3 tn = texture(normal_texture, v_uv0).xyz * 2.0 - 1.0;
    tn.xy *= material.normal_scale;
    n = normalize(mat3(t, b, n) * tn);
#endif
    if (!gl_FrontFacing) n = -n; // double-sided materials see their back faces lit
    vec3 v = normalize(frame.camera_position.xyz - v_world_position);
    vec3 l = normalize(frame.light_direction.xyz);
    vec3 radiance = frame.light_color.rgb * frame.light_color.a;
    vec3 color = kiln_brdf(base.rgb, metallic, roughness, n, v, l, radiance);
    float ao = 1.0 + material.occlusion_strength * (texture(occlusion_texture, v_uv0).r - 1.0);
    color += frame.ambient.rgb * base.rgb * ao;
    color += material.emissive_factor * material.emissive_strength *
             texture(emissive_texture, v_uv0).rgb;
    out_color = vec4(color, base.a);
}
