/* typed_material_write.h — a typed material (a .kmat cooked against its shaders) as a kiln
 * container of kind "TMAT" (cook side; the bytes are in docs/formats.md, "Typed materials"; the
 * reader is kiln_typed_material_read). */
#ifndef KILN_WRITE_TYPED_MATERIAL_WRITE_H
#define KILN_WRITE_TYPED_MATERIAL_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* Serializes m (m->textures: m->texture_count records, in strictly increasing (set, binding)
 * order). *out is allocated from alloc (NULL = libc); free with kiln_free(alloc, *out, *size).
 * The bytes are read back with kiln_typed_material_read before they are returned, so nothing the
 * reader refuses is ever written. Deterministic: equal materials give equal bytes. Errors:
 * KILN_E_USAGE (NULL arguments, a material the reader would refuse: the message says why),
 * KILN_E_LIMIT (names or counts past the format's limits), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_typed_material_write(const kiln_typed_material *m, const kiln_allocator *alloc,
                                      uint8_t **out, size_t *size, kiln_error *err);

#endif
