/* ibl_brdf.c — the split-sum BRDF table (Karis 2013, "Real Shading in Unreal Engine 4").
 *
 * For a view at NdotV and a GGX roughness, the specular reflectance integral
 *   int f(l, v) (n.l) dl   with f = D Vis F,  F = F0 + (1 - F0)(1 - v.h)^5
 * splits into F0 * A + B, A = int D Vis (1 - Fc) (n.l), B = int D Vis Fc (n.l), Fc = (1 - v.h)^5.
 * Vis is the height-correlated Smith term of the glTF 2.0 BRDF (and Filament):
 *   Vis = 0.5 / (n.l sqrt((n.v)^2 (1 - a^2) + a^2) + n.v sqrt((n.l)^2 (1 - a^2) + a^2)).
 * Half vectors are drawn from D(h)(n.h), so each sample weighs Vis (n.l) 4 (v.h) / (n.h). */
#include "process/ibl.h"

#include <math.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/ibl_sample.h"

#ifdef __clang__ /* no fused multiply-adds: the same bits with every compiler */
#pragma STDC FP_CONTRACT OFF
#endif

typedef struct brdf_job {
    uint32_t size, samples;
    double *halves; /* samples half vectors per worker */
    float *out;
} brdf_job;

static kiln_result brdf_row(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)err;
    const brdf_job *j = user;
    uint32_t n = j->size;
    double rough = ((double)index + 0.5) / n, alpha = rough * rough, a2 = alpha * alpha;
    /* The half vectors depend on the row's roughness only: drawn once for the whole row. */
    double *hs = j->halves + worker * (size_t)j->samples * 3;
    for (uint32_t i = 0; i < j->samples; i++) {
        double u, w;
        kiln_ibl_hammersley(i, j->samples, &u, &w);
        kiln_ibl_ggx_half(u, w, alpha, hs + (size_t)i * 3);
    }
    for (uint32_t x = 0; x < n; x++) {
        double nv = ((double)x + 0.5) / n;
        double v[3] = {sqrt(1.0 - nv * nv), 0.0, nv};
        double gv = sqrt(nv * nv * (1.0 - a2) + a2);
        double sum_a = 0.0, sum_b = 0.0;
        for (uint32_t i = 0; i < j->samples; i++) {
            const double *h = hs + (size_t)i * 3;
            double vh = v[0] * h[0] + v[2] * h[2];
            double nl = 2.0 * vh * h[2] - v[2];
            if (!(nl > 0.0) || !(vh > 0.0)) continue;
            double vis = 0.5 / (nl * gv + nv * sqrt(nl * nl * (1.0 - a2) + a2));
            double g = vis * nl * 4.0 * vh / h[2];
            double m = 1.0 - vh, m2 = m * m, fc = m2 * m2 * m;
            sum_a += g * (1.0 - fc);
            sum_b += g * fc;
        }
        j->out[((size_t)index * n + x) * 2] = (float)(sum_a / j->samples);
        j->out[((size_t)index * n + x) * 2 + 1] = (float)(sum_b / j->samples);
    }
    return KILN_OK;
}

kiln_result kiln_ibl_brdf_lut(const kiln_ibl_opts *opts, kiln_jobs *jobs, float *out,
                              kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "BRDF table: NULL output");
    kiln_ibl_opts o = kiln_ibl_opts_resolve(opts, 1);
    if (o.brdf_size > 4096)
        return kiln_error_set(err, KILN_E_LIMIT, "BRDF table: size %u above 4096", o.brdf_size);
    size_t workers = kiln_jobs_thread_count(jobs), bytes;
    if (!kiln_size_mul(workers * 3 * sizeof(double), o.brdf_samples, &bytes))
        return kiln_error_set(err, KILN_E_LIMIT, "BRDF table: %u samples", o.brdf_samples);
    double *halves = kiln_alloc(&o.allocator, bytes);
    if (!halves) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "BRDF table: no memory");
    brdf_job j = {o.brdf_size, o.brdf_samples, halves, out};
    kiln_result r = kiln_jobs_for(jobs, o.brdf_size, brdf_row, &j, err);
    kiln_free(&o.allocator, halves, bytes);
    return r;
}
