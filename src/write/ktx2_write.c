/* ktx2_write.c — writes KTX 2.0 files (KTX File Format Specification 2.0, "File Structure"):
 * identifier, header, index, level index, one basic DFD, sorted key/value data, BasisLZ global
 * data for ETC1S (none otherwise), then the mip levels smallest first, each aligned to lcm(texel
 * block size, 4) when not supercompressed, or Zstandard-compressed one level at a time (scheme 2,
 * alignment 1). The layout (section order, padding) matches what ktx-parse and libktx write, so
 * tools that rewrite a file byte for byte reproduce ours; docs/formats.md lays out every byte. */
#include "write/ktx2_write.h"

#include <string.h>
#include <zstd.h>

#include "codec/ktx2_basis.h"
#include "codec/vk_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"

#define STR2(x) #x
#define STR(x)  STR2(x)
#define WRITER_NAME                                                                                \
    "kiln " STR(KILN_VERSION_MAJOR) "." STR(KILN_VERSION_MINOR) "." STR(                           \
        KILN_VERSION_PATCH) " pipeline " STR(KILN_PIPELINE_VERSION)

/* The key/value pairs kiln always writes, already in the order the spec demands (by key bytes):
 * "KTXo" < "KTXw". KTXorientation: first texel top-left, rows going down (slices going in for
 * volumes): how kiln stores images. */
static const char k_writer[] = WRITER_NAME;

const char *kiln_ktx2_writer_name(void) { return WRITER_NAME; }

uint64_t kiln_ktx2_write_images(const kiln_ktx2_write_desc *d, uint32_t i)
{
    switch (d->shape) {
    case KILN_TEXTURE_SHAPE_CUBE:
        return 6;
    case KILN_TEXTURE_SHAPE_ARRAY:
        return d->layer_count;
    case KILN_TEXTURE_SHAPE_CUBE_ARRAY:
        return 6ull * d->layer_count;
    case KILN_TEXTURE_SHAPE_VOLUME:
        return kiln_mip_extent(d->depth, i);
    default:
        return 1;
    }
}

static kiln_result validate(const kiln_ktx2_write_desc *d, const kiln_vk_format_info **fmt_out,
                            kiln_error *err)
{
    bool basis = d->basis != KILN_KTX2_BASIS_NONE, etc1s = d->basis == KILN_KTX2_BASIS_ETC1S;
    const kiln_vk_format_info *f = !basis ? kiln_vk_format_find(d->vk_format)
                                   : d->vk_format != KILN_VK_FORMAT_UNDEFINED ? NULL
                                   : etc1s                             ? &kiln_ktx2_etc1s_shape
                                   : d->basis == KILN_KTX2_BASIS_UASTC ? &kiln_ktx2_uastc_shape
                                                                       : NULL;
    if (!f)
        return kiln_error_set(err, KILN_E_USAGE,
                              "ktx2: vkFormat %u (basis %u) is not one kiln writes", d->vk_format,
                              d->basis);
    uint8_t dfd[KILN_DFD_MAX_SIZE];
    if (basis && !kiln_ktx2_basis_dfd(d->basis, d->basis_channels, d->srgb, false, dfd))
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: channel layout %u is not one of %s",
                              d->basis_channels, etc1s ? "ETC1S's" : "UASTC's");
    if (etc1s != (d->supercompression == KILN_KTX2_SUPERCOMPRESSION_BASISLZ) ||
        etc1s != (d->sgd_size != 0) || (d->sgd_size && !d->sgd))
        return kiln_error_set(err, KILN_E_USAGE,
                              "ktx2: BasisLZ and its global data go with ETC1S, and only with it");
    if (d->width == 0 || d->height == 0 || d->width > KILN_KTX2_MAX_DIM ||
        d->height > KILN_KTX2_MAX_DIM)
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: size %ux%u is outside 1..%u", d->width,
                              d->height, KILN_KTX2_MAX_DIM);
    if (d->shape >= KILN_TEXTURE_SHAPE_COUNT)
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: shape %u is not a kiln_texture_shape",
                              d->shape);
    bool cube = d->shape == KILN_TEXTURE_SHAPE_CUBE || d->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY;
    bool array = d->shape == KILN_TEXTURE_SHAPE_ARRAY || d->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY;
    bool volume = d->shape == KILN_TEXTURE_SHAPE_VOLUME;
    if (cube && d->width != d->height)
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: cube faces of %ux%u are not square",
                              d->width, d->height);
    if (array && (d->layer_count == 0 || d->layer_count > KILN_KTX2_MAX_LAYERS))
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: %u layers is outside 1..%u", d->layer_count,
                              KILN_KTX2_MAX_LAYERS);
    if (volume && (d->depth == 0 || d->depth > KILN_KTX2_MAX_DEPTH))
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: depth %u is outside 1..%u", d->depth,
                              KILN_KTX2_MAX_DEPTH);
    uint32_t depth = volume ? d->depth : 1;
    uint32_t max_levels = kiln_mip_level_count(d->width, d->height > depth ? d->height : depth);
    if (d->level_count == 0 || d->level_count > max_levels || d->level_count > KILN_KTX2_MAX_LEVELS)
        return kiln_error_set(err, KILN_E_USAGE,
                              "ktx2: level count %u is outside 1..%u for a %ux%ux%u texture",
                              d->level_count, max_levels, d->width, d->height, depth);
    if (d->supercompression != KILN_KTX2_SUPERCOMPRESSION_NONE &&
        d->supercompression != KILN_KTX2_SUPERCOMPRESSION_ZSTD && !etc1s)
        return kiln_error_set(err, KILN_E_USAGE,
                              "ktx2: supercompression scheme %u is not one kiln writes",
                              d->supercompression);
    if (d->supercompression == KILN_KTX2_SUPERCOMPRESSION_ZSTD &&
        (d->zstd_level < 0 || d->zstd_level > ZSTD_maxCLevel()))
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: zstd level %d is outside 1..%d",
                              d->zstd_level, ZSTD_maxCLevel());
    for (uint32_t i = 0; i < d->level_count; i++) {
        uint32_t w = kiln_mip_extent(d->width, i), h = kiln_mip_extent(d->height, i);
        uint64_t want;
        if (!kiln_vk_format_image_size(f, w, h, &want) ||
            want > SIZE_MAX / kiln_ktx2_write_images(d, i))
            return kiln_error_set(err, KILN_E_LIMIT, "ktx2: level %u is too large", i);
        want *= kiln_ktx2_write_images(d, i);
        if (etc1s ? d->levels[i].size == 0 : d->levels[i].size != want)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "ktx2: level %u (%ux%u %s, %llu images) has %zu bytes, the "
                                  "format needs %llu",
                                  i, w, h, f->name,
                                  (unsigned long long)kiln_ktx2_write_images(d, i),
                                  d->levels[i].size, (unsigned long long)want);
        if (!d->levels[i].data)
            return kiln_error_set(err, KILN_E_USAGE, "ktx2: level %u has no data", i);
    }
    const char *prev = "KTXwriter";
    for (size_t i = 0; i < d->kv_count; i++) {
        const kiln_ktx2_write_kv *kv = &d->kv[i];
        if (!kv->key || !kv->key[0] || strcmp(prev, kv->key) >= 0 || (!kv->value && kv->size))
            return kiln_error_set(err, KILN_E_USAGE,
                                  "ktx2: key/value pair %zu (\"%s\") is empty or out of order", i,
                                  kv->key ? kv->key : "");
        if (strlen(kv->key) + 1 + kv->size > UINT32_MAX / 2)
            return kiln_error_set(err, KILN_E_LIMIT, "ktx2: value of \"%s\" is too large", kv->key);
        prev = kv->key;
    }
    *fmt_out = f;
    return KILN_OK;
}

/* Compressed level data, kept until the level index (which precedes it) is written. */
typedef struct packed_level {
    uint8_t *data; /* NULL when the level is stored as given */
    size_t size, capacity;
} packed_level;

static kiln_result compress_levels(const kiln_ktx2_write_desc *d, const kiln_allocator *a,
                                   packed_level *packed, kiln_error *err)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (!cctx) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ktx2: no memory for zstd");
    int level = d->zstd_level ? d->zstd_level : KILN_KTX2_ZSTD_LEVEL;
    /* Every parameter pinned so the bytes depend only on the input and libzstd's version: the
     * frame records its content size (the reader checks it), no checksum (the cache hashes the
     * whole file already), one thread. */
    size_t r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 0);
    kiln_result res = KILN_OK;
    if (ZSTD_isError(r)) {
        res =
            kiln_error_set(err, KILN_E_INTERNAL, "ktx2: zstd parameters: %s", ZSTD_getErrorName(r));
    }
    for (uint32_t i = 0; res == KILN_OK && i < d->level_count; i++) {
        size_t cap = ZSTD_compressBound(d->levels[i].size);
        if (ZSTD_isError(cap) || cap == 0) {
            res = kiln_error_set(err, KILN_E_LIMIT, "ktx2: level %u is too large for zstd", i);
            break;
        }
        packed[i].data = kiln_alloc(a, cap);
        if (!packed[i].data) {
            res = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ktx2: no memory for level %u", i);
            break;
        }
        packed[i].capacity = cap;
        r = ZSTD_compress2(cctx, packed[i].data, cap, d->levels[i].data, d->levels[i].size);
        if (ZSTD_isError(r)) {
            res = kiln_error_set(err, KILN_E_INTERNAL, "ktx2: zstd failed on level %u: %s", i,
                                 ZSTD_getErrorName(r));
            break;
        }
        packed[i].size = r;
    }
    ZSTD_freeCCtx(cctx);
    return res;
}

kiln_result kiln_ktx2_write(const kiln_ktx2_write_desc *d, kiln_buf *out, kiln_error *err)
{
    if (!d || !out)
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: kiln_ktx2_write needs a desc and a buffer");
    if (out->size != 0)
        return kiln_error_set(err, KILN_E_USAGE, "ktx2: the output buffer must start empty");
    const kiln_vk_format_info *f = NULL;
    kiln_result res = validate(d, &f, err);
    if (res != KILN_OK) return res;

    bool zstd = d->supercompression == KILN_KTX2_SUPERCOMPRESSION_ZSTD;
    packed_level packed[KILN_KTX2_MAX_LEVELS];
    memset(packed, 0, sizeof packed);
    if (zstd && (res = compress_levels(d, out->alloc, packed, err)) != KILN_OK) goto done;

    /* Everything before the level data has a fixed size, so the offsets are known up front. */
    uint8_t dfd[KILN_DFD_MAX_SIZE];
    bool basis = d->basis != KILN_KTX2_BASIS_NONE;
    size_t dfd_size =
        basis ? kiln_ktx2_basis_dfd(d->basis, d->basis_channels, d->srgb, d->premultiplied, dfd)
              : kiln_vk_format_dfd(f, d->premultiplied, dfd);
    const char *orientation = d->shape == KILN_TEXTURE_SHAPE_VOLUME ? "rdi" : "rd";
    kiln_ktx2_write_kv fixed[2] = {{"KTXorientation", orientation, strlen(orientation) + 1},
                                   {"KTXwriter", k_writer, sizeof k_writer}};
    size_t kvd_size = 0;
    for (size_t i = 0; i < 2 + d->kv_count; i++) {
        const kiln_ktx2_write_kv *kv = i < 2 ? &fixed[i] : &d->kv[i - 2];
        size_t kv_len = strlen(kv->key) + 1 + kv->size;
        kvd_size += 4 + kv_len + (4 - kv_len % 4) % 4;
    }
    size_t level_index_at = 12 + 36 + 32;
    size_t dfd_at = level_index_at + 24 * (size_t)d->level_count;
    size_t kvd_at = dfd_at + dfd_size;
    /* BasisLZ global data follows the key/values at an 8-byte boundary; none otherwise. */
    size_t sgd_at = d->sgd_size ? (kvd_at + kvd_size + 7) & ~(size_t)7 : 0;
    size_t data_at = d->sgd_size ? sgd_at + d->sgd_size : kvd_at + kvd_size;
    size_t align = zstd || d->sgd_size ? 1 : kiln_vk_format_level_align(f);

    /* Level offsets: smallest level first, each after mipPadding up to `align`. */
    uint64_t offsets[KILN_KTX2_MAX_LEVELS], stored[KILN_KTX2_MAX_LEVELS];
    uint64_t at = data_at;
    for (uint32_t i = d->level_count; i-- > 0;) {
        at += (align - at % align) % align;
        offsets[i] = at;
        stored[i] = zstd ? packed[i].size : d->levels[i].size;
        at += stored[i];
    }
    if (at > SIZE_MAX) {
        res = kiln_error_set(err, KILN_E_LIMIT, "ktx2: the file would be too large");
        goto done;
    }
    kiln_buf_reserve(out, (size_t)at);

    kiln_buf_append(out, kiln_ktx2_identifier, sizeof kiln_ktx2_identifier);
    kiln_buf_append_u32le(out, f->vk_format);
    kiln_buf_append_u32le(out, f->type_size);
    kiln_buf_append_u32le(out, d->width);
    kiln_buf_append_u32le(out, d->height);
    bool cube = d->shape == KILN_TEXTURE_SHAPE_CUBE || d->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY;
    bool array = d->shape == KILN_TEXTURE_SHAPE_ARRAY || d->shape == KILN_TEXTURE_SHAPE_CUBE_ARRAY;
    kiln_buf_append_u32le(out, d->shape == KILN_TEXTURE_SHAPE_VOLUME ? d->depth : 0); /* 0: 2D */
    kiln_buf_append_u32le(out, array ? d->layer_count : 0); /* layerCount: 0, not an array */
    kiln_buf_append_u32le(out, cube ? 6 : 1);               /* faceCount */
    kiln_buf_append_u32le(out, d->level_count);
    kiln_buf_append_u32le(out, d->supercompression);
    kiln_buf_append_u32le(out, (uint32_t)dfd_at);
    kiln_buf_append_u32le(out, (uint32_t)dfd_size);
    kiln_buf_append_u32le(out, (uint32_t)kvd_at);
    kiln_buf_append_u32le(out, (uint32_t)kvd_size);
    kiln_buf_append_u64le(out, sgd_at); /* 0 when there is no global data */
    kiln_buf_append_u64le(out, d->sgd_size);
    for (uint32_t i = 0; i < d->level_count; i++) {
        kiln_buf_append_u64le(out, offsets[i]);
        kiln_buf_append_u64le(out, stored[i]);
        /* uncompressedByteLength: 0 for BasisLZ, whose levels have no fixed size */
        kiln_buf_append_u64le(out, d->sgd_size ? 0 : d->levels[i].size);
    }
    kiln_buf_append(out, dfd, dfd_size);
    for (size_t i = 0; i < 2 + d->kv_count; i++) {
        const kiln_ktx2_write_kv *kv = i < 2 ? &fixed[i] : &d->kv[i - 2];
        size_t klen = strlen(kv->key);
        kiln_buf_append_u32le(out, (uint32_t)(klen + 1 + kv->size));
        kiln_buf_append(out, kv->key, klen + 1);                 /* with the key's NUL */
        if (kv->size) kiln_buf_append(out, kv->value, kv->size); /* strings keep their NUL */
        kiln_buf_align(out, 4);
    }
    if (d->sgd_size) {
        kiln_buf_align(out, 8);
        kiln_buf_append(out, d->sgd, d->sgd_size);
    }
    for (uint32_t i = d->level_count; i-- > 0;) {
        kiln_buf_align(out, align);
        if (zstd) kiln_buf_append(out, packed[i].data, packed[i].size);
        else kiln_buf_append(out, d->levels[i].data, d->levels[i].size);
    }
    if (out->failed) {
        res = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "ktx2: no memory for the file");
    } else if (KILN_NEVER(out->size != at)) {
        res = kiln_error_set(err, KILN_E_INTERNAL, "ktx2: wrote %zu bytes, planned %llu", out->size,
                             (unsigned long long)at);
    } else if (d->sgd_size) {
        /* The global data's descriptors must fit the levels given: the reader says whether. */
        kiln_ktx2_info back;
        kiln_error why;
        if (kiln_ktx2_read(out->data, out->size, &back, &why) != KILN_OK)
            res = kiln_error_set(err, KILN_E_USAGE, "ktx2: the BasisLZ data given do not hold: %s",
                                 why.message);
    }

done:
    for (uint32_t i = 0; i < KILN_KTX2_MAX_LEVELS; i++)
        kiln_free(out->alloc, packed[i].data, packed[i].capacity);
    return res;
}
