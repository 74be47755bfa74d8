/* cmd_report.c — kiln report: the state of every asset; processes nothing. */
#include <string.h>

#include "cli.h"

int kiln_cmd_report(int argc, char **argv)
{
    kiln_cli c = {.command = "report"};
    if (!kiln_cli_parse(&c, argc, argv, "")) {
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
        json_t *t = json_object_get(d, "totals");
        printf("%lld assets: %lld up_to_date, %lld stale, %lld not_imported, %lld invalid, "
               "%lld unsupported; cache %lld bytes\n",
               json_integer_value(json_object_get(t, "assets")),
               json_integer_value(json_object_get(t, "up_to_date")),
               json_integer_value(json_object_get(t, "stale")),
               json_integer_value(json_object_get(t, "not_imported")),
               json_integer_value(json_object_get(t, "invalid")),
               json_integer_value(json_object_get(t, "unsupported")),
               json_integer_value(json_object_get(json_object_get(d, "cache"), "size")));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
