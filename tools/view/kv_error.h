/* kv_error.h — filling a caller's kiln_error (kv links the public API only: it cannot use
 * libkiln's internal error helpers). */
#ifndef KV_ERROR_H
#define KV_ERROR_H

#include "kiln/kiln_format.h"

/* Sets code and a printf-formatted message (truncated to fit); err may be NULL. Returns code. */
kiln_result kv_error(kiln_error *err, kiln_result code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
