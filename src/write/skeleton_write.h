/* skeleton_write.h — a cooked skeleton as a kiln container of kind "SKEL" (cook side; the bytes
 * are in docs/formats.md, "Skeletons"; the reader is kiln_skeleton_read). */
#ifndef KILN_WRITE_SKELETON_WRITE_H
#define KILN_WRITE_SKELETON_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "process/skeleton.h"

/* Section ids and record sizes (docs/formats.md). */
#define KILN_SKELETON_SECTION_HEADER        KILN_FOURCC('S', 'K', 'H', 'D')
#define KILN_SKELETON_SECTION_JOINTS        KILN_FOURCC('J', 'N', 'T', 'S')
#define KILN_SKELETON_SECTION_INVERSE_BINDS KILN_FOURCC('I', 'B', 'M', 'S')
#define KILN_SKELETON_SECTION_PRE           KILN_FOURCC('P', 'R', 'E', 'T')
#define KILN_SKELETON_SECTION_HASH          KILN_FOURCC('H', 'A', 'S', 'H')
#define KILN_SKELETON_SECTION_NAMES         KILN_FOURCC('N', 'A', 'M', 'E')
#define KILN_SKELETON_HEADER_SIZE           48
#define KILN_SKELETON_JOINT_SIZE            64
#define KILN_SKELETON_MATRIX_SIZE           64
#define KILN_SKELETON_SLOT_SIZE             8

/* Serializes s. *out is allocated from alloc (NULL = libc); free with kiln_free(alloc, *out,
 * *size). The bytes are read back with kiln_skeleton_read before they are returned, so nothing
 * the reader refuses is ever written. Deterministic: equal skeletons give equal bytes. Errors:
 * KILN_E_USAGE (NULL arguments, a skeleton the reader would refuse: its message says why),
 * KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_skeleton_write(const kiln_cooked_skeleton *s, const kiln_allocator *alloc,
                                uint8_t **out, size_t *size, kiln_error *err);

#endif
