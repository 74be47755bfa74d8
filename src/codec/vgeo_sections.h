/* vgeo_sections.h — section ids, element sizes and header offsets of the "VGEO" container kind
 * (virtual geometry), shared by the writer (vgeo_write.c) and the reader (vgeo_read.c).
 * docs/formats.md ("Virtual geometry") lays them out. */
#ifndef KILN_CODEC_VGEO_SECTIONS_H
#define KILN_CODEC_VGEO_SECTIONS_H

#include "kiln/kiln_format.h"

#define KILN_VGEO_HEADER_SIZE  64
#define KILN_VGEO_GROUP_SIZE   32
#define KILN_VGEO_CLUSTER_SIZE 16 /* a kiln_meshlet */
#define KILN_VGEO_LINK_SIZE    16
#define KILN_VGEO_BOUNDS_SIZE  48 /* a kiln_meshlet_bounds */

/* The sections, each present (possibly empty), in this order and no other. */
#define KILN_VGEO_SECTION_HEADER    KILN_FOURCC('V', 'H', 'D', 'R')
#define KILN_VGEO_SECTION_GROUPS    KILN_FOURCC('V', 'G', 'R', 'P')
#define KILN_VGEO_SECTION_CLUSTERS  KILN_FOURCC('V', 'C', 'L', 'U')
#define KILN_VGEO_SECTION_LINKS     KILN_FOURCC('V', 'L', 'N', 'K')
#define KILN_VGEO_SECTION_BOUNDS    KILN_FOURCC('V', 'B', 'N', 'D')
#define KILN_VGEO_SECTION_VERTICES  KILN_FOURCC('V', 'C', 'V', 'X')
#define KILN_VGEO_SECTION_TRIANGLES KILN_FOURCC('V', 'C', 'T', 'R')
#define KILN_VGEO_SECTION_COUNT     7

/* Header fields (VHDR), byte offsets. */
#define KILN_VGEO_H_MESH                  0  /* u64 */
#define KILN_VGEO_H_VERTEX_COUNT          8  /* u32 */
#define KILN_VGEO_H_FLAGS                 12 /* u32 */
#define KILN_VGEO_H_LEVEL_COUNT           16 /* u32 */
#define KILN_VGEO_H_GROUP_COUNT           20 /* u32 */
#define KILN_VGEO_H_CLUSTER_COUNT         24 /* u32 */
#define KILN_VGEO_H_CLUSTER_VERTEX_COUNT  28 /* u32 */
#define KILN_VGEO_H_CLUSTER_TRIANGLE_SIZE 32 /* u32 */
#define KILN_VGEO_H_MAX_VERTICES          36 /* u32 */
#define KILN_VGEO_H_MAX_TRIANGLES         40 /* u32 */
#define KILN_VGEO_H_SOURCE_TRIANGLES      44 /* u32 */
#define KILN_VGEO_H_EXTENT                48 /* f32 */
#define KILN_VGEO_H_RESERVED              52 /* 12 bytes, zero */

#endif
