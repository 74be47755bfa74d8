/* shaders.h — the inline GLSL and HLSL sources of the material tests, each with the layout the
 * tests expect written beside every member (worked out by hand from the GLSL and HLSL rules). */
#ifndef KT_MB_SHADERS_H
#define KT_MB_SHADERS_H

/* std140: arrays of scalars at stride 16, a float packed into a vec3's fourth slot, mat3 as
 * three columns of stride 16, a row-major mat4, integers and a bool (a uint in SPIR-V). */
static const char std140_frag[] =
    "#version 450\n"
    "layout(set = 1, binding = 0, std140) uniform Params {\n"
    "    float weights[4];              // 0, stride 16, 64 bytes\n"
    "    vec3 tint;                     // 64\n"
    "    float gain;                    // 76: the vec3's fourth slot\n"
    "    mat3 basis;                    // 80: columns at 80, 96, 112\n"
    "    layout(row_major) mat4 xform;  // 128: rows at 128, 144, 160, 176\n"
    "    ivec2 cell;                    // 192\n"
    "    uint flags;                    // 200\n"
    "    bool enabled;                  // 204\n"
    "    vec2 uv;                       // 208\n"
    "    int count;                     // 216\n"
    "    float grid[2][3];              // 224: multi-dimensional\n"
    "} params;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = vec4(params.gain + params.weights[1] + params.grid[1][2]); }\n";

/* nested structs and arrays of structs (std140: a struct aligns to 16) */
static const char nested_frag[] =
    "#version 450\n"
    "struct Light { vec3 color; float intensity; vec4 dir; };           // 32 bytes\n"
    "struct Shadow { float bias; Light key; float cascades[3]; };      // 0, 16, 48: 96 bytes\n"
    "layout(set = 1, binding = 0, std140) uniform Scene {\n"
    "    Light lights[2];   // 0, stride 32\n"
    "    Shadow shadow;     // 64\n"
    "    vec4 extra;        // 160\n"
    "} scene;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = scene.extra + scene.lights[1].dir + vec4(scene.shadow.bias); }\n";

/* std430 storage (arrays of floats at stride 4, vec3 aligned to 16, mat2 columns of stride 8),
 * a runtime-sized array, and std430 push constants */
static const char std430_frag[] =
    "#version 450\n"
    "layout(set = 1, binding = 1, std430) readonly buffer Data {\n"
    "    float vals[3];  // 0, 4, 8\n"
    "    vec2 pair;      // 16\n"
    "    vec3 v3;        // 32\n"
    "    float f;        // 44\n"
    "    mat2 m;         // 48: columns at 48, 56\n"
    "    float rest[];   // 64, runtime-sized\n"
    "} data;\n"
    "layout(push_constant) uniform Push {\n"
    "    mat4 model;     // 0\n"
    "    uint index;     // 64\n"
    "} push;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = push.model * vec4(data.vals[1] + data.rest[push.index]); }\n";

/* the scalar block layout: no padding at all */
static const char scalar_frag[] = "#version 450\n"
                                  "#extension GL_EXT_scalar_block_layout : require\n"
                                  "layout(set = 1, binding = 0, scalar) uniform S {\n"
                                  "    float a;     // 0\n"
                                  "    vec3 b;      // 4\n"
                                  "    vec2 c;      // 16\n"
                                  "    float d[2];  // 24, stride 4\n"
                                  "} s;\n"
                                  "layout(location = 0) out vec4 color;\n"
                                  "void main() { color = vec4(s.a + s.b.x + s.c.y + s.d[1]); }\n";

/* 8-, 16- and 64-bit scalars, half and double (std430) */
static const char widths_frag[] =
    "#version 450\n"
    "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
    "layout(set = 1, binding = 0, std430) readonly buffer T {\n"
    "    float16_t h;   // 0\n"
    "    int8_t i8;     // 2\n"
    "    uint8_t u8;    // 3\n"
    "    int16_t i16;   // 4\n"
    "    uint16_t u16;  // 6\n"
    "    int64_t i64;   // 8\n"
    "    uint64_t u64;  // 16\n"
    "    double d;      // 24\n"
    "    f16vec2 hv;    // 32\n"
    "    float16_t hs[3]; // 36, stride 2\n"
    "} t;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = vec4(float(t.h) + float(t.i8) + float(t.u8) + float(t.i16) +\n"
    "    float(t.u16) + float(t.i64) + float(t.u64) + float(t.d) + float(t.hv.x) +\n"
    "    float(t.hs[1])); }\n";

/* HLSL constant buffer packing as glslang applies it (shaderc's HLSL offsets, which kiln turns
 * on): a float3 followed by a float shares its 16 bytes, a vector never straddles a 16-byte
 * register, an array's elements each start a register, and what follows an array starts a new
 * register (as in std140). */
static const char cbuffer_hlsl[] =
    "cbuffer Tone : register(b0, space1) {\n"
    "    float3 lift;     // 0\n"
    "    float gamma;     // 12\n"
    "    float2 pivot;    // 16\n"
    "    float3 gain;     // 32: not 24, where it would straddle two registers\n"
    "    float curve[3];  // 48, stride 16\n"
    "    float after;     // 96\n"
    "};\n"
    "float4 main() : SV_Target0 { return float4(lift * gamma + gain, pivot.x + curve[1] + after); }\n";

#endif
