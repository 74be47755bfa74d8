/* kv_sphere.c — the sphere a material is shown on (kiln thumbnail of a material): a UV sphere of
 * radius 1 (64 segments around, 32 from pole to pole, seams duplicated), float streams with
 * normals, tangents (+u direction, handedness +1) and UV set 0 (u around from +Z towards +X, v
 * from the north pole down), made into a kv_mesh by the same create_mesh a cooked one takes. */
#include <math.h>
#include <string.h>

#include "kv_scene.h"

#define SEG_U 64u
#define SEG_V 32u
#define VERTS ((SEG_U + 1) * (SEG_V + 1))
#define TRIS  (SEG_U * SEG_V * 2)

kiln_result kv_sphere_create(kv_context *ctx, kv_mesh **out, kiln_error *err)
{
    size_t pos_size = VERTS * 12, nrm_size = VERTS * 12, tan_size = VERTS * 16, uv_size = VERTS * 8;
    size_t idx_size = TRIS * 3 * 4;
    size_t total = pos_size + nrm_size + tan_size + uv_size + idx_size;
    uint8_t *block = kv_alloc(ctx, total);
    if (!block) return kv_error(err, KILN_E_OUT_OF_MEMORY, "sphere: out of memory");
    float *pos = (float *)block, *nrm = (float *)(block + pos_size);
    float *tan = (float *)(block + pos_size + nrm_size);
    float *uv = (float *)(block + pos_size + nrm_size + tan_size);
    uint32_t *idx = (uint32_t *)(block + pos_size + nrm_size + tan_size + uv_size);
    const double pi = 3.14159265358979323846;
    for (uint32_t j = 0; j <= SEG_V; j++) {
        double v = (double)j / SEG_V, theta = v * pi; /* from +Y down */
        for (uint32_t i = 0; i <= SEG_U; i++) {
            double u = (double)i / SEG_U, phi = u * 2.0 * pi;
            size_t k = (size_t)j * (SEG_U + 1) + i;
            double x = sin(theta) * sin(phi), y = cos(theta), z = sin(theta) * cos(phi);
            pos[k * 3] = nrm[k * 3] = (float)x;
            pos[k * 3 + 1] = nrm[k * 3 + 1] = (float)y;
            pos[k * 3 + 2] = nrm[k * 3 + 2] = (float)z;
            tan[k * 4] = (float)cos(phi); /* d(position)/du, normalized */
            tan[k * 4 + 1] = 0.0f;
            tan[k * 4 + 2] = (float)-sin(phi);
            tan[k * 4 + 3] = 1.0f;
            uv[k * 2] = (float)u;
            uv[k * 2 + 1] = (float)v;
        }
    }
    size_t t = 0;
    for (uint32_t j = 0; j < SEG_V; j++)
        for (uint32_t i = 0; i < SEG_U; i++) {
            uint32_t a = j * (SEG_U + 1) + i, b = a + 1, c = a + SEG_U + 1, d = c + 1;
            /* counter-clockwise seen from outside */
            idx[t++] = a, idx[t++] = c, idx[t++] = b;
            idx[t++] = b, idx[t++] = c, idx[t++] = d;
        }
    kiln_mesh_view v;
    memset(&v, 0, sizeof v);
    v.vertex_count = VERTS;
    v.index_count = TRIS * 3;
    v.level_count = 1;
    v.levels[0].index_count = TRIS * 3;
    for (int c = 0; c < 3; c++) v.bounds_min[c] = -1.0f, v.bounds_max[c] = 1.0f;
    v.extent = 2.0f;
    v.uv_set_count = 1;
    v.uv_scale[0][0] = v.uv_scale[0][1] = 1.0f;
    v.streams[KILN_MESH_POSITION] = (kiln_mesh_stream){KILN_MESH_FORMAT_F32X3, 12, VERTS, NULL, 0};
    v.streams[KILN_MESH_NORMAL] = (kiln_mesh_stream){KILN_MESH_FORMAT_F32X3, 12, VERTS, NULL, 0};
    v.streams[KILN_MESH_TANGENT] = (kiln_mesh_stream){KILN_MESH_FORMAT_F32X4, 16, VERTS, NULL, 0};
    v.streams[KILN_MESH_UV0] = (kiln_mesh_stream){KILN_MESH_FORMAT_F32X2, 8, VERTS, NULL, 0};
    v.streams[KILN_MESH_INDICES] = (kiln_mesh_stream){KILN_MESH_FORMAT_U32, 4, TRIS * 3, NULL, 0};
    krt_mesh_data d;
    memset(&d, 0, sizeof d);
    d.view = &v;
    d.streams[KILN_MESH_POSITION] = pos, d.stream_sizes[KILN_MESH_POSITION] = pos_size;
    d.streams[KILN_MESH_NORMAL] = nrm, d.stream_sizes[KILN_MESH_NORMAL] = nrm_size;
    d.streams[KILN_MESH_TANGENT] = tan, d.stream_sizes[KILN_MESH_TANGENT] = tan_size;
    d.streams[KILN_MESH_UV0] = uv, d.stream_sizes[KILN_MESH_UV0] = uv_size;
    d.streams[KILN_MESH_INDICES] = idx, d.stream_sizes[KILN_MESH_INDICES] = idx_size;
    void *gpu = NULL;
    kiln_result k = kv_create_mesh(ctx, (krt_handle){0}, &d, &gpu, err);
    kv_free(ctx, block, total);
    *out = gpu;
    return k;
}
