/* scene_complete.h — what an importer's scene lacks and the model cook needs, added after
 * import: normals, tangents for normal maps, UV sets that textures read. */
#ifndef KILN_PROCESS_SCENE_COMPLETE_H
#define KILN_PROCESS_SCENE_COMPLETE_H

#include <stdint.h>

#include "kiln/kiln_scene.h"

/* Completes every primitive of a scene built by kiln_scene_create (src/import/scene_build.h),
 * in place; new arrays live in the scene's arena (the old ones stay there until the scene is
 * freed). flags: KILN_SCENE_LOAD_* of kiln_scene.h. Per primitive, in this order:
 *
 * 1. Normals NULL and not KILN_SCENE_LOAD_NO_NORMALS: angle-weighted normals smoothed over the
 *    shared indices (kiln_normals_compute), flag KILN_SCENE_PRIM_NORMALS_GENERATED. (glTF asks
 *    for flat normals here; kiln smooths what the file shares, as docs/gltf.md says.)
 * 2. A texture slot of the material reads UV set k and the primitive has fewer than k + 1 sets:
 *    the missing sets up to k are zero-filled, flag KILN_SCENE_PRIM_UV0_FILLED, and a warning
 *    names mesh, primitive and sets. A set past KILN_SCENE_MAX_UV_SETS cannot be kept: a
 *    warning says so and the texture has no UVs for it.
 * 3. The material has a normal texture, tangents are NULL and not KILN_SCENE_LOAD_NO_TANGENTS:
 *    MikkTSpace tangents from the normal texture's UV set (kiln_tangents_generate). Vertices the
 *    tangents split are appended: every stream (positions, normals, texcoords, colors, joints,
 *    weights, each morph target's deltas) is copied through the remap into new arrays, indices
 *    and vertex_count are replaced; flag KILN_SCENE_PRIM_TANGENTS_GENERATED. Without normals
 *    (KILN_SCENE_LOAD_NO_NORMALS) no tangents are made, with a warning.
 * With KILN_SCENE_LOAD_TANGENT_SPACE, a material without a normal texture but with a clearcoat
 * normal or anisotropy texture gets normals (1.) and tangents (3., from the clearcoat normal's
 * UV set, else the anisotropy texture's) whatever NO_NORMALS and NO_TANGENTS say.
 * The default material (-1) has no textures. Nothing else is recomputed (bounds stay right:
 * positions are only copied).
 *
 * Errors: KILN_E_OUT_OF_MEMORY or KILN_E_LIMIT (the scene's memory limit), KILN_E_IMPORT_FAILED
 * (an index out of range), each naming mesh and primitive; the scene is then half completed and
 * should be freed. Not thread-safe for one scene. */
kiln_result kiln_scene_complete(kiln_scene *scene, uint32_t flags, kiln_error *err);

#endif
