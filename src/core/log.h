/* log.h — leveled log messages sent to a caller-provided sink. No global logger: whoever wants
 * messages passes a kiln_logger down. Part of libkiln_rt (libc only). */
#ifndef KILN_CORE_LOG_H
#define KILN_CORE_LOG_H

#include <stdarg.h>
#include <stdbool.h>

#include "core/error.h" /* KILN_PRINTF */

/* Lower is more severe; a logger passes messages at or above its threshold's severity. */
typedef enum kiln_log_level {
    KILN_LOG_ERROR = 0,
    KILN_LOG_WARNING = 1,
    KILN_LOG_INFO = 2,
    KILN_LOG_DEBUG = 3,
} kiln_log_level;

/* Receives one whole message (no trailing newline; valid only during the call). Called from
 * whatever thread logged: a sink shared by threads must be thread-safe itself. */
typedef void (*kiln_log_sink)(void *user, kiln_log_level level, const char *message);

/* `= {0}` is a silent logger (no sink). level is the threshold: with KILN_LOG_INFO, error,
 * warning and info messages pass and debug ones are dropped. */
typedef struct kiln_logger {
    kiln_log_level level;
    kiln_log_sink sink;
    void *user;
} kiln_logger;

/* Longest message passed to a sink, in bytes without the terminator; longer ones are cut and
 * end in "...". */
#define KILN_LOG_MESSAGE_MAX 1023

/* True when a message at lvl would reach a sink (to skip costly work building it). */
bool kiln_log_enabled(const kiln_logger *l, kiln_log_level lvl);

/* Formats printf-style into a stack buffer and hands it to the sink. l NULL or without a sink:
 * nothing happens. Trailing newlines are removed. Thread-safe if the sink is. */
void kiln_log(const kiln_logger *l, kiln_log_level lvl, const char *fmt, ...) KILN_PRINTF(3, 4);
void kiln_logv(const kiln_logger *l, kiln_log_level lvl, const char *fmt, va_list ap);

/* "error", "warning", "info", "debug" ("unknown" otherwise). */
const char *kiln_log_level_name(kiln_log_level lvl);

/* The standard sink: user is a FILE *; writes "kiln: warning: <message>\n" with a single fprintf,
 * which stdio locks, so lines from several threads never interleave. */
void kiln_log_sink_file(void *user, kiln_log_level level, const char *message);

#endif
