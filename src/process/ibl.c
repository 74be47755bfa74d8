/* ibl.c — the IBL options' defaults and the shape of the specular chain. */
#include "process/ibl.h"

#include "process/cube.h"

/* Levels a face size has down to 1x1 (floor(log2(size)) + 1). */
static uint32_t full_levels(uint32_t size)
{
    uint32_t n = 1;
    while (size > 1) {
        size /= 2;
        n++;
    }
    return n;
}

kiln_ibl_opts kiln_ibl_opts_resolve(const kiln_ibl_opts *opts, uint32_t source_size)
{
    kiln_ibl_opts o = {0};
    if (opts) o = *opts;
    if (o.specular_size == 0) o.specular_size = source_size < 256 ? source_size : 256;
    if (o.specular_size == 0) o.specular_size = 1;
    uint32_t most = full_levels(o.specular_size);
    if (o.specular_levels == 0) {
        o.specular_levels = 1;
        while (o.specular_levels < most && (o.specular_size >> o.specular_levels) >= 4)
            o.specular_levels++;
    }
    if (o.specular_levels > most) o.specular_levels = most;
    if (o.specular_samples == 0) o.specular_samples = 256;
    if (o.irradiance_size == 0) o.irradiance_size = 32;
    if (o.brdf_size == 0) o.brdf_size = 128;
    if (o.brdf_samples == 0) o.brdf_samples = 1024;
    return o;
}

double kiln_ibl_level_roughness(uint32_t level, uint32_t level_count)
{
    return level_count > 1 ? (double)level / (double)(level_count - 1) : 0.0;
}

size_t kiln_ibl_specular_level_offset(uint32_t size, uint32_t level)
{
    size_t off = 0;
    for (uint32_t i = 0; i < level; i++) {
        uint32_t n = size >> i;
        off += kiln_cube_float_count(n ? n : 1);
    }
    return off;
}

size_t kiln_ibl_specular_float_count(uint32_t size, uint32_t level_count)
{
    return kiln_ibl_specular_level_offset(size, level_count);
}

uint32_t kiln_ibl_level_samples(const kiln_ibl_opts *resolved, uint32_t level)
{
    uint64_t base = resolved->specular_samples, n = base;
    for (uint32_t i = 1; i < level && n < 8 * base; i++) n *= 2;
    if (n > 8 * base) n = 8 * base;
    return n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)n;
}
