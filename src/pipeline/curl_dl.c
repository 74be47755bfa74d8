/* curl_dl.c — libcurl loaded when the remote cache first needs it, not linked.
 *
 * Linking libcurl made every `kiln` process load 30 more shared libraries (OpenSSL, GnuTLS,
 * Kerberos, LDAP, ...) at start-up — 5 ms or more per command, more than a small model's whole
 * cook — although only an import with an HTTP remote cache ever calls it. So the remote
 * transport (remote_http.c) calls the libcurl functions below, which have libcurl's own names
 * and signatures, and each forwards to the function of libcurl.so.4 opened with dlopen on first
 * use. The handle and the function table are process-wide, as libcurl's own global state is;
 * they are written once, under pthread_once, and never change after.
 *
 * When libcurl cannot be loaded, curl_global_init fails (CURLE_FAILED_INIT) and so does
 * curl_easy_init (NULL): the remote is then disabled with a warning like any transport error.
 * These definitions are hidden (libkiln builds with hidden visibility and curl.h's CURL_EXTERN
 * is empty on Linux), so libcurl's calls to its own functions never reach them. */
#define CURL_DISABLE_TYPECHECK /* curl.h would otherwise turn setopt into a checking macro */
#include <curl/curl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/dl.h"

typedef struct curl_table {
    CURLcode (*global_init)(long);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    bool ok;
} curl_table;

static curl_table table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void load_table(void)
{
    char why[200]; /* the remote transport reports only that libcurl is missing */
    void *lib = kiln_dl_open("libcurl.so.4", why, sizeof why);
    if (!lib) return;
    bool ok = true;
#define SYM(field, name) kiln_dl_sym(lib, name, &table.field, sizeof table.field, why, sizeof why)
    ok = ok && SYM(global_init, "curl_global_init");
    ok = ok && SYM(global_cleanup, "curl_global_cleanup");
    ok = ok && SYM(easy_init, "curl_easy_init");
    ok = ok && SYM(easy_cleanup, "curl_easy_cleanup");
    ok = ok && SYM(easy_reset, "curl_easy_reset");
    ok = ok && SYM(easy_perform, "curl_easy_perform");
    ok = ok && SYM(easy_setopt, "curl_easy_setopt");
    ok = ok && SYM(easy_getinfo, "curl_easy_getinfo");
    ok = ok && SYM(easy_strerror, "curl_easy_strerror");
    ok = ok && SYM(slist_append, "curl_slist_append");
    ok = ok && SYM(slist_free_all, "curl_slist_free_all");
#undef SYM
    table.ok = ok; /* the library stays open for the process's life, as a linked one would */
}

static const curl_table *curl(void)
{
    pthread_once(&table_once, load_table);
    return table.ok ? &table : NULL;
}

CURLcode curl_global_init(long flags)
{
    const curl_table *t = curl();
    return t ? t->global_init(flags) : CURLE_FAILED_INIT;
}

void curl_global_cleanup(void)
{
    const curl_table *t = curl();
    if (t) t->global_cleanup();
}

CURL *curl_easy_init(void)
{
    const curl_table *t = curl();
    return t ? t->easy_init() : NULL;
}

/* The functions below take handles only curl_easy_init made, so the table is loaded. */
void curl_easy_cleanup(CURL *c)
{
    if (c) table.easy_cleanup(c);
}

void curl_easy_reset(CURL *c)
{
    table.easy_reset(c);
}

CURLcode curl_easy_perform(CURL *c)
{
    return table.easy_perform(c);
}

/* The one variadic argument has the type the option's number range says (curl.h, CURLOPTTYPE_*):
 * long, object pointer, function pointer, curl_off_t, or a blob pointer. */
CURLcode curl_easy_setopt(CURL *c, CURLoption option, ...)
{
    va_list ap;
    va_start(ap, option);
    CURLcode r;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        r = table.easy_setopt(c, option, va_arg(ap, long));
    } else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
        r = table.easy_setopt(c, option, va_arg(ap, void *));
    } else if (option < CURLOPTTYPE_OFF_T) {
        r = table.easy_setopt(c, option, va_arg(ap, void (*)(void)));
    } else if (option < CURLOPTTYPE_BLOB) {
        r = table.easy_setopt(c, option, va_arg(ap, curl_off_t));
    } else {
        r = table.easy_setopt(c, option, va_arg(ap, void *));
    }
    va_end(ap);
    return r;
}

/* Every CURLINFO takes a pointer to where the value goes. */
CURLcode curl_easy_getinfo(CURL *c, CURLINFO info, ...)
{
    va_list ap;
    va_start(ap, info);
    void *out = va_arg(ap, void *);
    va_end(ap);
    return table.easy_getinfo(c, info, out);
}

const char *curl_easy_strerror(CURLcode code)
{
    const curl_table *t = curl();
    return t ? t->easy_strerror(code) : "libcurl is not available (libcurl.so.4 could not be loaded)";
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *s)
{
    const curl_table *t = curl();
    return t ? t->slist_append(list, s) : NULL;
}

void curl_slist_free_all(struct curl_slist *list)
{
    const curl_table *t = curl();
    if (t && list) t->slist_free_all(list);
}
