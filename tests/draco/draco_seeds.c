/* draco_seeds.c — writes the fuzz seeds of fuzz/corpus/draco/: small meshes encoded by
 * libdraco's encoder from kiln's own fixtures (draco_fixture.cpp), both connectivity methods,
 * with and without quantization and at two speeds, plus a point cloud.
 * usage: draco_seeds OUTDIR */
#include <stdio.h>
#include <stdlib.h>

#include "draco_fixture.h"

/* Writes and frees data (the encoder's result: NULL when it failed). */
static int write_seed(const char *dir, const char *name, uint8_t *data, size_t size)
{
    if (!data) return 1;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(data, 1, size, f) != size;
    if (f && fclose(f) != 0) bad = 1;
    free(data);
    if (bad) fprintf(stderr, "draco_seeds: cannot write %s\n", path);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: draco_seeds OUTDIR\n");
        return 2;
    }
    const char *dir = argv[1];
    int bad = 0;
    size_t size = 0;
    static const struct {
        const char *name;
        kt_draco_opts o;
    } tetra[] = {
        {"tetra_seq.drc", {0, 0, 5, 0}},        {"tetra_seq_q11.drc", {0, 11, 5, 0}},
        {"tetra_eb.drc", {1, 0, 5, 0}},         {"tetra_eb_q11.drc", {1, 11, 5, 0}},
        {"tetra_eb_q14_s0.drc", {1, 14, 0, 0}}, {"tetra_eb_q8_s10.drc", {1, 8, 10, 0}},
    };
    uint8_t *d;
    /* (The encoder sets size: call it before passing size on.) */
    for (size_t i = 0; i < sizeof tetra / sizeof tetra[0]; i++) {
        d = kt_draco_encode_tetrahedron(&tetra[i].o, &size);
        bad |= write_seed(dir, tetra[i].name, d, size);
    }
    static const struct {
        const char *name;
        kt_draco_opts o;
    } grid[] = {
        {"grid3_eb_q12.drc", {1, 12, 5, 0}},
        {"grid3_eb_q12_s0.drc", {1, 12, 0, 0}},
        {"grid3_seq_q12.drc", {0, 12, 5, 0}},
        {"grid3_eb_pos.drc", {1, 10, 7, 1}},
    };
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++) {
        d = kt_draco_encode_grid(&grid[i].o, 3, &size);
        bad |= write_seed(dir, grid[i].name, d, size);
    }
    d = kt_draco_encode_point_cloud(&size);
    bad |= write_seed(dir, "point_cloud.drc", d, size);
    return bad;
}
