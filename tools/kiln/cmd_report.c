/* cmd_report.c — kiln report [--check] [--verbose] [--verify] [--why [PATH...]] [--html [-o
 * FILE]]: the state of every asset, and with --verbose each file the scan skipped and why;
 * processes nothing. With --why, what changed since each stale asset's import, one line per
 * reason; with --verify, every source and output read again (damaged entries, records that lie);
 * with --html, a static page of it all with pictures (report_html.c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_html.h"

/* real (resolved) as a name: its path below root after prefix ("" with one root); false when it
 * is not root or below it. */
static bool name_below(const char *real, const char *root, const char *prefix, char *out,
                       size_t size)
{
    size_t n = root ? strlen(root) : 0;
    if (!n || strncmp(real, root, n) != 0 || (real[n] != '/' && real[n] != '\0')) return false;
    const char *rest = real[n] ? real + n + 1 : "";
    snprintf(out, size, "%s%s%s", prefix, prefix[0] && rest[0] ? "/" : "", rest);
    return true;
}

/* The asset path a command-line PATH names, relative to the root: a path that exists is taken
 * from the current folder, anything else as relative to the root already. With several roots
 * (the document's "roots") a file's name starts with the prefix of the root holding it. */
static void path_in_root(const json_t *d, const char *path, char *out, size_t size)
{
    char real[PATH_MAX];
    json_t *roots = json_object_get(d, "roots"), *dir;
    const char *prefix;
    bool named = false;
    if (realpath(path, real)) {
        if (!roots)
            named = name_below(real, json_string_value(json_object_get(d, "root")), "", out, size);
        json_object_foreach (roots, prefix, dir)
            if (!named) named = name_below(real, json_string_value(dir), prefix, out, size);
    }
    if (!named) snprintf(out, size, "%s", path);
    size_t len = strlen(out);
    while (len > 0 && out[len - 1] == '/') out[--len] = '\0';
}

/* Whether the asset is one of the PATHs (an asset, or a folder holding it); all with none. */
static bool selected(const kiln_cli *c, const json_t *d, const char *asset)
{
    if (!c->positional_count) return true;
    for (int i = 0; i < c->positional_count; i++) {
        char want[PATH_MAX];
        path_in_root(d, c->positional[i], want, sizeof want);
        size_t n = strlen(want);
        if (!n || (!strncmp(asset, want, n) && (asset[n] == '\0' || asset[n] == '/'))) return true;
    }
    return false;
}

static const char *layer_text(const char *layer)
{
    if (!strcmp(layer, "project")) return "a kiln.json default";
    if (!strcmp(layer, "folder")) return "a folder default";
    if (!strcmp(layer, "meta")) return "its own .meta";
    if (!strcmp(layer, "platform")) return "a platform override";
    return "kiln's default";
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "-";
}

/* One line per reason: "ui/a.png: setting texture.mipmaps true -> false (from ...)". */
void kiln_report_print_reason(FILE *out, const char *path, const json_t *r)
{
    const char *what = str(r, "what");
    fprintf(out, "%s: ", path);
    if (!strcmp(what, "source")) {
        fprintf(out, "the source bytes changed\n");
    } else if (!strcmp(what, "dependency")) {
        fprintf(out, "dependency %s %s\n", str(r, "path"), str(r, "change"));
    } else if (!strcmp(what, "setting")) {
        char *then = json_dumps(json_object_get(r, "old"), JSON_ENCODE_ANY | JSON_COMPACT);
        char *now = json_dumps(json_object_get(r, "new"), JSON_ENCODE_ANY | JSON_COMPACT);
        const char *origin = str(r, "origin"), *old_origin = str(r, "old_origin");
        fprintf(out, "setting %s %s -> %s (", str(r, "setting"), then ? then : "?",
                now ? now : "?");
        if (strcmp(origin, "default") != 0) fprintf(out, "from %s, ", origin);
        fprintf(out, "%s", layer_text(str(r, "layer")));
        if (strcmp(old_origin, origin) != 0)
            fprintf(out, "; was %s", strcmp(old_origin, "default") ? old_origin : "kiln's default");
        fprintf(out, ")\n");
        free(then);
        free(now);
    } else if (!strcmp(what, "record")) {
        fprintf(out, "%s\n", str(r, "message"));
    } else if (!strcmp(what, "pipeline")) {
        fprintf(out, "kiln's pipeline version changed (%lld -> %lld)\n",
                json_integer_value(json_object_get(r, "old")),
                json_integer_value(json_object_get(r, "new")));
    } else if (!strcmp(what, "kind") || !strcmp(what, "platform")) {
        const json_t *o = json_object_get(r, "old"), *n = json_object_get(r, "new");
        fprintf(out, "the %s changed (%s -> %s)%s\n", what,
                json_is_string(o) ? json_string_value(o) : "none",
                json_is_string(n) ? json_string_value(n) : "none",
                strcmp(what, "platform") ? "" : ", and format auto picks by platform");
    } else {
        fprintf(out, "%s\n", str(r, "message"));
    }
}

static void print_why(const kiln_cli *c, json_t *d)
{
    size_t i, j, stale = 0;
    json_t *row, *r;
    json_array_foreach (json_object_get(d, "assets"), i, row) {
        const char *path = str(row, "path");
        if (!json_object_get(row, "why") || !selected(c, d, path)) continue;
        stale++;
        json_array_foreach (json_object_get(row, "why"), j, r)
            kiln_report_print_reason(stdout, path, r);
    }
    if (!stale) printf("nothing is stale\n");
}

/* --why PATH...: only the rows of those assets. */
static void filter_rows(const kiln_cli *c, json_t *d)
{
    json_t *rows = json_object_get(d, "assets");
    for (size_t i = json_array_size(rows); i-- > 0;)
        if (!selected(c, d, str(json_array_get(rows, i), "path"))) json_array_remove(rows, i);
}

/* --check (a CI gate): one line on stderr per asset that is not up to date; exit 1 if any. */
static int report_check(const char *doc)
{
    json_t *d = json_loads(doc, 0, NULL);
    size_t i, bad = 0;
    json_t *row;
    json_array_foreach (json_object_get(d, "assets"), i, row) {
        const char *state = json_string_value(json_object_get(row, "state"));
        if (state && !strcmp(state, "up_to_date")) continue;
        bad++;
        fprintf(stderr, "kiln report: %s: %s", json_string_value(json_object_get(row, "path")),
                state ? state : "?");
        json_t *e = json_object_get(row, "error");
        if (e)
            fprintf(stderr, ": %s %s", json_string_value(json_object_get(e, "code")),
                    json_string_value(json_object_get(e, "message")));
        if (json_object_get(row, "damage"))
            fprintf(stderr, ": %s", json_string_value(json_object_get(row, "damage")));
        fputc('\n', stderr);
    }
    if (bad)
        fprintf(stderr, "kiln report: --check: %zu of %zu assets are not up to date\n", bad,
                json_array_size(json_object_get(d, "assets")));
    json_decref(d);
    return bad ? KILN_EXIT_FAILED : KILN_EXIT_OK;
}

static void print_table(const kiln_cli *c, json_t *d)
{
    char size[32];
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(d, "assets"), i, row) {
        const char *state = json_string_value(json_object_get(row, "state"));
        const char *key = json_string_value(json_object_get(row, "key"));
        printf("%-13s %-12.12s %s", state, key ? key : "-",
               json_string_value(json_object_get(row, "path")));
        json_t *e = json_object_get(row, "error");
        if (e)
            printf(": %s %s", json_string_value(json_object_get(e, "code")),
                   json_string_value(json_object_get(e, "message")));
        if (json_object_get(row, "damage")) printf(": %s", str(row, "damage"));
        json_t *why = json_object_get(row, "why");
        if (c->verify && json_array_size(why) == 1 &&
            !strcmp(str(json_array_get(why, 0), "what"), "record"))
            printf(": %s", str(json_array_get(why, 0), "message"));
        putchar('\n');
    }
    /* What the scan left out: listed with --verbose, else counted. */
    json_t *skipped = json_object_get(d, "skipped");
    json_array_foreach (skipped, i, row) {
        if (!c->verbose) break;
        printf("%-13s %-12s %s%s: %s\n", "skipped", "-",
               json_string_value(json_object_get(row, "path")),
               json_is_true(json_object_get(row, "folder")) ? "/" : "",
               json_string_value(json_object_get(row, "message")));
    }
    if (json_array_size(skipped) && !c->verbose)
        printf("%zu skipped (owned by a model or excluded; --verbose lists them)\n",
               json_array_size(skipped));
    json_t *t = json_object_get(d, "totals");
    char damaged[48] = "";
    if (c->verify)
        snprintf(damaged, sizeof damaged, ", %lld damaged",
                 json_integer_value(json_object_get(t, "damaged")));
    printf("%lld assets: %lld up_to_date, %lld stale, %lld not_imported, %lld invalid, "
           "%lld unsupported%s; cache %s\n",
           json_integer_value(json_object_get(t, "assets")),
           json_integer_value(json_object_get(t, "up_to_date")),
           json_integer_value(json_object_get(t, "stale")),
           json_integer_value(json_object_get(t, "not_imported")),
           json_integer_value(json_object_get(t, "invalid")),
           json_integer_value(json_object_get(t, "unsupported")), damaged,
           kiln_cli_format_size(
               (uint64_t)json_integer_value(json_object_get(json_object_get(d, "cache"), "size")),
               size));
}

int kiln_cmd_report(int argc, char **argv)
{
    kiln_cli c = {.command = "report"};
    if (!kiln_cli_parse(&c, argc, argv, "--check --verbose --why --verify --html -o")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    if (c.positional_count && !c.why) {
        return kiln_cli_usage(&c, "report takes paths only with --why");
    }
    if (c.output && !c.html) return kiln_cli_usage(&c, "report takes -o only with --html");
    if (c.html && (c.why || c.json))
        return kiln_cli_usage(&c, "report --html writes a page: not with --%s",
                              c.why ? "why" : "json");
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    /* The table lists what is not up to date (--verbose: every asset), like the import of
     * --all: at thousands of assets an up-to-date one then costs a look-up in the index. */
    uint32_t flags = c.json || c.verbose || c.html ? 0 : KILN_REPORT_CHANGES_ONLY;
    if (c.verify) flags |= KILN_REPORT_VERIFY;
    kiln_result r = kiln_project_report_flags(p, flags, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.html) {
        code = kiln_report_html(&c, doc, c.output ? c.output : "report.html");
    } else if (c.json && !c.positional_count) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        if (c.json) {
            filter_rows(&c, d);
            char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
            kiln_cli_print_json(s);
            free(s);
        } else if (c.why) {
            print_why(&c, d);
        } else {
            print_table(&c, d);
        }
        json_decref(d);
    }
    if (r == KILN_OK && c.check && code == KILN_EXIT_OK) code = report_check(doc);
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
