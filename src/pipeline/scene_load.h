/* scene_load.h — kiln_scene_load_memory with the import.fbx settings, for the model cook. */
#ifndef KILN_PIPELINE_SCENE_LOAD_H
#define KILN_PIPELINE_SCENE_LOAD_H

#include "import/assimp.h"
#include "kiln/kiln_scene.h"
#include "pipeline/settings.h"

/* As kiln_scene_load_memory; name (the file's, or NULL) chooses the importer by its extension
 * (model_format.h: the importer then confirms the bytes or refuses them, naming itself), the
 * bytes choose for a name without a model extension. fbx applies to FBX and OBJ sources
 * (NULL = import.fbx defaults). */
kiln_result kiln_scene_load_model(const void *data, size_t size, const char *name,
                                  const char *base_dir, const kiln_scene_opts *opts,
                                  const kiln_assimp_opts *fbx, kiln_scene **out, kiln_error *err);

/* The assimp options of import.fbx settings (NULL: the defaults). */
void kiln_assimp_opts_from_settings(const kiln_fbx_settings *s, kiln_assimp_opts *out);

#endif
