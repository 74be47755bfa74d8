/* inspect_container.h — the kiln-container half of `kiln inspect`: any cooked file that starts
 * with "KILN" (meshes, materials, skeletons, clips, scenes) summarised. */
#ifndef KILN_TOOLS_INSPECT_CONTAINER_H
#define KILN_TOOLS_INSPECT_CONTAINER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* Validates the container and, for the kinds kiln reads (MESH, MATL, SKEL, CLIP, SCEN), the kind
 * itself through its public reader, and returns the inspect document's container members
 * ("type": "container", kind, versions, sections, and a kind-specific summary; see
 * docs/schemas/inspect.schema.json). A valid container of an unknown kind gets the section table
 * only. On failure returns NULL with *r and err set by the reader that refused the bytes. */
json_t *kiln_inspect_container(const uint8_t *data, size_t size, kiln_result *r, kiln_error *err);

/* Prints that document for people on stdout; path heads the first line. */
void kiln_inspect_container_print(const json_t *doc, const char *path);

/* Real numbers of these documents are float32 values: dump them with this many significant
 * digits (each float was stored as the shortest decimal that reads back as the same float). */
#define KILN_INSPECT_CONTAINER_REAL_PRECISION 9

#endif
