/* mesh_write.h — serializing a cooked mesh (src/process/mesh.h) into a kiln container of kind
 * "MESH" (cook side). docs/formats.md, "Meshes", gives the bytes. */
#ifndef KILN_WRITE_MESH_WRITE_H
#define KILN_WRITE_MESH_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "process/mesh.h"

/* Writes m as a container; *out is allocated from alloc (NULL = libc): free it with
 * kiln_free(alloc, *out, *size). Compressed streams are written as encoded. Deterministic: equal
 * meshes give equal bytes. Errors: KILN_E_USAGE (NULL arguments, a mesh that is not whole),
 * KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_mesh_write(const kiln_cooked_mesh *m, const kiln_allocator *alloc, uint8_t **out,
                            size_t *size, kiln_error *err);

#endif
