/* mb_shader.h — cooked shader views for the material tests, made the way the cook makes them:
 * kiln_shader_compile (GLSL or HLSL source, includes from tests/shaders/include) ->
 * kiln_shader_reflect -> kiln_shader_write -> kiln_shader_read. */
#ifndef KT_MB_SHADER_H
#define KT_MB_SHADER_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

typedef struct mb_shader {
    uint8_t *bytes;
    size_t size;
    kiln_shader_view view;
} mb_shader;

/* Compiles source for stage (language 0 GLSL, 1 HLSL; entry NULL: "main") with the defines
 * "NAME" or "NAME=VALUE" (NULL-terminated list, may be NULL); fails the test on any error. */
void mb_build(mb_shader *s, const char *source, uint32_t stage, uint32_t language,
              const char *entry, const char *const *defines);
/* The same for a file of tests/shaders/ (KILN_SOURCE_DIR). */
void mb_build_file(mb_shader *s, const char *name, uint32_t stage, uint32_t language,
                   const char *entry, const char *const *defines);
void mb_free(mb_shader *s);

/* The index of the block bound at (set, binding) in variant 0, or of the push constants when
 * set is KILN_SHADER_NONE; fails the test when there is none. */
uint32_t mb_block(const mb_shader *s, uint32_t set, uint32_t binding);

#endif
