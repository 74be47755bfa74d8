/* exr_dl.c — OpenEXRCore opened on the first EXR decode (see exr_dl.h), through core/dl.h's
 * one pattern for libraries opened at run time. */
#include "import/exr_dl.h"

#include "core/dl.h"
#include "core/error.h"

static const kiln_dl_entry entries[] = {
    KILN_DL_ENTRY(kiln_exr_api, start_read, "exr_start_read"),
    KILN_DL_ENTRY(kiln_exr_api, finish, "exr_finish"),
    KILN_DL_ENTRY(kiln_exr_api, get_user_data, "exr_get_user_data"),
    KILN_DL_ENTRY(kiln_exr_api, get_default_error_message, "exr_get_default_error_message"),
    KILN_DL_ENTRY(kiln_exr_api, get_storage, "exr_get_storage"),
    KILN_DL_ENTRY(kiln_exr_api, get_data_window, "exr_get_data_window"),
    KILN_DL_ENTRY(kiln_exr_api, get_channels, "exr_get_channels"),
    KILN_DL_ENTRY(kiln_exr_api, get_scanlines_per_chunk, "exr_get_scanlines_per_chunk"),
    KILN_DL_ENTRY(kiln_exr_api, get_tile_sizes, "exr_get_tile_sizes"),
    KILN_DL_ENTRY(kiln_exr_api, read_scanline_chunk_info, "exr_read_scanline_chunk_info"),
    KILN_DL_ENTRY(kiln_exr_api, read_tile_chunk_info, "exr_read_tile_chunk_info"),
    KILN_DL_ENTRY(kiln_exr_api, decoding_initialize, "exr_decoding_initialize"),
    KILN_DL_ENTRY(kiln_exr_api, decoding_update, "exr_decoding_update"),
    KILN_DL_ENTRY(kiln_exr_api, decoding_choose_default_routines,
                  "exr_decoding_choose_default_routines"),
    KILN_DL_ENTRY(kiln_exr_api, decoding_run, "exr_decoding_run"),
    KILN_DL_ENTRY(kiln_exr_api, decoding_destroy, "exr_decoding_destroy"),
};

bool kiln_exr_dl_load(const char *library, kiln_exr_api *api, char *why, size_t why_size)
{
    return kiln_dl_load_table(library ? library : KILN_EXR_SONAME, entries,
                              sizeof entries / sizeof entries[0], api, sizeof *api, NULL, why,
                              why_size);
}

static kiln_exr_api loaded;
static kiln_dl_lazy lazy = KILN_DL_LAZY_INIT;

kiln_result kiln_exr_api_get(const kiln_exr_api **out, kiln_error *err)
{
    bool ok = kiln_dl_lazy_load(&lazy, KILN_EXR_SONAME, entries, sizeof entries / sizeof entries[0],
                                &loaded, sizeof loaded);
    *out = ok ? &loaded : NULL;
    if (ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "EXR: decoding needs OpenEXR's core library (Debian package "
                          "libopenexr-3-1-30), which could not be loaded: %s",
                          lazy.why);
}
