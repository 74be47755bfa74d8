/* vgeo_write.h — serializing a cooked cluster DAG (src/process/vgeo.h) into a kiln container of
 * kind "VGEO" (cook side). docs/formats.md, "Virtual geometry", gives the bytes. */
#ifndef KILN_WRITE_VGEO_WRITE_H
#define KILN_WRITE_VGEO_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "codec/vgeo_sections.h"
#include "kiln/kiln_format.h"
#include "process/vgeo.h"

/* Writes v as a container; *out is allocated from alloc (NULL = libc): free it with
 * kiln_free(alloc, *out, *size). cluster_triangles: each cluster's triangle bytes start at a
 * multiple of 4 (padded as the mesh kind's meshlets are). The bytes are read back with
 * kiln_vgeo_read before they are returned. Deterministic: equal DAGs give equal bytes. Errors:
 * KILN_E_USAGE (NULL arguments, or a DAG the reader refuses: the message gives its reason),
 * KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_vgeo_write(const kiln_cooked_vgeo *v, const kiln_allocator *alloc, uint8_t **out,
                            size_t *size, kiln_error *err);

/* The header section's bytes of v (docs/formats.md, "Virtual geometry"): for the writer and for
 * tests that build damaged files around it. */
void kiln_vgeo_header_bytes(const kiln_cooked_vgeo *v, uint8_t h[KILN_VGEO_HEADER_SIZE]);

#endif
