/* gltf_private.h — the state the parts of the glTF importer share while one file is read:
 * the JSON document, buffers and views, decoded-accessor caches, and the helpers that read JSON
 * members with type and range checks, naming the JSON pointer of whatever is wrong. */
#ifndef KILN_IMPORT_GLTF_PRIVATE_H
#define KILN_IMPORT_GLTF_PRIVATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/error.h"
#include "import/gltf.h"
#include "import/scene_build.h"

typedef struct gltf_buffer {
    const uint8_t *data; /* NULL until loaded, or for a fallback buffer without data */
    size_t size;         /* byteLength */
    bool loaded;
} gltf_buffer;

typedef struct gltf_view {
    const uint8_t *data; /* resolved on first use (meshopt views are decoded then) */
    size_t size;
    size_t stride; /* byteStride, 0 = tightly packed */
    bool resolved;
} gltf_view;

typedef struct gltf_accessor {
    uint32_t count;
    uint32_t components;     /* 1 SCALAR .. 16 MAT4 */
    uint32_t component_type; /* 5120 .. 5126 */
    bool normalized;
    bool parsed;
    const float *floats;   /* cache of the decoded float values (scene arena) */
    const uint32_t *uints; /* cache of the decoded integer values (scratch arena) */
} gltf_accessor;

typedef struct gltf_ctx {
    json_t *root;
    kiln_scene *scene;
    kiln_arena *arena;    /* the scene's: what the scene keeps */
    kiln_arena scratch;   /* buffers and decoded views: released after the import */
    const char *base_dir; /* NULL: external URIs refused */
    uint32_t flags;
    const uint8_t *glb_bin; /* the GLB BIN chunk, borrowed from the input */
    size_t glb_bin_size;
    bool is_glb;
    json_t *buffers_json, *views_json, *accessors_json;
    gltf_buffer *buffers;
    size_t buffer_count;
    gltf_view *views;
    size_t view_count;
    gltf_accessor *accessors;
    size_t accessor_count;
    bool has_meshopt, has_draco, has_quantization, has_transform, has_unlit;
    bool has_emissive_strength, has_lights;
    /* Cleaned copies of shared streams (normals, tangents, weights, index lists), so primitives
     * sharing one accessor share one copy instead of multiplying memory (gltf_mesh.c). */
    struct gltf_derived *derived;
    size_t derived_capacity, derived_count;
    kiln_error *err;
} gltf_ctx;

/* Fails with code, the message and the JSON pointer (printf-style, e.g. "/accessors/%u"). */
kiln_result gltf_fail(gltf_ctx *c, kiln_result code, const char *pointer, const char *fmt, ...)
    KILN_PRINTF(4, 5);
kiln_result gltf_nomem(gltf_ctx *c, const char *what);

/* Member access with checks. A missing member gives the fallback (or, when required, an error
 * naming "<ptr>/<key>"). The wrong type is always an error. ptr is the object's pointer.
 *
 * The limit of gltf_get_uint and gltf_get_array is kiln's own bound on memory and time: above it
 * is KILN_E_LIMIT ("above kiln's limit of N"). The specification's rules (an index below an
 * array's size, a value in an enum, a stride in [4, 252], one parent per node) are the caller's
 * to check, as KILN_E_IMPORT_FAILED with a message naming the rule; a member without a limit
 * of kiln's passes GLTF_NO_LIMIT. */
#define GLTF_NO_LIMIT UINT64_MAX
kiln_result gltf_get_index(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                           size_t count, bool required, int32_t *out);
kiln_result gltf_get_uint(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                          uint64_t limit, bool required, uint64_t fallback,
                          uint64_t *out); /* an integer in [0, 2^53] */
kiln_result gltf_get_float(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                           float fallback, float *out);
kiln_result gltf_get_floats(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                            size_t n, float *out); /* array of exactly n; untouched if absent */
kiln_result gltf_get_bool(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                          bool fallback, bool *out);
kiln_result gltf_get_string(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                            const char **out); /* NULL when absent */
kiln_result gltf_get_object(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                            json_t **out); /* NULL when absent */
kiln_result gltf_get_array(gltf_ctx *c, const json_t *obj, const char *key, const char *ptr,
                           size_t limit, json_t **out); /* NULL when absent */
/* A name member copied into the scene arena; "" when absent. */
kiln_result gltf_get_name(gltf_ctx *c, const json_t *obj, const char *ptr, const char **out);
/* obj's "extras" as compact JSON text in the scene arena; NULL when it has none. */
kiln_result gltf_get_extras(gltf_ctx *c, const json_t *obj, const char **out);
/* obj/extensions/<name>, when it is an object; NULL otherwise. */
json_t *gltf_extension(const json_t *obj, const char *name);

/* Buffers, views and accessors (gltf_buffer.c, gltf_accessor.c). */
kiln_result gltf_buffers_init(gltf_ctx *c);
kiln_result gltf_view_get(gltf_ctx *c, uint32_t index, const gltf_view **out);
/* The raw bytes of a view, for images. */
kiln_result gltf_view_bytes(gltf_ctx *c, uint32_t index, const uint8_t **data, size_t *size);

kiln_result gltf_accessor_info(gltf_ctx *c, uint32_t index, const gltf_accessor **out);
/* Decoded float values (count * components), normalized integers mapped to [0,1]/[-1,1] and
 * other integers converted as they are. Cached: the same pointer for the same accessor. */
kiln_result gltf_accessor_floats(gltf_ctx *c, uint32_t index, const float **out);
/* Integer values (count * components) of an accessor of an integer type; scratch memory:
 * valid until the import ends. */
kiln_result gltf_accessor_uints(gltf_ctx *c, uint32_t index, const uint32_t **out);

/* The parts, in the order the importer runs them. */
kiln_result gltf_read_images(gltf_ctx *c);
kiln_result gltf_read_materials(gltf_ctx *c); /* samplers, textures, materials */
kiln_result gltf_read_meshes(gltf_ctx *c);
kiln_result gltf_read_nodes(gltf_ctx *c); /* nodes, skins, cameras, lights, scenes */
kiln_result gltf_read_animations(gltf_ctx *c);

#endif
