/* scene_write.h — a cooked scene as a kiln container of kind "SCEN" (cook side; the bytes are in
 * docs/formats.md, "Scenes"; the reader is kiln_cooked_scene_read). */
#ifndef KILN_WRITE_SCENE_WRITE_H
#define KILN_WRITE_SCENE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "process/scene_cook.h"

/* Section ids and record sizes (docs/formats.md). */
#define KILN_SCENE_SECTION_HEADER     KILN_FOURCC('S', 'C', 'N', 'H')
#define KILN_SCENE_SECTION_NODES      KILN_FOURCC('N', 'O', 'D', 'E')
#define KILN_SCENE_SECTION_PRIMITIVES KILN_FOURCC('P', 'R', 'I', 'M')
#define KILN_SCENE_SECTION_WEIGHTS    KILN_FOURCC('W', 'G', 'H', 'T')
#define KILN_SCENE_SECTION_CAMERAS    KILN_FOURCC('C', 'A', 'M', 'R')
#define KILN_SCENE_SECTION_LIGHTS     KILN_FOURCC('L', 'G', 'H', 'T')
#define KILN_SCENE_SECTION_CLIPS      KILN_FOURCC('C', 'L', 'I', 'P')
#define KILN_SCENE_SECTION_STRINGS    KILN_FOURCC('S', 'T', 'R', 'S')
#define KILN_SCENE_HEADER_SIZE        40
#define KILN_SCENE_NODE_SIZE          168
#define KILN_SCENE_CAMERA_SIZE        40
#define KILN_SCENE_LIGHT_SIZE         48

/* Serializes s. *out is allocated from alloc (NULL = libc); free with kiln_free(alloc, *out,
 * *size). The bytes are read back with kiln_cooked_scene_read before they are returned, so
 * nothing the reader refuses is ever written. Deterministic: equal scenes give equal bytes.
 * Errors: KILN_E_USAGE (NULL arguments, a scene the reader would refuse: its message says
 * why), KILN_E_LIMIT (names over 4 GiB in all), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_cooked_scene_write(const kiln_cooked_scene *s, const kiln_allocator *alloc,
                                    uint8_t **out, size_t *size, kiln_error *err);

#endif
