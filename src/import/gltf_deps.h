/* gltf_deps.h — listing the external files of a glTF without loading it. */
#ifndef KILN_IMPORT_GLTF_DEPS_H
#define KILN_IMPORT_GLTF_DEPS_H

#include <stddef.h>

#include "kiln/kiln_format.h"

/* Called once per external file, in the order buffers then images appear (a file named twice
 * is reported twice); path is resolved and absolute. A non-OK return stops the walk. */
typedef kiln_result (*kiln_gltf_dep_fn)(void *user, const char *path, kiln_error *err);

/* Parses only the JSON (of a .gltf or a .glb's JSON chunk) and reports each buffer and image
 * URI that is not a data URI, resolved in base_dir with kiln_uri_resolve_file's confinement.
 * Errors: those of the JSON parse (KILN_E_IMPORT_FAILED), a refused URI (KILN_E_OUTPUT_REFUSED),
 * KILN_E_IMPORT_UNSUPPORTED for data that is not glTF, or fn's. */
kiln_result kiln_gltf_dependencies(const void *data, size_t size, const char *base_dir,
                                   kiln_gltf_dep_fn fn, void *user, kiln_error *err);

#endif
