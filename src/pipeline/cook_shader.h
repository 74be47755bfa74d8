/* cook_shader.h — a GLSL or HLSL source into one cooked shader (container SHDR) with a variant
 * per named set of defines, and the files its #include lines read (cook_shader.c). Shared by
 * the shader kind (kind_shader.c) and the one-shot `kiln shader` (convert.c), so both run the
 * same code. */
#ifndef KILN_PIPELINE_COOK_SHADER_H
#define KILN_PIPELINE_COOK_SHADER_H

#include "pipeline/cook.h"
#include "process/shader_compile.h"

/* Settings that parse but cannot be cooked: stage auto on a name that says no stage
 * (KILN_E_IMPORT_SETTINGS at /import/shader/stage). name: the source's root-relative path. */
kiln_result kiln_shader_settings_check(const kiln_settings *s, const char *name, kiln_error *err);

/* Calls fn with the absolute path of every file an #include of any variant reads or looks for
 * (candidates before the one found too: creating one changes what is read), each once, inside
 * root (the real path of the project root). The preprocessor runs per variant with its defines,
 * so only live #include lines count, on one compiler made for the call (cheap while another
 * compiler of the process lives, as during an import: shader_compile.h). Errors: those of the
 * include resolver (a missing include or one leading outside the root: KILN_E_IMPORT_FAILED naming
 * the including file and line), of the preprocessor, and what fn returns. */
kiln_result kiln_shader_source_dependencies(const kiln_settings *s, const char *root,
                                            const char *name, const uint8_t *source, size_t size,
                                            kiln_dep_fn fn, void *user, kiln_error *err);

/* Cooks source (env->name: its root-relative path, as diagnostics name it) into one output,
 * label "shader": every variant compiled, validated and reflected, then written; the compiler's
 * warnings (when not errors) go to out->warnings, one per line. Nothing is made when any variant
 * fails: KILN_E_IMPORT_FAILED with the first diagnostic ("variant NAME: file:line: error: ..."
 * when there are several variants), KILN_E_IMPORT_SETTINGS, KILN_E_LIMIT,
 * KILN_E_OUT_OF_MEMORY. compiler: the one every variant compiles with (borrowed, this thread's
 * alone during the call); NULL: one made for this cook. The bytes are the same either way. */
kiln_result kiln_cook_shader_source(const kiln_cook_env *env, const kiln_settings *s,
                                    const char *root, const uint8_t *source, size_t size,
                                    kiln_shader_compiler *compiler, kiln_cooked *out,
                                    kiln_error *err);

#endif
