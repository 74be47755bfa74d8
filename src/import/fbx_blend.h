/* fbx_blend.h — blend shapes of FBX 7.x files that assimp 5.2 reads without them: kiln's own
 * tree reader (fbx_tree.c) finds the BlendShape deformers in the parent process, and their
 * shapes are mapped onto the meshes assimp imported by exact vertex positions. */
#ifndef KILN_IMPORT_FBX_BLEND_H
#define KILN_IMPORT_FBX_BLEND_H

#include "import/assimp.h"
#include "kiln/kiln_scene.h"

/* Adds morph targets to the meshes of scene (just built from data by the assimp path) for
 * every BlendShape deformer of the FBX file data, when assimp gave that mesh none. A mesh is
 * matched by its model's name (exactly one node of that name with a mesh); each imported
 * vertex is mapped to the one control point with exactly its position. A missing, ambiguous or
 * mismatched mapping leaves the mesh without targets, with a warning; nothing is guessed. Each
 * channel becomes one target (position deltas, normal deltas when the shape has them and the
 * mesh normals), its default weight DeformPercent / 100, its name the channel's. The channels'
 * DeformPercent curves become a weights channel baked at opts->animation_fps (unless
 * opts->skip_animations) in the clip of their stack, which is added when assimp dropped it (its
 * warnings about the channel are then removed). Returns
 * quickly when data holds no "BlendShape". Errors: only KILN_E_OUT_OF_MEMORY / KILN_E_LIMIT of
 * the scene's memory; a file kiln's reader refuses is a warning (assimp read it). */
kiln_result kiln_fbx_blend_shapes(const void *data, size_t size, const kiln_assimp_opts *opts,
                                  kiln_scene *scene, kiln_error *err);

#endif
