/* mesh.h — cooking one primitive of a scene into a GPU-ready mesh: weld,
 * clean, optimise for the vertex cache, overdraw and fetch, build a chain of levels of detail,
 * split every level into meshlets, quantize the vertex streams and optionally compress them.
 * The result is an in-memory kiln_cooked_mesh; src/write/mesh_write.c serializes it.
 *
 * The passes live one per file: mesh_weld.c (weld, degenerate and duplicate triangles),
 * mesh_optimize.c (vertex cache, overdraw, fetch), mesh_lod.c (simplification), mesh_meshlet.c,
 * mesh_quantize.c (stream formats), mesh_compress.c (meshopt codecs); mesh_build.c runs them.
 * docs/meshes.md explains each one. */
#ifndef KILN_PROCESS_MESH_H
#define KILN_PROCESS_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"

#define KILN_MESH_MAX_LOD_FRACTIONS (KILN_MESH_MAX_LEVELS - 1) /* 8 */

typedef enum kiln_mesh_compress {
    KILN_MESH_COMPRESS_NONE = 0,
    KILN_MESH_COMPRESS_MESHOPT = 1, /* meshopt_encodeVertexBuffer / encodeIndexBuffer */
} kiln_mesh_compress;

/* What to build. kiln_mesh_build_opts_default fills the documented defaults (the values of
 * import.model's defaults); a zeroed struct means no LODs, no quantization, no optimisation and
 * the default meshlet sizes. */
typedef struct kiln_mesh_build_opts {
    float lods[KILN_MESH_MAX_LOD_FRACTIONS]; /* triangle fractions, decreasing, each in (0,1) */
    uint32_t lod_count;                      /* 0..8 */
    float lod_error;                /* largest error of a level, relative to the extent; [0,1] */
    uint32_t lod_min_triangles;     /* no level gets fewer triangles than this */
    bool quantize;                  /* quantized vertex formats, else 32-bit floats */
    bool optimize;                  /* vertex cache, overdraw and fetch passes */
    float overdraw_threshold;       /* 0 = no overdraw pass, else in [1, 3] (ACMR may grow by it) */
    uint32_t meshlet_max_vertices;  /* 0 = 64; else 3..255 */
    uint32_t meshlet_max_triangles; /* 0 = 124; else 4..512, a multiple of 4 */
    bool no_meshlets;               /* true: no meshlets (renderers without mesh shaders) */
    /* The source had no normals and the primitive comes without them (prim->normals NULL):
     * the mesh is flagged KILN_MESH_FLAT_NORMALS (shade with face normals). */
    bool flat_normals;
    /* Measure ACMR before and after the passes into the build statistics (two passes over the
     * full mesh's indices; for tests and benchmarks — the cook turns it off). */
    bool analyze;
    kiln_mesh_compress compress;
    uint64_t material;          /* asset id of the material artifact; 0 = default material */
    uint32_t skin_joint_count;  /* joints of the skin (0 = not skinned or unknown): u16
                                   joints when > 256 or when an index needs them */
    const float *morph_weights; /* the mesh's default morph weights (target order) or NULL */
    uint32_t morph_weight_count;
} kiln_mesh_build_opts;

/* lods {0.5, 0.25, 0.125}, lod_error 0.05, lod_min_triangles 64, quantize, optimize,
 * overdraw_threshold 1.05, meshlets 64/124, no compression, material 0. */
void kiln_mesh_build_opts_default(kiln_mesh_build_opts *opts);

/* Things the cook changed that a user may want to know (kiln_mesh_warning_text names them). */
enum {
    KILN_MESH_WARN_JOINT_SET_MERGED = 1u << 0,   /* a second joint set: 4 strongest kept */
    KILN_MESH_WARN_INFLUENCES_DROPPED = 1u << 1, /* some vertex had more than 4 influences */
    KILN_MESH_WARN_NON_FINITE = 1u << 2,         /* NaN/Inf attribute values were set to 0 */
    KILN_MESH_WARN_COLOR_CLAMPED = 1u << 3,      /* colours outside [0,1] clamped (quantized) */
    KILN_MESH_WARN_WEIGHTS_EMPTY = 1u << 4,      /* a vertex without weight: joint 0 given 1 */
    KILN_MESH_WARN_JOINT_RANGE = 1u << 5,        /* a joint index >= skin_joint_count */
};
#define KILN_MESH_WARN_COUNT 6
/* One sentence for warning bit i (0 <= i < KILN_MESH_WARN_COUNT), "" otherwise. */
const char *kiln_mesh_warning_text(uint32_t bit_index);

/* Measurements of one build (not serialized: times vary). Triangle counts are of level 0. */
typedef struct kiln_mesh_build_stats {
    uint32_t input_vertices, input_triangles;
    uint32_t welded_vertices;      /* distinct vertices over all streams, before cleaning */
    uint32_t degenerate_triangles; /* two corners at the same place in every pose */
    uint32_t duplicate_triangles;  /* the same three vertices in the same winding again */
    float acmr_before, acmr_after; /* FIFO 16 (meshopt_analyzeVertexCache 16/0/0), level 0 */
    size_t vertex_bytes;           /* unpacked bytes of all vertex streams (targets included) */
    size_t stored_bytes;           /* bytes of all streams and indices as stored */
    /* Nanoseconds of the calling thread's CPU time per pass. */
    uint64_t ns_weld, ns_cache, ns_overdraw, ns_lod, ns_fetch, ns_meshlets, ns_quantize,
        ns_compress, ns_total;
} kiln_mesh_build_stats;

typedef struct kiln_cooked_stream {
    uint32_t format, stride; /* kiln_mesh_format; format NONE = absent */
    uint64_t count;          /* elements */
    uint8_t *data;           /* count * stride bytes, little-endian */
    uint8_t *packed;         /* meshopt-encoded bytes when compressed, else NULL */
    size_t packed_size;
} kiln_cooked_stream;

/* A cooked primitive. Everything is owned and freed by kiln_cooked_mesh_free. */
typedef struct kiln_cooked_mesh {
    kiln_allocator allocator;
    uint32_t flags; /* KILN_MESH_QUANTIZED, KILN_MESH_COMPRESSED */
    uint32_t vertex_count, index_count;
    uint32_t level_count;
    kiln_mesh_lod levels[KILN_MESH_MAX_LEVELS];
    uint64_t material;
    float bounds_min[3], bounds_max[3], position_scale[3], extent;
    float uv_offset[KILN_MESH_MAX_UV_SETS][2], uv_scale[KILN_MESH_MAX_UV_SETS][2];
    uint32_t uv_set_count, color_set_count, joint_count;
    kiln_cooked_stream streams[KILN_MESH_STREAM_COUNT];
    uint32_t *indices;         /* index_count, every level (the INDICES stream widened) */
    float *positions;          /* 3 per vertex, unquantized, in the final vertex order */
    uint32_t *source_vertices; /* per vertex: the primitive's vertex it copies (tests, tools) */
    kiln_meshlet *meshlets;    /* meshlet_count */
    kiln_meshlet_bounds *meshlet_bounds;
    uint32_t meshlet_count;
    uint32_t *meshlet_vertices; /* meshlet_vertex_count */
    uint32_t meshlet_vertex_count;
    uint8_t *meshlet_triangles; /* meshlet_triangle_size bytes */
    uint32_t meshlet_triangle_size;
    uint32_t meshlet_max_vertices, meshlet_max_triangles;
    uint32_t target_count;
    uint32_t *target_flags; /* KILN_MESH_TARGET_HAS_* per target */
    float *target_weights;  /* default weight per target */
    uint32_t warnings;      /* KILN_MESH_WARN_* */
    kiln_mesh_build_stats stats;
} kiln_cooked_mesh;

/* Cooks one primitive. prim is borrowed for the call; its indices must be a triangle list of
 * in-range indices (checked: KILN_E_IMPORT_FAILED otherwise). opts may be NULL (defaults);
 * invalid options are KILN_E_USAGE naming the field. alloc may be NULL (libc); *out is zeroed
 * first and owns its memory afterwards, also on error (free it either way).
 * meshoptimizer's own temporary memory comes from its global allocator (operator new): kiln
 * never calls meshopt_setAllocator, which is process-wide.
 * Deterministic: the same primitive and options give the same arrays on every run and thread.
 * Errors: KILN_E_USAGE, KILN_E_IMPORT_FAILED, KILN_E_LIMIT (more than 2^32-1 indices or
 * sizes that overflow), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_mesh_build(const kiln_scene_primitive *prim, const kiln_mesh_build_opts *opts,
                            const kiln_allocator *alloc, kiln_cooked_mesh *out, kiln_error *err);

void kiln_cooked_mesh_free(kiln_cooked_mesh *m); /* NULL or zeroed: no-op */

#endif
