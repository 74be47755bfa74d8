/* kt_write_shader.c — writes the fixture's cooked shaders for the CLI case
 * (tests/cli/inspect_shader.sh): kt_write_shader OUTDIR makes vertex.kshader (two variants) and
 * compute.kshader. Exit 0, or 1 with a message. */
#include <stdio.h>
#include <stdlib.h>

#include "shader_fixture.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kt_write_shader OUTDIR\n");
        return 2;
    }
    int bad = 0;
    for (int compute = 0; compute <= 1; compute++) {
        size_t size = 0;
        uint8_t *bytes = kt_shader_bytes(compute, &size);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1],
                 compute ? "compute.kshader" : "vertex.kshader");
        FILE *f = bytes ? fopen(path, "wb") : NULL;
        int failed = !f || fwrite(bytes, 1, size, f) != size;
        if (f && fclose(f)) failed = 1;
        if (failed) fprintf(stderr, "kt_write_shader: cannot write %s\n", path);
        bad |= failed;
        free(bytes);
    }
    return bad;
}
