/* shader_validate.c — kiln_shader_validate (see shader_compile.h): whole words, the SPIR-V
 * magic and header, SPIRV-Tools' validator (C API) for the target Vulkan version, and an
 * OpEntryPoint with the asked name and the stage's execution model, found by kiln's own
 * bounds-checked walk over the instruction stream. */
#include <spirv-tools/libspirv.h>
#include <string.h>

#include "core/error.h"
#include "process/shader_compile.h"

#define SPIRV_MAGIC     0x07230203u
#define SPIRV_HEADER    5u                /* words: magic, version, generator, bound, schema */
#define OP_ENTRY_POINT  15u               /* OpEntryPoint */
#define OP_FUNCTION     54u               /* OpFunction: no entry point can follow the first one */
#define MAX_SHADER_WORD ((size_t)1 << 26) /* 256 MiB of SPIR-V is refused */

/* SPIR-V's ExecutionModel of each kiln_shader_stage. */
static const uint32_t execution_model[KILN_SHADER_STAGE_COUNT] = {
    0,    /* Vertex */
    1,    /* TessellationControl */
    2,    /* TessellationEvaluation */
    3,    /* Geometry */
    4,    /* Fragment */
    5,    /* GLCompute */
    5364, /* TaskEXT */
    5365, /* MeshEXT */
    5313, /* RayGenerationKHR */
    5315, /* AnyHitKHR */
    5316, /* ClosestHitKHR */
    5317, /* MissKHR */
    5314, /* IntersectionKHR */
    5318, /* CallableKHR */
};

/* The environment of a target; Vulkan 1.1 with a SPIR-V 1.4 module (ray tracing, mesh
 * shaders) is Vulkan 1.1's SPIR-V 1.4 environment. */
static spv_target_env target_env(uint32_t target, uint32_t version)
{
    switch (target) {
    case KILN_SHADER_VULKAN_1_0:
        return SPV_ENV_VULKAN_1_0;
    case KILN_SHADER_VULKAN_1_1:
        return version >= 0x10400u ? SPV_ENV_VULKAN_1_1_SPIRV_1_4 : SPV_ENV_VULKAN_1_1;
    case KILN_SHADER_VULKAN_1_2:
        return SPV_ENV_VULKAN_1_2;
    default:
        return SPV_ENV_VULKAN_1_3;
    }
}

/* Looks for OpEntryPoint <model> %id "entry". Every instruction's length is checked against the
 * words left. */
static kiln_result find_entry(const uint32_t *w, size_t count, const char *entry, uint32_t model,
                              kiln_error *err)
{
    size_t entry_len = strlen(entry);
    bool named = false;
    for (size_t i = SPIRV_HEADER; i < count;) {
        uint32_t len = w[i] >> 16, op = w[i] & 0xFFFFu;
        if (len == 0 || len > count - i)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "SPIR-V: instruction at word %zu runs past the end", i);
        if (op == OP_FUNCTION) break;
        if (op == OP_ENTRY_POINT && len >= 4) {
            const char *name = (const char *)&w[i + 3];
            size_t cap = (size_t)(len - 3) * 4;
            size_t n = strnlen(name, cap);
            if (n < cap && n == entry_len && memcmp(name, entry, n) == 0) {
                if (w[i + 1] == model) return KILN_OK;
                named = true;
            }
        }
        i += len;
    }
    if (named)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "SPIR-V: entry point \"%s\" is not of execution model %u", entry,
                              (unsigned)model);
    return kiln_error_set(err, KILN_E_IMPORT_FAILED, "SPIR-V: no entry point \"%s\"", entry);
}

/* For kiln_shader_toolchain (shader_toolchain.c). */
const char *kiln_spirv_tools_version(void);
const char *kiln_spirv_tools_version(void) { return spvSoftwareVersionString(); }

kiln_result kiln_shader_validate(const uint32_t *words, size_t count, uint32_t target,
                                 const char *entry, uint32_t stage, kiln_error *err)
{
    if (!words && count > 0) return kiln_error_set(err, KILN_E_USAGE, "SPIR-V: no words");
    if (target > KILN_SHADER_VULKAN_1_3 || stage >= KILN_SHADER_STAGE_COUNT)
        return kiln_error_set(err, KILN_E_USAGE, "SPIR-V: target %u or stage %u out of range",
                              (unsigned)target, (unsigned)stage);
    if (count < SPIRV_HEADER)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "SPIR-V: %zu words, shorter than a header",
                              count);
    if (count > MAX_SHADER_WORD)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "SPIR-V: %zu words (limit %zu)", count,
                              MAX_SHADER_WORD);
    if (words[0] != SPIRV_MAGIC)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "SPIR-V: magic 0x%08x, not 0x%08x",
                              (unsigned)words[0], SPIRV_MAGIC);
    kiln_result r = find_entry(words, count, entry ? entry : "main", execution_model[stage], err);
    if (r != KILN_OK) return r;

    spv_context ctx = spvContextCreate(target_env(target, words[1]));
    spv_validator_options vo = spvValidatorOptionsCreate();
    if (!ctx || !vo) {
        if (ctx) spvContextDestroy(ctx);
        if (vo) spvValidatorOptionsDestroy(vo);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "SPIR-V: the validator did not start");
    }
    spv_const_binary_t bin = {words, count};
    spv_diagnostic diag = NULL;
    spv_result_t v = spvValidateWithOptions(ctx, vo, &bin, &diag);
    if (v != SPV_SUCCESS) {
        const char *msg = diag && diag->error ? diag->error : "the module is not valid";
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "SPIR-V validation: %s", msg);
    }
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(vo);
    spvContextDestroy(ctx);
    return r;
}
