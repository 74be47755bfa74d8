// kiln_mesh.glsl — decoding kiln's quantized vertex streams (docs/meshes.md, "Quantization"):
// positions unorm16x4 inside the mesh's bounds, normals octahedral snorm16x2, tangents octahedral
// snorm8x4 with the handedness in w, UVs unorm16x2 inside the set's range. The scale and offset
// come from kiln_mesh_view (bounds_min, position_scale, uv_offset, uv_scale) per draw.
#ifndef KILN_MESH_GLSL
#define KILN_MESH_GLSL

// e: the snorm pair as the GPU reads it (VK_FORMAT_*_SNORM), in [-1, 1].
vec3 kiln_oct_decode(vec2 e)
{
    vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
    if (n.z < 0.0)
        n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
    return normalize(n);
}

// q: the unorm16x4 position as the GPU reads it (VK_FORMAT_R16G16B16A16_UNORM), in [0, 1].
vec3 kiln_position(vec4 q, vec3 bounds_min, vec3 position_scale)
{
    return bounds_min + position_scale * q.xyz;
}

// q: the snorm8x4 tangent (VK_FORMAT_R8G8B8A8_SNORM): octahedral xy, w the handedness.
vec4 kiln_tangent(vec4 q)
{
    return vec4(kiln_oct_decode(q.xy), q.w < 0.0 ? -1.0 : 1.0);
}

// q: the unorm16x2 UV (VK_FORMAT_R16G16_UNORM), in [0, 1].
vec2 kiln_uv(vec2 q, vec2 uv_offset, vec2 uv_scale)
{
    return uv_offset + uv_scale * q;
}

#endif
