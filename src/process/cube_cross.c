/* cube_cross.c — six faces out of a cross or strip image, the layout told by its aspect ratio.
 *
 * The crosses are the cube unfolded as seen from inside with +Z in the middle (AMD CubeMapGen,
 * cmft): with every face in its Vulkan memory orientation, -X, +Z, +X, -Z side by side and +Y
 * above / -Y below +Z already share their edges; the vertical cross hangs -Z below -Y, where it
 * has to be turned 180 degrees to meet it. Strips are the six faces in layer order. */
#include "process/cube.h"

#include <string.h>

#include "core/error.h"

typedef struct cube_cell {
    uint8_t cx, cy;  /* cell column and row */
    uint8_t rotated; /* turned 180 degrees in the image */
} cube_cell;

/* Cells of +X, -X, +Y, -Y, +Z, -Z for each layout (index = kiln_cube_layout). */
static const cube_cell kiln_cube_cells[5][6] = {
    {{0, 0, 0}},
    {{2, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {1, 1, 0}, {3, 1, 0}},
    {{2, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {1, 1, 0}, {1, 3, 1}},
    {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}},
    {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}, {0, 4, 0}, {0, 5, 0}},
};

/* Cells across and down for each layout. */
static const uint8_t kiln_cube_grid[5][2] = {{0, 0}, {4, 3}, {3, 4}, {6, 1}, {1, 6}};

const char *kiln_cube_layout_name(kiln_cube_layout layout)
{
    switch (layout) {
    case KILN_CUBE_LAYOUT_AUTO:
        return "auto";
    case KILN_CUBE_LAYOUT_HORIZONTAL_CROSS:
        return "horizontal-cross";
    case KILN_CUBE_LAYOUT_VERTICAL_CROSS:
        return "vertical-cross";
    case KILN_CUBE_LAYOUT_HORIZONTAL_STRIP:
        return "horizontal-strip";
    case KILN_CUBE_LAYOUT_VERTICAL_STRIP:
        return "vertical-strip";
    }
    return "unknown";
}

kiln_result kiln_cube_layout_detect(uint32_t w, uint32_t h, kiln_cube_layout *layout,
                                    uint32_t *face_size, kiln_error *err)
{
    for (int l = KILN_CUBE_LAYOUT_HORIZONTAL_CROSS; l <= KILN_CUBE_LAYOUT_VERTICAL_STRIP; l++) {
        uint32_t gx = kiln_cube_grid[l][0], gy = kiln_cube_grid[l][1];
        if (w > 0 && w % gx == 0 && h % gy == 0 && w / gx == h / gy) {
            *layout = (kiln_cube_layout)l;
            *face_size = w / gx;
            return KILN_OK;
        }
    }
    return kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                          "a %ux%u image is not a cube layout: a cross is 4:3 or 3:4 and a strip "
                          "6:1 or 1:6, in whole square faces",
                          w, h);
}

kiln_result kiln_cube_from_cross(const float *rgba, uint32_t w, uint32_t h, kiln_cube_layout layout,
                                 float *faces, kiln_error *err)
{
    if (!rgba || !faces)
        return kiln_error_set(err, KILN_E_USAGE, "cube from cross: NULL image or faces");
    kiln_cube_layout found;
    uint32_t size;
    kiln_result r = kiln_cube_layout_detect(w, h, &found, &size, err);
    if (r != KILN_OK) return r;
    if (layout != KILN_CUBE_LAYOUT_AUTO && layout != found)
        return kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "a %ux%u image is a %s, not a %s", w, h,
                              kiln_cube_layout_name(found), kiln_cube_layout_name(layout));
    for (uint32_t f = 0; f < 6; f++) {
        const cube_cell *c = &kiln_cube_cells[found][f];
        for (uint32_t y = 0; y < size; y++) {
            float *dst = faces + ((size_t)f * size + y) * size * 4;
            uint32_t sy = c->rotated ? size - 1 - y : y;
            const float *src = rgba + (((size_t)c->cy * size + sy) * w + (size_t)c->cx * size) * 4;
            if (!c->rotated) {
                memcpy(dst, src, (size_t)size * 4 * sizeof(float));
                continue;
            }
            for (uint32_t x = 0; x < size; x++)
                memcpy(dst + (size_t)x * 4, src + (size_t)(size - 1 - x) * 4, 4 * sizeof(float));
        }
    }
    return KILN_OK;
}
