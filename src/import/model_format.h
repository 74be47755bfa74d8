/* model_format.h — which model importer reads a file. The extension decides (.gltf and .glb:
 * kiln's glTF importer; .fbx and .obj: the FBX and OBJ importers through assimp); the importer
 * then confirms the bytes or refuses them with a message that names it. Only a name without a
 * model extension (kiln_scene_load_memory, `kiln inspect model.dat`) is told by its bytes. */
#ifndef KILN_IMPORT_MODEL_FORMAT_H
#define KILN_IMPORT_MODEL_FORMAT_H

#include <stddef.h>

#include "import/assimp.h"

typedef enum kiln_model_format {
    KILN_MODEL_FORMAT_NONE = 0,
    KILN_MODEL_FORMAT_GLTF = 1, /* glTF 2.0, JSON or GLB: one importer reads both */
    KILN_MODEL_FORMAT_FBX = 2,
    KILN_MODEL_FORMAT_OBJ = 3,
} kiln_model_format;

/* The extensions of model files, lower case, NULL-terminated: the model source kind's. */
extern const char *const kiln_model_extensions[];

/* The format the name's extension names (without regard to case); NONE for any other name or
 * NULL. */
kiln_model_format kiln_model_format_of_name(const char *name);

/* The format the bytes look like (glTF first, then FBX or OBJ as kiln_assimp_detect tells);
 * NONE when they look like none. */
kiln_model_format kiln_model_format_of_bytes(const void *data, size_t size);

/* By the name when its extension names a model format, else by the bytes. */
kiln_model_format kiln_model_format_choose(const char *name, const void *data, size_t size);

/* The assimp format of FBX and OBJ; KILN_ASSIMP_NONE for the others. */
kiln_assimp_format kiln_model_format_assimp(kiln_model_format f);

#endif
