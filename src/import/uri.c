/* uri.c — the URIs of glTF 2.0 buffers and images (glTF 2.0 §3.10 "URIs"): percent-decoding
 * (RFC 3986 §2.1), data URIs (RFC 2397) with strict base64 (RFC 4648 §4), and relative file
 * references resolved against the glTF's folder and confined to it, symlinks included, since a
 * model downloaded from anywhere must not make kiln read files outside its own tree. */
#include "import/uri.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/path.h"

/* Fills err with `URI "<uri, cut to KILN_URI_QUOTE_MAX>": <message>`. */
static kiln_result uri_error(kiln_error *err, kiln_result code, const char *uri, const char *fmt,
                             ...) KILN_PRINTF(4, 5);
static kiln_result uri_error(kiln_error *err, kiln_result code, const char *uri, const char *fmt,
                             ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t n = strnlen(uri, KILN_URI_QUOTE_MAX + 1);
    return kiln_error_set(err, code, "URI \"%.*s%s\": %s", KILN_URI_QUOTE_MAX, uri,
                          n > KILN_URI_QUOTE_MAX ? "..." : "", msg);
}

static void uri_prefix(kiln_error *err, const char *uri)
{
    size_t n = strnlen(uri, KILN_URI_QUOTE_MAX + 1);
    kiln_error_prefix(err, "URI \"%.*s%s\": ", KILN_URI_QUOTE_MAX, uri,
                      n > KILN_URI_QUOTE_MAX ? "..." : "");
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The byte an escape at p ("%XX") stands for, or -1 when it is not one. */
static int escape_value(const char *p)
{
    if (p[0] != '%') return -1;
    int hi = hex_value(p[1]);
    if (hi < 0) return -1; /* also stops at the NUL, so p[2] is never read past the end */
    int lo = hex_value(p[2]);
    return lo < 0 ? -1 : hi * 16 + lo;
}

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static bool ascii_iequal(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

bool kiln_uri_is_data(const char *uri)
{
    return strnlen(uri, 5) == 5 && ascii_iequal(uri, "data:", 5);
}

kiln_result kiln_uri_percent_decode(const char *in, char *out, size_t out_size, kiln_error *err)
{
    /* Reading runs ahead of (or level with) writing, so out == in is safe. */
    size_t o = 0;
    for (size_t i = 0; in[i]; o++) {
        char c = in[i];
        if (c == '%') {
            int v = escape_value(in + i);
            if (v < 0)
                return uri_error(err, KILN_E_IMPORT_FAILED, in,
                                 "'%%' at byte %zu is not followed by two hex digits", i);
            if (v == 0)
                return uri_error(err, KILN_E_IMPORT_FAILED, in,
                                 "\"%%00\" at byte %zu would put a NUL into the name", i);
            c = (char)v;
            i += 3;
        } else {
            i++;
        }
        if (o + 1 >= out_size) {
            if (out_size) out[0] = '\0';
            return uri_error(err, KILN_E_LIMIT, in, "decoded, it does not fit %zu bytes", out_size);
        }
        out[o] = c;
    }
    if (out_size == 0) return uri_error(err, KILN_E_LIMIT, in, "no room for the decoded URI");
    out[o] = '\0';
    return KILN_OK;
}

/* ---- data URIs ---------------------------------------------------------------------------- */

static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Validates base64 text of length n and gives its decoded size; the rules are in uri.h. */
static kiln_result base64_size(const char *uri, const char *p, size_t n, size_t *out,
                               kiln_error *err)
{
    size_t pad = 0;
    if (n >= 1 && p[n - 1] == '=') pad = 1;
    if (pad && n >= 2 && p[n - 2] == '=') pad = 2;
    size_t body = n - pad;
    size_t offset = (size_t)(p - uri);
    for (size_t i = 0; i < body; i++) {
        if (base64_value(p[i]) >= 0) continue;
        if (p[i] == '=')
            return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                             "base64 padding '=' at byte %zu is not at the end", offset + i);
        return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                         "byte 0x%02X at byte %zu is not in the base64 alphabet",
                         (unsigned)(unsigned char)p[i], offset + i);
    }
    if (pad && n % 4 != 0)
        return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                         "base64 padding does not end a 4-character group (length %zu)", n);
    size_t rem = body % 4;
    if (rem == 1)
        return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                         "base64 ends with a group of one character (length %zu)", body);
    /* The unused low bits of the last character must be zero (RFC 4648 §3.5), so each byte
     * string has exactly one encoding. */
    if (rem > 0) {
        int last = base64_value(p[body - 1]);
        int mask = rem == 2 ? 0x0F : 0x03;
        if (last & mask)
            return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                             "base64 character at byte %zu has non-zero unused bits",
                             offset + body - 1);
    }
    *out = body / 4 * 3 + (rem == 0 ? 0 : rem - 1);
    return KILN_OK;
}

static void base64_decode(const char *p, size_t size, uint8_t *out)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; o < size; i++) {
        acc = (acc << 6) | (uint32_t)base64_value(p[i]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
}

/* Decoded size of percent-encoded data of length n; %00 is an ordinary byte here. */
static kiln_result percent_size(const char *uri, const char *p, size_t n, size_t *out,
                                kiln_error *err)
{
    size_t size = 0;
    for (size_t i = 0; i < n; size++) {
        if (p[i] != '%') {
            i++;
            continue;
        }
        if (escape_value(p + i) < 0)
            return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                             "'%%' at byte %zu is not followed by two hex digits",
                             (size_t)(p - uri) + i);
        i += 3;
    }
    *out = size;
    return KILN_OK;
}

static void percent_decode_bytes(const char *p, size_t size, uint8_t *out)
{
    for (size_t o = 0; o < size; o++) {
        if (*p == '%') {
            out[o] = (uint8_t)escape_value(p);
            p += 3;
        } else {
            out[o] = (uint8_t)*p++;
        }
    }
}

kiln_result kiln_uri_decode_data(const char *uri, size_t max_size, const kiln_allocator *a,
                                 uint8_t **data, size_t *size, char *media_type,
                                 size_t media_type_size, kiln_error *err)
{
    *data = NULL;
    *size = 0;
    if (!kiln_uri_is_data(uri)) return uri_error(err, KILN_E_USAGE, uri, "not a data URI");
    const char *header = uri + 5;
    const char *comma = strchr(header, ',');
    if (!comma)
        return uri_error(err, KILN_E_IMPORT_FAILED, uri,
                         "data URI without the ',' before its data");
    size_t header_len = (size_t)(comma - header);

    /* ";base64" is the last parameter when present (RFC 2397 §3); the media type is what comes
     * before the first ';'. */
    bool base64 = header_len >= 7 && ascii_iequal(comma - 7, ";base64", 7);
    size_t type_len = strcspn(header, ";,");
    const char *type = type_len ? header : "text/plain";
    if (!type_len) type_len = strlen(type);
    if (media_type_size) {
        if (type_len >= media_type_size)
            return uri_error(err, KILN_E_LIMIT, uri, "media type longer than %zu bytes",
                             media_type_size - 1);
        for (size_t i = 0; i < type_len; i++) media_type[i] = ascii_lower(type[i]);
        media_type[type_len] = '\0';
    }

    const char *payload = comma + 1;
    size_t n = strlen(payload), decoded = 0;
    kiln_result r = base64 ? base64_size(uri, payload, n, &decoded, err)
                           : percent_size(uri, payload, n, &decoded, err);
    if (r != KILN_OK) return r;
    if (decoded > max_size)
        return uri_error(err, KILN_E_LIMIT, uri, "data of %zu bytes is over the limit of %zu",
                         decoded, max_size);
    if (decoded == 0) return KILN_OK;
    uint8_t *out = kiln_alloc(a, decoded);
    if (!out)
        return uri_error(err, KILN_E_OUT_OF_MEMORY, uri, "cannot allocate %zu bytes", decoded);
    if (base64) base64_decode(payload, decoded, out);
    else percent_decode_bytes(payload, decoded, out);
    *data = out;
    *size = decoded;
    return KILN_OK;
}

/* ---- file references ---------------------------------------------------------------------- */

static bool ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Length of the scheme (RFC 3986 §3.1) that starts uri, 0 when it has none. */
static size_t scheme_length(const char *uri)
{
    if (!ascii_alpha(uri[0])) return 0;
    size_t i = 1;
    while (ascii_alpha(uri[i]) || (uri[i] >= '0' && uri[i] <= '9') || uri[i] == '+' ||
           uri[i] == '-' || uri[i] == '.')
        i++;
    return uri[i] == ':' ? i : 0;
}

kiln_result kiln_uri_resolve_file(const char *base_dir, const char *uri, char *out, size_t out_size,
                                  kiln_error *err)
{
    const kiln_result refused = KILN_E_OUTPUT_REFUSED;
    if (out_size) out[0] = '\0';
    if (!uri[0]) return uri_error(err, refused, uri, "an empty URI names no file");
    size_t scheme = scheme_length(uri);
    if (scheme)
        return uri_error(err, refused, uri,
                         "has a scheme (\"%.*s:\"); only relative file references and data URIs "
                         "are read",
                         (int)(scheme < 16 ? scheme : 16), uri);
    /* Before decoding: a raw '?' or '#' starts a query or fragment, "%3F" is part of a name. */
    const char *qf = strpbrk(uri, "?#");
    if (qf)
        return uri_error(err, refused, uri, "has a %s ('%c' at byte %zu), which cannot name a file",
                         *qf == '?' ? "query" : "fragment", *qf, (size_t)(qf - uri));
    if (strchr(uri, '\\'))
        return uri_error(err, refused, uri, "has a backslash; URIs separate folders with '/'");

    char decoded[KILN_PATH_MAX];
    kiln_result r = kiln_uri_percent_decode(uri, decoded, sizeof decoded, err);
    if (r != KILN_OK) return r;
    if (!decoded[0]) return uri_error(err, refused, uri, "decoded, it names no file");
    if (decoded[0] == '/')
        return uri_error(err, refused, uri,
                         "is an absolute path; only paths relative to the glTF "
                         "are read");
    if (strchr(decoded, '\\'))
        return uri_error(err, refused, uri,
                         "decodes to a backslash; URIs separate folders "
                         "with '/'");
    if (decoded[strlen(decoded) - 1] == '/')
        return uri_error(err, refused, uri, "names a folder, not a file");

    char base_abs[KILN_PATH_MAX], base_real[KILN_PATH_MAX], joined[KILN_PATH_MAX];
    char real[KILN_PATH_MAX];
    r = kiln_path_absolute(base_dir, base_abs, sizeof base_abs, err);
    if (r == KILN_OK) r = kiln_path_resolve(base_abs, base_real, sizeof base_real, err);
    /* ".." is taken from the real folder, as the file system would. */
    if (r == KILN_OK) r = kiln_path_join(base_real, decoded, joined, sizeof joined, err);
    if (r != KILN_OK) {
        uri_prefix(err, uri);
        return r;
    }
    if (!kiln_path_is_within(base_real, joined))
        return uri_error(err, refused, uri, "leads outside the glTF's folder %s (to %s)", base_real,
                         joined);
    r = kiln_path_resolve(joined, real, sizeof real, err);
    if (r != KILN_OK) {
        uri_prefix(err, uri);
        return r;
    }
    if (!kiln_path_is_within(base_real, real))
        return uri_error(err, refused, uri,
                         "resolves through a symlink to %s, outside the glTF's folder %s", real,
                         base_real);
    if (strcmp(real, base_real) == 0)
        return uri_error(err, refused, uri, "names the glTF's folder itself, not a file");
    size_t n = strlen(real);
    if (n >= out_size)
        return uri_error(err, KILN_E_LIMIT, uri, "the resolved path (%zu bytes) does not fit %zu",
                         n, out_size);
    memcpy(out, real, n + 1);
    return KILN_OK;
}
