/* cook_kmat.h — a .kmat typed material cooked against its shaders into one TMAT container
 * (cook_kmat.c), and the sources it refers to (its dependencies: they are assets themselves). */
#ifndef KILN_PIPELINE_COOK_KMAT_H
#define KILN_PIPELINE_COOK_KMAT_H

#include "pipeline/cook.h"

/* The output of a .kmat asset. */
#define KILN_KMAT_LABEL "typed_material"
#define KILN_KMAT_FILE  "typed_material.tmat"

/* Calls fn with the absolute path of every source the material (source, root-relative name rel)
 * refers to itself: its parent, its shaders, its textures (those of its parents are in the
 * parent's key). The chain of parents is read to refuse a cycle or more than
 * KILN_KMAT_MAX_DEPTH documents. Errors: KILN_E_IMPORT_SETTINGS (a bad document, a path leaving
 * the root, a cycle: the JSON pointer names the field), KILN_E_ASSET_IO (a parent that cannot
 * be read), and what fn returns. */
kiln_result kiln_kmat_source_dependencies(const char *root, const char *rel, const uint8_t *source,
                                          size_t size, kiln_dep_fn fn, void *user, kiln_error *err);

/* Cooks the material into one output (KILN_KMAT_LABEL). Its shaders' cooked files come from
 * their cache entries, or are cooked now when an entry is missing. Errors: those of the
 * dependencies, KILN_E_IMPORT_SETTINGS (a parameter unknown to the shader's block or of the
 * wrong type, named with its pointer; a texture for no sampled image or a sampled image without
 * a texture; stages whose interfaces differ; blending with a shader that writes no alpha; a
 * shader that is not of its stage or lacks the variant), the shaders' own errors. */
kiln_result kiln_cook_kmat_source(kiln_project *p, const char *root, const char *rel,
                                  const uint8_t *source, size_t size, kiln_cooked *out,
                                  kiln_error *err);

#endif
