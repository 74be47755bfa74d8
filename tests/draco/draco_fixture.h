/* draco_fixture.h — Draco streams made by libdraco's own encoder from meshes kiln's tests build
 * (draco_fixture.cpp), for the decoder tests and the fuzz seeds. */
#ifndef KILN_TEST_DRACO_FIXTURE_H
#define KILN_TEST_DRACO_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kt_draco_opts {
    int edgebreaker;   /* 0: sequential connectivity, 1: edgebreaker */
    int quantize_bits; /* 0: float attributes stored as they are; else position/normal/uv bits */
    int speed;         /* draco's encoding and decoding speed, 0..10 */
    int position_only; /* grid: POSITION alone (no seams) */
} kt_draco_opts;

/* The tetrahedron's source: 4 faces of 3 corners. Attributes, in this order (unique ids 0..4):
 * 0 POSITION float x3 per vertex; 1 NORMAL float x3 per face (flat shading); 2 COLOR uint8 x4
 * normalized per vertex; 3 GENERIC int16 x2 normalized per corner (holds -32768 and 32767);
 * 4 TEX_COORD uint16 x2 not normalized per vertex. */
#define KT_TETRA_FACES 4
extern const uint32_t kt_tetra_faces[KT_TETRA_FACES][3];
extern const float kt_tetra_positions[4][3];
extern const uint8_t kt_tetra_colors[4][4];
extern const int16_t kt_tetra_generic[KT_TETRA_FACES * 3][2];
extern const uint16_t kt_tetra_uv[4][2];
/* The face normal of face f. */
void kt_tetra_normal(int f, float out[3]);

/* The streams, malloc'd (free()), or NULL when draco's encoder refused (message on stderr). */
uint8_t *kt_draco_encode_tetrahedron(const kt_draco_opts *o, size_t *size);
/* An n x n grid of quads (2 n^2 triangles) with POSITION, NORMAL (flat per quad, so with seams)
 * and TEX_COORD floats. */
uint8_t *kt_draco_encode_grid(const kt_draco_opts *o, uint32_t n, size_t *size);
/* A point cloud of 4 points (not a mesh: the decoder must refuse it). */
uint8_t *kt_draco_encode_point_cloud(size_t *size);

#ifdef __cplusplus
}
#endif
#endif
