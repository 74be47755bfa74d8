/* png_dl.h — libspng's functions as a table filled with dlopen on the first PNG decode, so that
 * no `kiln` process loads libspng at start-up: a geometry-only cook never reads a PNG, and every
 * shared library costs each process time to map and relocate (docs/performance.md). libspng's
 * own header gives the types: __typeof__ makes a changed signature fail to compile instead of
 * calling through a wrong pointer type. */
#ifndef KILN_IMPORT_PNG_DL_H
#define KILN_IMPORT_PNG_DL_H

#include <spng.h>
#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

/* The soname Debian's libspng0 installs (0.7: the API used here). */
#define KILN_SPNG_SONAME "libspng.so.0"

/* The functions image_png.c calls. */
typedef struct kiln_spng_api {
    __typeof__(&spng_ctx_new) ctx_new;
    __typeof__(&spng_ctx_free) ctx_free;
    __typeof__(&spng_set_image_limits) set_image_limits;
    __typeof__(&spng_set_chunk_limits) set_chunk_limits;
    __typeof__(&spng_set_png_buffer) set_png_buffer;
    __typeof__(&spng_get_ihdr) get_ihdr;
    __typeof__(&spng_get_trns) get_trns;
    __typeof__(&spng_decoded_image_size) decoded_image_size;
    __typeof__(&spng_decode_image) decode_image;
    __typeof__(&spng_strerror) strerror;
} kiln_spng_api;

/* Opens library (NULL: KILN_SPNG_SONAME) with RTLD_NOW | RTLD_LOCAL and fills api. false with
 * why (dlerror's text, which names the library) when it or one of the functions is missing; the
 * library is then closed again. On success it stays loaded for the life of the process. */
bool kiln_spng_dl_load(const char *library, kiln_spng_api *api, char *why, size_t why_size);

/* Sets *out to the process-wide table, loaded on the first call (pthread_once; thread-safe)
 * and never changed after. KILN_E_IMPORT_UNSUPPORTED (*out NULL) when libspng cannot be
 * loaded, with a message naming the library and dlerror's reason; every later call says the
 * same without trying again. */
kiln_result kiln_spng_api_get(const kiln_spng_api **out, kiln_error *err);

#endif
