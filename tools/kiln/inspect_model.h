/* inspect_model.h — the model half of `kiln inspect`: a glTF 2.0 / GLB, FBX or OBJ file summarised. */
#ifndef KILN_TOOLS_INSPECT_MODEL_H
#define KILN_TOOLS_INSPECT_MODEL_H

#include <jansson.h>
#include <stdbool.h>

#include "kiln/kiln_scene.h"

/* Loads the model at path (without pixels, normals or tangents: inspect only counts) and returns
 * the inspect document's model members ("type": "model", counts, lists; see
 * docs/schemas/inspect.schema.json). format ("gltf", "glb", "fbx" or "obj") is what the caller
 * recognised by content, as kiln_scene_load does. On failure returns NULL with *r and err set
 * by kiln_scene_load. */
json_t *kiln_inspect_model(const char *path, const char *format, kiln_result *r, kiln_error *err);

/* Prints that document for people on stdout; path heads the first line. */
void kiln_inspect_model_print(const json_t *doc, const char *path);

#endif
