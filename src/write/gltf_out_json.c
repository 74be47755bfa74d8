/* gltf_out_json.c — the streaming JSON text writer of gltf_out_json.h (RFC 8259). */
#include "write/gltf_out_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void kiln_json_out_init(kiln_json_out *j, kiln_buf *buf)
{
    memset(j, 0, sizeof *j);
    j->buf = buf;
}

static void put(kiln_json_out *j, const char *s) { kiln_buf_append_str(j->buf, s); }

static void put_string(kiln_json_out *j, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    kiln_buf_append(j->buf, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            kiln_buf_append(j->buf, e, 2);
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            kiln_buf_append(j->buf, e, 6);
        } else {
            kiln_buf_append(j->buf, (const char *)p, 1); /* UTF-8 passes through */
        }
    }
    kiln_buf_append(j->buf, "\"", 1);
}

/* The comma and the key before a value. */
static void before(kiln_json_out *j, const char *key)
{
    if (j->depth > 0) {
        if (j->has_items[j->depth - 1]) put(j, ",");
        j->has_items[j->depth - 1] = true;
    }
    if (key) {
        put_string(j, key);
        put(j, ":");
    }
}

static void open_container(kiln_json_out *j, const char *key, bool array)
{
    before(j, key);
    put(j, array ? "[" : "{");
    if (j->depth >= KILN_JSON_OUT_MAX_DEPTH) {
        j->failed = true;
        return;
    }
    j->is_array[j->depth] = array;
    j->has_items[j->depth++] = false;
}

void kiln_json_out_object(kiln_json_out *j, const char *key) { open_container(j, key, false); }

void kiln_json_out_array(kiln_json_out *j, const char *key) { open_container(j, key, true); }

void kiln_json_out_end(kiln_json_out *j)
{
    if (j->depth == 0) {
        j->failed = true;
        return;
    }
    j->depth--;
    put(j, j->is_array[j->depth] ? "]" : "}");
}

void kiln_json_out_string(kiln_json_out *j, const char *key, const char *value)
{
    before(j, key);
    put_string(j, value ? value : "");
}

void kiln_json_out_int(kiln_json_out *j, const char *key, int64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", (long long)value);
    before(j, key);
    put(j, text);
}

static void put_float(kiln_json_out *j, float value)
{
    char text[48];
    if (!isfinite(value)) value = 0.0f;
    if (value == 0.0f) value = 0.0f; /* no "-0" */
    snprintf(text, sizeof text, "%.9g", (double)value);
    put(j, text);
}

void kiln_json_out_float(kiln_json_out *j, const char *key, float value)
{
    before(j, key);
    put_float(j, value);
}

void kiln_json_out_bool(kiln_json_out *j, const char *key, bool value)
{
    before(j, key);
    put(j, value ? "true" : "false");
}

void kiln_json_out_floats(kiln_json_out *j, const char *key, const float *values, uint32_t count)
{
    kiln_json_out_array(j, key);
    for (uint32_t i = 0; i < count; i++) kiln_json_out_float(j, NULL, values[i]);
    kiln_json_out_end(j);
}

bool kiln_json_out_failed(const kiln_json_out *j)
{
    return j->failed || j->depth != 0 || j->buf->failed;
}

void kiln_json_out_init_elements(kiln_json_out *j, kiln_buf *buf)
{
    kiln_json_out_init(j, buf);
    j->is_array[0] = true;
    j->depth = 1;
}

void kiln_json_out_splice(kiln_json_out *j, const kiln_buf *fragment)
{
    if (fragment->failed) j->failed = true;
    if (fragment->size == 0) return;
    before(j, NULL);
    kiln_buf_append(j->buf, fragment->data, fragment->size);
}

/* ---- checking a JSON value given as text (kiln_json_out_raw) ----------------------------------
 */

typedef struct json_scan {
    const char *p, *end;
    uint32_t depth;
} json_scan;

static void skip_space(json_scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static bool scan_literal(json_scan *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0) return false;
    s->p += n;
    return true;
}

static bool scan_string(json_scan *s)
{
    if (s->p >= s->end || *s->p != '"') return false;
    for (s->p++; s->p < s->end; s->p++) {
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            return true;
        }
        if (c < 0x20) return false;
        if (c != '\\') continue;
        if (++s->p >= s->end) return false;
        if (*s->p == 'u') {
            for (int i = 0; i < 4; i++) {
                if (++s->p >= s->end) return false;
                char h = *s->p;
                if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                    return false;
            }
        } else if (!strchr("\"\\/bfnrt", *s->p) || *s->p == 0) {
            return false;
        }
    }
    return false;
}

static bool scan_digits(json_scan *s)
{
    const char *start = s->p;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    return s->p > start;
}

static bool scan_number(json_scan *s)
{
    if (s->p < s->end && *s->p == '-') s->p++;
    if (s->p < s->end && *s->p == '0') {
        s->p++;
    } else if (!scan_digits(s)) {
        return false;
    }
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (!scan_digits(s)) return false;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
        if (!scan_digits(s)) return false;
    }
    return true;
}

static bool scan_value(json_scan *s)
{
    skip_space(s);
    if (s->p >= s->end) return false;
    char c = *s->p;
    if (c == '"') return scan_string(s);
    if (c == 't') return scan_literal(s, "true");
    if (c == 'f') return scan_literal(s, "false");
    if (c == 'n') return scan_literal(s, "null");
    if (c != '{' && c != '[') return scan_number(s);
    if (++s->depth > KILN_JSON_OUT_MAX_DEPTH) return false;
    char close = c == '{' ? '}' : ']';
    s->p++;
    skip_space(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        s->depth--;
        return true;
    }
    for (;;) {
        if (c == '{') {
            skip_space(s);
            if (!scan_string(s)) return false;
            skip_space(s);
            if (s->p >= s->end || *s->p != ':') return false;
            s->p++;
        }
        if (!scan_value(s)) return false;
        skip_space(s);
        if (s->p >= s->end) return false;
        if (*s->p == close) {
            s->p++;
            s->depth--;
            return true;
        }
        if (*s->p != ',') return false;
        s->p++;
    }
}

bool kiln_json_text_valid(const char *text)
{
    if (!text) return false;
    json_scan s = {text, text + strlen(text), 0};
    if (!scan_value(&s)) return false;
    skip_space(&s);
    return s.p == s.end;
}

bool kiln_json_out_raw(kiln_json_out *j, const char *key, const char *text)
{
    if (!kiln_json_text_valid(text)) return false;
    before(j, key);
    put(j, text);
    return true;
}
