/* mesh_sections.h — section ids and element sizes of the "MESH" container kind, shared by the
 * writer (mesh_write.c) and the reader (mesh_read.c). docs/formats.md ("Meshes") lays them out. */
#ifndef KILN_CODEC_MESH_SECTIONS_H
#define KILN_CODEC_MESH_SECTIONS_H

#include <stdint.h>

#include "kiln/kiln_format.h"

#define KILN_MESH_HEADER_SIZE  176 /* MHDR: one element */
#define KILN_MESH_LOD_SIZE     24
#define KILN_MESH_MESHLET_SIZE 16
#define KILN_MESH_BOUNDS_SIZE  48
#define KILN_MESH_TARGET_SIZE  8

#define KILN_MESH_SECTION_HEADER            KILN_FOURCC('M', 'H', 'D', 'R')
#define KILN_MESH_SECTION_LODS              KILN_FOURCC('L', 'O', 'D', 'S')
#define KILN_MESH_SECTION_MESHLETS          KILN_FOURCC('M', 'L', 'E', 'T')
#define KILN_MESH_SECTION_BOUNDS            KILN_FOURCC('M', 'L', 'B', 'D')
#define KILN_MESH_SECTION_MESHLET_VERTICES  KILN_FOURCC('M', 'L', 'V', 'X')
#define KILN_MESH_SECTION_MESHLET_TRIANGLES KILN_FOURCC('M', 'L', 'T', 'R')
#define KILN_MESH_SECTION_TARGETS           KILN_FOURCC('T', 'G', 'T', 'S')

/* The section holding stream id. */
static inline uint32_t kiln_mesh_stream_section(int id)
{
    switch (id) {
    case KILN_MESH_POSITION:
        return KILN_FOURCC('V', 'P', 'O', 'S');
    case KILN_MESH_NORMAL:
        return KILN_FOURCC('V', 'N', 'R', 'M');
    case KILN_MESH_TANGENT:
        return KILN_FOURCC('V', 'T', 'A', 'N');
    case KILN_MESH_UV0:
        return KILN_FOURCC('V', 'U', 'V', '0');
    case KILN_MESH_UV0 + 1:
        return KILN_FOURCC('V', 'U', 'V', '1');
    case KILN_MESH_UV0 + 2:
        return KILN_FOURCC('V', 'U', 'V', '2');
    case KILN_MESH_UV0 + 3:
        return KILN_FOURCC('V', 'U', 'V', '3');
    case KILN_MESH_COLOR0:
        return KILN_FOURCC('V', 'C', 'L', '0');
    case KILN_MESH_COLOR0 + 1:
        return KILN_FOURCC('V', 'C', 'L', '1');
    case KILN_MESH_JOINTS:
        return KILN_FOURCC('V', 'J', 'N', 'T');
    case KILN_MESH_WEIGHTS:
        return KILN_FOURCC('V', 'W', 'G', 'T');
    case KILN_MESH_INDICES:
        return KILN_FOURCC('I', 'N', 'D', 'X');
    case KILN_MESH_TARGET_POSITIONS:
        return KILN_FOURCC('T', 'P', 'O', 'S');
    case KILN_MESH_TARGET_NORMALS:
        return KILN_FOURCC('T', 'N', 'R', 'M');
    case KILN_MESH_TARGET_TANGENTS:
        return KILN_FOURCC('T', 'T', 'A', 'N');
    default:
        return 0;
    }
}

#endif
