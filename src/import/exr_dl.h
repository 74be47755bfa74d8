/* exr_dl.h — OpenEXR's core C library as a table filled with dlopen on the first EXR decode, so
 * that no `kiln` process loads it at start-up (a geometry-only cook never reads an EXR; see
 * png_dl.h for why that matters). openexr.h gives the types through __typeof__. */
#ifndef KILN_IMPORT_EXR_DL_H
#define KILN_IMPORT_EXR_DL_H

#include <openexr.h>
#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

/* The soname Debian's libopenexr-3-1-30 installs for the core C API (3.1). */
#define KILN_EXR_SONAME "libOpenEXRCore-3_1.so.30"

/* The functions image_exr.c calls. */
typedef struct kiln_exr_api {
    __typeof__(&exr_start_read) start_read;
    __typeof__(&exr_finish) finish;
    __typeof__(&exr_get_user_data) get_user_data;
    __typeof__(&exr_get_default_error_message) get_default_error_message;
    __typeof__(&exr_get_storage) get_storage;
    __typeof__(&exr_get_data_window) get_data_window;
    __typeof__(&exr_get_channels) get_channels;
    __typeof__(&exr_get_scanlines_per_chunk) get_scanlines_per_chunk;
    __typeof__(&exr_get_tile_sizes) get_tile_sizes;
    __typeof__(&exr_read_scanline_chunk_info) read_scanline_chunk_info;
    __typeof__(&exr_read_tile_chunk_info) read_tile_chunk_info;
    __typeof__(&exr_decoding_initialize) decoding_initialize;
    __typeof__(&exr_decoding_update) decoding_update;
    __typeof__(&exr_decoding_choose_default_routines) decoding_choose_default_routines;
    __typeof__(&exr_decoding_run) decoding_run;
    __typeof__(&exr_decoding_destroy) decoding_destroy;
} kiln_exr_api;

/* Opens library (NULL: KILN_EXR_SONAME) with RTLD_NOW | RTLD_LOCAL and fills api. false with
 * why (dlerror's text, which names the library) when it or one of the functions is missing; the
 * library is then closed again. On success it stays loaded for the life of the process. */
bool kiln_exr_dl_load(const char *library, kiln_exr_api *api, char *why, size_t why_size);

/* Sets *out to the process-wide table, loaded on the first call (pthread_once; thread-safe)
 * and never changed after. KILN_E_IMPORT_UNSUPPORTED (*out NULL) when the library cannot be
 * loaded, with a message naming it and dlerror's reason; later calls say the same. */
kiln_result kiln_exr_api_get(const kiln_exr_api **out, kiln_error *err);

#endif
