/* csg_format.h — the cooked CSG set: one kiln container of kind "CSG " (docs/extending.md gives
 * the bytes), its reader and its cooked-kind descriptor, shared by the cook and the runtime side.
 *
 *   TYPE  32-byte records: the shape types used, name (24 bytes, NUL-padded), param_size, 0
 *   SHAP  56-byte records: type index, parameter offset and size in PARM, scale,
 *         position[3], bounds min[3], bounds max[3] (world space, padding included), 0
 *   PARM  the shapes' parameter blocks, packed in shape order (floats, 4-byte aligned)
 *   BNDS  one 24-byte record: the set's bounds, min[3] max[3] (absent for an empty set)
 * Floats and integers are little-endian; the reader checks every index, offset and size. */
#ifndef CSG_FORMAT_H
#define CSG_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/kiln_kind.h"

#define CSG_KIND           KILN_FOURCC('C', 'S', 'G', ' ')
#define CSG_KIND_VERSION   1
#define CSG_SECTION_TYPES  KILN_FOURCC('T', 'Y', 'P', 'E')
#define CSG_SECTION_SHAPES KILN_FOURCC('S', 'H', 'A', 'P')
#define CSG_SECTION_PARAMS KILN_FOURCC('P', 'A', 'R', 'M')
#define CSG_SECTION_BOUNDS KILN_FOURCC('B', 'N', 'D', 'S')

typedef struct csg_type_record {
    char name[24];
    uint32_t param_size;
    uint32_t reserved;
} csg_type_record;

typedef struct csg_shape_record {
    uint32_t type;
    uint32_t param_offset, param_size;
    float scale;
    float position[3];
    float bounds_min[3], bounds_max[3];
    uint32_t reserved;
} csg_shape_record;

/* A checked view into the container's bytes (valid while they are). */
typedef struct csg_view {
    const csg_type_record *types;
    uint32_t type_count;
    const csg_shape_record *shapes;
    uint32_t shape_count;
    const uint8_t *params;
    uint64_t params_size;
    bool has_bounds;
    float bounds_min[3], bounds_max[3];
} csg_view;

/* Reads and checks a cooked set (kiln_cooked_kind.read). */
kiln_result csg_read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err);

/* The cooked kind: name "csg", fourcc CSG_KIND, label "csg", no references, and a describe()
 * for kiln inspect. */
extern const kiln_cooked_kind csg_cooked_kind;

#endif
