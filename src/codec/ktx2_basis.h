/* ktx2_basis.h — what kiln_ktx2_read checks of a Basis Universal file (vkFormat 0): the DFD of
 * ETC1S or UASTC (KTX 2.0 "Basis Universal" data format descriptors) and the bounds of the
 * BasisLZ global data (KTX 2.0 "BasisLZ Global Data": header, one image descriptor per image,
 * codebooks and tables whose lengths add up to the whole). The codebooks themselves are decoded
 * by kiln_basis_open. Part of libkiln_rt: libc only. */
#ifndef KILN_CODEC_KTX2_BASIS_H
#define KILN_CODEC_KTX2_BASIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/vk_format.h"
#include "core/error.h"
#include "kiln/kiln_format.h"

/* Bytes of the BasisLZ global header and of one image descriptor. */
#define KILN_BASISLZ_HEADER_SIZE     20u
#define KILN_BASISLZ_IMAGE_DESC_SIZE 20u

/* The block shapes of the two formats, as vk_format rows the level index is checked with (not
 * in the vk_format table: vkFormat 0 is not a format). */
extern const kiln_vk_format_info kiln_ktx2_uastc_shape, kiln_ktx2_etc1s_shape;

/* The Basis format the DFD at d (len bytes, at file offset `at`) describes: checks it the way
 * check_dfd checks other formats' (header, block dimensions, bytesPlane, samples) and that the
 * supercompression scheme fits the format (ETC1S: BasisLZ only; UASTC: none or Zstandard). Fills
 * out->basis, basis_channels, srgb and premultiplied. */
kiln_result kiln_ktx2_check_basis_dfd(const uint8_t *d, uint32_t len, uint64_t at, uint32_t scheme,
                                      kiln_ktx2_info *out, kiln_error *err);

/* Writes the DFD of a Basis texture (basis: kiln_ktx2_basis, channels: kiln_basis_channels; an
 * ETC1S layout must be RGB, RGBA, RRR or RRRG) into out (KILN_DFD_MAX_SIZE bytes) as
 * kiln_ktx2_check_basis_dfd reads it and basisu writes it, but bytesPlane0 16 for UASTC also
 * when supercompressed (KTX 2.0 revision 2+). Returns its size, 0 for an invalid layout. */
size_t kiln_ktx2_basis_dfd(uint32_t basis, uint32_t channels, bool srgb, bool premultiplied,
                           uint8_t *out);

/* The images a texture of this shape has in level `level` (faces x layers x slices) and in all
 * levels (the BasisLZ image count). */
uint64_t kiln_ktx2_basislz_image_count(uint32_t levels, uint32_t faces, uint32_t layers,
                                       uint32_t depth);

/* Checks the BasisLZ global data (sgd, size bytes at file offset `at`) of a texture whose level
 * index is already in info (levels, shape): the lengths add up, there is a descriptor for every
 * image, and every slice lies inside its level's bytes. */
kiln_result kiln_ktx2_check_basislz(const uint8_t *sgd, uint64_t size, uint64_t at,
                                    const kiln_ktx2_info *info, kiln_error *err);

#endif
