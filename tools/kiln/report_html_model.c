/* report_html_model.c — the levels of detail of a cooked mesh for the report page, read from the
 * file itself (kiln_mesh_read validates it: container checksum, kind, every level's range):
 * triangles per level and the simplifier's error, relative to the mesh's extent and in model
 * units (docs/meshes.md). */
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

kiln_result rh_mesh_levels(const char *path, rh_mesh *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *data = NULL;
    size_t size = 0;
    kiln_mesh_view v;
    kiln_result r = rh_read_file(path, &data, &size, err);
    if (r == KILN_OK) r = kiln_mesh_read(data, size, 0, &v, err);
    if (r == KILN_OK) {
        out->size = size;
        out->vertex_count = v.vertex_count;
        out->level_count = v.level_count;
        out->extent = v.extent;
        for (uint32_t l = 0; l < v.level_count; l++) {
            out->triangles[l] = v.levels[l].index_count / 3;
            out->error[l] = v.levels[l].error;
            out->error_absolute[l] = v.levels[l].error_absolute;
        }
    }
    free(data);
    return r;
}
