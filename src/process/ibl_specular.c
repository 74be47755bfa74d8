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
#include "process/det_math.h"
#include "process/ibl_sample.h"
#include "process/mip.h"

#ifdef __clang__ /* no fused multiply-adds: the same bits with every compiler */
#pragma STDC FP_CONTRACT OFF
#endif

typedef struct spec_sample {
    float l[3]; /* tangent space, normal +z */
    float weight;
    uint32_t lod; /* the chain level below the sample's lod */
    float frac;   /* and how far towards the next one */
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
    const float *const *chain; /* mip chain of level 0, padded: chain[k] has faces of
                                  sizes[k] + 2 (kiln_cube_pad) */
    const uint32_t *sizes;
    uint32_t chain_count;
    const spec_level *levels; /* levels 1 .. level_count - 1 */
    uint32_t level_count;
} spec_job;

/* Bilinear read of a padded chain level (kiln_cube_pad) at (face, s, t), weighted into acc:
 * the border makes reads near edges blend across faces without a branch. */
static inline void bilinear_add(const float *padded, uint32_t n, uint32_t face, float s, float t,
                                float w, float acc[3])
{
    uint32_t p = n + 2;
    float px = s * (float)n + 0.5f, py = t * (float)n + 0.5f;
    uint32_t x0 = (uint32_t)px, y0 = (uint32_t)py; /* px, py in [0.5, n + 0.5] */
    if (x0 > n) x0 = n;
    if (y0 > n) y0 = n;
    float ax = px - (float)x0, ay = py - (float)y0;
    const float *p0 = padded + (((size_t)face * p + y0) * p + x0) * 4, *p1 = p0 + (size_t)p * 4;
    float w00 = (1.0f - ax) * (1.0f - ay) * w, w10 = ax * (1.0f - ay) * w;
    float w01 = (1.0f - ax) * ay * w, w11 = ax * ay * w;
    for (int c = 0; c < 3; c++)
        acc[c] += w00 * p0[c] + w10 * p0[4 + c] + w01 * p1[c] + w11 * p1[4 + c];
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
        double nd[3], td[3], bd[3];
        kiln_cube_dir_d(face, ((double)x + 0.5) / n, ((double)y + 0.5) / n, nd);
        /* A tangent frame around n: any one works (the sample set is rotation-symmetric up to
         * its discrete pattern), this one is fixed so the bits are. */
        double up[3] = {0.0, 0.0, 1.0};
        if (fabs(nd[2]) > 0.999) up[0] = 1.0, up[2] = 0.0;
        td[0] = up[1] * nd[2] - up[2] * nd[1];
        td[1] = up[2] * nd[0] - up[0] * nd[2];
        td[2] = up[0] * nd[1] - up[1] * nd[0];
        double inv = 1.0 / sqrt(td[0] * td[0] + td[1] * td[1] + td[2] * td[2]);
        for (int c = 0; c < 3; c++) td[c] *= inv;
        bd[0] = nd[1] * td[2] - nd[2] * td[1];
        bd[1] = nd[2] * td[0] - nd[0] * td[2];
        bd[2] = nd[0] * td[1] - nd[1] * td[0];
        float tt[3], bb[3], nn[3];
        for (int c = 0; c < 3; c++)
            tt[c] = (float)td[c], bb[c] = (float)bd[c], nn[c] = (float)nd[c];
        double acc[3] = {0.0, 0.0, 0.0};
        for (size_t k = 0; k < lv->count; k++) {
            const spec_sample *sp = &lv->samples[k];
            float d[3];
            for (int c = 0; c < 3; c++)
                d[c] = tt[c] * sp->l[0] + bb[c] * sp->l[1] + nn[c] * sp->l[2];
            /* Vulkan's face selection (cube.c), inline: this loop is the cook's hot spot. */
            float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]), sc, tc, ma;
            uint32_t f;
            if (ax >= ay && ax >= az) {
                ma = ax, f = d[0] >= 0.0f ? 0 : 1, sc = d[0] >= 0.0f ? -d[2] : d[2], tc = -d[1];
            } else if (ay >= az) {
                ma = ay, f = d[1] >= 0.0f ? 2 : 3, sc = d[0], tc = d[1] >= 0.0f ? d[2] : -d[2];
            } else {
                ma = az, f = d[2] >= 0.0f ? 4 : 5, sc = d[2] >= 0.0f ? d[0] : -d[0], tc = -d[1];
            }
            float half_inv = 0.5f / ma, s = sc * half_inv + 0.5f, t = tc * half_inv + 0.5f;
            float a[3] = {0.0f, 0.0f, 0.0f};
            uint32_t l0 = sp->lod;
            bilinear_add(j->chain[l0], j->sizes[l0], f, s, t, 1.0f - sp->frac, a);
            if (sp->frac > 0.0f)
                bilinear_add(j->chain[l0 + 1], j->sizes[l0 + 1], f, s, t, sp->frac, a);
            for (int c = 0; c < 3; c++) acc[c] += (double)(sp->weight * a[c]);
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
        double lod = 0.5 * kiln_det_log2(omega_s / omega_p) + 1.0;
        if (!(lod > 0.0)) lod = 0.0;
        if (lod > (double)(chain_count - 1)) lod = (double)(chain_count - 1);
        for (int c = 0; c < 3; c++) out[m].l[c] = (float)l[c];
        out[m].weight = (float)l[2];
        out[m].lod = (uint32_t)lod;
        out[m].frac = (float)(lod - floor(lod));
        if (out[m].lod == chain_count - 1) out[m].frac = 0.0f;
        sum += out[m].weight;
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
    size_t chain_floats = kiln_ibl_specular_float_count(base, chain_count), padded_floats = 0;
    for (uint32_t k = 0; k < chain_count; k++) padded_floats += kiln_cube_float_count(sizes[k] + 2);
    size_t sample_count = 0, sample_bytes;
    for (uint32_t i = 1; i < levels; i++) sample_count += kiln_ibl_level_samples(&o, i);
    if (!kiln_size_mul(sizeof(spec_sample), sample_count, &sample_bytes) || sample_bytes == 0)
        sample_bytes = sizeof(spec_sample); /* overflow is refused below; 0 is one level */
    if (sample_count > ((size_t)1 << 28))
        return kiln_error_set(err, KILN_E_LIMIT, "specular: %u samples", o.specular_samples);
    float *chain_block = kiln_alloc_large(a, chain_floats * sizeof(float));
    float *padded_block = kiln_alloc_large(a, padded_floats * sizeof(float));
    spec_sample *samples = kiln_alloc(a, sample_bytes);
    spec_level *lv = kiln_alloc(a, sizeof(spec_level) * levels);
    kiln_result r = KILN_OK;
    if (!chain_block || !padded_block || !samples || !lv) {
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
            for (size_t i = 0; i < sf; i += 4) {
                for (int c = 0; c < 3; c++) tmp[i + c] = kiln_ibl_radiance(faces[f * sf + i + c]);
                tmp[i + 3] = 1.0f;
            }
            kiln_mip_downsample(tmp, source_size, source_size, c0 + f * bf, base, base,
                                KILN_MIP_FILTER_COLOR);
        }
        kiln_free_large(a, tmp, sf * sizeof(float));
    }
    for (size_t i = 0; i < (size_t)6 * base * base; i++) {
        for (int c = 0; c < 3; c++) c0[i * 4 + c] = kiln_ibl_radiance(c0[i * 4 + c]);
        c0[i * 4 + 3] = 1.0f;
    }
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

    const float *padded[16];
    size_t off = 0;
    for (uint32_t k = 0; k < chain_count; k++) {
        padded[k] = padded_block + off;
        kiln_cube_pad(chain[k], sizes[k], padded_block + off);
        off += kiln_cube_float_count(sizes[k] + 2);
    }

    size_t rows = 0, first_sample = 0;
    for (uint32_t i = 1; i < levels; i++) {
        spec_level *L = &lv[i - 1];
        double rough = kiln_ibl_level_roughness(i, levels);
        uint32_t count = kiln_ibl_level_samples(&o, i);
        spec_sample *set = samples + first_sample;
        first_sample += count;
        L->count = make_samples(set, count, rough * rough, base, chain_count, &L->weight_sum);
        L->samples = set;
        L->size = sizes[i];
        L->out = out + kiln_ibl_specular_level_offset(base, i);
        L->first_row = rows;
        rows += (size_t)6 * sizes[i];
    }
    if (levels > 1) {
        spec_job j = {padded, sizes, chain_count, lv, levels};
        r = kiln_jobs_for(jobs, rows, spec_row, &j, err);
    }
done:
    kiln_free(a, lv, sizeof(spec_level) * levels);
    kiln_free(a, samples, sample_bytes);
    kiln_free_large(a, chain_block, chain_floats * sizeof(float));
    kiln_free_large(a, padded_block, padded_floats * sizeof(float));
    return r;
}
