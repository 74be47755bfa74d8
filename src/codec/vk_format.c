/* vk_format.c — the table of texture formats kiln writes, and the Basic Data Format Descriptor
 * each carries in KTX2. Descriptor contents follow the Khronos Data Format Specification 1.3
 * (basic descriptor block; compressed colour models, section 5.6) as KTX 2.0 ("Data Format
 * Descriptor", Restrictions) requires for a known vkFormat: the same samples KTX-Software's
 * createDFD* produces, so files are interchangeable with toktx/libktx. Runtime-safe: libc only. */
#include "codec/vk_format.h"

#include "core/reader.h"

/* Unsigned samples of block formats cover the whole bit range: lower 0, upper UINT32_MAX. */
#define BLOCK_SAMPLE(off, bits, ch)                                                                \
    {                                                                                              \
        (off), (bits)-1, (ch), 0u, 0xFFFFFFFFu                                                     \
    }
#define U8_SAMPLE(off, ch)                                                                         \
    {                                                                                              \
        (off), 7, (ch), 0u, 255u                                                                   \
    }
/* SFLOAT: signed float, nominal range -1.0f .. 1.0f (0xBF800000, 0x3F800000). */
#define F16_SAMPLE(off, ch)                                                                        \
    {                                                                                              \
        (off), 15, (ch) | KILN_DF_QUALIFIER_FLOAT | KILN_DF_QUALIFIER_SIGNED, 0xBF800000u,         \
            0x3F800000u                                                                            \
    }

/* Unsigned float (UFLOAT) samples: nominal range 0.0f .. 1.0f, as KTX-Software's createDFD*. */
#define UF_SAMPLE(off, bits, ch)                                                                   \
    {                                                                                              \
        (off), (bits)-1, (ch) | KILN_DF_QUALIFIER_FLOAT, 0u, 0x3F800000u                           \
    }
/* A whole block of float data: BC6H and ASTC HDR. */
#define FLOAT_BLOCK_SAMPLE(ch, is_signed)                                                          \
    {                                                                                              \
        0, 127, (ch) | KILN_DF_QUALIFIER_FLOAT | ((is_signed) ? KILN_DF_QUALIFIER_SIGNED : 0u),    \
            (is_signed) ? 0xBF800000u : 0u, 0x3F800000u                                            \
    }
/* E5B9G9R9: per channel a 9-bit mantissa sample and the shared 5-bit exponent (bias 15, max 31),
 * with the sample bounds KTX-Software's createDFDPackedShifted writes (mantissa upper 8448). */
#define E5_MANTISSA(off, ch)                                                                       \
    {                                                                                              \
        (off), 8, (ch), 0u, 8448u                                                                  \
    }
#define E5_EXPONENT(ch)                                                                            \
    {                                                                                              \
        27, 4, (ch) | KILN_DF_QUALIFIER_EXPONENT, 15u, 31u                                         \
    }

static const kiln_vk_format_info k_formats[] = {
    {KILN_VK_FORMAT_R8G8B8A8_UNORM,
     "RGBA8_UNORM",
     KILN_VK_FORMAT_R8G8B8A8_SRGB,
     false,
     1,
     1,
     4,
     1,
     KILN_DF_MODEL_RGBSDA,
     4,
     {U8_SAMPLE(0, 0), U8_SAMPLE(8, 1), U8_SAMPLE(16, 2), U8_SAMPLE(24, KILN_DF_CHANNEL_ALPHA)}},
    /* sRGB applies to colour only: the alpha sample says so with the LINEAR qualifier. */
    {KILN_VK_FORMAT_R8G8B8A8_SRGB,
     "RGBA8_SRGB",
     KILN_VK_FORMAT_R8G8B8A8_UNORM,
     true,
     1,
     1,
     4,
     1,
     KILN_DF_MODEL_RGBSDA,
     4,
     {U8_SAMPLE(0, 0), U8_SAMPLE(8, 1), U8_SAMPLE(16, 2),
      U8_SAMPLE(24, KILN_DF_CHANNEL_ALPHA | KILN_DF_QUALIFIER_LINEAR)}},
    {KILN_VK_FORMAT_R16G16_SFLOAT,
     "RG16F",
     0,
     false,
     1,
     1,
     4,
     2,
     KILN_DF_MODEL_RGBSDA,
     2,
     {F16_SAMPLE(0, 0), F16_SAMPLE(16, 1)}},
    {KILN_VK_FORMAT_R16G16B16A16_SFLOAT,
     "RGBA16F",
     0,
     false,
     1,
     1,
     8,
     2,
     KILN_DF_MODEL_RGBSDA,
     4,
     {F16_SAMPLE(0, 0), F16_SAMPLE(16, 1), F16_SAMPLE(32, 2),
      F16_SAMPLE(48, KILN_DF_CHANNEL_ALPHA)}},
    {KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32,
     "B10G11R11_UFLOAT",
     0,
     false,
     1,
     1,
     4,
     4,
     KILN_DF_MODEL_RGBSDA,
     3,
     {UF_SAMPLE(0, 11, 0), UF_SAMPLE(11, 11, 1), UF_SAMPLE(22, 10, 2)}},
    {KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32,
     "E5B9G9R9_UFLOAT",
     0,
     false,
     1,
     1,
     4,
     4,
     KILN_DF_MODEL_RGBSDA,
     6,
     {E5_MANTISSA(0, 0), E5_EXPONENT(0), E5_MANTISSA(9, 1), E5_EXPONENT(1), E5_MANTISSA(18, 2),
      E5_EXPONENT(2)}},
    /* BC1 without punch-through alpha: channel BC1A_COLOR (0), not ALPHAPRESENT (1). */
    {KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK,
     "BC1_UNORM",
     KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK,
     false,
     4,
     4,
     8,
     1,
     KILN_DF_MODEL_BC1A,
     1,
     {BLOCK_SAMPLE(0, 64, 0)}},
    {KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK,
     "BC1_SRGB",
     KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK,
     true,
     4,
     4,
     8,
     1,
     KILN_DF_MODEL_BC1A,
     1,
     {BLOCK_SAMPLE(0, 64, 0)}},
    /* BC3: a BC4-style alpha block (channel BC3_ALPHA, 15) then a BC1 colour block (0). */
    {KILN_VK_FORMAT_BC3_UNORM_BLOCK,
     "BC3_UNORM",
     KILN_VK_FORMAT_BC3_SRGB_BLOCK,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC3,
     2,
     {BLOCK_SAMPLE(0, 64, KILN_DF_CHANNEL_ALPHA), BLOCK_SAMPLE(64, 64, 0)}},
    {KILN_VK_FORMAT_BC3_SRGB_BLOCK,
     "BC3_SRGB",
     KILN_VK_FORMAT_BC3_UNORM_BLOCK,
     true,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC3,
     2,
     {BLOCK_SAMPLE(0, 64, KILN_DF_CHANNEL_ALPHA), BLOCK_SAMPLE(64, 64, 0)}},
    {KILN_VK_FORMAT_BC4_UNORM_BLOCK,
     "BC4_UNORM",
     0,
     false,
     4,
     4,
     8,
     1,
     KILN_DF_MODEL_BC4,
     1,
     {BLOCK_SAMPLE(0, 64, 0)}},
    /* BC5: red in the first 64 bits, green in the second (channels BC5_RED 0, BC5_GREEN 1). */
    {KILN_VK_FORMAT_BC5_UNORM_BLOCK,
     "BC5_UNORM",
     0,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC5,
     2,
     {BLOCK_SAMPLE(0, 64, 0), BLOCK_SAMPLE(64, 64, 1)}},
    {KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK,
     "BC6H_UFLOAT",
     0,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC6H,
     1,
     {FLOAT_BLOCK_SAMPLE(0, false)}},
    {KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK,
     "BC6H_SFLOAT",
     0,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC6H,
     1,
     {FLOAT_BLOCK_SAMPLE(0, true)}},
    {KILN_VK_FORMAT_BC7_UNORM_BLOCK,
     "BC7_UNORM",
     KILN_VK_FORMAT_BC7_SRGB_BLOCK,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC7,
     1,
     {BLOCK_SAMPLE(0, 128, 0)}},
    {KILN_VK_FORMAT_BC7_SRGB_BLOCK,
     "BC7_SRGB",
     KILN_VK_FORMAT_BC7_UNORM_BLOCK,
     true,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_BC7,
     1,
     {BLOCK_SAMPLE(0, 128, 0)}},
    /* ETC2 (colour model ETC2): colour is channel ETC2_COLOR (2); RGBA8 has the EAC alpha block
     * (ETC2_ALPHA, 15) first; EAC R11 / RG11 are ETC2_RED (0) and ETC2_GREEN (1). */
    {KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
     "ETC2_RGB8_UNORM",
     KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
     false,
     4,
     4,
     8,
     1,
     KILN_DF_MODEL_ETC2,
     1,
     {BLOCK_SAMPLE(0, 64, 2)}},
    {KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
     "ETC2_RGB8_SRGB",
     KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
     true,
     4,
     4,
     8,
     1,
     KILN_DF_MODEL_ETC2,
     1,
     {BLOCK_SAMPLE(0, 64, 2)}},
    {KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
     "ETC2_RGBA8_UNORM",
     KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_ETC2,
     2,
     {BLOCK_SAMPLE(0, 64, KILN_DF_CHANNEL_ALPHA), BLOCK_SAMPLE(64, 64, 2)}},
    {KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
     "ETC2_RGBA8_SRGB",
     KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
     true,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_ETC2,
     2,
     {BLOCK_SAMPLE(0, 64, KILN_DF_CHANNEL_ALPHA), BLOCK_SAMPLE(64, 64, 2)}},
    {KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK,
     "EAC_R11_UNORM",
     0,
     false,
     4,
     4,
     8,
     1,
     KILN_DF_MODEL_ETC2,
     1,
     {BLOCK_SAMPLE(0, 64, 0)}},
    {KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK,
     "EAC_RG11_UNORM",
     0,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_ETC2,
     2,
     {BLOCK_SAMPLE(0, 64, 0), BLOCK_SAMPLE(64, 64, 1)}},
    {KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
     "ASTC_4x4_UNORM",
     KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_ASTC,
     1,
     {BLOCK_SAMPLE(0, 128, 0)}},
    {KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK,
     "ASTC_4x4_SRGB",
     KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
     true,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_ASTC,
     1,
     {BLOCK_SAMPLE(0, 128, 0)}},
    {KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK,
     "ASTC_4x4_SFLOAT",
     0,
     false,
     4,
     4,
     16,
     1,
     KILN_DF_MODEL_ASTC,
     1,
     {FLOAT_BLOCK_SAMPLE(0, true)}},
};

#define FORMAT_COUNT (sizeof k_formats / sizeof k_formats[0])

const kiln_vk_format_info *kiln_vk_format_find(uint32_t vk_format)
{
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        if (k_formats[i].vk_format == vk_format) return &k_formats[i];
    return NULL;
}

size_t kiln_vk_format_count(void) { return FORMAT_COUNT; }

const kiln_vk_format_info *kiln_vk_format_at(size_t i)
{
    return i < FORMAT_COUNT ? &k_formats[i] : NULL;
}

bool kiln_vk_format_image_size(const kiln_vk_format_info *f, uint32_t width, uint32_t height,
                               uint64_t *out)
{
    /* Rounding up by adding bw - 1 in 64 bits cannot wrap for 32-bit inputs. */
    uint64_t bx = ((uint64_t)width + f->block_width - 1) / f->block_width;
    uint64_t by = ((uint64_t)height + f->block_height - 1) / f->block_height;
    uint64_t blocks = bx * by; /* < 2^64: each factor < 2^32 */
    if (blocks > UINT64_MAX / f->block_size) return false;
    *out = blocks * f->block_size;
    return true;
}

uint32_t kiln_vk_format_level_align(const kiln_vk_format_info *f)
{
    uint32_t a = f->block_size, b = 4;
    while (b) { /* gcd, then lcm = a * 4 / gcd */
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return f->block_size / a * 4;
}

size_t kiln_vk_format_dfd(const kiln_vk_format_info *f, bool premultiplied, uint8_t *out)
{
    size_t block_size = 24 + 16 * (size_t)f->sample_count;
    size_t total = 4 + block_size;
    kiln_store_u32le(out, (uint32_t)total);
    /* vendorId KHRONOS (0) in bits 0..16, descriptorType BASICFORMAT (0) in bits 17..31. */
    kiln_store_u32le(out + 4, 0);
    kiln_store_u16le(out + 8, KILN_DF_VERSION);
    kiln_store_u16le(out + 10, (uint16_t)block_size);
    out[12] = f->color_model;
    out[13] = KILN_DF_PRIMARIES_BT709;
    out[14] = f->srgb ? KILN_DF_TRANSFER_SRGB : KILN_DF_TRANSFER_LINEAR;
    out[15] = premultiplied ? KILN_DF_FLAG_ALPHA_PREMULTIPLIED : 0;
    out[16] = (uint8_t)(f->block_width - 1); /* texelBlockDimension0..3 store size - 1 */
    out[17] = (uint8_t)(f->block_height - 1);
    out[18] = 0;
    out[19] = 0;
    /* bytesPlane0 = block bytes, planes 1..7 unused. Kept for supercompressed data too, as
     * KTX 2.0 revision 2+ asks ("DFD for Supercompressed Data"). */
    for (int i = 0; i < 8; i++) out[20 + i] = 0;
    out[20] = f->block_size;
    for (size_t s = 0; s < f->sample_count; s++) {
        uint8_t *p = out + 28 + 16 * s;
        const kiln_dfd_sample *smp = &f->samples[s];
        kiln_store_u16le(p, smp->bit_offset);
        p[2] = smp->bit_length;
        p[3] = smp->channel_type;
        p[4] = p[5] = p[6] = p[7] = 0; /* samplePosition: the block's origin */
        kiln_store_u32le(p + 8, smp->lower);
        kiln_store_u32le(p + 12, smp->upper);
    }
    return total;
}

KILN_API bool kiln_vk_format_block(uint32_t vk_format, uint32_t *block_width,
                                   uint32_t *block_height, uint32_t *block_size)
{
    const kiln_vk_format_info *f = kiln_vk_format_find(vk_format);
    if (!f) return false;
    if (block_width) *block_width = f->block_width;
    if (block_height) *block_height = f->block_height;
    if (block_size) *block_size = f->block_size;
    return true;
}
