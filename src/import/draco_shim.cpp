/* draco_shim.cpp — KHR_draco_mesh_compression bufferViews decoded with Debian's libdraco 1.5.5,
 * whose API is C++ only, into kiln_draco_mesh (draco.h).
 *
 * Hostile streams. libdraco sizes its buffers from counts the stream declares: the edgebreaker
 * decoder reserves and builds corner tables for its declared face count (up to 1.4 billion)
 * before decoding a single symbol, and the attribute decoders allocate values for every point
 * the connectivity produced. A few bytes can so ask for gigabytes before kiln sees a count.
 * Decoding therefore runs through subclasses of draco's two mesh decoders that read the declared
 * counts first — without consuming them, at the two places where draco is about to act on them
 * (connectivity, then the attribute descriptors) — and stop the decode when the memory they imply
 * passes the caller's limit. The estimate per face and per value is measured
 * (tests/draco/test_draco_memory.cpp: peak of libdraco's own allocations on grid meshes of both
 * methods) and rounded up. The layout read is that of the Draco bitstream spec (versions 1.0
 * to 2.2), as draco 1.5.5 reads it. Measured without the guards: an edgebreaker stream of 300 bytes
 * declaring 2^28 faces, vertices and symbols makes draco 1.5.5 allocate 9.7 GB (one 3 GiB block)
 * before it fails; its sequential decoder bounds faces by the bytes left and points by 3 per face,
 * so there the guard only applies the caller's limit.
 *
 * Not guarded, because the count sits behind entropy-coded data kiln would have to decode to
 * reach: the texture-coordinate predictions read an orientation count, size a vector<bool> by
 * it and loop over it before comparing it with anything (a 309-byte stream found by fuzz_draco:
 * 172 MB and 5 s of CPU, then decodes; at most 256 MiB for the portable scheme's int32 count,
 * 512 MiB and some 15 s for the deprecated scheme's uint32 one).
 * Other counts read mid-stream size buffers that are bounded by the checked point and value
 * counts.
 *
 * Nothing here may throw into C: every entry point catches everything (std::bad_alloc is
 * KILN_E_OUT_OF_MEMORY). */
#include <draco/compression/config/compression_shared.h>
#include <draco/compression/config/decoder_options.h>
#include <draco/compression/mesh/mesh_edgebreaker_decoder.h>
#include <draco/compression/mesh/mesh_sequential_decoder.h>
#include <draco/compression/point_cloud/point_cloud_decoder.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>

extern "C" {
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "import/draco.h"
}

namespace
{

const size_t kDefaultLimit = (size_t)1 << 30;

/* What libdraco 1.5.5 holds at its peak, per unit the stream declares, from measurements
 * (tests/draco/test_draco_memory.cpp prints them) rounded up to 1.3-2x: per face (corner table,
 * opposite corners, traversal stacks, the mesh's faces, kiln's copy of the indices; measured
 * 40-81 bytes), per edgebreaker vertex, per face and set of attribute connectivity (seams), per
 * attribute component of a point (draco's portable integers, prediction residuals and final
 * values, plus kiln's float; measured 9), and a fixed part (measured 20-30 KiB). */
const uint64_t kFaceCost = 96;
const uint64_t kVertexCost = 48;
const uint64_t kAttributeDataFaceCost = 48;
const uint64_t kValueCost = 16;
const uint64_t kBaseCost = 64 * 1024;

/* Draco's varint (draco/core/varint_decoding.h, spec "varUI32"): little-endian base 128, at most
 * five bytes, high bits beyond 32 dropped. */
uint32_t read_varint(kiln_reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 5; i++) {
        uint8_t b = kiln_read_u8(r);
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) return (uint32_t)v;
    }
    r->failed = true;
    return 0;
}

/* A count that is a plain u32 in streams before 2.0 and a varint since. */
uint32_t read_count(kiln_reader *r, uint16_t version)
{
    return version < DRACO_BITSTREAM_VERSION(2, 0) ? kiln_read_u32le(r) : read_varint(r);
}

uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}
uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* Why a guarded decode stopped: set by the guards, read after Decode() returns. */
struct guard_state {
    uint64_t limit;
    uint64_t connectivity_bytes; /* the connectivity's estimate, carried into the attributes' */
    kiln_result code;
    char message[200];
};

template <class Base, bool kEdgebreaker> class guarded_decoder : public Base
{
  public:
    explicit guarded_decoder(guard_state *g) : g_(g) {}

  protected:
    bool DecodeConnectivity() override
    {
        if (!check_connectivity()) return false;
        return Base::DecodeConnectivity();
    }
    bool DecodePointAttributes() override
    {
        if (!check_attributes()) return false;
        return Base::DecodePointAttributes();
    }

  private:
    guard_state *g_;

    kiln_reader head()
    {
        draco::DecoderBuffer *b = this->buffer();
        int64_t rem = b->remaining_size();
        return kiln_reader_make(b->data_head(), rem > 0 ? (size_t)rem : 0);
    }

    bool refuse(kiln_result code, uint64_t bytes)
    {
        g_->code = code;
        snprintf(g_->message, sizeof g_->message,
                 "Draco mesh needs about %llu bytes to decode, over the limit of %llu",
                 (unsigned long long)bytes, (unsigned long long)g_->limit);
        return false;
    }

    /* The counts at the start of the connectivity block (spec: ParseEdgebreakerConnectivityData
     * / ParseSequentialConnectivityData). A short read is left to draco to report. */
    bool check_connectivity()
    {
        const uint16_t v = this->bitstream_version();
        kiln_reader r = head();
        uint64_t faces = 0, vertices = 0, attribute_data = 0;
        if (kEdgebreaker) {
            if (v < DRACO_BITSTREAM_VERSION(2, 2)) (void)read_count(&r, v); /* new vertices */
            uint32_t encoded_vertices = read_count(&r, v);
            faces = read_count(&r, v);
            attribute_data = kiln_read_u8(&r);
            (void)read_count(&r, v); /* symbols */
            uint32_t split_symbols = read_count(&r, v);
            vertices = (uint64_t)encoded_vertices + split_symbols;
        } else {
            faces = v < DRACO_BITSTREAM_VERSION(2, 2) ? kiln_read_u32le(&r) : read_varint(&r);
        }
        if (r.failed) return true;
        uint64_t bytes = sat_add(kBaseCost, sat_mul(faces, kFaceCost));
        bytes = sat_add(bytes, sat_mul(vertices, kVertexCost));
        bytes = sat_add(bytes, sat_mul(sat_mul(faces, attribute_data), kAttributeDataFaceCost));
        if (bytes > g_->limit) return refuse(KILN_E_LIMIT, bytes);
        g_->connectivity_bytes = bytes;
        return true;
    }

    /* The attribute descriptors (spec: ParseAttributeDecodersData, DecodeAttributesDecoderData),
     * read before draco sizes anything by them; the point count is known by now. */
    bool check_attributes()
    {
        const uint16_t v = this->bitstream_version();
        kiln_reader r = head();
        unsigned decoders = kiln_read_u8(&r);
        if (kEdgebreaker) {
            size_t per = v < DRACO_BITSTREAM_VERSION(1, 2) ? 2 : 3;
            for (unsigned i = 0; i < decoders; i++) (void)kiln_reader_take(&r, per);
        }
        uint64_t components = 0;
        for (unsigned i = 0; i < decoders && !r.failed; i++) {
            uint32_t n = read_count(&r, v);
            /* Each descriptor takes at least 6 bytes: a count the bytes left cannot hold is
             * malformed (draco 1.5.5 refuses it too), and the loop below stays short. */
            if (!r.failed && n > (r.size - r.pos) / 6) {
                g_->code = KILN_E_IMPORT_FAILED;
                snprintf(g_->message, sizeof g_->message,
                         "Draco attribute decoder %u declares %u attributes in %zu bytes", i, n,
                         r.size - r.pos);
                return false;
            }
            for (uint32_t j = 0; j < n && !r.failed; j++) {
                (void)kiln_read_u8(&r); /* attribute type */
                (void)kiln_read_u8(&r); /* data type */
                components += kiln_read_u8(&r);
                (void)kiln_read_u8(&r); /* normalized */
                if (v < DRACO_BITSTREAM_VERSION(1, 3)) (void)kiln_read_u16le(&r);
                else (void)read_varint(&r);
            }
            (void)kiln_reader_take(&r, n); /* one decoder type per attribute */
        }
        uint64_t points = this->point_cloud()->num_points();
        uint64_t bytes =
            sat_add(g_->connectivity_bytes, sat_mul(sat_mul(points, components), kValueCost));
        if (bytes > g_->limit) return refuse(KILN_E_LIMIT, bytes);
        return true;
    }
};

typedef guarded_decoder<draco::MeshSequentialDecoder, false> sequential_decoder;
typedef guarded_decoder<draco::MeshEdgebreakerDecoder, true> edgebreaker_decoder;

/* glTF componentType of a draco type, 0 for none. */
uint32_t gltf_type(draco::DataType t)
{
    switch (t) {
    case draco::DT_INT8:
        return 5120;
    case draco::DT_UINT8:
        return 5121;
    case draco::DT_INT16:
        return 5122;
    case draco::DT_UINT16:
        return 5123;
    case draco::DT_UINT32:
        return 5125;
    case draco::DT_FLOAT32:
        return 5126;
    default:
        return 0;
    }
}

/* A double as the nearest float; beyond float's range (undefined for a plain cast in C++),
 * infinity of its sign. */
float narrow(double d)
{
    if (d > (double)FLT_MAX) return HUGE_VALF;
    if (d < -(double)FLT_MAX) return -HUGE_VALF;
    return (float)d; /* NaN stays NaN */
}

/* Signed normalized per glTF 2.0 §3.11: max(c / (2^(n-1) - 1), -1). */
float snorm(double c, double max) { return (float)std::fmax(c / max, -1.0); }

/* One component at p (draco's type t), as a float. */
template <class T> T load(const uint8_t *p)
{
    T v;
    memcpy(&v, p, sizeof v);
    return v;
}
float convert(const uint8_t *p, draco::DataType t, bool normalized)
{
    switch (t) {
    case draco::DT_INT8: {
        int8_t c = load<int8_t>(p);
        return normalized ? snorm(c, 127.0) : (float)c;
    }
    case draco::DT_UINT8: {
        uint8_t c = load<uint8_t>(p);
        return normalized ? (float)(c / 255.0) : (float)c;
    }
    case draco::DT_INT16: {
        int16_t c = load<int16_t>(p);
        return normalized ? snorm(c, 32767.0) : (float)c;
    }
    case draco::DT_UINT16: {
        uint16_t c = load<uint16_t>(p);
        return normalized ? (float)(c / 65535.0) : (float)c;
    }
    case draco::DT_INT32: {
        int32_t c = load<int32_t>(p);
        return normalized ? snorm(c, 2147483647.0) : (float)c;
    }
    case draco::DT_UINT32: {
        uint32_t c = load<uint32_t>(p);
        return normalized ? (float)(c / 4294967295.0) : (float)c;
    }
    case draco::DT_INT64: {
        int64_t c = load<int64_t>(p);
        return normalized ? snorm((double)c, 9223372036854775807.0) : (float)c;
    }
    case draco::DT_UINT64: {
        uint64_t c = load<uint64_t>(p);
        return normalized ? (float)((double)c / 18446744073709551615.0) : (float)c;
    }
    case draco::DT_FLOAT32:
        return load<float>(p);
    case draco::DT_FLOAT64:
        return narrow(load<double>(p));
    case draco::DT_BOOL:
        return load<uint8_t>(p) ? 1.0f : 0.0f;
    default:
        return 0.0f;
    }
}

kiln_result copy_attribute(const draco::PointAttribute *att, uint32_t points,
                           const kiln_allocator *a, kiln_draco_attribute *out, kiln_error *err)
{
    const unsigned comps = att->num_components();
    const draco::DataType t = att->data_type();
    const int64_t elem = draco::DataTypeLength(t);
    out->unique_id = att->unique_id();
    out->components = comps;
    out->data_type = gltf_type(t);
    out->normalized = att->normalized() ? 1 : 0;
    if (comps < 1 || comps > 4)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "Draco attribute %u has %u components; vertex attributes have 1 to 4",
                              att->unique_id(), comps);
    if (elem <= 0)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco attribute %u has data type %d",
                              att->unique_id(), (int)t);
    const draco::DataBuffer *buf = att->buffer();
    const int64_t stride = att->byte_stride(), offset = att->byte_offset();
    if (points > 0 && !buf)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco attribute %u has no values",
                              att->unique_id());
    if (!att->is_mapping_identity() && att->indices_map_size() < points)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco attribute %u maps %zu of %u points",
                              att->unique_id(), att->indices_map_size(), points);
    if (stride < elem * (int64_t)comps || offset < 0)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco attribute %u has stride %lld",
                              att->unique_id(), (long long)stride);

    size_t n = 0;
    if (!kiln_size_mul(points, comps, &n) || !kiln_size_mul(n, sizeof(float), &out->values_size))
        return kiln_error_set(err, KILN_E_LIMIT, "Draco attribute %u is too large",
                              att->unique_id());
    if (out->values_size == 0) return KILN_OK;
    out->values = (float *)kiln_alloc(a, out->values_size);
    if (!out->values) {
        out->values_size = 0;
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for Draco attribute %u",
                              att->unique_id());
    }
    const uint64_t values = att->size(), data_size = buf->data_size();
    const uint8_t *data = buf->data();
    float *dst = out->values;
    for (uint32_t p = 0; p < points; p++) {
        const draco::AttributeValueIndex avi = att->mapped_index(draco::PointIndex(p));
        const uint64_t vi = avi.value();
        /* kInvalidAttributeValueIndex is UINT32_MAX, never < values. */
        if (vi >= values)
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "Draco attribute %u: point %u has no value", att->unique_id(), p);
        uint64_t pos = (uint64_t)offset + vi * (uint64_t)stride;
        if (pos > data_size || data_size - pos < (uint64_t)(elem * comps))
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "Draco attribute %u: value %llu lies outside its data",
                                  att->unique_id(), (unsigned long long)vi);
        for (unsigned c = 0; c < comps; c++)
            *dst++ = convert(data + pos + (uint64_t)c * elem, t, att->normalized());
    }
    return KILN_OK;
}

kiln_result copy_mesh(const draco::Mesh &mesh, const kiln_allocator *a, uint64_t limit,
                      kiln_draco_mesh *out, kiln_error *err)
{
    const uint64_t faces = mesh.num_faces(), points = mesh.num_points();
    const int natt = mesh.num_attributes();
    if (faces > UINT32_MAX / 3)
        return kiln_error_set(err, KILN_E_LIMIT, "Draco mesh has %llu triangles",
                              (unsigned long long)faces);
    /* The output's size, checked whole before anything is copied. */
    uint64_t bytes = faces * 3 * sizeof(uint32_t);
    bytes = sat_add(bytes, sat_mul((uint64_t)(natt > 0 ? natt : 0), sizeof(kiln_draco_attribute)));
    for (int i = 0; i < natt; i++) {
        const draco::PointAttribute *att = mesh.attribute(i);
        if (!att) continue;
        bytes = sat_add(bytes, sat_mul(sat_mul(points, att->num_components()), sizeof(float)));
    }
    if (bytes > limit)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "Draco mesh of %llu triangles and %llu vertices takes %llu bytes, "
                              "over the limit of %llu",
                              (unsigned long long)faces, (unsigned long long)points,
                              (unsigned long long)bytes, (unsigned long long)limit);

    out->vertex_count = (uint32_t)points;
    out->index_count = (uint32_t)(faces * 3);
    out->indices_size = (size_t)(faces * 3 * sizeof(uint32_t));
    if (out->indices_size) {
        out->indices = (uint32_t *)kiln_alloc(a, out->indices_size);
        if (!out->indices) {
            out->indices_size = 0;
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for Draco indices");
        }
    }
    for (draco::FaceIndex f(0); f < mesh.num_faces(); ++f) {
        const draco::Mesh::Face &face = mesh.face(f);
        for (int j = 0; j < 3; j++) {
            uint32_t v = face[j].value();
            if (v >= points)
                return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                      "Draco triangle %u names vertex %u of %llu", f.value(), v,
                                      (unsigned long long)points);
            out->indices[(size_t)f.value() * 3 + j] = v;
        }
    }
    if (natt <= 0) return KILN_OK;
    out->attributes =
        (kiln_draco_attribute *)kiln_calloc(a, (size_t)natt, sizeof(kiln_draco_attribute));
    if (!out->attributes)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for Draco attributes");
    out->attribute_count = (uint32_t)natt;
    out->attributes_size = (size_t)natt * sizeof(kiln_draco_attribute);
    for (int i = 0; i < natt; i++) {
        const draco::PointAttribute *att = mesh.attribute(i);
        if (KILN_NEVER(!att))
            return kiln_error_set(err, KILN_E_INTERNAL, "Draco attribute %d missing", i);
        kiln_result r = copy_attribute(att, (uint32_t)points, a, &out->attributes[i], err);
        if (r != KILN_OK) return r;
    }
    return KILN_OK;
}

kiln_result decode(const void *data, size_t size, const kiln_allocator *a, size_t memory_limit,
                   kiln_draco_mesh *out, kiln_error *err)
{
    draco::DecoderBuffer buffer;
    buffer.Init(static_cast<const char *>(data), size);
    draco::DracoHeader header;
    {
        draco::DecoderBuffer peek(buffer);
        draco::Status s = draco::PointCloudDecoder::DecodeHeader(&peek, &header);
        if (!s.ok()) return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco: %s", s.error_msg());
    }
    if (header.encoder_type == draco::POINT_CLOUD)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco point clouds are not meshes");
    if (header.encoder_type != draco::TRIANGULAR_MESH)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco: unknown geometry type %u",
                              header.encoder_type);

    guard_state g;
    g.limit = memory_limit ? memory_limit : kDefaultLimit;
    g.connectivity_bytes = kBaseCost;
    g.code = KILN_OK;
    g.message[0] = '\0';
    draco::DecoderOptions options;
    draco::Mesh mesh;
    draco::Status s;
    if (header.encoder_method == draco::MESH_SEQUENTIAL_ENCODING) {
        sequential_decoder dec(&g);
        s = dec.Decode(options, &buffer, &mesh);
    } else if (header.encoder_method == draco::MESH_EDGEBREAKER_ENCODING) {
        edgebreaker_decoder dec(&g);
        s = dec.Decode(options, &buffer, &mesh);
    } else {
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco: unknown mesh encoding %u",
                              header.encoder_method);
    }
    if (g.code != KILN_OK) return kiln_error_set(err, g.code, "%s", g.message);
    if (!s.ok()) return kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco: %s", s.error_msg());
    return copy_mesh(mesh, a, g.limit, out, err);
}

} // namespace

extern "C" kiln_result kiln_draco_decode(const void *data, size_t size, const kiln_allocator *a,
                                         size_t memory_limit, kiln_draco_mesh *out, kiln_error *err)
{
    if (!out || (!data && size))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_draco_decode: NULL argument");
    memset(out, 0, sizeof *out);
    kiln_result r;
    try {
        r = decode(data, size, a, memory_limit, out, err);
    } catch (const std::bad_alloc &) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "Draco: out of memory");
    } catch (...) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "Draco: the decoder failed (exception)");
    }
    if (r != KILN_OK) kiln_draco_mesh_free(a, out);
    return r;
}

extern "C" const kiln_draco_attribute *kiln_draco_find_attribute(const kiln_draco_mesh *m,
                                                                 uint32_t unique_id)
{
    if (!m) return NULL;
    for (uint32_t i = 0; i < m->attribute_count; i++)
        if (m->attributes[i].unique_id == unique_id) return &m->attributes[i];
    return NULL;
}

extern "C" void kiln_draco_mesh_free(const kiln_allocator *a, kiln_draco_mesh *m)
{
    if (!m) return;
    for (uint32_t i = 0; i < m->attribute_count; i++)
        kiln_free(a, m->attributes[i].values, m->attributes[i].values_size);
    kiln_free(a, m->attributes, m->attributes_size);
    kiln_free(a, m->indices, m->indices_size);
    memset(m, 0, sizeof *m);
}
