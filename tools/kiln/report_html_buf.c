/* report_html_buf.c — what the report_html files share: the page as a growing string (sticky
 * failure: once out of memory every append is dropped and the page is not written), HTML and URL
 * escaping, whole-file reads and the error record. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_html.h"

kiln_result rh_error(kiln_error *err, kiln_result code, const char *fmt, ...)
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

kiln_result rh_read_file(const char *path, uint8_t **data, size_t *size, kiln_error *err)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return rh_error(err, KILN_E_ASSET_IO, "cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size < 0 || st.st_size > INT32_MAX) {
        fclose(f);
        return rh_error(err, KILN_E_LIMIT, "%s: not a file of at most 2 GiB", path);
    }
    size_t n = (size_t)st.st_size;
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        fclose(f);
        return rh_error(err, KILN_E_OUT_OF_MEMORY, "out of memory reading %s", path);
    }
    size_t got = fread(p, 1, n, f);
    fclose(f);
    if (got != n) {
        free(p);
        return rh_error(err, KILN_E_ASSET_IO, "cannot read %s", path);
    }
    *data = p;
    *size = n;
    return KILN_OK;
}

static void buf_append(rh_buf *b, const char *s, size_t n)
{
    if (b->failed) return;
    if (b->cap - b->size <= n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->size <= n) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->size, s, n);
    b->size += n;
    b->data[b->size] = '\0';
}

void rh_puts(rh_buf *b, const char *s) { buf_append(b, s, strlen(s)); }

void rh_printf(rh_buf *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        buf_append(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_append(b, big, (size_t)n);
    free(big);
}

void rh_escape(rh_buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            rh_puts(b, "&amp;");
            break;
        case '<':
            rh_puts(b, "&lt;");
            break;
        case '>':
            rh_puts(b, "&gt;");
            break;
        case '"':
            rh_puts(b, "&quot;");
            break;
        case '\'':
            rh_puts(b, "&#39;");
            break;
        default:
            buf_append(b, s, 1);
        }
    }
}

void rh_url(rh_buf *b, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            strchr("-._~/", ch))
            buf_append(b, s, 1);
        else rh_printf(b, "%%%02X", ch);
    }
}

void rh_buf_free(rh_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}
