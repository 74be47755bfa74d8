/* clip_write.h — a cooked clip as a kiln container of kind "CLIP" (cook side; the bytes are in
 * docs/formats.md, "Clips"; the reader is kiln_clip_read). */
#ifndef KILN_WRITE_CLIP_WRITE_H
#define KILN_WRITE_CLIP_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "process/clip.h"

/* Section ids and record sizes (docs/formats.md). */
#define KILN_CLIP_SECTION_HEADER KILN_FOURCC('C', 'L', 'H', 'D')
#define KILN_CLIP_SECTION_TRACKS KILN_FOURCC('T', 'R', 'A', 'K')
#define KILN_CLIP_SECTION_TIMES  KILN_FOURCC('T', 'I', 'M', 'E')
#define KILN_CLIP_SECTION_VALUES KILN_FOURCC('V', 'A', 'L', 'U')
#define KILN_CLIP_SECTION_NAME   KILN_FOURCC('N', 'A', 'M', 'E')
#define KILN_CLIP_HEADER_SIZE    64
#define KILN_CLIP_TRACK_SIZE     32

/* Serializes c (its skeleton_id as the caller set it). *out is allocated from alloc (NULL =
 * libc); free with kiln_free(alloc, *out, *size). The bytes are read back with kiln_clip_read
 * before they are returned, so nothing the reader refuses is ever written. Deterministic: equal
 * clips give equal bytes. Errors: KILN_E_USAGE (NULL arguments, a clip the reader would refuse:
 * its message says why), KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_clip_write(const kiln_cooked_clip *c, const kiln_allocator *alloc, uint8_t **out,
                            size_t *size, kiln_error *err);

#endif
