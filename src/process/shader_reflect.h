/* shader_reflect.h — what a SPIR-V module declares, as flat tables a cooked shader stores as they
 * are: the entry point's stage and workgroup size, descriptor bindings (set, binding, type, array
 * size), the layout of every uniform, storage and push-constant block (members with offsets,
 * sizes, strides: the std140/std430/scalar layout the module states), stage inputs and outputs
 * (location, type) and specialization constants. Names are offsets into one string table
 * (each NUL-terminated), so the tables serialize without pointers. Filled from SPIRV-Cross's C
 * API (shader_reflect.c); kiln_shader_reflect is the only function that knows SPIRV-Cross.
 *
 * Order, for equal bytes: bindings by (set, binding), inputs and outputs by location (then name),
 * specialization constants by id, blocks in order of first use (bindings first, then the push
 * constants, then nested structs depth-first), members in declaration order. */
#ifndef KILN_PROCESS_SHADER_REFLECT_H
#define KILN_PROCESS_SHADER_REFLECT_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln.h"
#include "kiln/kiln_format.h"

/* The stage, resource, type, layout and flag values are kiln_format.h's (stored in cooked
 * shaders as they are). */

typedef struct kiln_shader_member {
    uint32_t name;          /* offset into strings */
    uint32_t offset;        /* bytes from the start of the block */
    uint32_t size;          /* bytes of the whole member (0 for a runtime-sized array) */
    uint32_t type;          /* kiln_shader_type */
    uint32_t vec_size;      /* 1..4 components (1 for scalars and structs) */
    uint32_t columns;       /* 1, or 2..4 for a matrix */
    uint32_t array_count;   /* 1: not an array; KILN_SHADER_RUNTIME_ARRAY for T x[]; the outermost
                               dimension of a multi-dimensional array (sizes multiply into it) */
    uint32_t array_stride;  /* bytes between elements; 0 when not an array */
    uint32_t matrix_stride; /* bytes between columns (rows if row-major); 0 when not a matrix */
    uint32_t flags;         /* KILN_SHADER_MEMBER_* */
    uint32_t struct_block;  /* KILN_SHADER_TYPE_STRUCT: the block holding its members; else NONE */
} kiln_shader_member;

/* A block type: the members of a uniform/storage/push-constant block or of a nested struct. */
typedef struct kiln_shader_block {
    uint32_t name;         /* the block's type name (offset into strings) */
    uint32_t size;         /* declared size in bytes (a runtime array at the end counts 0) */
    uint32_t layout;       /* kiln_shader_layout */
    uint32_t first_member; /* into members */
    uint32_t member_count;
} kiln_shader_block;

typedef struct kiln_shader_binding {
    uint32_t name; /* the variable's name, else the block's (offset into strings) */
    uint32_t set, binding;
    uint32_t resource;    /* kiln_shader_resource */
    uint32_t count;       /* array size (1 when not an array; KILN_SHADER_RUNTIME_ARRAY unsized) */
    uint32_t block;       /* uniform and storage buffers: their block; else NONE */
    uint32_t image_dim;   /* images: 1, 2, 3, 4 for cube, 5 for buffer, 6 for subpass; else 0 */
    uint32_t image_flags; /* bit 0 arrayed, bit 1 multisampled, bit 2 depth comparison */
    uint32_t input_attachment; /* subpass inputs: the index; else NONE */
    uint32_t flags;            /* KILN_SHADER_BINDING_* */
} kiln_shader_binding;

/* A stage input or output (vertex attributes, varyings, fragment outputs). Built-ins (gl_Position,
 * SV_Position) are not listed. */
typedef struct kiln_shader_io {
    uint32_t name;     /* offset into strings */
    uint32_t location; /* NONE for an interface block member without one */
    uint32_t component;
    uint32_t type; /* kiln_shader_type */
    uint32_t vec_size, columns;
    uint32_t array_count; /* 1 when not an array */
    uint32_t flags;       /* bit 0: flat, bit 1: per-primitive (mesh shaders) */
} kiln_shader_io;

typedef struct kiln_shader_spec_constant {
    uint32_t name;            /* offset into strings ("" when unnamed) */
    uint32_t id;              /* constant_id */
    uint32_t type;            /* kiln_shader_type: BOOL, INT, UINT, FLOAT (others as given) */
    uint32_t default_bits[2]; /* the default value's bits, low word first (64-bit types use both) */
} kiln_shader_spec_constant;

typedef struct kiln_shader_reflection {
    uint32_t stage;        /* kiln_shader_stage */
    uint32_t entry_point;  /* offset into strings: the entry point's name in the module */
    uint32_t workgroup[3]; /* compute, task, mesh: local size (0 where a spec constant sets it) */
    uint32_t workgroup_spec[3]; /* the spec constant id that sets each size, or NONE */
    uint32_t push_block;        /* the push-constant block, or NONE */
    uint32_t push_size;         /* bytes of the push constants the stage uses (0 without) */
    kiln_shader_binding *bindings;
    uint32_t binding_count;
    kiln_shader_block *blocks;
    uint32_t block_count;
    kiln_shader_member *members;
    uint32_t member_count;
    kiln_shader_io *inputs;
    uint32_t input_count;
    kiln_shader_io *outputs;
    uint32_t output_count;
    kiln_shader_spec_constant *constants;
    uint32_t constant_count;
    char *strings; /* every name, each followed by a NUL; offset 0 is "" */
    size_t strings_size;
    kiln_allocator allocator; /* what every array came from */
} kiln_shader_reflection;

/* Reflects a SPIR-V module (words: count 32-bit words in host order, already validated by
 * kiln_shader_validate) for its entry point `entry` (NULL: the module's only one). `a` may be
 * NULL (libc). *out is zeroed first and on error. Errors: KILN_E_IMPORT_FAILED (SPIRV-Cross
 * refuses the module, or the entry point is missing; the message says why), KILN_E_LIMIT (more
 * than 65536 records of a kind, names over 16 MiB), KILN_E_OUT_OF_MEMORY. Deterministic. */
kiln_result kiln_shader_reflect(const uint32_t *words, size_t count, const char *entry,
                                const kiln_allocator *a, kiln_shader_reflection *out,
                                kiln_error *err);

void kiln_shader_reflection_free(kiln_shader_reflection *r); /* zeroes it; NULL: no-op */

#endif
