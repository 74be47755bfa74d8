/* draco_fixture.cpp — small meshes encoded with libdraco's encoder (draco::Encoder), so the
 * decoder tests and fuzz seeds come from kiln's own code, not from a third-party corpus. */
#include <draco/compression/config/compression_shared.h>
#include <draco/compression/encode.h>
#include <draco/core/encoder_buffer.h>
#include <draco/mesh/triangle_soup_mesh_builder.h>
#include <draco/point_cloud/point_cloud.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "draco_fixture.h"

extern "C" {
const uint32_t kt_tetra_faces[KT_TETRA_FACES][3] = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
const float kt_tetra_positions[4][3] = {
    {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
const uint8_t kt_tetra_colors[4][4] = {
    {255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 1}, {17, 34, 51, 0}};
const int16_t kt_tetra_generic[KT_TETRA_FACES * 3][2] = {
    {-32768, 32767}, {-32767, 0}, {1, -1},    {100, -100}, {32767, -32768}, {0, 0},
    {-1, 1},         {2, -2},     {300, 400}, {-500, 600}, {7, -7},         {16384, -16384}};
const uint16_t kt_tetra_uv[4][2] = {{0, 0}, {65535, 0}, {0, 65535}, {1234, 4321}};
}

extern "C" void kt_tetra_normal(int f, float out[3])
{
    const float *a = kt_tetra_positions[kt_tetra_faces[f][0]];
    const float *b = kt_tetra_positions[kt_tetra_faces[f][1]];
    const float *c = kt_tetra_positions[kt_tetra_faces[f][2]];
    float u[3], v[3];
    for (int i = 0; i < 3; i++) u[i] = b[i] - a[i], v[i] = c[i] - a[i];
    float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < 3; i++) out[i] = n[i] / len;
}

namespace
{

uint8_t *finish(const draco::Status &s, const draco::EncoderBuffer &buf, size_t *size)
{
    if (!s.ok()) {
        fprintf(stderr, "draco encoder: %s\n", s.error_msg());
        return nullptr;
    }
    uint8_t *out = static_cast<uint8_t *>(malloc(buf.size()));
    if (!out) return nullptr;
    memcpy(out, buf.data(), buf.size());
    *size = buf.size();
    return out;
}

uint8_t *encode_mesh(const draco::Mesh &mesh, const kt_draco_opts *o, size_t *size)
{
    draco::Encoder enc;
    enc.SetEncodingMethod(o->edgebreaker ? draco::MESH_EDGEBREAKER_ENCODING
                                         : draco::MESH_SEQUENTIAL_ENCODING);
    enc.SetSpeedOptions(o->speed, o->speed);
    if (o->quantize_bits > 0) {
        enc.SetAttributeQuantization(draco::GeometryAttribute::POSITION, o->quantize_bits);
        enc.SetAttributeQuantization(draco::GeometryAttribute::NORMAL, o->quantize_bits);
        enc.SetAttributeQuantization(draco::GeometryAttribute::TEX_COORD, o->quantize_bits);
    }
    draco::EncoderBuffer buf;
    return finish(enc.EncodeMeshToBuffer(mesh, &buf), buf, size);
}

} // namespace

extern "C" uint8_t *kt_draco_encode_tetrahedron(const kt_draco_opts *o, size_t *size)
{
    draco::TriangleSoupMeshBuilder b;
    b.Start(KT_TETRA_FACES);
    const int pos = b.AddAttribute(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32);
    const int nrm = b.AddAttribute(draco::GeometryAttribute::NORMAL, 3, draco::DT_FLOAT32);
    const int col = b.AddAttribute(draco::GeometryAttribute::COLOR, 4, draco::DT_UINT8, true);
    const int gen = b.AddAttribute(draco::GeometryAttribute::GENERIC, 2, draco::DT_INT16, true);
    const int uv = b.AddAttribute(draco::GeometryAttribute::TEX_COORD, 2, draco::DT_UINT16);
    for (int f = 0; f < KT_TETRA_FACES; f++) {
        const uint32_t *v = kt_tetra_faces[f];
        const draco::FaceIndex fi(f);
        float n[3];
        kt_tetra_normal(f, n);
        b.SetAttributeValuesForFace(pos, fi, kt_tetra_positions[v[0]], kt_tetra_positions[v[1]],
                                    kt_tetra_positions[v[2]]);
        b.SetAttributeValuesForFace(nrm, fi, n, n, n);
        b.SetAttributeValuesForFace(col, fi, kt_tetra_colors[v[0]], kt_tetra_colors[v[1]],
                                    kt_tetra_colors[v[2]]);
        b.SetAttributeValuesForFace(gen, fi, kt_tetra_generic[f * 3], kt_tetra_generic[f * 3 + 1],
                                    kt_tetra_generic[f * 3 + 2]);
        b.SetAttributeValuesForFace(uv, fi, kt_tetra_uv[v[0]], kt_tetra_uv[v[1]],
                                    kt_tetra_uv[v[2]]);
    }
    std::unique_ptr<draco::Mesh> mesh = b.Finalize();
    if (!mesh) return nullptr;
    return encode_mesh(*mesh, o, size);
}

extern "C" uint8_t *kt_draco_encode_grid(const kt_draco_opts *o, uint32_t n, size_t *size)
{
    draco::TriangleSoupMeshBuilder b;
    b.Start(static_cast<int>(2 * n * n));
    const int pos = b.AddAttribute(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32);
    int nrm = -1, uv = -1;
    if (!o->position_only) {
        nrm = b.AddAttribute(draco::GeometryAttribute::NORMAL, 3, draco::DT_FLOAT32);
        uv = b.AddAttribute(draco::GeometryAttribute::TEX_COORD, 2, draco::DT_FLOAT32);
    }
    /* Flat normals, alternating per quad, so the normals have seams (edgebreaker then codes
     * their connectivity separately). */
    const float up[2][3] = {{0.0f, 0.0f, 1.0f}, {0.6f, 0.0f, 0.8f}};
    int f = 0;
    for (uint32_t y = 0; y < n; y++) {
        for (uint32_t x = 0; x < n; x++) {
            float p[4][3], t[4][2];
            for (int k = 0; k < 4; k++) {
                uint32_t gx = x + (k & 1), gy = y + (k >> 1);
                /* A gentle bump so the positions are not all on one plane. */
                p[k][0] = (float)gx;
                p[k][1] = (float)gy;
                p[k][2] = std::sin(0.1f * (float)gx) * std::cos(0.1f * (float)gy);
                t[k][0] = (float)gx / (float)n;
                t[k][1] = (float)gy / (float)n;
            }
            const int tri[2][3] = {{0, 1, 3}, {0, 3, 2}};
            for (int h = 0; h < 2; h++, f++) {
                const draco::FaceIndex fi(f);
                b.SetAttributeValuesForFace(pos, fi, p[tri[h][0]], p[tri[h][1]], p[tri[h][2]]);
                if (o->position_only) continue;
                const float *u = up[(x + y) & 1];
                b.SetAttributeValuesForFace(nrm, fi, u, u, u);
                b.SetAttributeValuesForFace(uv, fi, t[tri[h][0]], t[tri[h][1]], t[tri[h][2]]);
            }
        }
    }
    std::unique_ptr<draco::Mesh> mesh = b.Finalize();
    if (!mesh) return nullptr;
    return encode_mesh(*mesh, o, size);
}

extern "C" uint8_t *kt_draco_encode_point_cloud(size_t *size)
{
    draco::PointCloud pc;
    pc.set_num_points(4);
    draco::GeometryAttribute ga;
    ga.Init(draco::GeometryAttribute::POSITION, nullptr, 3, draco::DT_FLOAT32, false,
            sizeof(float) * 3, 0);
    const int att = pc.AddAttribute(ga, true, 4);
    for (int i = 0; i < 4; i++)
        pc.attribute(att)->SetAttributeValue(draco::AttributeValueIndex(i), kt_tetra_positions[i]);
    draco::Encoder enc;
    enc.SetSpeedOptions(5, 5);
    draco::EncoderBuffer buf;
    return finish(enc.EncodePointCloudToBuffer(pc, &buf), buf, size);
}
