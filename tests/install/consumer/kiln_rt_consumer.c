/* kiln_rt_consumer.c — a user of the installed libkiln_rt alone: reads DIR/out.ktx2 (what
 * kiln_consumer cooked) with kiln_ktx2_read, copies level 0 (zstd) and checks its texels against
 * the TGA kiln_consumer wrote, then creates and destroys a runtime context. Prints one line and
 * exits 0 when all of it works. Usage: kiln_rt_consumer DIR */
#include <stdio.h>
#include <stdlib.h>

#include "kiln/kiln_rt.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kiln_rt_consumer DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/out.ktx2", argv[1]);
    static unsigned char file[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t size = f ? fread(file, 1, sizeof file, f) : 0;
    if (f) fclose(f);
    kiln_error err;
    kiln_ktx2_info info;
    kiln_result r = kiln_ktx2_read(file, size, &info, &err);
    unsigned char texels[4 * 4 * 4];
    if (r == KILN_OK &&
        (info.width != 4 || info.height != 4 || info.levels[0].uncompressed_size != sizeof texels))
        r = KILN_E_FORMAT_INVALID;
    if (r == KILN_OK) r = kiln_ktx2_level_copy(&info, 0, texels, sizeof texels, &err);
    if (r != KILN_OK) {
        fprintf(stderr, "kiln_rt_consumer: %s: %s\n", kiln_result_name(r), err.message);
        return 1;
    }
    for (int i = 0; i < 16; i++) {
        int x = i % 4, y = i / 4;
        const unsigned char *t = texels + 4 * i;
        if (t[0] != x * 60 || t[1] != y * 60 || t[2] != 200 || t[3] != 255 - x * 16) {
            fprintf(stderr, "kiln_rt_consumer: texel (%d, %d) is %d %d %d %d\n", x, y, t[0], t[1],
                    t[2], t[3]);
            return 1;
        }
    }
    krt_desc d = {0};
    d.struct_size = sizeof d;
    d.worker_count = 1;
    krt_context *ctx = NULL;
    if ((r = krt_create(&d, &ctx, &err)) != KILN_OK) {
        fprintf(stderr, "kiln_rt_consumer: krt_create: %s: %s\n", kiln_result_name(r), err.message);
        return 1;
    }
    krt_destroy(ctx);
    printf("kiln_rt_consumer: kiln_rt %u read %s\n", kiln_version(), path);
    return 0;
}
