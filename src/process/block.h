/* block.h — block-compressed texture formats: encoding an RGBA8 level into 4x4 blocks on the job
 * pool, and decoding blocks back to RGBA8. Partial blocks at the right and bottom edges are
 * padded with copies of the edge texels (clamp), so no invented colour leaks into a block.
 * Output bytes never depend on the number of threads: each block is encoded on its own. */
#ifndef KILN_PROCESS_BLOCK_H
#define KILN_PROCESS_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "kiln/kiln_format.h"
#include "pipeline/settings.h"

typedef enum kiln_block_format {
    KILN_BLOCK_BC1 = 0,  /* 8 bytes: opaque RGB, 4-colour mode only */
    KILN_BLOCK_BC4,      /* 8 bytes: one channel (R) */
    KILN_BLOCK_BC5,      /* 16 bytes: two channels (R, G); normal maps keep X and Y */
    KILN_BLOCK_BC7,      /* 16 bytes: RGBA */
    KILN_BLOCK_ASTC4X4,  /* 16 bytes: RGBA, through libastcenc */
    KILN_BLOCK_FORMAT_COUNT
} kiln_block_format;

typedef struct kiln_block_opts {
    kiln_quality quality;   /* fast / normal / high */
    bool srgb;              /* texels are sRGB-encoded (ASTC's sRGB profile; BC: metric only) */
    bool normal_map;        /* texels are unit vectors in R, G (B): angular metric where it pays */
} kiln_block_opts;

/* One 4x4 block: rgba holds 16 texels row by row, 4 bytes each. out receives the block's bytes. */
typedef void (*kiln_block_encode_fn)(const uint8_t rgba[64], const kiln_block_opts *o, uint8_t *out);
/* Decodes one block into 16 RGBA8 texels. Every bit pattern decodes (no failure case). */
typedef void (*kiln_block_decode_fn)(const uint8_t *in, uint8_t rgba[64]);

size_t kiln_block_bytes(kiln_block_format f);   /* 8 or 16 */
const char *kiln_block_format_name(kiln_block_format f);

/* Bytes of a w x h level: ceil(w/4) * ceil(h/4) * kiln_block_bytes(f). false on overflow. */
bool kiln_blocks_size(kiln_block_format f, uint32_t w, uint32_t h, size_t *out);

/* Encodes a w x h RGBA8 image (rows `stride` bytes apart) into out (kiln_blocks_size bytes),
 * blocks in row-major order. jobs may be NULL (inline). Errors: KILN_E_USAGE (bad sizes),
 * KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (the ASTC library failed). */
kiln_result kiln_blocks_encode(kiln_block_format f, const uint8_t *rgba, uint32_t w, uint32_t h,
                               size_t stride, const kiln_block_opts *o, kiln_jobs *jobs,
                               uint8_t *out, size_t out_size, kiln_error *err);

/* Decodes blocks of a w x h level into RGBA8 (w * h * 4 bytes, tightly packed). For BC4 the
 * result is (R, 0, 0, 255), for BC5 (R, G, 0, 255), as GPUs sample them. srgb matters to ASTC
 * only. Errors: KILN_E_USAGE (sizes), KILN_E_INTERNAL (ASTC library). */
kiln_result kiln_blocks_decode(kiln_block_format f, const uint8_t *blocks, size_t size,
                               uint32_t w, uint32_t h, bool srgb, uint8_t *rgba,
                               kiln_error *err);

#endif
