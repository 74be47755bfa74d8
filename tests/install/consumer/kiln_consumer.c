/* kiln_consumer.c — a user of the installed libkiln: writes a 4x4 TGA into DIR, converts it to
 * DIR/out.ktx2 (RGBA8, zstd) with kiln_convert_texture and describes the result with
 * kiln_inspect_file. Prints one line and exits 0 when all of it works.
 * Usage: kiln_consumer DIR */
#include <stdio.h>
#include <string.h>

#include "kiln/kiln.h"

/* 4x4 texels, each RGBA (x * 60, y * 60, 200, 255 - x * 16): ../install_package.sh's runtime
 * consumer checks the same values. */
static int write_tga(const char *path)
{
    unsigned char file[18 + 4 * 4 * 4] = {0};
    file[2] = 2;         /* uncompressed true colour */
    file[12] = 4;        /* width */
    file[14] = 4;        /* height */
    file[16] = 32;       /* bits per pixel */
    file[17] = 0x20 | 8; /* first row on top, 8 alpha bits */
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            unsigned char *p = file + 18 + (y * 4 + x) * 4; /* BGRA */
            p[0] = 200;
            p[1] = (unsigned char)(y * 60);
            p[2] = (unsigned char)(x * 60);
            p[3] = (unsigned char)(255 - x * 16);
        }
    }
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    size_t n = fwrite(file, 1, sizeof file, f);
    return (fclose(f) != 0 || n != sizeof file) ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kiln_consumer DIR\n");
        return 2;
    }
    if (kiln_version() != KILN_VERSION_NUMBER) {
        fprintf(stderr, "kiln_consumer: header %d, library %u\n", KILN_VERSION_NUMBER,
                kiln_version());
        return 1;
    }
    char in[4096], out[4096];
    snprintf(in, sizeof in, "%s/in.tga", argv[1]);
    snprintf(out, sizeof out, "%s/out.ktx2", argv[1]);
    if (write_tga(in) != 0) {
        fprintf(stderr, "kiln_consumer: cannot write %s\n", in);
        return 1;
    }
    kiln_convert_opts o = {0};
    o.struct_size = sizeof o;
    o.settings_json = "{\"texture\": {\"format\": \"rgba8\", \"supercompression\": \"zstd\"}}";
    o.jobs = 1;
    char *result = NULL, *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_convert_texture(in, out, &o, &result, &err);
    if (r == KILN_OK) r = kiln_inspect_file(out, NULL, &doc, &err);
    if (r != KILN_OK) {
        fprintf(stderr, "kiln_consumer: %s: %s\n", kiln_result_name(r), err.message);
        return 1;
    }
    int ok = strstr(doc, "\"type\": \"ktx2\"") && strstr(doc, "\"supercompression\": \"zstd\"");
    if (!ok) fprintf(stderr, "kiln_consumer: unexpected inspect document:\n%s\n", doc);
    else printf("kiln_consumer: kiln %u cooked and inspected %s\n", kiln_version(), out);
    kiln_string_free(result);
    kiln_string_free(doc);
    return ok ? 0 : 1;
}
