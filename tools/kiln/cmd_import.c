/* cmd_import.c — kiln import [PATH...|--all] [--force] [--verbose] [-q]. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One line per asset, then its warnings. A cached asset's warnings were said when it was cooked:
 * they are not said again on every run (the record keeps them), only counted, unless --verbose.
 * -q prints failures only. */
static void print_record(const kiln_cli *c, const json_t *rec)
{
    const char *status = json_string_value(json_object_get(rec, "status"));
    const char *path = json_string_value(json_object_get(rec, "path"));
    if (!status) status = "?";
    bool failed = !strcmp(status, "failed");
    if (c->quiet && !failed) return;
    if (failed) {
        const json_t *e = json_object_get(rec, "error");
        const char *ptr = json_string_value(json_object_get(e, "json_pointer"));
        printf("failed       %s: %s %s", path, json_string_value(json_object_get(e, "code")),
               json_string_value(json_object_get(e, "message")));
        if (ptr && ptr[0]) printf(" (at %s)", ptr);
        /* the failure of this very key, reported again without cooking (docs/cache.md) */
        if (json_object_get(rec, "failure")) printf(" (as before: --force cooks again)");
        putchar('\n');
        return;
    }
    const json_t *s = json_object_get(rec, "summary");
    printf("%-12s %s", status, path);
    char text[256];
    if (s) printf("  %s", kiln_cli_summary_text(s, false, text, sizeof text));
    const json_t *u = json_object_get(rec, "unchanged");
    if (u) printf(json_is_true(u) ? "  (unchanged)" : "  (changed)");
    const json_t *warnings = json_object_get(rec, "warnings");
    size_t count = json_array_size(warnings);
    bool repeat = c->verbose || strcmp(status, "cached") != 0;
    if (count && !repeat)
        printf("  (%zu warning%s; --verbose shows %s)", count, count == 1 ? "" : "s",
               count == 1 ? "it" : "them");
    putchar('\n');
    size_t i;
    const json_t *w;
    if (repeat)
        json_array_foreach (warnings, i, w)
            printf("             warning: %s\n", json_string_value(w));
}

int kiln_cmd_import(int argc, char **argv)
{
    kiln_cli c = {.command = "import"};
    if (!kiln_cli_parse(&c, argc, argv, "--all --force --remote-cache --shard --verbose")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    if (!c.all && c.positional_count == 0) {
        return kiln_cli_usage(&c, "give paths to import, or --all");
    }
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    if (!kiln_cli_setup_remote(&c, p, &code)) {
        kiln_project_close(p);
        kiln_cli_free(&c);
        return code;
    }
    /* --all lists what it did (imported, failed), not what was already cached: at thousands of
     * assets a no-op then costs a look-up per asset (KILN_IMPORT_CHANGES_ONLY), and says so in
     * one line. --verbose and --json list every asset; so does a run on named paths. */
    bool changes_only = c.all && !c.verbose && !c.json;
    uint32_t flags = (c.all ? KILN_IMPORT_ALL : 0) | (c.force ? KILN_IMPORT_FORCE : 0) |
                     (changes_only ? KILN_IMPORT_CHANGES_ONLY : 0);
    char *doc = NULL;
    kiln_error err;
    kiln_result r =
        kiln_project_import(p, c.positional, (size_t)c.positional_count, flags, &doc, &err);
    if (!doc) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        size_t i;
        json_t *rec;
        json_array_foreach (json_object_get(d, "records"), i, rec) print_record(&c, rec);
        json_t *t = json_object_get(d, "totals");
        json_int_t warned = json_integer_value(json_object_get(t, "cached_with_warnings"));
        if (!c.quiet) {
            printf("%lld assets: %lld imported, %lld cached",
                   json_integer_value(json_object_get(t, "assets")),
                   json_integer_value(json_object_get(t, "imported")),
                   json_integer_value(json_object_get(t, "cached")));
            if (changes_only && warned)
                printf(" (%lld with warnings; --verbose lists them)", (long long)warned);
            printf(", %lld failed\n", json_integer_value(json_object_get(t, "failed")));
        }
        json_t *rm = json_object_get(d, "remote"), *sh = json_object_get(d, "shard");
        if (rm && !c.quiet)
            printf("remote cache: %lld hits, %lld misses, %lld uploads, %lld errors\n",
                   json_integer_value(json_object_get(rm, "hits")),
                   json_integer_value(json_object_get(rm, "misses")),
                   json_integer_value(json_object_get(rm, "uploads")),
                   json_integer_value(json_object_get(rm, "errors")));
        if (sh && !c.quiet)
            printf("shard %lld/%lld: %lld assets belong to other shards\n",
                   json_integer_value(json_object_get(sh, "index")),
                   json_integer_value(json_object_get(sh, "count")),
                   json_integer_value(json_object_get(sh, "skipped")));
        json_decref(d);
    }
    if (doc) {
        /* One path: its error is the command's (settings errors are exit 2); several: exit 1. */
        if (r != KILN_OK)
            code = c.positional_count == 1 && !c.all ? kiln_cli_exit_for(r) : KILN_EXIT_FAILED;
        if (r != KILN_OK && !c.json && c.positional_count == 1 && !c.all)
            fprintf(stderr, "kiln import: %s: %s%s%s%s\n", kiln_result_name(r), err.message,
                    err.json_pointer[0] ? " (at " : "", err.json_pointer,
                    err.json_pointer[0] ? ")" : "");
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
