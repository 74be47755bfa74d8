/* report_html_png.c — the report's PNG files, written with libspng. The library is opened with
 * dlopen on the first picture, as the cook opens it on the first PNG it reads (src/import/
 * png_dl.c): a `kiln` process maps no image library at start-up
 * (tests/cli/kiln_starts_without_heavy_libraries.sh). libspng's header gives the types, so a
 * changed signature fails to compile. The handle lives in the report's rh_png, not in a global;
 * once open it is only read, and each picture has its own libspng context: threads may write
 * pictures at once. */
#include <dlfcn.h>
#include <spng.h>
#include <stdlib.h>

#include "report_html.h"

#define RH_SPNG_SONAME "libspng.so.0" /* Debian's libspng0 (0.7) */

struct rh_png {
    void *lib;
    __typeof__(&spng_ctx_new) ctx_new;
    __typeof__(&spng_ctx_free) ctx_free;
    __typeof__(&spng_set_png_file) set_png_file;
    __typeof__(&spng_set_ihdr) set_ihdr;
    __typeof__(&spng_encode_image) encode_image;
    __typeof__(&spng_strerror) strerror;
};

kiln_result rh_png_open(rh_png **out, kiln_error *err)
{
    if (*out) return KILN_OK;
    rh_png *p = calloc(1, sizeof *p);
    if (!p) return rh_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    p->lib = dlopen(RH_SPNG_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (p->lib) {
        *(void **)&p->ctx_new = dlsym(p->lib, "spng_ctx_new");
        *(void **)&p->ctx_free = dlsym(p->lib, "spng_ctx_free");
        *(void **)&p->set_png_file = dlsym(p->lib, "spng_set_png_file");
        *(void **)&p->set_ihdr = dlsym(p->lib, "spng_set_ihdr");
        *(void **)&p->encode_image = dlsym(p->lib, "spng_encode_image");
        *(void **)&p->strerror = dlsym(p->lib, "spng_strerror");
    }
    if (!p->lib || !p->ctx_new || !p->ctx_free || !p->set_png_file || !p->set_ihdr ||
        !p->encode_image || !p->strerror) {
        const char *why = dlerror();
        char text[200];
        snprintf(text, sizeof text, "%s", why ? why : "a function is missing");
        rh_png_close(p);
        return rh_error(err, KILN_E_IMPORT_UNSUPPORTED, "pictures need %s: %s", RH_SPNG_SONAME,
                        text);
    }
    *out = p;
    return KILN_OK;
}

kiln_result rh_png_write(rh_png **png, const char *path, const uint8_t *rgba, uint32_t w,
                         uint32_t h, kiln_error *err)
{
    kiln_result r = rh_png_open(png, err);
    if (r != KILN_OK) return r;
    rh_png *p = *png;
    FILE *f = fopen(path, "wb");
    if (!f) return rh_error(err, KILN_E_ASSET_IO, "cannot write %s", path);
    spng_ctx *s = p->ctx_new(SPNG_CTX_ENCODER);
    int rc = s ? p->set_png_file(s, f) : SPNG_EMEM;
    struct spng_ihdr ihdr = {
        .width = w,
        .height = h,
        .bit_depth = 8,
        .color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA,
    };
    if (!rc) rc = p->set_ihdr(s, &ihdr);
    if (!rc) rc = p->encode_image(s, rgba, (size_t)w * h * 4, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    p->ctx_free(s);
    int closed = fclose(f);
    if (rc)
        return rh_error(err, KILN_E_ASSET_IO, "%s: PNG encoding failed: %s", path, p->strerror(rc));
    if (closed) return rh_error(err, KILN_E_ASSET_IO, "cannot write %s", path);
    return KILN_OK;
}

void rh_png_close(rh_png *png)
{
    if (!png) return;
    if (png->lib) dlclose(png->lib);
    free(png);
}
