/* shader_fixture.h — cooked shaders built by hand (no compiler): reflection tables as
 * src/process/shader_reflect.c would fill them, and words that start like a SPIR-V module.
 * Used by test_shader_format.c and by kt_write_shader (the CLI inspect case). */
#ifndef KT_SHADER_FIXTURE_H
#define KT_SHADER_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "process/shader_reflect.h"
#include "write/shader_write.h"

typedef struct kt_shader_fixture {
    kiln_cooked_shader shader;
    kiln_cooked_shader_variant variants[2];
    kiln_shader_reflection reflections[2];
    uint32_t words[2][12];
    /* the tables the reflections point into */
    kiln_shader_binding bindings[2][4];
    kiln_shader_block blocks[2][6];
    kiln_shader_member members[2][16];
    kiln_shader_io inputs[2][6], outputs[2][3];
    kiln_shader_spec_constant constants[2][3];
    char strings[2][512];
} kt_shader_fixture;

/* A vertex shader of two variants, "default" and "skinned" (defines "SKINNED=1 BONES=64"):
 * a std140 uniform block with a nested struct two deep, a std430 storage buffer of a runtime
 * array of structs, a sampled image array, push constants, inputs, outputs, spec constants. */
void kt_shader_vertex(kt_shader_fixture *f);
/* A compute shader of one variant: workgroup 8 x 8 x (spec constant 7), one storage image and
 * one storage buffer with a runtime array of uints. */
void kt_shader_compute(kt_shader_fixture *f);

/* The written bytes of either (malloc'd), or NULL. */
uint8_t *kt_shader_bytes(int compute, size_t *size);

#endif
