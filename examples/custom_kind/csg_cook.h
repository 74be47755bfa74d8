/* csg_cook.h — the "csg" source kind: a .csg JSON scene of shapes, cooked into a CSG set
 * (csg_format.h) with the settings import.csg.{scale, padding, order, scene_bounds}. */
#ifndef CSG_COOK_H
#define CSG_COOK_H

#include "csg_shapes.h"
#include "kiln/kiln_kind.h"

/* The kind's descriptor; its cook reads shape types from `shapes` (borrowed, not changed while
 * the project cooks: several sources cook at once). */
kiln_source_kind_desc csg_source_kind(const csg_shape_registry *shapes);

#endif
