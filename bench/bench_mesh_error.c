/* bench_mesh_error.c — kiln_mesh_deviation (src/process/mesh_error.c), the measured error of
 * every level of detail, on a generated displaced sphere: `segments` x `rings` (default 1000 x
 * 501: 1,000,000 triangles), its radius bumped by a few low-frequency waves so the levels err
 * unevenly. Each level is meshopt_simplify of the full mesh to 50 %, 25 % and 12.5 % (error
 * limit 0.05, as the cook asks); for each the program prints meshoptimizer's estimate, kiln's
 * bound (both in % of the extent, meshopt_simplifyScale) and the median CPU time of the
 * deviation call and of meshopt_simplify over the runs. Then the DAG's case: groups of a few
 * hundred triangles (a patch of the sphere and its half-simplified self, indices into the whole
 * vertex buffer), calls per second. A program that prints, not a test. Usage:
 *   bench_mesh_error [--runs N] [--segments S] [--rings R]   (defaults 3, 1000, 501) */
#include <math.h>
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "process/mesh_error.h"

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    int runs = 3;
    unsigned seg = 1000, rings = 501;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--segments")) seg = (unsigned)atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--rings")) rings = (unsigned)atoi(argv[i + 1]);
    }
    if (runs < 1 || runs > 100 || seg < 3 || rings < 2) return 2;
    size_t cols = seg + 1, nv = cols * (rings + 1);
    float *pos = malloc(nv * 12);
    for (size_t r = 0; r <= rings; r++)
        for (size_t c = 0; c < cols; c++) {
            double th = M_PI * (double)r / rings, ph = 2 * M_PI * (double)(c % seg) / seg;
            double rad = 1 + 0.02 * sin(5 * th) * cos(3 * ph) + 0.01 * sin(17 * th + 11 * ph);
            float *p = pos + (r * cols + c) * 3;
            p[0] = (float)(rad * sin(th) * cos(ph)), p[1] = (float)(rad * cos(th));
            p[2] = (float)(rad * sin(th) * sin(ph));
            if (r == 0 || r == rings) p[0] = p[2] = 0, p[1] = r == 0 ? 1.0f : -1.0f;
        }
    size_t tris = 2 * (size_t)seg * (rings - 1), n = 0;
    uint32_t *idx = malloc(tris * 3 * 4);
    for (size_t r = 0; r < rings; r++)
        for (size_t c = 0; c < seg; c++) {
            uint32_t a = (uint32_t)(r * cols + c), b = (uint32_t)((r + 1) * cols + c);
            if (r > 0) idx[n++] = a, idx[n++] = b, idx[n++] = a + 1;
            if (r + 1 < rings) idx[n++] = a + 1, idx[n++] = b, idx[n++] = b + 1;
        }
    /* The poles and the seam repeat positions; weld them so the surface is one piece. */
    unsigned *remap = malloc(nv * sizeof *remap);
    size_t unique = meshopt_generateVertexRemap(remap, idx, n, pos, nv, 12);
    meshopt_remapIndexBuffer(idx, idx, n, remap);
    meshopt_remapVertexBuffer(pos, pos, nv, 12, remap);
    nv = unique;
    free(remap);
    float scale = meshopt_simplifyScale(pos, nv, 12);
    printf("displaced sphere: %zu triangles, %zu vertices, extent %.4f; median of %d runs, CPU "
           "time\n",
           n / 3, nv, scale, runs);
    printf("%-8s %10s %14s %12s %12s %14s\n", "level", "triangles", "meshopt est.", "kiln bound",
           "bound/est.", "deviation ms");
    const double fractions[3] = {0.5, 0.25, 0.125};
    uint32_t *lod = malloc(n * 4);
    double *t = malloc((size_t)runs * sizeof *t), *ts = malloc((size_t)runs * sizeof *ts);
    for (int l = 0; l < 3; l++) {
        float est = 0, bound = 0;
        size_t m = 0;
        for (int r = 0; r < runs; r++) {
            double t0 = cpu_ms();
            m = meshopt_simplify(lod, idx, n, pos, nv, 12, (size_t)(fractions[l] * n / 3) * 3,
                                 0.05f, 0, &est);
            double t1 = cpu_ms();
            if (kiln_mesh_deviation(NULL, pos, nv, idx, n, lod, m, &bound, NULL) != KILN_OK)
                return 1;
            t[r] = cpu_ms() - t1, ts[r] = t1 - t0;
        }
        double tm = median(t, runs), tsm = median(ts, runs);
        printf("%-8d %10zu %13.5f%% %11.5f%% %12.2f %14.1f   (simplify %.1f ms)\n", l + 1, m / 3,
               100.0 * est, 100.0 * bound / scale, bound / (est * scale), tm, tsm);
    }
    /* The DAG's case: a compact patch of 256 triangles (those whose centroid is nearest to a
     * point on the equator) and its half simplified with the border locked. */
    {
        enum { PATCH = 256 };
        uint32_t patch[PATCH * 3], half[PATCH * 3];
        double pd[PATCH];
        size_t have = 0;
        for (size_t i = 0; i < n / 3; i++) {
            double d = 0;
            for (int k = 0; k < 3; k++) {
                double c = (pos[idx[i * 3] * 3 + k] + pos[idx[i * 3 + 1] * 3 + k] +
                            pos[idx[i * 3 + 2] * 3 + k]) /
                               3.0 -
                           (k == 0 ? 1.0 : 0.0);
                d += c * c;
            }
            /* insertion into the PATCH nearest so far */
            size_t at = have < PATCH ? have++ : PATCH;
            if (at == PATCH) {
                if (d >= pd[PATCH - 1]) continue;
                at = PATCH - 1;
            }
            while (at > 0 && pd[at - 1] > d) {
                pd[at] = pd[at - 1];
                memcpy(patch + at * 3, patch + (at - 1) * 3, 12);
                at--;
            }
            pd[at] = d;
            memcpy(patch + at * 3, idx + i * 3, 12);
        }
        float est = 0, bound = 0;
        size_t m = meshopt_simplify(half, patch, have * 3, pos, nv, 12, have * 3 / 2, 0.05f,
                                    meshopt_SimplifyLockBorder, &est);
        int calls = 2000;
        for (int r = 0; r < runs; r++) {
            double t0 = cpu_ms();
            for (int i = 0; i < calls; i++)
                kiln_mesh_deviation(NULL, pos, nv, patch, have * 3, half, m, &bound, NULL);
            t[r] = (cpu_ms() - t0) / calls;
        }
        printf("group of %zu against %zu triangles (indices into the %zu-vertex buffer): bound "
               "%.5f%%, %.1f us a call\n",
               have, m / 3, nv, 100.0 * bound / scale, 1000.0 * median(t, runs));
    }
    free(t), free(ts), free(lod), free(idx), free(pos);
    return 0;
}
