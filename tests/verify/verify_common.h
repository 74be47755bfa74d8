/* verify_common.h — test cases shared by the decoder cross-checks: block data (seeded random
 * bytes, or kiln's encoder output for a photo region and a normal map), kiln's own decoding of
 * it, a DDS writer, and the texel-by-texel comparison that names the block and texel of every
 * disagreement. */
#ifndef KILN_TEST_VERIFY_COMMON_H
#define KILN_TEST_VERIFY_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "process/block.h"

typedef enum vt_source {
    VT_RANDOM = 0, /* seeded random bytes, biased so that every mode and corner case appears
                      (ASTC: also kiln's blocks of a synthetic image with random payload bits) */
    VT_PHOTO,      /* kiln's encoding of a Kodak photo region (130x98: partial edge blocks) */
    VT_NORMAL,     /* kiln's encoding of a normal map region (66x70), normal_map set */
} vt_source;

typedef struct vt_case {
    kiln_block_format format;
    vt_source source;
    bool srgb; /* decode (and for ASTC, encode) with the sRGB profile */
    uint32_t w, h;
    uint8_t *blocks; /* ceil(w/4) * ceil(h/4) blocks, row-major */
    size_t size;
    uint8_t *kiln; /* kiln_blocks_decode of blocks: w * h RGBA8 */
    char name[64]; /* "bc7 random 256x256" */
} vt_case;

/* Builds a case; fails the test on any kiln error. Returns false (after printing why) when the
 * corpus is absent for VT_PHOTO / VT_NORMAL, so the caller skips that case. */
bool vt_case_make(vt_case *c, kiln_block_format f, vt_source s, bool srgb);

/* The exit status of a test program: its cmocka result, except that a passing run in which a
 * corpus-based case was skipped exits 77 (CTest: skipped), so a missing corpus never passes
 * silently as if the photo and normal-map cases had been compared. */
int vt_finish(int cmocka_result);
void vt_case_free(vt_case *c);

/* How one kiln channel is compared: the peer's channel index (-1: not compared) and the largest
 * absolute difference allowed. */
typedef struct vt_channel {
    int peer;
    int tolerance;
} vt_channel;

/* Says whether a disagreement is a documented difference of the peer's, not a kiln bug: block is
 * the block's bytes, texel its index in the block (0..15, row by row), channel 0..3 (R..A). */
typedef bool (*vt_excuse_fn)(const uint8_t *block, unsigned texel, int channel, uint8_t kiln,
                             uint8_t peer);

typedef struct vt_stats {
    size_t texels;   /* texels compared */
    size_t excused;  /* texels whose only disagreements the excuse function accepted */
    size_t differ;   /* texels with any compared channel different at all */
    size_t failed;   /* texels with a channel beyond its tolerance */
    int max_diff[4]; /* per kiln channel, excused differences left out */
} vt_stats;

/* Compares kiln's decoding with the peer's (peer_channels bytes per texel, w * h texels, rows
 * packed). A channel beyond its tolerance fails the texel unless excuse (may be NULL) accepts it.
 * Prints a one-line summary and, for the first few failing texels, the block bytes, the texel and
 * both values. */
vt_stats vt_compare(const vt_case *c, const char *peer_name, const uint8_t *peer,
                    size_t peer_channels, const vt_channel map[4], vt_excuse_fn excuse);

/* Writes c's blocks as a DDS file the way Pillow 9.4 reads them: FourCC DXT1 (BC1), ATI1 (BC4:
 * Pillow 9.4 has no DX10 BC4), DX10 with DXGI 83 (BC5) or 98 (BC7). */
void vt_write_dds(const char *path, const vt_case *c);

/* Writes c's blocks as a .astc file (16-byte header, 4x4x1 blocks). */
void vt_write_astc(const char *path, const vt_case *c);

#endif
