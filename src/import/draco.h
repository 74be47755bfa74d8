/* draco.h — decoding KHR_draco_mesh_compression bufferViews with Debian's libdraco (1.5.5), whose
 * API is C++ only: draco_shim.cpp is the one C++ file, exposing these C functions. */
#ifndef KILN_IMPORT_DRACO_H
#define KILN_IMPORT_DRACO_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One decoded Draco attribute: one value of `components` floats per mesh vertex (point). */
typedef struct kiln_draco_attribute {
    uint32_t unique_id;  /* the id the extension's "attributes" map names ("POSITION": 0) */
    uint32_t components; /* 1..4 */
    uint32_t data_type;  /* what Draco stored, as a glTF componentType: 5120 BYTE, 5121
                            UNSIGNED_BYTE, 5122 SHORT, 5123 UNSIGNED_SHORT, 5125 UNSIGNED_INT,
                            5126 FLOAT; 0 for the types glTF has none of (int32, 64-bit, double,
                            bool). Quantized attributes decode to FLOAT. */
    uint32_t normalized; /* 1 when the stored integers were normalized */
    float *values;       /* vertex_count * components, vertex-major. Normalized integers are
                            mapped as glTF maps them (unsigned c / (2^n - 1); signed
                            max(c / (2^(n-1) - 1), -1)); 8/16-bit integers and floats exactly;
                            32/64-bit integers and doubles rounded to the nearest float
                            (doubles beyond its range become infinities) */
    size_t values_size;  /* bytes of values */
} kiln_draco_attribute;

/* A decoded triangle mesh. Every attribute has one value per vertex, so all of them share the
 * index list (Draco's "points" are the vertices here). */
typedef struct kiln_draco_mesh {
    uint32_t vertex_count;
    uint32_t *indices; /* index_count = 3 per triangle, each < vertex_count */
    uint32_t index_count;
    size_t indices_size;              /* bytes of indices */
    kiln_draco_attribute *attributes; /* in Draco's order; look them up by unique_id */
    uint32_t attribute_count;
    size_t attributes_size; /* bytes of attributes */
} kiln_draco_mesh;

/* Decodes a Draco-compressed triangle mesh (the bytes of a KHR_draco_mesh_compression
 * bufferView) into *out, whose arrays come from a (NULL = libc); free it with
 * kiln_draco_mesh_free(a, out). data is only read during the call. memory_limit caps the
 * memory the decode may take (0 = 1 GiB): the face, vertex and attribute counts the stream
 * declares are checked against it (with an estimate of what libdraco itself needs per face
 * and per value, see draco_shim.cpp) before libdraco allocates for them, and the output
 * sizes again before they are copied out. Thread-safe for distinct calls.
 * Errors: KILN_E_IMPORT_FAILED (malformed stream, with libdraco's message; a point cloud; an
 * attribute of 0 or more than 4 components), KILN_E_LIMIT (declared counts past memory_limit
 * or past 2^32 - 1 indices), KILN_E_OUT_OF_MEMORY, KILN_E_USAGE (NULL data with a size, or
 * NULL out). On failure *out is all zero. */
kiln_result kiln_draco_decode(const void *data, size_t size, const kiln_allocator *a,
                              size_t memory_limit, kiln_draco_mesh *out, kiln_error *err);

/* The attribute with this unique id, or NULL. */
const kiln_draco_attribute *kiln_draco_find_attribute(const kiln_draco_mesh *m, uint32_t unique_id);

/* Frees what kiln_draco_decode allocated with the same allocator, and zeroes *m. NULL and a
 * zeroed mesh are no-ops. */
void kiln_draco_mesh_free(const kiln_allocator *a, kiln_draco_mesh *m);

#ifdef __cplusplus
}
#endif
#endif
