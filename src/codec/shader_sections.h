/* shader_sections.h — section ids and record sizes of the "SHDR" container kind, shared by the
 * writer (shader_write.c) and the reader (shader_read.c). docs/formats.md ("Shaders") lays them
 * out. */
#ifndef KILN_CODEC_SHADER_SECTIONS_H
#define KILN_CODEC_SHADER_SECTIONS_H

#include "kiln/kiln_format.h"

#define KILN_SHADER_SECTION_HEADER    KILN_FOURCC('S', 'H', 'H', 'D')
#define KILN_SHADER_SECTION_VARIANTS  KILN_FOURCC('S', 'V', 'A', 'R')
#define KILN_SHADER_SECTION_WORDS     KILN_FOURCC('S', 'P', 'R', 'V')
#define KILN_SHADER_SECTION_BINDINGS  KILN_FOURCC('B', 'I', 'N', 'D')
#define KILN_SHADER_SECTION_BLOCKS    KILN_FOURCC('B', 'L', 'C', 'K')
#define KILN_SHADER_SECTION_MEMBERS   KILN_FOURCC('M', 'E', 'M', 'B')
#define KILN_SHADER_SECTION_INPUTS    KILN_FOURCC('I', 'N', 'P', 'T')
#define KILN_SHADER_SECTION_OUTPUTS   KILN_FOURCC('O', 'U', 'T', 'P')
#define KILN_SHADER_SECTION_CONSTANTS KILN_FOURCC('S', 'P', 'E', 'C')
#define KILN_SHADER_SECTION_STRINGS   KILN_FOURCC('S', 'T', 'R', 'S')

#define KILN_SHADER_HEADER_SIZE   32
#define KILN_SHADER_VARIANT_SIZE  96
#define KILN_SHADER_BINDING_SIZE  40
#define KILN_SHADER_BLOCK_SIZE    24
#define KILN_SHADER_MEMBER_SIZE   44
#define KILN_SHADER_IO_SIZE       32
#define KILN_SHADER_CONSTANT_SIZE 20

/* The variant record's table ranges (first, count) start at these offsets, in this order, after
 * the word range at 8. */
enum {
    KILN_SHADER_TABLE_BINDINGS,
    KILN_SHADER_TABLE_BLOCKS,
    KILN_SHADER_TABLE_MEMBERS,
    KILN_SHADER_TABLE_INPUTS,
    KILN_SHADER_TABLE_OUTPUTS,
    KILN_SHADER_TABLE_CONSTANTS,
    KILN_SHADER_TABLE_COUNT
};
#define KILN_SHADER_VARIANT_TABLES 16 /* byte offset of the first (first, count) pair */

#endif
