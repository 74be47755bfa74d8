/* cmd_texture.c — kiln texture IN OUT.ktx2 [--format F] [--quality Q] [--set texture.FIELD=VALUE]
 * [--settings JSON] [--platform P] [-j N] [--json]: one image to KTX2 without a project. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int kiln_cmd_texture(int argc, char **argv)
{
    kiln_cli c = {.command = "texture"};
    if (!kiln_cli_parse(&c, argc, argv, "--set --settings --format --quality")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    if (c.positional_count != 2) {
        return kiln_cli_usage(
            &c,
            "usage: kiln texture IN OUT.ktx2 [--format F] [--quality Q] [--set texture.FIELD=VALUE]");
    }
    /* --format and --quality are shorthands for --set texture.format=... and texture.quality=... */
    char fmt[96], qual[96];
    if (c.format) {
        snprintf(fmt, sizeof fmt, "texture.format=%.60s", c.format);
        c.sets[c.set_count++] = fmt;
    }
    if (c.quality) {
        snprintf(qual, sizeof qual, "texture.quality=%.60s", c.quality);
        c.sets[c.set_count++] = qual;
    }
    kiln_convert_opts o = {0};
    o.struct_size = sizeof o;
    o.settings_json = c.settings;
    o.assignments = c.sets;
    o.assignment_count = (size_t)c.set_count;
    o.platform = c.platform;
    o.jobs = c.jobs;
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_convert_texture(c.positional[0], c.positional[1], &o, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else if (!c.quiet) { /* -q: errors only */
        json_t *d = json_loads(doc, 0, NULL);
        json_t *s = json_object_get(d, "summary");
        printf("%s: %s %lldx%lld, %lld levels, %lld bytes\n", c.positional[1],
               json_string_value(json_object_get(s, "format")),
               json_integer_value(json_object_get(s, "width")),
               json_integer_value(json_object_get(s, "height")),
               json_integer_value(json_object_get(s, "levels")),
               json_integer_value(json_object_get(s, "file_size")));
        size_t i;
        json_t *w;
        json_array_foreach (json_object_get(d, "warnings"), i, w)
            printf("warning: %s\n", json_string_value(w));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_cli_free(&c);
    return code;
}
