/* mesh_copies.h — which cooked copies of each skinned mesh a model needs. A cooked mesh's joint
 * indices name joints of one cooked skeleton (its skin's joints, reordered parents first), and
 * the runtime poses each node with that node's own skeleton; so a mesh drawn with several skins
 * is right for all of them only where their skeletons map the joints its vertices weight alike.
 * The plan gives one copy per distinct mapping: the first copy follows the skin of the first
 * node (in node order) that draws the mesh with a skin; every other node shares a copy whose
 * mapping equals its skin's, or starts a new one (nodes outside the scene draw nothing and get
 * no copy). docs/models.md, "Meshes, and which skeleton a mesh uses". */
#ifndef KILN_PROCESS_MESH_COPIES_H
#define KILN_PROCESS_MESH_COPIES_H

#include <stdint.h>

#include "kiln/kiln.h"
#include "kiln/kiln_scene.h"
#include "process/skeleton.h"

typedef struct kiln_mesh_copies {
    int32_t
        *mesh_skin; /* per mesh: the skin its first copy follows, -1 when none draws it with one */
    int32_t *node_copy; /* per node: -1 (the first copy of its mesh, or no skinned mesh), else the
                           skin whose joint order the copy it draws follows */
    /* The further copies, grouped by mesh (ascending), each mesh's in node order of first use:
     * copy k is mesh copy_mesh[k] with joint indices in skin copy_skin[k]'s order. */
    uint32_t *copy_mesh;
    int32_t *copy_skin;
    uint32_t copy_count;
    uint32_t shared; /* nodes drawing a copy that follows another skin than their own */
    kiln_allocator allocator;
    uint32_t mesh_count, node_count; /* the sizes the arrays were made for */
} kiln_mesh_copies;

/* Plans the copies of scene's meshes; skeletons holds the cooked skeleton of every skin of the
 * scene. A mapping is compared over the joints a mesh's vertices give weight to, in the cook's
 * remap rule (a joint index past a skin's joint count stays as it is). `a` may be NULL (libc).
 * *out is zeroed first and on error. Errors: KILN_E_USAGE, KILN_E_OUT_OF_MEMORY. Deterministic. */
kiln_result kiln_mesh_copies_plan(const kiln_scene *scene, const kiln_cooked_skeleton *skeletons,
                                  const kiln_allocator *a, kiln_mesh_copies *out, kiln_error *err);

void kiln_mesh_copies_free(kiln_mesh_copies *c); /* zeroes it; NULL or zeroed: no-op */

#endif
