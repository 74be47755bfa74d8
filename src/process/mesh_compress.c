/* mesh_compress.c — optional meshoptimizer stream compression (`compress: meshopt`, docs/meshes.md
 * "Compression"): each vertex stream and each morph delta stream through
 * meshopt_encodeVertexBuffer (byte-wise deltas between neighbouring vertices: it pays off after the
 * fetch pass has put neighbours together), the index buffer, all levels at once, through
 * meshopt_encodeIndexBuffer (a triangle list codec that exploits the cache order). The runtime
 * decodes them with meshoptimizer's decoders (kiln_mesh_unpack). Meshlet tables stay raw: a
 * mesh-shader renderer uploads them as they are.
 *
 * The encoders' format versions are meshoptimizer's defaults; kiln never calls
 * meshopt_encodeVertexVersion / meshopt_encodeIndexVersion (process-wide settings). */
#include <meshoptimizer.h>

#include "process/mesh_private.h"

kiln_result kiln_mesh_compress_streams(kiln_cooked_mesh *out, kiln_error *err)
{
    const kiln_allocator *a = &out->allocator;
    for (int id = 0; id < KILN_MESH_STREAM_COUNT; id++) {
        kiln_cooked_stream *s = &out->streams[id];
        if (s->count == 0 || !s->data) continue;
        size_t count = (size_t)s->count, bound, n;
        if (id == KILN_MESH_INDICES) {
            /* meshopt asserts a triangle list; the encoder reads 32-bit indices. */
            if (KILN_NEVER(count % 3 != 0 || count != out->index_count))
                return kiln_error_set(err, KILN_E_INTERNAL, "mesh: index count %zu", count);
            bound = meshopt_encodeIndexBufferBound(count, out->vertex_count);
            s->packed = kiln_mesh_array(a, bound, 1);
            if (!s->packed) return kiln_mesh_nomem(err, "compressed indices");
            n = meshopt_encodeIndexBuffer(s->packed, bound, out->indices, count);
        } else {
            /* meshopt asserts vertex sizes that are multiples of 4 up to 256: all of kiln's are. */
            if (KILN_NEVER(s->stride == 0 || s->stride % 4 != 0 || s->stride > 256))
                return kiln_error_set(err, KILN_E_INTERNAL, "mesh: stride %u", s->stride);
            bound = meshopt_encodeVertexBufferBound(count, s->stride);
            s->packed = kiln_mesh_array(a, bound, 1);
            if (!s->packed) return kiln_mesh_nomem(err, "compressed streams");
            n = meshopt_encodeVertexBuffer(s->packed, bound, s->data, count, s->stride);
        }
        if (KILN_NEVER(n == 0 || n > bound)) {
            kiln_free(a, s->packed, bound);
            s->packed = NULL;
            return kiln_error_set(err, KILN_E_INTERNAL, "mesh: stream %d did not encode", id);
        }
        /* Shrink to the encoded size so the free size is known exactly. */
        uint8_t *exact = kiln_realloc(a, s->packed, bound, n);
        if (!exact) {
            kiln_free(a, s->packed, bound);
            s->packed = NULL;
            return kiln_mesh_nomem(err, "compressed streams");
        }
        s->packed = exact;
        s->packed_size = n;
    }
    out->flags |= KILN_MESH_COMPRESSED;
    return KILN_OK;
}
