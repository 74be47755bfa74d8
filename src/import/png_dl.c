/* png_dl.c — libspng opened on the first PNG decode (see png_dl.h).
 *
 * The loaded table is process-wide, like the library it describes: it is written once, under
 * pthread_once, and only read after (the compromise curl_dl.c makes; the style's rule against
 * mutable globals is about state a caller could observe changing, which this never does). */
#include "import/png_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "core/dl.h"
#include "core/error.h"

bool kiln_spng_dl_load(const char *library, kiln_spng_api *api, char *why, size_t why_size)
{
    memset(api, 0, sizeof *api);
    if (!library) library = KILN_SPNG_SONAME;
    void *handle = kiln_dl_open(library, why, why_size);
    if (!handle) return false;
#define SYM(field) kiln_dl_sym(handle, "spng_" #field, &api->field, sizeof api->field, why, why_size)
    bool ok = SYM(ctx_new) && SYM(ctx_free) && SYM(set_image_limits) && SYM(set_chunk_limits) &&
              SYM(set_png_buffer) && SYM(get_ihdr) && SYM(get_trns) && SYM(decoded_image_size) &&
              SYM(decode_image) && SYM(strerror);
#undef SYM
    if (!ok) {
        memset(api, 0, sizeof *api);
        dlclose(handle);
    }
    return ok;
}

typedef struct spng_loaded {
    kiln_spng_api api;
    bool ok;
    char why[200];
} spng_loaded;

static spng_loaded loaded;
static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;

static void load_once(void)
{
    loaded.ok = kiln_spng_dl_load(NULL, &loaded.api, loaded.why, sizeof loaded.why);
}

kiln_result kiln_spng_api_get(const kiln_spng_api **out, kiln_error *err)
{
    pthread_once(&loaded_once, load_once);
    *out = loaded.ok ? &loaded.api : NULL;
    if (loaded.ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "PNG: decoding needs libspng (Debian package libspng0), which could "
                          "not be loaded: %s",
                          loaded.why);
}
