/* ktx2_write.h — kiln's KTX 2.0 writer (cook side). The byte layout it produces is laid out in
 * docs/formats.md, "KTX2 textures"; kiln_ktx2_read in kiln_format.h reads it back. */
#ifndef KILN_WRITE_KTX2_WRITE_H
#define KILN_WRITE_KTX2_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "kiln/kiln_format.h"

/* Zstandard level used when the desc leaves zstd_level at 0. 19 is the highest level that is
 * not "ultra" (no large-window memory demands on the decoder); cooking is done once and cached,
 * decoding speed barely depends on the level, so spend cook time for smaller files. Output is
 * deterministic for a given libzstd version (single-threaded, no dictionary, fixed params). */
#define KILN_KTX2_ZSTD_LEVEL 19

/* One mip level's bytes, tightly packed blocks (or texels) in row order. */
typedef struct kiln_ktx2_write_level {
    const void *data;
    size_t size; /* must equal what the format and this level's extent imply */
} kiln_ktx2_write_level;

/* A key/value pair of the file's own, after the two kiln always writes. */
typedef struct kiln_ktx2_write_kv {
    const char *key; /* NUL-terminated; sorts after "KTXwriter" (so: starts with a lower-case
                        letter, e.g. "kiln.sh9"), keys strictly increasing by byte value */
    const void *value;
    size_t size;
} kiln_ktx2_write_kv;

typedef struct kiln_ktx2_write_desc {
    uint32_t vk_format;     /* a kiln_vk_format other than UNDEFINED; UNDEFINED with basis */
    uint32_t width, height; /* level 0 texels, 1..32768 each */
    uint32_t shape;         /* kiln_texture_shape; 0 = 2D (the zeroed desc) */
    uint32_t layer_count;   /* arrays and cube arrays: 1..KILN_KTX2_MAX_LAYERS; else ignored */
    uint32_t depth;         /* volumes: level 0 slices, 1..KILN_KTX2_MAX_DEPTH; else ignored */
    uint32_t level_count;   /* 1..floor(log2(max(width, height, depth))) + 1 */
    /* level 0 (largest) first; each holds its layers, faces and slices in KTX2 order (layer by
       layer, face by face, slice by slice) */
    kiln_ktx2_write_level levels[KILN_KTX2_MAX_LEVELS];
    const kiln_ktx2_write_kv *kv; /* kv_count extra key/value pairs; may be NULL */
    size_t kv_count;
    uint32_t supercompression; /* kiln_ktx2_supercompression: NONE or ZSTD */
    int zstd_level;            /* 0 = KILN_KTX2_ZSTD_LEVEL; else 1..ZSTD_maxCLevel() */
    bool premultiplied;        /* sets KHR_DF_FLAG_ALPHA_PREMULTIPLIED in the DFD */
    /* A Basis Universal texture (vk_format UNDEFINED): kiln_ktx2_basis, its channels
     * (kiln_basis_channels) and its transfer function. UASTC levels are its 16-byte blocks (NONE
     * or ZSTD); ETC1S levels are BasisLZ slices of any size, supercompression BASISLZ, with the
     * global data in sgd (its image descriptors' offsets count from each level's first byte):
     * docs/basis.md. */
    uint32_t basis;
    uint32_t basis_channels;
    bool srgb;
    const void *sgd;
    size_t sgd_size;
} kiln_ktx2_write_desc;

/* Images in level `level` of desc's shape: 1, 6 (a cube), layer_count (an array), 6 x layer_count
 * (a cube array) or the level's slices (a volume); each level's size must be that many images. */
uint64_t kiln_ktx2_write_images(const kiln_ktx2_write_desc *desc, uint32_t level);

/* Writes a complete KTX2 file for desc into out, which must be empty (kiln_buf_init'ed; file
 * offsets start at its first byte). The same desc and libzstd give the same bytes: no
 * timestamps; key/value data is KTXorientation ("rd", "rdi" for volumes: first texel top-left,
 * rows going down, slices going in) and KTXwriter "kiln <x.y.z> pipeline <n>", then desc->kv.
 * desc and its level data are only read during the call. On failure out may hold partial data;
 * free it with kiln_buf_free either way. Errors: KILN_E_USAGE (desc invalid: unknown format,
 * zero or too large dimensions, layers or depth, a cube with faces that are not square, too many
 * levels, a level size that does not match, extra keys out of order),
 * KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (zstd failed). */
kiln_result kiln_ktx2_write(const kiln_ktx2_write_desc *desc, kiln_buf *out, kiln_error *err);

/* The KTXwriter value kiln writes, e.g. "kiln 0.1.0 pipeline 1" (a string literal). */
const char *kiln_ktx2_writer_name(void);

#endif
