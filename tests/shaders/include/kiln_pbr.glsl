// kiln_pbr.glsl — glTF's metallic-roughness BRDF (the specification's appendix B): GGX
// distribution, height-correlated Smith visibility, Schlick Fresnel, Lambert diffuse.
#ifndef KILN_PBR_GLSL
#define KILN_PBR_GLSL

const float KILN_PI = 3.14159265358979;

float kiln_d_ggx(float n_dot_h, float alpha)
{
    float a2 = alpha * alpha;
    float d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (KILN_PI * d * d);
}

float kiln_v_smith(float n_dot_l, float n_dot_v, float alpha)
{
    float a2 = alpha * alpha;
    float gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    float gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    // both 0 at a grazing silhouette: keep the quotient finite
    return 0.5 / max(gv + gl, 1e-5);
}

vec3 kiln_f_schlick(vec3 f0, float v_dot_h)
{
    return f0 + (1.0 - f0) * pow(clamp(1.0 - v_dot_h, 0.0, 1.0), 5.0);
}

// The light a surface point reflects towards v from a light of radiance `radiance` along l.
vec3 kiln_brdf(vec3 base_color, float metallic, float roughness, vec3 n, vec3 v, vec3 l,
               vec3 radiance)
{
    vec3 h = normalize(l + v);
    float n_dot_l = clamp(dot(n, l), 0.0, 1.0);
    float n_dot_v = clamp(abs(dot(n, v)), 1e-4, 1.0);
    float n_dot_h = clamp(dot(n, h), 0.0, 1.0);
    float v_dot_h = clamp(dot(v, h), 0.0, 1.0);
    float alpha = roughness * roughness;
    vec3 f0 = mix(vec3(0.04), base_color, metallic);
    vec3 f = kiln_f_schlick(f0, v_dot_h);
    vec3 diffuse = (1.0 - f) * (1.0 - metallic) * base_color / KILN_PI;
    vec3 specular = f * kiln_d_ggx(n_dot_h, alpha) * kiln_v_smith(n_dot_l, n_dot_v, alpha);
    return (diffuse + specular) * radiance * n_dot_l;
}

#endif
