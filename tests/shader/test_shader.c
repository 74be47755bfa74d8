/* test_shader.c — kiln_shader_compile, _validate, _reflect and the helpers on sources written
 * here: stage names, the toolchain string, options (defines, targets, optimisation), includes
 * through a resolver that serves from memory (and one that fails), broken sources, determinism
 * across threads and working folders, a compiler kept across compiles (and the project's set of
 * them) giving what a fresh one gives, reflection tables of a known shader, bad arguments and
 * allocation failures. */
#define _GNU_SOURCE /* memmem */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "counting_alloc.h"
#include "pipeline/shader_compilers.h"
#include "process/shader_compile.h"
#include "process/shader_reflect.h"
#include "shader_tests.h"
#include "support.h"

static kiln_shader_compile_opts opts(const char *name, uint32_t stage)
{
    kiln_shader_compile_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.name = name;
    o.language = KILN_SHADER_GLSL;
    o.stage = stage;
    o.target = KILN_SHADER_VULKAN_1_0;
    o.optimize = KILN_SHADER_OPTIMIZE_NONE;
    o.warnings_as_errors = true;
    return o;
}

static kiln_result compile_str(const char *src, const kiln_shader_compile_opts *o,
                               kiln_shader_module *m, kiln_error *err)
{
    return kiln_shader_compile(src, strlen(src), o, NULL, m, err);
}

/* ---- names and the toolchain -------------------------------------------------------------- */

static void stage_of_name_reads_the_extension(void **state)
{
    (void)state;
    assert_int_equal(kiln_shader_stage_of_name("a/b/lit.vert"), KILN_SHADER_VERTEX);
    assert_int_equal(kiln_shader_stage_of_name("lit.frag"), KILN_SHADER_FRAGMENT);
    assert_int_equal(kiln_shader_stage_of_name("x.tesc"), KILN_SHADER_TESS_CONTROL);
    assert_int_equal(kiln_shader_stage_of_name("x.tese"), KILN_SHADER_TESS_EVALUATION);
    assert_int_equal(kiln_shader_stage_of_name("x.geom"), KILN_SHADER_GEOMETRY);
    assert_int_equal(kiln_shader_stage_of_name("x.comp"), KILN_SHADER_COMPUTE);
    assert_int_equal(kiln_shader_stage_of_name("x.task"), KILN_SHADER_TASK);
    assert_int_equal(kiln_shader_stage_of_name("x.mesh"), KILN_SHADER_MESH);
    assert_int_equal(kiln_shader_stage_of_name("x.rgen"), KILN_SHADER_RAYGEN);
    assert_int_equal(kiln_shader_stage_of_name("x.rahit"), KILN_SHADER_ANY_HIT);
    assert_int_equal(kiln_shader_stage_of_name("x.rchit"), KILN_SHADER_CLOSEST_HIT);
    assert_int_equal(kiln_shader_stage_of_name("x.rmiss"), KILN_SHADER_MISS);
    assert_int_equal(kiln_shader_stage_of_name("x.rint"), KILN_SHADER_INTERSECTION);
    assert_int_equal(kiln_shader_stage_of_name("x.rcall"), KILN_SHADER_CALLABLE);
    assert_int_equal(kiln_shader_stage_of_name("lit.frag.hlsl"), KILN_SHADER_FRAGMENT);
    assert_int_equal(kiln_shader_stage_of_name("dir.v/lit.vert.glsl"), KILN_SHADER_VERTEX);
    assert_int_equal(kiln_shader_stage_of_name("common.glsl"), -1);
    assert_int_equal(kiln_shader_stage_of_name("lit.hlsl"), -1);
    assert_int_equal(kiln_shader_stage_of_name("a.frag/x"), -1);
    assert_int_equal(kiln_shader_stage_of_name(".vert"), -1);
    assert_int_equal(kiln_shader_stage_of_name("x.verts"), -1);
    assert_int_equal(kiln_shader_stage_of_name(""), -1);
    assert_int_equal(kiln_shader_stage_of_name(NULL), -1);
}

static void toolchain_names_the_three_libraries(void **state)
{
    (void)state;
    char buf[256];
    const char *t = kiln_shader_toolchain(buf, sizeof buf);
    assert_ptr_equal(t, buf);
    assert_non_null(strstr(buf, "shaderc 20"));
    assert_non_null(strstr(buf, "; spirv-tools "));
    assert_non_null(strstr(buf, "; spirv-cross "));
    char small[8];
    kiln_shader_toolchain(small, sizeof small);
    assert_int_equal(strlen(small), 7);
    assert_null(kiln_shader_toolchain(NULL, 4));
}

/* ---- compiling and reflecting a known shader ---------------------------------------------- */

static const char lit_vert[] =
    "#version 450\n"
    "layout(location = 0) in vec3 inPos;\n"
    "layout(location = 2) in vec2 inUV;\n"
    "layout(location = 1) in vec3 inNormal;\n"
    "layout(set = 0, binding = 0) uniform Scene {\n"
    "    mat4 viewProj;\n"
    "    vec3 lightDir;\n"
    "    float exposure;\n"
    "    vec4 tints[2];\n"
    "    layout(row_major) mat4 rowMajor;\n"
    "} scene;\n"
    "layout(set = 1, binding = 3) uniform sampler2D albedo[4];\n"
    "layout(set = 1, binding = 1) uniform sampler2DShadow shadow;\n"
    "layout(push_constant) uniform Push { mat4 model; uint index; } push;\n"
    "layout(location = 1) out vec2 outUV;\n"
    "layout(location = 0) out vec3 outNormal;\n"
    "layout(location = 2) flat out uint outIndex;\n"
    "void main() {\n"
    "    outUV = inUV * SCALE;\n"
    "    outNormal = inNormal * scene.exposure + scene.lightDir + scene.tints[1].xyz;\n"
    "    outIndex = push.index;\n"
    "    vec4 t = texture(albedo[1], inUV) + vec4(texture(shadow, vec3(inUV, 0.5)));\n"
    "    gl_Position = scene.viewProj * scene.rowMajor * push.model * vec4(inPos, 1.0) + t;\n"
    "}\n";

static const char *S(const kiln_shader_reflection *r, uint32_t off)
{
    assert_true(off < r->strings_size);
    return r->strings + off;
}

static void known_vertex_shader_compiles_validates_and_reflects(void **state)
{
    (void)state;
    kiln_shader_compile_opts o = opts("shaders/lit.vert", KILN_SHADER_VERTEX);
    kiln_shader_define d[2] = {{"SCALE", "2.0"}, {"UNUSED", NULL}};
    o.defines = d;
    o.define_count = 2;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(lit_vert, &o, &m, &err), KILN_OK);
    assert_non_null(m.words);
    assert_true(m.word_count > 5);
    assert_int_equal(m.words[0], 0x07230203u);
    assert_int_equal(m.words[1], 0x10000u); /* Vulkan 1.0: SPIR-V 1.0 */
    assert_non_null(m.log);
    assert_string_equal(m.log, "");
    assert_int_equal(kiln_shader_validate(m.words, m.word_count, KILN_SHADER_VULKAN_1_0, "main",
                                          KILN_SHADER_VERTEX, &err),
                     KILN_OK);

    kiln_shader_reflection r;
    assert_int_equal(kiln_shader_reflect(m.words, m.word_count, NULL, NULL, &r, &err), KILN_OK);
    assert_int_equal(r.stage, KILN_SHADER_VERTEX);
    assert_string_equal(S(&r, r.entry_point), "main");
    assert_int_equal(r.strings[0], 0);
    /* bindings by (set, binding) */
    assert_int_equal(r.binding_count, 3);
    assert_int_equal(r.bindings[0].set, 0);
    assert_int_equal(r.bindings[0].binding, 0);
    assert_int_equal(r.bindings[0].resource, KILN_SHADER_UNIFORM_BUFFER);
    assert_int_equal(r.bindings[0].count, 1);
    assert_string_equal(S(&r, r.bindings[0].name), "scene");
    assert_int_equal(r.bindings[1].binding, 1);
    assert_int_equal(r.bindings[1].resource, KILN_SHADER_SAMPLED_IMAGE);
    assert_int_equal(r.bindings[1].image_dim, 2);
    assert_int_equal(r.bindings[1].image_flags, 4u); /* depth comparison */
    assert_int_equal(r.bindings[1].block, KILN_SHADER_NONE);
    assert_int_equal(r.bindings[2].set, 1);
    assert_int_equal(r.bindings[2].binding, 3);
    assert_int_equal(r.bindings[2].count, 4);
    assert_int_equal(r.bindings[2].input_attachment, KILN_SHADER_NONE);
    /* the uniform block first, then the push constants */
    assert_int_equal(r.block_count, 2);
    const kiln_shader_block *b = &r.blocks[r.bindings[0].block];
    assert_int_equal(r.bindings[0].block, 0);
    assert_string_equal(S(&r, b->name), "Scene");
    assert_int_equal(b->layout, KILN_SHADER_LAYOUT_STD140);
    assert_int_equal(b->member_count, 5);
    assert_int_equal(b->size, 176);
    const kiln_shader_member *mem = &r.members[b->first_member];
    assert_string_equal(S(&r, mem[0].name), "viewProj");
    assert_int_equal(mem[0].offset, 0);
    assert_int_equal(mem[0].size, 64);
    assert_int_equal(mem[0].type, KILN_SHADER_TYPE_FLOAT);
    assert_int_equal(mem[0].vec_size, 4);
    assert_int_equal(mem[0].columns, 4);
    assert_int_equal(mem[0].matrix_stride, 16);
    assert_int_equal(mem[0].flags, 0);
    assert_string_equal(S(&r, mem[1].name), "lightDir");
    assert_int_equal(mem[1].offset, 64);
    assert_int_equal(mem[1].vec_size, 3);
    assert_int_equal(mem[2].offset, 76); /* a float packs after a vec3 */
    assert_int_equal(mem[3].offset, 80);
    assert_int_equal(mem[3].array_count, 2);
    assert_int_equal(mem[3].array_stride, 16);
    assert_int_equal(mem[3].size, 32);
    assert_int_equal(mem[4].offset, 112);
    assert_int_equal(mem[4].flags, KILN_SHADER_MEMBER_ROW_MAJOR);
    assert_int_equal(mem[4].struct_block, KILN_SHADER_NONE);
    assert_int_equal(r.push_block, 1);
    assert_string_equal(S(&r, r.blocks[1].name), "Push");
    assert_int_equal(r.blocks[1].layout, KILN_SHADER_LAYOUT_STD430);
    assert_int_equal(r.push_size, 68);
    /* inputs and outputs by location; gl_Position is a built-in */
    assert_int_equal(r.input_count, 3);
    assert_string_equal(S(&r, r.inputs[0].name), "inPos");
    assert_string_equal(S(&r, r.inputs[1].name), "inNormal");
    assert_string_equal(S(&r, r.inputs[2].name), "inUV");
    assert_int_equal(r.inputs[2].location, 2);
    assert_int_equal(r.inputs[2].vec_size, 2);
    assert_int_equal(r.output_count, 3);
    assert_string_equal(S(&r, r.outputs[2].name), "outIndex");
    assert_int_equal(r.outputs[2].type, KILN_SHADER_TYPE_UINT);
    assert_int_equal(r.outputs[2].flags, 1u); /* flat */
    assert_int_equal(r.constant_count, 0);
    assert_int_equal(r.workgroup_spec[0], KILN_SHADER_NONE);
    kiln_shader_reflection_free(&r);
    assert_null(r.bindings);
    kiln_shader_reflection_free(NULL);
    kiln_shader_module_free(&m);
    assert_null(m.words);
    kiln_shader_module_free(NULL);
}

static const char cull_comp[] =
    "#version 450\n"
    "layout(local_size_x_id = 3, local_size_y = 4, local_size_z = 1) in;\n"
    "layout(constant_id = 7) const float SCALE = 1.5;\n"
    "layout(constant_id = 2) const bool ENABLED = true;\n"
    "struct Inner { vec2 uv; float w; };\n"
    "struct Item { vec3 pos; float radius; Inner inner[2]; };\n"
    "layout(std430, set = 0, binding = 1) readonly buffer Items { uint count; Item items[]; };\n"
    "layout(std430, set = 0, binding = 0) writeonly buffer Out { float result[]; };\n"
    "layout(set = 0, binding = 2, rgba8) uniform readonly image2D src;\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (ENABLED && i < count)\n"
    "        result[i] = items[i].radius * SCALE + items[i].inner[1].w + imageLoad(src, "
    "ivec2(0)).x;\n"
    "}\n";

static void compute_shader_reflects_workgroup_constants_and_nested_structs(void **state)
{
    (void)state;
    kiln_shader_compile_opts o = opts("shaders/cull.comp", KILN_SHADER_COMPUTE);
    o.target = KILN_SHADER_VULKAN_1_2;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(cull_comp, &o, &m, &err), KILN_OK);
    assert_int_equal(m.words[1], 0x10500u);
    assert_int_equal(kiln_shader_validate(m.words, m.word_count, KILN_SHADER_VULKAN_1_2, NULL,
                                          KILN_SHADER_COMPUTE, &err),
                     KILN_OK);
    kiln_shader_reflection r;
    assert_int_equal(kiln_shader_reflect(m.words, m.word_count, "main", NULL, &r, &err), KILN_OK);
    assert_int_equal(r.stage, KILN_SHADER_COMPUTE);
    assert_int_equal(r.workgroup[0], 0); /* set by a spec constant */
    assert_int_equal(r.workgroup_spec[0], 3);
    assert_int_equal(r.workgroup[1], 4);
    assert_int_equal(r.workgroup_spec[1], KILN_SHADER_NONE);
    assert_int_equal(r.workgroup[2], 1);
    assert_int_equal(r.binding_count, 3);
    assert_int_equal(r.bindings[0].resource, KILN_SHADER_STORAGE_BUFFER);
    assert_int_equal(r.bindings[0].flags, KILN_SHADER_BINDING_WRITEONLY);
    assert_int_equal(r.bindings[1].flags, KILN_SHADER_BINDING_READONLY);
    assert_int_equal(r.bindings[2].resource, KILN_SHADER_STORAGE_IMAGE);
    assert_int_equal(r.bindings[2].flags, KILN_SHADER_BINDING_READONLY);
    /* blocks: Out, Items (binding order), then Item and Inner depth-first */
    assert_int_equal(r.block_count, 4);
    assert_string_equal(S(&r, r.blocks[0].name), "Out");
    assert_string_equal(S(&r, r.blocks[1].name), "Items");
    assert_string_equal(S(&r, r.blocks[2].name), "Item");
    assert_string_equal(S(&r, r.blocks[3].name), "Inner");
    assert_int_equal(r.blocks[1].layout, KILN_SHADER_LAYOUT_STD430);
    assert_int_equal(r.blocks[1].size, 16); /* the runtime array counts 0 */
    const kiln_shader_member *items = &r.members[r.blocks[1].first_member + 1];
    assert_int_equal(items->type, KILN_SHADER_TYPE_STRUCT);
    assert_int_equal(items->array_count, KILN_SHADER_RUNTIME_ARRAY);
    assert_int_equal(items->size, 0);
    assert_int_equal(items->offset, 16);
    assert_int_equal(items->array_stride, 48);
    assert_int_equal(items->struct_block, 2);
    const kiln_shader_member *inner = &r.members[r.blocks[2].first_member + 2];
    assert_int_equal(inner->struct_block, 3);
    assert_int_equal(inner->offset, 16);
    assert_int_equal(inner->array_count, 2);
    assert_int_equal(inner->array_stride, 16);
    /* constants by id */
    assert_int_equal(r.constant_count, 3);
    assert_int_equal(r.constants[0].id, 2);
    assert_int_equal(r.constants[0].type, KILN_SHADER_TYPE_BOOL);
    assert_int_equal(r.constants[0].default_bits[0], 1);
    assert_int_equal(r.constants[1].id, 3);
    assert_int_equal(r.constants[2].id, 7);
    assert_string_equal(S(&r, r.constants[2].name), "SCALE");
    assert_int_equal(r.constants[2].type, KILN_SHADER_TYPE_FLOAT);
    assert_int_equal(r.constants[2].default_bits[0], 0x3FC00000u); /* 1.5f */
    kiln_shader_reflection_free(&r);
    kiln_shader_module_free(&m);
}

static void hlsl_pixel_shader_with_its_own_entry_point(void **state)
{
    (void)state;
    static const char src[] =
        "Texture2D tex : register(t0);\n"
        "SamplerState smp : register(s1);\n"
        "cbuffer Params : register(b2) { float4 tint; float gain; };\n"
        "float4 PSMain(float2 uv : TEXCOORD0) : SV_TARGET { return tex.Sample(smp, uv) * tint * "
        "gain; }\n";
    kiln_shader_compile_opts o = opts("shaders/post.frag.hlsl", KILN_SHADER_FRAGMENT);
    o.language = KILN_SHADER_HLSL;
    o.entry = "PSMain";
    o.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_OK);
    assert_int_equal(kiln_shader_validate(m.words, m.word_count, KILN_SHADER_VULKAN_1_0, "PSMain",
                                          KILN_SHADER_FRAGMENT, &err),
                     KILN_OK);
    assert_int_equal(kiln_shader_validate(m.words, m.word_count, KILN_SHADER_VULKAN_1_0, "main",
                                          KILN_SHADER_FRAGMENT, &err),
                     KILN_E_IMPORT_FAILED);
    kiln_shader_reflection r;
    assert_int_equal(kiln_shader_reflect(m.words, m.word_count, "PSMain", NULL, &r, &err), KILN_OK);
    assert_string_equal(S(&r, r.entry_point), "PSMain");
    assert_int_equal(r.binding_count, 3);
    assert_int_equal(r.bindings[0].resource, KILN_SHADER_SEPARATE_IMAGE);
    assert_int_equal(r.bindings[1].resource, KILN_SHADER_SEPARATE_SAMPLER);
    assert_int_equal(r.bindings[2].resource, KILN_SHADER_UNIFORM_BUFFER);
    assert_int_equal(r.bindings[2].binding, 2);
    kiln_shader_reflection_free(&r);
    kiln_shader_module_free(&m);
}

/* ---- includes ----------------------------------------------------------------------------- */

typedef struct mem_file {
    const char *name, *text;
} mem_file;

typedef struct mem_includes {
    const mem_file *files;
    size_t count;
    char calls[512]; /* "requested<requesting|relative;" per call */
} mem_includes;

/* Serves "<folder of requesting>/<requested>" for "name", "<requested>" for <name>. */
static kiln_result mem_include(void *user, const char *requested, const char *requesting,
                               bool relative, const char **resolved, const uint8_t **data,
                               size_t *size, kiln_error *err)
{
    mem_includes *mi = user;
    char want[256];
    const char *slash = strrchr(requesting, '/');
    if (relative && slash)
        snprintf(want, sizeof want, "%.*s/%s", (int)(slash - requesting), requesting, requested);
    else snprintf(want, sizeof want, "%s", requested);
    size_t n = strlen(mi->calls);
    snprintf(mi->calls + n, sizeof mi->calls - n, "%s<%s|%d;", requested, requesting, relative);
    for (size_t i = 0; i < mi->count; i++)
        if (strcmp(mi->files[i].name, want) == 0) {
            *resolved = mi->files[i].name;
            *data = (const uint8_t *)mi->files[i].text;
            *size = strlen(mi->files[i].text);
            return KILN_OK;
        }
    return kiln_error_set(err, KILN_E_ASSET_IO, "include %s: no such file in the project", want);
}

static const mem_file include_files[] = {
    {"shaders/lib/common.glsl", "#include \"inner.glsl\"\nvec4 tint() { return vec4(TINT); }\n"},
    {"shaders/lib/inner.glsl", "#define TINT 0.5\n"},
    {"shaders/lib/broken.glsl", "float f() {\n  return 1.0 +;\n}\n"},
};

static void includes_come_from_the_resolver(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "#extension GL_GOOGLE_include_directive : require\n"
                              "#include \"lib/common.glsl\"\n"
                              "layout(location = 0) out vec4 color;\n"
                              "void main() { color = tint(); }\n";
    mem_includes mi = {include_files, 3, ""};
    kiln_shader_compile_opts o = opts("shaders/lit.frag", KILN_SHADER_FRAGMENT);
    o.include = mem_include;
    o.include_user = &mi;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_OK);
    assert_string_equal(mi.calls, "lib/common.glsl<shaders/lit.frag|1;"
                                  "inner.glsl<shaders/lib/common.glsl|1;");
    kiln_shader_module_free(&m);
}

static void missing_include_names_the_including_file_and_line(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "#extension GL_GOOGLE_include_directive : require\n"
                              "\n"
                              "#include \"lib/missing.glsl\"\n"
                              "layout(location = 0) out vec4 color;\n"
                              "void main() { color = vec4(1); }\n";
    mem_includes mi = {include_files, 3, ""};
    kiln_shader_compile_opts o = opts("shaders/lit.frag", KILN_SHADER_FRAGMENT);
    o.include = mem_include;
    o.include_user = &mi;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_E_ASSET_IO);
    assert_string_equal(err.message,
                        "shaders/lit.frag:4: include shaders/lib/missing.glsl: no such file in "
                        "the project");
    assert_null(m.words);
    assert_non_null(m.log);
    assert_non_null(strstr(m.log, "shaders/lit.frag:4:"));
    kiln_shader_module_free(&m);

    /* without a resolver every #include fails, naming it */
    o.include = NULL;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "shaders/lit.frag:4: "));
    assert_non_null(strstr(err.message, "lib/missing.glsl"));
    kiln_shader_module_free(&m);
}

static void error_inside_an_include_names_the_included_file(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "#extension GL_GOOGLE_include_directive : require\n"
                              "#include \"lib/broken.glsl\"\n"
                              "layout(location = 0) out vec4 color;\n"
                              "void main() { color = vec4(f()); }\n";
    mem_includes mi = {include_files, 3, ""};
    kiln_shader_compile_opts o = opts("shaders/lit.frag", KILN_SHADER_FRAGMENT);
    o.include = mem_include;
    o.include_user = &mi;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "shaders/lib/broken.glsl:2: error"));
    kiln_shader_module_free(&m);
}

/* ---- broken sources ----------------------------------------------------------------------- */

static void syntax_error_fails_with_name_and_line(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "layout(location = 0) out vec4 c;\n"
                              "void main() { c = vec4(1)\n"
                              "}\n";
    kiln_shader_compile_opts o = opts("shaders/bad.frag", KILN_SHADER_FRAGMENT);
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_E_IMPORT_FAILED);
    assert_int_equal(strncmp(err.message, "shaders/bad.frag:4: error:", 26), 0);
    assert_null(m.words);
    assert_int_equal(m.word_count, 0);
    assert_true(m.log_size > 0);
    assert_int_equal(strlen(m.log), m.log_size);
    assert_non_null(strstr(m.log, "shaders/bad.frag:4: error:"));
    kiln_shader_module_free(&m);
}

static void warning_fails_only_as_an_error(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "#extension GL_KILN_nothing : warn\n"
                              "layout(location = 0) out vec4 c;\n"
                              "void main() { c = vec4(1); }\n";
    kiln_shader_compile_opts o = opts("shaders/warn.frag", KILN_SHADER_FRAGMENT);
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_E_IMPORT_FAILED);
    assert_int_equal(strncmp(err.message, "shaders/warn.frag:2: error:", 27), 0);
    assert_null(m.words);
    kiln_shader_module_free(&m);
    o.warnings_as_errors = false;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_OK);
    assert_non_null(m.words);
    assert_non_null(strstr(m.log, "shaders/warn.frag:2: warning:"));
    kiln_shader_module_free(&m);
}

static void wrong_entry_point_or_stage_fails_validation(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "layout(location = 0) out vec4 c;\n"
                              "void main() { c = vec4(1); }\n";
    kiln_shader_compile_opts o = opts("shaders/a.frag", KILN_SHADER_FRAGMENT);
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_OK);
    assert_int_equal(
        kiln_shader_validate(m.words, m.word_count, 0, "shade", KILN_SHADER_FRAGMENT, &err),
        KILN_E_IMPORT_FAILED);
    assert_string_equal(err.message, "SPIR-V: no entry point \"shade\"");
    assert_int_equal(
        kiln_shader_validate(m.words, m.word_count, 0, "main", KILN_SHADER_VERTEX, &err),
        KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "not of execution model 0"));
    kiln_shader_reflection r;
    assert_int_equal(kiln_shader_reflect(m.words, m.word_count, "shade", NULL, &r, &err),
                     KILN_E_IMPORT_FAILED);
    assert_null(r.strings);
    kiln_shader_module_free(&m);
    /* GLSL's entry point is main whatever the options name (glslang takes the name for HLSL
     * only): validating against the name the settings give catches the mismatch */
    o.entry = "shade";
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_OK);
    assert_int_equal(
        kiln_shader_validate(m.words, m.word_count, 0, "shade", KILN_SHADER_FRAGMENT, &err),
        KILN_E_IMPORT_FAILED);
    assert_int_equal(
        kiln_shader_validate(m.words, m.word_count, 0, "main", KILN_SHADER_FRAGMENT, &err),
        KILN_OK);
    kiln_shader_module_free(&m);
}

static void damaged_modules_fail_validation(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "layout(location = 0) out vec4 c;\n"
                              "void main() { c = vec4(1); }\n";
    kiln_shader_compile_opts o = opts("shaders/a.frag", KILN_SHADER_FRAGMENT);
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_str(src, &o, &m, &err), KILN_OK);
    uint32_t *w = malloc(m.word_count * 4);
    assert_non_null(w);
    memcpy(w, m.words, m.word_count * 4);
    assert_int_equal(kiln_shader_validate(w, 4, 0, NULL, KILN_SHADER_FRAGMENT, &err),
                     KILN_E_IMPORT_FAILED);
    w[0] = 0x03022307u; /* byte-swapped magic */
    assert_int_equal(kiln_shader_validate(w, m.word_count, 0, NULL, KILN_SHADER_FRAGMENT, &err),
                     KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "magic"));
    w[0] = 0x07230203u;
    w[5] = 0xFFFF0000u | (w[5] & 0xFFFFu); /* the first instruction runs past the end */
    assert_int_equal(kiln_shader_validate(w, m.word_count, 0, NULL, KILN_SHADER_FRAGMENT, &err),
                     KILN_E_IMPORT_FAILED);
    memcpy(w, m.words, m.word_count * 4);
    /* the words cut short: SPIRV-Tools finds the stream incomplete */
    assert_int_equal(kiln_shader_validate(w, m.word_count - 3, 0, NULL, KILN_SHADER_FRAGMENT, &err),
                     KILN_E_IMPORT_FAILED);
    /* a SPIR-V 1.0 module passes for Vulkan 1.3 too; a 1.6 one does not pass for 1.0 */
    assert_int_equal(kiln_shader_validate(w, m.word_count, 3, NULL, KILN_SHADER_FRAGMENT, &err),
                     KILN_OK);
    w[1] = 0x10600u;
    assert_int_equal(kiln_shader_validate(w, m.word_count, 0, NULL, KILN_SHADER_FRAGMENT, &err),
                     KILN_E_IMPORT_FAILED);
    assert_int_equal(kiln_shader_validate(NULL, 10, 0, NULL, 0, &err), KILN_E_USAGE);
    assert_int_equal(kiln_shader_validate(w, m.word_count, 9, NULL, 0, &err), KILN_E_USAGE);
    assert_int_equal(kiln_shader_validate(w, m.word_count, 0, NULL, KILN_SHADER_STAGE_COUNT, &err),
                     KILN_E_USAGE);
    /* reflection refuses garbage */
    kiln_shader_reflection r;
    memset(w, 0x5A, m.word_count * 4);
    assert_int_equal(kiln_shader_reflect(w, m.word_count, NULL, NULL, &r, &err),
                     KILN_E_IMPORT_FAILED);
    assert_int_equal(kiln_shader_reflect(NULL, 0, NULL, NULL, &r, &err), KILN_E_USAGE);
    assert_int_equal(kiln_shader_reflect(w, 1, NULL, NULL, NULL, &err), KILN_E_USAGE);
    free(w);
    kiln_shader_module_free(&m);
}

static void bad_options_are_usage_errors(void **state)
{
    (void)state;
    kiln_shader_module m;
    kiln_error err;
    kiln_shader_compile_opts o = opts("a.frag", KILN_SHADER_FRAGMENT);
    assert_int_equal(kiln_shader_compile("x", 1, NULL, NULL, &m, &err), KILN_E_USAGE);
    assert_int_equal(kiln_shader_compile("x", 1, &o, NULL, NULL, &err), KILN_E_USAGE);
    assert_int_equal(kiln_shader_compile(NULL, 1, &o, NULL, &m, &err), KILN_E_USAGE);
    kiln_shader_compile_opts b = o;
    b.struct_size = 8;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b = o;
    b.name = NULL;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b = o;
    b.stage = KILN_SHADER_STAGE_COUNT;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b = o;
    b.language = 2;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b = o;
    b.target = 4;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b = o;
    b.optimize = 3;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b = o;
    kiln_shader_define d = {"", "1"};
    b.defines = &d;
    b.define_count = 1;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    b.defines = NULL;
    assert_int_equal(kiln_shader_compile("x", 1, &b, NULL, &m, &err), KILN_E_USAGE);
    /* an empty source is a compile error, not a crash */
    assert_int_equal(kiln_shader_compile("", 0, &o, NULL, &m, &err), KILN_E_IMPORT_FAILED);
    kiln_shader_module_free(&m);
}

/* ---- determinism -------------------------------------------------------------------------- */

typedef struct compile_job {
    const char *src;
    kiln_shader_compile_opts o;
    kiln_shader_module m;
    kiln_result r;
} compile_job;

static void *compile_thread(void *p)
{
    compile_job *j = p;
    kiln_error err;
    j->r = compile_str(j->src, &j->o, &j->m, &err);
    return NULL;
}

static bool has_debug_text(const uint32_t *w, size_t n)
{
    for (size_t i = 5; i < n;) {
        uint32_t len = w[i] >> 16, op = w[i] & 0xFFFFu;
        if (len == 0) return true;
        if (op == 7 || op == 8) return true; /* OpString, OpLine */
        if (op == 3 && len > 3) return true; /* OpSource with a file or text */
        i += len;
    }
    return false;
}

static void same_source_gives_the_same_words_anywhere(void **state)
{
    (void)state;
    compile_job jobs[2];
    for (int i = 0; i < 2; i++) {
        jobs[i].src = lit_vert;
        jobs[i].o = opts("shaders/lit.vert", KILN_SHADER_VERTEX);
        kiln_shader_define *d = calloc(1, sizeof *d);
        assert_non_null(d);
        d->name = "SCALE";
        d->value = "2.0";
        jobs[i].o.defines = d;
        jobs[i].o.define_count = 1;
        jobs[i].o.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE;
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, compile_thread, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) assert_int_equal(jobs[i].r, KILN_OK);
    assert_int_equal(jobs[0].m.word_count, jobs[1].m.word_count);
    assert_memory_equal(jobs[0].m.words, jobs[1].m.words, jobs[0].m.word_count * 4);
    assert_false(has_debug_text(jobs[0].m.words, jobs[0].m.word_count));
    assert_null(memmem(jobs[0].m.words, jobs[0].m.word_count * 4, "lit.vert", 8));

    /* from another working folder */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char *tmp = kt_tempdir("shader_cwd");
    assert_int_equal(chdir(tmp), 0);
    compile_job again = jobs[0];
    memset(&again.m, 0, sizeof again.m);
    compile_thread(&again);
    assert_int_equal(chdir(cwd), 0);
    kt_rmtree(tmp);
    free(tmp);
    assert_int_equal(again.r, KILN_OK);
    assert_int_equal(again.m.word_count, jobs[0].m.word_count);
    assert_memory_equal(again.m.words, jobs[0].m.words, again.m.word_count * 4);
    kiln_shader_module_free(&again.m);

    /* debug_info keeps OpSource text and OpLine (the project-relative name, no folder) */
    compile_job dbg = jobs[0];
    dbg.o.debug_info = true;
    dbg.o.optimize = KILN_SHADER_OPTIMIZE_NONE;
    memset(&dbg.m, 0, sizeof dbg.m);
    compile_thread(&dbg);
    assert_int_equal(dbg.r, KILN_OK);
    assert_true(has_debug_text(dbg.m.words, dbg.m.word_count));
    assert_null(memmem(dbg.m.words, dbg.m.word_count * 4, cwd, strlen(cwd)));
    kiln_shader_module_free(&dbg.m);
    for (int i = 0; i < 2; i++) {
        free((void *)jobs[i].o.defines);
        kiln_shader_module_free(&jobs[i].m);
    }
}

/* ---- kept compilers ---------------------------------------------------------------------- */

/* What one compile gave, to compare a kept compiler's compile with a fresh one's. */
typedef struct compile_outcome {
    kiln_result r;
    char message[256];
    kiln_shader_module m;
} compile_outcome;

static const char kept_include_src[] = "#version 450\n"
                                       "#extension GL_GOOGLE_include_directive : require\n"
                                       "#include \"lib/common.glsl\"\n"
                                       "layout(location = 0) out vec4 color;\n"
                                       "void main() { color = tint(); }\n";
static const char kept_missing_src[] = "#version 450\n"
                                       "#extension GL_GOOGLE_include_directive : require\n"
                                       "#include \"lib/missing.glsl\"\n"
                                       "void main() {}\n";
static const char kept_hlsl_src[] =
    "Texture2D tex : register(t0);\n"
    "SamplerState smp : register(s1);\n"
    "float4 PSMain(float2 uv : TEXCOORD0) : SV_TARGET { return tex.Sample(smp, uv); }\n";
static const char kept_bad_src[] = "#version 450\nvoid main() { int x = }\n";
static const char kept_warn_src[] = "#version 450\n"
                                    "#extension GL_KILN_nothing : warn\n"
                                    "void main() {}\n";
static const char kept_comp_src[] = "#version 450\n"
                                    "layout(local_size_x = 8) in;\n"
                                    "layout(set = 0, binding = 0) buffer B { float v[]; } b;\n"
                                    "void main() { b.v[gl_GlobalInvocationID.x] *= 2.0; }\n";

#define KEPT_CASES 8

/* Case i of a mix of stages, languages and outcomes (includes, a failed include, a syntax
 * error, a warning as an error, preprocessing alone), compiled with compiler (NULL: fresh). */
static void kept_compile(size_t i, kiln_shader_compiler *compiler, compile_outcome *out)
{
    static const kiln_shader_define scale = {"SCALE", "2.0"};
    mem_includes mi = {include_files, 3, ""};
    kiln_shader_compile_opts o = opts("shaders/k.frag", KILN_SHADER_FRAGMENT);
    o.include = mem_include;
    o.include_user = &mi;
    o.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE;
    o.compiler = compiler;
    const char *src = kept_include_src;
    switch (i) {
    case 0:
        o = opts("shaders/lit.vert", KILN_SHADER_VERTEX);
        o.defines = &scale;
        o.define_count = 1;
        o.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE;
        o.compiler = compiler;
        src = lit_vert;
        break;
    case 1:
        break; /* the include, optimised */
    case 2:
        o.language = KILN_SHADER_HLSL;
        o.entry = "PSMain";
        src = kept_hlsl_src;
        break;
    case 3:
        src = kept_missing_src;
        break;
    case 4:
        src = kept_bad_src;
        break;
    case 5:
        src = kept_warn_src;
        break;
    case 6:
        o.stage = KILN_SHADER_COMPUTE;
        o.target = KILN_SHADER_VULKAN_1_2;
        o.debug_info = true;
        src = kept_comp_src;
        break;
    case 7:
        o.preprocess_only = true;
        break;
    }
    kiln_error err;
    kiln_error_clear(&err);
    out->r = compile_str(src, &o, &out->m, &err);
    snprintf(out->message, sizeof out->message, "%s", out->r == KILN_OK ? "" : err.message);
}

static void assert_same_outcome(const compile_outcome *a, const compile_outcome *b, size_t i)
{
    if (a->r != b->r || strcmp(a->message, b->message) != 0 || strcmp(a->m.log, b->m.log) != 0 ||
        a->m.word_count != b->m.word_count ||
        (a->m.word_count && memcmp(a->m.words, b->m.words, a->m.word_count * 4) != 0))
        fail_msg("case %zu: %s \"%s\" (%zu words) against %s \"%s\" (%zu words)", i,
                 kiln_result_name(a->r), a->message, a->m.word_count, kiln_result_name(b->r),
                 b->message, b->m.word_count);
}

typedef struct kept_thread {
    const compile_outcome *fresh;
    bool ok;
} kept_thread;

static void *kept_compile_thread(void *p)
{
    kept_thread *t = p;
    kiln_shader_compiler *c = NULL;
    kiln_error err;
    t->ok = kiln_shader_compiler_create(NULL, &c, &err) == KILN_OK;
    for (int round = 0; round < 2 && t->ok; round++)
        for (size_t i = 0; i < KEPT_CASES && t->ok; i++) {
            compile_outcome o;
            kept_compile(i, c, &o);
            const compile_outcome *f = &t->fresh[i];
            t->ok = o.r == f->r && !strcmp(o.message, f->message) && !strcmp(o.m.log, f->m.log) &&
                    o.m.word_count == f->m.word_count &&
                    (!o.m.word_count || !memcmp(o.m.words, f->m.words, o.m.word_count * 4));
            kiln_shader_module_free(&o.m);
        }
    kiln_shader_compiler_destroy(c);
    return NULL;
}

static void a_kept_compiler_gives_what_a_fresh_one_gives(void **state)
{
    (void)state;
    compile_outcome fresh[KEPT_CASES];
    for (size_t i = 0; i < KEPT_CASES; i++) kept_compile(i, NULL, &fresh[i]);
    /* the cases are what they claim: some words, some failures of each sort */
    assert_int_equal(fresh[0].r, KILN_OK);
    assert_int_equal(fresh[2].r, KILN_OK);
    assert_int_equal(fresh[3].r, KILN_E_ASSET_IO);
    assert_int_equal(fresh[4].r, KILN_E_IMPORT_FAILED);
    assert_int_equal(fresh[5].r, KILN_E_IMPORT_FAILED);
    assert_int_equal(fresh[7].r, KILN_OK);
    assert_null(fresh[7].m.words);

    /* one compiler for all, twice over, in the other order: what came before changes nothing */
    kiln_shader_compiler *c = NULL;
    kiln_error err;
    assert_int_equal(kiln_shader_compiler_create(NULL, &c, &err), KILN_OK);
    for (int round = 0; round < 2; round++)
        for (size_t k = 0; k < KEPT_CASES; k++) {
            size_t i = KEPT_CASES - 1 - k;
            compile_outcome o;
            kept_compile(i, c, &o);
            assert_same_outcome(&o, &fresh[i], i);
            kiln_shader_module_free(&o.m);
        }
    kiln_shader_compiler_destroy(c);
    kiln_shader_compiler_destroy(NULL);

    /* two threads, a compiler each, at the same time */
    kept_thread t[2] = {{fresh, false}, {fresh, false}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, kept_compile_thread, &t[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    assert_true(t[0].ok);
    assert_true(t[1].ok);
    for (size_t i = 0; i < KEPT_CASES; i++) kiln_shader_module_free(&fresh[i].m);
}

/* The project's set: a compiler taken is the taker's alone; one given back is taken again. */
static void shader_compilers_hand_out_one_compiler_per_taker(void **state)
{
    (void)state;
    kt_counting cnt;
    const kiln_allocator *a = kt_counting_init(&cnt, true);
    kiln_shader_compilers *set = NULL;
    kiln_error err;
    assert_int_equal(kiln_shader_compilers_create(a, &set, &err), KILN_OK);
    kiln_shader_compiler *x = NULL, *y = NULL, *z = NULL;
    assert_int_equal(kiln_shader_compilers_take(set, &x, &err), KILN_OK);
    assert_int_equal(kiln_shader_compilers_take(set, &y, &err), KILN_OK);
    assert_non_null(x);
    assert_non_null(y);
    assert_ptr_not_equal(x, y);
    kiln_shader_compilers_give(set, x);
    assert_int_equal(kiln_shader_compilers_take(set, &z, &err), KILN_OK);
    assert_ptr_equal(z, x);
    /* a taken compiler compiles */
    compile_outcome o;
    kept_compile(0, z, &o);
    assert_int_equal(o.r, KILN_OK);
    kiln_shader_module_free(&o.m);
    kiln_shader_compilers_give(set, z);
    kiln_shader_compilers_give(set, y);
    kiln_shader_compilers_give(set, NULL);
    kiln_shader_compilers_destroy(set); /* releases both */
    kiln_shader_compilers_destroy(NULL);
    kt_counting_assert_clean(&cnt);
    /* out of memory: no set, no compiler, nothing left behind */
    for (size_t n = 1; n <= 2; n++) {
        a = kt_counting_init(&cnt, true);
        cnt.fail_at = 1; /* each makes one allocation */
        kiln_shader_compiler *c = NULL;
        kiln_result r = n == 1 ? kiln_shader_compilers_create(a, &set, &err)
                               : kiln_shader_compiler_create(a, &c, &err);
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_null(c);
        kt_counting_assert_clean(&cnt);
    }
}

/* ---- allocation failures ------------------------------------------------------------------ */

static void every_allocation_failure_is_clean(void **state)
{
    (void)state;
    static const char src[] = "#version 450\n"
                              "#extension GL_GOOGLE_include_directive : require\n"
                              "#include \"lib/common.glsl\"\n"
                              "layout(location = 0) out vec4 color;\n"
                              "void main() { color = tint(); }\n";
    kiln_error err;
    bool done = false;
    for (size_t n = 1; !done && n < 100; n++) {
        kt_counting c;
        const kiln_allocator *a = kt_counting_init(&c, true);
        c.fail_at = n;
        mem_includes mi = {include_files, 3, ""};
        kiln_shader_compile_opts o = opts("shaders/lit.frag", KILN_SHADER_FRAGMENT);
        o.include = mem_include;
        o.include_user = &mi;
        kiln_shader_module m;
        kiln_result r = kiln_shader_compile(src, strlen(src), &o, a, &m, &err);
        if (c.failures == 0) {
            assert_int_equal(r, KILN_OK);
            done = true;
        } else {
            assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
            assert_null(m.words);
        }
        kiln_shader_module_free(&m);
        kt_counting_assert_clean(&c);
    }
    assert_true(done);

    kiln_shader_compile_opts o = opts("shaders/cull.comp", KILN_SHADER_COMPUTE);
    kiln_shader_module m;
    assert_int_equal(compile_str(cull_comp, &o, &m, &err), KILN_OK);
    done = false;
    for (size_t n = 1; !done && n < 200; n++) {
        kt_counting c;
        const kiln_allocator *a = kt_counting_init(&c, n % 2 == 0);
        c.fail_at = n;
        kiln_shader_reflection r;
        kiln_result res = kiln_shader_reflect(m.words, m.word_count, NULL, a, &r, &err);
        if (c.failures == 0) {
            assert_int_equal(res, KILN_OK);
            assert_int_equal(r.block_count, 4);
            done = true;
        } else {
            assert_int_equal(res, KILN_E_OUT_OF_MEMORY);
            assert_null(r.bindings);
        }
        kiln_shader_reflection_free(&r);
        kt_counting_assert_clean(&c);
    }
    assert_true(done);
    kiln_shader_module_free(&m);
}

/* ---- the repository's test shaders (tests/shaders) ---------------------------------------- */

typedef struct disk_includes {
    const char *root; /* $KILN_SOURCE_DIR/tests/shaders: the "project" */
    char *names[16];
    void *data[16];
    int n;
} disk_includes;

/* Joins folder and name, folding "." and ".."; false when the result leaves the root. */
static bool join_confined(const char *folder, const char *name, char *out, size_t cap)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s%s%s", folder, folder[0] ? "/" : "", name);
    out[0] = 0;
    size_t len = 0;
    for (char *seg = strtok(buf, "/"); seg; seg = strtok(NULL, "/")) {
        if (strcmp(seg, ".") == 0) continue;
        if (strcmp(seg, "..") == 0) {
            if (len == 0) return false;
            char *slash = strrchr(out, '/');
            len = slash ? (size_t)(slash - out) : 0;
            out[len] = 0;
            continue;
        }
        int w = snprintf(out + len, cap - len, "%s%s", len ? "/" : "", seg);
        if (w < 0 || (size_t)w >= cap - len) return false;
        len += (size_t)w;
    }
    return len > 0;
}

/* "name" from the including file's folder, then include/; <name> from include/. */
static kiln_result disk_include(void *user, const char *requested, const char *requesting,
                                bool relative, const char **resolved, const uint8_t **data,
                                size_t *size, kiln_error *err)
{
    disk_includes *di = user;
    char folder[256] = "";
    const char *slash = strrchr(requesting, '/');
    if (slash) snprintf(folder, sizeof folder, "%.*s", (int)(slash - requesting), requesting);
    const char *tries[2] = {relative ? folder : "include", "include"};
    for (int t = 0; t < (relative ? 2 : 1); t++) {
        char name[512];
        if (!join_confined(tries[t], requested, name, sizeof name))
            return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                  "#include \"%s\" reaches out of the project", requested);
        char *full = kt_format("%s/%s", di->root, name);
        size_t n = 0;
        void *bytes = kt_read_file(full, &n);
        free(full);
        if (!bytes) continue;
        if (di->n == 16) {
            free(bytes);
            return kiln_error_set(err, KILN_E_LIMIT, "too many includes");
        }
        di->names[di->n] = strdup(name);
        di->data[di->n++] = bytes;
        *resolved = di->names[di->n - 1];
        *data = bytes;
        *size = n;
        return KILN_OK;
    }
    return kiln_error_set(err, KILN_E_ASSET_IO, "#include \"%s\": no such file", requested);
}

static kiln_result compile_file(const char *root, const char *name, kiln_shader_compile_opts *o,
                                kiln_shader_module *m, kiln_error *err)
{
    disk_includes di = {.root = root};
    char *full = kt_format("%s/%s", root, name);
    size_t size = 0;
    char *src = kt_read_file(full, &size);
    free(full);
    assert_non_null(src);
    o->name = name;
    o->include = disk_include;
    o->include_user = &di;
    kiln_result r = kiln_shader_compile(src, size, o, NULL, m, err);
    for (int i = 0; i < di.n; i++) {
        free(di.names[i]);
        free(di.data[i]);
    }
    free(src);
    return r;
}

static void repository_test_shaders_compile_and_the_broken_ones_fail(void **state)
{
    (void)state;
    const char *source_dir = getenv("KILN_SOURCE_DIR");
    if (!source_dir) skip();
    char *root = kt_format("%s/tests/shaders", source_dir);
    static const struct {
        const char *file;
        uint32_t stage, language, target;
        const char *entry, *define1, *define2;
    } good[] = {
        {"pbr_forward.vert", KILN_SHADER_VERTEX, 0, 1, NULL, NULL, NULL},
        {"pbr_forward.vert", KILN_SHADER_VERTEX, 0, 1, NULL, "SKINNED", NULL},
        {"pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, 1, NULL, NULL, NULL},
        {"pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, 1, NULL, "NORMAL_MAP", NULL},
        {"pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, 1, NULL, "ALPHA_MASK", NULL},
        {"pbr_forward.frag", KILN_SHADER_FRAGMENT, 0, 1, NULL, "NORMAL_MAP", "ALPHA_MASK"},
        {"skin_vertices.comp", KILN_SHADER_COMPUTE, 0, 1, NULL, NULL, NULL},
        {"unlit_texture.hlsl", KILN_SHADER_FRAGMENT, 1, 1, "PSMain", NULL, NULL},
        {"meshlets.mesh", KILN_SHADER_MESH, 0, 3, NULL, NULL, NULL},
        {"flat_color.frag", KILN_SHADER_FRAGMENT, 0, 0, NULL, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        kiln_shader_compile_opts o = opts(good[i].file, good[i].stage);
        o.language = good[i].language;
        o.target = good[i].target;
        o.entry = good[i].entry;
        kiln_shader_define d[2] = {{good[i].define1, NULL}, {good[i].define2, NULL}};
        o.defines = d;
        o.define_count = good[i].define2 ? 2 : good[i].define1 ? 1 : 0;
        kiln_shader_module m;
        kiln_error err;
        kiln_result r = compile_file(root, good[i].file, &o, &m, &err);
        if (r != KILN_OK) fail_msg("%s: %s", good[i].file, err.message);
        r = kiln_shader_validate(m.words, m.word_count, o.target, o.entry, o.stage, &err);
        if (r != KILN_OK) fail_msg("%s: %s", good[i].file, err.message);
        kiln_shader_reflection refl;
        assert_int_equal(kiln_shader_reflect(m.words, m.word_count, o.entry, NULL, &refl, &err),
                         KILN_OK);
        assert_int_equal(refl.stage, good[i].stage);
        kiln_shader_reflection_free(&refl);
        kiln_shader_module_free(&m);
    }
    static const struct {
        const char *file;
        uint32_t language;
        bool warnings_as_errors;
        kiln_result code;
        const char *message;
    } bad[] = {
        {"broken/syntax_error.frag", 0, true, KILN_E_IMPORT_FAILED,
         "broken/syntax_error.frag:5: error"},
        {"broken/missing_include.frag", 0, true, KILN_E_ASSET_IO,
         "broken/missing_include.frag:4: #include \"no_such_file.glsl\": no such file"},
        {"broken/include_escape.frag", 0, true, KILN_E_IMPORT_SETTINGS,
         "broken/include_escape.frag:5: #include \"../../../../outside.glsl\" reaches out"},
        {"broken/wrong_entry.hlsl", 1, false, KILN_E_IMPORT_FAILED,
         "broken/wrong_entry.hlsl: entry point \"main\" not found"},
        {"broken/warning.frag", 0, true, KILN_E_IMPORT_FAILED, "broken/warning.frag:4: error"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kiln_shader_compile_opts o = opts(bad[i].file, KILN_SHADER_FRAGMENT);
        o.language = bad[i].language;
        o.warnings_as_errors = bad[i].warnings_as_errors;
        kiln_shader_module m;
        kiln_error err;
        kiln_result r = compile_file(root, bad[i].file, &o, &m, &err);
        if (r != bad[i].code || strncmp(err.message, bad[i].message, strlen(bad[i].message)) != 0)
            fail_msg("%s: %s %s", bad[i].file, kiln_result_name(r), err.message);
        assert_null(m.words);
        kiln_shader_module_free(&m);
    }
    /* the warning is only a warning when warnings are not errors */
    kiln_shader_compile_opts o = opts("broken/warning.frag", KILN_SHADER_FRAGMENT);
    o.warnings_as_errors = false;
    kiln_shader_module m;
    kiln_error err;
    assert_int_equal(compile_file(root, "broken/warning.frag", &o, &m, &err), KILN_OK);
    assert_non_null(strstr(m.log, "broken/warning.frag:4: warning"));
    kiln_shader_module_free(&m);
    free(root);
}

int kt_shader_unit_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stage_of_name_reads_the_extension),
        cmocka_unit_test(toolchain_names_the_three_libraries),
        cmocka_unit_test(known_vertex_shader_compiles_validates_and_reflects),
        cmocka_unit_test(compute_shader_reflects_workgroup_constants_and_nested_structs),
        cmocka_unit_test(hlsl_pixel_shader_with_its_own_entry_point),
        cmocka_unit_test(includes_come_from_the_resolver),
        cmocka_unit_test(missing_include_names_the_including_file_and_line),
        cmocka_unit_test(error_inside_an_include_names_the_included_file),
        cmocka_unit_test(syntax_error_fails_with_name_and_line),
        cmocka_unit_test(warning_fails_only_as_an_error),
        cmocka_unit_test(wrong_entry_point_or_stage_fails_validation),
        cmocka_unit_test(damaged_modules_fail_validation),
        cmocka_unit_test(bad_options_are_usage_errors),
        cmocka_unit_test(same_source_gives_the_same_words_anywhere),
        cmocka_unit_test(a_kept_compiler_gives_what_a_fresh_one_gives),
        cmocka_unit_test(shader_compilers_hand_out_one_compiler_per_taker),
        cmocka_unit_test(every_allocation_failure_is_clean),
        cmocka_unit_test(repository_test_shaders_compile_and_the_broken_ones_fail),
    };
    return cmocka_run_group_tests_name("shader", tests, NULL, NULL);
}
