/* cooked_shader.c — the shader kind: container SHDR (shader_read.c). It refers to nothing.
 * inspect describes the stage, language, target and entry point, and per variant its defines,
 * its SPIR-V size and its whole reflection: bindings, blocks with their members, inputs,
 * outputs, push constants, specialization constants and workgroup size. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    return kiln_shader_read(data, size, flags, view, err);
}

static const char *const stages[] = {
    "vertex",       "tess_control", "tess_evaluation", "geometry", "fragment",    "compute",
    "task",         "mesh",         "raygen",          "any_hit",  "closest_hit", "miss",
    "intersection", "callable"};
static const char *const languages[] = {"glsl", "hlsl"};
static const char *const targets[] = {"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"};
static const char *const optimizations[] = {"none", "size", "performance"};
static const char *const resources[] = {
    "uniform_buffer",   "storage_buffer",        "sampled_image",        "separate_image",
    "separate_sampler", "storage_image",         "uniform_texel_buffer", "storage_texel_buffer",
    "subpass_input",    "acceleration_structure"};
static const char *const types[] = {"unknown", "bool",  "int8",   "uint8",  "int16",
                                    "uint16",  "int",   "uint",   "int64",  "uint64",
                                    "half",    "float", "double", "struct", "buffer_address"};
static const char *const layouts[] = {"std140", "std430", "scalar"};

#define NAME(v, table) kiln_describe_name(v, table, sizeof table / sizeof table[0])
#define COUNT(table)   (sizeof table / sizeof table[0])

KILN_API const char *kiln_shader_stage_name(uint32_t stage)
{
    return stage < COUNT(stages) ? stages[stage] : NULL;
}

KILN_API const char *kiln_shader_language_name(uint32_t language)
{
    return language < COUNT(languages) ? languages[language] : NULL;
}

KILN_API const char *kiln_shader_target_name(uint32_t target)
{
    return target < COUNT(targets) ? targets[target] : NULL;
}

KILN_API const char *kiln_shader_optimize_name(uint32_t optimize)
{
    return optimize < COUNT(optimizations) ? optimizations[optimize] : NULL;
}

static void describe_bindings(const kiln_shader_view *v, uint32_t vi, uint32_t n, kiln_describe *d)
{
    kiln_describe_array(d, "bindings");
    for (uint32_t i = 0; i < n; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(v, vi, i);
        kiln_describe_object(d, NULL);
        kiln_describe_cstring(d, "name", b.name);
        kiln_describe_int(d, "set", b.set);
        kiln_describe_int(d, "binding", b.binding);
        kiln_describe_cstring(d, "type", NAME(b.resource, resources));
        kiln_describe_int(d, "count", b.count); /* 0: runtime-sized */
        kiln_describe_index(d, "block", b.block);
        kiln_describe_int(d, "image_dim", b.image_dim);
        kiln_describe_int(d, "image_flags", b.image_flags);
        kiln_describe_index(d, "input_attachment", b.input_attachment);
        kiln_describe_bool(d, "readonly", b.flags & KILN_SHADER_BINDING_READONLY);
        kiln_describe_bool(d, "writeonly", b.flags & KILN_SHADER_BINDING_WRITEONLY);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static void describe_blocks(const kiln_shader_view *v, uint32_t vi, uint32_t n, kiln_describe *d)
{
    kiln_describe_array(d, "blocks");
    for (uint32_t i = 0; i < n; i++) {
        kiln_shader_block_info b = kiln_shader_block_at(v, vi, i);
        kiln_describe_object(d, NULL);
        kiln_describe_cstring(d, "name", b.name);
        kiln_describe_int(d, "size", b.size);
        kiln_describe_cstring(d, "layout", NAME(b.layout, layouts));
        kiln_describe_array(d, "members");
        for (uint32_t m = 0; m < b.member_count; m++) {
            kiln_shader_member_info mb = kiln_shader_member_at(v, vi, b.first_member + m);
            kiln_describe_object(d, NULL);
            kiln_describe_cstring(d, "name", mb.name);
            kiln_describe_int(d, "offset", mb.offset);
            kiln_describe_int(d, "size", mb.size);
            kiln_describe_cstring(d, "type", NAME(mb.type, types));
            kiln_describe_int(d, "vec_size", mb.vec_size);
            kiln_describe_int(d, "columns", mb.columns);
            kiln_describe_int(d, "array_count", mb.array_count);
            kiln_describe_int(d, "array_stride", mb.array_stride);
            kiln_describe_int(d, "matrix_stride", mb.matrix_stride);
            kiln_describe_bool(d, "row_major", mb.flags & KILN_SHADER_MEMBER_ROW_MAJOR);
            kiln_describe_index(d, "struct_block", mb.struct_block);
            kiln_describe_end(d);
        }
        kiln_describe_end(d);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static void describe_io(const kiln_shader_view *v, uint32_t vi, bool inputs, uint32_t n,
                        kiln_describe *d)
{
    kiln_describe_array(d, inputs ? "inputs" : "outputs");
    for (uint32_t i = 0; i < n; i++) {
        kiln_shader_io_info io =
            inputs ? kiln_shader_input_at(v, vi, i) : kiln_shader_output_at(v, vi, i);
        kiln_describe_object(d, NULL);
        kiln_describe_cstring(d, "name", io.name);
        kiln_describe_index(d, "location", io.location);
        kiln_describe_int(d, "component", io.component);
        kiln_describe_cstring(d, "type", NAME(io.type, types));
        kiln_describe_int(d, "vec_size", io.vec_size);
        kiln_describe_int(d, "columns", io.columns);
        kiln_describe_int(d, "array_count", io.array_count);
        kiln_describe_bool(d, "flat", io.flags & 1u);
        kiln_describe_bool(d, "per_primitive", io.flags & 2u);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

static void describe_variant(const kiln_shader_view *v, uint32_t vi, kiln_describe *d)
{
    kiln_shader_variant_info x = kiln_shader_variant_at(v, vi);
    kiln_describe_object(d, NULL);
    kiln_describe_cstring(d, "name", x.name);
    kiln_describe_cstring(d, "defines", x.defines);
    kiln_describe_int(d, "word_count", (int64_t)x.word_count);
    kiln_describe_array(d, "workgroup");
    for (int k = 0; k < 3; k++) kiln_describe_int(d, NULL, x.workgroup[k]);
    kiln_describe_end(d);
    kiln_describe_array(d, "workgroup_spec");
    for (int k = 0; k < 3; k++) kiln_describe_index(d, NULL, x.workgroup_spec[k]);
    kiln_describe_end(d);
    kiln_describe_index(d, "push_block", x.push_block);
    kiln_describe_int(d, "push_size", x.push_size);
    describe_bindings(v, vi, x.binding_count, d);
    describe_blocks(v, vi, x.block_count, d);
    describe_io(v, vi, true, x.input_count, d);
    describe_io(v, vi, false, x.output_count, d);
    kiln_describe_array(d, "constants");
    for (uint32_t i = 0; i < x.constant_count; i++) {
        kiln_shader_constant_info c = kiln_shader_constant_at(v, vi, i);
        kiln_describe_object(d, NULL);
        kiln_describe_cstring(d, "name", c.name);
        kiln_describe_int(d, "id", c.id);
        kiln_describe_cstring(d, "type", NAME(c.type, types));
        kiln_describe_array(d, "default_bits");
        kiln_describe_int(d, NULL, c.default_bits[0]);
        kiln_describe_int(d, NULL, c.default_bits[1]);
        kiln_describe_end(d);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
    kiln_describe_end(d);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_shader_view *v = view;
    kiln_describe_cstring(d, "stage", NAME(v->stage, stages));
    kiln_describe_cstring(d, "language", NAME(v->language, languages));
    kiln_describe_cstring(d, "target", NAME(v->target, targets));
    kiln_describe_cstring(d, "optimize", NAME(v->optimize, optimizations));
    kiln_describe_bool(d, "debug_info", v->flags & KILN_SHADER_DEBUG_INFO);
    kiln_describe_cstring(d, "entry", v->entry);
    kiln_describe_array(d, "variants");
    for (uint32_t i = 0; i < v->variant_count; i++) describe_variant(v, i, d);
    kiln_describe_end(d);
}

static const char *const labels[] = {"shader", NULL};

const kiln_cooked_kind kiln_cooked_kind_shader = {
    .name = "shader",
    .fourcc = KILN_SHADER_KIND,
    .labels = labels,
    .view_size = sizeof(kiln_shader_view),
    .read = read,
    .refs = NULL,
    .describe = describe,
};
