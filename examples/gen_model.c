/* gen_model.c — the example models of `make demo` (gen_model.h), written as glTF 2.0 by hand:
 * JSON through snprintf, buffers little-endian, every buffer view 4-byte aligned, POSITION
 * accessors (morph targets too) and animation inputs with the exact float min/max the validator
 * expects. Geometry and textures come from formulas and value noise over a fixed-seed PRNG. */
#include "gen_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_util.h"

#define PI 3.14159265358979323846

enum {
    GL_UNSIGNED_BYTE = 5121,
    GL_UNSIGNED_SHORT = 5123,
    GL_FLOAT = 5126,
    GL_ARRAY_BUFFER = 34962,
    GL_ELEMENT_ARRAY_BUFFER = 34963,
};

/* ---- a glTF document's buffer, views and accessors ------------------------------------------ */

typedef struct gltf_out {
    gen_buf bin;       /* buffer 0 */
    gen_buf views;     /* the bufferViews array's members, comma-separated */
    gen_buf accessors; /* the same for accessors */
    unsigned view_count, accessor_count;
} gltf_out;

static void gltf_out_free(gltf_out *g)
{
    gen_buf_free(&g->bin);
    gen_buf_free(&g->views);
    gen_buf_free(&g->accessors);
}

/* %.9g prints every float so that it reads back as the same float. */
static void json_floats(gen_buf *j, const float *v, size_t n)
{
    gen_buf_printf(j, "[");
    for (size_t i = 0; i < n; i++) gen_buf_printf(j, "%s%.9g", i ? ", " : "", (double)v[i]);
    gen_buf_printf(j, "]");
}

/* Appends bytes to the buffer at a 4-byte boundary as a new view; returns its index. */
static unsigned add_view(gltf_out *g, const gen_buf *data, int target)
{
    gen_buf_pad(&g->bin, 4, 0);
    size_t offset = g->bin.size;
    gen_buf_put(&g->bin, data->data, data->size);
    gen_buf_printf(&g->views, "%s\n    {\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu",
                   g->view_count ? "," : "", offset, data->size);
    if (target) gen_buf_printf(&g->views, ", \"target\": %d", target);
    gen_buf_printf(&g->views, "}");
    return g->view_count++;
}

static const char *type_name(int comps)
{
    switch (comps) {
    case 1:
        return "SCALAR";
    case 2:
        return "VEC2";
    case 3:
        return "VEC3";
    case 4:
        return "VEC4";
    default:
        return "MAT4";
    }
}

/* Floats (count elements of comps components) in a view of their own, as an accessor; with
 * bounds, its min and max are written (POSITION and animation inputs need them). */
static unsigned add_floats(gltf_out *g, const float *v, size_t count, int comps, int target,
                           int bounds)
{
    gen_buf data = {0};
    for (size_t i = 0; i < count * (size_t)comps; i++) gen_buf_f32(&data, v[i]);
    unsigned view = add_view(g, &data, target);
    g->bin.failed |= data.failed;
    gen_buf_free(&data);
    gen_buf_printf(&g->accessors,
                   "%s\n    {\"bufferView\": %u, \"componentType\": %d, \"count\": %zu, "
                   "\"type\": \"%s\"",
                   g->accessor_count ? "," : "", view, GL_FLOAT, count, type_name(comps));
    if (bounds) {
        float lo[4], hi[4];
        for (int c = 0; c < comps; c++) lo[c] = hi[c] = v[c];
        for (size_t i = 1; i < count; i++)
            for (int c = 0; c < comps; c++) {
                float x = v[i * (size_t)comps + (size_t)c];
                if (x < lo[c]) lo[c] = x;
                if (x > hi[c]) hi[c] = x;
            }
        gen_buf_printf(&g->accessors, ", \"min\": ");
        json_floats(&g->accessors, lo, (size_t)comps);
        gen_buf_printf(&g->accessors, ", \"max\": ");
        json_floats(&g->accessors, hi, (size_t)comps);
    }
    gen_buf_printf(&g->accessors, "}");
    return g->accessor_count++;
}

/* Unsigned integers of 1 or 2 bytes (indices, joints) as an accessor in a view of its own. */
static unsigned add_uints(gltf_out *g, const void *v, size_t count, int comps, int ctype,
                          int target)
{
    gen_buf data = {0};
    for (size_t i = 0; i < count * (size_t)comps; i++) {
        if (ctype == GL_UNSIGNED_SHORT) gen_buf_u16(&data, ((const uint16_t *)v)[i]);
        else gen_buf_u8(&data, ((const uint8_t *)v)[i]);
    }
    unsigned view = add_view(g, &data, target);
    g->bin.failed |= data.failed;
    gen_buf_free(&data);
    gen_buf_printf(&g->accessors,
                   "%s\n    {\"bufferView\": %u, \"componentType\": %d, \"count\": %zu, "
                   "\"type\": \"%s\"}",
                   g->accessor_count ? "," : "", view, ctype, count, type_name(comps));
    return g->accessor_count++;
}

/* ---- value noise ---------------------------------------------------------------------------- */

typedef struct noise {
    uint8_t perm[512]; /* a shuffled 0..255, twice, so perm[perm[x] + y] needs no wrap */
    float value[256];  /* lattice values in [-1, 1) */
} noise;

static void noise_init(noise *n, uint64_t seed)
{
    gen_rng r = {seed};
    for (int i = 0; i < 256; i++) n->perm[i] = (uint8_t)i;
    for (int i = 255; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(gen_rng_next(&r) % (uint32_t)(i + 1));
        uint8_t t = n->perm[i];
        n->perm[i] = n->perm[j];
        n->perm[j] = t;
    }
    memcpy(n->perm + 256, n->perm, 256);
    for (int i = 0; i < 256; i++) n->value[i] = (float)(gen_rng_unit(&r) * 2.0 - 1.0);
}

static double fade(double t) { return t * t * t * (t * (t * 6 - 15) + 10); }

static double lerp(double a, double b, double t) { return a + (b - a) * t; }

static double lattice3(const noise *n, int x, int y, int z)
{
    return n->value[n->perm[n->perm[n->perm[x & 255] + (y & 255)] + (z & 255)]];
}

static double noise3(const noise *n, double x, double y, double z)
{
    double fx = floor(x), fy = floor(y), fz = floor(z);
    int ix = (int)fx, iy = (int)fy, iz = (int)fz;
    double u = fade(x - fx), v = fade(y - fy), w = fade(z - fz);
    double c[2][2];
    for (int dz = 0; dz < 2; dz++)
        for (int dy = 0; dy < 2; dy++)
            c[dz][dy] =
                lerp(lattice3(n, ix, iy + dy, iz + dz), lattice3(n, ix + 1, iy + dy, iz + dz), u);
    return lerp(lerp(c[0][0], c[0][1], v), lerp(c[1][0], c[1][1], v), w);
}

static double fbm3(const noise *n, double x, double y, double z, int octaves)
{
    double sum = 0, amp = 0.5;
    for (int o = 0; o < octaves; o++, amp *= 0.5, x *= 2, y *= 2, z *= 2)
        sum += amp * noise3(n, x, y, z);
    return sum;
}

/* 2D noise that tiles: the lattice repeats every `period` cells (a power of two <= 256), and
 * (u, v) in [0, 1) spans one period. */
static double noise2_tiled(const noise *n, double u, double v, int period)
{
    double x = u * period, y = v * period, fx = floor(x), fy = floor(y);
    int ix = (int)fx, iy = (int)fy, m = period - 1;
    double a = n->value[n->perm[n->perm[ix & m] + (iy & m)]];
    double b = n->value[n->perm[n->perm[(ix + 1) & m] + (iy & m)]];
    double c = n->value[n->perm[n->perm[ix & m] + ((iy + 1) & m)]];
    double d = n->value[n->perm[n->perm[(ix + 1) & m] + ((iy + 1) & m)]];
    double s = fade(x - fx), t = fade(y - fy);
    return lerp(lerp(a, b, s), lerp(c, d, s), t);
}

static double fbm2_tiled(const noise *n, double u, double v, int period, int octaves)
{
    double sum = 0, amp = 0.5;
    for (int o = 0; o < octaves && period <= 256; o++, amp *= 0.5, period *= 2)
        sum += amp * noise2_tiled(n, u, v, period);
    return sum;
}

/* ---- the rock (GLB) ------------------------------------------------------------------------- */

#define ROCK_SLICES 128 /* around */
#define ROCK_STACKS 80  /* pole to pole: 2 * 128 * 79 = 20224 triangles */
#define ROCK_TEX    256

/* Base colour: stone from dark to light, lichen patches, grain. Tiles in u and v. */
static uint8_t *rock_color_pixels(void)
{
    uint8_t *px = malloc((size_t)ROCK_TEX * ROCK_TEX * 3);
    if (!px) return NULL;
    noise stone, lichen;
    noise_init(&stone, 0x5EEDC0102ull);
    noise_init(&lichen, 0x11C4E77ull);
    gen_rng grain = {0xA11CE5ull};
    for (int y = 0; y < ROCK_TEX; y++)
        for (int x = 0; x < ROCK_TEX; x++) {
            double u = (double)x / ROCK_TEX, v = (double)y / ROCK_TEX;
            double h = 0.5 + fbm2_tiled(&stone, u, v, 8, 5);
            double l = fbm2_tiled(&lichen, u, v, 4, 4);
            double moss = l > 0.12 ? fmin(1.0, (l - 0.12) * 6) : 0.0;
            double g = (int)(gen_rng_next(&grain) % 13) - 6;
            double rgb[3] = {lerp(62, 158, h), lerp(56, 146, h), lerp(50, 128, h)};
            static const double lichen_rgb[3] = {104, 118, 58};
            uint8_t *p = px + ((size_t)y * ROCK_TEX + (size_t)x) * 3;
            for (int c = 0; c < 3; c++)
                p[c] = gen_clamp8(lerp(rgb[c], lichen_rgb[c], moss * 0.8) + g);
        }
    return px;
}

/* Tangent-space normals (OpenGL, +Y up) of a tiling height field, by central differences. */
static uint8_t *rock_normal_pixels(void)
{
    const size_t n = ROCK_TEX;
    double *height = malloc(n * n * sizeof *height);
    uint8_t *px = malloc(n * n * 3);
    if (!height || !px) {
        free(height);
        free(px);
        return NULL;
    }
    noise bumps;
    noise_init(&bumps, 0xB0B5ull);
    for (size_t y = 0; y < n; y++)
        for (size_t x = 0; x < n; x++) {
            double h = fbm2_tiled(&bumps, (double)x / n, (double)y / n, 16, 5);
            height[y * n + x] = fabs(h) * 2.0; /* creases where the noise crosses zero */
        }
    const double strength = 6.0;
    for (size_t y = 0; y < n; y++)
        for (size_t x = 0; x < n; x++) {
            double dhdx = (height[y * n + (x + 1) % n] - height[y * n + (x + n - 1) % n]) * 0.5;
            double dhdy = (height[((y + 1) % n) * n + x] - height[((y + n - 1) % n) * n + x]) * 0.5;
            double nx = -dhdx * strength, ny = dhdy * strength, nz = 1.0; /* image y runs down */
            double len = sqrt(nx * nx + ny * ny + nz * nz);
            uint8_t *p = px + (y * n + x) * 3;
            p[0] = gen_clamp8((nx / len * 0.5 + 0.5) * 255);
            p[1] = gen_clamp8((ny / len * 0.5 + 0.5) * 255);
            p[2] = gen_clamp8((nz / len * 0.5 + 0.5) * 255);
        }
    free(height);
    return px;
}

/* One id per distinct position: the seam column repeats column 0, each pole is one point. */
static size_t rock_uid(int s, int l)
{
    if (s == 0) return 0;
    if (s == ROCK_STACKS) return 1;
    return 2 + (size_t)(s - 1) * ROCK_SLICES + (size_t)(l % ROCK_SLICES);
}

typedef struct rock_mesh {
    float *pos, *nrm, *uv;
    uint16_t *idx;
    size_t vertex_count, index_count;
} rock_mesh;

static void rock_mesh_free(rock_mesh *m)
{
    free(m->pos);
    free(m->nrm);
    free(m->uv);
    free(m->idx);
}

static int rock_mesh_build(rock_mesh *m)
{
    const int S = ROCK_STACKS, L = ROCK_SLICES;
    m->vertex_count = (size_t)(S + 1) * (size_t)(L + 1);
    m->index_count = (size_t)2 * L * (S - 1) * 3;
    size_t uids = 2 + (size_t)(S - 1) * L;
    m->pos = malloc(m->vertex_count * 3 * sizeof(float));
    m->nrm = malloc(m->vertex_count * 3 * sizeof(float));
    m->uv = malloc(m->vertex_count * 2 * sizeof(float));
    m->idx = malloc(m->index_count * sizeof(uint16_t));
    double *acc = calloc(uids * 3, sizeof(double));
    if (!m->pos || !m->nrm || !m->uv || !m->idx || !acc) {
        free(acc);
        return 1;
    }
    noise shape;
    noise_init(&shape, 0x0C0FFEEull);
    for (int s = 0; s <= S; s++)
        for (int l = 0; l <= L; l++) {
            size_t v = (size_t)s * (size_t)(L + 1) + (size_t)l;
            /* Angles from the wrapped column so the seam and the poles repeat positions exactly. */
            double th = PI * s / S, ph = 2 * PI * (l % L) / L;
            double d[3] = {sin(th) * sin(ph), cos(th), sin(th) * cos(ph)};
            if (s == 0 || s == S) d[0] = 0, d[1] = s == 0 ? 1 : -1, d[2] = 0;
            double r = 1.0 + 0.32 * fbm3(&shape, d[0] * 1.3 + 7.1, d[1] * 1.3, d[2] * 1.3, 3) +
                       0.06 * fbm3(&shape, d[0] * 5 + 2.5, d[1] * 5 + 9.2, d[2] * 5, 3);
            m->pos[v * 3 + 0] = (float)(d[0] * r * 1.0);
            m->pos[v * 3 + 1] = (float)(d[1] * r * 0.72); /* a flattened boulder */
            m->pos[v * 3 + 2] = (float)(d[2] * r * 0.88);
            m->uv[v * 2 + 0] = (float)(2.0 * l / L); /* the texture tiles twice around */
            m->uv[v * 2 + 1] = (float)s / (float)S;
        }
    /* Triangles counter-clockwise seen from outside; the degenerate half of each pole quad is
     * left out. Face normals (area-weighted) accumulate per distinct position. */
    size_t k = 0;
    for (int s = 0; s < S; s++)
        for (int l = 0; l < L; l++) {
            uint16_t a = (uint16_t)(s * (L + 1) + l), b = (uint16_t)(a + 1);
            uint16_t c = (uint16_t)(a + L + 1), d = (uint16_t)(c + 1);
            uint16_t tri[2][3] = {{a, c, b}, {b, c, d}};
            for (int t = 0; t < 2; t++) {
                if ((s == 0 && t == 0) || (s == S - 1 && t == 1)) continue;
                const float *p0 = m->pos + tri[t][0] * 3, *p1 = m->pos + tri[t][1] * 3,
                            *p2 = m->pos + tri[t][2] * 3;
                double e1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
                double e2[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
                double fn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                                e1[0] * e2[1] - e1[1] * e2[0]};
                for (int i = 0; i < 3; i++) {
                    int vs = tri[t][i] / (L + 1), vl = tri[t][i] % (L + 1);
                    double *n = acc + rock_uid(vs, vl) * 3;
                    n[0] += fn[0], n[1] += fn[1], n[2] += fn[2];
                    m->idx[k++] = tri[t][i];
                }
            }
        }
    for (int s = 0; s <= S; s++)
        for (int l = 0; l <= L; l++) {
            const double *n = acc + rock_uid(s, l) * 3;
            double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            float *o = m->nrm + ((size_t)s * (size_t)(L + 1) + (size_t)l) * 3;
            for (int c = 0; c < 3; c++) o[c] = (float)(n[c] / len);
        }
    free(acc);
    return k == m->index_count ? 0 : 1;
}

/* Wraps a finished document into a GLB: the JSON chunk padded with spaces, the BIN chunk with
 * zeros, both to 4 bytes; the buffer's byteLength is the unpadded size. */
static int write_glb(const char *path, gen_buf *json, const gen_buf *bin)
{
    gen_buf_pad(json, 4, ' ');
    size_t bin_padded = (bin->size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json->size + 8 + bin_padded;
    if (json->failed || bin->failed || total > UINT32_MAX) {
        fprintf(stderr, "gen: %s: out of memory or too large\n", path);
        return 1;
    }
    gen_buf glb = {0};
    gen_buf_u32(&glb, 0x46546C67u); /* "glTF" */
    gen_buf_u32(&glb, 2);
    gen_buf_u32(&glb, (uint32_t)total);
    gen_buf_u32(&glb, (uint32_t)json->size);
    gen_buf_u32(&glb, 0x4E4F534Au); /* "JSON" */
    gen_buf_put(&glb, json->data, json->size);
    gen_buf_u32(&glb, (uint32_t)bin_padded);
    gen_buf_u32(&glb, 0x004E4942u); /* "BIN\0" */
    gen_buf_put(&glb, bin->data, bin->size);
    gen_buf_pad(&glb, 4, 0);
    int rc = glb.failed ? 1 : gen_write_file(path, glb.data, glb.size);
    if (glb.failed) fprintf(stderr, "gen: %s: out of memory\n", path);
    gen_buf_free(&glb);
    return rc;
}

int gen_rock(const char *glb_path)
{
    rock_mesh m = {0};
    gltf_out g = {0};
    gen_buf json = {0}, img = {0};
    uint8_t *color = rock_color_pixels(), *normal = rock_normal_pixels();
    size_t color_png_size = 0, normal_png_size = 0;
    uint8_t *color_png =
        color ? gen_png_encode(color, ROCK_TEX, ROCK_TEX, 3, &color_png_size, "rock colour") : NULL;
    uint8_t *normal_png =
        normal ? gen_png_encode(normal, ROCK_TEX, ROCK_TEX, 3, &normal_png_size, "rock normals")
               : NULL;
    int rc = 1;
    if (!color_png || !normal_png || rock_mesh_build(&m) != 0) {
        fprintf(stderr, "gen: %s: could not build the rock\n", glb_path);
        goto done;
    }
    unsigned a_pos = add_floats(&g, m.pos, m.vertex_count, 3, GL_ARRAY_BUFFER, 1);
    unsigned a_nrm = add_floats(&g, m.nrm, m.vertex_count, 3, GL_ARRAY_BUFFER, 0);
    unsigned a_uv = add_floats(&g, m.uv, m.vertex_count, 2, GL_ARRAY_BUFFER, 0);
    unsigned a_idx =
        add_uints(&g, m.idx, m.index_count, 1, GL_UNSIGNED_SHORT, GL_ELEMENT_ARRAY_BUFFER);
    gen_buf_put(&img, color_png, color_png_size);
    unsigned v_color = add_view(&g, &img, 0);
    img.size = 0;
    gen_buf_put(&img, normal_png, normal_png_size);
    unsigned v_normal = add_view(&g, &img, 0);
    if (g.bin.failed || g.views.failed || g.accessors.failed || img.failed) goto done;

    gen_buf_printf(
        &json,
        "{\n  \"asset\": {\"version\": \"2.0\", \"generator\": \"kiln examples/gen_assets\"},\n"
        "  \"scene\": 0,\n"
        "  \"scenes\": [{\"name\": \"rock\", \"nodes\": [0]}],\n"
        "  \"nodes\": [{\"name\": \"rock\", \"mesh\": 0}],\n"
        "  \"meshes\": [{\"name\": \"rock\", \"primitives\": [{\"attributes\": "
        "{\"POSITION\": %u, \"NORMAL\": %u, \"TEXCOORD_0\": %u}, \"indices\": %u, "
        "\"material\": 0}]}],\n",
        a_pos, a_nrm, a_uv, a_idx);
    gen_buf_printf(
        &json,
        "  \"materials\": [{\"name\": \"granite\", \"pbrMetallicRoughness\": "
        "{\"baseColorTexture\": {\"index\": 0}, \"metallicFactor\": 0, "
        "\"roughnessFactor\": 0.85}, \"normalTexture\": {\"index\": 1}}],\n"
        "  \"textures\": [{\"sampler\": 0, \"source\": 0}, {\"sampler\": 0, \"source\": 1}],\n"
        "  \"samplers\": [{\"magFilter\": 9729, \"minFilter\": 9987, \"wrapS\": 10497, "
        "\"wrapT\": 10497}],\n"
        "  \"images\": [{\"name\": \"rock_color\", \"bufferView\": %u, \"mimeType\": "
        "\"image/png\"}, {\"name\": \"rock_normal\", \"bufferView\": %u, \"mimeType\": "
        "\"image/png\"}],\n",
        v_color, v_normal);
    gen_buf_printf(&json, "  \"accessors\": [%s\n  ],\n", gen_buf_cstr(&g.accessors));
    gen_buf_printf(&json, "  \"bufferViews\": [%s\n  ],\n", gen_buf_cstr(&g.views));
    gen_buf_printf(&json, "  \"buffers\": [{\"byteLength\": %zu}]\n}\n", g.bin.size);
    rc = write_glb(glb_path, &json, &g.bin);
done:
    free(color);
    free(normal);
    free(color_png);
    free(normal_png);
    rock_mesh_free(&m);
    gltf_out_free(&g);
    gen_buf_free(&json);
    gen_buf_free(&img);
    return rc;
}

/* ---- the arm (.gltf + .bin) ----------------------------------------------------------------- */

#define ARM_SIDES  16
#define ARM_RINGS  13 /* y = 0, 0.25, ..., 3: joints at y = 0, 1, 2 */
#define ARM_KEYS   9  /* "wave": every 0.25 s over 2 s */
#define GRID       9  /* the morph grid: 9 x 9 vertices, 128 triangles */
#define PULSE_KEYS 5

/* A tapered tube along +Y, skinned to joints 0..2 with half-and-half rings at y = 1 and 2. */
static int arm_mesh(gltf_out *g, unsigned acc[5])
{
    enum { V = ARM_RINGS * ARM_SIDES, I = (ARM_RINGS - 1) * ARM_SIDES * 6 };
    float pos[V * 3], nrm[V * 3], wgt[V * 4];
    uint8_t jnt[V * 4];
    uint16_t idx[I];
    const double taper = 0.03; /* radius shrinks by this per unit of height */
    size_t k = 0;
    for (int r = 0; r < ARM_RINGS; r++) {
        double y = r * 0.25, radius = 0.3 - taper * y;
        for (int s = 0; s < ARM_SIDES; s++) {
            int v = r * ARM_SIDES + s;
            double ph = 2 * PI * s / ARM_SIDES;
            pos[v * 3 + 0] = (float)(radius * sin(ph));
            pos[v * 3 + 1] = (float)y;
            pos[v * 3 + 2] = (float)(radius * cos(ph));
            double len = sqrt(1.0 + taper * taper);
            nrm[v * 3 + 0] = (float)(sin(ph) / len);
            nrm[v * 3 + 1] = (float)(taper / len);
            nrm[v * 3 + 2] = (float)(cos(ph) / len);
            memset(jnt + v * 4, 0, 4);
            memset(wgt + v * 4, 0, 4 * sizeof(float));
            if (r == 4 || r == 8) { /* at a joint: shared by the bones either side */
                jnt[v * 4 + 0] = (uint8_t)(r / 4 - 1);
                jnt[v * 4 + 1] = (uint8_t)(r / 4);
                wgt[v * 4 + 0] = wgt[v * 4 + 1] = 0.5f;
            } else {
                jnt[v * 4 + 0] = (uint8_t)(r < 4 ? 0 : r < 8 ? 1 : 2);
                wgt[v * 4 + 0] = 1.0f;
            }
            if (r + 1 < ARM_RINGS) {
                uint16_t a = (uint16_t)v, b = (uint16_t)(r * ARM_SIDES + (s + 1) % ARM_SIDES);
                uint16_t c = (uint16_t)(a + ARM_SIDES), d = (uint16_t)(b + ARM_SIDES);
                uint16_t quad[6] = {a, b, c, b, d, c}; /* counter-clockwise from outside */
                memcpy(idx + k, quad, sizeof quad);
                k += 6;
            }
        }
    }
    acc[0] = add_floats(g, pos, V, 3, GL_ARRAY_BUFFER, 1);
    acc[1] = add_floats(g, nrm, V, 3, GL_ARRAY_BUFFER, 0);
    acc[2] = add_uints(g, jnt, V, 4, GL_UNSIGNED_BYTE, GL_ARRAY_BUFFER);
    acc[3] = add_floats(g, wgt, V, 4, GL_ARRAY_BUFFER, 0);
    acc[4] = add_uints(g, idx, I, 1, GL_UNSIGNED_SHORT, GL_ELEMENT_ARRAY_BUFFER);
    return k == I ? 0 : 1;
}

/* A flat 1 x 1 grid facing +Z with two morph targets: "bulge" lifts the middle, "ripple" waves
 * across x. acc: position, normal, indices, target 0 and target 1 positions. */
static void grid_mesh(gltf_out *g, unsigned acc[5])
{
    enum { V = GRID * GRID, I = (GRID - 1) * (GRID - 1) * 6 };
    float pos[V * 3], nrm[V * 3], bulge[V * 3], ripple[V * 3];
    uint16_t idx[I];
    size_t k = 0;
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++) {
            int v = j * GRID + i;
            double x = (double)i / (GRID - 1) - 0.5, y = (double)j / (GRID - 1) - 0.5;
            pos[v * 3 + 0] = (float)x, pos[v * 3 + 1] = (float)y, pos[v * 3 + 2] = 0;
            nrm[v * 3 + 0] = 0, nrm[v * 3 + 1] = 0, nrm[v * 3 + 2] = 1;
            double r2 = x * x + y * y;
            bulge[v * 3 + 0] = bulge[v * 3 + 1] = 0;
            bulge[v * 3 + 2] = (float)(r2 < 0.25 ? 0.4 * (1 - r2 * 4) : 0.0);
            ripple[v * 3 + 0] = ripple[v * 3 + 1] = 0;
            ripple[v * 3 + 2] = (float)(0.12 * sin(3 * PI * x));
            if (i + 1 < GRID && j + 1 < GRID) {
                uint16_t a = (uint16_t)v, b = (uint16_t)(v + 1);
                uint16_t c = (uint16_t)(v + GRID), d = (uint16_t)(c + 1);
                uint16_t quad[6] = {a, b, c, b, d, c};
                memcpy(idx + k, quad, sizeof quad);
                k += 6;
            }
        }
    acc[0] = add_floats(g, pos, V, 3, GL_ARRAY_BUFFER, 1);
    acc[1] = add_floats(g, nrm, V, 3, GL_ARRAY_BUFFER, 0);
    acc[2] = add_uints(g, idx, I, 1, GL_UNSIGNED_SHORT, GL_ELEMENT_ARRAY_BUFFER);
    acc[3] = add_floats(g, bulge, V, 3, GL_ARRAY_BUFFER, 1);
    acc[4] = add_floats(g, ripple, V, 3, GL_ARRAY_BUFFER, 1);
}

int gen_arm(const char *gltf_path, const char *bin_name)
{
    gltf_out g = {0};
    gen_buf json = {0};
    unsigned arm[5], grid[5];
    int rc = arm_mesh(&g, arm);
    grid_mesh(&g, grid);

    /* Inverse bind matrices: joint j sits at (0, j, 0) in the bind pose. */
    float ibm[3 * 16];
    for (int j = 0; j < 3; j++) {
        float *m = ibm + j * 16;
        memset(m, 0, 16 * sizeof(float));
        m[0] = m[5] = m[10] = m[15] = 1;
        m[13] = (float)-j;
    }
    unsigned a_ibm = add_floats(&g, ibm, 3, 16, 0, 0);

    /* "wave": each joint swings about Z, a little later and further up the chain. */
    float times[ARM_KEYS], rot[3][ARM_KEYS * 4];
    for (int k = 0; k < ARM_KEYS; k++) {
        times[k] = (float)(k * 0.25);
        for (int j = 0; j < 3; j++) {
            double angle = (0.35 + 0.22 * j) * sin(PI * k * 0.25 - 0.6 * j);
            rot[j][k * 4 + 0] = 0, rot[j][k * 4 + 1] = 0;
            rot[j][k * 4 + 2] = (float)sin(angle / 2), rot[j][k * 4 + 3] = (float)cos(angle / 2);
        }
    }
    unsigned a_times = add_floats(&g, times, ARM_KEYS, 1, 0, 1);
    unsigned a_rot[3];
    for (int j = 0; j < 3; j++) a_rot[j] = add_floats(&g, rot[j], ARM_KEYS, 4, 0, 0);
    /* A STEP track: the root hops sideways and back. */
    static const float step_times[4] = {0, 0.5f, 1, 1.5f};
    static const float step_values[12] = {0, 0, 0, 0.1f, 0, 0, 0, 0, 0, -0.1f, 0, 0};
    unsigned a_step_t = add_floats(&g, step_times, 4, 1, 0, 1);
    unsigned a_step_v = add_floats(&g, step_values, 4, 3, 0, 0);
    /* "pulse": the grid's two morph weights. */
    static const float pulse_times[PULSE_KEYS] = {0, 0.5f, 1, 1.5f, 2};
    static const float pulse_weights[PULSE_KEYS * 2] = {0, 0, 1, 0, 0, 1, 1, 1, 0, 0};
    unsigned a_pulse_t = add_floats(&g, pulse_times, PULSE_KEYS, 1, 0, 1);
    unsigned a_pulse_w = add_floats(&g, pulse_weights, PULSE_KEYS * 2, 1, 0, 0);
    if (rc || g.bin.failed || g.views.failed || g.accessors.failed) {
        fprintf(stderr, "gen: %s: could not build the arm\n", gltf_path);
        gltf_out_free(&g);
        return 1;
    }

    const double sun_half = -PI / 8; /* 45 degrees down about X */
    gen_buf_printf(
        &json,
        "{\n  \"asset\": {\"version\": \"2.0\", \"generator\": \"kiln examples/gen_assets\"},\n"
        "  \"extensionsUsed\": [\"KHR_lights_punctual\"],\n"
        "  \"extensions\": {\"KHR_lights_punctual\": {\"lights\": [{\"name\": \"sun\", "
        "\"type\": \"directional\", \"color\": [1, 0.95, 0.9], \"intensity\": 3}]}},\n"
        "  \"scene\": 0,\n"
        "  \"scenes\": [{\"name\": \"arm\", \"nodes\": [0, 1, 4, 5, 6]}],\n");
    gen_buf_printf(&json,
                   "  \"nodes\": [\n"
                   "    {\"name\": \"arm\", \"mesh\": 0, \"skin\": 0},\n"
                   "    {\"name\": \"shoulder\", \"children\": [2]},\n"
                   "    {\"name\": \"elbow\", \"translation\": [0, 1, 0], \"children\": [3]},\n"
                   "    {\"name\": \"wrist\", \"translation\": [0, 1, 0]},\n"
                   "    {\"name\": \"flag\", \"mesh\": 1, \"translation\": [1.5, 1, 0]},\n"
                   "    {\"name\": \"camera\", \"camera\": 0, \"translation\": [0.75, 1.5, 6]},\n"
                   "    {\"name\": \"sun\", \"rotation\": [%.9g, 0, 0, %.9g], "
                   "\"extensions\": {\"KHR_lights_punctual\": {\"light\": 0}}}\n  ],\n",
                   (double)(float)sin(sun_half), (double)(float)cos(sun_half));
    gen_buf_printf(
        &json,
        "  \"cameras\": [{\"name\": \"view\", \"type\": \"perspective\", \"perspective\": "
        "{\"yfov\": 0.7, \"aspectRatio\": 1.5, \"znear\": 0.1, \"zfar\": 100}}],\n"
        "  \"skins\": [{\"name\": \"arm_skin\", \"joints\": [1, 2, 3], \"skeleton\": 1, "
        "\"inverseBindMatrices\": %u}],\n",
        a_ibm);
    gen_buf_printf(&json,
                   "  \"meshes\": [\n"
                   "    {\"name\": \"arm\", \"primitives\": [{\"attributes\": {\"POSITION\": %u, "
                   "\"NORMAL\": %u, \"JOINTS_0\": %u, \"WEIGHTS_0\": %u}, \"indices\": %u, "
                   "\"material\": 0}]},\n",
                   arm[0], arm[1], arm[2], arm[3], arm[4]);
    gen_buf_printf(&json,
                   "    {\"name\": \"flag\", \"primitives\": [{\"attributes\": {\"POSITION\": %u, "
                   "\"NORMAL\": %u}, \"indices\": %u, \"material\": 1, \"targets\": "
                   "[{\"POSITION\": %u}, {\"POSITION\": %u}]}], \"weights\": [0, 0], "
                   "\"extras\": {\"targetNames\": [\"bulge\", \"ripple\"]}}\n  ],\n",
                   grid[0], grid[1], grid[2], grid[3], grid[4]);
    gen_buf_printf(&json,
                   "  \"materials\": [\n"
                   "    {\"name\": \"paint\", \"pbrMetallicRoughness\": {\"baseColorFactor\": "
                   "[0.9, 0.45, 0.15, 1], \"metallicFactor\": 0, \"roughnessFactor\": 0.6}},\n"
                   "    {\"name\": \"cloth\", \"doubleSided\": true, \"pbrMetallicRoughness\": "
                   "{\"baseColorFactor\": [0.2, 0.4, 0.9, 1], \"metallicFactor\": 0}}\n  ],\n");
    gen_buf_printf(
        &json,
        "  \"animations\": [\n"
        "    {\"name\": \"wave\", \"samplers\": [\n"
        "      {\"input\": %u, \"output\": %u, \"interpolation\": \"LINEAR\"},\n"
        "      {\"input\": %u, \"output\": %u, \"interpolation\": \"LINEAR\"},\n"
        "      {\"input\": %u, \"output\": %u, \"interpolation\": \"LINEAR\"},\n"
        "      {\"input\": %u, \"output\": %u, \"interpolation\": \"STEP\"}],\n"
        "     \"channels\": [\n"
        "      {\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"rotation\"}},\n"
        "      {\"sampler\": 1, \"target\": {\"node\": 2, \"path\": \"rotation\"}},\n"
        "      {\"sampler\": 2, \"target\": {\"node\": 3, \"path\": \"rotation\"}},\n"
        "      {\"sampler\": 3, \"target\": {\"node\": 1, \"path\": \"translation\"}}]},\n",
        a_times, a_rot[0], a_times, a_rot[1], a_times, a_rot[2], a_step_t, a_step_v);
    gen_buf_printf(&json,
                   "    {\"name\": \"pulse\", \"samplers\": [{\"input\": %u, \"output\": %u, "
                   "\"interpolation\": \"LINEAR\"}],\n"
                   "     \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 4, \"path\": "
                   "\"weights\"}}]}\n  ],\n",
                   a_pulse_t, a_pulse_w);
    gen_buf_printf(&json, "  \"accessors\": [%s\n  ],\n", gen_buf_cstr(&g.accessors));
    gen_buf_printf(&json, "  \"bufferViews\": [%s\n  ],\n", gen_buf_cstr(&g.views));
    gen_buf_printf(&json, "  \"buffers\": [{\"uri\": \"%s\", \"byteLength\": %zu}]\n}\n", bin_name,
                   g.bin.size);

    /* The buffer first: a .gltf is only written once what it points to is there. */
    char bin_path[4096];
    const char *slash = strrchr(gltf_path, '/');
    int dir_len = slash ? (int)(slash - gltf_path + 1) : 0;
    if (snprintf(bin_path, sizeof bin_path, "%.*s%s", dir_len, gltf_path, bin_name) >=
            (int)sizeof bin_path ||
        json.failed) {
        fprintf(stderr, "gen: %s: out of memory or path too long\n", gltf_path);
        rc = 1;
    } else {
        rc = gen_write_file(bin_path, g.bin.data, g.bin.size);
        if (!rc) rc = gen_write_file(gltf_path, json.data, json.size);
    }
    gltf_out_free(&g);
    gen_buf_free(&json);
    return rc;
}
