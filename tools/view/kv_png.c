/* kv_png.c — writes the read-back pixels as a PNG with libspng. */
#include <spng.h>
#include <stdio.h>

#include "kv_internal.h"

kiln_result kv_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                         kiln_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f) return kv_error(err, KILN_E_ASSET_IO, "cannot write %s", path);
    spng_ctx *s = spng_ctx_new(SPNG_CTX_ENCODER);
    int rc = s ? spng_set_png_file(s, f) : SPNG_EMEM;
    struct spng_ihdr ihdr = {
        .width = width,
        .height = height,
        .bit_depth = 8,
        .color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA,
    };
    if (!rc) rc = spng_set_ihdr(s, &ihdr);
    if (!rc)
        rc = spng_encode_image(s, rgba, (size_t)width * height * 4, SPNG_FMT_PNG,
                               SPNG_ENCODE_FINALIZE);
    spng_ctx_free(s);
    int closed = fclose(f);
    if (rc)
        return kv_error(err, KILN_E_INTERNAL, "%s: PNG encoding failed: %s", path,
                        spng_strerror(rc));
    if (closed) return kv_error(err, KILN_E_ASSET_IO, "cannot write %s", path);
    return KILN_OK;
}
