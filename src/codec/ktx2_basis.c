/* ktx2_basis.c — the checks kiln_ktx2_read makes of a Basis Universal file: its DFD (KTX 2.0,
 * "Basis Universal ETC1S" and "UASTC" data format descriptor sections: colour model 163 or 166,
 * 4x4 blocks, one 64-bit sample per ETC1S slice, one 128-bit UASTC sample) and the bounds of the
 * BasisLZ global data. Every length is checked before it is used; sums are taken in 64 bits from
 * 32-bit fields, so none can wrap. */
#include "codec/ktx2_basis.h"

#include <string.h>

#include "core/extent.h"
#include "core/reader.h"

/* DFD channel ids of the two formats (Khronos Data Format 1.3, KHR_DF_CHANNEL_ETC1S_* and
 * KHR_DF_CHANNEL_UASTC_*). */
enum {
    ETC1S_RGB = 0,
    ETC1S_RRR = 3,
    ETC1S_GGG = 4,
    ETC1S_AAA = 15,
    UASTC_RGB = 0,
    UASTC_RGBA = 3,
    UASTC_RRR = 4,
    UASTC_RRRG = 5,
    UASTC_RG = 6,
};

/* Level sizes: a UASTC block is 16 bytes; an ETC1S block stands for an 8-byte ETC1 block. */
const kiln_vk_format_info kiln_ktx2_uastc_shape = {
    0, "UASTC", 0, false, 4, 4, 16, 1, KILN_DF_MODEL_UASTC, 1, {{0, 127, UASTC_RGB, 0, ~0u}}};
const kiln_vk_format_info kiln_ktx2_etc1s_shape = {
    0, "ETC1S", 0, false, 4, 4, 8, 1, KILN_DF_MODEL_ETC1S, 1, {{0, 63, ETC1S_RGB, 0, ~0u}}};

/* The channels an ETC1S file's one or two slices hold: RGB or RRR, then optionally AAA or GGG. */
static bool etc1s_channels(const uint8_t ids[2], uint32_t samples, uint32_t *out)
{
    if (samples == 1 && (ids[0] == ETC1S_RGB || ids[0] == ETC1S_RRR)) {
        *out = ids[0] == ETC1S_RGB ? KILN_BASIS_CHANNELS_RGB : KILN_BASIS_CHANNELS_RRR;
        return true;
    }
    if (samples == 2 && ids[0] == ETC1S_RGB && ids[1] == ETC1S_AAA) {
        *out = KILN_BASIS_CHANNELS_RGBA;
        return true;
    }
    if (samples == 2 && ids[0] == ETC1S_RRR && ids[1] == ETC1S_GGG) {
        *out = KILN_BASIS_CHANNELS_RRRG;
        return true;
    }
    return false;
}

static bool uastc_channels(uint8_t id, uint32_t *out)
{
    static const int8_t map[7] = {KILN_BASIS_CHANNELS_RGB,
                                  -1,
                                  -1,
                                  KILN_BASIS_CHANNELS_RGBA,
                                  KILN_BASIS_CHANNELS_RRR,
                                  KILN_BASIS_CHANNELS_RRRG,
                                  KILN_BASIS_CHANNELS_RG};
    if (id >= sizeof map || map[id] < 0) return false;
    *out = (uint32_t)map[id];
    return true;
}

kiln_result kiln_ktx2_check_basis_dfd(const uint8_t *d, uint32_t len, uint64_t at, uint32_t scheme,
                                      kiln_ktx2_info *out, kiln_error *err)
{
    if (kiln_load_u32le(d) != len)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at,
                                 "ktx2: DFD dfdTotalSize %u differs from dfdByteLength %u",
                                 kiln_load_u32le(d), len);
    uint32_t w0 = kiln_load_u32le(d + 4);
    if (w0 != 0)
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, at + 4,
            "ktx2: the first DFD block is not a Khronos basic descriptor (vendor %u, type %u)",
            w0 & 0x1FFFFu, w0 >> 17);
    uint32_t version = kiln_load_u16le(d + 8), block_size = kiln_load_u16le(d + 10);
    if (version != KILN_DF_VERSION)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 8,
                                 "ktx2: DFD versionNumber %u, expected %u (Data Format 1.3)",
                                 version, KILN_DF_VERSION);
    if (block_size < 24 || (block_size - 24) % 16 != 0 || block_size > len - 4)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 10,
                                 "ktx2: DFD descriptorBlockSize %u does not fit the %u-byte DFD",
                                 block_size, len);
    uint32_t samples = (block_size - 24) / 16, model = d[12];
    bool etc1s = model == KILN_DF_MODEL_ETC1S;
    if (!etc1s && model != KILN_DF_MODEL_UASTC)
        return kiln_error_set_at(
            err, KILN_E_IMPORT_UNSUPPORTED, at + 12,
            "ktx2: vkFormat 0 with DFD colorModel %u: kiln reads only the Basis "
            "Universal models ETC1S (163) and UASTC (166)",
            model);
    const char *name = etc1s ? "ETC1S" : "UASTC";
    if (etc1s ? scheme != KILN_KTX2_SUPERCOMPRESSION_BASISLZ
              : scheme != KILN_KTX2_SUPERCOMPRESSION_NONE &&
                    scheme != KILN_KTX2_SUPERCOMPRESSION_ZSTD)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 44,
                                 "ktx2: supercompressionScheme %u does not go with %s (%s)", scheme,
                                 name, etc1s ? "BasisLZ (1) only" : "none (0) or Zstandard (2)");
    uint8_t transfer = d[14];
    if (transfer != KILN_DF_TRANSFER_SRGB && transfer != KILN_DF_TRANSFER_LINEAR)
        return kiln_error_set_at(
            err, KILN_E_IMPORT_UNSUPPORTED, at + 14,
            "ktx2: DFD transferFunction %u for %s, expected linear (1) or sRGB (2)", transfer,
            name);
    if (d[15] & ~KILN_DF_FLAG_ALPHA_PREMULTIPLIED)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 15,
                                 "ktx2: DFD flags 0x%02x has reserved bits", d[15]);
    if (d[16] != 3 || d[17] != 3 || d[18] != 0 || d[19] != 0)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 16,
                                 "ktx2: DFD texelBlockDimension %ux%ux%ux%u, %s has 4x4 blocks",
                                 d[16] + 1u, d[17] + 1u, d[18] + 1u, d[19] + 1u, name);
    /* bytesPlane0: 16 for raw UASTC; 0 when supercompressed (ETC1S always is). */
    bool planes_zero = true;
    for (int i = 1; i < 8; i++)
        if (d[20 + i]) planes_zero = false;
    bool plane0_ok = d[20] == 0
                         ? scheme != KILN_KTX2_SUPERCOMPRESSION_NONE
                         : !etc1s && d[20] == 16 && scheme != KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
    if (!planes_zero || !plane0_ok)
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, at + 20,
            "ktx2: DFD bytesPlane0 %u does not fit %s with supercompressionScheme %u", d[20], name,
            scheme);
    if (samples < 1 || samples > (etc1s ? 2u : 1u))
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 10,
                                 "ktx2: DFD has %u samples, %s has %s", samples, name,
                                 etc1s ? "1 or 2" : "1");
    uint8_t ids[2] = {0, 0};
    for (uint32_t s = 0; s < samples; s++) {
        const uint8_t *p = d + 28 + 16 * s;
        uint32_t bits = etc1s ? 64 : 128;
        /* The channel id may carry qualifier bits; only LINEAR means anything for these. */
        if (kiln_load_u16le(p) != bits * s || p[2] != bits - 1 ||
            (p[3] & ~(0x0Fu | KILN_DF_QUALIFIER_LINEAR)) != 0 || kiln_load_u32le(p + 4) != 0 ||
            kiln_load_u32le(p + 8) != 0 || kiln_load_u32le(p + 12) != ~0u)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 28 + 16 * s,
                                     "ktx2: DFD sample %u does not describe a %u-bit %s slice", s,
                                     bits, name);
        ids[s] = p[3] & 0x0Fu;
    }
    uint32_t channels = 0;
    if (etc1s ? !etc1s_channels(ids, samples, &channels) : !uastc_channels(ids[0], &channels))
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 31,
                                 "ktx2: DFD channel ids %u%s%u are not a channel layout of %s",
                                 ids[0], samples > 1 ? ", " : "", samples > 1 ? ids[1] : 0u, name);
    uint32_t pos = 4 + block_size;
    while (pos < len) {
        if (len - pos < 8)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + pos,
                                     "ktx2: DFD ends inside a descriptor block header");
        uint32_t size = kiln_load_u16le(d + pos + 6);
        if (size < 8 || size % 4 != 0 || size > len - pos)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + pos + 6,
                                     "ktx2: DFD descriptor block of %u bytes does not fit", size);
        pos += size;
    }
    out->basis = etc1s ? KILN_KTX2_BASIS_ETC1S : KILN_KTX2_BASIS_UASTC;
    out->basis_channels = channels;
    out->srgb = transfer == KILN_DF_TRANSFER_SRGB;
    out->premultiplied = (d[15] & KILN_DF_FLAG_ALPHA_PREMULTIPLIED) != 0;
    return KILN_OK;
}

uint64_t kiln_ktx2_basislz_image_count(uint32_t levels, uint32_t faces, uint32_t layers,
                                       uint32_t depth)
{
    uint64_t n = 0;
    for (uint32_t l = 0; l < levels; l++)
        n += (uint64_t)faces * (layers ? layers : 1) * (depth ? kiln_mip_extent(depth, l) : 1);
    return n;
}

kiln_result kiln_ktx2_check_basislz(const uint8_t *sgd, uint64_t size, uint64_t at,
                                    const kiln_ktx2_info *info, kiln_error *err)
{
    if (size < KILN_BASISLZ_HEADER_SIZE)
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, 72,
            "ktx2: BasisLZ global data of %llu bytes is shorter than its %u-byte "
            "header",
            (unsigned long long)size, KILN_BASISLZ_HEADER_SIZE);
    uint32_t endpoints = kiln_load_u16le(sgd), selectors = kiln_load_u16le(sgd + 2);
    uint64_t lengths = 0;
    for (int i = 0; i < 4; i++) lengths += kiln_load_u32le(sgd + 4 + 4 * i);
    uint64_t images = kiln_ktx2_basislz_image_count(info->level_count, info->face_count,
                                                    info->layer_count, info->depth);
    /* With layers, faces and depth bounded (2048 * 6 * 2048 * 16 levels) this cannot wrap. */
    uint64_t want = KILN_BASISLZ_HEADER_SIZE + KILN_BASISLZ_IMAGE_DESC_SIZE * images + lengths;
    if (want != size)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 72,
                                 "ktx2: BasisLZ global data is %llu bytes; its header, %llu image "
                                 "descriptors and codebooks make %llu",
                                 (unsigned long long)size, (unsigned long long)images,
                                 (unsigned long long)want);
    if (endpoints == 0 || selectors == 0)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at,
                                 "ktx2: BasisLZ codebooks with %u endpoints and %u selectors",
                                 endpoints, selectors);
    bool alpha = info->basis_channels == KILN_BASIS_CHANNELS_RGBA ||
                 info->basis_channels == KILN_BASIS_CHANNELS_RRRG;
    uint64_t image = 0;
    for (uint32_t l = 0; l < info->level_count; l++) {
        uint32_t n = kiln_ktx2_level_images(info, l);
        uint64_t level_size = info->levels[l].size;
        for (uint32_t k = 0; k < n; k++, image++) {
            uint64_t d_at = KILN_BASISLZ_HEADER_SIZE + KILN_BASISLZ_IMAGE_DESC_SIZE * image;
            const uint8_t *p = sgd + d_at;
            uint32_t flags = kiln_load_u32le(p);
            uint64_t rgb_off = kiln_load_u32le(p + 4), rgb_len = kiln_load_u32le(p + 8);
            uint64_t a_off = kiln_load_u32le(p + 12), a_len = kiln_load_u32le(p + 16);
            if (flags & ~2u)
                return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + d_at,
                                         "ktx2: BasisLZ image %llu has unknown imageFlags 0x%x",
                                         (unsigned long long)image, flags);
            if (rgb_len == 0 || rgb_off + rgb_len > level_size)
                return kiln_error_set_at(
                    err, KILN_E_FORMAT_INVALID, at + d_at + 4,
                    "ktx2: BasisLZ image %llu's RGB slice (%llu bytes at %llu) is not "
                    "inside level %u's %llu bytes",
                    (unsigned long long)image, (unsigned long long)rgb_len,
                    (unsigned long long)rgb_off, l, (unsigned long long)level_size);
            if (alpha ? a_len == 0 || a_off + a_len > level_size : a_len != 0 || a_off != 0)
                return kiln_error_set_at(
                    err, KILN_E_FORMAT_INVALID, at + d_at + 12,
                    alpha ? "ktx2: BasisLZ image %llu's alpha slice (%llu bytes at "
                            "%llu) is not inside level %u's %llu bytes"
                          : "ktx2: BasisLZ image %llu has an alpha slice (%llu bytes "
                            "at %llu) but level %u (%llu bytes) has no alpha channel",
                    (unsigned long long)image, (unsigned long long)a_len, (unsigned long long)a_off,
                    l, (unsigned long long)level_size);
        }
    }
    return KILN_OK;
}

size_t kiln_ktx2_basis_dfd(uint32_t basis, uint32_t channels, bool srgb, bool premultiplied,
                           uint8_t *out)
{
    static const uint8_t uastc_ids[5] = {UASTC_RGB, UASTC_RGBA, UASTC_RRR, UASTC_RRRG, UASTC_RG};
    uint8_t ids[2];
    uint32_t samples;
    bool etc1s = basis == KILN_KTX2_BASIS_ETC1S;
    if (etc1s) {
        switch (channels) {
        case KILN_BASIS_CHANNELS_RGB:
        case KILN_BASIS_CHANNELS_RRR:
            samples = 1;
            ids[0] = channels == KILN_BASIS_CHANNELS_RGB ? ETC1S_RGB : ETC1S_RRR;
            break;
        case KILN_BASIS_CHANNELS_RGBA:
        case KILN_BASIS_CHANNELS_RRRG:
            samples = 2;
            ids[0] = channels == KILN_BASIS_CHANNELS_RGBA ? ETC1S_RGB : ETC1S_RRR;
            ids[1] = channels == KILN_BASIS_CHANNELS_RGBA ? ETC1S_AAA : ETC1S_GGG;
            break;
        default:
            return 0;
        }
    } else if (basis == KILN_KTX2_BASIS_UASTC && channels < sizeof uastc_ids) {
        samples = 1;
        ids[0] = uastc_ids[channels];
    } else {
        return 0;
    }
    size_t block_size = 24 + 16 * (size_t)samples, total = 4 + block_size;
    memset(out, 0, total);
    kiln_store_u32le(out, (uint32_t)total);
    kiln_store_u16le(out + 8, KILN_DF_VERSION);
    kiln_store_u16le(out + 10, (uint16_t)block_size);
    out[12] = (uint8_t)(etc1s ? KILN_DF_MODEL_ETC1S : KILN_DF_MODEL_UASTC);
    out[13] = KILN_DF_PRIMARIES_BT709;
    out[14] = srgb ? KILN_DF_TRANSFER_SRGB : KILN_DF_TRANSFER_LINEAR;
    out[15] = premultiplied ? KILN_DF_FLAG_ALPHA_PREMULTIPLIED : 0;
    out[16] = out[17] = 3; /* 4x4 */
    out[20] = etc1s ? 0 : 16;
    for (uint32_t s = 0; s < samples; s++) {
        uint8_t *p = out + 28 + 16 * s;
        kiln_store_u16le(p, (uint16_t)((etc1s ? 64 : 128) * s));
        p[2] = etc1s ? 63 : 127;
        p[3] = ids[s];
        kiln_store_u32le(p + 12, 0xFFFFFFFFu);
    }
    return total;
}
