/* log.c — formatting log messages and the standard FILE * sink (see log.h, docs/core.md
 * "Logging"). */
#include "core/log.h"

#include <stdio.h>
#include <string.h>

static const char *const level_names[] = {"error", "warning", "info", "debug"};

const char *kiln_log_level_name(kiln_log_level lvl)
{
    if ((unsigned)lvl >= sizeof level_names / sizeof level_names[0]) return "unknown";
    return level_names[lvl];
}

bool kiln_log_enabled(const kiln_logger *l, kiln_log_level lvl)
{
    return l && l->sink && lvl <= l->level;
}

void kiln_logv(const kiln_logger *l, kiln_log_level lvl, const char *fmt, va_list ap)
{
    if (!kiln_log_enabled(l, lvl)) return;
    char buf[KILN_LOG_MESSAGE_MAX + 1];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n < 0) {
        /* An encoding error: say so rather than drop a message someone thought worth logging. */
        snprintf(buf, sizeof buf, "(unformattable log message: %s)", fmt);
        n = (int)strlen(buf);
    }
    size_t len = (size_t)n;
    if (len >= sizeof buf) {
        len = sizeof buf - 1;
        memcpy(buf + len - 3, "...", 3);
    }
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = '\0';
    l->sink(l->user, lvl, buf);
}

void kiln_log(const kiln_logger *l, kiln_log_level lvl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_logv(l, lvl, fmt, ap);
    va_end(ap);
}

void kiln_log_sink_file(void *user, kiln_log_level level, const char *message)
{
    FILE *f = user;
    if (!f) return;
    fprintf(f, "kiln: %s: %s\n", kiln_log_level_name(level), message);
}
