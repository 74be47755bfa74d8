/* vk_format.h — what kiln knows about each VkFormat it writes: texel block shape and size, KTX2
 * typeSize, the sRGB/linear twin, and the Khronos Basic Data Format Descriptor (DFD) that a KTX2
 * file carries for it. One const table serves the KTX2 writer, the KTX2 reader (so this is part
 * of libkiln_rt: libc only) and the texture format table (texture_format.h), whose rows name
 * their VkFormats and take block shape and size from here. */
#ifndef KILN_CODEC_VK_FORMAT_H
#define KILN_CODEC_VK_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/extent.h"
#include "kiln/kiln_format.h"

/* Khronos Data Format 1.3 values kiln uses (khr_df.h names). */
#define KILN_DF_VERSION                  2u /* versionNumber of a 1.3 basic descriptor */
#define KILN_DF_MODEL_RGBSDA             1u
#define KILN_DF_MODEL_BC1A               128u
#define KILN_DF_MODEL_BC3                130u
#define KILN_DF_MODEL_BC4                131u
#define KILN_DF_MODEL_BC5                132u
#define KILN_DF_MODEL_BC6H               133u
#define KILN_DF_MODEL_BC7                134u
#define KILN_DF_MODEL_ETC2               161u
#define KILN_DF_MODEL_ASTC               162u
#define KILN_DF_MODEL_ETC1S              163u /* Basis Universal ETC1S (vkFormat 0, BasisLZ) */
#define KILN_DF_MODEL_UASTC              166u /* Basis Universal UASTC 4x4 (vkFormat 0) */
#define KILN_DF_PRIMARIES_BT709          1u
#define KILN_DF_TRANSFER_UNSPECIFIED     0u
#define KILN_DF_TRANSFER_LINEAR          1u
#define KILN_DF_TRANSFER_SRGB            2u
#define KILN_DF_FLAG_ALPHA_PREMULTIPLIED 1u
#define KILN_DF_CHANNEL_ALPHA            15u   /* RGBSDA alpha; R, G, B are 0, 1, 2 */
#define KILN_DF_QUALIFIER_LINEAR         0x10u /* channelType bits 4..7 */
#define KILN_DF_QUALIFIER_EXPONENT       0x20u
#define KILN_DF_QUALIFIER_SIGNED         0x40u
#define KILN_DF_QUALIFIER_FLOAT          0x80u

#define KILN_DFD_MAX_SAMPLES 6 /* E5B9G9R9: a mantissa and an exponent sample per channel */
/* dfdTotalSize (4) + basic block header (24) + samples (16 each). */
#define KILN_DFD_MAX_SIZE (4 + 24 + 16 * KILN_DFD_MAX_SAMPLES)

/* The 12 bytes every KTX 2.0 file starts with (KTX 2.0 spec, section 3.1). */
static const uint8_t kiln_ktx2_identifier[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32,
                                                 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};

/* Largest width or height kiln writes or reads: 2^15, so 16 mip levels at most and every level
 * size fits in 64 bits with room to spare (32768^2 * 8 bytes = 8 GiB for RGBA16F). */
#define KILN_KTX2_MAX_DIM 32768u

/* One sample of a basic descriptor, as stored (bit_length and positions are "minus one"/raw). */
typedef struct kiln_dfd_sample {
    uint16_t bit_offset;
    uint8_t bit_length;   /* bits - 1 */
    uint8_t channel_type; /* channel id (low 4 bits) | KILN_DF_QUALIFIER_* */
    uint32_t lower, upper;
} kiln_dfd_sample;

typedef struct kiln_vk_format_info {
    uint32_t vk_format; /* kiln_vk_format */
    const char *name;   /* "BC7_SRGB" */
    uint32_t twin;      /* the sRGB format for a linear one and back; 0 if none */
    bool srgb;
    uint8_t block_width, block_height; /* texels; 1x1 for RGBA8/RGBA16F */
    uint8_t block_size;                /* bytes per block (per texel for 1x1) */
    uint8_t type_size;                 /* KTX2 typeSize */
    uint8_t color_model;               /* KILN_DF_MODEL_* */
    uint8_t sample_count;
    kiln_dfd_sample samples[KILN_DFD_MAX_SAMPLES];
} kiln_vk_format_info;

/* The table entry for a VkFormat value, NULL if kiln does not handle it. */
const kiln_vk_format_info *kiln_vk_format_find(uint32_t vk_format);
/* Entries in table order (for tests and tools): NULL when i >= kiln_vk_format_count(). */
size_t kiln_vk_format_count(void);
const kiln_vk_format_info *kiln_vk_format_at(size_t i);

/* Bytes of one image of width x height texels: ceil(w/bw) * ceil(h/bh) * block_size. False when
 * it does not fit in a uint64_t (cannot happen for dimensions <= KILN_KTX2_MAX_DIM). */
bool kiln_vk_format_image_size(const kiln_vk_format_info *f, uint32_t width, uint32_t height,
                               uint64_t *out);

/* KTX2 mip alignment when not supercompressed: lcm(block_size, 4). */
uint32_t kiln_vk_format_level_align(const kiln_vk_format_info *f);

/* Writes the whole DFD kiln stores for the format (dfdTotalSize included, little-endian) into
 * out, which holds at least KILN_DFD_MAX_SIZE bytes. Returns its size in bytes. */
size_t kiln_vk_format_dfd(const kiln_vk_format_info *f, bool premultiplied, uint8_t *out);

#endif
