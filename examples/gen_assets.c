/* gen_assets.c — writes the example assets of `make demo` into a folder (default
 * examples/assets), each only if absent: a photo-like colour image, a decal with soft alpha, a
 * tangent-space normal map (with a .meta saying so), a non-power-of-two image, a small HDR sky,
 * and two models (gen_model.c): models/rock.glb and models/arm.gltf with its arm.bin.
 * Everything comes from deterministic formulas and a fixed-seed PRNG, encoded with libspng (PNG)
 * or by hand (Radiance .hdr, glTF), so the bytes are the same on every run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_model.h"
#include "gen_util.h"

static int write_png(const char *path, const uint8_t *px, uint32_t w, uint32_t h, int channels)
{
    size_t len = 0;
    uint8_t *png = gen_png_encode(px, w, h, channels, &len, path);
    if (!png) return 1;
    int rc = gen_write_file(path, png, len);
    free(png);
    return rc;
}

static int write_text(const char *path, const char *text)
{
    return gen_write_file(path, text, strlen(text));
}

/* A landscape-like picture: sky gradient, hills, a sun, and film grain. */
static int gen_photo(const char *path)
{
    const uint32_t w = 512, h = 384;
    uint8_t *px = malloc((size_t)w * h * 3);
    gen_rng r = {0x9E3779B97F4A7C15ull};
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            double u = x / (double)w, v = y / (double)h;
            double hill = 0.62 + 0.08 * sin(u * 9.0) + 0.05 * sin(u * 23.0 + 1.3);
            double cr, cg, cb;
            if (v < hill) {
                cr = 90 + 120 * v;
                cg = 140 + 90 * v;
                cb = 235 - 40 * v;
                double dx = u - 0.75, dy = v - 0.22, d = sqrt(dx * dx + dy * dy);
                double sun = d < 0.06 ? 1.0 : exp(-(d - 0.06) * 30.0);
                cr += 160 * sun;
                cg += 120 * sun;
                cb += 20 * sun;
            } else {
                double t = (v - hill) / (1.0 - hill);
                cr = 60 + 40 * t + 20 * sin(x * 0.3);
                cg = 120 - 50 * t;
                cb = 40 + 10 * t;
            }
            double grain = ((int)(gen_rng_next(&r) % 17) - 8);
            uint8_t *p = px + ((size_t)y * w + x) * 3;
            p[0] = gen_clamp8(cr + grain);
            p[1] = gen_clamp8(cg + grain);
            p[2] = gen_clamp8(cb + grain);
        }
    }
    int rc = write_png(path, px, w, h, 3);
    free(px);
    return rc;
}

/* A round decal with a soft edge: colour stays meaningful where alpha is 0 only by accident,
 * which is what alpha-weighted mips must cope with. */
static int gen_decal(const char *path)
{
    const uint32_t n = 256;
    uint8_t *px = malloc((size_t)n * n * 4);
    for (uint32_t y = 0; y < n; y++) {
        for (uint32_t x = 0; x < n; x++) {
            double dx = (x + 0.5) / n - 0.5, dy = (y + 0.5) / n - 0.5;
            double d = sqrt(dx * dx + dy * dy);
            double a = d < 0.35 ? 1.0 : d > 0.45 ? 0.0 : (0.45 - d) / 0.1;
            int ring = ((int)(d * 40)) & 1;
            uint8_t *p = px + ((size_t)y * n + x) * 4;
            p[0] = a > 0 ? (ring ? 230 : 40) : 255; /* transparent texels are bright magenta */
            p[1] = a > 0 ? (ring ? 60 : 200) : 0;
            p[2] = a > 0 ? 50 : 255;
            p[3] = gen_clamp8(a * 255);
        }
    }
    int rc = write_png(path, px, n, n, 4);
    free(px);
    return rc;
}

/* A normal map of round bumps: normals from the gradient of a height field, OpenGL (+Y up). */
static int gen_normal(const char *path)
{
    const uint32_t n = 256;
    uint8_t *px = malloc((size_t)n * n * 3);
    for (uint32_t y = 0; y < n; y++) {
        for (uint32_t x = 0; x < n; x++) {
            double u = (x % 64 + 0.5) / 64 - 0.5, v = (y % 64 + 0.5) / 64 - 0.5;
            double r2 = u * u + v * v, k = 18.0;
            double e = exp(-r2 * k);
            double dhdx = -2 * k * u * e, dhdy = -2 * k * v * e;
            double nx = -dhdx * 0.5, ny = dhdy * 0.5, nz = 1.0;
            double len = sqrt(nx * nx + ny * ny + nz * nz);
            uint8_t *p = px + ((size_t)y * n + x) * 3;
            p[0] = gen_clamp8((nx / len * 0.5 + 0.5) * 255);
            p[1] = gen_clamp8((ny / len * 0.5 + 0.5) * 255);
            p[2] = gen_clamp8((nz / len * 0.5 + 0.5) * 255);
        }
    }
    int rc = write_png(path, px, n, n, 3);
    free(px);
    return rc;
}

/* 300x200: not a power of two and odd below level 2, so every mip rule is exercised. */
static int gen_npot(const char *path)
{
    const uint32_t w = 300, h = 200;
    uint8_t *px = malloc((size_t)w * h * 3);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px + ((size_t)y * w + x) * 3;
            int check = ((x / 25) + (y / 25)) & 1;
            p[0] = check ? 240 : (uint8_t)(x * 255 / w);
            p[1] = check ? 240 : (uint8_t)(y * 255 / h);
            p[2] = check ? 240 : 128;
        }
    int rc = write_png(path, px, w, h, 3);
    free(px);
    return rc;
}

/* Radiance RGBE, flat (uncompressed) scanlines: a sky whose sun is far above 1.0. */
static int gen_hdr(const char *path)
{
    const uint32_t w = 128, h = 64;
    char head[128];
    int hn =
        snprintf(head, sizeof head, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n", h, w);
    size_t size = (size_t)hn + (size_t)w * h * 4;
    uint8_t *buf = malloc(size);
    memcpy(buf, head, (size_t)hn);
    uint8_t *p = buf + hn;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++, p += 4) {
            double u = x / (double)w, v = y / (double)h;
            double dx = u - 0.3, dy = v - 0.3, sun = 40.0 * exp(-(dx * dx + dy * dy) * 400.0);
            double rgb[3] = {0.2 + 0.3 * v + sun, 0.4 + 0.3 * v + sun * 0.9,
                             0.9 - 0.2 * v + sun * 0.7};
            double m = rgb[0] > rgb[1] ? rgb[0] : rgb[1];
            if (rgb[2] > m) m = rgb[2];
            int ex;
            double f = frexp(m, &ex) * 256.0 / m;
            for (int c = 0; c < 3; c++) p[c] = (uint8_t)(rgb[c] * f);
            p[3] = (uint8_t)(ex + 128);
        }
    int rc = gen_write_file(path, buf, size);
    free(buf);
    return rc;
}

static int gen_arm_files(const char *path) { return gen_arm(path, "arm.bin"); }

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "examples/assets";
    static const char *const subs[] = {"textures", "models"};
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        char sub[GEN_PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", dir, subs[i]);
        if (gen_mkdirs(sub) != 0) return 1;
    }
    /* also: a second file the generator writes (made again when either is missing). */
    static const struct {
        const char *name;
        int (*fn)(const char *);
        const char *meta;
        const char *also;
    } assets[] = {
        {"textures/photo.png", gen_photo, NULL, NULL},
        {"textures/decal_alpha.png", gen_decal, NULL, NULL},
        {"textures/bumps_normal.png", gen_normal,
         "{\n  \"import\": {\n    \"texture\": {\n      \"normal_map\": true\n    }\n  }\n}\n",
         NULL},
        {"textures/checker_300x200.png", gen_npot,
         "{\n  \"import\": {\n    \"texture\": {\n      \"max_size\": 256\n    }\n  },\n"
         "  \"platforms\": {\n    \"mobile\": {\n      \"texture\": {\n        \"max_size\": 128\n "
         "     }\n    }\n  }\n}\n",
         NULL},
        {"textures/sky.hdr", gen_hdr, NULL, NULL},
        {"models/rock.glb", gen_rock, NULL, NULL},
        {"models/arm.gltf", gen_arm_files, NULL, "models/arm.bin"},
    };
    int rc = 0, made = 0;
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++) {
        char path[GEN_PATH_MAX], meta[GEN_PATH_MAX + 8], also[GEN_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, assets[i].name);
        snprintf(also, sizeof also, "%s/%s", dir, assets[i].also ? assets[i].also : assets[i].name);
        if (!gen_file_exists(path) || !gen_file_exists(also)) {
            rc |= assets[i].fn(path);
            made++;
        }
        snprintf(meta, sizeof meta, "%s.meta", path);
        if (assets[i].meta && !gen_file_exists(meta)) rc |= write_text(meta, assets[i].meta);
    }
    if (made) printf("generated %d example assets in %s\n", made, dir);
    return rc;
}
