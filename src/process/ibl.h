/* ibl.h — image-based lighting prefiltered at cook time: the GGX-prefiltered specular cube,
 * diffuse irradiance as 9 spherical-harmonic coefficients and a small cube, and the split-sum
 * BRDF lookup table.
 *
 * Cubes are laid out as in cube.h (6 faces +X..-Z, rows as Vulkan samples them, 4 linear floats
 * a texel). Alpha is not lighting: it is ignored on input and written as 1. Radiance is read
 * sanitised: NaN as 0, infinities as +-65504; finite values as they are. Everything is
 * deterministic (fixed Hammersley sequences, sums in a fixed order) and gives the same bits for
 * any number of threads. docs/ibl.md states the conventions and measured costs. */
#ifndef KILN_PROCESS_IBL_H
#define KILN_PROCESS_IBL_H

#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "kiln/kiln_format.h"

/* `= {0}` gives the documented defaults. */
typedef struct kiln_ibl_opts {
    kiln_allocator allocator;  /* scratch memory (the source's mip chain, partial sums) */
    uint32_t specular_size;    /* level 0 face size; 0 = the source's size capped at 256 (a
                                  larger source is box-filtered down to it) */
    uint32_t specular_levels;  /* 0 = every level down to 4x4 (at least 1; 7 for 256) */
    uint32_t specular_samples; /* GGX samples per texel of level 1; each level after it takes
                                  twice its predecessor's, up to 8 times this; 0 = 256 (so
                                  256, 512, 1024, 2048, 2048, 2048 for 7 levels) */
    uint32_t irradiance_size;  /* irradiance cube face size; 0 = 32 */
    uint32_t brdf_size;        /* BRDF LUT width and height; 0 = 128 */
    uint32_t brdf_samples;     /* samples per LUT texel; 0 = 1024 */
} kiln_ibl_opts;

/* The opts with every 0 replaced by its default for a source cube of face size source_size
 * (specular_levels clamped to the levels the size has). opts may be NULL. */
kiln_ibl_opts kiln_ibl_opts_resolve(const kiln_ibl_opts *opts, uint32_t source_size);

/* Samples per texel of specular level `level` (>= 1) of resolved opts:
 * min(specular_samples << (level - 1), 8 * specular_samples), at most UINT32_MAX / 2. Wider
 * lobes need more samples for the same noise and their levels have 4 times fewer texels. */
uint32_t kiln_ibl_level_samples(const kiln_ibl_opts *resolved, uint32_t level);

/* Perceptual roughness of specular level `level` of level_count: level / (level_count - 1)
 * (0 for a single level). The GGX alpha is its square. */
double kiln_ibl_level_roughness(uint32_t level, uint32_t level_count);

/* Floats the specular chain takes (levels one after another, level i being a cube of face size
 * max(1, size >> i)), and the offset in floats of one level in it. */
size_t kiln_ibl_specular_float_count(uint32_t size, uint32_t level_count);
size_t kiln_ibl_specular_level_offset(uint32_t size, uint32_t level);

/* The GGX-prefiltered specular chain of a source cube (faces, source_size): level 0 is the
 * source (box-filtered to the resolved specular_size), level i the radiance convolved with the
 * GGX lobe of roughness kiln_ibl_level_roughness(i, levels) under N = V = R, estimated with
 * kiln_ibl_level_samples Hammersley samples per texel, each read trilinearly from a mip chain
 * of level 0 (box filters weighted by texel solid angle; reads blend across face edges) at the
 * level its PDF and solid angle give (Karis 2013, Filament's cmgen). out receives
 * kiln_ibl_specular_float_count(specular_size, specular_levels) floats of the resolved opts.
 * Rows of every level run on jobs (NULL: the calling thread). Scratch: about 2.7 times the
 * level-0 cube (its mip chain, 4/3 of it, and a padded copy of that), from opts->allocator.
 * Errors: KILN_E_USAGE (NULL, zero size, specular_size above source_size), KILN_E_LIMIT (face
 * size above 16384), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_ibl_specular(const float *faces, uint32_t source_size, const kiln_ibl_opts *opts,
                              kiln_jobs *jobs, float *out, kiln_error *err);

/* Spherical harmonics, bands 0..2, real basis in the order (l, m) = (0,0), (1,-1), (1,0),
 * (1,1), (2,-2), (2,-1), (2,0), (2,1), (2,2):
 *   0.282095, 0.488603 y, 0.488603 z, 0.488603 x, 1.092548 xy, 1.092548 yz,
 *   0.315392 (3z^2 - 1), 1.092548 xz, 0.546274 (x^2 - y^2)
 * (exact constants in ibl_sh.c). Writes the 9 basis values for a unit direction. */
void kiln_ibl_sh_basis(const double dir[3], double out[9]);

/* The IRRADIANCE coefficients of a cube (faces, size): the radiance projected onto the basis
 * with exact texel solid angles, L_lm = sum L(w) Y_lm(w) dw, then multiplied by the Lambertian
 * convolution factors A0 = pi, A1 = 2 pi / 3, A2 = pi / 4 (Ramamoorthi and Hanrahan 2001), so
 * that E(n) = sum sh[k] Y_k(n) is the irradiance at a surface of normal n (a constant radiance
 * L gives E = pi L). sh[k][c] for coefficient k, colour c (RGB). Rows on jobs; the per-row sums
 * are added in a fixed order, so any thread count gives the same bits. Cost is linear in
 * texels and bands 0..2 need few: projecting the specular chain's level 0 (256) instead of a
 * 1024 source changes no coefficient by more than 1e-4 of the largest (docs/ibl.md).
 * Errors: KILN_E_USAGE, KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_ibl_sh(const float *faces, uint32_t size, const kiln_ibl_opts *opts,
                        kiln_jobs *jobs, double sh[9][3], kiln_error *err);

/* E(n) from irradiance coefficients, for a unit direction n: rgb receives the irradiance. */
void kiln_ibl_sh_eval(const double sh[9][3], const double dir[3], double rgb[3]);

/* The irradiance cube from the coefficients: each texel holds E(n) / pi at its centre's
 * direction, the outgoing radiance of a white Lambertian surface (the value a shader multiplies
 * by the albedo; a constant environment gives itself back). faces receives
 * kiln_cube_float_count(size) floats. */
void kiln_ibl_irradiance_cube(const double sh[9][3], uint32_t size, float *faces);

/* The split-sum BRDF table (Karis 2013) for GGX with the height-correlated Smith visibility
 * (the glTF 2.0 metallic-roughness BRDF): texel (x, y) holds (A, B) with the specular
 * reflectance integral = F0 * A + B (F90 = 1), at NdotV = (x + 0.5) / size across and
 * perceptual roughness = (y + 0.5) / size down; row 0 (the first in memory, t = 0 when
 * sampled) is the smoothest. out receives size * size * 2 floats (RG). Rows on jobs.
 * Errors: KILN_E_USAGE. */
kiln_result kiln_ibl_brdf_lut(const kiln_ibl_opts *opts, kiln_jobs *jobs, float *out,
                              kiln_error *err);

#endif
