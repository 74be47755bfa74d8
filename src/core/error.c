/* error.c — the caller-owned error record and the stable names of result codes. */
#include "core/error.h"

#include <stdio.h>
#include <string.h>

static const char *const result_names[] = {
    "OK",         "E_IMPORT_UNSUPPORTED", "E_IMPORT_SETTINGS", "E_IMPORT_FAILED",
    "E_ASSET_IO", "E_OUTPUT_REFUSED",     "E_FORMAT_VERSION",  "E_OUT_OF_MEMORY",
    "E_LIMIT",    "E_CACHE_CORRUPT",      "E_FORMAT_INVALID",  "E_USAGE",
    "E_INTERNAL", "E_NOT_IMPORTED",
};

KILN_API const char *kiln_result_name(kiln_result r)
{
    if ((unsigned)r >= sizeof result_names / sizeof result_names[0]) return "E_UNKNOWN";
    return result_names[r];
}

KILN_API uint32_t kiln_version(void) { return KILN_VERSION_NUMBER; }

void kiln_error_clear(kiln_error *err)
{
    if (!err) return;
    err->code = KILN_OK;
    err->message[0] = '\0';
    err->path[0] = '\0';
    err->offset = UINT64_MAX;
    err->json_pointer[0] = '\0';
}

kiln_result kiln_error_setv(kiln_error *err, kiln_result code, const char *fmt, va_list ap)
{
    if (!err) return code;
    kiln_error_clear(err);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

kiln_result kiln_error_set(kiln_error *err, kiln_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

kiln_result kiln_error_set_at(kiln_error *err, kiln_result code, uint64_t offset, const char *fmt,
                              ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_error_setv(err, code, fmt, ap);
    va_end(ap);
    kiln_error_at_offset(err, offset);
    return code;
}

kiln_result kiln_error_bad_bytes(kiln_error *err, const char *format, uint64_t offset,
                                 const char *fmt, ...)
{
    if (!err) return KILN_E_FORMAT_INVALID;
    kiln_error_clear(err);
    err->code = KILN_E_FORMAT_INVALID;
    err->offset = offset;
    size_t n = 0;
    if (format) {
        int k = snprintf(err->message, sizeof err->message, "%s: ", format);
        n = k < 0 ? 0 : (size_t)k < sizeof err->message ? (size_t)k : sizeof err->message - 1;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + n, sizeof err->message - n, fmt, ap);
    va_end(ap);
    return KILN_E_FORMAT_INVALID;
}

static void copy_field(char *dst, size_t dst_size, const char *src)
{
    size_t n = strlen(src);
    if (n >= dst_size) n = dst_size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void kiln_error_at_path(kiln_error *err, const char *path)
{
    if (err && path) copy_field(err->path, sizeof err->path, path);
}

void kiln_error_at_offset(kiln_error *err, uint64_t offset)
{
    if (err) err->offset = offset;
}

void kiln_error_at_pointer(kiln_error *err, const char *json_pointer)
{
    if (!err || !json_pointer) return;
    /* Keys are UTF-8: an over-long pointer is cut before a continuation byte, never inside a
     * character. */
    size_t n = strlen(json_pointer), cap = sizeof err->json_pointer;
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)json_pointer[n] & 0xC0) == 0x80) n--;
    }
    memcpy(err->json_pointer, json_pointer, n);
    err->json_pointer[n] = '\0';
}

void kiln_error_prefix(kiln_error *err, const char *fmt, ...)
{
    if (!err) return;
    char prefix[256], old[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->message, sizeof old);
    size_t pn = strlen(prefix), on = strlen(old), cap = sizeof err->message - 1;
    if (pn > cap) pn = cap;
    if (on > cap - pn) on = cap - pn; /* cut the end of the old message, keep the context */
    memcpy(err->message, prefix, pn);
    memcpy(err->message + pn, old, on);
    err->message[pn + on] = '\0';
}

KILN_API kiln_result kiln_error_printf(kiln_error *err, kiln_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_result r = kiln_error_setv(err, code, fmt, ap);
    va_end(ap);
    return r;
}
