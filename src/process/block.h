/* block.h — the cook's encoder of every texture format (bound by id to the rows of
 * codec/texture_format.h), and the block driver: encoding an RGBA8 level into blocks on the job
 * pool, and decoding blocks back to RGBA8. Partial blocks at the right and bottom edges are
 * padded with copies of the edge texels (clamp), so no invented colour leaks into a block.
 * Output bytes never depend on the number of threads: each block is encoded on its own. */
#ifndef KILN_PROCESS_BLOCK_H
#define KILN_PROCESS_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/texture_format.h"
#include "core/jobs.h"
#include "kiln/kiln_format.h"

/* How hard the encoders search: each level is a step on the speed/quality curve. */
typedef enum kiln_quality {
    KILN_QUALITY_FAST = 0,
    KILN_QUALITY_NORMAL,
    KILN_QUALITY_HIGH
} kiln_quality;

/* The block-compressed rows of the texture format table under the names the block driver's
 * callers (encoder tests, benchmarks, fuzzing) use; kiln_blocks_* take any kiln_texture_format
 * and refuse the rows kiln does not compress. */
typedef kiln_texture_format kiln_block_format;
#define KILN_BLOCK_BC1          KILN_TEXFMT_BC1     /* 8 bytes: opaque RGB, 4-colour mode only */
#define KILN_BLOCK_BC4          KILN_TEXFMT_BC4     /* 8 bytes: one channel (R) */
#define KILN_BLOCK_BC5          KILN_TEXFMT_BC5     /* 16 bytes: two channels (R, G); normal maps */
#define KILN_BLOCK_BC7          KILN_TEXFMT_BC7     /* 16 bytes: RGBA */
#define KILN_BLOCK_ASTC4X4      KILN_TEXFMT_ASTC4X4 /* 16 bytes: RGBA, through libastcenc */
#define KILN_BLOCK_BC6H         KILN_TEXFMT_BC6H    /* 16 bytes: RGB unsigned half floats */
#define KILN_BLOCK_BC6H_SF      KILN_TEXFMT_BC6H_SF /* 16 bytes: RGB signed half floats */
#define KILN_BLOCK_ASTC4X4_HDR  KILN_TEXFMT_ASTC4X4_HDR /* 16 bytes: RGBA HDR, libastcenc */
#define KILN_BLOCK_FORMAT_COUNT KILN_TEXFMT_COUNT       /* ids are below it (not all compress) */

typedef struct kiln_block_opts {
    kiln_quality quality; /* fast / normal / high */
    bool srgb;            /* texels are sRGB-encoded (ASTC's sRGB profile; BC: metric only) */
    bool normal_map;      /* texels are unit vectors in R, G (B): angular metric where it pays */
} kiln_block_opts;

/* One 4x4 block: texels holds 16 texels row by row, each of the encoder's kiln_texels (4 bytes of
 * RGBA8, or 8 bytes of little-endian RGBA halves). out receives the block's bytes. */
typedef void (*kiln_block_encode_fn)(const uint8_t *texels, const kiln_block_opts *o, uint8_t *out);
/* A whole tightly packed level of the encoder's kiln_texels at once (a library that runs its own
 * blocks on the pool). */
typedef kiln_result (*kiln_level_encode_fn)(const uint8_t *rgba, uint32_t w, uint32_t h,
                                            const kiln_block_opts *o, kiln_jobs *jobs, uint8_t *out,
                                            size_t out_size, kiln_error *err);
/* A whole level back to RGBA8, when the cook decodes with the library it encodes with. */
typedef kiln_result (*kiln_level_decode_fn)(const uint8_t *blocks, size_t size, uint32_t w,
                                            uint32_t h, bool srgb, uint8_t *rgba, kiln_error *err);
/* The same for HDR formats: to RGBA half floats (w * h * 4 uint16_t). */
typedef kiln_result (*kiln_level_decode_half_fn)(const uint8_t *blocks, size_t size, uint32_t w,
                                                 uint32_t h, uint16_t *rgba, kiln_error *err);

/* What the texture processor quantises a level's float texels to before the encoder sees them. */
typedef enum kiln_texels {
    KILN_TEXELS_RGBA8 = 1, /* 8-bit RGBA in the output's encoding (sRGB or linear) */
    KILN_TEXELS_RGBA16F,   /* half-float RGBA, little-endian, linear */
    KILN_TEXELS_RGB9E5,    /* E5B9G9R9_UFLOAT_PACK32, little-endian */
    KILN_TEXELS_B10G11R11, /* B10G11R11_UFLOAT_PACK32, little-endian */
} kiln_texels;

/* The cook's encoder of one texture format. With neither block nor level set, the quantised
 * texels are what the format stores. */
typedef struct kiln_texture_encoder {
    kiln_texels texels;         /* the quantised input (0 only for ids without a row) */
    kiln_block_encode_fn block; /* 4x4 texels -> one block; rows of blocks on the job pool */
    kiln_level_encode_fn level; /* a level of texels -> blocks, for a library with its own blocks */
    /* The cook's decoder when it is not the table row's: the library's own, so that what the
     * encoder is measured against is what it aimed at (ASTC's error colour differs). */
    kiln_level_decode_fn decode;
    kiln_level_decode_half_fn decode_half; /* the same for HDR formats */
} kiln_texture_encoder;

/* The encoder of f; NULL for KILN_TEXFMT_AUTO and values out of range (a test checks that every
 * row of the table has one). */
const kiln_texture_encoder *kiln_texture_encoder_of(kiln_texture_format f);

/* Bytes of one texel of a quantised level: 4 or 8 (RGBA16F). */
uint32_t kiln_texels_size(kiln_texels t);

size_t kiln_block_bytes(kiln_block_format f); /* 8 or 16; 0 for formats kiln does not compress */
const char *kiln_block_format_name(kiln_block_format f); /* "bc7", ...; "unknown" */

/* Bytes of a w x h level: ceil(w/4) * ceil(h/4) * kiln_block_bytes(f). false on overflow and for
 * formats kiln does not compress. */
bool kiln_blocks_size(kiln_block_format f, uint32_t w, uint32_t h, size_t *out);

/* Encodes a w x h image of the format's encoder texels (RGBA8, or RGBA16F for HDR formats; rows
 * `stride` bytes apart) into out (kiln_blocks_size bytes), blocks in row-major order. jobs may be
 * NULL (inline). Errors: KILN_E_USAGE (bad sizes, a format kiln does not compress),
 * KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (the ASTC library failed). */
kiln_result kiln_blocks_encode(kiln_block_format f, const uint8_t *rgba, uint32_t w, uint32_t h,
                               size_t stride, const kiln_block_opts *o, kiln_jobs *jobs,
                               uint8_t *out, size_t out_size, kiln_error *err);

/* Decodes blocks of a w x h level into RGBA8 (w * h * 4 bytes, tightly packed). For BC4 the
 * result is (R, 0, 0, 255), for BC5 (R, G, 0, 255), as GPUs sample them. srgb matters to ASTC
 * only. Errors: KILN_E_USAGE (sizes, a format kiln does not compress), KILN_E_INTERNAL (ASTC
 * library). */
kiln_result kiln_blocks_decode(kiln_block_format f, const uint8_t *blocks, size_t size, uint32_t w,
                               uint32_t h, bool srgb, uint8_t *rgba, kiln_error *err);

/* Decodes blocks of a w x h level of an HDR format (BC6H, ASTC HDR) into RGBA half floats
 * (w * h * 4 uint16_t, tightly packed; alpha 1.0 for BC6H). Errors as kiln_blocks_decode's. */
kiln_result kiln_blocks_decode_half(kiln_block_format f, const uint8_t *blocks, size_t size,
                                    uint32_t w, uint32_t h, uint16_t *rgba, kiln_error *err);

#endif
