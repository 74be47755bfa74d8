/* exr_dl.c — OpenEXRCore opened on the first EXR decode (see exr_dl.h). The table is written
 * once under pthread_once and only read after, as in png_dl.c. */
#include "import/exr_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "core/dl.h"
#include "core/error.h"

bool kiln_exr_dl_load(const char *library, kiln_exr_api *api, char *why, size_t why_size)
{
    memset(api, 0, sizeof *api);
    if (!library) library = KILN_EXR_SONAME;
    void *handle = kiln_dl_open(library, why, why_size);
    if (!handle) return false;
#define SYM(field) kiln_dl_sym(handle, "exr_" #field, &api->field, sizeof api->field, why, why_size)
    bool ok = SYM(start_read) && SYM(finish) && SYM(get_user_data) &&
              SYM(get_default_error_message) && SYM(get_storage) && SYM(get_data_window) &&
              SYM(get_channels) && SYM(get_scanlines_per_chunk) && SYM(get_tile_sizes) &&
              SYM(read_scanline_chunk_info) && SYM(read_tile_chunk_info) &&
              SYM(decoding_initialize) && SYM(decoding_update) &&
              SYM(decoding_choose_default_routines) && SYM(decoding_run) && SYM(decoding_destroy);
#undef SYM
    if (!ok) {
        memset(api, 0, sizeof *api);
        dlclose(handle);
    }
    return ok;
}

typedef struct exr_loaded {
    kiln_exr_api api;
    bool ok;
    char why[200];
} exr_loaded;

static exr_loaded loaded;
static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;

static void load_once(void)
{
    loaded.ok = kiln_exr_dl_load(NULL, &loaded.api, loaded.why, sizeof loaded.why);
}

kiln_result kiln_exr_api_get(const kiln_exr_api **out, kiln_error *err)
{
    pthread_once(&loaded_once, load_once);
    *out = loaded.ok ? &loaded.api : NULL;
    if (loaded.ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "EXR: decoding needs OpenEXR's core library (Debian package "
                          "libopenexr-3-1-30), which could not be loaded: %s",
                          loaded.why);
}
