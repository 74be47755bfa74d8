/* mip.h — downsampling of linear float RGBA images: halving to fit a maximum size, and mip
 * chains with the KTX/Vulkan size rule. Deterministic: same input bits, same output bits. */
#ifndef KILN_PROCESS_MIP_H
#define KILN_PROCESS_MIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/extent.h"

typedef enum kiln_mip_filter {
    /* Colour: RGB averaged weighted by alpha (premultiplied, then divided by the averaged
     * alpha; a plain average where every alpha is 0), alpha averaged plainly. */
    KILN_MIP_FILTER_COLOR = 0,
    /* Normal map: RGB decoded to xyz = 2v - 1, averaged, renormalised to unit length (a
     * vector shorter than 1e-6 becomes (0, 0, 1)), encoded back as v = 0.5 x + 0.5; alpha
     * averaged plainly. */
    KILN_MIP_FILTER_NORMAL = 1,
} kiln_mip_filter;

/* Size of the next level along one axis: max(1, floor(d / 2)) (KTX 2.0 §4.1, Vulkan). */
static inline uint32_t kiln_mip_next_dim(uint32_t d) { return d > 1 ? d / 2 : 1; }

/* The size after halving (kiln_mip_next_dim on both sides) until both sides are <= max_size,
 * and how many halvings that takes. max_size 0 is treated as 1. */
void kiln_mip_fit(uint32_t width, uint32_t height, uint32_t max_size, uint32_t *out_width,
                  uint32_t *out_height, uint32_t *out_halvings);

/* Resamples src (sw x sh texels, 4 floats each, rows top to bottom) into dst (dw x dh) with an
 * area-weighted box: destination texel (i, j) averages the source area
 * [i*sw/dw, (i+1)*sw/dw) x [j*sh/dh, (j+1)*sh/dh), each source texel weighted by its exact
 * (integer-scaled) overlap. For even sizes halved this is the 2x2 box; for odd sizes the last
 * row/column is shared between neighbours instead of dropped. Requires 1 <= dw <= sw,
 * 1 <= dh <= sh; src and dst must not overlap. Sums are in double, in a fixed order. */
void kiln_mip_downsample(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                         uint32_t dh, kiln_mip_filter filter);

/* The source texels [*first, *first + *count) that destination texel i touches along one axis
 * of a src_n -> dst_n resample (1 <= dst_n <= src_n). */
void kiln_mip_footprint(uint32_t i, uint32_t src_n, uint32_t dst_n, uint32_t *first,
                        uint32_t *count);

/* One destination row j of kiln_mip_downsample, for callers that produce the source a few rows
 * at a time: rows holds source rows [first, first + count) given by
 * kiln_mip_footprint(j, sh, dh, ...), tightly packed. Same bits as the whole-image call. */
void kiln_mip_downsample_row(const float *rows, uint32_t sw, uint32_t sh, float *dst_row,
                             uint32_t dw, uint32_t dh, uint32_t j, kiln_mip_filter filter);

/* One mip step of a volume: src (sw x sh x sd texels, slices of rows, 4 floats a texel) into dst
 * (dw x dh x dd), the area-weighted box of kiln_mip_downsample extended to three axes (2x2x2
 * boxes when halving even sizes), same filters. scratch holds at least
 * kiln_mip_volume_scratch(sw, sh, sd, dh, dd) floats. False (nothing written) when the sizes are
 * not a downsampling kiln_mip_downsample accepts on every axis. */
bool kiln_mip_downsample_volume(const float *src, uint32_t sw, uint32_t sh, uint32_t sd, float *dst,
                                uint32_t dw, uint32_t dh, uint32_t dd, kiln_mip_filter filter,
                                float *scratch);

/* Floats of scratch kiln_mip_downsample_volume needs: the rows of one footprint in y and z. */
static inline size_t kiln_mip_volume_scratch(uint32_t sw, uint32_t sh, uint32_t sd, uint32_t dh,
                                             uint32_t dd)
{
    size_t ny = (size_t)(sh + dh - 1) / dh + 1, nz = (size_t)(sd + dd - 1) / dd + 1;
    return ny * nz * (size_t)sw * 4;
}

#endif
