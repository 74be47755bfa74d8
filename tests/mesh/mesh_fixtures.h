/* mesh_fixtures.h — synthetic primitives for the mesh tests (UV sphere, unwelded cube, quad) and
 * the cook → write → read → decode round trip they all use. */
#ifndef KILN_TEST_MESH_FIXTURES_H
#define KILN_TEST_MESH_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"
#include "process/mesh.h"
#include "write/mesh_write.h"

/* A primitive whose arrays are malloc'd and owned here. */
typedef struct mf_mesh {
    kiln_scene_primitive prim;
    kiln_scene_morph_target targets[4];
} mf_mesh;

/* UV sphere of radius 1: segments around, rings from pole to pole, 2 * segments * (rings - 1)
 * triangles; the seam (u = 0 / 1) and the poles have one vertex per column, so UVs split there.
 * Normals, tangents (w = 1) and UV0. shuffle: triangles and vertices in a fixed random order. */
void mf_sphere(mf_mesh *m, uint32_t segments, uint32_t rings, bool shuffle);
/* A unit cube as 12 triangles of 36 separate vertices (positions, face normals, UVs). */
void mf_cube36(mf_mesh *m);
/* Adds colour set 0 (a function of the position, alpha 1). */
void mf_add_colors(mf_mesh *m);
/* Adds two joint sets of 4 influences each (8 distinct joints, weights 8..1 / 36 shuffled per
 * vertex) and returns the joint count used (joint_base + 8 * something). */
void mf_add_skin(mf_mesh *m, uint32_t joint_base);
/* Adds target_count morph targets: target t moves positions by mf_delta(t, position) and (odd
 * t) normals by a constant. */
void mf_add_targets(mf_mesh *m, uint32_t target_count);
void mf_delta(uint32_t t, const float *p, float out[3]);
void mf_free(mf_mesh *m);

/* Cooks, writes and reads back: fails the test on any error. bytes/size: the file (malloc'd);
 * view points into it. */
typedef struct mf_cooked {
    kiln_cooked_mesh mesh;
    uint8_t *bytes;
    size_t size;
    kiln_mesh_view view;
} mf_cooked;
void mf_cook(const kiln_scene_primitive *p, const kiln_mesh_build_opts *o, mf_cooked *out);
void mf_cooked_free(mf_cooked *c);
/* Decodes level l; fails the test on error. */
void mf_decode(const mf_cooked *c, uint32_t level, kiln_mesh_decoded *out);

/* Test options: the defaults with quantize / compress chosen. */
kiln_mesh_build_opts mf_opts(bool quantize, bool compress);

/* A deterministic PRNG (xorshift32). */
uint32_t mf_rand(uint32_t *state);

#endif
