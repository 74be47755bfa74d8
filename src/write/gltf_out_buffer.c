/* gltf_out_buffer.c — buffer views and accessors of the glTF writer, and the layout of the one
 * binary buffer. With compression every view but images is encoded as EXT_meshopt_compression
 * says (vertex codec for attributes, index codec for triangle lists; meshoptimizer 0.18's
 * default codec versions, which the extension decodes) and its uncompressed bytes are only
 * described, in a fallback buffer without data ("fallback": true), as gltfpack -c does. A view
 * whose encoding is not smaller than its bytes (a few elements: the codec's header and tail
 * dominate) is stored raw. */
#include <math.h>
#include <meshoptimizer.h>
#include <string.h>

#include "write/gltf_out_private.h"

int32_t kiln_gltf_add_view(kiln_gltf_state *st, const void *data, size_t size,
                           kiln_gltf_view_kind kind, uint32_t element, uint32_t stride,
                           uint32_t target)
{
    kiln_gltf_view v;
    memset(&v, 0, sizeof v);
    kiln_buf_align(&st->raw, 4);
    v.offset = st->raw.size;
    v.length = size;
    v.kind = kind;
    v.element = element;
    v.stride = stride;
    v.target = target;
    kiln_buf_append(&st->raw, data, size);
    kiln_buf_append(&st->views, &v, sizeof v);
    if (st->raw.failed || st->views.failed) {
        st->failed_memory = true;
        return -1;
    }
    return (int32_t)st->view_count++;
}

int32_t kiln_gltf_add_accessor(kiln_gltf_state *st, int32_t view, uint32_t component,
                               bool normalized, uint32_t count, uint32_t components,
                               const float *min, const float *max)
{
    if (view < 0) return -1;
    kiln_gltf_accessor a;
    memset(&a, 0, sizeof a);
    a.view = (uint32_t)view;
    a.component = component;
    a.normalized = normalized;
    a.count = count;
    a.components = components;
    if (min && max && components <= 16) {
        a.has_minmax = true;
        memcpy(a.min, min, components * sizeof(float));
        memcpy(a.max, max, components * sizeof(float));
    }
    if (!kiln_buf_append(&st->accessors, &a, sizeof a)) {
        st->failed_memory = true;
        return -1;
    }
    return (int32_t)st->accessor_count++;
}

int32_t kiln_gltf_add_floats(kiln_gltf_state *st, const float *data, uint32_t count,
                             uint32_t components, bool with_minmax, uint32_t target)
{
    size_t n = (size_t)count * components;
    float *copy = kiln_alloc(st->alloc, n ? n * sizeof(float) : 1);
    if (!copy) {
        st->failed_memory = true;
        return -1;
    }
    float mn[16], mx[16];
    for (uint32_t c = 0; c < components && c < 16; c++) mn[c] = INFINITY, mx[c] = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        float v = isfinite(data[i]) ? data[i] : 0.0f;
        copy[i] = v;
        uint32_t c = (uint32_t)(i % components);
        if (c < 16) {
            if (v < mn[c]) mn[c] = v;
            if (v > mx[c]) mx[c] = v;
        }
    }
    uint32_t stride = target == GLTF_ARRAY_BUFFER ? 4 * components : 0;
    int32_t view = kiln_gltf_add_view(st, copy, n * sizeof(float), KILN_GLTF_VIEW_ATTRIBUTES,
                                      4 * components, stride, target);
    kiln_free(st->alloc, copy, n ? n * sizeof(float) : 1);
    bool mm = with_minmax && count > 0 && components <= 16;
    return kiln_gltf_add_accessor(st, view, GLTF_FLOAT, false, count, components, mm ? mn : NULL,
                                  mm ? mx : NULL);
}

/* meshopt-encodes view v into out; false when it cannot be encoded (then stored raw). */
static bool encode_view(kiln_gltf_state *st, kiln_gltf_view *v, kiln_buf *out)
{
    const uint8_t *data = st->raw.data + v->offset;
    if (v->kind == KILN_GLTF_VIEW_TRIANGLES) {
        size_t size = v->element, count = v->length / size;
        if ((size != 2 && size != 4) || count % 3 != 0 || count == 0) return false;
        uint32_t *indices = kiln_alloc(st->alloc, count * sizeof(uint32_t));
        if (!indices) return st->failed_memory = true, false;
        uint32_t vertex_count = 0;
        for (size_t i = 0; i < count; i++) {
            uint32_t x;
            if (size == 2) {
                uint16_t s;
                memcpy(&s, data + i * 2, 2);
                x = s;
            } else {
                memcpy(&x, data + i * 4, 4);
            }
            indices[i] = x;
            if (x + 1 > vertex_count) vertex_count = x + 1;
        }
        size_t bound = meshopt_encodeIndexBufferBound(count, vertex_count);
        bool ok = kiln_buf_reserve(out, bound);
        if (ok) {
            size_t n = meshopt_encodeIndexBuffer(out->data + out->size, bound, indices, count);
            ok = n > 0;
            out->size += n;
            v->out_length = n;
        }
        kiln_free(st->alloc, indices, count * sizeof(uint32_t));
        return ok;
    }
    size_t size = v->element, count = size ? v->length / size : 0;
    if (size == 0 || size % 4 != 0 || size > 256 || count == 0 || count * size != v->length)
        return false;
    size_t bound = meshopt_encodeVertexBufferBound(count, size);
    if (!kiln_buf_reserve(out, bound)) return st->failed_memory = true, false;
    size_t n = meshopt_encodeVertexBuffer(out->data + out->size, bound, data, count, size);
    if (n == 0) return false;
    out->size += n;
    v->out_length = n;
    return true;
}

kiln_result kiln_gltf_layout_buffer(kiln_gltf_state *st, kiln_buf *out, size_t *fallback_size,
                                    kiln_error *err)
{
    kiln_gltf_view *views = (kiln_gltf_view *)st->views.data;
    size_t fallback = 0;
    for (uint32_t i = 0; i < st->view_count; i++) {
        kiln_gltf_view *v = &views[i];
        kiln_buf_align(out, 4);
        v->out_offset = out->size;
        size_t before = out->size;
        if (st->opts->compress && v->kind != KILN_GLTF_VIEW_IMAGE && encode_view(st, v, out) &&
            v->out_length < v->length) {
            v->packed = true;
            fallback = (fallback + 3) & ~(size_t)3;
            v->fallback_offset = fallback;
            fallback += v->length;
            st->used_meshopt = true;
            continue;
        }
        out->size = before; /* an encoding that saves nothing is dropped: stored raw */
        kiln_buf_append(out, st->raw.data + v->offset, v->length);
        v->out_length = v->length;
    }
    kiln_buf_align(out, 4);
    *fallback_size = fallback;
    if (out->failed || st->failed_memory)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory for the buffer");
    if (out->size > UINT32_MAX - 64)
        return kiln_error_set(err, KILN_E_LIMIT, "glTF out: the buffer passes 4 GiB (GLB's limit)");
    return KILN_OK;
}

static const char *type_name(uint32_t components)
{
    switch (components) {
    case 1:
        return "SCALAR";
    case 2:
        return "VEC2";
    case 3:
        return "VEC3";
    case 4:
        return "VEC4";
    case 9:
        return "MAT3";
    default:
        return "MAT4";
    }
}

void kiln_gltf_write_buffers(kiln_gltf_state *st, kiln_json_out *j, const char *uri,
                             size_t buffer_size, size_t fallback_size)
{
    const kiln_gltf_accessor *acc = (const kiln_gltf_accessor *)st->accessors.data;
    if (st->accessor_count) {
        kiln_json_out_array(j, "accessors");
        for (uint32_t i = 0; i < st->accessor_count; i++) {
            const kiln_gltf_accessor *a = &acc[i];
            kiln_json_out_object(j, NULL);
            kiln_json_out_int(j, "bufferView", a->view);
            kiln_json_out_int(j, "componentType", a->component);
            if (a->normalized) kiln_json_out_bool(j, "normalized", true);
            kiln_json_out_int(j, "count", a->count);
            kiln_json_out_string(j, "type", type_name(a->components));
            if (a->has_minmax) {
                kiln_json_out_floats(j, "min", a->min, a->components);
                kiln_json_out_floats(j, "max", a->max, a->components);
            }
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
    const kiln_gltf_view *views = (const kiln_gltf_view *)st->views.data;
    if (st->view_count) {
        kiln_json_out_array(j, "bufferViews");
        for (uint32_t i = 0; i < st->view_count; i++) {
            const kiln_gltf_view *v = &views[i];
            kiln_json_out_object(j, NULL);
            kiln_json_out_int(j, "buffer", v->packed ? 1 : 0);
            kiln_json_out_int(j, "byteOffset",
                              (int64_t)(v->packed ? v->fallback_offset : v->out_offset));
            kiln_json_out_int(j, "byteLength", (int64_t)v->length);
            if (v->stride) kiln_json_out_int(j, "byteStride", v->stride);
            if (v->target) kiln_json_out_int(j, "target", v->target);
            if (v->packed) {
                kiln_json_out_object(j, "extensions");
                kiln_json_out_object(j, "EXT_meshopt_compression");
                kiln_json_out_int(j, "buffer", 0);
                kiln_json_out_int(j, "byteOffset", (int64_t)v->out_offset);
                kiln_json_out_int(j, "byteLength", (int64_t)v->out_length);
                kiln_json_out_int(j, "byteStride", v->element);
                kiln_json_out_int(j, "count", (int64_t)(v->length / v->element));
                if (v->kind == KILN_GLTF_VIEW_TRIANGLES)
                    kiln_json_out_string(j, "mode", "TRIANGLES");
                else kiln_json_out_string(j, "mode", "ATTRIBUTES");
                kiln_json_out_end(j);
                kiln_json_out_end(j);
            }
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
    if (buffer_size || fallback_size) {
        kiln_json_out_array(j, "buffers");
        kiln_json_out_object(j, NULL);
        if (uri) kiln_json_out_string(j, "uri", uri);
        kiln_json_out_int(j, "byteLength", (int64_t)buffer_size);
        kiln_json_out_end(j);
        if (fallback_size) {
            kiln_json_out_object(j, NULL);
            kiln_json_out_int(j, "byteLength", (int64_t)fallback_size);
            kiln_json_out_object(j, "extensions");
            kiln_json_out_object(j, "EXT_meshopt_compression");
            kiln_json_out_bool(j, "fallback", true);
            kiln_json_out_end(j);
            kiln_json_out_end(j);
            kiln_json_out_end(j);
        }
        kiln_json_out_end(j);
    }
}
