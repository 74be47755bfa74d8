/* cli.c — option parsing, opening the project, printing errors and documents. */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void log_to_stderr(void *user, int level, const char *message)
{
    (void)user;
    fprintf(stderr, "kiln: %s: %s\n",
            level == 0   ? "error"
            : level == 1 ? "warning"
                         : "info",
            message);
}

/* -q: errors only (the library's max_level cannot say that: 0 there means warnings too). */
static void log_errors_to_stderr(void *user, int level, const char *message)
{
    if (level == 0) log_to_stderr(user, level, message);
}

static bool allowed_opt(const char *allowed, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = allowed ? strstr(allowed, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

static bool usage_error(const kiln_cli *c, const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    if (c->json) {
        json_t *d = json_pack("{s:s,s:{s:s,s:s}}", "command", c->command, "error", "code",
                              "E_USAGE", "message", msg);
        char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(d);
    }
    fprintf(stderr, "kiln %s: %s (see kiln help)\n", c->command, msg);
    return false;
}

bool kiln_cli_parse(kiln_cli *c, int argc, char **argv, const char *allowed)
{
    c->positional = calloc((size_t)argc + 1, sizeof *c->positional);
    c->sets = calloc((size_t)argc + 3, sizeof *c->sets); /* + --format, --quality, --textures */
    c->remotes = calloc((size_t)argc + 1, sizeof *c->remotes);
    c->defines = calloc((size_t)argc + 1, sizeof *c->defines);
    c->include_dirs = calloc((size_t)argc + 1, sizeof *c->include_dirs);
    if (!c->positional || !c->sets || !c->remotes || !c->defines || !c->include_dirs) return false;
    /* --json first, so usage errors come out in the form asked for. */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--json")) c->json = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE(field)                                                                                \
    do {                                                                                           \
        if (!next || !strncmp(next, "--", 2)) return usage_error(c, "%s needs a value", a);        \
        c->field = next;                                                                           \
        i++;                                                                                       \
    } while (0)
        if (!strcmp(a, "--json")) continue;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) c->quiet = true;
        else if (!strcmp(a, "--verbose") && allowed_opt(allowed, a)) c->verbose = true;
        else if (!strcmp(a, "--root")) TAKE(root);
        else if (!strcmp(a, "--out")) TAKE(out);
        else if (!strcmp(a, "--cache")) TAKE(cache);
        else if (!strcmp(a, "--platform")) TAKE(platform);
        else if (!strcmp(a, "-j") || !strcmp(a, "--jobs") || (!strncmp(a, "-j", 2) && a[2])) {
            const char *num = a[2] && a[1] == 'j' ? a + 2 : next; /* -j 2 or -j2 */
            if (!num) return usage_error(c, "%s needs a number", a);
            char *end;
            long v = strtol(num, &end, 10);
            if (*end || !*num || v < 0 || v > 64)
                return usage_error(c, "bad job count %s (0..64)", num);
            c->jobs = (unsigned)v;
            if (num == next) i++;
        } else if (!strcmp(a, "--all") && allowed_opt(allowed, a)) c->all = true;
        else if (!strcmp(a, "--force") && allowed_opt(allowed, a)) c->force = true;
        else if (!strcmp(a, "--set") && allowed_opt(allowed, a)) {
            if (!next) return usage_error(c, "%s needs a value", a);
            c->sets[c->set_count++] = next;
            i++;
        } else if (!strcmp(a, "--settings") && allowed_opt(allowed, a)) TAKE(settings);
        else if (!strcmp(a, "--max-size") && allowed_opt(allowed, a)) TAKE(max_size);
        else if (!strcmp(a, "--format") && allowed_opt(allowed, a)) TAKE(format);
        else if (!strcmp(a, "--quality") && allowed_opt(allowed, a)) TAKE(quality);
        else if (!strcmp(a, "--textures") && allowed_opt(allowed, a)) TAKE(textures);
        else if (!strcmp(a, "--compare") && allowed_opt(allowed, a)) TAKE(compare);
        else if (!strcmp(a, "--remote-cache") && allowed_opt(allowed, a)) {
            if (!next || !strncmp(next, "--", 2)) return usage_error(c, "%s needs a URL", a);
            c->remotes[c->remote_count++] = next;
            i++;
        } else if (!strcmp(a, "--shard") && allowed_opt(allowed, a)) TAKE(shard);
        else if (!strcmp(a, "--ninja") && allowed_opt(allowed, a)) c->ninja = true;
        else if (!strcmp(a, "--check") && allowed_opt(allowed, a)) c->check = true;
        else if (!strcmp(a, "--why") && allowed_opt(allowed, a)) c->why = true;
        else if (!strcmp(a, "--verify") && allowed_opt(allowed, a)) c->verify = true;
        else if (!strcmp(a, "--html") && allowed_opt(allowed, a)) c->html = true;
        else if (!strcmp(a, "--repair") && allowed_opt(allowed, a)) c->repair = true;
        else if (!strcmp(a, "-o") && allowed_opt(allowed, a)) TAKE(output);
        else if (!strcmp(a, "--stage") && allowed_opt(allowed, a)) TAKE(stage);
        else if (!strcmp(a, "--entry") && allowed_opt(allowed, a)) TAKE(entry);
        else if (!strcmp(a, "--variant") && allowed_opt(allowed, a)) TAKE(variant);
        else if (!strcmp(a, "--define") && allowed_opt(allowed, a)) {
            if (!next) return usage_error(c, "%s needs NAME or NAME=VALUE", a);
            c->defines[c->define_count++] = next;
            i++;
        } else if (!strcmp(a, "--include-dir") && allowed_opt(allowed, a)) {
            if (!next) return usage_error(c, "%s needs a folder", a);
            c->include_dirs[c->include_dir_count++] = next;
            i++;
        } else if (a[0] == '-' && a[1] != '\0') return usage_error(c, "unknown option %s", a);
        else c->positional[c->positional_count++] = a;
#undef TAKE
    }
    return true;
}

int kiln_cli_exit_for(kiln_result r)
{
    if (r == KILN_OK) return KILN_EXIT_OK;
    if (r == KILN_E_USAGE || r == KILN_E_IMPORT_SETTINGS || r == KILN_E_OUTPUT_REFUSED)
        return KILN_EXIT_USAGE;
    return KILN_EXIT_FAILED;
}

int kiln_cli_fail(const kiln_cli *c, kiln_result r, const kiln_error *err)
{
    if (c->json) {
        json_t *e = json_object();
        json_object_set_new(e, "code", json_string(kiln_result_name(r)));
        json_object_set_new(e, "message", json_string(err->message));
        if (err->path[0]) json_object_set_new(e, "path", json_string(err->path));
        if (err->json_pointer[0] || r == KILN_E_IMPORT_SETTINGS)
            json_object_set_new(e, "json_pointer", json_string(err->json_pointer));
        json_t *d = json_object();
        json_object_set_new(d, "command", json_string(c->command));
        json_object_set_new(d, "error", e);
        char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(d);
    } else {
        fprintf(stderr, "kiln %s: %s: %s", c->command, kiln_result_name(r), err->message);
        /* Importers may start the message with the pointer already ("/nodes/0: ..."). */
        size_t plen = strlen(err->json_pointer);
        if (plen &&
            !(strncmp(err->message, err->json_pointer, plen) == 0 && err->message[plen] == ':'))
            fprintf(stderr, " (at %s)", err->json_pointer);
        fputc('\n', stderr);
    }
    return kiln_cli_exit_for(r);
}

void kiln_cli_project_opts(const kiln_cli *c, kiln_project_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->root = c->root;
    o->out = c->out;
    o->cache = c->cache;
    o->platform = c->platform;
    o->jobs = c->jobs;
}

kiln_project *kiln_cli_open(const kiln_cli *c, int *exit_code)
{
    kiln_project_opts o;
    kiln_cli_project_opts(c, &o);
    o.progress = !c->json && !c->quiet;
    o.log.fn = c->quiet ? log_errors_to_stderr : log_to_stderr;
    o.log.max_level = 1;
    kiln_project *p = NULL;
    kiln_error err;
    kiln_result r = kiln_project_open(&o, &p, &err);
    if (r != KILN_OK) {
        *exit_code = kiln_cli_fail(c, r, &err);
        return NULL;
    }
    return p;
}

const char *kiln_cli_summary_text(const json_t *s, bool brief, char *out, size_t cap)
{
    char size[32];
    out[0] = '\0';
    if (!s) return out;
    if (json_object_get(s, "meshes")) { /* a model */
        int n = snprintf(out, cap, "%zu meshes, %lld triangles, %zu images, %lld materials",
                         json_array_size(json_object_get(s, "meshes")),
                         json_integer_value(json_object_get(s, "triangles")),
                         json_array_size(json_object_get(s, "images")),
                         json_integer_value(json_object_get(s, "materials")));
        const json_t *typed = json_object_get(s, "typed_materials"); /* templates named */
        if (typed && n > 0 && (size_t)n < cap)
            n += snprintf(out + n, cap - (size_t)n, " (%zu typed)", json_array_size(typed));
        if (!brief && n > 0 && (size_t)n < cap)
            snprintf(out + n, cap - (size_t)n, ", %zu skeletons, %zu clips",
                     json_array_size(json_object_get(s, "skeletons")),
                     json_array_size(json_object_get(s, "clips")));
    } else if (json_object_get(s, "fragment")) { /* a typed material */
        snprintf(out, cap, "%s + %s, %lld parameters in %lld bytes, %lld textures",
                 json_string_value(json_object_get(s, "vertex")),
                 json_string_value(json_object_get(s, "fragment")),
                 json_integer_value(json_object_get(s, "parameters")),
                 json_integer_value(json_object_get(s, "block_size")),
                 json_integer_value(json_object_get(s, "textures")));
    } else if (json_object_get(s, "variants")) { /* a shader */
        long long v = json_integer_value(json_object_get(s, "variants"));
        snprintf(out, cap, "%s, %lld variant%s, %s of SPIR-V",
                 json_string_value(json_object_get(s, "stage")), v, v == 1 ? "" : "s",
                 kiln_cli_format_size(
                     (uint64_t)json_integer_value(json_object_get(s, "spirv_bytes")), size));
    } else {
        /* "bc7 64x64, 7 levels"; other shapes: "bc7 64x64 cube", "rgba8 32x32 array of 3",
         * "bc4 16x16x8 volume" */
        const char *shape = json_string_value(json_object_get(s, "shape"));
        char what[64] = "";
        if (shape && !strcmp(shape, "array"))
            snprintf(what, sizeof what, " array of %lld",
                     json_integer_value(json_object_get(s, "layers")));
        else if (shape && !strcmp(shape, "volume"))
            snprintf(what, sizeof what, "x%lld volume",
                     json_integer_value(json_object_get(s, "depth")));
        else if (shape) snprintf(what, sizeof what, " %s", shape);
        snprintf(out, cap, "%s %lldx%lld%s, %lld levels",
                 json_string_value(json_object_get(s, "format")),
                 json_integer_value(json_object_get(s, "width")),
                 json_integer_value(json_object_get(s, "height")), what,
                 json_integer_value(json_object_get(s, "levels")));
    }
    return out;
}

void kiln_cli_print_json(const char *doc)
{
    fputs(doc, stdout);
    fputc('\n', stdout);
}

void kiln_cli_free(kiln_cli *c)
{
    free(c->positional);
    free(c->sets);
    free(c->remotes);
    free(c->defines);
    free(c->include_dirs);
    c->positional = NULL;
    c->sets = NULL;
    c->remotes = NULL;
    c->defines = c->include_dirs = NULL;
}

int kiln_cli_usage(kiln_cli *c, const char *fmt, ...)
{
    kiln_error e = {.code = KILN_E_USAGE};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    e.offset = UINT64_MAX;
    int code = kiln_cli_fail(c, KILN_E_USAGE, &e);
    kiln_cli_free(c);
    return code;
}

bool kiln_cli_setup_remote(const kiln_cli *c, kiln_project *p, int *exit_code)
{
    kiln_remote_opts o = {0};
    o.struct_size = sizeof o;
    o.urls = c->remotes;
    o.url_count = (size_t)c->remote_count;
    kiln_error err = {.code = KILN_E_USAGE, .offset = UINT64_MAX};
    if (c->shard) {
        unsigned i = 0, n = 0;
        char tail = 0;
        if (sscanf(c->shard, "%u/%u%c", &i, &n, &tail) != 2 || n == 0 || n > 65536 || i >= n) {
            snprintf(err.message, sizeof err.message,
                     "bad --shard %.100s: give INDEX/COUNT with 0 <= INDEX < COUNT", c->shard);
            *exit_code = kiln_cli_fail(c, KILN_E_USAGE, &err);
            return false;
        }
        o.shard_index = i;
        o.shard_count = n;
    }
    kiln_result r = kiln_project_set_remote(p, &o, &err);
    if (r != KILN_OK) {
        *exit_code = kiln_cli_fail(c, r, &err);
        return false;
    }
    return true;
}

void kiln_cli_add_remote_stats(kiln_project *p, char **doc)
{
    char *stats = kiln_project_remote_stats(p);
    if (!stats || !*doc) {
        kiln_string_free(stats);
        return;
    }
    json_t *d = json_loads(*doc, 0, NULL), *st = json_loads(stats, 0, NULL);
    kiln_string_free(stats);
    if (d && st && !json_object_get(d, "remote")) {
        json_object_set(d, "remote", st);
        char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
        if (s) {
            kiln_string_free(*doc);
            *doc = s;
        }
    }
    json_decref(st);
    json_decref(d);
}

/* Binary units for people: a size is counted in powers of 1024 and labelled so (IEC), whatever
 * unit it was given in. One decimal, as du -h and ls -lh print. */
const char *kiln_cli_format_size(uint64_t bytes, char buf[32])
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) {
        snprintf(buf, 32, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
        return buf;
    }
    double v = (double)bytes / 1024.0;
    size_t u = 0;
    /* 1023.96 KiB would print as "1024.0 KiB": move up a unit before it rounds to 1024. */
    while (v >= 1023.95 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, 32, "%.1f %s", v, units[u]);
    return buf;
}

bool kiln_cli_parse_size(const char *text, uint64_t *out)
{
    /* GNU coreutils' convention (sort -S, head -c, df -B): K, M, G, T, P, E alone or with iB are
     * powers of 1024, with B (KB, MB ...) powers of 1000; no unit or B is bytes. Letters in any
     * case. A fraction needs a unit (1.5G); the result is rounded down to a whole byte. */
    const char *p = text;
    uint64_t whole = 0;
    size_t digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        unsigned d = (unsigned)(*p - '0');
        if (whole > (UINT64_MAX - d) / 10) return false;
        whole = whole * 10 + d;
    }
    double frac = 0.0, scale = 0.1;
    size_t frac_digits = 0;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, frac_digits++, scale /= 10.0)
            frac += (double)(*p - '0') * scale;
    if (digits == 0 && frac_digits == 0) return false;
    static const char prefixes[] = "KMGTPE";
    uint64_t mult = 1;
    if (*p && *p != 'b' && *p != 'B') {
        const char *at = strchr(prefixes, *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
        if (!at || !*at) return false;
        p++;
        unsigned base = 1024;
        if (*p == 'i' || *p == 'I') {
            p++;
            if (*p != 'b' && *p != 'B') return false;
            p++;
        } else if (*p == 'b' || *p == 'B') {
            base = 1000;
            p++;
        }
        for (const char *q = prefixes; q <= at; q++) mult *= base;
    } else if (*p) {
        p++; /* "B": bytes */
        if (frac_digits) return false;
    }
    if (*p) return false;
    if (mult == 1 && frac_digits) return false;
    if (whole > UINT64_MAX / mult) return false;
    double extra = frac * (double)mult;
    uint64_t value = whole * mult;
    if (extra >= 18446744073709551616.0 || value > UINT64_MAX - (uint64_t)extra) return false;
    *out = value + (uint64_t)extra;
    return true;
}
