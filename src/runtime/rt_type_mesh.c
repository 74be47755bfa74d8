/* rt_type_mesh.c — the mesh type: container MESH (the mesh cooked kind) decoded into
 * krt_mesh_data — the validated view, every stream as the GPU takes it (in place when stored
 * raw, else unpacked) — linked to its material, and handed to the renderer's *_mesh callbacks.
 * The CPU data may go after upload (the material handle stays). */
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

/* Streams stored raw are used in place; the others (meshopt-compressed, or stored in a size
 * that is not count x stride) are unpacked into one block for the mesh, each at a 16-byte
 * aligned offset. */
static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_mesh_decoded *m = &a->data.mesh;
    const kiln_allocator *al = x->alloc;
    kiln_result r =
        krt_type_mesh.kind->read(a->dec.file, a->dec.file_size, x->flags, &m->view, err);
    if (r) return r;
    m->data.view = &m->view;
    size_t sizes[KILN_MESH_STREAM_COUNT] = {0}, offsets[KILN_MESH_STREAM_COUNT] = {0}, total = 0;
    bool unpack[KILN_MESH_STREAM_COUNT] = {false};
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        const kiln_mesh_stream *st = &m->view.streams[s];
        if (st->format == KILN_MESH_FORMAT_NONE) continue;
        if (!kiln_size_mul((size_t)st->count, st->stride, &sizes[s]) || st->count > SIZE_MAX)
            return kiln_error_set(err, KILN_E_LIMIT, "stream %d is too large", s);
        if (sizes[s] == 0) continue;
        m->data.stream_sizes[s] = sizes[s];
        if (!(m->view.flags & KILN_MESH_COMPRESSED) && st->size == sizes[s]) {
            m->data.streams[s] = st->data; /* used in place */
            continue;
        }
        unpack[s] = true;
        offsets[s] = (total + 15) & ~(size_t)15;
        if (offsets[s] < total || !kiln_size_add(offsets[s], sizes[s], &total))
            return kiln_error_set(err, KILN_E_LIMIT, "the streams are too large together");
    }
    if (total) {
        m->stream_block = kiln_alloc_large(al, total);
        if (!m->stream_block)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                  "out of memory for %zu bytes of streams", total);
        m->stream_block_size = total;
        a->dec.resident += total;
    }
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        if (!unpack[s]) continue;
        uint8_t *dst = m->stream_block + offsets[s];
        if ((r = kiln_mesh_unpack(&m->view, (kiln_mesh_stream_id)s, dst, sizes[s], err))) return r;
        m->data.streams[s] = dst;
    }
    return KILN_OK;
}

static const void *view(const krt_asset *a) { return &a->data.mesh.view; }

/* The kind lists the material alone, when the mesh has one. */
static void link(krt_asset *a)
{
    if (a->dec.dep_count) a->data.mesh.data.material = a->dec.deps[0];
}

static void free_blocks(krt_asset *a, const kiln_allocator *al)
{
    kiln_free_large(al, a->data.mesh.stream_block, a->data.mesh.stream_block_size);
}

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_mesh_decoded, a->data.mesh, b->data.mesh);
    /* the record points at the view beside it */
    if (a->data.mesh.data.view) a->data.mesh.data.view = &a->data.mesh.view;
    if (b->data.mesh.data.view) b->data.mesh.data.view = &b->data.mesh.view;
}

KRT_TYPE_RENDERER_OPS(mesh)

const krt_type_ops krt_type_mesh = {
    .kind = &kiln_cooked_kind_mesh,
    .flags = KRT_TYPE_OPS_CPU_DROP,
    .decode = decode,
    .view = view,
    .link = link,
    .free = free_blocks,
    .swap = swap,
    .create = create,
    .replace = replace,
    .destroy = destroy,
};

KRT_TYPE_API(mesh, KRT_TYPE_MESH, krt_mesh_data, a->data.mesh.data)
