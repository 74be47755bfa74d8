/* texture_format.c — the table of texture formats kiln writes (texture_format.h) and the queries
 * every layer asks of it. A new format is: its VkFormat values (include/kiln/kiln_format.h) and
 * descriptors (vk_format.c), one row here with its block decoder, and one encoder entry in
 * src/process/block.c; the settings, the cook, the KTX2 writer and reader, the runtime's
 * transcode and the tests follow from those. Runtime-safe: libc only. */
#include "codec/texture_format.h"

#include <string.h>

#include "codec/block_decode.h"
#include "codec/hdr_decode.h"
#include "core/error.h"

/* The BC decoders have no sRGB variant of their own: the bytes are the same either way. */
#define SRGB_BLIND(name, decoder)                                                                  \
    static void name(const uint8_t *in, bool srgb, uint8_t *rgba)                                  \
    {                                                                                              \
        (void)srgb;                                                                                \
        decoder(in, rgba);                                                                         \
    }
SRGB_BLIND(decode_bc1, kiln_bc1_decode_block)
SRGB_BLIND(decode_bc4, kiln_bc4_decode_block)
SRGB_BLIND(decode_bc5, kiln_bc5_decode_block)
SRGB_BLIND(decode_bc7, kiln_bc7_decode_block)

static void decode_rgba8(const uint8_t *in, bool srgb, uint8_t *rgba)
{
    (void)srgb;
    memcpy(rgba, in, 4);
}

static void decode_bc6h(const uint8_t *in, uint16_t *rgba)
{
    kiln_bc6h_decode_block(in, false, rgba);
}
static void decode_bc6h_sf(const uint8_t *in, uint16_t *rgba)
{
    kiln_bc6h_decode_block(in, true, rgba);
}
static uint32_t load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void decode_rgb9e5(const uint8_t *in, uint16_t *rgba)
{
    kiln_rgb9e5_decode(load_u32le(in), rgba);
}
static void decode_b10g11r11(const uint8_t *in, uint16_t *rgba)
{
    kiln_b10g11r11_decode(load_u32le(in), rgba);
}
static void decode_rgba16f(const uint8_t *in, uint16_t *rgba)
{
    for (int c = 0; c < 4; c++) rgba[c] = (uint16_t)(in[2 * c] | in[2 * c + 1] << 8);
}

static const kiln_texture_format_info k_rows[KILN_TEXFMT_COUNT] = {
    [KILN_TEXFMT_BC7] = {"bc7", KILN_VK_FORMAT_BC7_UNORM_BLOCK, KILN_VK_FORMAT_BC7_SRGB_BLOCK, 4,
                         false, decode_bc7, NULL, 0},
    [KILN_TEXFMT_BC5] = {"bc5", KILN_VK_FORMAT_BC5_UNORM_BLOCK, 0, 2, false, decode_bc5, NULL, 0},
    [KILN_TEXFMT_BC4] = {"bc4", KILN_VK_FORMAT_BC4_UNORM_BLOCK, 0, 1, false, decode_bc4, NULL, 0},
    /* Opaque BC1 (4-colour mode): alpha is not kept. Never picked by auto (BC7 is better). */
    [KILN_TEXFMT_BC1] = {"bc1", KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK,
                         KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK, 3, false, decode_bc1, NULL, 0},
    [KILN_TEXFMT_ASTC4X4] = {"astc4x4", KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
                             KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK, 4, false, kiln_astc_decode_block,
                             NULL, 0},
    [KILN_TEXFMT_RGBA8] = {"rgba8", KILN_VK_FORMAT_R8G8B8A8_UNORM, KILN_VK_FORMAT_R8G8B8A8_SRGB, 4,
                           false, decode_rgba8, NULL, 0},
    [KILN_TEXFMT_RGBA16F] = {"rgba16f", KILN_VK_FORMAT_R16G16B16A16_SFLOAT, 0, 4, true, NULL,
                             decode_rgba16f, 0},
    [KILN_TEXFMT_BC6H] = {"bc6h", KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK, 0, 3, true, NULL, decode_bc6h,
                          0},
    [KILN_TEXFMT_BC6H_SF] = {"bc6h_sf", KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK, 0, 3, true, NULL,
                             decode_bc6h_sf, 0},
    [KILN_TEXFMT_RGB9E5] = {"rgb9e5", KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 0, 3, true, NULL,
                            decode_rgb9e5, 0},
    [KILN_TEXFMT_B10G11R11] = {"b10g11r11", KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32, 0, 3, true,
                               NULL, decode_b10g11r11, 0},
    /* Decoded by libastcenc in the cook; libkiln_rt has no ASTC HDR decoder. */
    [KILN_TEXFMT_ASTC4X4_HDR] = {"astc4x4_hdr", KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, 0, 4, true,
                                 NULL, NULL, 0},
    /* Basis rows: built as RGBA8 levels, encoded whole when the file is written. */
    [KILN_TEXFMT_UASTC] = {"uastc", KILN_VK_FORMAT_R8G8B8A8_UNORM, KILN_VK_FORMAT_R8G8B8A8_SRGB, 4,
                           false, decode_rgba8, NULL, KILN_KTX2_BASIS_UASTC},
    [KILN_TEXFMT_ETC1S] = {"etc1s", KILN_VK_FORMAT_R8G8B8A8_UNORM, KILN_VK_FORMAT_R8G8B8A8_SRGB, 4,
                           false, decode_rgba8, NULL, KILN_KTX2_BASIS_ETC1S},
};

/* Format auto, role by GPU. Desktop: BC7 colour, BC5 normal maps, BC4 one channel, BC6H HDR;
 * mobile: ASTC 4x4 LDR and HDR; universal (Basis): ETC1S colour, UASTC normal maps and data (the
 * split the engine kiln follows makes), RGBA16F HDR (Basis has no HDR format here). An HDR
 * source whose alpha matters is RGBA16F everywhere (BC6H has no alpha). */
static const kiln_texture_format k_auto[KILN_TEXROLE_COUNT][KILN_TEXGPU_COUNT] = {
    [KILN_TEXROLE_COLOR] = {KILN_TEXFMT_BC7, KILN_TEXFMT_ASTC4X4, KILN_TEXFMT_ETC1S},
    [KILN_TEXROLE_NORMAL] = {KILN_TEXFMT_BC5, KILN_TEXFMT_ASTC4X4, KILN_TEXFMT_UASTC},
    [KILN_TEXROLE_DATA] = {KILN_TEXFMT_BC4, KILN_TEXFMT_ASTC4X4, KILN_TEXFMT_UASTC},
    [KILN_TEXROLE_HDR] = {KILN_TEXFMT_BC6H, KILN_TEXFMT_ASTC4X4_HDR, KILN_TEXFMT_RGBA16F},
    [KILN_TEXROLE_HDR_ALPHA] = {KILN_TEXFMT_RGBA16F, KILN_TEXFMT_RGBA16F, KILN_TEXFMT_RGBA16F},
};

const kiln_texture_format_info *kiln_texture_format_get(kiln_texture_format f)
{
    return f > KILN_TEXFMT_AUTO && f < KILN_TEXFMT_COUNT ? &k_rows[f] : NULL;
}

const char *kiln_texture_format_name(kiln_texture_format f)
{
    if (f == KILN_TEXFMT_AUTO) return "auto";
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    return row ? row->name : "invalid";
}

bool kiln_texture_format_from_name(const char *name, size_t len, kiln_texture_format *out)
{
    for (int f = KILN_TEXFMT_AUTO; f < KILN_TEXFMT_COUNT; f++) {
        const char *n = kiln_texture_format_name((kiln_texture_format)f);
        if (strlen(n) == len && memcmp(n, name, len) == 0) {
            *out = (kiln_texture_format)f;
            return true;
        }
    }
    return false;
}

uint32_t kiln_texture_format_vk(kiln_texture_format f, bool srgb)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    if (!row) return KILN_VK_FORMAT_UNDEFINED;
    return srgb && row->vk_srgb ? row->vk_srgb : row->vk_linear;
}

kiln_texture_format kiln_texture_format_of_vk(uint32_t vk, bool *srgb)
{
    for (int f = KILN_TEXFMT_AUTO + 1; vk && f < KILN_TEXFMT_COUNT; f++) {
        /* Basis rows build RGBA8 levels but do not write RGBA8 files */
        if (k_rows[f].basis || (k_rows[f].vk_linear != vk && k_rows[f].vk_srgb != vk)) continue;
        if (srgb) *srgb = k_rows[f].vk_srgb == vk;
        return (kiln_texture_format)f;
    }
    if (srgb) *srgb = false;
    return KILN_TEXFMT_AUTO;
}

bool kiln_texture_format_has_srgb(kiln_texture_format f)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    return row && row->vk_srgb != 0;
}

const kiln_vk_format_info *kiln_texture_format_block(kiln_texture_format f)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    return row ? kiln_vk_format_find(row->vk_linear) : NULL;
}

bool kiln_texture_format_level_size(kiln_texture_format f, uint32_t w, uint32_t h, size_t *out)
{
    const kiln_vk_format_info *b = kiln_texture_format_block(f);
    uint64_t size;
    if (!b || !kiln_vk_format_image_size(b, w, h, &size) || size > SIZE_MAX) return false;
    *out = (size_t)size;
    return true;
}

void kiln_texture_format_decode_level(kiln_texture_format f, bool srgb, const uint8_t *blocks,
                                      uint32_t w, uint32_t h, uint8_t *rgba)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    const kiln_vk_format_info *b = kiln_texture_format_block(f);
    /* The largest block kiln decodes is 4x4; a test holds every row to it. */
    uint8_t texels[4 * 4 * 4];
    if (KILN_NEVER(!row || !row->decode || !b || b->block_width > 4 || b->block_height > 4)) return;
    const size_t bw = b->block_width, bh = b->block_height, block_size = b->block_size;
    const size_t bx_count = (w + bw - 1) / bw, by_count = (h + bh - 1) / bh;
    const size_t row_size = (size_t)w * 4;
    for (size_t by = 0; by < by_count; by++) {
        size_t rows = h - by * bh < bh ? h - by * bh : bh;
        for (size_t bx = 0; bx < bx_count; bx++) {
            row->decode(blocks + (by * bx_count + bx) * block_size, srgb, texels);
            size_t cols = w - bx * bw < bw ? w - bx * bw : bw;
            uint8_t *dst = rgba + by * bh * row_size + bx * bw * 4;
            for (size_t y = 0; y < rows; y++)
                memcpy(dst + y * row_size, texels + y * bw * 4, cols * 4);
        }
    }
}

void kiln_texture_format_decode_level_half(kiln_texture_format f, const uint8_t *blocks, uint32_t w,
                                           uint32_t h, uint16_t *rgba)
{
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    const kiln_vk_format_info *b = kiln_texture_format_block(f);
    uint16_t texels[4 * 4 * 4];
    if (KILN_NEVER(!row || !row->decode_half || !b || b->block_width > 4 || b->block_height > 4))
        return;
    const size_t bw = b->block_width, bh = b->block_height, block_size = b->block_size;
    const size_t bx_count = (w + bw - 1) / bw, by_count = (h + bh - 1) / bh;
    const size_t row_count = (size_t)w * 4;
    for (size_t by = 0; by < by_count; by++) {
        size_t rows = h - by * bh < bh ? h - by * bh : bh;
        for (size_t bx = 0; bx < bx_count; bx++) {
            row->decode_half(blocks + (by * bx_count + bx) * block_size, texels);
            size_t cols = w - bx * bw < bw ? w - bx * bw : bw;
            uint16_t *dst = rgba + by * bh * row_count + bx * bw * 4;
            for (size_t y = 0; y < rows; y++)
                memcpy(dst + y * row_count, texels + y * bw * 4, cols * 4 * sizeof(uint16_t));
        }
    }
}

kiln_texture_format kiln_texture_format_pick(kiln_texture_role role, kiln_texture_gpu gpu)
{
    if ((unsigned)role >= KILN_TEXROLE_COUNT || (unsigned)gpu >= KILN_TEXGPU_COUNT)
        return KILN_TEXFMT_AUTO;
    return k_auto[role][gpu];
}

/* Platform names (of the settings' "platforms" object) whose GPUs sample ASTC, not BC. */
static const char *const k_mobile_platforms[] = {"mobile", "android", "ios"};

kiln_texture_gpu kiln_texture_gpu_of_platform(const char *platform)
{
    for (size_t i = 0; platform && i < sizeof k_mobile_platforms / sizeof *k_mobile_platforms; i++)
        if (!strcmp(platform, k_mobile_platforms[i])) return KILN_TEXGPU_MOBILE;
    if (platform && !strcmp(platform, "universal")) return KILN_TEXGPU_UNIVERSAL;
    return KILN_TEXGPU_DESKTOP;
}

KILN_API const char *kiln_vk_format_label(uint32_t vk_format, bool *srgb, bool *has_srgb)
{
    bool is_srgb = false;
    kiln_texture_format f = kiln_texture_format_of_vk(vk_format, &is_srgb);
    const kiln_vk_format_info *vk = kiln_vk_format_find(vk_format);
    if (srgb) *srgb = vk ? vk->srgb : false;
    if (has_srgb) *has_srgb = f != KILN_TEXFMT_AUTO && kiln_texture_format_has_srgb(f);
    if (f != KILN_TEXFMT_AUTO) return kiln_texture_format_name(f);
    return vk ? vk->name : NULL;
}
