/* astc.h — ASTC 4x4 LDR through ARM's libastcenc (Debian's libastcenc), whose header is C++ only:
 * astc_shim.cpp is the one C++ file, exposing these C functions. */
#ifndef KILN_PROCESS_ASTC_H
#define KILN_PROCESS_ASTC_H

#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "process/block.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Encodes a w x h RGBA8 image (tightly packed) into ASTC 4x4 blocks (out: ceil(w/4)*ceil(h/4)*16
 * bytes) with the preset of o->quality (fast / medium / thorough), the sRGB or linear LDR profile
 * by o->srgb, and for o->normal_map astcenc's normal-map mode (swizzle rrrg: the decoded texel is
 * (X, X, X, Y); a shader reads .ga and rebuilds Z), on the job pool (bytes do not depend on the
 * thread count). At normal quality the blocks equal `astcenc -cl|-cs in out 4x4 -medium`; at fast
 * and high they are deterministic but may differ from the command in some blocks, because
 * libastcenc 4.2 keeps one tuning value in a process-wide static that kiln pins to medium's
 * (docs/astc.md). Errors: KILN_E_USAGE (sizes, also images too large for astcenc),
 * KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (astcenc's error text), KILN_E_IMPORT_UNSUPPORTED
 * (libastcenc.so.3d, opened on first use by astcenc_dl.cpp, cannot be loaded). */
kiln_result kiln_astc_encode(const uint8_t *rgba, uint32_t w, uint32_t h, const kiln_block_opts *o,
                             kiln_jobs *jobs, uint8_t *out, size_t out_size, kiln_error *err);

/* Decodes ASTC 4x4 blocks into RGBA8 (w * h * 4 bytes). Errors as kiln_astc_encode's. */
kiln_result kiln_astc_decode(const uint8_t *blocks, size_t size, uint32_t w, uint32_t h, bool srgb,
                             uint8_t *rgba, kiln_error *err);

/* ASTC 4x4 HDR, as `astcenc -ch IN OUT 4x4 -fast|-medium|-thorough` (profile HDR colour with LDR
 * alpha): rgba holds w x h half-float RGBA texels (8 bytes each, little-endian, tightly
 * packed). Same determinism and errors as kiln_astc_encode. */
kiln_result kiln_astc_hdr_encode(const uint8_t *rgba, uint32_t w, uint32_t h,
                                 const kiln_block_opts *o, kiln_jobs *jobs, uint8_t *out,
                                 size_t out_size, kiln_error *err);

/* Decodes ASTC 4x4 blocks with the HDR profile into half-float RGBA (w * h * 4 uint16_t), as
 * `astcenc -dh`. Errors as kiln_astc_encode's. */
kiln_result kiln_astc_hdr_decode(const uint8_t *blocks, size_t size, uint32_t w, uint32_t h,
                                 uint16_t *rgba, kiln_error *err);

#ifdef __cplusplus
}
#endif
#endif
