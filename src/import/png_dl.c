/* png_dl.c — libspng opened on the first PNG decode (see png_dl.h), through core/dl.h's one
 * pattern for libraries opened at run time. */
#include "import/png_dl.h"

#include "core/dl.h"
#include "core/error.h"

static const kiln_dl_entry entries[] = {
    KILN_DL_ENTRY(kiln_spng_api, ctx_new, "spng_ctx_new"),
    KILN_DL_ENTRY(kiln_spng_api, ctx_free, "spng_ctx_free"),
    KILN_DL_ENTRY(kiln_spng_api, set_image_limits, "spng_set_image_limits"),
    KILN_DL_ENTRY(kiln_spng_api, set_chunk_limits, "spng_set_chunk_limits"),
    KILN_DL_ENTRY(kiln_spng_api, set_png_buffer, "spng_set_png_buffer"),
    KILN_DL_ENTRY(kiln_spng_api, get_ihdr, "spng_get_ihdr"),
    KILN_DL_ENTRY(kiln_spng_api, get_trns, "spng_get_trns"),
    KILN_DL_ENTRY(kiln_spng_api, decoded_image_size, "spng_decoded_image_size"),
    KILN_DL_ENTRY(kiln_spng_api, decode_image, "spng_decode_image"),
    KILN_DL_ENTRY(kiln_spng_api, strerror, "spng_strerror"),
};

bool kiln_spng_dl_load(const char *library, kiln_spng_api *api, char *why, size_t why_size)
{
    return kiln_dl_load_table(library ? library : KILN_SPNG_SONAME, entries,
                              sizeof entries / sizeof entries[0], api, sizeof *api, NULL, why,
                              why_size);
}

static kiln_spng_api loaded;
static kiln_dl_lazy lazy = KILN_DL_LAZY_INIT;

kiln_result kiln_spng_api_get(const kiln_spng_api **out, kiln_error *err)
{
    bool ok = kiln_dl_lazy_load(&lazy, KILN_SPNG_SONAME, entries,
                                sizeof entries / sizeof entries[0], &loaded, sizeof loaded);
    *out = ok ? &loaded : NULL;
    if (ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "PNG: decoding needs libspng (Debian package libspng0), which could "
                          "not be loaded: %s",
                          lazy.why);
}
