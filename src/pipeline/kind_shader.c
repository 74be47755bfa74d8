/* kind_shader.c — the shader source kind: a GLSL or HLSL file cooked into one SHDR container with
 * the import.shader settings (cook_shader.c). Its #include files are dependencies found from the
 * asset root; the compiler's versions are in the key. */
#include <string.h>

#include "core/error.h"
#include "pipeline/cook_shader.h"
#include "pipeline/project.h"
#include "pipeline/roots.h"
#include "pipeline/shader_compilers.h"
#include "pipeline/source_kind.h"
#include "process/shader_compile.h"

static const char *const extensions[] = {"vert", "frag",  "comp", "geom",  "tesc",  "tese",
                                         "mesh", "task",  "rgen", "rchit", "rmiss", "rahit",
                                         "rint", "rcall", "glsl", "hlsl",  NULL};

static json_t *settings_json(const kiln_asset *a)
{
    return kiln_shader_settings_json(&a->settings);
}

static bool standalone(const kiln_asset *a)
{
    return a->settings.shader.stage != KILN_SHADER_STAGE_AUTO ||
           kiln_shader_stage_of_name(a->rel) >= 0;
}

static const char *tools(char *out, size_t cap) { return kiln_shader_toolchain(out, cap); }

static kiln_result dependencies(const kiln_asset *a, const uint8_t *source, size_t size,
                                const char *dir, kiln_dep_fn fn, void *user, kiln_error *err)
{
    return kiln_shader_source_dependencies(&a->settings, dir, kiln_roots_below(a->abs, dir, a->rel),
                                           source, size, fn, user, err);
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    const kiln_asset_root *root = kiln_roots_holding(p, a->abs);
    if (!root) return kiln_error_set(err, KILN_E_ASSET_IO, "%s: outside every asset root", a->rel);
    kiln_cook_env env = {.allocator = &p->allocator,
                         .jobs = p->jobs,
                         .platform = p->platform,
                         .name = kiln_roots_below(a->abs, root->dir, a->rel)};
    /* this thread's compiler for the cook, kept by the project for the next one */
    kiln_shader_compiler *compiler = NULL;
    kiln_result r = kiln_shader_compilers_take(p->shader_compilers, &compiler, err);
    if (r == KILN_OK)
        r = kiln_cook_shader_source(&env, &a->settings, root->dir, source, size, compiler, out,
                                    err);
    kiln_shader_compilers_give(p->shader_compilers, compiler);
    return r;
}

/* The schema of import.shader (source_kind.h: settings_schema), as docs/schemas/meta.schema.json
 * states it; tests/settings/test_kind_schema.c holds the two and the settings parser together. */
static const char settings_schema[] =
    "{"
    "\"shader\": {"
    "\"description\": \"GLSL and HLSL shaders (.vert .frag .comp ... .glsl .hlsl).\", "
    "\"type\": \"object\", "
    "\"additionalProperties\": false, "
    "\"properties\": {"
    "\"stage\": {\"enum\": [\"auto\", \"vertex\", \"tess_control\", \"tess_evaluation\", "
    "\"geometry\", \"fragment\", \"compute\", \"task\", \"mesh\", \"raygen\", \"any_hit\", "
    "\"closest_hit\", \"miss\", \"intersection\", \"callable\"], \"default\": \"auto\", "
    "\"description\": \"auto: from the file name (.frag, x.frag.glsl, x.vert.hlsl).\"}, "
    "\"language\": {\"enum\": [\"auto\", \"glsl\", \"hlsl\"], \"default\": \"auto\", "
    "\"description\": \"auto: hlsl for .hlsl files, else glsl.\"}, "
    "\"entry\": {\"$ref\": \"#/$defs/shaderIdentifier\", \"default\": \"main\"}, "
    "\"target\": {\"enum\": [\"vulkan1.0\", \"vulkan1.1\", \"vulkan1.2\", \"vulkan1.3\"], "
    "\"default\": \"vulkan1.2\"}, "
    "\"optimize\": {\"enum\": [\"none\", \"size\", \"performance\"], "
    "\"default\": \"performance\"}, "
    "\"warnings_as_errors\": {\"type\": \"boolean\", \"default\": true}, "
    "\"debug_info\": {\"type\": \"boolean\", \"default\": false}, "
    "\"defines\": {\"$ref\": \"#/$defs/shaderDefines\", \"default\": {}}, "
    "\"include_dirs\": {\"type\": \"array\", \"maxItems\": 16, \"uniqueItems\": true, "
    "\"default\": [], \"items\": {\"type\": \"string\", "
    "\"pattern\": \"^(\\\\.|(?!\\\\.\\\\.?(/|$))[^/\\\\\\\\\\\\u0000-\\\\u001f\\\\u007f]+"
    "(/(?!\\\\.\\\\.?(/|$))[^/\\\\\\\\\\\\u0000-\\\\u001f\\\\u007f]+)*)$\", \"maxLength\": 255}}, "
    "\"variants\": {\"type\": \"object\", \"maxProperties\": 256, \"default\": {}, "
    "\"propertyNames\": {\"pattern\": \"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$\"}, "
    "\"additionalProperties\": {\"$ref\": \"#/$defs/shaderDefines\"}}"
    "}}"
    "}";

static const char *const settings_groups[] = {"shader", NULL};

const kiln_source_kind kiln_source_kind_shader = {
    .name = "shader",
    .extensions = extensions,
    .settings_json = settings_json,
    .target_dependent = NULL,
    .key_has_guid = false,
    .dependencies = dependencies,
    .deps_from_root = true,
    .standalone = standalone,
    .tools = tools,
    .failures_follow_key = true,
    /* No check_settings: a file without a stage is a library the scan leaves out (standalone);
     * importing one by its path fails in the cook with kiln_shader_settings_check's error. */
    .check_settings = NULL,
    .cook = cook,
    .settings_schema = settings_schema,
    .settings_groups = settings_groups,
};
