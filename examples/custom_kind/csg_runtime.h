/* csg_runtime.h — the CSG set as a libkiln_rt type: decoded into a csg_set record, handed to the
 * program's renderer (here: a CPU "renderer" that keeps what it was given), hot reload
 * included. */
#ifndef CSG_RUNTIME_H
#define CSG_RUNTIME_H

#include "csg_format.h"
#include "kiln/kiln_rt.h"

/* What the runtime keeps for a loaded set. */
typedef struct csg_set {
    uint32_t shape_count, type_count;
    float bounds_min[3], bounds_max[3]; /* of the shapes' bounds (computed when not stored) */
    float *params;                      /* the parameter blocks, copied (the file may go) */
    size_t params_size;
} csg_set;

/* The renderer side of the example: the objects it made, as a real one would upload them. */
typedef struct csg_renderer {
    int creates, replaces, destroys;
    uint32_t last_shape_count; /* of the last set created or replaced */
} csg_renderer;

/* Registers the type with ctx (before any mount); *type receives its number. */
kiln_result csg_register_runtime_type(krt_context *ctx, csg_renderer *renderer, krt_type *type,
                                      kiln_error *err);

#endif
