/* cmd_cache.c — kiln cache gc [--max-size SIZE]. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int kiln_cmd_cache(int argc, char **argv)
{
    kiln_cli c = {.command = "cache gc"};
    if (!kiln_cli_parse(&c, argc, argv, "--max-size")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    uint64_t max_size = 0;
    if (c.positional_count != 1 || strcmp(c.positional[0], "gc") != 0)
        return kiln_cli_usage(&c, "usage: kiln cache gc [--max-size SIZE]");
    if (c.max_size && !kiln_cli_parse_size(c.max_size, &max_size))
        return kiln_cli_usage(&c,
                              "--max-size takes a size (bytes, or 50MB, 50MiB, 1.5G), not "
                              "\"%.100s\"",
                              c.max_size);
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_cache_gc(p, max_size, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        char freed[32], size[32];
        printf(
            "removed %zu entries, freed %s; %lld entries kept, cache %s\n",
            json_array_size(json_object_get(d, "removed")),
            kiln_cli_format_size((uint64_t)json_integer_value(json_object_get(d, "freed")), freed),
            json_integer_value(json_object_get(d, "kept")),
            kiln_cli_format_size((uint64_t)json_integer_value(json_object_get(d, "cache_size")),
                                 size));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
