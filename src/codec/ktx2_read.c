/* ktx2_read.c — validates and reads KTX 2.0 files held in memory (KTX File Format Specification
 * 2.0: "File Structure", "Index", "Level Index", "Data Format Descriptor", "Key/Value Data",
 * "Mip Level Array"; Khronos Data Format 1.3 basic descriptor). Every header field, offset and
 * length is checked against the file size and against what the vkFormat and dimensions imply,
 * before any of it is used; comparisons subtract first so that no sum can wrap. Part of
 * libkiln_rt: libc, zstd and src/core only. docs/formats.md, "KTX2 textures", says what passes. */
#include <string.h>
#include <zstd.h>

#include "codec/ktx2_basis.h"
#include "codec/vk_format.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

#define HEADER_SIZE      80u /* identifier 12 + header 36 + index 32 */
#define LEVEL_ENTRY_SIZE 24u

/* The basic descriptor must be the one kiln's table gives for the vkFormat (KTX 2.0 "Data
 * Format Descriptor", Restrictions: "texelBlockDimension, bytesPlane and sample information must
 * match the format"), apart from what the spec leaves free: colour primaries (ignored), the
 * premultiplied flag, and bytesPlane all 0 for supercompressed data (what files from before spec
 * revision 2 carry). */
static kiln_result check_dfd(const uint8_t *d, uint32_t len, uint64_t at,
                             const kiln_vk_format_info *f, uint32_t scheme, kiln_ktx2_info *out,
                             kiln_error *err)
{
    if (kiln_load_u32le(d) != len)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at,
                                 "ktx2: DFD dfdTotalSize %u differs from dfdByteLength %u",
                                 kiln_load_u32le(d), len);
    uint32_t w0 = kiln_load_u32le(d + 4);
    if ((w0 & 0x1FFFFu) != 0 || (w0 >> 17) != 0)
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, at + 4,
            "ktx2: the first DFD block is not a Khronos basic descriptor (vendor %u, type %u)",
            w0 & 0x1FFFFu, w0 >> 17);
    uint32_t version = kiln_load_u16le(d + 8);
    uint32_t block_size = kiln_load_u16le(d + 10);
    if (version != KILN_DF_VERSION)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 8,
                                 "ktx2: DFD versionNumber %u, expected %u (Data Format 1.3)",
                                 version, KILN_DF_VERSION);
    if (block_size < 24 || (block_size - 24) % 16 != 0 || block_size > len - 4)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 10,
                                 "ktx2: DFD descriptorBlockSize %u does not fit the %u-byte DFD",
                                 block_size, len);
    uint32_t samples = (block_size - 24) / 16;
    if (d[12] != f->color_model)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 12,
                                 "ktx2: DFD colorModel %u does not match %s (%u)", d[12], f->name,
                                 f->color_model);
    uint8_t transfer = d[14];
    if (f->srgb && transfer != KILN_DF_TRANSFER_SRGB)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 14,
                                 "ktx2: DFD transferFunction %u, but %s needs sRGB (2)", transfer,
                                 f->name);
    if (!f->srgb && transfer != KILN_DF_TRANSFER_LINEAR) {
        /* sRGB transfer on a format that has an sRGB twin contradicts the vkFormat; other
         * transfer functions are legal KTX2 that kiln does not handle. */
        bool contradicts = transfer == KILN_DF_TRANSFER_SRGB && f->twin != 0;
        return kiln_error_set_at(
            err, contradicts ? KILN_E_FORMAT_INVALID : KILN_E_IMPORT_UNSUPPORTED, at + 14,
            "ktx2: DFD transferFunction %u for %s, expected linear (1)", transfer, f->name);
    }
    if (d[15] & ~KILN_DF_FLAG_ALPHA_PREMULTIPLIED)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 15,
                                 "ktx2: DFD flags 0x%02x has reserved bits", d[15]);
    if (d[16] != f->block_width - 1 || d[17] != f->block_height - 1 || d[18] != 0 || d[19] != 0)
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, at + 16,
            "ktx2: DFD texelBlockDimension %ux%ux%ux%u does not match %s (%ux%u)", d[16] + 1u,
            d[17] + 1u, d[18] + 1u, d[19] + 1u, f->name, f->block_width, f->block_height);
    bool planes_zero = true, planes_match = d[20] == f->block_size;
    for (int i = 0; i < 8; i++) {
        if (d[20 + i]) planes_zero = false;
        if (i > 0 && d[20 + i]) planes_match = false;
    }
    if (!planes_match && !(planes_zero && scheme != KILN_KTX2_SUPERCOMPRESSION_NONE))
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 20,
                                 "ktx2: DFD bytesPlane0 %u does not match %s (%u bytes a block)",
                                 d[20], f->name, f->block_size);
    if (samples != f->sample_count)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 10,
                                 "ktx2: DFD has %u samples, %s has %u", samples, f->name,
                                 f->sample_count);
    for (uint32_t s = 0; s < samples; s++) {
        const uint8_t *p = d + 28 + 16 * s;
        const kiln_dfd_sample *want = &f->samples[s];
        if (kiln_load_u16le(p) != want->bit_offset || p[2] != want->bit_length ||
            p[3] != want->channel_type || kiln_load_u32le(p + 4) != 0 ||
            kiln_load_u32le(p + 8) != want->lower || kiln_load_u32le(p + 12) != want->upper)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + 28 + 16 * s,
                                     "ktx2: DFD sample %u does not describe %s", s, f->name);
    }
    /* Further descriptor blocks (extensions) are allowed; they only have to be well formed. */
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
    out->srgb = transfer == KILN_DF_TRANSFER_SRGB;
    out->premultiplied = (d[15] & KILN_DF_FLAG_ALPHA_PREMULTIPLIED) != 0;
    return KILN_OK;
}

static bool key_is(const uint8_t *key, size_t key_len, const char *name)
{
    return key_len == strlen(name) && memcmp(key, name, key_len) == 0;
}

/* Key/value pairs: length, NUL-terminated key, value, zero padding to 4; keys strictly
 * increasing by byte value (UTF-8 byte order is code point order), so no duplicates. */
static kiln_result check_kvd(const uint8_t *d, uint32_t len, uint64_t at, bool volume,
                             kiln_ktx2_info *out, kiln_error *err)
{
    const uint8_t *prev_key = NULL;
    size_t prev_len = 0;
    kiln_reader r = kiln_reader_make(d, len);
    while (r.pos < len) {
        size_t entry_at = r.pos;
        uint32_t kv_len = kiln_read_u32le(&r);
        const uint8_t *kv = kiln_reader_take(&r, kv_len);
        if (!kv)
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, at + entry_at,
                "ktx2: key/value entry of %u bytes runs past the key/value data", kv_len);
        if (kv_len < 2)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + entry_at,
                                     "ktx2: key/value entry of %u bytes (at least 2)", kv_len);
        const uint8_t *nul = memchr(kv, 0, kv_len);
        if (!nul)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + entry_at + 4,
                                     "ktx2: key/value entry's key is not NUL-terminated");
        size_t key_len = (size_t)(nul - kv);
        if (key_len == 0)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + entry_at + 4,
                                     "ktx2: key/value entry has an empty key");
        if (prev_key) {
            size_t n = key_len < prev_len ? key_len : prev_len;
            int c = memcmp(prev_key, kv, n);
            if (c > 0 || (c == 0 && prev_len >= key_len))
                return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + entry_at + 4,
                                         "ktx2: key \"%.*s\" is out of order or repeated",
                                         (int)key_len, (const char *)kv);
        }
        prev_key = kv;
        prev_len = key_len;
        size_t pad = (4 - kv_len % 4) % 4;
        const uint8_t *padding = kiln_reader_take(&r, pad);
        if (!padding)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + r.size,
                                     "ktx2: key/value data ends inside the padding of \"%.*s\"",
                                     (int)key_len, (const char *)kv);
        for (size_t i = 0; i < pad; i++)
            if (padding[i])
                return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, at + r.pos - pad + i,
                                         "ktx2: key/value padding is not zero");

        const uint8_t *value = nul + 1;
        size_t value_len = kv_len - key_len - 1;
        if (key_is(kv, key_len, "KTXorientation")) {
            /* 2D: /^[rl][du]$/, 3D: /^[rl][du][oi]$/, the NUL terminator optional. */
            size_t n = value_len > 0 && value[value_len - 1] == 0 ? value_len - 1 : value_len;
            size_t want_n = volume ? 3 : 2;
            if (n != want_n || (value[0] != 'r' && value[0] != 'l') ||
                (value[1] != 'd' && value[1] != 'u') ||
                (volume && value[2] != 'o' && value[2] != 'i'))
                return kiln_error_set_at(
                    err, KILN_E_FORMAT_INVALID, at + entry_at + 4 + key_len + 1,
                    volume ? "ktx2: KTXorientation of a 3D texture is not [rl][du][oi]"
                           : "ktx2: KTXorientation is not one of rd, ru, ld, lu");
            memcpy(out->orientation, value, want_n);
            out->orientation[want_n] = '\0';
        } else if (key_is(kv, key_len, "KTXwriter")) {
            /* Readers must not rely on the NUL; keep what fits. */
            size_t n = 0;
            while (n < value_len && value[n] && n < sizeof out->writer - 1) n++;
            memcpy(out->writer, value, n);
            out->writer[n] = '\0';
        }
    }
    return KILN_OK;
}

KILN_API kiln_result kiln_ktx2_read(const void *data, size_t size, kiln_ktx2_info *out,
                                    kiln_error *err)
{
    if (!out || (!data && size))
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: kiln_ktx2_read needs data and an info");
    memset(out, 0, sizeof *out);
    const uint8_t *b = data;
    if (size < HEADER_SIZE)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, size,
                                 "ktx2: %zu bytes is shorter than the 80-byte KTX2 header", size);
    for (size_t i = 0; i < sizeof kiln_ktx2_identifier; i++)
        if (b[i] != kiln_ktx2_identifier[i])
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, i,
                                     "ktx2: not a KTX 2.0 file (identifier)");

    kiln_reader r = kiln_reader_make(data, size);
    kiln_reader_seek(&r, 12);
    uint32_t vk_format = kiln_read_u32le(&r), type_size = kiln_read_u32le(&r);
    uint32_t width = kiln_read_u32le(&r), height = kiln_read_u32le(&r);
    uint32_t depth = kiln_read_u32le(&r), layers = kiln_read_u32le(&r);
    uint32_t faces = kiln_read_u32le(&r), level_count = kiln_read_u32le(&r);
    uint32_t scheme = kiln_read_u32le(&r);
    uint32_t dfd_off = kiln_read_u32le(&r), dfd_len = kiln_read_u32le(&r);
    uint32_t kvd_off = kiln_read_u32le(&r), kvd_len = kiln_read_u32le(&r);
    uint64_t sgd_off = kiln_read_u64le(&r), sgd_len = kiln_read_u64le(&r);
    if (KILN_NEVER(r.failed)) /* size >= 80 was checked */
        return kiln_error_set_at(err, KILN_E_INTERNAL, 12, "ktx2: header read failed");

    /* vkFormat 0 is a Basis Universal texture (or one kiln does not read): its DFD says which
     * format, and until that is read the ETC1S shape stands in (4x4 blocks, typeSize 1). */
    bool basis = vk_format == KILN_VK_FORMAT_UNDEFINED;
    const kiln_vk_format_info *f = basis ? &kiln_ktx2_etc1s_shape : kiln_vk_format_find(vk_format);
    if (!f)
        return kiln_error_set_at(err, KILN_E_IMPORT_UNSUPPORTED, 12,
                                 "ktx2: vkFormat %u is not one kiln reads", vk_format);
    if (type_size != f->type_size)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 16, "ktx2: typeSize %u, %s needs %u",
                                 type_size, f->name, f->type_size);
    if (width == 0)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 20, "ktx2: pixelWidth is 0");
    if (height == 0) /* 1D textures are legal for texel formats, not for block formats. */
        return kiln_error_set_at(
            err, f->block_height > 1 ? KILN_E_FORMAT_INVALID : KILN_E_IMPORT_UNSUPPORTED, 24,
            "ktx2: pixelHeight is 0 (1D texture)");
    if (width > KILN_KTX2_MAX_DIM || height > KILN_KTX2_MAX_DIM)
        return kiln_error_set_at(err, KILN_E_LIMIT, width > KILN_KTX2_MAX_DIM ? 20 : 24,
                                 "ktx2: %ux%u is larger than kiln's limit of %u", width, height,
                                 KILN_KTX2_MAX_DIM);
    if (faces != 1 && faces != 6)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 36,
                                 "ktx2: faceCount %u (1, or 6 for a cube)", faces);
    if (faces == 6 && (width != height || depth != 0))
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, 36,
            "ktx2: a cube's faces must be square and 2D (%ux%u, pixelDepth %u)", width, height,
            depth);
    if (depth != 0 && layers != 0)
        return kiln_error_set_at(err, KILN_E_IMPORT_UNSUPPORTED, 32,
                                 "ktx2: arrays of 3D textures are not supported (Vulkan has none)");
    if (depth > KILN_KTX2_MAX_DEPTH)
        return kiln_error_set_at(err, KILN_E_LIMIT, 28,
                                 "ktx2: pixelDepth %u is past kiln's limit of %u", depth,
                                 KILN_KTX2_MAX_DEPTH);
    if (layers > KILN_KTX2_MAX_LAYERS)
        return kiln_error_set_at(err, KILN_E_LIMIT, 32,
                                 "ktx2: layerCount %u is past kiln's limit of %u", layers,
                                 KILN_KTX2_MAX_LAYERS);
    uint32_t max_levels = kiln_mip_level_count(width, height > depth ? height : depth);
    if (level_count == 0)
        /* 0 asks the loader to generate mips: forbidden for block formats, unsupported here. */
        return kiln_error_set_at(
            err, f->block_width > 1 ? KILN_E_FORMAT_INVALID : KILN_E_IMPORT_UNSUPPORTED, 40,
            "ktx2: levelCount 0 (generate mipmaps) is not supported");
    if (level_count > max_levels || level_count > KILN_KTX2_MAX_LEVELS)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 40,
                                 "ktx2: levelCount %u, a %ux%ux%u texture has at most %u levels",
                                 level_count, width, height, depth ? depth : 1, max_levels);
    bool basislz = scheme == KILN_KTX2_SUPERCOMPRESSION_BASISLZ;
    if (scheme != KILN_KTX2_SUPERCOMPRESSION_NONE && scheme != KILN_KTX2_SUPERCOMPRESSION_ZSTD &&
        !(basislz && basis)) {
        bool known = scheme == 1 || scheme == 3 || (scheme >= 0x10000 && scheme <= 0x1FFFF);
        return kiln_error_set_at(err, known ? KILN_E_IMPORT_UNSUPPORTED : KILN_E_FORMAT_INVALID, 44,
                                 "ktx2: supercompressionScheme %u is %s", scheme,
                                 basislz ? "BasisLZ, which only an ETC1S texture (vkFormat 0) uses"
                                 : known ? "not supported (only none, BasisLZ and Zstandard)"
                                         : "reserved");
    }
    /* Only BasisLZ has global data (8-byte aligned, after the DFD and key/values, before the
     * levels); offset 0 goes with length 0. */
    if (!basislz && (sgd_off != 0 || sgd_len != 0))
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, sgd_len != 0 ? 72 : 64,
                                 "ktx2: supercompression global data must be empty for scheme %u",
                                 scheme);
    if (basislz && (sgd_len == 0 || sgd_off % 8 != 0))
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, sgd_len == 0 ? 72 : 64,
                                 sgd_len == 0 ? "ktx2: BasisLZ needs supercompression global data"
                                              : "ktx2: sgdByteOffset %llu is not a multiple of 8",
                                 (unsigned long long)sgd_off);

    uint64_t index_end = HEADER_SIZE + (uint64_t)LEVEL_ENTRY_SIZE * level_count;
    if (index_end > size)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, size,
                                 "ktx2: the level index (%u levels) runs past the end of the file",
                                 level_count);
    if (dfd_off < index_end)
        return kiln_error_set_at(
            err, KILN_E_FORMAT_INVALID, 48,
            "ktx2: dfdByteOffset %u overlaps the header or level index (ends at %llu)", dfd_off,
            (unsigned long long)index_end);
    if (dfd_off % 4 != 0 || dfd_len % 4 != 0)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, dfd_off % 4 ? 48 : 52,
                                 "ktx2: DFD offset %u or length %u is not a multiple of 4", dfd_off,
                                 dfd_len);
    if (dfd_len < 4 + 24)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 52,
                                 "ktx2: dfdByteLength %u is too short", dfd_len);
    if (dfd_off > size || dfd_len > size - dfd_off)
        return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 48,
                                 "ktx2: DFD at %u, %u bytes, runs past the end of the file",
                                 dfd_off, dfd_len);
    uint64_t dfd_end = (uint64_t)dfd_off + dfd_len;
    uint64_t data_start = dfd_end;
    if (kvd_len == 0) {
        if (kvd_off != 0)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, 56,
                                     "ktx2: kvdByteOffset %u must be 0 when kvdByteLength is 0",
                                     kvd_off);
    } else {
        /* dfdTotalSize == kvdByteOffset - dfdByteOffset, or the file is invalid (spec,
         * "dfdTotalSize"). */
        if (kvd_off != dfd_end)
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, 56,
                "ktx2: kvdByteOffset %u does not follow the DFD (ends at %llu)", kvd_off,
                (unsigned long long)dfd_end);
        if (kvd_len > size - kvd_off) /* kvd_off == dfd_end <= size */
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, 60,
                "ktx2: key/value data of %u bytes runs past the end of the file", kvd_len);
        data_start = (uint64_t)kvd_off + kvd_len;
    }

    if (basislz) {
        if (sgd_off < data_start || sgd_off > size || sgd_len > size - sgd_off)
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, 64,
                "ktx2: supercompression global data (%llu bytes at %llu) is not "
                "between the key/value data (ends at %llu) and the end of the file",
                (unsigned long long)sgd_len, (unsigned long long)sgd_off,
                (unsigned long long)data_start);
        data_start = sgd_off + sgd_len;
    }

    kiln_result res =
        basis ? kiln_ktx2_check_basis_dfd(b + dfd_off, dfd_len, dfd_off, scheme, out, err)
              : check_dfd(b + dfd_off, dfd_len, dfd_off, f, scheme, out, err);
    if (res != KILN_OK) return res;
    if (basis)
        f = out->basis == KILN_KTX2_BASIS_UASTC ? &kiln_ktx2_uastc_shape : &kiln_ktx2_etc1s_shape;
    if (kvd_len &&
        (res = check_kvd(b + kvd_off, kvd_len, kvd_off, depth != 0, out, err)) != KILN_OK)
        return res;

    /* Levels are stored smallest first: walk them in file order so each must start at or after
     * the end of the one before, which rules out overlap with each other and with the DFD/KVD. */
    uint32_t align = scheme == KILN_KTX2_SUPERCOMPRESSION_NONE ? kiln_vk_format_level_align(f) : 1;
    uint64_t prev_end = data_start;
    for (uint32_t i = level_count; i-- > 0;) {
        uint64_t entry = HEADER_SIZE + (uint64_t)LEVEL_ENTRY_SIZE * i;
        kiln_reader_seek(&r, (size_t)entry);
        uint64_t off = kiln_read_u64le(&r), len = kiln_read_u64le(&r);
        uint64_t raw = kiln_read_u64le(&r);
        if (KILN_NEVER(r.failed)) /* index_end <= size was checked */
            return kiln_error_set_at(err, KILN_E_INTERNAL, entry, "ktx2: level index read failed");
        uint32_t lw = kiln_mip_extent(width, i), lh = kiln_mip_extent(height, i);
        uint32_t ld = depth ? kiln_mip_extent(depth, i) : 1;
        uint64_t image, want;
        if (!kiln_vk_format_image_size(f, lw, lh, &image) || image > SIZE_MAX)
            return kiln_error_set_at(err, KILN_E_LIMIT, entry + 16, "ktx2: level %u is too large",
                                     i);
        /* At most 2^34 bytes an image times 2048 * 6 images: no uint64 overflow. */
        want = image * (layers ? layers : 1) * faces * ld;
        if (want > SIZE_MAX)
            return kiln_error_set_at(err, KILN_E_LIMIT, entry + 16, "ktx2: level %u is too large",
                                     i);
        /* BasisLZ levels have no fixed size: uncompressedByteLength is 0 (KTX 2.0 "Level
         * Index"); the global data's slice descriptors are checked against byteLength below. */
        if (basislz ? raw != 0 : raw != want)
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, entry + 16,
                "ktx2: level %u uncompressedByteLength %llu, %ux%ux%u %s needs %llu", i,
                (unsigned long long)raw, lw, lh, ld, f->name,
                (unsigned long long)(basislz ? 0 : want));
        if (scheme == KILN_KTX2_SUPERCOMPRESSION_NONE && len != want)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, entry + 8,
                                     "ktx2: level %u byteLength %llu, %ux%ux%u %s needs %llu", i,
                                     (unsigned long long)len, lw, lh, ld, f->name,
                                     (unsigned long long)want);
        if (len == 0)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, entry + 8,
                                     "ktx2: level %u is empty", i);
        if (off % align != 0)
            return kiln_error_set_at(err, KILN_E_FORMAT_INVALID, entry,
                                     "ktx2: level %u byteOffset %llu is not a multiple of %u", i,
                                     (unsigned long long)off, align);
        if (off < prev_end)
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, entry,
                "ktx2: level %u byteOffset %llu overlaps what precedes it (ends at %llu)", i,
                (unsigned long long)off, (unsigned long long)prev_end);
        if (off > size || len > size - off)
            return kiln_error_set_at(
                err, KILN_E_FORMAT_INVALID, entry,
                "ktx2: level %u (%llu bytes at %llu) is past the end of the file", i,
                (unsigned long long)len, (unsigned long long)off);
        prev_end = off + len; /* <= size */
        out->levels[i].data = b + off;
        out->levels[i].size = (size_t)len;
        out->levels[i].uncompressed_size = (size_t)raw;
        out->levels[i].width = lw;
        out->levels[i].height = lh;
        out->levels[i].depth = ld;
        out->levels[i].image_size = (size_t)image;
    }

    out->vk_format = vk_format;
    out->type_size = type_size;
    out->width = width;
    out->height = height;
    out->level_count = level_count;
    out->shape = faces == 6 ? (layers ? KILN_TEXTURE_SHAPE_CUBE_ARRAY : KILN_TEXTURE_SHAPE_CUBE)
                 : depth    ? KILN_TEXTURE_SHAPE_VOLUME
                 : layers   ? KILN_TEXTURE_SHAPE_ARRAY
                            : KILN_TEXTURE_SHAPE_2D;
    out->face_count = faces;
    out->layer_count = layers ? layers : 1;
    out->depth = depth ? depth : 1;
    out->supercompression = scheme;
    out->block_width = f->block_width;
    out->block_height = f->block_height;
    out->block_size = f->block_size;
    out->kv_data = kvd_len ? b + kvd_off : NULL;
    out->kv_size = kvd_len;
    if (basislz) {
        res = kiln_ktx2_check_basislz(b + sgd_off, sgd_len, sgd_off, out, err);
        if (res != KILN_OK) return res;
        out->sgd = b + sgd_off;
        out->sgd_size = (size_t)sgd_len;
    }
    kiln_error_clear(err);
    return KILN_OK;
}

KILN_API kiln_result kiln_ktx2_level_copy(const kiln_ktx2_info *info, uint32_t level, void *dst,
                                          size_t dst_size, kiln_error *err)
{
    if (!info || level >= info->level_count || level >= KILN_KTX2_MAX_LEVELS)
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: level %u does not exist", level);
    const kiln_ktx2_level *lv = &info->levels[level];
    if (dst_size < lv->uncompressed_size || !dst || !lv->data)
        return kiln_error_set(err, KILN_E_USAGE,
                              "ktx2: level %u needs %zu bytes, the destination has %zu", level,
                              lv->uncompressed_size, dst ? dst_size : 0);
    if (info->supercompression == KILN_KTX2_SUPERCOMPRESSION_BASISLZ)
        return kiln_error_set(err, KILN_E_USAGE,
                              "ktx2: level %u is ETC1S in BasisLZ: kiln_basis_transcode reads it",
                              level);
    if (info->supercompression == KILN_KTX2_SUPERCOMPRESSION_NONE) {
        if (KILN_NEVER(lv->size != lv->uncompressed_size))
            return kiln_error_set(err, KILN_E_FORMAT_INVALID, "ktx2: level %u size mismatch",
                                  level);
        memcpy(dst, lv->data, lv->size);
    } else if (info->supercompression == KILN_KTX2_SUPERCOMPRESSION_ZSTD) {
        /* The frame must declare exactly the size the level index promises, and inflate to it:
         * no trusting either number alone. */
        unsigned long long declared = ZSTD_getFrameContentSize(lv->data, lv->size);
        if (declared == ZSTD_CONTENTSIZE_ERROR)
            return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                                  "ktx2: level %u is not a Zstandard frame", level);
        if (declared == ZSTD_CONTENTSIZE_UNKNOWN)
            return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                                  "ktx2: level %u's Zstandard frame does not record its size",
                                  level);
        if (declared != lv->uncompressed_size)
            return kiln_error_set(
                err, KILN_E_FORMAT_INVALID,
                "ktx2: level %u's Zstandard frame holds %llu bytes, the index says %zu", level,
                declared, lv->uncompressed_size);
        size_t got = ZSTD_decompress(dst, lv->uncompressed_size, lv->data, lv->size);
        if (ZSTD_isError(got))
            return kiln_error_set(err, KILN_E_FORMAT_INVALID, "ktx2: level %u: zstd: %s", level,
                                  ZSTD_getErrorName(got));
        if (got != lv->uncompressed_size)
            return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                                  "ktx2: level %u inflated to %zu bytes, expected %zu", level, got,
                                  lv->uncompressed_size);
    } else {
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: supercompression scheme %u unknown",
                              info->supercompression);
    }
    kiln_error_clear(err);
    return KILN_OK;
}

KILN_API uint32_t kiln_ktx2_level_images(const kiln_ktx2_info *info, uint32_t level)
{
    if (!info || level >= info->level_count || level >= KILN_KTX2_MAX_LEVELS) return 0;
    return info->face_count * info->layer_count * info->levels[level].depth;
}

KILN_API bool kiln_ktx2_find_key(const kiln_ktx2_info *info, const char *key, const uint8_t **value,
                                 size_t *len)
{
    return info && kiln_ktx2_kv_find(info->kv_data, info->kv_size, key, value, len);
}

KILN_API bool kiln_ktx2_kv_find(const uint8_t *kv_data, size_t kv_size, const char *key,
                                const uint8_t **value, size_t *len)
{
    if (!kv_data || !key) return false;
    /* Every read is bounds-checked; kiln_ktx2_read also validated the entries. */
    kiln_reader r = kiln_reader_make(kv_data, kv_size);
    size_t key_len = strlen(key);
    while (r.pos < kv_size) {
        uint32_t kv_len = kiln_read_u32le(&r);
        const uint8_t *kv = kiln_reader_take(&r, kv_len);
        if (!kv || r.failed) return false;
        const uint8_t *nul = memchr(kv, 0, kv_len);
        if (!nul) return false;
        if ((size_t)(nul - kv) == key_len && memcmp(kv, key, key_len) == 0) {
            if (value) *value = nul + 1;
            if (len) *len = kv_len - key_len - 1;
            return true;
        }
        if (!kiln_reader_take(&r, (4 - kv_len % 4) % 4)) return false;
    }
    return false;
}

KILN_API const char *kiln_texture_shape_name(uint32_t shape)
{
    static const char *const names[KILN_TEXTURE_SHAPE_COUNT] = {"2d", "cube", "array", "volume",
                                                                "cube_array"};
    return shape < KILN_TEXTURE_SHAPE_COUNT ? names[shape] : "invalid";
}
