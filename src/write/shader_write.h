/* shader_write.h — a cooked shader as a kiln container of kind "SHDR" (cook side; the bytes are
 * in docs/formats.md, "Shaders"; the reader is kiln_shader_read). */
#ifndef KILN_WRITE_SHADER_WRITE_H
#define KILN_WRITE_SHADER_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "process/shader_reflect.h"

/* One variant: its SPIR-V and what reflection found in it. Everything is borrowed. */
typedef struct kiln_cooked_shader_variant {
    const char *name;      /* unique within the shader, not empty */
    const char *defines;   /* the defines that made it, as text; NULL is "" */
    const uint32_t *words; /* host order, starting with the SPIR-V magic */
    size_t word_count;
    /* Its stage must be the shader's and its entry point name the shader's entry. */
    const kiln_shader_reflection *reflection;
} kiln_cooked_shader_variant;

typedef struct kiln_cooked_shader {
    uint32_t stage;    /* kiln_shader_stage */
    uint32_t language; /* kiln_shader_language */
    uint32_t target;   /* kiln_shader_target */
    uint32_t optimize; /* kiln_shader_optimize */
    uint32_t flags;    /* KILN_SHADER_DEBUG_INFO */
    const char *entry; /* the entry point's name */
    const kiln_cooked_shader_variant *variants;
    size_t variant_count; /* 1 .. KILN_SHADER_MAX_VARIANTS */
} kiln_cooked_shader;

/* Serializes s. Each variant's reflection is stored as it is, names moved into one string
 * section, block depths computed. *out is allocated from alloc (NULL = libc); free with
 * kiln_free(alloc, *out, *size). The bytes are read back with kiln_shader_read before they are
 * returned, so nothing the reader refuses is ever written. Deterministic: equal shaders give
 * equal bytes. Errors: KILN_E_USAGE (NULL arguments, a variant without words or reflection, a
 * name outside its reflection's strings, a shader the reader would refuse: the message says
 * why), KILN_E_LIMIT (structs nested deeper than KILN_SHADER_MAX_DEPTH or in a cycle, counts or
 * sizes past 32 bits), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_shader_write(const kiln_cooked_shader *s, const kiln_allocator *alloc,
                              uint8_t **out, size_t *size, kiln_error *err);

#endif
