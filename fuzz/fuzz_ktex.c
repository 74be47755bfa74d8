/* fuzz_ktex.c — libFuzzer target for the texture descriptor reader (src/pipeline/ktex.c): parses
 * the bytes as a .ktex whose folder does not exist (folder references fail to list; file lists
 * are joined, never opened), and a raw volume descriptor's texels are read from the same bytes.
 * Only E_IMPORT_FAILED, E_LIMIT and out-of-memory may come from bytes; the error record is
 * always terminated; a parsed descriptor names 1..2048 files, 6 for a cube. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "pipeline/ktex.h"

static void check_error(kiln_result r, const kiln_error *err)
{
    if (r != KILN_E_IMPORT_FAILED && r != KILN_E_LIMIT && r != KILN_E_OUT_OF_MEMORY) abort();
    if (!memchr(err->message, '\0', sizeof err->message) ||
        !memchr(err->json_pointer, '\0', sizeof err->json_pointer))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ktex k;
    kiln_error err;
    kiln_result r = kiln_ktex_parse(data, size, "/nonexistent-kiln-fuzz", NULL, &k, &err);
    if (r != KILN_OK) {
        check_error(r, &err);
        return 0;
    }
    if (k.count == 0 || k.count > KILN_KTEX_MAX_IMAGES) abort();
    if (k.shape == KILN_TEXTURE_SHAPE_CUBE && k.count != 6) abort();
    if (k.is_raw) {
        kiln_image *images = calloc(k.raw.depth, sizeof *images);
        if (!images) abort();
        r = kiln_ktex_raw_images(&k.raw, data, size, NULL, images, &err);
        if (r != KILN_OK) check_error(r, &err);
        else
            for (uint32_t z = 0; z < k.raw.depth; z++) kiln_image_free(&images[z]);
        free(images);
    }
    kiln_ktex_free(&k);
    return 0;
}
