/* mesh_fixtures.c — see mesh_fixtures.h. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mesh_fixtures.h"

uint32_t mf_rand(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static void *mf_alloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    assert_non_null(p);
    return p;
}

void mf_sphere(mf_mesh *m, uint32_t segments, uint32_t rings, bool shuffle)
{
    memset(m, 0, sizeof *m);
    uint32_t cols = segments + 1, rows = rings + 1, nv = cols * rows;
    float *pos = mf_alloc((size_t)nv * 12), *nrm = mf_alloc((size_t)nv * 12);
    float *tan = mf_alloc((size_t)nv * 16), *uv = mf_alloc((size_t)nv * 8);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t s = 0; s < cols; s++) {
            uint32_t v = r * cols + s;
            double theta = M_PI * r / rings, phi = 2.0 * M_PI * s / segments;
            double p[3] = {sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)};
            if (r == 0) p[0] = 0, p[1] = 1, p[2] = 0; /* exact poles */
            if (r == rings) p[0] = 0, p[1] = -1, p[2] = 0;
            if (s == segments) { /* exact seam twin */
                double t0 = M_PI * r / rings;
                p[0] = r == 0 || r == rings ? 0 : sin(t0), p[2] = 0;
            }
            for (int c = 0; c < 3; c++) pos[v * 3 + c] = nrm[v * 3 + c] = (float)p[c];
            tan[v * 4 + 0] = (float)-sin(phi), tan[v * 4 + 1] = 0, tan[v * 4 + 2] = (float)cos(phi);
            tan[v * 4 + 3] = 1;
            uv[v * 2 + 0] = (float)s / segments, uv[v * 2 + 1] = (float)r / rings;
        }
    uint32_t tris = 2 * segments * (rings - 1);
    uint32_t *idx = mf_alloc((size_t)tris * 12), n = 0;
    for (uint32_t r = 0; r < rings; r++)
        for (uint32_t s = 0; s < segments; s++) {
            uint32_t a = r * cols + s, b = (r + 1) * cols + s, c = (r + 1) * cols + s + 1,
                     d = r * cols + s + 1;
            /* counter-clockwise seen from outside */
            if (r != 0) idx[n++] = a, idx[n++] = d, idx[n++] = c;
            if (r != rings - 1) idx[n++] = a, idx[n++] = c, idx[n++] = b;
        }
    assert_int_equal(n, tris * 3);
    if (shuffle) {
        uint32_t st = 12345;
        for (uint32_t t = tris; t > 1; t--) {
            uint32_t k = mf_rand(&st) % t;
            for (int c = 0; c < 3; c++) {
                uint32_t x = idx[(t - 1) * 3 + c];
                idx[(t - 1) * 3 + c] = idx[k * 3 + c];
                idx[k * 3 + c] = x;
            }
        }
        /* vertices: a random permutation applied to every stream */
        uint32_t *perm = mf_alloc((size_t)nv * 4);
        for (uint32_t v = 0; v < nv; v++) perm[v] = v;
        for (uint32_t v = nv; v > 1; v--) {
            uint32_t k = mf_rand(&st) % v, x = perm[v - 1];
            perm[v - 1] = perm[k], perm[k] = x;
        }
        float *p2 = mf_alloc((size_t)nv * 12), *n2 = mf_alloc((size_t)nv * 12);
        float *t2 = mf_alloc((size_t)nv * 16), *u2 = mf_alloc((size_t)nv * 8);
        for (uint32_t v = 0; v < nv; v++) {
            uint32_t d = perm[v];
            memcpy(p2 + d * 3, pos + v * 3, 12);
            memcpy(n2 + d * 3, nrm + v * 3, 12);
            memcpy(t2 + d * 4, tan + v * 4, 16);
            memcpy(u2 + d * 2, uv + v * 2, 8);
        }
        for (uint32_t i = 0; i < n; i++) idx[i] = perm[idx[i]];
        free(pos), free(nrm), free(tan), free(uv), free(perm);
        pos = p2, nrm = n2, tan = t2, uv = u2;
    }
    kiln_scene_primitive *p = &m->prim;
    p->vertex_count = nv;
    p->positions = pos, p->normals = nrm, p->tangents = tan;
    p->texcoords[0] = uv, p->texcoord_count = 1;
    p->indices = idx, p->index_count = n;
    p->material = -1, p->mode = KILN_SCENE_MODE_TRIANGLES;
    for (int c = 0; c < 3; c++) p->bounds_min[c] = -1, p->bounds_max[c] = 1;
}

void mf_cube36(mf_mesh *m)
{
    memset(m, 0, sizeof *m);
    static const float corners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                        {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    static const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                    {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};
    static const float normals[6][3] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0},
                                        {0, 1, 0},  {1, 0, 0}, {-1, 0, 0}};
    static const float uvs[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    static const int corner_of_tri[6] = {0, 1, 2, 0, 2, 3};
    float *pos = mf_alloc(36 * 12), *nrm = mf_alloc(36 * 12), *uv = mf_alloc(36 * 8);
    uint32_t *idx = mf_alloc(36 * 4);
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 6; k++) {
            int v = f * 6 + k, c = corner_of_tri[k];
            memcpy(pos + v * 3, corners[faces[f][c]], 12);
            memcpy(nrm + v * 3, normals[f], 12);
            memcpy(uv + v * 2, uvs[c], 8);
            idx[v] = (uint32_t)v;
        }
    kiln_scene_primitive *p = &m->prim;
    p->vertex_count = 36;
    p->positions = pos, p->normals = nrm;
    p->texcoords[0] = uv, p->texcoord_count = 1;
    p->indices = idx, p->index_count = 36;
    p->material = -1, p->mode = KILN_SCENE_MODE_TRIANGLES;
    for (int c = 0; c < 3; c++) p->bounds_min[c] = 0, p->bounds_max[c] = 1;
}

void mf_add_colors(mf_mesh *m)
{
    uint32_t nv = m->prim.vertex_count;
    float *col = mf_alloc((size_t)nv * 16);
    for (uint32_t v = 0; v < nv; v++) {
        const float *p = m->prim.positions + v * 3;
        for (int c = 0; c < 3; c++) col[v * 4 + c] = 0.5f + 0.5f * p[c] / (1.0f + fabsf(p[c]));
        col[v * 4 + 3] = 1.0f;
    }
    m->prim.colors[0] = col;
    m->prim.color_count = 1;
}

void mf_add_skin(mf_mesh *m, uint32_t joint_base)
{
    uint32_t nv = m->prim.vertex_count;
    for (int s = 0; s < 2; s++) {
        uint16_t *j = mf_alloc((size_t)nv * 8);
        float *w = mf_alloc((size_t)nv * 16);
        for (uint32_t v = 0; v < nv; v++)
            for (int k = 0; k < 4; k++) {
                int slot = s * 4 + k;
                j[v * 4 + k] = (uint16_t)(joint_base + (uint32_t)slot);
                w[v * 4 + k] = (float)((slot + v) % 8 + 1) / 36.0f;
            }
        m->prim.joints[s] = j;
        m->prim.weights[s] = w;
    }
    m->prim.joint_set_count = 2;
}

void mf_delta(uint32_t t, const float *p, float out[3])
{
    out[0] = 0.01f * (float)(t + 1) * p[1];
    out[1] = 0.02f * (float)(t + 1) * p[2];
    out[2] = -0.01f * p[0];
}

void mf_add_targets(mf_mesh *m, uint32_t target_count)
{
    uint32_t nv = m->prim.vertex_count;
    assert_true(target_count <= 4);
    for (uint32_t t = 0; t < target_count; t++) {
        float *d = mf_alloc((size_t)nv * 12);
        for (uint32_t v = 0; v < nv; v++) mf_delta(t, m->prim.positions + v * 3, d + v * 3);
        m->targets[t].positions = d;
        if (t % 2) {
            float *n = mf_alloc((size_t)nv * 12);
            for (uint32_t v = 0; v < nv; v++)
                n[v * 3] = 0.1f, n[v * 3 + 1] = 0.0f, n[v * 3 + 2] = -0.05f;
            m->targets[t].normals = n;
        }
    }
    m->prim.targets = m->targets;
    m->prim.target_count = target_count;
}

void mf_free(mf_mesh *m)
{
    kiln_scene_primitive *p = &m->prim;
    free((void *)p->positions), free((void *)p->normals), free((void *)p->tangents);
    for (int i = 0; i < KILN_SCENE_MAX_UV_SETS; i++) free((void *)p->texcoords[i]);
    for (int i = 0; i < KILN_SCENE_MAX_COLOR_SETS; i++) free((void *)p->colors[i]);
    for (int i = 0; i < KILN_SCENE_MAX_JOINT_SETS; i++)
        free((void *)p->joints[i]), free((void *)p->weights[i]);
    free((void *)p->indices);
    for (int t = 0; t < 4; t++) {
        free((void *)m->targets[t].positions), free((void *)m->targets[t].normals);
        free((void *)m->targets[t].tangents);
    }
    memset(m, 0, sizeof *m);
}

void mf_cook(const kiln_scene_primitive *p, const kiln_mesh_build_opts *o, mf_cooked *out)
{
    memset(out, 0, sizeof *out);
    kiln_error err;
    kiln_result rc = kiln_mesh_build(p, o, NULL, &out->mesh, &err);
    if (rc != KILN_OK) fail_msg("kiln_mesh_build: %s: %s", kiln_result_name(rc), err.message);
    rc = kiln_mesh_write(&out->mesh, NULL, &out->bytes, &out->size, &err);
    if (rc != KILN_OK) fail_msg("kiln_mesh_write: %s: %s", kiln_result_name(rc), err.message);
    rc = kiln_mesh_read(out->bytes, out->size, 0, &out->view, &err);
    if (rc != KILN_OK)
        fail_msg("kiln_mesh_read: %s: %s (offset %llu)", kiln_result_name(rc), err.message,
                 (unsigned long long)err.offset);
}

void mf_cooked_free(mf_cooked *c)
{
    kiln_cooked_mesh_free(&c->mesh);
    free(c->bytes);
    memset(c, 0, sizeof *c);
}

void mf_decode(const mf_cooked *c, uint32_t level, kiln_mesh_decoded *out)
{
    kiln_error err;
    kiln_result rc = kiln_mesh_decode(&c->view, level, NULL, out, &err);
    if (rc != KILN_OK) fail_msg("kiln_mesh_decode: %s: %s", kiln_result_name(rc), err.message);
}

kiln_mesh_build_opts mf_opts(bool quantize, bool compress)
{
    kiln_mesh_build_opts o;
    kiln_mesh_build_opts_default(&o);
    o.quantize = quantize;
    o.compress = compress ? KILN_MESH_COMPRESS_MESHOPT : KILN_MESH_COMPRESS_NONE;
    return o;
}
