/* curl_dl.c — libcurl opened when the remote cache first needs it (see curl_dl.h). */
#include "pipeline/curl_dl.h"

#include "core/dl.h"
#include "core/error.h"

#define E(field) KILN_DL_ENTRY(kiln_curl_api, field, "curl_" #field)
static const kiln_dl_entry entries[] = {
    E(global_init),   E(global_cleanup), E(easy_init),      E(easy_cleanup),
    E(easy_reset),    E(easy_perform),   E(easy_setopt),    E(easy_getinfo),
    E(easy_strerror), E(slist_append),   E(slist_free_all),
};
#undef E

static kiln_curl_api loaded;
static kiln_dl_lazy lazy = KILN_DL_LAZY_INIT;

kiln_result kiln_curl_api_get(const kiln_curl_api **out, kiln_error *err)
{
    bool ok = kiln_dl_lazy_load(&lazy, KILN_CURL_SONAME, entries,
                                sizeof entries / sizeof entries[0], &loaded, sizeof loaded);
    *out = ok ? &loaded : NULL;
    if (ok) return KILN_OK;
    return kiln_error_set(err, KILN_E_INTERNAL,
                          "the remote cache needs libcurl (Debian package libcurl4), which "
                          "could not be loaded: %s",
                          lazy.why);
}
