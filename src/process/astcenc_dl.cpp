/* astcenc_dl.cpp — libastcenc opened on the first ASTC encode or decode (see astcenc_dl.h). The
 * table is written once under pthread_once and only read after, as in src/import/png_dl.c.
 * Nothing here throws. */
#include "process/astcenc_dl.h"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>

#include "core/dl.h"
extern "C" {
#include "core/error.h"
}

namespace {

/* kiln_dl_sym with the pointer's size checked when this compiles. */
template <typename Fn> bool sym(void *handle, const char *name, Fn *fn, char *why, size_t why_size)
{
    static_assert(sizeof(Fn) == sizeof(void *), "function and data pointers differ in size");
    return kiln_dl_sym(handle, name, fn, sizeof *fn, why, why_size);
}

struct astcenc_loaded {
    kiln_astcenc_api api;
    bool ok;
    char why[200];
};

astcenc_loaded loaded;
pthread_once_t loaded_once = PTHREAD_ONCE_INIT;

void load_once()
{
    loaded.ok = kiln_astcenc_dl_load(nullptr, &loaded.api, loaded.why, sizeof loaded.why);
}

} // namespace

bool kiln_astcenc_dl_load(const char *library, kiln_astcenc_api *api, char *why, size_t why_size)
{
    std::memset(api, 0, sizeof *api);
    if (!library) library = KILN_ASTCENC_SONAME;
    void *handle = kiln_dl_open(library, why, why_size);
    if (!handle) return false;
#define SYM(field) sym(handle, "astcenc_" #field, &api->field, why, why_size)
    bool ok = SYM(config_init) && SYM(context_alloc) && SYM(context_free) && SYM(compress_image) &&
              SYM(decompress_image) && SYM(get_error_string);
#undef SYM
    if (!ok) {
        std::memset(api, 0, sizeof *api);
        dlclose(handle);
    }
    return ok;
}

kiln_result kiln_astcenc_api_get(const kiln_astcenc_api **out, kiln_error *err)
{
    pthread_once(&loaded_once, load_once);
    *out = loaded.ok ? &loaded.api : nullptr;
    if (loaded.ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "astcenc: ASTC encoding and decoding need libastcenc (Debian package "
                          "libastcenc3d), which could not be loaded: %s",
                          loaded.why);
}
