/* extent.h — mip chain arithmetic shared by the texture processor and the KTX2 reader/writer:
 * level i of a W x H image is max(1, W >> i) x max(1, H >> i) (KTX 2.0 and Vulkan). */
#ifndef KILN_CORE_EXTENT_H
#define KILN_CORE_EXTENT_H

#include <stdint.h>

/* The extent of level `level` of a side of `base` texels (0 stays 0). */
static inline uint32_t kiln_mip_extent(uint32_t base, uint32_t level)
{
    if (base == 0) return 0;
    if (level >= 32) return 1;
    uint32_t e = base >> level;
    return e ? e : 1;
}

/* Levels of a full chain down to 1x1: floor(log2(max(width, height))) + 1; 0 for 0x0. */
static inline uint32_t kiln_mip_level_count(uint32_t width, uint32_t height)
{
    uint32_t m = width > height ? width : height, n = 0;
    while (m) {
        n++;
        m >>= 1;
    }
    return n;
}

#endif
