/* gltf_buffer.c — buffers (GLB BIN chunk, data URIs, files beside the model) and buffer views,
 * including views compressed with EXT_meshopt_compression, decoded with meshoptimizer. Buffers
 * are loaded on first use, so an unused or fallback-only buffer costs nothing. */
#include "import/gltf_private.h"

#include <meshoptimizer.h>
#include <stdio.h>
#include <string.h>

#include "core/file.h"
#include "import/uri.h"

/* Largest single buffer kiln reads: beyond any real model, and within size_t on 32-bit. */
#define MAX_BUFFER_SIZE ((uint64_t)2 << 30)

kiln_result gltf_buffers_init(gltf_ctx *c)
{
    kiln_result r;
    if ((r = gltf_get_array(c, c->root, "buffers", "", KILN_GLTF_MAX_ITEMS, &c->buffers_json)) ||
        (r = gltf_get_array(c, c->root, "bufferViews", "", KILN_GLTF_MAX_ITEMS, &c->views_json)) ||
        (r = gltf_get_array(c, c->root, "accessors", "", KILN_GLTF_MAX_ITEMS, &c->accessors_json)))
        return r;
    c->buffer_count = json_array_size(c->buffers_json);
    c->view_count = json_array_size(c->views_json);
    c->accessor_count = json_array_size(c->accessors_json);
    if ((c->buffer_count &&
         !(c->buffers = kiln_arena_array(&c->scratch, c->buffer_count, sizeof *c->buffers))) ||
        (c->view_count &&
         !(c->views = kiln_arena_array(&c->scratch, c->view_count, sizeof *c->views))) ||
        (c->accessor_count &&
         !(c->accessors = kiln_arena_array(&c->scratch, c->accessor_count, sizeof *c->accessors))))
        return gltf_nomem(c, "the buffer tables");

    char ptr[64], mp[96]; /* mp: the pointer of a member at fault */
    for (size_t i = 0; i < c->buffer_count; i++) {
        json_t *b = json_array_get(c->buffers_json, i);
        snprintf(ptr, sizeof ptr, "/buffers/%zu", i);
        if (!json_is_object(b)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        uint64_t len;
        if ((r = gltf_get_uint(c, b, "byteLength", ptr, MAX_BUFFER_SIZE, true, 0, &len))) return r;
        if (len == 0) {
            snprintf(mp, sizeof mp, "%s/byteLength", ptr);
            return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"byteLength\" must be at least 1");
        }
        c->buffers[i].size = (size_t)len;
    }
    /* Views are checked against their buffers' declared lengths now, used or not. */
    for (size_t i = 0; i < c->view_count; i++) {
        json_t *v = json_array_get(c->views_json, i);
        snprintf(ptr, sizeof ptr, "/bufferViews/%zu", i);
        if (!json_is_object(v)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        int32_t buffer;
        uint64_t offset, length, stride;
        if ((r = gltf_get_index(c, v, "buffer", ptr, c->buffer_count, true, &buffer)) ||
            (r = gltf_get_uint(c, v, "byteOffset", ptr, GLTF_NO_LIMIT, false, 0, &offset)) ||
            (r = gltf_get_uint(c, v, "byteLength", ptr, GLTF_NO_LIMIT, true, 0, &length)) ||
            (r = gltf_get_uint(c, v, "byteStride", ptr, GLTF_NO_LIMIT, false, 0, &stride)))
            return r;
        if (length == 0) {
            snprintf(mp, sizeof mp, "%s/byteLength", ptr);
            return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"byteLength\" must be at least 1");
        }
        if (json_object_get(v, "byteStride") && (stride < 4 || stride > 252 || stride % 4)) {
            snprintf(mp, sizeof mp, "%s/byteStride", ptr);
            return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                             "\"byteStride\" %llu is not a multiple of 4 in [4, 252]",
                             (unsigned long long)stride);
        }
        /* Both are at most 2^53 (gltf_get_uint): the sum does not wrap. */
        if (offset + length > c->buffers[buffer].size)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "bytes %llu..%llu lie past the end of buffer %d (%zu bytes)",
                             (unsigned long long)offset, (unsigned long long)(offset + length),
                             buffer, c->buffers[buffer].size);
        c->views[i].stride = (size_t)stride;
    }
    return KILN_OK;
}

/* Loads buffer i: the GLB BIN chunk (buffer 0 without a uri), a data URI or a file. */
static kiln_result load_buffer(gltf_ctx *c, size_t i)
{
    gltf_buffer *b = &c->buffers[i];
    if (b->loaded) return KILN_OK;
    char ptr[64];
    snprintf(ptr, sizeof ptr, "/buffers/%zu", i);
    json_t *bj = json_array_get(c->buffers_json, i);
    const char *uri;
    kiln_result r = gltf_get_string(c, bj, "uri", ptr, &uri);
    if (r != KILN_OK) return r;
    const uint8_t *data = NULL;
    size_t size = 0;
    if (!uri) {
        if (i != 0 || !c->is_glb)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "the buffer has no \"uri\" and is not the GLB's binary chunk");
        if (!c->glb_bin)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "the GLB has no binary chunk for buffer 0");
        data = c->glb_bin;
        size = c->glb_bin_size;
        /* The chunk may carry up to 3 bytes of padding beyond byteLength (§4.4.3.3). */
        if (size > b->size + 3)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "the GLB binary chunk has %zu bytes, byteLength says %zu", size,
                             b->size);
    } else if (kiln_uri_is_data(uri)) {
        uint8_t *bytes;
        kiln_allocator a = kiln_arena_allocator(&c->scratch);
        r = kiln_uri_decode_data(uri, b->size + 3, &a, &bytes, &size, NULL, 0, c->err);
        if (r != KILN_OK) {
            if (r == KILN_E_LIMIT)
                return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                                 "the data URI holds more than byteLength (%zu) bytes", b->size);
            kiln_error_at_pointer(c->err, ptr);
            return r;
        }
        data = bytes;
    } else {
        if (!c->base_dir)
            return gltf_fail(c, KILN_E_OUTPUT_REFUSED, ptr,
                             "external buffer \"%.*s\" refused: no folder to read it from",
                             KILN_URI_QUOTE_MAX, uri);
        char path[KILN_PATH_MAX];
        if ((r = kiln_uri_resolve_file(c->base_dir, uri, path, sizeof path, c->err)) != KILN_OK) {
            kiln_error_at_pointer(c->err, ptr);
            return r;
        }
        uint8_t *bytes;
        kiln_allocator a = kiln_arena_allocator(&c->scratch);
        r = kiln_file_read(path, (size_t)MAX_BUFFER_SIZE, &a, &bytes, &size, c->err);
        if (r != KILN_OK) {
            kiln_error_at_pointer(c->err, ptr);
            return r;
        }
        if (!kiln_scene_add_file(c->scene, path)) return gltf_nomem(c, "the file list");
        data = bytes;
    }
    if (size < b->size)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "the buffer has %zu bytes, fewer than its byteLength %zu", size, b->size);
    b->data = data;
    b->loaded = true;
    return KILN_OK;
}

/* A meshopt filter name to its number (0 none, 1 octahedral, 2 quaternion, 3 exponential). */
static int meshopt_filter(const char *f)
{
    if (!f || strcmp(f, "NONE") == 0) return 0;
    if (strcmp(f, "OCTAHEDRAL") == 0) return 1;
    if (strcmp(f, "QUATERNION") == 0) return 2;
    if (strcmp(f, "EXPONENTIAL") == 0) return 3;
    return -1;
}

/* Decodes an EXT_meshopt_compression view. Every precondition meshoptimizer asserts is checked
 * first (Debian builds it with assertions on), so bad input is an error, never an abort. */
static kiln_result decode_meshopt(gltf_ctx *c, size_t index, const json_t *ext, gltf_view *out)
{
    char ptr[96];
    snprintf(ptr, sizeof ptr, "/bufferViews/%zu/extensions/EXT_meshopt_compression", index);
    int32_t buffer;
    uint64_t offset, length, stride, count;
    const char *mode, *filter;
    kiln_result r;
    if ((r = gltf_get_index(c, ext, "buffer", ptr, c->buffer_count, true, &buffer)) ||
        (r = gltf_get_uint(c, ext, "byteOffset", ptr, GLTF_NO_LIMIT, false, 0, &offset)) ||
        (r = gltf_get_uint(c, ext, "byteLength", ptr, GLTF_NO_LIMIT, true, 0, &length)) ||
        (r = gltf_get_uint(c, ext, "byteStride", ptr, GLTF_NO_LIMIT, true, 0, &stride)) ||
        (r = gltf_get_uint(c, ext, "count", ptr, KILN_GLTF_MAX_COUNT, true, 0, &count)) ||
        (r = gltf_get_string(c, ext, "mode", ptr, &mode)) ||
        (r = gltf_get_string(c, ext, "filter", ptr, &filter)))
        return r;
    char mp[112];       /* the pointer of a member at fault */
    if (stride > 256) { /* the extension's largest; count * stride cannot wrap below it */
        snprintf(mp, sizeof mp, "%s/byteStride", ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                         "\"byteStride\" %llu is above 256, the largest EXT_meshopt_compression "
                         "allows",
                         (unsigned long long)stride);
    }
    snprintf(mp, sizeof mp, "%s/mode", ptr);
    if (!mode) return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"mode\" is missing");
    int f = meshopt_filter(filter);
    if (f < 0) {
        snprintf(mp, sizeof mp, "%s/filter", ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "unknown filter \"%.32s\"", filter);
    }
    if ((r = load_buffer(c, (size_t)buffer)) != KILN_OK) return r;
    const gltf_buffer *b = &c->buffers[buffer];
    if (offset + length > b->size)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "bytes %llu..%llu lie past the end of buffer %d (%zu bytes)",
                         (unsigned long long)offset, (unsigned long long)(offset + length), buffer,
                         b->size);
    size_t total = (size_t)(count * stride);
    if (total != out->size)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "count * byteStride (%zu) differs from the view's byteLength (%zu)", total,
                         out->size);
    if (out->stride && out->stride != stride)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "byteStride %llu differs from the view's byteStride %zu",
                         (unsigned long long)stride, out->stride);
    /* Bitstream version 0 (all meshoptimizer 0.18 decodes) stores at most 64 bytes per
     * compressed byte: attributes spend 2 header bits per 16 bytes of a byte column, indices
     * at least a byte per triangle or index. A view its data could never fill is refused
     * before it is allocated, so a tiny file cannot claim gigabytes. */
    if (total / 64 > length)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "%llu compressed bytes cannot hold %zu bytes", (unsigned long long)length,
                         total);
    uint8_t *dst = kiln_arena_alloc(&c->scratch, out->size, 16);
    if (!dst) return gltf_nomem(c, "a meshopt buffer view");
    const unsigned char *src = b->data + offset;
    int rc;
    if (strcmp(mode, "ATTRIBUTES") == 0) {
        if (stride == 0 || stride % 4)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "ATTRIBUTES need a byteStride that is a multiple of 4 up to 256");
        rc = count ? meshopt_decodeVertexBuffer(dst, (size_t)count, (size_t)stride, src,
                                                (size_t)length)
                   : 0;
        if (rc == 0 && f == 1 && stride != 4 && stride != 8)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "OCTAHEDRAL needs byteStride 4 or 8");
        if (rc == 0 && f == 2 && stride != 8)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "QUATERNION needs byteStride 8");
        if (rc == 0 && count) {
            if (f == 1) meshopt_decodeFilterOct(dst, (size_t)count, (size_t)stride);
            if (f == 2) meshopt_decodeFilterQuat(dst, (size_t)count, (size_t)stride);
            if (f == 3) meshopt_decodeFilterExp(dst, (size_t)count, (size_t)stride);
        }
    } else if (strcmp(mode, "TRIANGLES") == 0 || strcmp(mode, "INDICES") == 0) {
        bool triangles = mode[0] == 'T';
        if (stride != 2 && stride != 4)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "%s need byteStride 2 or 4", mode);
        if (f != 0) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "%s take no filter", mode);
        if (triangles && count % 3)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "TRIANGLES need a count that is a multiple of 3");
        rc = !count      ? 0
             : triangles ? meshopt_decodeIndexBuffer(dst, (size_t)count, (size_t)stride, src,
                                                     (size_t)length)
                         : meshopt_decodeIndexSequence(dst, (size_t)count, (size_t)stride, src,
                                                       (size_t)length);
    } else {
        snprintf(mp, sizeof mp, "%s/mode", ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "unknown mode \"%.32s\"", mode);
    }
    if (rc != 0)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "the compressed data is damaged (meshoptimizer error %d)", rc);
    out->data = dst;
    return KILN_OK;
}

kiln_result gltf_view_get(gltf_ctx *c, uint32_t index, const gltf_view **out)
{
    if (KILN_NEVER(index >= c->view_count))
        return gltf_fail(c, KILN_E_INTERNAL, NULL, "buffer view %u out of range", index);
    gltf_view *v = &c->views[index];
    if (!v->resolved) {
        json_t *vj = json_array_get(c->views_json, index);
        /* gltf_buffers_init checked these members. */
        size_t buffer = (size_t)json_number_value(json_object_get(vj, "buffer"));
        json_t *off = json_object_get(vj, "byteOffset");
        size_t offset = off ? (size_t)json_number_value(off) : 0;
        v->size = (size_t)json_number_value(json_object_get(vj, "byteLength"));
        json_t *ext = gltf_extension(vj, "EXT_meshopt_compression");
        kiln_result r;
        if (ext && c->has_meshopt) {
            if ((r = decode_meshopt(c, index, ext, v)) != KILN_OK) return r;
        } else {
            if ((r = load_buffer(c, buffer)) != KILN_OK) return r;
            v->data = c->buffers[buffer].data + offset;
        }
        v->resolved = true;
    }
    *out = v;
    return KILN_OK;
}

kiln_result gltf_view_bytes(gltf_ctx *c, uint32_t index, const uint8_t **data, size_t *size)
{
    const gltf_view *v = NULL;
    kiln_result r = gltf_view_get(c, index, &v);
    if (r != KILN_OK) return r;
    *data = v->data;
    *size = v->size;
    return KILN_OK;
}
