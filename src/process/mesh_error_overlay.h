/* mesh_error_overlay.h — the "overlay" bound of kiln_mesh_deviation (mesh_error.c): a triangle
 * of one surface cut by the triangles of the other surface projected onto its plane, for a
 * triangle that lies over a patch of several of them (a coarse triangle over the fine surface
 * it replaced), where no single fan holds it. */
#ifndef KILN_PROCESS_MESH_ERROR_OVERLAY_H
#define KILN_PROCESS_MESH_ERROR_OVERLAY_H

#include <stdint.h>

#include "process/mesh_error_bvh.h"

/* The most triangles of the other surface one overlay visits (more: no bound). */
#define KILN_ERR_OVERLAY_MAX 48

/* A corner of the triangle bounded: its position, and its exact distance d to the other
 * surface, reached on triangle tri (a tree index). */
typedef struct kiln_err_corner {
    const double *p;
    double d;
    uint32_t tri;
} kiln_err_corner;

/* An upper bound on the largest distance from a point of triangle s to the surface of tree
 * `to`, or +inf when the overlay does not apply (a fold or a border of the other surface under
 * s, a steep patch, more than KILN_ERR_OVERLAY_MAX triangles). Stops early, with a value >=
 * stop, once the bound reaches stop. */
double kiln_err_overlay_bound(const kiln_err_bvh *to, const kiln_err_corner s[3], double stop);

#endif
