/* astcenc_dl.h — libastcenc's functions as a table filled with dlopen on the first ASTC encode
 * or decode, so that no `kiln` process loads it at start-up (a geometry-only cook never makes
 * ASTC; see src/import/png_dl.h for why that matters). C++ only, like astcenc.h, which gives the
 * types through decltype; astcenc's functions are extern "C", so dlsym finds them by name. */
#ifndef KILN_PROCESS_ASTCENC_DL_H
#define KILN_PROCESS_ASTCENC_DL_H

#ifndef ASTCENC_DYNAMIC_LIBRARY
#define ASTCENC_DYNAMIC_LIBRARY /* declares the functions extern "C" (ASTCENC_PUBLIC) */
#endif
#include <astcenc.h>

#include <cstddef>

extern "C" {
#include "kiln/kiln_format.h"
}

/* The soname Debian's libastcenc3d installs (astcenc 4.2). */
#define KILN_ASTCENC_SONAME "libastcenc.so.3d"

/* The functions astc_shim.cpp calls. */
struct kiln_astcenc_api {
    decltype(&astcenc_config_init) config_init;
    decltype(&astcenc_context_alloc) context_alloc;
    decltype(&astcenc_context_free) context_free;
    decltype(&astcenc_compress_image) compress_image;
    decltype(&astcenc_decompress_image) decompress_image;
    decltype(&astcenc_get_error_string) get_error_string;
};

/* Opens library (NULL: KILN_ASTCENC_SONAME) with RTLD_NOW | RTLD_LOCAL and fills api. false
 * with why (dlerror's text, which names the library) when it or one of the functions is
 * missing; the library is then closed again. On success it stays loaded for the process. */
bool kiln_astcenc_dl_load(const char *library, kiln_astcenc_api *api, char *why, size_t why_size);

/* Sets *out to the process-wide table, loaded on the first call (kiln_dl_lazy; thread-safe)
 * and never changed after. KILN_E_IMPORT_UNSUPPORTED (*out NULL) when libastcenc cannot be
 * loaded, with a message naming it and dlerror's reason; later calls say the same. */
kiln_result kiln_astcenc_api_get(const kiln_astcenc_api **out, kiln_error *err);

#endif
