/* error.h — filling the caller-owned kiln_error record, and the KILN_NEVER/ALWAYS checks. */
#ifndef KILN_CORE_ERROR_H
#define KILN_CORE_ERROR_H

#include <assert.h>
#include <stdarg.h>

#include "kiln/kiln_format.h"

#if defined(__GNUC__)
#define KILN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define KILN_PRINTF(f, a)
#endif

/* "Cannot happen" defences: assert in debug builds, still checked in release (SQLite). */
#ifdef NDEBUG
#define KILN_NEVER(x)  (x)
#define KILN_ALWAYS(x) (x)
#else
#define KILN_NEVER(x)  ((x) ? (assert(0 && #x), 1) : 0)
#define KILN_ALWAYS(x) ((x) ? 1 : (assert(0 && #x), 0))
#endif

/* Sets code and message (printf-style, truncated to fit); clears path, offset and pointer.
 * err may be NULL. Returns code, so `return kiln_error_set(err, ...);` reads well. */
kiln_result kiln_error_set(kiln_error *err, kiln_result code, const char *fmt, ...)
    KILN_PRINTF(3, 4);
kiln_result kiln_error_setv(kiln_error *err, kiln_result code, const char *fmt, va_list ap);

/* Reports input bytes that break their format: KILN_E_FORMAT_INVALID, the message
 * "<format>: <fmt...>" (just <fmt...> when format is NULL), and the byte offset of the fault
 * (UINT64_MAX when unknown). What every reader of a kiln format returns for damaged bytes.
 * err may be NULL. Returns KILN_E_FORMAT_INVALID. */
kiln_result kiln_error_bad_bytes(kiln_error *err, const char *format, uint64_t offset,
                                 const char *fmt, ...) KILN_PRINTF(4, 5);

/* kiln_error_set with the byte offset of the fault in the input (any code: a reader's
 * E_FORMAT_INVALID, E_IMPORT_UNSUPPORTED or E_LIMIT at the field that says so). Returns code. */
kiln_result kiln_error_set_at(kiln_error *err, kiln_result code, uint64_t offset, const char *fmt,
                              ...) KILN_PRINTF(4, 5);

/* Adds where the error happened to a record that kiln_error_set filled. NULL-safe. */
void kiln_error_at_path(kiln_error *err, const char *path);
void kiln_error_at_offset(kiln_error *err, uint64_t offset);
/* Sets err->json_pointer; one longer than the field is cut before a UTF-8 continuation byte. */
void kiln_error_at_pointer(kiln_error *err, const char *json_pointer);

/* Prefixes the message with context: "kodim01.png: " + old message. NULL-safe. */
void kiln_error_prefix(kiln_error *err, const char *fmt, ...) KILN_PRINTF(2, 3);

/* Resets the record to KILN_OK with empty fields. NULL-safe. */
void kiln_error_clear(kiln_error *err);

#endif
