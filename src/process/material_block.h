/* material_block.h — a typed material's parameter block packed exactly as a cooked shader's
 * reflection lays it out (member offsets, array and matrix strides, row-major matrices, nested
 * structs: whatever std140, std430 or scalar layout the module states), the list of a block's
 * leaf members, and the check that two stages' interfaces match. Pure: no files, no JSON
 * library (values arrive as kiln_value tables, core/value.h). docs/shaders.md, "Typed
 * materials", gives the rules with examples.
 *
 * Parameter paths: member names joined by '.', an array element as [index] (decimal):
 * "base_color", "lights[2].color", "bones[3]", "shadow.cascades[1].split". Only one index per
 * member: a multi-dimensional array (float m[2][3]) is refused. Swizzles ("tint.rgb") are not
 * paths.
 *
 * Values (JSON, copied into kiln_value):
 * - float, double, half: a number (half rounds to nearest binary16, ties to even; a magnitude
 *   from 65520 up is out of range; float past FLT_MAX is out of range);
 * - int/uint of 8, 16, 32, 64 bits: an integral number in the type's range (2.0 is 2; 2.5 is
 *   refused), or true/false as 1/0 (GLSL stores a block's bool as uint);
 * - bool (a scalar type of its own, 32-bit 0/1): true or false, or the numbers 0 and 1;
 * - a vector of n components: an array of exactly n such values;
 * - a matrix of C columns of R rows (matCxR; mat4, mat3): an array of C arrays of R numbers (the
 *   columns), or a flat array of C*R numbers in column-major order. A row-major matrix is given
 *   the same way; the packer stores it row by row;
 * - an array member without an index: an array of exactly array_count elements;
 * - a struct (or an element of an array of structs): an object of member name -> value; members
 *   it leaves out keep what they had (zero, or the value of a deeper layer).
 * Bytes are little-endian whatever the host. */
#ifndef KILN_PROCESS_MATERIAL_BLOCK_H
#define KILN_PROCESS_MATERIAL_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/value.h"
#include "kiln/kiln_format.h"

/* A packed block is never larger than this (Vulkan guarantees 16 KiB of uniform buffer range,
 * desktop drivers 64 KiB; push constants are 128 or 256 bytes): a larger one is KILN_E_LIMIT. */
#define KILN_MATERIAL_BLOCK_MAX_SIZE ((uint32_t)64 << 10)
#define KILN_MATERIAL_MAX_PARAMS     4096u /* parameters in one pack call */
#define KILN_MATERIAL_PATH_MAX       256u  /* bytes of a parameter path, NUL included */

/* Which block of a shader variant holds the parameters. */
typedef enum kiln_block_pick {
    /* The uniform buffer at set 1, binding 0; else the only uniform buffer outside set 0; else
     * none (*block = KILN_SHADER_NONE, not an error: the material has no parameters). */
    KILN_BLOCK_PICK_DEFAULT = 0,
    KILN_BLOCK_PICK_NAME = 1,    /* a uniform or storage buffer by variable or block type name */
    KILN_BLOCK_PICK_BINDING = 2, /* the uniform or storage buffer at (set, binding) */
    KILN_BLOCK_PICK_PUSH = 3,    /* the push-constant block */
} kiln_block_pick;

typedef struct kiln_block_select {
    uint32_t pick;         /* kiln_block_pick */
    const char *name;      /* PICK_NAME */
    uint32_t set, binding; /* PICK_BINDING */
} kiln_block_select;

/* Finds the block sel names in variant `variant` of v (a view kiln_shader_read validated).
 * *block is its index in the variant's blocks. Errors: KILN_E_IMPORT_SETTINGS (no such block:
 * the message lists the uniform buffers there are; a binding that is not a buffer), KILN_E_USAGE
 * (NULL arguments, variant out of range). */
kiln_result kiln_material_block_find(const kiln_shader_view *v, uint32_t variant,
                                     const kiln_block_select *sel, uint32_t *block,
                                     kiln_error *err);

/* One parameter: a path and its value. */
typedef struct kiln_material_param {
    const char *name;        /* the member path (see above) */
    const kiln_value *value; /* borrowed */
    /* 0: the material itself; 1: its parent; 2: the parent's parent... Where two parameters write
     * the same bytes, the smaller depth wins; two of one depth writing the same bytes are an
     * error (a parameter given twice, e.g. "lights" and "lights[1].color"). */
    uint32_t depth;
    const char *pointer; /* the value's JSON pointer in its document, for errors; NULL: none */
} kiln_material_param;

/* Packs block `block` of variant `variant` of v (a view kiln_shader_read validated; the index
 * as kiln_material_block_find gives it): *out gets exactly the block's declared size in bytes
 * (allocated from a, NULL: libc; free with kiln_free(a, *out, *size); NULL when the size is 0),
 * zero except where a parameter writes. Parameters are applied from the largest depth to the
 * smallest, in order within a depth. Deterministic.
 * Errors, each naming the parameter (err->json_pointer: its pointer plus the position inside the
 * value, when the parameter has one):
 * - KILN_E_IMPORT_SETTINGS: an unknown member (the message lists the members there are), a path
 *   that does not parse, an index past the end of an array or on a member that is not one, a
 *   runtime-sized or multi-dimensional array, '.' after a member that is not a struct, a value of
 *   the wrong kind or count (a string for a float, 3 numbers for a vec4, 2.5 for an int), an
 *   integer out of its type's range, a float or half out of range, a member whose type takes no
 *   value (buffer references), bytes written twice at one depth;
 * - KILN_E_LIMIT: a block larger than KILN_MATERIAL_BLOCK_MAX_SIZE, more than
 *   KILN_MATERIAL_MAX_PARAMS parameters, a path longer than KILN_MATERIAL_PATH_MAX;
 * - KILN_E_FORMAT_INVALID: the reflection places a member outside its block;
 * - KILN_E_USAGE (NULL arguments, a parameter without name or value, block or variant out of
 *   range), KILN_E_INTERNAL (an inconsistent kiln_value table), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_material_block_pack(const kiln_shader_view *v, uint32_t variant, uint32_t block,
                                     const kiln_material_param *params, size_t count,
                                     const kiln_allocator *a, uint8_t **out, size_t *size,
                                     kiln_error *err);

/* A leaf member of a block: a scalar, vector or matrix, or an array of them. Arrays of structs
 * are listed element by element ("lights[0].color", "lights[1].color", ...). */
typedef struct kiln_material_leaf {
    const char *path; /* a parameter path; valid during the callback only */
    uint32_t offset;  /* from the start of the block */
    uint32_t size;    /* bytes (the whole array for an array; 0 for a runtime-sized one) */
    uint32_t type;    /* kiln_shader_type */
    uint32_t vec_size, columns;
    uint32_t array_count; /* 1 not an array; KILN_SHADER_RUNTIME_ARRAY */
    uint32_t array_stride, matrix_stride;
    bool row_major;
    const char *type_name; /* "vec3", "mat4", "uint", "float[4]"...; valid during the callback */
} kiln_material_leaf;

typedef void (*kiln_material_leaf_fn)(void *user, const kiln_material_leaf *leaf);

/* Calls fn for every leaf of block `block`, in declaration order. Returns the leaves listed in
 * *count (may be NULL). A runtime-sized or multi-dimensional array of structs is one leaf of
 * type KILN_SHADER_TYPE_STRUCT ("struct Item[]"): it takes no values. Errors:
 * KILN_E_FORMAT_INVALID (a member outside the block), KILN_E_LIMIT (a path longer than
 * KILN_MATERIAL_PATH_MAX), KILN_E_USAGE. */
kiln_result kiln_material_block_leaves(const kiln_shader_view *v, uint32_t variant, uint32_t block,
                                       kiln_material_leaf_fn fn, void *user, size_t *count,
                                       kiln_error *err);

/* The GLSL spelling of a scalar, vector or matrix type ("float", "vec3", "ivec2", "dmat4",
 * "mat2x3", "f16vec4", "bool", "struct") into buf (NUL-terminated, truncated to cap). Returns buf.
 */
const char *kiln_shader_type_glsl(uint32_t type, uint32_t vec_size, uint32_t columns, char *buf,
                                  size_t cap);

/* Checks a material's textures against its fragment shader: every name (count of them; the
 * binding names a .kmat's "textures" gives) must be a sampled image (combined image sampler) or
 * separate image binding of variant `variant`, and every such binding in descriptor set `set`
 * (the material's set, 1 by kiln's convention) must be named. pointers (may be NULL) are the
 * names' JSON pointers, put in the error. Errors: KILN_E_IMPORT_SETTINGS ("texture \"albdo\": no
 * image binding of that name; there are: base_color_texture (set 1, binding 1), ..."; "binding
 * normal_texture (set 1, binding 3) has no texture"), KILN_E_USAGE. */
kiln_result kiln_material_textures_check(const kiln_shader_view *v, uint32_t variant, uint32_t set,
                                         const char *const *names, const char *const *pointers,
                                         size_t count, kiln_error *err);

/* Checks a render state's alpha mode (kiln_material_alpha) against the fragment shader: a mask
 * or blend material needs the colour output at location 0 to have an alpha component (4
 * components). Errors: KILN_E_IMPORT_SETTINGS ("alpha_mode blend needs a fragment shader that
 * writes alpha: location 0 is vec3 out_color"), KILN_E_USAGE. */
kiln_result kiln_material_alpha_check(const kiln_shader_view *v, uint32_t variant,
                                      uint32_t alpha_mode, kiln_error *err);

/* Checks that the inputs of `consumer` (a fragment shader variant) are written by `producer` (a
 * vertex, tessellation evaluation, geometry or mesh shader variant): every input with a location
 * needs an output at the same location and component with the same scalar type, as many
 * columns, at least as many vector components (Vulkan lets the output have more), the same array
 * count (except from a mesh shader, whose outputs are per-vertex arrays) and the same flat and
 * per-primitive flags (Vulkan does not require flat to match; kiln asks both sides to say it, so
 * that the source says what the fragment stage gets). Outputs nobody reads are fine. Built-ins
 * are not in the reflection and not checked; inputs without a location are skipped.
 * Errors: KILN_E_IMPORT_SETTINGS naming the location and both variables ("location 2: the
 * vertex stage writes vec3 v_normal, the fragment stage reads vec4 v_tangent"), KILN_E_USAGE. */
kiln_result kiln_shader_interface_check(const kiln_shader_view *producer, uint32_t producer_variant,
                                        const kiln_shader_view *consumer, uint32_t consumer_variant,
                                        kiln_error *err);

#endif
