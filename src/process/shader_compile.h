/* shader_compile.h — GLSL or HLSL source to SPIR-V through libshaderc's C API, and the checks a
 * module passes before anything is published (SPIRV-Tools' validator through its C API, the
 * magic, word alignment, the entry point). The processor knows nothing of files or settings
 * documents: an #include goes through the caller's resolver (the pipeline confines it to the
 * project and records it as a dependency), and the options are this struct. */
#ifndef KILN_PROCESS_SHADER_COMPILE_H
#define KILN_PROCESS_SHADER_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln.h"
#include "process/shader_reflect.h"

/* kiln_shader_language, kiln_shader_target and kiln_shader_optimize are public (kiln_format.h). */

/* Resolves one #include. requested: the name as written; requesting: the resolved name of the
 * file that includes it (the source's own name for the top level); relative: "name" rather than
 * <name>. On success: *resolved is the name diagnostics and later includes use (a project-relative
 * path), *data and *size its bytes; all three stay valid until kiln_shader_compile returns. An
 * error (a missing include, one outside the project) fails the compile with that error, prefixed
 * with
 * "<requesting>:<line>: " where the compiler says the line. */
typedef kiln_result (*kiln_shader_include_fn)(void *user, const char *requested,
                                              const char *requesting, bool relative,
                                              const char **resolved, const uint8_t **data,
                                              size_t *size, kiln_error *err);

/* A shaderc compiler kept across compiles. glslang builds its built-in declarations (per
 * version, profile and stage: about 100-200 ms of a compile) when it first needs them and frees
 * them when the last compiler of the process is released, so a compile that makes and releases
 * its own compiler, with no other alive, builds them every time; compiles on a kept compiler (the
 * variants of a shader, every shader a worker of an import cooks) build them once. Used by one
 * thread at a time: each thread that compiles gets its own (pipeline/shader_compilers.h hands them
 * out). */
typedef struct kiln_shader_compiler kiln_shader_compiler;

/* Makes a compiler (on a's allocator, NULL = libc). Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_shader_compiler_create(const kiln_allocator *a, kiln_shader_compiler **out,
                                        kiln_error *err);
/* Releases it. NULL: no-op. */
void kiln_shader_compiler_destroy(kiln_shader_compiler *c);

typedef struct kiln_shader_define {
    const char *name;
    const char *value; /* NULL: defined without a value */
} kiln_shader_define;

typedef struct kiln_shader_compile_opts {
    size_t struct_size; /* sizeof(kiln_shader_compile_opts) */
    const char *name;   /* the source's name in diagnostics (project-relative path) */
    uint32_t language;  /* kiln_shader_language */
    uint32_t stage;     /* kiln_shader_stage */
    uint32_t target;    /* kiln_shader_target */
    uint32_t optimize;  /* kiln_shader_optimize */
    const char *entry;  /* entry point; NULL: "main" */
    bool warnings_as_errors;
    bool debug_info; /* keep OpSource/OpLine/names for debuggers (never paths or times) */
    const kiln_shader_define *defines;
    size_t define_count;
    kiln_shader_include_fn include; /* NULL: every #include fails */
    void *include_user;
    /* Run the preprocessor only (every live #include resolved, nothing compiled): a cheap way
     * to learn the files a compile reads. out->words stays NULL. */
    bool preprocess_only;
    /* The compiler to compile with (borrowed; no other thread may use it during the call).
     * NULL: one made and released for this call. The words do not depend on which. */
    kiln_shader_compiler *compiler;
} kiln_shader_compile_opts;

typedef struct kiln_shader_module {
    uint32_t *words; /* SPIR-V, host order; NULL after a failure */
    size_t word_count;
    /* The compiler's messages ("name:line: warning: ..." lines), NUL-terminated; "" when none.
     * Kept after a failure too (the errors, every one), for the caller to report in full. */
    char *log;
    size_t log_size;
    kiln_allocator allocator;
} kiln_shader_module;

/* Compiles source (size bytes, not NUL-terminated) for one stage. *out is zeroed first; after a
 * failure it holds the log only. Errors: KILN_E_IMPORT_FAILED (a compile error or, with
 * warnings_as_errors, a warning: the message is the first diagnostic, out->log has all),
 * what the include resolver returned, KILN_E_USAGE, KILN_E_OUT_OF_MEMORY. Deterministic: the
 * module carries no path, time or process state, and none of the compiler's history.
 * Thread-safe for calls with distinct o->compiler (or none). */
kiln_result kiln_shader_compile(const char *source, size_t size, const kiln_shader_compile_opts *o,
                                const kiln_allocator *a, kiln_shader_module *out, kiln_error *err);

void kiln_shader_module_free(kiln_shader_module *m); /* zeroes it; NULL: no-op */

/* Checks a module before it is published: whole 32-bit words, the SPIR-V magic, SPIRV-Tools'
 * validator for the target environment, and an entry point named `entry` for `stage`.
 * Errors: KILN_E_IMPORT_FAILED with the validator's message. */
kiln_result kiln_shader_validate(const uint32_t *words, size_t count, uint32_t target,
                                 const char *entry, uint32_t stage, kiln_error *err);

/* What changes the compiled bytes besides the source and the options, for cache keys:
 * "shaderc <version>; spirv-tools <version>; spirv-cross <version>" into out (NUL-terminated,
 * truncated to cap). Returns out. */
const char *kiln_shader_toolchain(char *out, size_t cap);

/* The stage a file name implies (".vert" ... ".rcall", also "name.vert.glsl" and
 * "name.vert.hlsl"), or -1 when the name says none. */
int kiln_shader_stage_of_name(const char *name);

#endif
