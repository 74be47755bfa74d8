/* scene_cook.h — the node tree of a scene turned into a cooked scene: the
 * nodes reachable from the roots in depth-first pre-order (parents before children), each with
 * its parent, local transform, name, and references by asset id to mesh primitives and the
 * skeleton of its skin; cameras and lights kept in the scene; morph weights; the clips. Several
 * roots go under a synthetic root named after the scene. In memory only:
 * src/write/scene_write.c serializes it (docs/formats.md, "Scenes").
 *
 * Names: kiln_cooked_scene_* here and in kiln_format.h; kiln_scene_* is the importer's scene. */
#ifndef KILN_PROCESS_SCENE_COOK_H
#define KILN_PROCESS_SCENE_COOK_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"

/* Where the asset ids of the other artifacts come from. Each callback may be NULL; an id that
 * no callback gives is kiln_asset_id(guid, label) with the labels of DESIGN.md
 * ("mesh<i>/prim<p>", "mesh<i>/prim<p>/skin<s>", "skeleton<i>", "clip<i>"), and with neither a
 * callback nor a guid the build fails with KILN_E_USAGE. A callback returning 0 says the pipeline
 * made no such artifact: the reference is left out (a primitive is not listed, a skin is NONE, a
 * clip is skipped).
 *
 * Copies of a mesh: a skinned mesh is cooked once per distinct joint order of the skins that draw
 * it (src/pipeline/cook_model.c). mesh_copy(user, node) names the copy a node draws: -1 for the
 * mesh's first copy ("mesh<i>/prim<p>"), else the skin s whose joint order the copy follows
 * ("mesh<i>/prim<p>/skin<s>", below skin_count). NULL: every node draws the first copy. The skin
 * passed to primitive() is that value. */
typedef struct kiln_cooked_scene_ids {
    const char *guid; /* the asset's 32 lowercase hex digits, or NULL */
    uint64_t (*primitive)(void *user, uint32_t mesh, uint32_t primitive, int32_t copy_skin);
    uint64_t (*skeleton)(void *user, uint32_t skin);
    uint64_t (*clip)(void *user, uint32_t animation);
    int32_t (*mesh_copy)(void *user, uint32_t node);
    void *user;
} kiln_cooked_scene_ids;

/* A cooked scene; every array is owned and freed by kiln_cooked_scene_free. Names (of the
 * scene, nodes, cameras, lights) are borrowed from the kiln_scene it was built from, which must
 * outlive it (or the string literal "scene"). */
typedef struct kiln_cooked_scene {
    const char *name; /* default scene's name, else "scene" */
    size_t name_size;
    uint32_t flags;        /* KILN_COOKED_SCENE_* */
    uint32_t source_scene; /* scene->default_scene, or KILN_COOKED_NONE */
    float bounds_min[3], bounds_max[3];
    kiln_cooked_node *nodes; /* node_count, depth-first pre-order, node 0 the root */
    uint32_t node_count;
    uint64_t *primitives; /* ids; nodes of one copy of a mesh share one range */
    uint32_t primitive_count;
    float *weights; /* morph weights; nodes of one mesh without their own
                       weights share the mesh's defaults */
    uint32_t weight_count;
    kiln_cooked_camera *cameras; /* those the nodes use, in order of first use */
    uint32_t camera_count;
    kiln_cooked_light *lights; /* likewise */
    uint32_t light_count;
    uint64_t *clips; /* one id per animation that has a clip, in source order */
    uint32_t clip_count;
    kiln_allocator allocator; /* what the arrays came from */
    struct {
        uint32_t nodes, primitives, weights, cameras, lights, clips;
    } capacity; /* kiln's */
} kiln_cooked_scene;

/* Builds the cooked scene of scene->roots (the default scene's roots, else every parentless
 * node; kiln_scene.h). Order: depth-first pre-order, roots in the scene's order and children in
 * the file's order, so parents come first and node i's subtree is [i, subtree_end). One root
 * stays the root (node 0); several go under a synthetic node 0 named after the scene with an
 * identity transform; no root gives a scene without nodes. A node's weights are its own
 * (node.weights) or else its mesh's defaults; a node without a mesh keeps none.
 *
 * `a` may be NULL (libc). *out is zeroed first; on error it is freed and zeroed again. Errors:
 * KILN_E_USAGE (NULL scene or out, no id source), KILN_E_IMPORT_FAILED (an index out of range,
 * a node reached twice or a cycle, a transform, weight, camera or light value not finite, an
 * unknown camera or light type), KILN_E_LIMIT (more than 2^32 - 2 records of a kind),
 * KILN_E_OUT_OF_MEMORY. Deterministic; thread-safe for distinct out. */
kiln_result kiln_cooked_scene_build(const kiln_scene *scene, const kiln_cooked_scene_ids *ids,
                                    const kiln_allocator *a, kiln_cooked_scene *out,
                                    kiln_error *err);

void kiln_cooked_scene_free(kiln_cooked_scene *s); /* zeroes it; NULL or zeroed: no-op */

#endif
