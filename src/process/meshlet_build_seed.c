/* meshlet_build_seed.c — where the meshlet builder restarts when a meshlet has no neighbour
 * left (meshlet_build_private.h): triangles sorted by the Morton code of their centroids (a grid
 * over the centroids' box fine enough for a few triangles a cell, one counting-sort pass), and
 * the nearest live triangle to a point found among the live ones just before and after the
 * point's own code. */
#include <math.h>
#include <string.h>

#include "process/meshlet_build_private.h"

#define LOOK 8 /* live triangles examined on each side of the query's place */

/* The 27 cells around a cell, as offsets, its own first. */
static const int8_t AROUND[27][3] = {
    {0, 0, 0},  {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {1, 1, 0},   {-1, 1, 0},  {0, -1, 0},
    {1, -1, 0}, {-1, -1, 0}, {0, 0, 1},   {1, 0, 1},   {-1, 0, 1},  {0, 1, 1},   {1, 1, 1},
    {-1, 1, 1}, {0, -1, 1},  {1, -1, 1},  {-1, -1, 1}, {0, 0, -1},  {1, 0, -1},  {-1, 0, -1},
    {0, 1, -1}, {1, 1, -1},  {-1, 1, -1}, {0, -1, -1}, {1, -1, -1}, {-1, -1, -1}};

/* Bits of x (10 at most) spread to every third bit. */
static uint32_t spread3(uint32_t x)
{
    x &= 0x3FFu;
    x = (x | (x << 16)) & 0x030000FFu;
    x = (x | (x << 8)) & 0x0300F00Fu;
    x = (x | (x << 4)) & 0x030C30C3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

/* p's grid coordinates, clamped (NaN gives 0). */
static void grid(const kiln_meshlet_seeds *s, const float p[3], uint32_t q[3])
{
    float top = (float)((1u << s->bits) - 1);
    for (int i = 0; i < 3; i++) {
        float f = (p[i] - s->lo[i]) * s->scale[i];
        q[i] = f > 0 ? (f < top ? (uint32_t)f : (uint32_t)top) : 0u;
    }
}

static uint32_t cell_code(const kiln_meshlet_seeds *s, const uint32_t q[3])
{
    return s->spread[q[0]] | (s->spread[q[1]] << 1) | (s->spread[q[2]] << 2);
}

/* The cell of p, in Morton order. */
static uint32_t morton(const kiln_meshlet_seeds *s, const float p[3])
{
    uint32_t q[3];
    grid(s, p, q);
    return cell_code(s, q);
}

kiln_result kiln_meshlet_seeds_build(kiln_meshlet_seeds *s, const kiln_allocator *alloc,
                                     const kiln_meshlet_cone *cone, const uint8_t *done,
                                     uint32_t tri_count, kiln_error *err)
{
    memset(s, 0, sizeof *s);
    /* The centroids' box (NaN compares false: left out). */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t t = 0; t < tri_count; t++)
        for (int i = 0; i < 3; i++) {
            float c = cone[t].c[i];
            lo[i] = c < lo[i] ? c : lo[i];
            hi[i] = c > hi[i] ? c : hi[i];
        }
    for (int i = 0; i < 3; i++)
        if (!(lo[i] <= hi[i])) lo[i] = hi[i] = 0.0f;
    s->alloc = alloc;
    s->tri_count = tri_count;
    /* About 2 to 16 triangles a cell: one counting-sort pass over 2^(3 bits) cells. Within a
     * cell triangles keep their order (the caller's, usually spatially coherent). */
    s->bits = 1;
    while (s->bits < 10 && ((size_t)8 << (3 * s->bits)) <= tri_count) s->bits++;
    size_t cells = (size_t)1 << (3 * s->bits);
    /* words: tcode/next, code, prev, order, rank, 3 centroid coordinates; cells; then bytes */
    size_t n = (size_t)tri_count + 1, words, size;
    if (!kiln_size_mul(n, 8, &words) || !kiln_size_add(words, cells, &words) ||
        !kiln_size_mul(words, sizeof(uint32_t), &size) || !kiln_size_add(size, n, &size))
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "meshlets: restart index too large");
    uint32_t *block = kiln_alloc_large(alloc, size);
    if (!block) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "meshlets: restart index");
    s->block = block, s->block_size = size;
    for (uint32_t i = 0; i < (1u << s->bits); i++) s->spread[i] = spread3(i);
    s->cell2 = INFINITY;
    for (int i = 0; i < 3; i++) {
        float e = hi[i] - lo[i];
        s->lo[i] = lo[i];
        s->scale[i] = e > 0 && e < 3e38f ? (float)(1u << s->bits) / e : 0.0f;
        /* the smallest cell side, squared: gaps in cells times this never exceed real ones */
        float side = s->scale[i] > 0 ? 1.0f / s->scale[i] : 0.0f;
        if (side * side < s->cell2) s->cell2 = side * side;
    }
    uint32_t *tcode = block, *code = block + n, *order = block + 2 * n, *rank = block + 4 * n;
    float *sc = (float *)(block + 5 * n);
    uint32_t *count = block + 8 * n;
    uint8_t *sdone = (uint8_t *)(count + cells);
    memset(count, 0, cells * sizeof *count);
    for (uint32_t t = 0; t < tri_count; t++) {
        tcode[t] = morton(s, cone[t].c);
        count[tcode[t]]++;
    }
    uint32_t sum = 0;
    for (size_t c = 0; c < cells; c++) {
        uint32_t k = count[c];
        count[c] = sum, sum += k;
    }
    for (uint32_t t = 0; t < tri_count; t++) {
        uint32_t d = count[tcode[t]]++;
        code[d] = tcode[t], order[d] = t, rank[t] = d;
        memcpy(sc + (size_t)d * 3, cone[t].c, 3 * sizeof(float));
        sdone[d] = done[t];
    }
    s->code = code, s->order = order, s->cell_end = count; /* count[c] is now c's end */
    s->rank = rank, s->c = sc, s->done = sdone;
    s->next = tcode, s->prev = block + 3 * n;
    for (uint32_t i = 0; i <= tri_count; i++) s->next[i] = i, s->prev[i] = i;
    return KILN_OK;
}

/* The first live place at or after i (tri_count if none). next[j] > j says [j, next[j]) is
 * emitted. */
static uint32_t next_live(kiln_meshlet_seeds *s, uint32_t i)
{
    uint32_t r = i, n = s->tri_count;
    while (r < n) {
        if (s->next[r] != r) r = s->next[r];
        else if (s->done[r]) s->next[r] = r + 1, r++;
        else break;
    }
    for (uint32_t j = i; j < r;) {
        uint32_t k = s->next[j];
        s->next[j] = r;
        j = k > j ? k : j + 1;
    }
    return r;
}

/* The last live place at or before i - 1, plus one (0 if none): prev[j] < j says places
 * [prev[j], j) (shifted by one) are emitted. */
static uint32_t prev_live(kiln_meshlet_seeds *s, uint32_t i)
{
    uint32_t r = i;
    while (r > 0) {
        if (s->prev[r] != r) r = s->prev[r];
        else if (s->done[r - 1]) s->prev[r] = r - 1, r--;
        else break;
    }
    for (uint32_t j = i; j > r;) {
        uint32_t k = s->prev[j];
        s->prev[j] = r;
        j = k < j ? k : j - 1;
    }
    return r;
}

/* Squared distance from p to the centroid at place r. */
static float dist2(const kiln_meshlet_seeds *s, uint32_t r, const float p[3])
{
    const float *c = s->c + (size_t)r * 3;
    float dx = c[0] - p[0], dy = c[1] - p[1], dz = c[2] - p[2];
    return dx * dx + dy * dy + dz * dz;
}

uint32_t kiln_meshlet_seeds_nearest(kiln_meshlet_seeds *s, const float p[3])
{
    /* The nearest live triangle in p's cell and the 26 around it (p's own cell first; a cell
     * farther from p than the best so far is skipped)... */
    uint32_t g[3], best = UINT32_MAX, side = 1u << s->bits;
    float best_d = 0, f[3];
    grid(s, p, g);
    for (int i = 0; i < 3; i++) {
        f[i] = (p[i] - s->lo[i]) * s->scale[i] - (float)g[i]; /* p's place in its cell, 0..1 */
        if (!(f[i] >= 0.0f && f[i] <= 1.0f)) f[i] = f[i] > 1.0f ? 1.0f : 0.0f; /* clamped, NaN */
    }
    /* squared distances from p to the lower / own / upper slab of cells, an axis */
    float slab[3][3];
    for (int i = 0; i < 3; i++)
        slab[i][0] = f[i] * f[i], slab[i][1] = 0.0f, slab[i][2] = (1.0f - f[i]) * (1.0f - f[i]);
    for (int n = 0; n < 27; n++) {
        const int8_t *d = AROUND[n];
        uint32_t c[3];
        float gap = 0; /* squared distance from p to the cell, in cells */
        for (int i = 0; i < 3; i++) {
            c[i] = g[i] + (uint32_t)(int32_t)d[i];
            gap += slab[i][d[i] + 1];
        }
        if (c[0] >= side || c[1] >= side || c[2] >= side) continue; /* wrapped: outside */
        if (best != UINT32_MAX && gap * s->cell2 >= best_d) continue;
        /* a cell holds a few triangles: a plain scan of its places */
        uint32_t code = cell_code(s, c), end = s->cell_end[code];
        for (uint32_t r = code ? s->cell_end[code - 1] : 0; r < end; r++) {
            if (s->done[r]) continue;
            uint32_t t = s->order[r];
            float dd = dist2(s, r, p);
            if (best == UINT32_MAX || dd < best_d || (dd == best_d && t < best))
                best = t, best_d = dd;
        }
    }
    if (best != UINT32_MAX) return best;
    /* ...else (all of them used up) among those just before and after p's place in Morton
     * order. */
    uint32_t q = morton(s, p), lo = 0, hi = s->tri_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->code[mid] < q) lo = mid + 1;
        else hi = mid;
    }
    uint32_t r = lo;
    for (int k = 0; k < LOOK; k++) {
        r = next_live(s, r);
        if (r >= s->tri_count) break;
        float d = dist2(s, r, p);
        uint32_t t = s->order[r++];
        if (best == UINT32_MAX || d < best_d || (d == best_d && t < best)) best = t, best_d = d;
    }
    uint32_t l = lo; /* one past the place to look at */
    for (int k = 0; k < LOOK; k++) {
        l = prev_live(s, l);
        if (l == 0) break;
        --l;
        float d = dist2(s, l, p);
        uint32_t t = s->order[l];
        if (best == UINT32_MAX || d < best_d || (d == best_d && t < best)) best = t, best_d = d;
    }
    return best;
}

void kiln_meshlet_seeds_free(kiln_meshlet_seeds *s)
{
    kiln_free_large(s->alloc, s->block, s->block_size);
    memset(s, 0, sizeof *s);
}
