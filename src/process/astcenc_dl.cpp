/* astcenc_dl.cpp — libastcenc opened on the first ASTC encode or decode (see astcenc_dl.h),
 * through core/dl.h's one pattern for libraries opened at run time, as src/import/png_dl.c.
 * Nothing here throws. */
#include "process/astcenc_dl.h"

#include <cstddef>

#include "core/dl.h"
extern "C" {
#include "core/error.h"
}

namespace
{

static_assert(sizeof(decltype(&astcenc_config_init)) == sizeof(void *),
              "function and data pointers differ in size");

const kiln_dl_entry entries[] = {
    KILN_DL_ENTRY(kiln_astcenc_api, config_init, "astcenc_config_init"),
    KILN_DL_ENTRY(kiln_astcenc_api, context_alloc, "astcenc_context_alloc"),
    KILN_DL_ENTRY(kiln_astcenc_api, context_free, "astcenc_context_free"),
    KILN_DL_ENTRY(kiln_astcenc_api, compress_image, "astcenc_compress_image"),
    KILN_DL_ENTRY(kiln_astcenc_api, decompress_image, "astcenc_decompress_image"),
    KILN_DL_ENTRY(kiln_astcenc_api, get_error_string, "astcenc_get_error_string"),
};
constexpr size_t entry_count = sizeof entries / sizeof entries[0];

kiln_astcenc_api loaded;
kiln_dl_lazy lazy = KILN_DL_LAZY_INIT;

} // namespace

bool kiln_astcenc_dl_load(const char *library, kiln_astcenc_api *api, char *why, size_t why_size)
{
    return kiln_dl_load_table(library ? library : KILN_ASTCENC_SONAME, entries, entry_count, api,
                              sizeof *api, nullptr, why, why_size);
}

kiln_result kiln_astcenc_api_get(const kiln_astcenc_api **out, kiln_error *err)
{
    bool ok =
        kiln_dl_lazy_load(&lazy, KILN_ASTCENC_SONAME, entries, entry_count, &loaded, sizeof loaded);
    *out = ok ? &loaded : nullptr;
    if (ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                          "astcenc: ASTC encoding and decoding need libastcenc (Debian package "
                          "libastcenc3d), which could not be loaded: %s",
                          lazy.why);
}
