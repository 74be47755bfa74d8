/* cube.h — cube-map math as Vulkan samples a cube image, and the conversions of an
 * equirectangular panorama or a cross/strip image into six faces.
 *
 * A float cube is 6 faces of size x size texels, 4 floats (linear RGBA) each, faces contiguous
 * in the order +X, -X, +Y, -Y, +Z, -Z (KTX2 / Vulkan layer order), each face's rows top to
 * bottom as Vulkan samples a cube image: t = 0 is the first row in memory (Vulkan spec, "Cube
 * Map Face Selection and Transformations"). docs/ibl.md draws the layouts. */
#ifndef KILN_PROCESS_CUBE_H
#define KILN_PROCESS_CUBE_H

#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "kiln/kiln_format.h"

enum {
    KILN_CUBE_POS_X = 0,
    KILN_CUBE_NEG_X = 1,
    KILN_CUBE_POS_Y = 2,
    KILN_CUBE_NEG_Y = 3,
    KILN_CUBE_POS_Z = 4,
    KILN_CUBE_NEG_Z = 5,
};

/* Floats in one cube of face size `size`: 6 * size * size * 4. */
static inline size_t kiln_cube_float_count(uint32_t size) { return (size_t)6 * size * size * 4; }

/* The unit direction that face coordinates (s, t) of face (0..5) map to: Vulkan's table read
 * backwards (sc = 2s - 1, tc = 2t - 1; +X: (1, -tc, -sc), -X: (-1, -tc, sc), +Y: (sc, 1, tc),
 * -Y: (sc, -1, -tc), +Z: (sc, -tc, 1), -Z: (-sc, -tc, -1), normalised). s, t outside [0, 1]
 * extrapolate on the face's plane. face > 5 gives (0, 0, 0). */
void kiln_cube_dir(uint32_t face, float s, float t, float dir[3]);
void kiln_cube_dir_d(uint32_t face, double s, double t, double dir[3]); /* the same in double */

/* The face a direction selects and its (s, t) in [0, 1] (Vulkan's table: the major axis is the
 * component of largest magnitude; ties go to X over Y over Z). dir need not be unit length;
 * (0, 0, 0) gives +X, s = t = 0.5. */
void kiln_cube_from_dir(const float dir[3], uint32_t *face, float *s, float *t);
void kiln_cube_from_dir_d(const double dir[3], uint32_t *face, double *s, double *t);

/* Exact solid angle (steradians) of texel (x, y) of a size x size face (the same on every
 * face): the integral of the projected area element over the texel's square. Summed over the
 * cube it is 4 pi. */
double kiln_cube_texel_solid_angle(uint32_t size, uint32_t x, uint32_t y);

/* The same for every texel of a face at once: out receives size * size values, row by row.
 * Takes one arctangent per texel corner instead of four per texel; the values equal
 * kiln_cube_texel_solid_angle's up to rounding (not bit for bit). */
void kiln_cube_texel_solid_angles(uint32_t size, double *out);

/* The default face size for a w x h panorama: w / 4 (which keeps the equator's texel density)
 * rounded to the nearest power of two (ties up), at least 1, at most 8192. */
uint32_t kiln_cube_face_size_for_equirect(uint32_t w, uint32_t h);

/* Resamples an equirectangular panorama into a cube. rgba holds w x h texels of 4 floats, rows
 * top to bottom; faces receives kiln_cube_float_count(size) floats.
 *
 * Orientation (three.js's equirectUv and the glTF Sample Viewer's panorama_to_cubemap): the
 * direction d = (x, y, z) reads the panorama at u = 0.5 + atan2(z, x) / (2 pi) (across, 0 the
 * left edge) and v = acos(y) / pi (down, 0 the top row): the top row is +Y, the bottom row -Y,
 * the panorama's centre faces +X, a quarter from the left edge faces -Z, three quarters +Z, and
 * both side edges face -X. Any aspect ratio is accepted (2:1 is the usual one).
 *
 * Filtered: each cube texel averages n x n evenly spaced points over its area, each read
 * bilinearly (columns wrap, rows clamp), with n the ratio of the cube texel's angular size to
 * the panorama's (at least 1, at most 16), so a 4096-wide sky into 512 faces does not alias.
 * Deterministic; rows run on jobs (NULL: the calling thread), same bits for any thread count.
 * Errors: KILN_E_USAGE (a zero size or NULL buffer), KILN_E_LIMIT (size above 16384). */
kiln_result kiln_cube_from_equirect(const float *rgba, uint32_t w, uint32_t h, uint32_t size,
                                    kiln_jobs *jobs, float *faces, kiln_error *err);

/* Layouts of six faces in one image. The face cells are square and carry faces in their Vulkan
 * memory orientation (row 0 of the face is the cell's top row) except where said:
 *   horizontal cross (4 x 3 cells):  . +Y .  .  /  -X +Z +X -Z  /  . -Y .  .
 *   vertical cross (3 x 4 cells):    . +Y .  /  -X +Z +X  /  . -Y .  /  . -Z .   (-Z turned
 *                                    180 degrees, so its edges meet -Y's and the sides')
 *   horizontal strip (6 x 1) and vertical strip (1 x 6): +X -X +Y -Y +Z -Z in order.
 * Both crosses are the cube unfolded as seen from inside, +Z in the middle (the convention of
 * AMD CubeMapGen and cmft). */
typedef enum kiln_cube_layout {
    KILN_CUBE_LAYOUT_AUTO = 0, /* from the aspect ratio */
    KILN_CUBE_LAYOUT_HORIZONTAL_CROSS = 1,
    KILN_CUBE_LAYOUT_VERTICAL_CROSS = 2,
    KILN_CUBE_LAYOUT_HORIZONTAL_STRIP = 3,
    KILN_CUBE_LAYOUT_VERTICAL_STRIP = 4,
} kiln_cube_layout;

/* "horizontal-cross", "vertical-cross", "horizontal-strip", "vertical-strip", "auto". */
const char *kiln_cube_layout_name(kiln_cube_layout layout);

/* The layout a w x h image has (4:3, 3:4, 6:1 or 1:6 with whole square cells) and its face
 * size. Errors: KILN_E_IMPORT_SETTINGS naming the size when it is none of them. */
kiln_result kiln_cube_layout_detect(uint32_t w, uint32_t h, kiln_cube_layout *layout,
                                    uint32_t *face_size, kiln_error *err);

/* Copies the six faces out of a cross or strip image (w x h texels of 4 floats, rows top to
 * bottom) into faces (kiln_cube_float_count(face_size) floats; face_size from
 * kiln_cube_layout_detect). layout AUTO detects it; a given layout must match the size.
 * Errors: KILN_E_IMPORT_SETTINGS (size does not fit the layout), KILN_E_USAGE (NULL). */
kiln_result kiln_cube_from_cross(const float *rgba, uint32_t w, uint32_t h, kiln_cube_layout layout,
                                 float *faces, kiln_error *err);

/* Bilinear read of one face level at face coordinates (s, t) in [0, 1]: taps that fall off
 * the face are taken from the neighbouring face (the texel the tap's direction selects), so
 * reads near edges and corners blend across faces instead of clamping. level holds 6 faces of
 * size x size RGBA floats. rgba receives 4 floats. */
void kiln_cube_sample_bilinear(const float *level, uint32_t size, uint32_t face, double s, double t,
                               float rgba[4]);

/* Copies each face of level (6 faces of size x size RGBA floats) into padded, a face of
 * (size + 2) x (size + 2) texels with a one-texel border taken from the neighbouring faces as
 * kiln_cube_sample_bilinear takes its off-face taps: a bilinear read of the padded face at
 * px = s * size + 0.5 (texel units, from its corner) never leaves it, and matches the cube's.
 * padded receives 6 * (size + 2)^2 * 4 floats. */
void kiln_cube_pad(const float *level, uint32_t size, float *padded);

#endif
