/* kv_error.c — see kv_error.h. */
#include "kv_error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

kiln_result kv_error(kiln_error *err, kiln_result code, const char *fmt, ...)
{
    if (!err) return code;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = UINT64_MAX;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}
