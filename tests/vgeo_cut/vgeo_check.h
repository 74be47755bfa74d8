/* vgeo_check.h — the checks every cooked cluster DAG must pass, shared by the cut tests and the
 * 1M-triangle test: the DAG walk (errors monotonic, spheres nested, links and groups agree) and,
 * for one cut, the crack test and the coverage test against the source triangles. */
#ifndef KILN_TEST_VGEO_CHECK_H
#define KILN_TEST_VGEO_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "process/vgeo.h"

/* Writes v (kiln_vgeo_write, which reads its bytes back) and reads it into view: every check
 * then runs on what the reader accepted. Returns the bytes (malloc'd; free after the view). */
uint8_t *vc_write_read(kiln_cooked_vgeo *v, kiln_vgeo_view *view);

typedef struct vc_source vc_source;

/* Walks every cluster: group/source-group links, levels, errors and spheres monotonic; and
 * every group: the border of its members' triangles (welded edges used once) is the border of
 * the triangles it made, edge for edge, so whichever side a cut draws meets its neighbours.
 * Fails the test (cmocka) on the first violation, naming it. Returns the links checked. */
size_t vc_check_dag(const kiln_vgeo_view *v, const vc_source *s);

/* The source's edges, welded by position, for the crack test. */
struct vc_source {
    const float *positions;
    uint32_t vertex_count;
    uint32_t *weld;  /* per vertex: its position's lowest vertex */
    uint64_t *edges; /* sorted undirected welded edges (lo << 32 | hi), with repeats */
    size_t edge_count;
    size_t border_edges; /* edges used by exactly one source triangle */
};

void vc_source_init(vc_source *s, const float *positions, uint32_t vertex_count,
                    const uint32_t *indices, size_t index_count);
void vc_source_free(vc_source *s);

/* Statistics of one cut. */
typedef struct vc_cut {
    size_t clusters, triangles;
    size_t folds;   /* pairs of coincident triangles of opposite winding, set aside */
    size_t crowded; /* edges used by more triangles than in the source (or two): slivers */
} vc_cut;

/* Selects the cut for camera and pixel_error and checks it: (a) coverage: the selection is the
 * rule's, and every group is either wholly replaced by what it made or not at all,
 * consistently up the DAG (with vc_check_dag's border check, that makes every spot drawn at
 * exactly one level), and every source border edge is in the cut exactly once; (b) cracks: no
 * edge of the cut is used by one triangle unless the source's edge is. Coincident triangles of
 * opposite winding (a fold of no volume where both sides of a locked border reduced to one
 * sliver) are set aside in pairs first; edges used more often than in the source are counted
 * (slivers along locked borders), not failed. Fails the test on a violation. */
vc_cut vc_check_cut(const kiln_vgeo_view *v, const vc_source *s, const kiln_vgeo_camera *camera,
                    float pixel_error);

/* For every group: the error it stores is at least the distance the tests measure themselves
 * (tests/mesh_error/brute_distance.c, dense samples) from the triangles it made to the source
 * triangles beneath it (the level-0 clusters reachable through its members). One way only: the
 * region a group replaces is not known as a set of source triangles (a group that made one of
 * its members made others too), only contained in those. Fails the test otherwise; returns the
 * smallest stored / measured ratio (+inf when nothing was measured). */
double vc_check_errors(const kiln_vgeo_view *v, const float *positions, size_t samples);

/* A deterministic PRNG in [0, 1). */
double vc_rand(uint32_t *state);

/* Checks count random cameras around a mesh of the given bounds (far, near, grazing, inside)
 * at pixel errors 0.5, 1, 2, 4, 16 and 64, and that the cut's triangles never grow as the
 * threshold rises. Returns the cuts checked. */
size_t vc_check_cameras(const kiln_vgeo_view *v, const vc_source *s, const float center[3],
                        float radius, uint32_t count, uint32_t seed);

#endif
