/* gltf.h — the glTF 2.0 importer: .gltf (JSON with external or data-URI buffers) and .glb
 * (binary container) bytes into a kiln_scene. */
#ifndef KILN_IMPORT_GLTF_H
#define KILN_IMPORT_GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_scene.h"

/* Limits on what one file may declare, so no input allocates without bound before the memory
 * limit is even consulted. */
#define KILN_GLTF_MAX_JSON_SIZE ((size_t)256 << 20) /* bytes of JSON text */
#define KILN_GLTF_MAX_ITEMS     1000000u            /* entries of any top-level array */
#define KILN_GLTF_MAX_COUNT     100000000u          /* accessor.count, sparse.count */

/* Does data look like glTF: a GLB header ("glTF" magic) or JSON text starting with '{'? */
bool kiln_gltf_detect(const void *data, size_t size);

/* KILN_E_IMPORT_UNSUPPORTED "not a glTF file (...)", naming what the bytes are when kiln knows
 * (kiln_sniff_describe): the importer's and the dependency list's refusal of bytes that are not
 * glTF although the name (.gltf, .glb) chose this importer. */
kiln_result kiln_gltf_refuse(const void *data, size_t size, kiln_error *err);

/* Parses data into scene (a fresh one from kiln_scene_create). base_dir: folder that external
 * URIs resolve in (NULL: they are refused); flags: KILN_SCENE_LOAD_*. The bytes are borrowed for
 * the call only. On error the scene holds whatever was built so far: free it. */
kiln_result kiln_gltf_import(const void *data, size_t size, const char *base_dir, uint32_t flags,
                             kiln_scene *scene, kiln_error *err);

#endif
