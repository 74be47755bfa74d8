/* ibl_specular.c — the GGX-prefiltered specular cube: one roughness per mip level.
 *
 * Level i holds, for each texel direction n, the radiance averaged under the GGX lobe of
 * alpha = roughness^2 with the split-sum's N = V = R assumption (Karis 2013):
 *   sum_k L(l_k) (n.l_k) / sum_k (n.l_k),   h_k ~ D(h)(n.h), l_k = reflect(-n, h_k),
 * over a fixed Hammersley set. Each sample reads a box-filtered mip chain of level 0 at
 *   lod = 0.5 log2(omega_s / omega_p) + 1,  omega_s = 1 / (N pdf), pdf = D(h) / 4,
 *   omega_p = 4 pi / (6 size^2)
 * (mip-filtered importance sampling: GPU Gems 3 ch. 20, with Filament's +1 bias), which
 * removes most of the noise a few hundred samples would leave. With N = V the sample set is
 * the same for every texel up to a rotation, so each level's directions, weights and lods are
 * computed once. Rows run on the job pool; each texel's sum has a fixed order, so the bits do
 * not depend on the thread count. */
#include "process/ibl.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "process/cube.h"
#include "process/ibl_sample.h"
#include "process/mip.h"

typedef struct spec_sample {
    double l[3]; /* tangent space, normal +z */
    double weight;
    double lod;
} spec_sample;

typedef struct spec_level {
    const spec_sample *samples;
    size_t count;
    double weight_sum;
    float *out;
    uint32_t size;
    size_t first_row; /* job index of its first row */
} spec_level;

typedef struct spec_job {
    const float *const *chain; /* mip chain of level 0: chain[k] is a cube of face size sizes[k] */
    const uint32_t *sizes;
    uint32_t chain_count;
    const spec_level *levels; /* levels 1 .. level_count - 1 */
    uint32_t level_count;
} spec_job;

/* Trilinear read of the chain at direction d and fractional lod. */
static void read_lod(const spec_job *j, const double d[3], double lod, double acc[3], double weight)
{
    uint32_t face;
    double s, t;
    kiln_cube_from_dir_d(d, &face, &s, &t);
    double fl = floor(lod);
    uint32_t l0 = (uint32_t)fl;
    double frac = lod - fl;
    float a[4], b[4];
    kiln_cube_sample_bilinear(j->chain[l0], j->sizes[l0], face, s, t, a);
    if (frac > 0.0 && l0 + 1 < j->chain_count) {
        kiln_cube_sample_bilinear(j->chain[l0 + 1], j->sizes[l0 + 1], face, s, t, b);
        for (int c = 0; c < 3; c++) acc[c] += weight * ((1.0 - frac) * a[c] + frac * b[c]);
    } else {
        for (int c = 0; c < 3; c++) acc[c] += weight * a[c];
    }
}

static kiln_result spec_row(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker, (void)err;
    const spec_job *j = user;
    uint32_t li = 0;
    while (li + 1 < j->level_count - 1 && index >= j->levels[li + 1].first_row) li++;
    const spec_level *lv = &j->levels[li];
    size_t row = index - lv->first_row;
    uint32_t n = lv->size, face = (uint32_t)(row / n), y = (uint32_t)(row % n);
    float *out = lv->out + ((size_t)face * n + y) * n * 4;
    for (uint32_t x = 0; x < n; x++) {
        double nn[3], tt[3], bb[3];
        kiln_cube_dir_d(face, ((double)x + 0.5) / n, ((double)y + 0.5) / n, nn);
        /* A tangent frame around n: any one works (the sample set is rotation-symmetric up to
         * its discrete pattern), this one is fixed so the bits are. */
        double up[3] = {0.0, 0.0, 1.0};
        if (fabs(nn[2]) > 0.999) up[0] = 1.0, up[2] = 0.0;
        tt[0] = up[1] * nn[2] - up[2] * nn[1];
        tt[1] = up[2] * nn[0] - up[0] * nn[2];
        tt[2] = up[0] * nn[1] - up[1] * nn[0];
        double inv = 1.0 / sqrt(tt[0] * tt[0] + tt[1] * tt[1] + tt[2] * tt[2]);
        for (int c = 0; c < 3; c++) tt[c] *= inv;
        bb[0] = nn[1] * tt[2] - nn[2] * tt[1];
        bb[1] = nn[2] * tt[0] - nn[0] * tt[2];
        bb[2] = nn[0] * tt[1] - nn[1] * tt[0];
        double acc[3] = {0.0, 0.0, 0.0};
        for (size_t k = 0; k < lv->count; k++) {
            const spec_sample *sp = &lv->samples[k];
            double d[3];
            for (int c = 0; c < 3; c++)
                d[c] = tt[c] * sp->l[0] + bb[c] * sp->l[1] + nn[c] * sp->l[2];
            read_lod(j, d, sp->lod, acc, sp->weight);
        }
        for (int c = 0; c < 3; c++) out[(size_t)x * 4 + c] = (float)(acc[c] / lv->weight_sum);
        out[(size_t)x * 4 + 3] = 1.0f;
    }
    return KILN_OK;
}

/* The sample set of one level: directions with n.l > 0, weights n.l, lods (see the top). */
static size_t make_samples(spec_sample *out, uint32_t count, double alpha, uint32_t base_size,
                           uint32_t chain_count, double *weight_sum)
{
    double omega_p = 4.0 * KILN_IBL_PI / (6.0 * (double)base_size * (double)base_size);
    size_t m = 0;
    double sum = 0.0;
    for (uint32_t i = 0; i < count; i++) {
        double u, v, h[3];
        kiln_ibl_hammersley(i, count, &u, &v);
        kiln_ibl_ggx_half(u, v, alpha, h);
        double l[3] = {2.0 * h[2] * h[0], 2.0 * h[2] * h[1], 2.0 * h[2] * h[2] - 1.0};
        if (!(l[2] > 0.0)) continue;
        double pdf = kiln_ibl_ggx_d(h[2], alpha) * 0.25; /* D (n.h) / (4 v.h), v = n */
        double omega_s = 1.0 / ((double)count * pdf);
        double lod = 0.5 * log2(omega_s / omega_p) + 1.0;
        if (!(lod > 0.0)) lod = 0.0;
        if (lod > (double)(chain_count - 1)) lod = (double)(chain_count - 1);
        memcpy(out[m].l, l, sizeof l);
        out[m].weight = l[2];
        out[m].lod = lod;
        sum += l[2];
        m++;
    }
    *weight_sum = sum;
    return m;
}

kiln_result kiln_ibl_specular(const float *faces, uint32_t source_size, const kiln_ibl_opts *opts,
                              kiln_jobs *jobs, float *out, kiln_error *err)
{
    if (!faces || !out || source_size == 0)
        return kiln_error_set(err, KILN_E_USAGE, "specular: NULL cube or zero size");
    kiln_ibl_opts o = kiln_ibl_opts_resolve(opts, source_size);
    if (o.specular_size > source_size)
        return kiln_error_set(err, KILN_E_USAGE, "specular: size %u above the source's %u",
                              o.specular_size, source_size);
    if (source_size > 16384)
        return kiln_error_set(err, KILN_E_LIMIT, "specular: face size %u", source_size);
    const kiln_allocator *a = &o.allocator;
    uint32_t base = o.specular_size, levels = o.specular_levels;

    /* The chain of level 0 down to 1x1, with alpha set to 1, in one block. */
    uint32_t chain_count = 1, sizes[16];
    sizes[0] = base;
    while (sizes[chain_count - 1] > 1) {
        sizes[chain_count] = kiln_mip_next_dim(sizes[chain_count - 1]);
        chain_count++;
    }
    size_t chain_floats = kiln_ibl_specular_float_count(base, chain_count);
    size_t sample_bytes;
    if (!kiln_size_mul(sizeof(spec_sample), (size_t)o.specular_samples * levels, &sample_bytes))
        return kiln_error_set(err, KILN_E_LIMIT, "specular: %u samples", o.specular_samples);
    float *chain_block = kiln_alloc_large(a, chain_floats * sizeof(float));
    spec_sample *samples = kiln_alloc(a, sample_bytes);
    spec_level *lv = kiln_alloc(a, sizeof(spec_level) * levels);
    kiln_result r = KILN_OK;
    if (!chain_block || !samples || !lv) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "specular: no memory for the mip chain");
        goto done;
    }
    const float *chain[16];
    for (uint32_t k = 0; k < chain_count; k++)
        chain[k] = chain_block + kiln_ibl_specular_level_offset(base, k);
    float *c0 = chain_block;
    if (base == source_size) {
        memcpy(c0, faces, kiln_cube_float_count(base) * sizeof(float));
    } else {
        /* Alpha 1 first: the colour filter weights by alpha, lighting must not. */
        size_t sf = (size_t)source_size * source_size * 4, bf = (size_t)base * base * 4;
        float *tmp = kiln_alloc_large(a, sf * sizeof(float));
        if (!tmp) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "specular: no memory for level 0");
            goto done;
        }
        for (uint32_t f = 0; f < 6; f++) {
            memcpy(tmp, faces + f * sf, sf * sizeof(float));
            for (size_t i = 0; i < sf; i += 4) tmp[i + 3] = 1.0f;
            kiln_mip_downsample(tmp, source_size, source_size, c0 + f * bf, base, base,
                                KILN_MIP_FILTER_COLOR);
        }
        kiln_free_large(a, tmp, sf * sizeof(float));
    }
    for (size_t i = 0; i < (size_t)6 * base * base; i++) c0[i * 4 + 3] = 1.0f;
    memcpy(out, c0, kiln_cube_float_count(base) * sizeof(float));
    /* The chain's texels average their children weighted by solid angle, so each level keeps
     * the source's integral over the sphere (a plain box gives a face's corners, which subtend
     * a third of its centre's solid angle, as much weight: 2% of the energy at roughness 1).
     * The colour filter weights by alpha, so alpha carries the weight: solid angle over the
     * face's largest, in (0, 1]. */
    for (uint32_t k = 1; k < chain_count; k++) {
        uint32_t m = sizes[k - 1];
        size_t sf = (size_t)m * m * 4, df = (size_t)sizes[k] * sizes[k] * 4;
        float *src = (float *)chain[k - 1];
        double top = kiln_cube_texel_solid_angle(m, m / 2, m / 2);
        for (uint32_t y = 0; y < m; y++)
            for (uint32_t x = 0; x < m; x++) {
                float wgt = (float)(kiln_cube_texel_solid_angle(m, x, y) / top);
                for (uint32_t f = 0; f < 6; f++) src[f * sf + ((size_t)y * m + x) * 4 + 3] = wgt;
            }
        for (uint32_t f = 0; f < 6; f++)
            kiln_mip_downsample(src + f * sf, m, m, (float *)chain[k] + f * df, sizes[k], sizes[k],
                                KILN_MIP_FILTER_COLOR);
    }

    size_t rows = 0;
    for (uint32_t i = 1; i < levels; i++) {
        spec_level *L = &lv[i - 1];
        double rough = kiln_ibl_level_roughness(i, levels);
        spec_sample *set = samples + (size_t)o.specular_samples * i;
        L->count =
            make_samples(set, o.specular_samples, rough * rough, base, chain_count, &L->weight_sum);
        L->samples = set;
        L->size = sizes[i];
        L->out = out + kiln_ibl_specular_level_offset(base, i);
        L->first_row = rows;
        rows += (size_t)6 * sizes[i];
    }
    if (levels > 1) {
        spec_job j = {chain, sizes, chain_count, lv, levels};
        r = kiln_jobs_for(jobs, rows, spec_row, &j, err);
    }
done:
    kiln_free(a, lv, sizeof(spec_level) * levels);
    kiln_free(a, samples, sample_bytes);
    kiln_free_large(a, chain_block, chain_floats * sizeof(float));
    return r;
}
