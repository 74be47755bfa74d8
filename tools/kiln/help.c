/* help.c — `kiln COMMAND --help` (each subcommand's usage and options, and for the commands that
 * read settings one line per settings group with its fields) and `kiln help settings [GROUP]
 * [--json]`: every settings field with its type, default and allowed values, from the document
 * kiln_settings_describe builds out of the tables the validator uses. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char common_options[] = "\n" KILN_CLI_COMMON_OPTIONS "  -q, --quiet     errors only\n"
                                     "  -h, --help      this text\n";

static bool word_in(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

/* The groups and their fields, from kiln_settings_describe; NULL when it fails. */
static json_t *describe_settings(void)
{
    char *doc = NULL;
    kiln_error err;
    if (kiln_settings_describe(NULL, &doc, &err) != KILN_OK) return NULL;
    json_t *d = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    return d;
}

/* "  texture  format srgb mipmaps ..." per group the command's assets read, wrapped. */
static void print_settings_lines(const char *which)
{
    json_t *d = describe_settings();
    printf("\nsettings (--set GROUP.FIELD=VALUE, or in PATH.meta; `kiln help settings` gives each "
           "field's\ntype, default and allowed values):\n");
    size_t i, f;
    json_t *g, *field;
    json_array_foreach (json_object_get(d, "groups"), i, g) {
        const char *name = json_string_value(json_object_get(g, "name"));
        if (!name || (strcmp(which, "*") != 0 && !word_in(which, name))) continue;
        int col = printf("  %-8s", name);
        json_array_foreach (json_object_get(g, "fields"), f, field) {
            const char *fname = json_string_value(json_object_get(field, "name"));
            if (col + 1 + (int)strlen(fname) > 99) col = printf("\n  %-8s", "") - 1;
            col += printf(" %s", fname);
        }
        putchar('\n');
    }
    json_decref(d);
}

bool kiln_cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
    return false;
}

int kiln_cli_print_command_help(const char *command)
{
    const kiln_cli_command *c = kiln_cli_command_find(command);
    if (!c) return -1;
    fputs(c->usage, stdout);
    if (c->settings) print_settings_lines(c->settings);
    fputs(common_options, stdout);
    return KILN_EXIT_OK;
}

/* A number of the descriptor as people write it: 16384, 0.05, 1000000. */
static void print_value(const json_t *v)
{
    if (json_is_real(v)) printf("%.15g", json_real_value(v));
    else {
        char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
        fputs(s ? s : "?", stdout);
        free(s);
    }
}

/* kiln help settings [GROUP] [--json] */
static int help_settings(int argc, char **argv)
{
    kiln_cli c = {.command = "help settings"};
    bool json = false;
    const char *group = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = c.json = true;
        else if (argv[i][0] == '-') return kiln_cli_usage(&c, "unknown option %s", argv[i]);
        else if (group) return kiln_cli_usage(&c, "help settings takes at most one GROUP");
        else group = argv[i];
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_settings_describe(NULL, &doc, &err);
    if (r != KILN_OK) return kiln_cli_fail(&c, r, &err);
    json_t *d = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    json_t *groups = json_object_get(d, "groups");
    if (group) { /* keep that group alone */
        json_t *kept = json_array();
        size_t i;
        json_t *g;
        json_array_foreach (groups, i, g)
            if (!strcmp(json_string_value(json_object_get(g, "name")), group))
                json_array_append(kept, g);
        if (json_array_size(kept) == 0) {
            char names[128] = "";
            json_array_foreach (groups, i, g) {
                size_t n = strlen(names);
                snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                         json_string_value(json_object_get(g, "name")));
            }
            json_decref(kept);
            json_decref(d);
            return kiln_cli_usage(&c, "no settings group \"%.60s\"; groups: %s", group, names);
        }
        json_object_set_new(d, "groups", kept);
        groups = kept;
    }
    if (json) {
        char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
        if (s) kiln_cli_print_json(s);
        free(s);
        json_decref(d);
        return KILN_EXIT_OK;
    }
    size_t i, f;
    json_t *g, *field;
    json_array_foreach (groups, i, g) {
        printf("%s%s settings (import.%s in a .meta; read by:", i ? "\n" : "",
               json_string_value(json_object_get(g, "name")),
               json_string_value(json_object_get(g, "name")));
        size_t k;
        json_t *kind;
        json_array_foreach (json_object_get(g, "kinds"), k, kind)
            printf(" %s", json_string_value(kind));
        if (json_array_size(json_object_get(g, "kinds")) == 0) printf(" no kind");
        printf(")\n");
        json_array_foreach (json_object_get(g, "fields"), f, field) {
            printf("  %-34s %-17s default ", json_string_value(json_object_get(field, "path")),
                   json_string_value(json_object_get(field, "type")));
            print_value(json_object_get(field, "default"));
            printf("\n  %-34s allowed: %s\n", "",
                   json_string_value(json_object_get(field, "allowed")));
        }
    }
    printf("\nSet one with `kiln reimport PATH --set GROUP.FIELD=VALUE` (or --set "
           "platforms.P.GROUP.FIELD=VALUE);\ndocs/settings.md says what each field does.\n");
    json_decref(d);
    return KILN_EXIT_OK;
}

int kiln_cmd_help(int argc, char **argv)
{
    /* argv[0] is "help"; argv[1] the topic. */
    if (argc >= 2 && !strcmp(argv[1], "settings")) return help_settings(argc - 2, argv + 2);
    if (argc >= 2 && kiln_cli_print_command_help(argv[1]) == KILN_EXIT_OK) return KILN_EXIT_OK;
    kiln_cli c = {.command = "help"};
    return kiln_cli_usage(&c,
                          "no help on \"%.60s\"; try kiln help, kiln help settings or "
                          "kiln COMMAND --help",
                          argv[1]);
}
