/* json_fast.c — a quick parser for the common subset of JSON, building the same jansson tree
 * that json_loadb would (see json_fast.h).
 *
 * Why: jansson reads its input one character at a time through a stream callback, about 130
 * instructions per byte; for a small model (Fox, CesiumMan) parsing the .gltf took a quarter of
 * the whole cook. This parser walks the bytes directly and calls jansson's constructors.
 *
 * It is deliberately partial: anything it is not sure to treat exactly as jansson does — \u
 * escapes, bytes above 0x7F in strings, integers of more than 18 digits, reals that overflow,
 * duplicate keys, nesting past KILN_JSON_FAST_DEPTH, a locale whose decimal point is not '.',
 * any syntax error — makes it give up (NULL), and the caller parses with jansson instead, which
 * also produces the error message with its line and column. So it never accepts a text jansson
 * rejects, and where both accept, the trees are equal (tests/core compares them). */
#include "core/json_fast.h"

#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define KILN_JSON_FAST_DEPTH 256

typedef struct reader {
    const char *p, *end;
    char *scratch; /* one string at a time, NUL-terminated */
    size_t scratch_size;
} reader;

static void skip_space(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
        r->p++;
}

/* A string after its opening quote into r->scratch; its length in *len. false: give up. */
static bool read_string(reader *r, size_t *len)
{
    size_t n = 0;
    for (;;) {
        if (r->p >= r->end) return false;
        unsigned char c = (unsigned char)*r->p++;
        if (c == '"') break;
        if (c < 0x20 || c >= 0x80) return false; /* control (invalid) or UTF-8: jansson checks */
        if (c == '\\') {
            if (r->p >= r->end) return false;
            switch (*r->p++) {
            case '"':
                c = '"';
                break;
            case '\\':
                c = '\\';
                break;
            case '/':
                c = '/';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'n':
                c = '\n';
                break;
            case 'r':
                c = '\r';
                break;
            case 't':
                c = '\t';
                break;
            default:
                return false; /* \u and invalid escapes */
            }
        }
        if (n + 1 >= r->scratch_size) {
            size_t grown = r->scratch_size ? r->scratch_size * 2 : 256;
            char *s = realloc(r->scratch, grown);
            if (!s) return false;
            r->scratch = s;
            r->scratch_size = grown;
        }
        r->scratch[n++] = (char)c;
    }
    if (!r->scratch) { /* the empty string before any scratch was needed */
        r->scratch = malloc(256);
        if (!r->scratch) return false;
        r->scratch_size = 256;
    }
    r->scratch[n] = '\0';
    *len = n;
    return true;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A number as RFC 8259 writes it; integers of up to 18 digits become json_integer (they fit in
 * jansson's json_int_t), reals go through strtod as in jansson. */
static json_t *read_number(reader *r)
{
    const char *start = r->p, *q = r->p;
    if (q < r->end && *q == '-') q++;
    if (q >= r->end || !is_digit(*q)) return NULL;
    if (*q == '0' && q + 1 < r->end && is_digit(q[1])) return NULL; /* leading zero */
    const char *digits = q;
    while (q < r->end && is_digit(*q)) q++;
    bool real = false;
    if (q < r->end && *q == '.') {
        real = true;
        q++;
        if (q >= r->end || !is_digit(*q)) return NULL;
        while (q < r->end && is_digit(*q)) q++;
    }
    if (q < r->end && (*q == 'e' || *q == 'E')) {
        real = true;
        q++;
        if (q < r->end && (*q == '+' || *q == '-')) q++;
        if (q >= r->end || !is_digit(*q)) return NULL;
        while (q < r->end && is_digit(*q)) q++;
    }
    size_t n = (size_t)(q - start);
    char buf[64];
    if (n >= sizeof buf) return NULL;
    memcpy(buf, start, n);
    buf[n] = '\0';
    r->p = q;
    if (!real) {
        if (q - digits > 18) return NULL;
        return json_integer(strtoll(buf, NULL, 10));
    }
    double d = strtod(buf, NULL);
    if (!isfinite(d)) return NULL; /* jansson: "real number overflow" */
    return json_real(d);
}

static json_t *read_value(reader *r, int depth);

static json_t *read_array(reader *r, int depth)
{
    json_t *a = json_array();
    if (!a) return NULL;
    skip_space(r);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        return a;
    }
    for (;;) {
        json_t *v = read_value(r, depth + 1);
        if (!v || json_array_append_new(a, v) != 0) break;
        skip_space(r);
        if (r->p >= r->end) break;
        char c = *r->p++;
        if (c == ']') return a;
        if (c != ',') break;
    }
    json_decref(a);
    return NULL;
}

static json_t *read_object(reader *r, int depth)
{
    json_t *o = json_object();
    if (!o) return NULL;
    skip_space(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
        return o;
    }
    for (;;) {
        skip_space(r);
        size_t len;
        if (r->p >= r->end || *r->p++ != '"' || !read_string(r, &len)) break;
        /* Strings here hold no NUL (\u0000 gives up), so the key is a C string. */
        if (json_object_get(o, r->scratch)) break; /* duplicate: jansson reports it */
        char key_small[64];
        char *key = len < sizeof key_small ? key_small : malloc(len + 1);
        if (!key) break;
        memcpy(key, r->scratch, len + 1);
        skip_space(r);
        bool ok = r->p < r->end && *r->p++ == ':';
        json_t *v = ok ? read_value(r, depth + 1) : NULL;
        ok = v && json_object_set_new_nocheck(o, key, v) == 0;
        if (key != key_small) free(key);
        if (!ok) break;
        skip_space(r);
        if (r->p >= r->end) break;
        char c = *r->p++;
        if (c == '}') return o;
        if (c != ',') break;
    }
    json_decref(o);
    return NULL;
}

static bool literal(reader *r, const char *word, size_t n)
{
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return false;
    r->p += n;
    return true;
}

static json_t *read_value(reader *r, int depth)
{
    if (depth > KILN_JSON_FAST_DEPTH) return NULL;
    skip_space(r);
    if (r->p >= r->end) return NULL;
    switch (*r->p) {
    case '{':
        r->p++;
        return read_object(r, depth);
    case '[':
        r->p++;
        return read_array(r, depth);
    case '"': {
        r->p++;
        size_t len;
        if (!read_string(r, &len)) return NULL;
        return json_stringn_nocheck(r->scratch, len); /* ASCII only: valid UTF-8 */
    }
    case 't':
        return literal(r, "true", 4) ? json_true() : NULL;
    case 'f':
        return literal(r, "false", 5) ? json_false() : NULL;
    case 'n':
        return literal(r, "null", 4) ? json_null() : NULL;
    default:
        return read_number(r);
    }
}

json_t *kiln_json_fast_parse(const char *text, size_t size)
{
    if (!text) return NULL;
    /* strtod reads the locale's decimal point; jansson copes with any, this parser only with '.' */
    const struct lconv *lc = localeconv();
    if (!lc || !lc->decimal_point || strcmp(lc->decimal_point, ".") != 0) return NULL;
    reader r = {text, text + size, NULL, 0};
    skip_space(&r);
    json_t *v = NULL;
    if (r.p < r.end && (*r.p == '{' || *r.p == '['))
        v = read_value(&r, 0); /* as jansson: no scalars */
    if (v) {
        skip_space(&r);
        if (r.p != r.end) { /* anything after the value, a NUL included */
            json_decref(v);
            v = NULL;
        }
    }
    free(r.scratch);
    return v;
}
