/* fbx_legacy.h — FBX 6.x (version < 7000, binary or ASCII), which assimp 5.2 cannot read, with
 * kiln's own bounded reader (fbx_tree.c) in the calling process: no child is needed, since
 * nothing but kiln's own checked code touches the bytes. */
#ifndef KILN_IMPORT_FBX_LEGACY_H
#define KILN_IMPORT_FBX_LEGACY_H

#include "import/assimp.h"
#include "import/fbx_tree.h"
#include "kiln/kiln_scene.h"

/* Versions below this go to kiln_fbx_legacy_import instead of assimp. */
#define KILN_FBX_LEGACY_BELOW 7000u

/* Imports an FBX 6.x file into scene (fresh, from kiln_scene_create), with the same contract
 * as kiln_assimp_import: the file's models, meshes (polygons triangulated, concave ones by ear
 * clipping; per-material primitives, normals, UV and colour layers, identical vertices joined),
 * materials and textures found next to the model, the model hierarchy and local transforms,
 * skins (Skin deformer clusters), takes with linear or constant keys as clips, in kiln's space
 * (axes and unit from GlobalSettings, else +Y up and centimetres). What is not imported
 * (cameras, lights, other deformers, other key types) is a warning (docs/fbx.md). The file is
 * read into an assimp_doc (assimp_doc.h), the typed description the assimp child's blob is read
 * into too, and built by kiln_assimp_build, so every convention (space, materials, texture
 * lookup) is the assimp path's; no blob is made. Errors: KILN_E_IMPORT_FAILED (malformed),
 * KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_fbx_legacy_import(const void *data, size_t size, const char *base_dir,
                                   const kiln_assimp_opts *opts, uint32_t flags, kiln_scene *scene,
                                   kiln_error *err);

/* The same from a tree already parsed (its version is not looked at: tests and the fuzz target
 * feed 6.x content in a 7500 binary container this way). */
kiln_result kiln_fbx_legacy_import_tree(const kiln_fbx_tree *tree, const char *base_dir,
                                        const kiln_assimp_opts *opts, uint32_t flags,
                                        kiln_scene *scene, kiln_error *err);

#endif
