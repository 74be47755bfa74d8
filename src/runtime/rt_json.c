/* rt_json.c — the strict JSON tokenizer of rt_json.h (no allocation, no recursion). */
#include "runtime/rt_json.h"

#include <string.h>

#include "core/error.h"

typedef struct parser {
    const char *s;
    size_t n, pos;
    krt_json_token *t;
    size_t max, count;
    kiln_error *err;
} parser;

static kiln_result fail(parser *p, const char *what)
{
    kiln_error_set(p->err, KILN_E_FORMAT_INVALID, "JSON: %s at byte %zu", what, p->pos);
    kiln_error_at_offset(p->err, p->pos);
    return KILN_E_FORMAT_INVALID;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->n && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
                             p->s[p->pos] == '\r'))
        p->pos++;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static kiln_result scan_string(parser *p)
{
    p->pos++; /* opening quote */
    while (p->pos < p->n) {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') return KILN_OK;
        if (c < 0x20) return fail(p, "control character in a string");
        if (c == '\\') {
            if (p->n - p->pos < 2) break;
            char e = p->s[p->pos + 1];
            if (e == 'u') {
                if (p->n - p->pos < 6) break;
                for (int i = 2; i < 6; i++)
                    if (hexval(p->s[p->pos + i]) < 0) return fail(p, "bad \\u escape");
                p->pos += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0) return fail(p, "bad escape");
            p->pos += 2;
            continue;
        }
        p->pos++;
    }
    return fail(p, "unterminated string");
}

static kiln_result scan_number(parser *p)
{
    size_t i = p->pos;
    if (i < p->n && p->s[i] == '-') i++;
    if (i >= p->n) return fail(p, "bad number");
    if (p->s[i] == '0') i++;
    else if (p->s[i] >= '1' && p->s[i] <= '9')
        while (i < p->n && p->s[i] >= '0' && p->s[i] <= '9') i++;
    else return fail(p, "bad number");
    if (i < p->n && p->s[i] == '.') {
        i++;
        if (i >= p->n || p->s[i] < '0' || p->s[i] > '9') return fail(p, "bad fraction");
        while (i < p->n && p->s[i] >= '0' && p->s[i] <= '9') i++;
    }
    if (i < p->n && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        if (i < p->n && (p->s[i] == '+' || p->s[i] == '-')) i++;
        if (i >= p->n || p->s[i] < '0' || p->s[i] > '9') return fail(p, "bad exponent");
        while (i < p->n && p->s[i] >= '0' && p->s[i] <= '9') i++;
    }
    p->pos = i;
    return KILN_OK;
}

static kiln_result new_token(parser *p, uint32_t type, uint32_t *index)
{
    if (p->count >= p->max || p->count >= UINT32_MAX) {
        kiln_error_set(p->err, KILN_E_LIMIT, "JSON: more than %zu values", p->max);
        return KILN_E_LIMIT;
    }
    *index = (uint32_t)p->count++;
    krt_json_token *t = &p->t[*index];
    memset(t, 0, sizeof *t);
    t->type = type;
    t->start = p->pos;
    return KILN_OK;
}

kiln_result krt_json_parse(const char *text, size_t size, krt_json_token *tokens, size_t max_tokens,
                           size_t *count, kiln_error *err)
{
    parser p = {text, size, 0, tokens, max_tokens, 0, err};
    uint32_t stack[KRT_JSON_MAX_DEPTH];
    size_t depth = 0;
    kiln_result r;
    *count = 0;
    /* State: expecting a value (after '[', ',' in an array, ':' or at the start). */
    for (;;) {
        skip_ws(&p);
        if (p.pos >= p.n) return fail(&p, "unexpected end");
        char c = text[p.pos];
        uint32_t idx;
        bool is_key = depth > 0 && tokens[stack[depth - 1]].type == KRT_JSON_OBJECT &&
                      tokens[stack[depth - 1]].count % 2 == 0;
        if (is_key && c != '"') return fail(&p, "expected a member name");
        if (depth > 0) tokens[stack[depth - 1]].count++;
        if (c == '{' || c == '[') {
            if (depth == KRT_JSON_MAX_DEPTH) return fail(&p, "nested too deeply");
            if ((r = new_token(&p, c == '{' ? KRT_JSON_OBJECT : KRT_JSON_ARRAY, &idx))) return r;
            stack[depth++] = idx;
            p.pos++;
            skip_ws(&p);
            if (p.pos < p.n && text[p.pos] == (c == '{' ? '}' : ']')) {
                tokens[idx].end = ++p.pos;
                tokens[idx].next = (uint32_t)p.count;
                depth--;
            } else {
                continue;
            }
        } else if (c == '"') {
            if ((r = new_token(&p, KRT_JSON_STRING, &idx))) return r;
            if ((r = scan_string(&p))) return r;
            tokens[idx].start++;
            tokens[idx].end = p.pos++;
            tokens[idx].next = (uint32_t)p.count;
            if (is_key) {
                skip_ws(&p);
                if (p.pos >= p.n || text[p.pos] != ':') return fail(&p, "expected ':'");
                p.pos++;
                continue;
            }
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if ((r = new_token(&p, KRT_JSON_NUMBER, &idx))) return r;
            if ((r = scan_number(&p))) return r;
            tokens[idx].end = p.pos;
            tokens[idx].next = (uint32_t)p.count;
        } else {
            static const char *const words[3] = {"null", "false", "true"};
            int w = c == 'n' ? 0 : c == 'f' ? 1 : c == 't' ? 2 : -1;
            size_t len = w < 0 ? 0 : strlen(words[w]);
            if (w < 0 || p.n - p.pos < len || memcmp(text + p.pos, words[w], len) != 0)
                return fail(&p, "unexpected character");
            if ((r = new_token(&p, (uint32_t)w, &idx))) return r;
            p.pos += len;
            tokens[idx].end = p.pos;
            tokens[idx].next = (uint32_t)p.count;
        }
        /* A value is complete: close containers or expect a separator. */
        for (;;) {
            if (depth == 0) {
                skip_ws(&p);
                if (p.pos != p.n) return fail(&p, "text after the value");
                *count = p.count;
                return KILN_OK;
            }
            krt_json_token *top = &tokens[stack[depth - 1]];
            bool obj = top->type == KRT_JSON_OBJECT;
            skip_ws(&p);
            if (p.pos >= p.n) return fail(&p, "unexpected end");
            char d = text[p.pos];
            if (d == ',') {
                p.pos++;
                break;
            }
            if (d == (obj ? '}' : ']')) {
                top->end = ++p.pos;
                top->next = (uint32_t)p.count;
                depth--;
                continue;
            }
            return fail(&p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
}

uint32_t krt_json_member(const char *text, const krt_json_token *t, uint32_t obj, const char *key)
{
    if (t[obj].type != KRT_JSON_OBJECT) return 0;
    size_t klen = strlen(key);
    uint32_t i = obj + 1;
    for (uint32_t m = 0; m + 1 < t[obj].count; m += 2) {
        uint32_t v = t[i].next;
        /* Keys kiln looks for have no escapes: compare the raw bytes. */
        if (t[i].end - t[i].start == klen && memcmp(text + t[i].start, key, klen) == 0) return v;
        i = t[v].next;
    }
    return 0;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 63));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 63));
        o[2] = (char)(0x80 | (cp & 63));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 63));
    o[2] = (char)(0x80 | (cp >> 6 & 63));
    o[3] = (char)(0x80 | (cp & 63));
    return 4;
}

static uint32_t hex4(const char *s)
{
    return (uint32_t)(hexval(s[0]) << 12 | hexval(s[1]) << 8 | hexval(s[2]) << 4 | hexval(s[3]));
}

bool krt_json_string(const char *text, const krt_json_token *t, uint32_t i, char *out,
                     size_t out_size)
{
    if (t[i].type != KRT_JSON_STRING || out_size == 0) return false;
    size_t o = 0;
    for (size_t k = t[i].start; k < t[i].end;) {
        char buf[4];
        size_t len;
        if (text[k] != '\\') {
            buf[0] = text[k++];
            len = 1;
        } else {
            char e = text[k + 1]; /* the tokenizer checked every escape is whole */
            if (e == 'u') {
                uint32_t cp = hex4(text + k + 2);
                k += 6;
                if (cp >= 0xD800 && cp < 0xDC00 && t[i].end - k >= 6 && text[k] == '\\' &&
                    text[k + 1] == 'u') {
                    uint32_t lo = hex4(text + k + 2);
                    if (lo >= 0xDC00 && lo < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        k += 6;
                    }
                }
                if (cp == 0 || (cp >= 0xD800 && cp < 0xE000)) return false;
                len = put_utf8(buf, cp);
            } else {
                static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
                buf[0] = to[strchr(from, e) - from];
                len = 1;
                k += 2;
            }
        }
        if (out_size - 1 - o < len) return false;
        memcpy(out + o, buf, len);
        o += len;
    }
    out[o] = 0;
    return true;
}

bool krt_json_uint(const char *text, const krt_json_token *t, uint32_t i, uint64_t *out)
{
    if (t[i].type != KRT_JSON_NUMBER) return false;
    uint64_t v = 0;
    size_t len = t[i].end - t[i].start;
    if (len == 0 || len > 16) return false;
    for (size_t k = t[i].start; k < t[i].end; k++) {
        char c = text[k];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (uint64_t)(c - '0');
    }
    if (v >= (1ull << 53)) return false;
    *out = v;
    return true;
}
