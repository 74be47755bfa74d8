/* vgeo_select.c — the cut through a cluster DAG (kiln_format.h, "virtual geometry"): which
 * clusters a renderer draws for one camera. A CPU reference meant to be ported to a compute
 * shader: every cluster is tested on its own, from its own and its parent's LOD, with no
 * traversal, and the monotonic errors and nested spheres the reader checks make the clusters
 * that pass one consistent cut (docs/virtual_geometry.md proves it). */
#include <math.h>

#include "kiln/kiln_format.h"

KILN_API float kiln_vgeo_pixels(const kiln_vgeo_lod *lod, const kiln_vgeo_camera *camera)
{
    if (!lod || !camera) return INFINITY;
    if (lod->error == 0.0f) return 0.0f; /* the source itself: exact from anywhere */
    double d2 = 0;
    for (int c = 0; c < 3; c++) {
        double x = (double)camera->position[c] - lod->center[c];
        d2 += x * x;
    }
    double d = sqrt(d2) - lod->radius;
    double k = (double)camera->viewport_height / (2.0 * tan((double)camera->fov_y * 0.5));
    if (!(d > 0.0) || !(k > 0.0) || !isfinite(k) || !isfinite(d)) return INFINITY;
    double px = (double)lod->error * k / d;
    return isfinite(px) ? (float)px : INFINITY;
}

KILN_API size_t kiln_vgeo_select(const kiln_vgeo_view *v, const kiln_vgeo_camera *camera,
                                 float pixel_error, uint32_t *out, size_t capacity)
{
    if (!v || !camera) return 0;
    size_t n = 0;
    for (uint32_t i = 0; i < v->cluster_count; i++) {
        kiln_vgeo_lod self, parent;
        kiln_vgeo_cluster_lod(v, i, &self, &parent);
        if (kiln_vgeo_pixels(&self, camera) <= pixel_error &&
            !(kiln_vgeo_pixels(&parent, camera) <= pixel_error)) {
            if (out && n < capacity) out[n] = i;
            n++;
        }
    }
    return n;
}
