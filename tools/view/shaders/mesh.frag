#version 450
// mesh.frag — tools/view's mesh fragment shader: glTF metal-rough PBR (one directional light and
// a hemisphere ambient), normal maps with the cooked tangents, alpha mask, vertex colours,
// texture transforms, and the debug views (docs/rendering.md). The material is libkiln_rt's
// GPU material table record; its five textures are set 1's bindings, in kiln_material_slot order.
#include "mesh_common.glsl"

layout(set = 1, binding = 0) uniform sampler2D base_color_map;
layout(set = 1, binding = 1) uniform sampler2D metallic_roughness_map;
layout(set = 1, binding = 2) uniform sampler2D normal_map;
layout(set = 1, binding = 3) uniform sampler2D occlusion_map;
layout(set = 1, binding = 4) uniform sampler2D emissive_map;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec4 in_uv;
layout(location = 4) in vec4 in_color;
layout(location = 5) flat in uint in_draw;
layout(location = 6) flat in uint in_meshlet;

layout(location = 0) out vec4 out_color;

#define DRAW_MIRRORED     1u
#define DRAW_FLAT_NORMALS 2u
#define DRAW_HAS_TANGENTS 4u
#define DRAW_CLUSTERS     16u

#define ALPHA_MASK  1u
#define ALPHA_BLEND 2u
#define MATERIAL_DOUBLE_SIDED 4u
#define MATERIAL_UNLIT 8u

const float PI = 3.14159265358979;

// A slot's texture at its UV set through its transform (krt_gpu_material.uv_transforms), with
// explicit gradients: the UV's screen derivatives (of the interpolated input, which every lane
// of a quad has) through the same 2x2 matrix. Not texture()'s implicit ones: lavapipe's helper
// lanes read storage buffers as zeros, so a UV transformed by the material record differs
// across the quad and the implicit level is garbage (a 30x tiled texture sampled at level 0 in
// noise: SheenCloth).
vec4 sample_slot(sampler2D tex, Material m, uint s, vec4 uv_dx, vec4 uv_dy)
{
    uint set = (m.texcoords >> (4u * s)) & 0xFu;
    vec2 uv = set == 1u ? in_uv.zw : in_uv.xy;
    vec2 dx = set == 1u ? uv_dx.zw : uv_dx.xy, dy = set == 1u ? uv_dy.zw : uv_dy.xy;
    uint bits = (m.samplers[s / 2u] >> (16u * (s % 2u))) & 0xFFFFu;
    if ((bits & 0x1000u) != 0u) {
        vec4 a = m.uv_transforms[2u * s], b = m.uv_transforms[2u * s + 1u];
        mat2 lin = mat2(a.x, a.y, a.z, a.w); // columns: u' = a.x u + a.z v, v' = a.y u + a.w v
        uv = lin * uv + b.xy;
        dx = lin * dx;
        dy = lin * dy;
    }
    return textureGrad(tex, uv, dx, dy);
}

bool has(Material m, uint s) { return m.textures[s] != KV_NONE; }

vec3 hue(uint i) // a distinct colour for a number: meshlets, clusters
{
    uint h = i * 2654435761u;
    h ^= h >> 15;
    return vec3(float(h & 0xFFu), float((h >> 8) & 0xFFu), float((h >> 16) & 0xFFu)) / 255.0 * 0.75 + 0.25;
}

const vec3 LOD_COLORS[9] = vec3[](vec3(0.2, 0.8, 0.2), vec3(0.2, 0.6, 1.0), vec3(1.0, 0.85, 0.2),
                                  vec3(1.0, 0.5, 0.1), vec3(0.9, 0.2, 0.2), vec3(0.8, 0.3, 0.9),
                                  vec3(0.5, 0.5, 0.5), vec3(0.3, 0.9, 0.9), vec3(1.0, 1.0, 1.0));

void main()
{
    Draw d = draws[in_draw];
    Material m = materials[d.material];
    // Every slot is sampled, with explicit gradients (sample_slot says why); an empty slot
    // samples the white texture.
    vec4 uv_dx = dFdx(in_uv), uv_dy = dFdy(in_uv);
    vec4 base_tex = sample_slot(base_color_map, m, 0u, uv_dx, uv_dy);
    vec4 mr_tex = sample_slot(metallic_roughness_map, m, 1u, uv_dx, uv_dy);
    vec3 normal_tex = sample_slot(normal_map, m, 2u, uv_dx, uv_dy).xyz;
    float occlusion_tex = sample_slot(occlusion_map, m, 3u, uv_dx, uv_dy).r;
    vec3 emissive_tex = sample_slot(emissive_map, m, 4u, uv_dx, uv_dy).rgb;
    vec4 base = m.base_color * in_color;
    if (has(m, 0u)) base *= base_tex;
    uint alpha_mode = m.flags & 3u;
    if (alpha_mode == ALPHA_MASK && base.a < m.alpha_cutoff) discard;
    if (alpha_mode != ALPHA_BLEND) base.a = 1.0;

    // The shading normal: flat meshes from the triangle, else the interpolated one; back faces
    // of double-sided materials see it flipped.
    vec3 n;
    if ((d.flags & DRAW_FLAT_NORMALS) != 0u)
        n = normalize(cross(dFdx(in_position), dFdy(in_position)));
    else
        n = normalize(in_normal);
    if (!gl_FrontFacing) n = -n;
    if (has(m, 2u) && (d.flags & DRAW_HAS_TANGENTS) != 0u && (d.flags & DRAW_FLAT_NORMALS) == 0u) {
        vec3 t = normalize(in_tangent.xyz - n * dot(n, in_tangent.xyz));
        vec3 b = cross(n, t) * (in_tangent.w < 0.0 ? -1.0 : 1.0);
        if (!gl_FrontFacing) b = -b;
        vec3 tn = normal_tex * 2.0 - 1.0;
        // Two-channel maps (BC5: blue reads 0) carry x and y only: z from unit length.
        if (tn.z < -0.99) tn.z = sqrt(max(1.0 - dot(tn.xy, tn.xy), 0.0));
        tn.xy *= m.normal_scale;
        n = normalize(mat3(t, b, n) * tn);
    }

    uint mode = frame.mode.x;
    if (mode == KV_VIEW_UNLIT) { out_color = base; return; }
    if (mode == KV_VIEW_NORMALS) { out_color = vec4(n * 0.5 + 0.5, 1.0); return; }
    if (mode == KV_VIEW_UV) { out_color = vec4(fract(in_uv.xy), 0.0, 1.0); return; }
    // A virtual geometry cut's key: its cluster in the low 24 bits, its DAG level above.
    bool cut = (d.flags & DRAW_CLUSTERS) != 0u;
    uint level = cut ? in_meshlet >> 24 : d.lod;
    if (mode == KV_VIEW_LOD) { out_color = vec4(LOD_COLORS[min(level, 8u)], 1.0); return; }
    if (mode == KV_VIEW_MESHLETS) { out_color = vec4(hue(in_meshlet & 0xFFFFFFu), 1.0); return; }
    if ((m.flags & MATERIAL_UNLIT) != 0u) { out_color = base; return; }

    float metallic = m.metallic, roughness = m.roughness;
    if (has(m, 1u)) {
        roughness *= mr_tex.g;
        metallic *= mr_tex.b;
    }
    roughness = clamp(roughness, 0.04, 1.0);
    metallic = clamp(metallic, 0.0, 1.0);
    float ao = 1.0;
    if (has(m, 3u)) ao = 1.0 + m.occlusion_strength * (occlusion_tex - 1.0);
    vec3 emissive = m.emissive.xyz * m.emissive.w;
    if (has(m, 4u)) emissive *= emissive_tex;

    vec3 v = normalize(frame.camera_position.xyz - in_position);
    vec3 l = frame.light_direction.xyz;
    vec3 h = normalize(l + v);
    float nl = max(dot(n, l), 0.0), nv = max(abs(dot(n, v)), 1e-4), nh = max(dot(n, h), 0.0);
    float vh = max(dot(v, h), 0.0);
    vec3 f0 = mix(vec3(0.04), base.rgb, metallic);
    vec3 f = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
    float a2 = roughness * roughness * roughness * roughness;
    float dd = nh * nh * (a2 - 1.0) + 1.0;
    float distribution = a2 / (PI * dd * dd);
    float gv = nl * sqrt(nv * nv * (1.0 - a2) + a2), gl = nv * sqrt(nl * nl * (1.0 - a2) + a2);
    float visibility = gv + gl > 0.0 ? 0.5 / (gv + gl) : 0.0;
    vec3 diffuse = (1.0 - f) * (1.0 - metallic) * base.rgb / PI;
    vec3 direct = (diffuse + f * distribution * visibility) * frame.light_color.rgb * nl;
    // Ambient: a sky-to-ground hemisphere, diffuse and a rough specular share.
    vec3 sky = vec3(0.6, 0.65, 0.75), ground = vec3(0.25, 0.22, 0.2);
    vec3 ambient_light = mix(ground, sky, n.y * 0.5 + 0.5) * frame.light_color.w;
    vec3 ambient = ambient_light * ((1.0 - metallic) * base.rgb + f0 * (1.0 - roughness * 0.5)) * ao;
    out_color = vec4(direct + ambient + emissive, base.a);
}
