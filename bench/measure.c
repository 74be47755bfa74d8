/* measure.c — see measure.h. */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, size_t n)
{
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

char *bench_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *p = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p) {
        p[n] = '\0';
        *size = (size_t)n;
    }
    return p;
}

const uint8_t *bench_astc_blocks(const uint8_t *data, size_t size, uint32_t w, uint32_t h,
                                 size_t need)
{
    if (!data || size < 16 || need > size - 16) return NULL;
    uint32_t magic = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
                     (uint32_t)data[3] << 24;
    uint32_t dim[3];
    for (int i = 0; i < 3; i++)
        dim[i] = (uint32_t)data[7 + 3 * i] | (uint32_t)data[8 + 3 * i] << 8 |
                 (uint32_t)data[9 + 3 * i] << 16;
    if (magic != 0x5CA1AB13u || data[4] != 4 || data[5] != 4 || data[6] != 1 || dim[0] != w ||
        dim[1] != h || dim[2] != 1)
        return NULL;
    return data + 16;
}
