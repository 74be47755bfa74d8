/* thumbnail_png.c — `kiln thumbnail` writes its picture with libspng, opened here with dlopen
 * when a picture is written: the kiln command loads no libspng at start-up
 * (tests/cli/kiln_starts_without_heavy_libraries.sh), as libkiln opens it only on the first PNG
 * it decodes. libspng's header gives the types (__typeof__: a changed signature fails to
 * compile). The library is closed again after the write: nothing is kept between calls. */
#ifdef KILN_HAVE_VIEW
#include <dlfcn.h>
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thumbnail.h"

typedef struct spng_api {
    __typeof__(&spng_ctx_new) ctx_new;
    __typeof__(&spng_ctx_free) ctx_free;
    __typeof__(&spng_set_png_file) set_png_file;
    __typeof__(&spng_set_ihdr) set_ihdr;
    __typeof__(&spng_encode_image) encode_image;
    __typeof__(&spng_strerror) strerror;
} spng_api;

static bool load(void *lib, spng_api *a)
{
    /* POSIX: a void * from dlsym converts to a function pointer. */
#define SYM(field, name)                                                                           \
    do {                                                                                           \
        void *s = dlsym(lib, name);                                                                \
        if (!s) return false;                                                                      \
        memcpy(&a->field, &s, sizeof s);                                                           \
    } while (0)
    SYM(ctx_new, "spng_ctx_new");
    SYM(ctx_free, "spng_ctx_free");
    SYM(set_png_file, "spng_set_png_file");
    SYM(set_ihdr, "spng_set_ihdr");
    SYM(encode_image, "spng_encode_image");
    SYM(strerror, "spng_strerror");
#undef SYM
    return true;
}

kiln_result kiln_thumb_write_png(const char *path, const kiln_thumb_image *img, kiln_error *err)
{
    void *lib = dlopen("libspng.so.0", RTLD_NOW | RTLD_LOCAL);
    spng_api a;
    if (!lib || !load(lib, &a)) {
        kiln_result r = kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                         "writing a PNG needs libspng (Debian package libspng0): "
                                         "%.150s",
                                         lib ? "a function is missing" : dlerror());
        if (lib) dlclose(lib);
        return r;
    }
    /* The picture is opaque: RGB, a quarter smaller than RGBA. */
    size_t count = (size_t)img->width * img->height;
    uint8_t *rgb = malloc(count > 0 ? count * 3 : 1);
    if (!rgb) {
        dlclose(lib);
        return kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < count; i++) memcpy(rgb + i * 3, img->rgba + i * 4, 3);
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(rgb);
        dlclose(lib);
        kiln_thumb_error(err, KILN_E_ASSET_IO, "cannot write %.200s", path);
        snprintf(err->path, sizeof err->path, "%s", path);
        return KILN_E_ASSET_IO;
    }
    spng_ctx *s = a.ctx_new(SPNG_CTX_ENCODER);
    int rc = s ? a.set_png_file(s, f) : SPNG_EMEM;
    struct spng_ihdr ihdr = {
        .width = img->width,
        .height = img->height,
        .bit_depth = 8,
        .color_type = SPNG_COLOR_TYPE_TRUECOLOR,
    };
    if (!rc) rc = a.set_ihdr(s, &ihdr);
    if (!rc) rc = a.encode_image(s, rgb, count * 3, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    a.ctx_free(s);
    free(rgb);
    int closed = fclose(f);
    kiln_result r = KILN_OK;
    if (rc)
        r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: PNG encoding failed: %s", path,
                             a.strerror(rc));
    else if (closed) r = kiln_thumb_error(err, KILN_E_ASSET_IO, "cannot write %.200s", path);
    dlclose(lib);
    return r;
}
#endif
