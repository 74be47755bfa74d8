/* csg_shapes.h — the shape types a CSG scene is made of, registered by name: each with the byte
 * size of its parameters, their default bytes, and a function giving its bounds on the CPU.
 * A program adds its own types the same way the built-in ones are added. */
#ifndef CSG_SHAPES_H
#define CSG_SHAPES_H

#include <stddef.h>
#include <stdint.h>

#define CSG_MAX_SHAPE_TYPES 32
#define CSG_MAX_PARAM_SIZE  64 /* bytes; parameters are floats, so a multiple of 4 */
#define CSG_NAME_SIZE       24 /* bytes, NUL included */

typedef struct csg_shape_type {
    const char *name;           /* [a-z0-9_]+, shorter than CSG_NAME_SIZE */
    uint32_t param_size;        /* bytes, a multiple of 4, at most CSG_MAX_PARAM_SIZE */
    const void *default_params; /* param_size bytes */
    /* The shape's box around its origin, from its parameters (required). */
    void (*bounds)(const void *params, float min[3], float max[3]);
} csg_shape_type;

typedef struct csg_shape_registry {
    csg_shape_type types[CSG_MAX_SHAPE_TYPES];
    size_t count;
} csg_shape_registry;

/* Adds a type. Returns 0, or -1 with why filled: no bounds function, a bad or taken name, a bad
 * parameter size, no default parameters, a full registry. */
int csg_register_shape(csg_shape_registry *r, const csg_shape_type *t, char *why, size_t why_size);

/* The index of the type with this name, or -1. */
int csg_find_shape(const csg_shape_registry *r, const char *name);

/* Registers sphere (radius), box (half extents x, y, z), capsule (radius, half height along Y)
 * and torus (major radius, minor radius, in the XZ plane). */
int csg_register_builtin_shapes(csg_shape_registry *r, char *why, size_t why_size);

#endif
