/* cmd_report.c — kiln report [--check] [--verbose]: the state of every asset, and with --verbose
 * each file the scan skipped and why; processes nothing. */
#include <string.h>

#include "cli.h"

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
        fputc('\n', stderr);
    }
    if (bad)
        fprintf(stderr, "kiln report: --check: %zu of %zu assets are not up to date\n", bad,
                json_array_size(json_object_get(d, "assets")));
    json_decref(d);
    return bad ? KILN_EXIT_FAILED : KILN_EXIT_OK;
}

int kiln_cmd_report(int argc, char **argv)
{
    kiln_cli c = {.command = "report"};
    if (!kiln_cli_parse(&c, argc, argv, "--check --verbose")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    if (c.positional_count) {
        return kiln_cli_usage(&c, "report takes no paths");
    }
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_project_report(p, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
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
            putchar('\n');
        }
        /* What the scan left out: listed with --verbose, else counted. */
        json_t *skipped = json_object_get(d, "skipped");
        json_array_foreach (skipped, i, row) {
            if (!c.verbose) break;
            printf("%-13s %-12s %s%s: %s\n", "skipped", "-",
                   json_string_value(json_object_get(row, "path")),
                   json_is_true(json_object_get(row, "folder")) ? "/" : "",
                   json_string_value(json_object_get(row, "message")));
        }
        if (json_array_size(skipped) && !c.verbose)
            printf("%zu skipped (owned by a model or excluded; --verbose lists them)\n",
                   json_array_size(skipped));
        json_t *t = json_object_get(d, "totals");
        printf("%lld assets: %lld up_to_date, %lld stale, %lld not_imported, %lld invalid, "
               "%lld unsupported; cache %s\n",
               json_integer_value(json_object_get(t, "assets")),
               json_integer_value(json_object_get(t, "up_to_date")),
               json_integer_value(json_object_get(t, "stale")),
               json_integer_value(json_object_get(t, "not_imported")),
               json_integer_value(json_object_get(t, "invalid")),
               json_integer_value(json_object_get(t, "unsupported")),
               kiln_cli_format_size((uint64_t)json_integer_value(
                                        json_object_get(json_object_get(d, "cache"), "size")),
                                    size));
        json_decref(d);
    }
    if (r == KILN_OK && c.check) code = report_check(doc);
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
