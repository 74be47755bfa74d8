/* kmat.h — the .kmat document: a typed material naming a vertex and a fragment shader (and
 * variant), the parameter block they read, parameter values, textures by binding name and render
 * state; optionally derived from a parent .kmat. Parsed and validated with a JSON pointer in
 * every error, then merged under its (already resolved) parent by kiln_kmat_resolve. No files:
 * the caller reads the documents, resolves the paths and bounds the chain of parents.
 * docs/shaders.md ("Typed materials") describes the format; docs/schemas/kmat.schema.json is its
 * JSON Schema. */
#ifndef KILN_IMPORT_KMAT_H
#define KILN_IMPORT_KMAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/value.h"
#include "kiln/kiln_format.h"

#define KILN_KMAT_MAX_DEPTH    16u   /* a material and its parents: at most 16 documents */
#define KILN_KMAT_MAX_PARAMS   4096u /* parameters of one document (KILN_MATERIAL_MAX_PARAMS) */
#define KILN_KMAT_MAX_TEXTURES 256u
#define KILN_KMAT_MAX_PATH     1024u /* bytes of a shader, texture or parent path */
#define KILN_KMAT_MAX_NAME     255u  /* bytes of a parameter path, binding or variant name */

/* Which uniform block holds the parameters: the values of kiln_block_pick
 * (process/material_block.h), which the import layer cannot include. */
enum {
    KILN_KMAT_BLOCK_DEFAULT = 0, /* the fragment shader's set 1 binding 0, or its only one */
    KILN_KMAT_BLOCK_NAME = 1,
    KILN_KMAT_BLOCK_BINDING = 2,
    KILN_KMAT_BLOCK_PUSH = 3,
};

typedef enum kiln_kmat_blend {
    KILN_KMAT_BLEND_NONE = 0,
    KILN_KMAT_BLEND_ALPHA = 1,         /* src * a + dst * (1 - a) */
    KILN_KMAT_BLEND_PREMULTIPLIED = 2, /* src + dst * (1 - a) */
    KILN_KMAT_BLEND_ADDITIVE = 3,      /* src * a + dst */
} kiln_kmat_blend;

enum { /* kiln_kmat_render_state.given: the fields a document (or a parent) set */
       KILN_KMAT_GIVEN_ALPHA_MODE = 1u << 0,
       KILN_KMAT_GIVEN_ALPHA_CUTOFF = 1u << 1,
       KILN_KMAT_GIVEN_DOUBLE_SIDED = 1u << 2,
       KILN_KMAT_GIVEN_DEPTH_WRITE = 1u << 3,
       KILN_KMAT_GIVEN_DEPTH_TEST = 1u << 4,
       KILN_KMAT_GIVEN_BLEND = 1u << 5,
};

/* The values are always whole: fields nobody set hold their defaults (alpha_mode opaque,
 * alpha_cutoff 0.5, double_sided false, depth_test true, depth_write = depth_test and not
 * blended, blend alpha for alpha_mode blend else none). */
typedef struct kiln_kmat_render_state {
    uint32_t given;
    uint32_t alpha_mode; /* kiln_material_alpha */
    float alpha_cutoff;  /* [0, 1]; only set with alpha_mode mask */
    bool double_sided, depth_write, depth_test;
    uint32_t blend; /* kiln_kmat_blend */
} kiln_kmat_render_state;

typedef struct kiln_kmat_stage {
    char *shader;  /* the shader's path as written; NULL: not given (a derived material) */
    char *variant; /* the variant's name; NULL: the shader's variant 0 */
} kiln_kmat_stage;

typedef struct kiln_kmat_block {
    uint32_t pick;         /* KILN_KMAT_BLOCK_* */
    char *name;            /* BLOCK_NAME */
    uint32_t set, binding; /* BLOCK_BINDING */
    bool given;
} kiln_kmat_block;

typedef struct kiln_kmat_param {
    char *name;       /* the member path, checked for syntax (process/material_block.h) */
    kiln_value value; /* never a string or null, anywhere inside */
    uint32_t depth;   /* 0: this document; 1: its parent; ... */
    char *pointer;    /* "/parameters/base_color" in the document at that depth */
} kiln_kmat_param;

typedef struct kiln_kmat_sampler {
    uint8_t mag_filter, min_filter, mip_filter; /* kiln_material_filter; DEFAULT when not given */
    uint8_t wrap_s, wrap_t;                     /* kiln_material_wrap; REPEAT when not given */
} kiln_kmat_sampler;

typedef struct kiln_kmat_texture {
    char *name;    /* the sampled-image binding's name in the shader */
    char *texture; /* the texture's path as written */
    bool has_sampler;
    kiln_kmat_sampler sampler;
    uint32_t depth;
    char *pointer; /* "/textures/base_color_texture" */
} kiln_kmat_texture;

/* A parsed (or resolved) material. Arrays sorted by name (parameters, textures): equal
 * documents give equal structs, whatever their key order. */
typedef struct kiln_kmat {
    char *parent; /* as written; NULL: none. The caller resolves it (relative to this file, or
                     project-rooted with a leading '/'), reads it and calls kiln_kmat_resolve. */
    kiln_kmat_stage vertex, fragment;
    kiln_kmat_block block;
    kiln_kmat_param *params;
    size_t param_count, param_cap; /* cap: elements allocated */
    kiln_kmat_texture *textures;
    size_t texture_count, texture_cap;
    kiln_kmat_render_state render_state;
    uint32_t chain; /* documents merged into it: 1 parsed, parent's + 1 resolved */
    kiln_allocator allocator;
} kiln_kmat;

/* Parses a .kmat (size bytes of JSON text; duplicate keys refused) into *out, allocated from a
 * (NULL: libc). A document without "parent" must name both shaders and has its render state
 * checked whole; one with a parent is checked for what it sets alone and again when resolved.
 * Errors: KILN_E_IMPORT_SETTINGS with err->json_pointer ("/render_state/blend") for a JSON
 * syntax error, an unknown or mistyped field, a bad path, name or value, too many parameters or
 * textures, a render state that contradicts itself; KILN_E_OUT_OF_MEMORY. *out is zeroed first
 * and on error. */
kiln_result kiln_kmat_parse(const char *text, size_t size, const kiln_allocator *a, kiln_kmat *out,
                            kiln_error *err);
kiln_result kiln_kmat_from_json(const json_t *doc, const kiln_allocator *a, kiln_kmat *out,
                                kiln_error *err);

/* Merges child over parent (parent resolved already, or a parsed document without a parent)
 * into *out, which owns copies of everything: shaders from the child when it names them (a
 * child giving only "variant" keeps the parent's shader), the block likewise, parameters and
 * textures overridden by name (the parent's keep their depth + 1), render state field by field,
 * then defaults and the whole render state checked. The caller checks cycles and stops at
 * KILN_KMAT_MAX_DEPTH documents; resolve refuses a longer chain too (KILN_E_LIMIT). Errors:
 * KILN_E_IMPORT_SETTINGS (no vertex or fragment shader in the chain; a render state the merge
 * makes contradictory: the pointer names the field), KILN_E_LIMIT, KILN_E_USAGE (NULL
 * arguments), KILN_E_OUT_OF_MEMORY. *out is zeroed first and on error. */
kiln_result kiln_kmat_resolve(const kiln_kmat *child, const kiln_kmat *parent,
                              const kiln_allocator *a, kiln_kmat *out, kiln_error *err);

/* The parameter or texture named name, or NULL. */
const kiln_kmat_param *kiln_kmat_find_param(const kiln_kmat *m, const char *name);
const kiln_kmat_texture *kiln_kmat_find_texture(const kiln_kmat *m, const char *name);

void kiln_kmat_free(kiln_kmat *m); /* zeroes it; NULL: no-op */

#endif
