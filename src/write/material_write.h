/* material_write.h — a cooked material as a kiln container of kind "MATL" (cook side; the bytes
 * are in docs/formats.md, "Materials"; the reader is kiln_material_read). */
#ifndef KILN_WRITE_MATERIAL_WRITE_H
#define KILN_WRITE_MATERIAL_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* Byte sizes of the records (docs/formats.md). */
#define KILN_MATERIAL_PARAMS_SIZE      64
#define KILN_MATERIAL_TEXTURE_SIZE     64
#define KILN_MATERIAL_SECTION_PARAMS   KILN_FOURCC('M', 'A', 'T', 'P')
#define KILN_MATERIAL_SECTION_TEXTURES KILN_FOURCC('M', 'T', 'E', 'X')
#define KILN_MATERIAL_SECTION_NAME     KILN_FOURCC('N', 'A', 'M', 'E')
#define KILN_MATERIAL_SECTION_EXT      KILN_FOURCC('M', 'E', 'X', 'T') /* extension factors */
#define KILN_MATERIAL_SECTION_EXT_TEX  KILN_FOURCC('M', 'X', 'T', 'X') /* extension slots */

/* Serializes m. *out is allocated from alloc (NULL = libc); free with kiln_free(alloc, *out,
 * *size). The bytes are read back with kiln_material_read before they are returned, so nothing
 * the reader refuses is ever written. Deterministic: equal materials give equal bytes.
 * Errors: KILN_E_USAGE (NULL arguments, a material the reader would refuse: the reader's
 * message says why), KILN_E_LIMIT (name over 4 GiB), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_material_write(const kiln_material *m, const kiln_allocator *alloc, uint8_t **out,
                                size_t *size, kiln_error *err);

#endif
