/* vgeo_mesh.c — see vgeo_mesh.h. */
#include "vgeo_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void vm_free(vm_mesh *m)
{
    free(m->positions);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

/* A lat-long sphere of radius ~1 displaced by a smooth bump pattern; the u = 0 / 1 column and
 * the pole rows are separate vertices at equal positions (UV seams, as an artist's mesh has). */
vm_mesh vm_displaced_sphere(uint32_t segments, uint32_t rings)
{
    vm_mesh m;
    m.vertex_count = (segments + 1) * (rings + 1);
    m.positions = malloc((size_t)m.vertex_count * 3 * sizeof(float));
    m.index_count = (size_t)segments * (rings - 1) * 6;
    m.indices = malloc(m.index_count * sizeof(uint32_t));
    if (!m.positions || !m.indices) abort();
    const double pi = 3.14159265358979323846;
    for (uint32_t r = 0; r <= rings; r++)
        for (uint32_t s = 0; s <= segments; s++) {
            float *p = m.positions + ((size_t)r * (segments + 1) + s) * 3;
            double th = pi * r / rings, ph = 2 * pi * (s % segments) / segments;
            double d[3] = {sin(th) * cos(ph), cos(th), sin(th) * sin(ph)};
            if (r == 0 || r == rings) d[0] = d[2] = 0, d[1] = r == 0 ? 1 : -1;
            double rad = 1 + 0.06 * sin(9 * d[0]) * cos(7 * d[1]) * sin(5 * d[2] + 1);
            for (int c = 0; c < 3; c++) p[c] = (float)(d[c] * rad);
        }
    size_t k = 0;
    for (uint32_t r = 0; r < rings; r++)
        for (uint32_t s = 0; s < segments; s++) {
            uint32_t a = r * (segments + 1) + s, b = a + 1, c = a + segments + 1, d = c + 1;
            if (r != 0) m.indices[k++] = a, m.indices[k++] = b, m.indices[k++] = c;
            if (r != rings - 1) m.indices[k++] = b, m.indices[k++] = d, m.indices[k++] = c;
        }
    m.index_count = k;
    return m;
}

/* An open n x n grid, gently waved, plus (pieces 2) a second grid beside it. */
vm_mesh vm_wavy_plane(uint32_t n, int pieces)
{
    vm_mesh m;
    uint32_t per = (n + 1) * (n + 1);
    m.vertex_count = per * (uint32_t)pieces;
    m.positions = malloc((size_t)m.vertex_count * 3 * sizeof(float));
    m.index_count = (size_t)n * n * 6 * (size_t)pieces;
    m.indices = malloc(m.index_count * sizeof(uint32_t));
    if (!m.positions || !m.indices) abort();
    size_t k = 0;
    for (int piece = 0; piece < pieces; piece++) {
        uint32_t base = per * (uint32_t)piece;
        for (uint32_t y = 0; y <= n; y++)
            for (uint32_t x = 0; x <= n; x++) {
                float *p = m.positions + ((size_t)base + y * (n + 1) + x) * 3;
                double u = (double)x / n, v = (double)y / n;
                p[0] = (float)(u + 1.5 * piece);
                p[1] = (float)v;
                p[2] = (float)(0.05 * sin(6 * u) * cos(4 * v));
            }
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) {
                uint32_t a = base + y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
                m.indices[k++] = a, m.indices[k++] = b, m.indices[k++] = d;
                m.indices[k++] = a, m.indices[k++] = d, m.indices[k++] = c;
            }
    }
    return m;
}
