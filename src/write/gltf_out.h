/* gltf_out.h — a kiln scene written as glTF 2.0 (JSON + binary buffer, or one GLB): meshes
 * through the model cook's passes, optionally quantized (KHR_mesh_quantization) and compressed
 * (EXT_meshopt_compression). docs/gltf_out.md says what is kept and how. The files come back in
 * memory; src/pipeline/gltf_export.c writes them (kiln_gltf_export). */
#ifndef KILN_WRITE_GLTF_OUT_H
#define KILN_WRITE_GLTF_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_scene.h"

typedef struct kiln_gltf_out_opts {
    bool glb;              /* one GLB file; else .gltf JSON with side files */
    const char *side_stem; /* .gltf: side files are named side_stem + ".bin", ".image3.png" */
    float simplify;        /* (0, 1): fraction of triangles kept; else none */
    float simplify_error;  /* relative to the extent; 0 = 0.01 */
    bool no_optimize;
    bool keep_attributes; /* also tangents without a normal map, UV sets no texture reads */
    bool quantize;
    uint32_t position_bits, texcoord_bits, normal_bits; /* 0 = 14, 12, 8 */
    bool compress;
} kiln_gltf_out_opts;

/* One file written: the main one (name "") or a side file (a plain file name). */
typedef struct kiln_gltf_out_file {
    char name[256];
    uint8_t *data;
    size_t size;
    size_t capacity; /* bytes allocated (kiln's own) */
} kiln_gltf_out_file;

#define KILN_GLTF_OUT_MAX_EXTENSIONS 24

typedef struct kiln_gltf_out {
    kiln_allocator allocator;
    kiln_gltf_out_file *files; /* files[0] is the main file */
    uint32_t file_count, files_capacity;
    /* What was written, against what the scene had (triangle lists after import). */
    uint64_t source_vertices, source_triangles, vertices, triangles;
    uint32_t meshes, primitives, nodes, nodes_added; /* nodes_added: holders of quantized meshes */
    uint32_t images, images_dropped;                 /* dropped: no bytes kiln can keep */
    uint32_t extras_dropped; /* "extras" texts of the scene that were not valid JSON */
    const char *extensions_used[KILN_GLTF_OUT_MAX_EXTENSIONS];
    uint32_t extensions_used_count;
    size_t buffer_size;   /* bytes of the binary buffer (compressed when compressed) */
    size_t fallback_size; /* EXT_meshopt_compression's fallback buffer (no bytes stored) */
} kiln_gltf_out;

/* Writes scene as glTF. opts and alloc may be NULL (defaults, libc). *out is zeroed first and
 * owns its memory afterwards, also on error (free it either way). Deterministic. Errors:
 * KILN_E_USAGE (bad options), KILN_E_IMPORT_FAILED (a primitive the mesh passes refuse),
 * KILN_E_LIMIT (a buffer past 4 GiB), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_gltf_out_write(const kiln_scene *scene, const kiln_gltf_out_opts *opts,
                                const kiln_allocator *alloc, kiln_gltf_out *out, kiln_error *err);

void kiln_gltf_out_free(kiln_gltf_out *out); /* NULL or zeroed: no-op */

#endif
