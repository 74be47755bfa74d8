/* vgeo_mesh.h — generated meshes for virtual geometry's tests and benchmark: a displaced sphere
 * with UV seams (watertight once welded) and open wavy planes. Deterministic; abort on no
 * memory. */
#ifndef KILN_TEST_VGEO_MESH_H
#define KILN_TEST_VGEO_MESH_H

#include <stddef.h>
#include <stdint.h>

typedef struct vm_mesh {
    float *positions; /* 3 per vertex */
    uint32_t vertex_count;
    uint32_t *indices;
    size_t index_count;
} vm_mesh;

/* A lat-long sphere of radius ~1 displaced by a smooth bump pattern, 2 * segments * (rings - 1)
 * triangles; the u = 0 / 1 column and the pole rows are separate vertices at equal positions
 * (UV seams, as an artist's mesh has). */
vm_mesh vm_displaced_sphere(uint32_t segments, uint32_t rings);
/* An open n x n grid, gently waved, 2 n^2 triangles; pieces 2 adds a second grid beside it. */
vm_mesh vm_wavy_plane(uint32_t n, int pieces);
void vm_free(vm_mesh *m);

#endif
