/* typed_material_sections.h — section ids and record layouts of the "TMAT" container kind,
 * shared by the writer (typed_material_write.c) and the reader (typed_material_read.c).
 * docs/formats.md ("Typed materials") lays them out. */
#ifndef KILN_CODEC_TYPED_MATERIAL_SECTIONS_H
#define KILN_CODEC_TYPED_MATERIAL_SECTIONS_H

#include "kiln/kiln_format.h"

#define KILN_TMAT_SECTION_HEADER   KILN_FOURCC('T', 'M', 'H', 'D')
#define KILN_TMAT_SECTION_TEXTURES KILN_FOURCC('T', 'T', 'E', 'X')
#define KILN_TMAT_SECTION_BLOCK    KILN_FOURCC('P', 'B', 'L', 'K')
#define KILN_TMAT_SECTION_STRINGS  KILN_FOURCC('S', 'T', 'R', 'S')

#define KILN_TMAT_HEADER_SIZE  72
#define KILN_TMAT_TEXTURE_SIZE 32

/* Byte offsets of the header's fields. */
enum {
    KILN_TMAT_H_VERTEX_SHADER = 0,     /* u64 */
    KILN_TMAT_H_FRAGMENT_SHADER = 8,   /* u64 */
    KILN_TMAT_H_VERTEX_VARIANT = 16,   /* u32 STRS offset */
    KILN_TMAT_H_FRAGMENT_VARIANT = 20, /* u32 STRS offset */
    KILN_TMAT_H_NAME = 24,             /* u32 STRS offset */
    KILN_TMAT_H_BLOCK_KIND = 28,
    KILN_TMAT_H_BLOCK_SET = 32,
    KILN_TMAT_H_BLOCK_BINDING = 36,
    KILN_TMAT_H_BLOCK_NAME = 40, /* u32 STRS offset */
    KILN_TMAT_H_BLOCK_SIZE = 44, /* PBLK's count */
    KILN_TMAT_H_ALPHA_MODE = 48,
    KILN_TMAT_H_ALPHA_CUTOFF = 52, /* f32 */
    KILN_TMAT_H_BLEND = 56,
    KILN_TMAT_H_FLAGS = 60,
    KILN_TMAT_H_TEXTURE_COUNT = 64, /* TTEX's count */
    KILN_TMAT_H_RESERVED = 68,      /* u32, 0 */
};

/* Byte offsets of a texture record's fields. */
enum {
    KILN_TMAT_T_IMAGE = 0,    /* u64 */
    KILN_TMAT_T_NAME = 8,     /* u32 STRS offset */
    KILN_TMAT_T_SET = 12,     /* u32 */
    KILN_TMAT_T_BINDING = 16, /* u32 */
    KILN_TMAT_T_MAG = 20,     /* u8 each: mag, min, mip filter, wrap s, wrap t */
    KILN_TMAT_T_MIN = 21,
    KILN_TMAT_T_MIP = 22,
    KILN_TMAT_T_WRAP_S = 23,
    KILN_TMAT_T_WRAP_T = 24,
    KILN_TMAT_T_RESERVED = 25, /* 7 bytes, 0 */
};

#endif
