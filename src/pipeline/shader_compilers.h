/* shader_compilers.h — the shader compilers of a project: each thread that cooks a shader takes
 * one for the cook and gives it back after, so the compilers outlive the cooks (glslang keeps
 * its built-in tables while any compiler of the process lives: shader_compile.h) while no two
 * threads ever use one at the same time. There are never more compilers than threads
 * that cooked shaders at once; they are released with the set (kiln_project_close). */
#ifndef KILN_PIPELINE_SHADER_COMPILERS_H
#define KILN_PIPELINE_SHADER_COMPILERS_H

#include "kiln/kiln.h"
#include "process/shader_compile.h"

typedef struct kiln_shader_compilers kiln_shader_compilers;

/* An empty set (no compiler is made before one is taken). a: NULL = libc, kept for destroy.
 * Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_shader_compilers_create(const kiln_allocator *a, kiln_shader_compilers **out,
                                         kiln_error *err);

/* Releases every compiler of the set, then the set. None may be taken. NULL: no-op. */
void kiln_shader_compilers_destroy(kiln_shader_compilers *s);

/* A compiler for the calling thread alone until it gives it back: an idle one of the set, else
 * a new one. Thread-safe. Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_shader_compilers_take(kiln_shader_compilers *s, kiln_shader_compiler **out,
                                       kiln_error *err);

/* Gives a taken compiler back to the set (kept for the next taker). Thread-safe. NULL: no-op. */
void kiln_shader_compilers_give(kiln_shader_compilers *s, kiln_shader_compiler *c);

#endif
