/* ibl_sh.c — diffuse irradiance as 9 spherical-harmonic coefficients (bands 0..2), and the
 * small irradiance cube evaluated from them.
 *
 * Ramamoorthi and Hanrahan, "An Efficient Representation for Irradiance Environment Maps"
 * (2001): projecting radiance onto bands 0..2 and scaling band l by the clamped-cosine kernel's
 * A_l (pi, 2 pi / 3, pi / 4) gives the irradiance within about 1% for most environments
 * (bands above 2 of the kernel are small). The projection weights each texel by its exact
 * solid angle (kiln_cube_texel_solid_angle), so the sums are quadratures of the sphere, not of
 * the cube's faces. */
#include "process/ibl.h"

#include <math.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/cube.h"
#include "process/ibl_sample.h"

#ifdef __clang__ /* no fused multiply-adds: the same bits with every compiler */
#pragma STDC FP_CONTRACT OFF
#endif

/* sqrt(1 / (4 pi)), sqrt(3 / (4 pi)), sqrt(15 / (4 pi)), sqrt(5 / (16 pi)), sqrt(15 / (16 pi)) */
#define SH_C0 0.28209479177387814
#define SH_C1 0.48860251190291992
#define SH_C2 1.09254843059207907
#define SH_C3 0.31539156525252005
#define SH_C4 0.54627421529603959

void kiln_ibl_sh_basis(const double d[3], double out[9])
{
    double x = d[0], y = d[1], z = d[2];
    out[0] = SH_C0;
    out[1] = SH_C1 * y;
    out[2] = SH_C1 * z;
    out[3] = SH_C1 * x;
    out[4] = SH_C2 * x * y;
    out[5] = SH_C2 * y * z;
    out[6] = SH_C3 * (3.0 * z * z - 1.0);
    out[7] = SH_C2 * x * z;
    out[8] = SH_C4 * (x * x - y * y);
}

typedef struct sh_job {
    const float *faces;
    uint32_t size;
    const double *solid; /* size * size texel solid angles, the same on every face */
    double *partial;     /* 27 doubles per row */
} sh_job;

static kiln_result sh_row(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker, (void)err;
    const sh_job *j = user;
    uint32_t n = j->size, face = (uint32_t)(index / n), y = (uint32_t)(index % n);
    const float *row = j->faces + ((size_t)face * n + y) * n * 4;
    double sum[27] = {0};
    for (uint32_t x = 0; x < n; x++) {
        double d[3], b[9];
        kiln_cube_dir_d(face, ((double)x + 0.5) / n, ((double)y + 0.5) / n, d);
        kiln_ibl_sh_basis(d, b);
        double w = j->solid[(size_t)y * n + x];
        for (int k = 0; k < 9; k++)
            for (int c = 0; c < 3; c++)
                sum[k * 3 + c] += (double)kiln_ibl_radiance(row[(size_t)x * 4 + c]) * b[k] * w;
    }
    for (int i = 0; i < 27; i++) j->partial[index * 27 + i] = sum[i];
    return KILN_OK;
}

kiln_result kiln_ibl_sh(const float *faces, uint32_t size, const kiln_ibl_opts *opts,
                        kiln_jobs *jobs, double sh[9][3], kiln_error *err)
{
    if (!faces || !sh || size == 0)
        return kiln_error_set(err, KILN_E_USAGE, "irradiance: NULL cube or zero size");
    if (size > 16384) return kiln_error_set(err, KILN_E_LIMIT, "irradiance: face size %u", size);
    kiln_ibl_opts o = kiln_ibl_opts_resolve(opts, size);
    size_t rows = (size_t)6 * size, bytes = rows * 27 * sizeof(double);
    size_t solid_bytes = (size_t)size * size * sizeof(double);
    double *partial = kiln_alloc(&o.allocator, bytes);
    double *solid = kiln_alloc_large(&o.allocator, solid_bytes);
    if (!partial || !solid) {
        kiln_free(&o.allocator, partial, bytes);
        kiln_free_large(&o.allocator, solid, solid_bytes);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "irradiance: no memory for %zu rows",
                              rows);
    }
    kiln_cube_texel_solid_angles(size, solid);
    sh_job j = {faces, size, solid, partial};
    kiln_result r = kiln_jobs_for(jobs, rows, sh_row, &j, err);
    if (r == KILN_OK) {
        static const double band[9] = {KILN_IBL_PI,
                                       2.0 * KILN_IBL_PI / 3.0,
                                       2.0 * KILN_IBL_PI / 3.0,
                                       2.0 * KILN_IBL_PI / 3.0,
                                       KILN_IBL_PI / 4.0,
                                       KILN_IBL_PI / 4.0,
                                       KILN_IBL_PI / 4.0,
                                       KILN_IBL_PI / 4.0,
                                       KILN_IBL_PI / 4.0};
        for (int k = 0; k < 9; k++) {
            for (int c = 0; c < 3; c++) {
                double s = 0.0;
                for (size_t i = 0; i < rows; i++) s += partial[i * 27 + k * 3 + c];
                sh[k][c] = s * band[k];
            }
        }
    }
    kiln_free(&o.allocator, partial, bytes);
    kiln_free_large(&o.allocator, solid, solid_bytes);
    return r;
}

void kiln_ibl_sh_eval(const double sh[9][3], const double dir[3], double rgb[3])
{
    double b[9];
    kiln_ibl_sh_basis(dir, b);
    for (int c = 0; c < 3; c++) {
        double s = 0.0;
        for (int k = 0; k < 9; k++) s += sh[k][c] * b[k];
        rgb[c] = s;
    }
}

void kiln_ibl_irradiance_cube(const double sh[9][3], uint32_t size, float *faces)
{
    for (uint32_t f = 0; f < 6; f++) {
        for (uint32_t y = 0; y < size; y++) {
            for (uint32_t x = 0; x < size; x++) {
                double d[3], e[3];
                kiln_cube_dir_d(f, ((double)x + 0.5) / size, ((double)y + 0.5) / size, d);
                kiln_ibl_sh_eval(sh, d, e);
                float *p = faces + (((size_t)f * size + y) * size + x) * 4;
                /* Band-limited: a strong sun rings negative on the far side; light is not. */
                for (int c = 0; c < 3; c++) p[c] = (float)(e[c] > 0.0 ? e[c] / KILN_IBL_PI : 0.0);
                p[3] = 1.0f;
            }
        }
    }
}
