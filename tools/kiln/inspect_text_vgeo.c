/* inspect_text_vgeo.c — the "vgeo" summary of a cooked virtual geometry's inspect document, for
 * people: the mesh it draws from, its counts and limits, the roots (and whether simplification
 * stalled), then one line per DAG level with its clusters, triangles and the range of their own
 * errors. */
#include <stdio.h>

#include "inspect_text.h"

#define I(o, k) json_integer_value(json_object_get(o, k))
#define S(o, k) json_string_value(json_object_get(o, k))
#define F(o, k) json_number_value(json_object_get(o, k))

void kiln_inspect_print_vgeo(const json_t *g)
{
    const char *mesh = S(g, "mesh");
    printf("  virtual geometry of mesh %s (%lld vertices, extent %g): %lld source triangles\n",
           mesh ? mesh : "null", I(g, "vertex_count"), F(g, "extent"), I(g, "source_triangles"));
    printf(
        "    %lld levels, %lld groups, %lld clusters of at most %lld vertices / %lld triangles\n",
        I(g, "level_count"), I(g, "group_count"), I(g, "cluster_count"), I(g, "max_vertices"),
        I(g, "max_triangles"));
    if (json_is_true(json_object_get(g, "stalled")))
        printf("    %lld roots: simplification stalled\n", I(g, "root_count"));
    else printf("    %lld root\n", I(g, "root_count"));
    printf("    %5s %9s %10s  %s\n", "level", "clusters", "triangles", "error (model units)");
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(g, "levels"), i, l)
        printf("    %5zu %9lld %10lld  %g .. %g\n", i, I(l, "clusters"), I(l, "triangles"),
               F(l, "error_min"), F(l, "error_max"));
}
