/* curl_dl.h — libcurl's functions as an API table, opened when the remote cache first needs it.
 *
 * Linking libcurl made every `kiln` process load 30 more shared libraries (OpenSSL, GnuTLS,
 * Kerberos, LDAP, ...) at start-up — 5 ms or more per command, more than a small model's whole
 * cook — although only an import with an HTTP remote cache ever calls it. The remote transport
 * (remote_http.c) calls libcurl through this table (core/dl.h's pattern), never by libcurl's own
 * names, which kiln does not define. */
#ifndef KILN_PIPELINE_CURL_DL_H
#define KILN_PIPELINE_CURL_DL_H

#define CURL_DISABLE_TYPECHECK /* curl.h would otherwise turn setopt into a checking macro */
#include <curl/curl.h>

#include "kiln/kiln_format.h"

#define KILN_CURL_SONAME "libcurl.so.4"

typedef struct kiln_curl_api {
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_global_cleanup) global_cleanup;
    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_reset) easy_reset;
    __typeof__(&curl_easy_perform) easy_perform;
    __typeof__(&curl_easy_setopt) easy_setopt; /* variadic: pass the option's own type */
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;
} kiln_curl_api;

/* libcurl's table, loaded on the first call. KILN_E_INTERNAL when libcurl.so.4 or one of its
 * functions is missing (the remote is then disabled with a warning, like a transport error). */
kiln_result kiln_curl_api_get(const kiln_curl_api **out, kiln_error *err);

#endif
