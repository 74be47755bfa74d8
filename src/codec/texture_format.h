/* texture_format.h — the texture formats kiln writes, one const row each: the settings name, the
 * VkFormat pair (linear, sRGB), the channels it keeps, the CPU decoder to RGBA8, and the roles and
 * GPUs for which format "auto" picks it. Block shape and size are the VkFormat's, read from the
 * vk_format.h table the row points into by its VkFormat. The settings parser, the texture
 * processor, the KTX2 writer's caller, the runtime's transcode and the inspector derive what they
 * need from these rows; the cook's encoders are bound to them by id in src/process/block.c.
 * Part of libkiln_rt: libc only. */
#ifndef KILN_CODEC_TEXTURE_FORMAT_H
#define KILN_CODEC_TEXTURE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/vk_format.h"

/* A row of the table. The values are the order of the settings' documented list; append. */
typedef enum kiln_texture_format {
    KILN_TEXFMT_AUTO = 0, /* not a row: the setting "auto", resolved by kiln_texture_format_pick */
    KILN_TEXFMT_BC7,
    KILN_TEXFMT_BC5,
    KILN_TEXFMT_BC4,
    KILN_TEXFMT_BC1,
    KILN_TEXFMT_ASTC4X4,
    KILN_TEXFMT_RGBA8,
    KILN_TEXFMT_RGBA16F,
    KILN_TEXFMT_BC6H,        /* BC6H unsigned half floats (negative values clamp to 0) */
    KILN_TEXFMT_BC6H_SF,     /* BC6H signed half floats */
    KILN_TEXFMT_RGB9E5,      /* E5B9G9R9: shared exponent, 4 bytes a texel */
    KILN_TEXFMT_B10G11R11,   /* packed 11/11/10-bit unsigned floats, 4 bytes a texel */
    KILN_TEXFMT_ASTC4X4_HDR, /* ASTC 4x4 with the HDR profile, through libastcenc */
    KILN_TEXFMT_UASTC,       /* Basis Universal UASTC 4x4 (docs/basis.md), Zstandard */
    KILN_TEXFMT_ETC1S,       /* Basis Universal ETC1S in BasisLZ */
    KILN_TEXFMT_COUNT
} kiln_texture_format;

/* What a texture holds, as format auto sees it (the texture processor decides, in this order of
 * precedence: float source -> HDR (HDR_ALPHA when some alpha is below 1), normal map -> NORMAL,
 * single channel -> DATA, else COLOR). */
typedef enum kiln_texture_role {
    KILN_TEXROLE_COLOR = 0, /* colour, sRGB or not, with or without alpha */
    KILN_TEXROLE_NORMAL,    /* tangent-space normal map: X and Y matter */
    KILN_TEXROLE_DATA,      /* one channel of data: a mask, roughness, height */
    KILN_TEXROLE_HDR,       /* float source: values beyond [0, 1] */
    KILN_TEXROLE_HDR_ALPHA, /* float source whose alpha matters (BC6H has no alpha) */
    KILN_TEXROLE_COUNT
} kiln_texture_role;

/* The GPUs a cook is for, as far as format auto cares: which block family they sample. */
typedef enum kiln_texture_gpu {
    KILN_TEXGPU_DESKTOP = 0, /* BC1..BC7 */
    KILN_TEXGPU_MOBILE,      /* ASTC */
    KILN_TEXGPU_UNIVERSAL,   /* any: Basis Universal, transcoded at load time */
    KILN_TEXGPU_COUNT
} kiln_texture_gpu;

/* Decodes one block (block_width x block_height texels of the row's VkFormat) into RGBA8 texels,
 * row by row, 4 bytes each. srgb: the block is of the row's sRGB VkFormat (only ASTC decodes
 * differently). Every bit pattern decodes. */
typedef void (*kiln_texture_decode_fn)(const uint8_t *block, bool srgb, uint8_t *rgba);

/* Decodes one block of an HDR row into RGBA half floats (4 per texel, row by row; alpha 1.0 for
 * formats without alpha). Every bit pattern decodes. */
typedef void (*kiln_texture_decode_half_fn)(const uint8_t *block, uint16_t *rgba);

typedef struct kiln_texture_format_info {
    const char *name;   /* the settings name: "bc7" */
    uint32_t vk_linear; /* VkFormat of linear data (UNORM, SFLOAT); its vk_format.h entry gives
                           the block shape and size */
    uint32_t vk_srgb;   /* VkFormat of sRGB-encoded colour; 0: the format has no sRGB variant */
    uint8_t channels;   /* channels stored: 1 (R), 2 (R, G), 3 (RGB, alpha reads 1), 4 (RGBA) */
    bool hdr;           /* half floats: linear, values beyond [0, 1] */
    kiln_texture_decode_fn decode; /* to RGBA8; NULL for HDR rows, whose range RGBA8 cannot hold */
    kiln_texture_decode_half_fn decode_half; /* HDR rows: to RGBA16F; NULL when kiln has no CPU
                                                decoder (ASTC HDR: libastcenc's, cook only) */
    /* A Basis Universal row (kiln_ktx2_basis): its levels are built as RGBA8 (the VkFormats
     * above) and encoded as a whole at write time (cook_texture.c); its files have vkFormat 0. */
    uint8_t basis;
} kiln_texture_format_info;

/* The row of f; NULL for KILN_TEXFMT_AUTO and values out of range. */
const kiln_texture_format_info *kiln_texture_format_get(kiln_texture_format f);

/* "auto", the row's name, or "invalid". */
const char *kiln_texture_format_name(kiln_texture_format f);

/* The format named name (len bytes, not NUL-terminated; "auto" included); false if none. */
bool kiln_texture_format_from_name(const char *name, size_t len, kiln_texture_format *out);

/* The VkFormat kiln writes for f: its sRGB one when srgb and it has one, else its linear one;
 * 0 (UNDEFINED) for AUTO and values out of range. */
uint32_t kiln_texture_format_vk(kiln_texture_format f, bool srgb);

/* The row that writes VkFormat vk, and (when srgb is not NULL) whether vk is its sRGB variant.
 * KILN_TEXFMT_AUTO (0) when no row does. */
kiln_texture_format kiln_texture_format_of_vk(uint32_t vk, bool *srgb);

/* Whether f has an sRGB VkFormat (false for AUTO: it has no row). */
bool kiln_texture_format_has_srgb(kiln_texture_format f);

/* The vk_format.h entry of f's linear VkFormat: block width, height and bytes. NULL for AUTO. */
const kiln_vk_format_info *kiln_texture_format_block(kiln_texture_format f);

/* Bytes of a w x h level of f: ceil(w / bw) * ceil(h / bh) * block bytes. False for AUTO and
 * when the size does not fit in size_t. */
bool kiln_texture_format_level_size(kiln_texture_format f, uint32_t w, uint32_t h, size_t *out);

/* Decodes a w x h level of f (kiln_texture_format_level_size bytes at blocks, row-major blocks)
 * into w * h RGBA8 texels, dropping texels of partial blocks past the edges. The caller checks
 * the sizes and that the row has a decoder. */
void kiln_texture_format_decode_level(kiln_texture_format f, bool srgb, const uint8_t *blocks,
                                      uint32_t w, uint32_t h, uint8_t *rgba);

/* Decodes a w x h level of an HDR row with a decode_half (kiln_texture_format_level_size bytes
 * at blocks) into w * h RGBA half-float texels (8 bytes each, native uint16_t), dropping texels
 * of partial blocks past the edges. The caller checks the sizes and that the row has one. */
void kiln_texture_format_decode_level_half(kiln_texture_format f, const uint8_t *blocks, uint32_t w,
                                           uint32_t h, uint16_t *rgba);

/* What format auto resolves to for a role on a GPU: one table, role by GPU (texture_format.c,
 * k_auto; docs/settings.md has it). */
kiln_texture_format kiln_texture_format_pick(kiln_texture_role role, kiln_texture_gpu gpu);

/* The GPU family of a platform name of the settings ("mobile", "android" and "ios" sample ASTC;
 * "universal" means any GPU: Basis Universal; any other name and NULL are desktop). */
kiln_texture_gpu kiln_texture_gpu_of_platform(const char *platform);

#endif
