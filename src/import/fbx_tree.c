/* fbx_tree.c — the FBX node tree from binary or ASCII bytes (fbx_tree.h).
 *
 * Binary (the layout Blender's io_scene_fbx notes and ufbx describe): "Kaydara FBX Binary  \0",
 * 0x1A 0x00, u32 version; then node records: end offset, property count, property bytes (u32
 * each before 7500, u64 from 7500), u8 name length, name, properties, nested records ended by a
 * null record (all-zero header). Properties are a type byte and its data; arrays carry u32
 * length, u32 encoding (0 raw, 1 zlib) and u32 stored size. Everything is little-endian.
 *
 * ASCII: "Name: value, value {children}" with ';' comments, quoted strings, numbers, bare words;
 * 6.x writes long number lists as comma-separated values that continue over lines after a
 * comma, 7.x as "*N { a: ... }".
 *
 * Every read is checked against the bytes left (and a record's end offset); nesting is
 * bounded by max_depth (the recursion is that deep at most), nodes by max_nodes, and memory
 * (the tree's arena plus the scratch vectors) by memory_limit, checked before allocating. */
#include "import/fbx_tree.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"

#define DEFAULT_MEMORY ((size_t)1 << 30)
#define DEFAULT_DEPTH  64u
#define DEFAULT_NODES  (16u << 20)
#define MAX_TOKEN      128u /* longest number or bare word in ASCII */

static const char binary_magic[21] = "Kaydara FBX Binary  "; /* with its NUL: 21 bytes */

typedef struct level {
    kiln_fbx_node *nodes; /* children gathered for the node open at the level above */
    size_t count, cap;
} level;

typedef struct parser {
    const uint8_t *p;
    size_t n;
    kiln_fbx_tree *t;
    kiln_arena *a;
    const kiln_allocator *al;
    kiln_error *err;
    size_t limit, scratch; /* memory limit; bytes the scratch vectors hold */
    uint32_t max_depth, max_nodes;
    bool wide;           /* binary 7500+: 64-bit record fields */
    level *levels;       /* max_depth + 2 */
    kiln_fbx_prop *vals; /* ASCII: the values of the node being read */
    size_t val_count, val_cap;
} parser;

/* ---- memory --------------------------------------------------------------------------------- */

static kiln_result over(parser *ps, const char *what)
{
    return kiln_error_set(ps->err, KILN_E_LIMIT, "FBX: %s passes the memory limit of %zu bytes",
                          what, ps->limit);
}

static kiln_result nomem(parser *ps, const char *what)
{
    if (ps->a->over_limit) return over(ps, what);
    return kiln_error_set(ps->err, KILN_E_OUT_OF_MEMORY, "FBX: out of memory for %s", what);
}

/* Would `extra` more bytes pass the limit? */
static bool fits(const parser *ps, size_t extra)
{
    size_t total;
    return kiln_size_add(ps->a->used, ps->scratch, &total) && kiln_size_add(total, extra, &total) &&
           total <= ps->limit;
}

/* Grows a scratch vector (allocator memory, counted towards the limit) to hold need items. */
static kiln_result grow(parser *ps, void **vec, size_t *cap, size_t elem, size_t need,
                        const char *what)
{
    if (need <= *cap) return KILN_OK;
    size_t ncap = *cap ? *cap : 16, bytes, old = *cap * elem;
    while (ncap < need) {
        if (ncap > ((size_t)-1) / 2) return over(ps, what);
        ncap *= 2;
    }
    if (!kiln_size_mul(ncap, elem, &bytes) || !fits(ps, bytes - old)) return over(ps, what);
    void *nv = kiln_realloc(ps->al, *vec, old, bytes);
    if (!nv)
        return kiln_error_set(ps->err, KILN_E_OUT_OF_MEMORY, "FBX: out of memory for %s", what);
    ps->scratch += bytes - old;
    *vec = nv;
    *cap = ncap;
    return KILN_OK;
}

/* Damage at byte `at`: E_IMPORT_FAILED with what and where. */
static kiln_result bad(parser *ps, size_t at, const char *what)
{
    kiln_error_set(ps->err, KILN_E_IMPORT_FAILED, "%s", what);
    kiln_error_at_offset(ps->err, at);
    return KILN_E_IMPORT_FAILED;
}

/* Appends a finished node to the children gathered at level d. */
static kiln_result push_node(parser *ps, uint32_t d, const kiln_fbx_node *nd)
{
    level *lv = &ps->levels[d];
    kiln_result r =
        grow(ps, (void **)&lv->nodes, &lv->cap, sizeof *lv->nodes, lv->count + 1, "nodes");
    if (r) return r;
    lv->nodes[lv->count++] = *nd;
    return KILN_OK;
}

/* Moves the children gathered at level d into the arena as nd's children. */
static kiln_result take_children(parser *ps, uint32_t d, kiln_fbx_node *nd)
{
    level *lv = &ps->levels[d];
    nd->child_count = (uint32_t)lv->count;
    nd->children = NULL;
    if (lv->count) {
        kiln_fbx_node *c = kiln_arena_array(ps->a, lv->count, sizeof *c);
        if (!c) return nomem(ps, "nodes");
        memcpy(c, lv->nodes, lv->count * sizeof *c);
        nd->children = c;
    }
    lv->count = 0;
    return KILN_OK;
}

/* A node starting at `at`, nested depth deep: within max_depth and max_nodes? */
static kiln_result count_node(parser *ps, uint32_t depth, size_t at)
{
    if (depth > ps->max_depth) {
        kiln_error_set(ps->err, KILN_E_LIMIT, "FBX: nodes nested deeper than %u", ps->max_depth);
        kiln_error_at_offset(ps->err, at);
        return KILN_E_LIMIT;
    }
    if (ps->t->node_count >= ps->max_nodes) {
        kiln_error_set(ps->err, KILN_E_LIMIT, "FBX: more than %u nodes", ps->max_nodes);
        kiln_error_at_offset(ps->err, at);
        return KILN_E_LIMIT;
    }
    ps->t->node_count++;
    return KILN_OK;
}

/* A string value: len bytes, NUL-terminated copy. */
static kiln_result make_string(parser *ps, const uint8_t *s, size_t len, char type,
                               kiln_fbx_prop *pr)
{
    char *c = kiln_arena_alloc(ps->a, len + 1, 1);
    if (!c) return nomem(ps, "a string");
    if (len) memcpy(c, s, len);
    pr->type = type;
    pr->count = len;
    pr->data = c;
    return KILN_OK;
}

/* ---- binary ---------------------------------------------------------------------------------- */

/* zlib's allocations through kiln's allocator: the size sits in front of each block, since
 * kiln_free needs it and zfree does not pass it. */
typedef struct zctx {
    parser *ps;
} zctx;

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    zctx *z = opaque;
    size_t bytes;
    if (!kiln_size_mul(items, size, &bytes) || !kiln_size_add(bytes, 16, &bytes) ||
        !fits(z->ps, bytes))
        return Z_NULL;
    uint8_t *p = kiln_alloc(z->ps->al, bytes);
    if (!p) return Z_NULL;
    memcpy(p, &bytes, sizeof bytes);
    z->ps->scratch += bytes;
    return p + 16;
}

static void z_free(voidpf opaque, voidpf address)
{
    zctx *z = opaque;
    if (!address) return;
    uint8_t *p = (uint8_t *)address - 16;
    size_t bytes;
    memcpy(&bytes, p, sizeof bytes);
    z->ps->scratch -= bytes;
    kiln_free(z->ps->al, p, bytes);
}

/* Inflates exactly out_size bytes from in (zlib stream) into out. */
static bool inflate_exact(parser *ps, const uint8_t *in, size_t in_size, uint8_t *out,
                          size_t out_size)
{
    if (in_size > UINT32_MAX || out_size > UINT32_MAX) return false;
    zctx z = {ps};
    z_stream s;
    memset(&s, 0, sizeof s);
    s.zalloc = z_alloc;
    s.zfree = z_free;
    s.opaque = &z;
    if (inflateInit(&s) != Z_OK) return false;
    s.next_in = (Bytef *)(uintptr_t)in;
    s.avail_in = (uInt)in_size;
    s.next_out = out;
    s.avail_out = (uInt)out_size;
    int rc = inflate(&s, Z_FINISH);
    bool ok = rc == Z_STREAM_END && s.total_out == out_size;
    inflateEnd(&s);
    return ok;
}

/* A float as an integer, truncated toward zero; 0 when it would not fit an int64_t. */
static int64_t truncate_i64(double d) { return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : 0; }

static size_t elem_size(char type)
{
    switch (type) {
    case 'b':
    case 'c':
        return 1;
    case 'i':
    case 'f':
        return 4;
    case 'l':
    case 'd':
        return 8;
    default:
        return 0;
    }
}

static kiln_result bin_prop(parser *ps, kiln_reader *r, kiln_fbx_prop *pr)
{
    size_t at = r->pos;
    const uint8_t *tp = kiln_reader_take(r, 1);
    if (!tp) return bad(ps, at, "FBX: a property runs past its record");
    char type = (char)*tp;
    memset(pr, 0, sizeof *pr);
    pr->type = type;
    switch (type) {
    case 'C':
        pr->i = kiln_read_u8(r) != 0;
        pr->d = (double)pr->i;
        break;
    case 'Y':
        pr->i = (int16_t)kiln_read_u16le(r);
        pr->d = (double)pr->i;
        break;
    case 'I':
        pr->i = (int32_t)kiln_read_u32le(r);
        pr->d = (double)pr->i;
        break;
    case 'L':
        pr->i = (int64_t)kiln_read_u64le(r);
        pr->d = (double)pr->i;
        break;
    case 'F':
        pr->d = kiln_read_f32le(r);
        break;
    case 'D':
        pr->d = kiln_read_f64le(r);
        break;
    case 'S':
    case 'R': {
        uint32_t len = kiln_read_u32le(r);
        const uint8_t *s = kiln_reader_take(r, len);
        if (!s) return bad(ps, at, "FBX: a string runs past its record");
        return make_string(ps, s, len, type, pr);
    }
    case 'b':
    case 'c':
    case 'i':
    case 'f':
    case 'l':
    case 'd': {
        uint32_t len = kiln_read_u32le(r), enc = kiln_read_u32le(r), stored = kiln_read_u32le(r);
        const uint8_t *src = kiln_reader_take(r, stored);
        if (!src) return bad(ps, at, "FBX: an array runs past its record");
        size_t bytes;
        if (!kiln_size_mul(len, elem_size(type), &bytes)) return over(ps, "an array");
        /* Damage first: a length its stored bytes cannot hold is a broken file, whatever the
         * memory limit (which is for arrays that could be real). */
        if (enc == 0 && stored != bytes)
            return bad(ps, at, "FBX: an array's stored size does not match its length");
        if (enc > 1) return bad(ps, at, "FBX: an array has an unknown encoding");
        /* Deflate expands at most 1032:1: a longer claim is damage, found before allocating. */
        if (enc == 1 && bytes / 1032 > (size_t)stored + 64)
            return bad(ps, at, "FBX: a compressed array claims more than its bytes can hold");
        if (!fits(ps, bytes)) return over(ps, "an array");
        pr->count = len;
        if (!len) return KILN_OK;
        uint8_t *dst = kiln_arena_alloc(ps->a, bytes, 16);
        if (!dst) return nomem(ps, "an array");
        /* Little-endian in the file and on every host kiln targets (x86-64, arm64). */
        if (enc == 0) memcpy(dst, src, bytes);
        else if (!inflate_exact(ps, src, stored, dst, bytes)) {
            if (ps->a->over_limit || !fits(ps, 0)) return over(ps, "an array");
            return bad(ps, at, "FBX: a compressed array is damaged or has the wrong length");
        }
        pr->data = dst;
        if (type == 'd' || type == 'f')
            for (size_t k = 0; k < len; k++) {
                /* Nothing kiln does needs non-finite numbers; cleaning them here spares every
                 * reader above. */
                if (type == 'd') {
                    double *v = (double *)dst + k;
                    if (!isfinite(*v)) *v = 0;
                } else {
                    float *v = (float *)dst + k;
                    if (!isfinite(*v)) *v = 0;
                }
            }
        return KILN_OK;
    }
    default:
        return bad(ps, at, "FBX: unknown property type");
    }
    if (r->failed) return bad(ps, at, "FBX: a property runs past its record");
    if (!isfinite(pr->d)) pr->d = 0;
    if (type == 'F' || type == 'D') pr->i = truncate_i64(pr->d);
    return KILN_OK;
}

/* One record at r->pos, ending by parent_end. *is_null set for the null record ending a list. */
static kiln_result bin_node(parser *ps, kiln_reader *r, uint32_t depth, size_t parent_end,
                            bool *is_null)
{
    size_t start = r->pos;
    uint64_t end, nprops, plen;
    if (ps->wide) {
        end = kiln_read_u64le(r), nprops = kiln_read_u64le(r), plen = kiln_read_u64le(r);
    } else {
        end = kiln_read_u32le(r), nprops = kiln_read_u32le(r), plen = kiln_read_u32le(r);
    }
    uint8_t name_len = kiln_read_u8(r);
    if (r->failed) return bad(ps, start, "FBX: a node record is cut short");
    *is_null = false;
    if (!end && !nprops && !plen && !name_len) {
        *is_null = true;
        return KILN_OK;
    }
    kiln_result res = count_node(ps, depth, start);
    if (res) return res;
    if (end <= start || end > parent_end)
        return bad(ps, start, "FBX: a node's end offset is outside its parent");
    const uint8_t *name = kiln_reader_take(r, name_len);
    /* The header and name must fit before the end offset (else end - pos would wrap). */
    if (!name || r->pos > end || plen > end - r->pos || nprops > plen)
        return bad(ps, start, "FBX: a node's properties run past its end");
    kiln_fbx_node nd;
    memset(&nd, 0, sizeof nd);
    nd.offset = start;
    char *nm = kiln_arena_alloc(ps->a, (size_t)name_len + 1, 1);
    if (!nm) return nomem(ps, "a name");
    memcpy(nm, name, name_len);
    nd.name = nm;
    size_t props_end = r->pos + (size_t)plen;
    if (nprops) {
        kiln_fbx_prop *props = kiln_arena_array(ps->a, (size_t)nprops, sizeof *props);
        if (!props) return nomem(ps, "properties");
        /* The properties may only read their own bytes. */
        kiln_reader pr = kiln_reader_make(r->data, props_end);
        pr.pos = r->pos;
        for (uint64_t i = 0; i < nprops; i++)
            if ((res = bin_prop(ps, &pr, &props[i]))) return res;
        nd.props = props;
        nd.prop_count = (uint32_t)nprops;
        if (pr.pos != props_end)
            return bad(ps, start, "FBX: a node's properties do not fill their stated size");
    } else if (plen) {
        return bad(ps, start, "FBX: a node has property bytes but no properties");
    }
    r->pos = props_end;
    while (r->pos < end) {
        bool null = false;
        if ((res = bin_node(ps, r, depth + 1, (size_t)end, &null))) return res;
        if (null) break;
    }
    if (r->pos != end) return bad(ps, start, "FBX: a node's children do not end at its end offset");
    if ((res = take_children(ps, depth + 1, &nd))) return res;
    return push_node(ps, depth, &nd);
}

static kiln_result parse_binary(parser *ps)
{
    kiln_reader r = kiln_reader_make(ps->p, ps->n);
    kiln_reader_take(&r, sizeof binary_magic);
    kiln_read_u16le(&r);
    uint32_t version = kiln_read_u32le(&r);
    if (r.failed) return bad(ps, 0, "FBX: the binary header is cut short");
    if (version < 2000 || version > 100000) return bad(ps, 23, "FBX: implausible version");
    ps->t->version = version;
    ps->t->binary = true;
    ps->wide = version >= 7500;
    size_t null_len = ps->wide ? 25 : 13;
    while (r.pos < ps->n) {
        /* Files end with a null record and a footer; tolerate a missing null record at the end. */
        if (ps->n - r.pos < null_len) break;
        bool null = false;
        kiln_result res = bin_node(ps, &r, 1, ps->n, &null);
        if (res) return res;
        if (null) break;
    }
    return take_children(ps, 1, &ps->t->root);
}

/* ---- ASCII ----------------------------------------------------------------------------------- */

typedef struct text {
    const uint8_t *p;
    size_t n, pos;
} text;

static void skip_ws(text *x)
{
    while (x->pos < x->n) {
        uint8_t c = x->p[x->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') x->pos++;
        else if (c == ';') {
            while (x->pos < x->n && x->p[x->pos] != '\n') x->pos++;
        } else break;
    }
}

/* Spaces and comments, not line ends. */
static void skip_blank(text *x)
{
    while (x->pos < x->n) {
        uint8_t c = x->p[x->pos];
        if (c == ' ' || c == '\t' || c == '\r') x->pos++;
        else if (c == ';') {
            while (x->pos < x->n && x->p[x->pos] != '\n') x->pos++;
        } else break;
    }
}

static bool word_char(uint8_t c)
{
    return c > ' ' && c != ':' && c != '{' && c != '}' && c != ',' && c != '"' && c != ';' &&
           c != 0x7F;
}

/* Length of the word at pos (0 when none). */
static size_t word_len(const text *x, size_t pos)
{
    size_t k = pos;
    while (k < x->n && word_char(x->p[k])) k++;
    return k - pos;
}

/* Is there "name:" at pos? */
static bool at_node(const text *x, size_t pos)
{
    size_t k = word_len(x, pos);
    return k && pos + k < x->n && x->p[pos + k] == ':';
}

/* A number or bare word token into pr ('L', 'D' or 'S'). */
static kiln_result ascii_word(parser *ps, text *x, kiln_fbx_prop *pr)
{
    size_t at = x->pos, k = word_len(x, x->pos);
    if (!k) return bad(ps, at, "FBX: a value is expected");
    const uint8_t *w = x->p + x->pos;
    x->pos += k;
    memset(pr, 0, sizeof *pr);
    if (k < MAX_TOKEN &&
        (w[0] == '-' || w[0] == '+' || w[0] == '.' || (w[0] >= '0' && w[0] <= '9'))) {
        char buf[MAX_TOKEN];
        memcpy(buf, w, k);
        buf[k] = '\0';
        char *end;
        errno = 0;
        long long v = strtoll(buf, &end, 10);
        if (!*end && errno == 0) {
            pr->type = 'L';
            pr->i = v;
            pr->d = (double)v;
            return KILN_OK;
        }
        errno = 0;
        double d = strtod(buf, &end);
        if (!*end) {
            pr->type = 'D';
            pr->d = isfinite(d) ? d : 0;
            pr->i = truncate_i64(pr->d);
            return KILN_OK;
        }
    }
    return make_string(ps, w, k, 'S', pr);
}

static kiln_result ascii_value(parser *ps, text *x, kiln_fbx_prop *pr)
{
    size_t at = x->pos;
    if (x->pos < x->n && x->p[x->pos] == '"') {
        size_t s = ++x->pos;
        while (x->pos < x->n && x->p[x->pos] != '"') x->pos++;
        if (x->pos >= x->n) return bad(ps, at, "FBX: a string is not closed");
        size_t len = x->pos - s;
        x->pos++;
        return make_string(ps, x->p + s, len, 'S', pr);
    }
    return ascii_word(ps, x, pr);
}

static kiln_result add_val(parser *ps, const kiln_fbx_prop *pr)
{
    kiln_result r =
        grow(ps, (void **)&ps->vals, &ps->val_cap, sizeof *ps->vals, ps->val_count + 1, "values");
    if (r) return r;
    ps->vals[ps->val_count++] = *pr;
    return KILN_OK;
}

/* The values gathered in ps->vals as nd's properties: a run of more than one number becomes
 * one array ('l' when all are integers, else 'd'). */
static kiln_result commit_values(parser *ps, kiln_fbx_node *nd, bool force_array)
{
    size_t n = ps->val_count;
    ps->val_count = 0;
    if (!n && !force_array) return KILN_OK;
    bool numbers = true, ints = true;
    for (size_t i = 0; i < n; i++) {
        numbers = numbers && (ps->vals[i].type == 'L' || ps->vals[i].type == 'D');
        ints = ints && ps->vals[i].type == 'L';
    }
    if (numbers && (n > 1 || force_array)) {
        kiln_fbx_prop *pr = kiln_arena_alloc(ps->a, sizeof *pr, 16);
        if (!pr) return nomem(ps, "values");
        pr->type = ints ? 'l' : 'd';
        pr->count = n;
        if (n) {
            void *arr = kiln_arena_array(ps->a, n, 8);
            if (!arr) return nomem(ps, "an array");
            for (size_t i = 0; i < n; i++) {
                if (ints) ((int64_t *)arr)[i] = ps->vals[i].i;
                else ((double *)arr)[i] = ps->vals[i].d;
            }
            pr->data = arr;
        }
        nd->props = pr;
        nd->prop_count = 1;
        return KILN_OK;
    }
    if (n > UINT32_MAX) return over(ps, "values");
    kiln_fbx_prop *pr = kiln_arena_array(ps->a, n, sizeof *pr);
    if (!pr) return nomem(ps, "values");
    memcpy(pr, ps->vals, n * sizeof *pr);
    nd->props = pr;
    nd->prop_count = (uint32_t)n;
    return KILN_OK;
}

static kiln_result ascii_node(parser *ps, text *x, uint32_t depth);

/* "{ children }" at x->pos. */
static kiln_result ascii_children(parser *ps, text *x, uint32_t depth, kiln_fbx_node *nd)
{
    size_t at = x->pos++;
    for (;;) {
        skip_ws(x);
        if (x->pos >= x->n) return bad(ps, at, "FBX: a '{' is not closed");
        if (x->p[x->pos] == '}') {
            x->pos++;
            break;
        }
        kiln_result r = ascii_node(ps, x, depth + 1);
        if (r) return r;
    }
    return take_children(ps, depth + 1, nd);
}

static kiln_result ascii_node(parser *ps, text *x, uint32_t depth)
{
    size_t start = x->pos, k = word_len(x, x->pos);
    if (!k || x->pos + k >= x->n || x->p[x->pos + k] != ':')
        return bad(ps, start, "FBX: a node name followed by ':' is expected");
    kiln_result r = count_node(ps, depth, start);
    if (r) return r;
    kiln_fbx_node nd;
    memset(&nd, 0, sizeof nd);
    nd.offset = start;
    char *nm = kiln_arena_strndup(ps->a, (const char *)x->p + x->pos, k);
    if (!nm) return nomem(ps, "a name");
    nd.name = nm;
    x->pos += k + 1;
    skip_ws(x);
    bool array = false;
    if (x->pos < x->n && x->p[x->pos] == '*') {
        /* 7.x: "*N { a: v, v, ... }" — N is only a hint; the values are counted as read. */
        x->pos++;
        kiln_fbx_prop hint;
        if ((r = ascii_word(ps, x, &hint))) return r;
        skip_ws(x);
        if (hint.type != 'L' || x->pos >= x->n || x->p[x->pos] != '{')
            return bad(ps, start, "FBX: an array '*N {' is malformed");
        x->pos++;
        skip_ws(x);
        if (!at_node(x, x->pos)) return bad(ps, start, "FBX: an array lacks its 'a:'");
        x->pos += word_len(x, x->pos) + 1;
        skip_ws(x);
        array = true;
        while (x->pos < x->n && x->p[x->pos] != '}') {
            kiln_fbx_prop v;
            if ((r = ascii_word(ps, x, &v))) return r;
            if (v.type != 'L' && v.type != 'D')
                return bad(ps, start, "FBX: an array holds a non-number");
            if ((r = add_val(ps, &v))) return r;
            skip_ws(x);
            if (x->pos < x->n && x->p[x->pos] == ',') {
                x->pos++;
                skip_ws(x);
            } else break;
        }
        if (x->pos >= x->n || x->p[x->pos] != '}')
            return bad(ps, start, "FBX: an array is not closed");
        x->pos++;
    } else if (x->pos < x->n && x->p[x->pos] != '{' && x->p[x->pos] != '}' && !at_node(x, x->pos)) {
        for (;;) {
            kiln_fbx_prop v;
            /* An empty value before a comma ("Content: ,") is skipped. */
            if (x->pos < x->n && x->p[x->pos] != ',') {
                if ((r = ascii_value(ps, x, &v))) return r;
                if ((r = add_val(ps, &v))) return r;
            }
            skip_blank(x);
            if (x->pos < x->n && x->p[x->pos] == ',') {
                x->pos++;
                skip_ws(x);
                /* A trailing comma before the children or the end: nothing more. */
                if (x->pos >= x->n || x->p[x->pos] == '{' || x->p[x->pos] == '}') break;
            } else break;
        }
    }
    if ((r = commit_values(ps, &nd, array))) return r;
    skip_ws(x);
    if (x->pos < x->n && x->p[x->pos] == '{') {
        if ((r = ascii_children(ps, x, depth, &nd))) return r;
    }
    return push_node(ps, depth, &nd);
}

static kiln_result parse_ascii(parser *ps)
{
    text x = {ps->p, ps->n, 0};
    if (x.n >= 3 && x.p[0] == 0xEF && x.p[1] == 0xBB && x.p[2] == 0xBF) x.pos = 3;
    for (;;) {
        skip_ws(&x);
        if (x.pos >= x.n) break;
        if (x.p[x.pos] == 0) break; /* some writers pad with NULs */
        kiln_result r = ascii_node(ps, &x, 1);
        if (r) return r;
    }
    kiln_result r = take_children(ps, 1, &ps->t->root);
    if (r) return r;
    int64_t v = 0;
    if (kiln_fbx_integer(
            kiln_fbx_child(kiln_fbx_child(&ps->t->root, "FBXHeaderExtension"), "FBXVersion"), 0,
            &v) &&
        v > 0 && v < 100000)
        ps->t->version = (uint32_t)v;
    return KILN_OK;
}

/* ---- entry ----------------------------------------------------------------------------------- */

static bool is_binary(const uint8_t *p, size_t n)
{
    return n >= sizeof binary_magic && !memcmp(p, binary_magic, sizeof binary_magic);
}

uint32_t kiln_fbx_sniff_version(const void *data, size_t size)
{
    const uint8_t *p = data;
    if (!p) return 0;
    if (is_binary(p, size)) {
        if (size < 27) return 0;
        return kiln_load_u32le(p + 23);
    }
    size_t head = size < 65536 ? size : 65536;
    static const char key[] = "FBXVersion:";
    for (size_t i = 0; i + sizeof key - 1 < head; i++) {
        if (memcmp(p + i, key, sizeof key - 1)) continue;
        size_t k = i + sizeof key - 1;
        while (k < head && (p[k] == ' ' || p[k] == '\t')) k++;
        uint32_t v = 0;
        size_t digits = 0;
        while (k < head && p[k] >= '0' && p[k] <= '9' && digits < 6)
            v = v * 10 + (uint32_t)(p[k++] - '0'), digits++;
        if (digits) return v;
    }
    /* "; FBX 6.1.0 project file" */
    size_t i = head >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
    if (head - i > 10 && !memcmp(p + i, "; FBX ", 6)) {
        const uint8_t *q = p + i + 6;
        if (q[0] >= '1' && q[0] <= '9' && q[1] == '.' && q[2] >= '0' && q[2] <= '9' &&
            q[3] == '.' && q[4] >= '0' && q[4] <= '9')
            return (uint32_t)(q[0] - '0') * 1000 + (uint32_t)(q[2] - '0') * 100 +
                   (uint32_t)(q[4] - '0') * 10;
    }
    return 0;
}

kiln_result kiln_fbx_tree_parse(const void *data, size_t size, const kiln_allocator *allocator,
                                const kiln_fbx_limits *limits, kiln_fbx_tree *tree, kiln_error *err)
{
    memset(tree, 0, sizeof *tree);
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.limit = limits && limits->memory_limit ? limits->memory_limit : DEFAULT_MEMORY;
    ps.max_depth = limits && limits->max_depth ? limits->max_depth : DEFAULT_DEPTH;
    ps.max_nodes = limits && limits->max_nodes ? limits->max_nodes : DEFAULT_NODES;
    kiln_arena_init(&tree->arena, allocator, ps.limit);
    tree->root.name = "";
    if (!data && size) return kiln_error_set(err, KILN_E_IMPORT_FAILED, "FBX: no data");
    ps.p = data;
    ps.n = size;
    ps.t = tree;
    ps.a = &tree->arena;
    ps.al = &tree->arena.allocator;
    ps.err = err;
    size_t lv_bytes;
    if (!kiln_size_mul((size_t)ps.max_depth + 2, sizeof *ps.levels, &lv_bytes) ||
        !fits(&ps, lv_bytes))
        return over(&ps, "the nesting levels");
    if (!(ps.levels = kiln_calloc(ps.al, (size_t)ps.max_depth + 2, sizeof *ps.levels)))
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "FBX: out of memory");
    ps.scratch += lv_bytes;
    kiln_result r;
    if (is_binary(ps.p, ps.n)) {
        r = parse_binary(&ps);
    } else {
        bool textual = size > 0 && ps.p[0] != 0;
        r = textual ? parse_ascii(&ps)
                    : kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "not an FBX file");
    }
    for (uint32_t d = 0; d < ps.max_depth + 2; d++)
        kiln_free(ps.al, ps.levels[d].nodes, ps.levels[d].cap * sizeof(kiln_fbx_node));
    kiln_free(ps.al, ps.levels, lv_bytes);
    kiln_free(ps.al, ps.vals, ps.val_cap * sizeof *ps.vals);
    return r;
}

void kiln_fbx_tree_free(kiln_fbx_tree *tree)
{
    if (!tree) return;
    kiln_arena_release(&tree->arena);
    memset(&tree->root, 0, sizeof tree->root);
}

/* ---- lookup ---------------------------------------------------------------------------------- */

const kiln_fbx_node *kiln_fbx_child(const kiln_fbx_node *n, const char *name)
{
    if (!n) return NULL;
    for (uint32_t i = 0; i < n->child_count; i++)
        if (!strcmp(n->children[i].name, name)) return &n->children[i];
    return NULL;
}

const kiln_fbx_node *kiln_fbx_next(const kiln_fbx_node *n, const kiln_fbx_node *after,
                                   const char *name)
{
    if (!n || !after || after < n->children || after >= n->children + n->child_count) return NULL;
    for (const kiln_fbx_node *c = after + 1; c < n->children + n->child_count; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

static bool scalar_number(char t)
{
    return t == 'C' || t == 'Y' || t == 'I' || t == 'L' || t == 'F' || t == 'D';
}

/* Value i of n as a one-element list (a number scalar, or a one-element array). */
static bool number_value(const kiln_fbx_node *n, uint32_t i, kiln_fbx_values *v)
{
    if (!n || i >= n->prop_count) return false;
    const kiln_fbx_prop *p = &n->props[i];
    if (scalar_number(p->type)) *v = (kiln_fbx_values){0, 1, NULL, p};
    else if (elem_size(p->type) && p->count == 1) *v = (kiln_fbx_values){p->type, 1, p->data, NULL};
    else return false;
    return true;
}

bool kiln_fbx_number(const kiln_fbx_node *n, uint32_t i, double *out)
{
    kiln_fbx_values v;
    if (!number_value(n, i, &v)) return false;
    *out = kiln_fbx_values_f64(&v, 0);
    return true;
}

bool kiln_fbx_integer(const kiln_fbx_node *n, uint32_t i, int64_t *out)
{
    kiln_fbx_values v;
    if (!number_value(n, i, &v)) return false;
    *out = kiln_fbx_values_i64(&v, 0);
    return true;
}

const char *kiln_fbx_string(const kiln_fbx_node *n, uint32_t i, size_t *len)
{
    if (!n || i >= n->prop_count || n->props[i].type != 'S') return NULL;
    if (len) *len = n->props[i].count;
    return n->props[i].data;
}

bool kiln_fbx_values_of(const kiln_fbx_node *n, kiln_fbx_values *out)
{
    memset(out, 0, sizeof *out);
    if (!n) return false;
    if (n->prop_count == 1 && elem_size(n->props[0].type)) {
        out->type = n->props[0].type;
        out->count = n->props[0].count;
        out->data = n->props[0].data;
        return true;
    }
    for (uint32_t i = 0; i < n->prop_count; i++)
        if (!scalar_number(n->props[i].type)) return false;
    out->count = n->prop_count;
    out->props = n->props;
    return true;
}

double kiln_fbx_values_f64(const kiln_fbx_values *v, size_t i)
{
    if (i >= v->count) return 0;
    switch (v->type) {
    case 0:
        return v->props[i].d;
    case 'b':
    case 'c':
        return ((const uint8_t *)v->data)[i] != 0;
    case 'i':
        return ((const int32_t *)v->data)[i];
    case 'l':
        return (double)((const int64_t *)v->data)[i];
    case 'f':
        return ((const float *)v->data)[i];
    case 'd':
        return ((const double *)v->data)[i];
    default:
        return 0;
    }
}

int64_t kiln_fbx_values_i64(const kiln_fbx_values *v, size_t i)
{
    if (i >= v->count) return 0;
    switch (v->type) {
    case 0:
        return v->props[i].i;
    case 'b':
    case 'c':
        return ((const uint8_t *)v->data)[i] != 0;
    case 'i':
        return ((const int32_t *)v->data)[i];
    case 'l':
        return ((const int64_t *)v->data)[i];
    default:
        return truncate_i64(kiln_fbx_values_f64(v, i));
    }
}

const kiln_fbx_node *kiln_fbx_property(const kiln_fbx_node *object, const char *name,
                                       uint32_t *first)
{
    static const char *const blocks[2] = {"Properties70", "Properties60"};
    static const char *const entries[2] = {"P", "Property"};
    for (int b = 0; b < 2; b++) {
        const kiln_fbx_node *block = kiln_fbx_child(object, blocks[b]);
        if (!block) continue;
        for (uint32_t i = 0; i < block->child_count; i++) {
            const kiln_fbx_node *p = &block->children[i];
            const char *pn = strcmp(p->name, entries[b]) ? NULL : kiln_fbx_string(p, 0, NULL);
            if (pn && !strcmp(pn, name)) {
                if (first) *first = b == 0 ? 4 : 3;
                return p;
            }
        }
    }
    return NULL;
}

double kiln_fbx_property_number(const kiln_fbx_node *object, const char *name, uint32_t k,
                                double dflt)
{
    uint32_t first = 0;
    const kiln_fbx_node *p = kiln_fbx_property(object, name, &first);
    if (!p) return dflt;
    double v;
    if (kiln_fbx_number(p, first + k, &v)) return v;
    /* An ASCII list of values after the name fields stays a run of scalars; a 7.x binary
     * writer never packs them; but a property given as one array is read as one. */
    kiln_fbx_values vals;
    if (first < p->prop_count && p->prop_count == first + 1) {
        kiln_fbx_node one = {p->name, p->props + first, 1, NULL, 0, p->offset};
        if (kiln_fbx_values_of(&one, &vals) && k < vals.count) return kiln_fbx_values_f64(&vals, k);
    }
    return dflt;
}

const char *kiln_fbx_object_name(const char *s, size_t size, size_t *len)
{
    if (!s) {
        if (len) *len = 0;
        return "";
    }
    size_t n = strnlen(s, size);
    if (n < size && n + 1 < size && s[n + 1] == '\x01') {
        if (len) *len = n; /* "Name\0\1Class" */
        return s;
    }
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == ':' && s[i + 1] == ':') {
            if (len) *len = n - i - 2;
            return s + i + 2;
        }
    if (len) *len = n;
    return s;
}
