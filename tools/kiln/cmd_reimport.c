/* cmd_reimport.c — kiln reimport PATH [--set texture.format=rgba8 ...] [--settings JSON]. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void print_value(const json_t *v)
{
    if (json_is_real(v)) {
        printf("%.15g", json_real_value(v));
        return;
    }
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
    fputs(s ? s : "?", stdout);
    free(s);
}

static void print_size(const json_t *v)
{
    char buf[32];
    if (json_is_integer(v))
        fputs(kiln_cli_format_size((uint64_t)json_integer_value(v), buf), stdout);
    else fputs("none", stdout);
}

/* What changed: "  texture.format: "auto" -> "bc1"", then "  texture: 1.2 KiB -> 512 bytes". */
static void print_changes(const json_t *changes)
{
    size_t i;
    const json_t *c;
    json_array_foreach (json_object_get(changes, "settings"), i, c) {
        printf("  %s: ", json_string_value(json_object_get(c, "path")));
        print_value(json_object_get(c, "before"));
        fputs(" -> ", stdout);
        print_value(json_object_get(c, "after"));
        putchar('\n');
    }
    if (json_array_size(json_object_get(changes, "settings")) == 0)
        printf("  settings unchanged\n");
    json_array_foreach (json_object_get(changes, "outputs"), i, c) {
        printf("  %s: ", json_string_value(json_object_get(c, "label")));
        print_size(json_object_get(c, "before"));
        fputs(" -> ", stdout);
        print_size(json_object_get(c, "after"));
        putchar('\n');
    }
}

int kiln_cmd_reimport(int argc, char **argv)
{
    kiln_cli c = {.command = "reimport"};
    if (!kiln_cli_parse(&c, argc, argv, "--set --settings --remote-cache")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    if (c.positional_count != 1) {
        return kiln_cli_usage(&c, "reimport takes exactly one PATH");
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
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_project_reimport(p, c.positional[0], c.settings, c.sets,
                                          (size_t)c.set_count, &doc, &err);
    kiln_cli_add_remote_stats(p, &doc);
    if (r != KILN_OK && !doc) {
        code = kiln_cli_fail(&c, r, &err);
    } else {
        if (c.json) {
            kiln_cli_print_json(doc);
        } else {
            json_t *d = json_loads(doc, 0, NULL);
            json_t *rec = json_object_get(d, "record");
            const char *status = json_string_value(json_object_get(rec, "status"));
            if (status && !strcmp(status, "failed")) {
                json_t *e = json_object_get(rec, "error");
                printf("failed    %s: %s %s\n", c.positional[0],
                       json_string_value(json_object_get(e, "code")),
                       json_string_value(json_object_get(e, "message")));
            } else if (!c.quiet) {
                printf("reimported %s: output %s\n", c.positional[0],
                       json_is_true(json_object_get(rec, "unchanged")) ? "unchanged" : "changed");
                print_changes(json_object_get(d, "changes"));
            }
            json_decref(d);
        }
        code = kiln_cli_exit_for(r);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
