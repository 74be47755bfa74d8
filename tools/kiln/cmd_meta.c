/* cmd_meta.c — kiln meta [PATH...|--all]: write missing .meta files with fresh GUIDs. */
#include "cli.h"

int kiln_cmd_meta(int argc, char **argv)
{
    kiln_cli c = {.command = "meta"};
    if (!kiln_cli_parse(&c, argc, argv, "--all")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    int code = KILN_EXIT_OK;
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    /* No paths means every asset, as "kiln meta" alone is the natural way to ask for all. */
    uint32_t flags = (c.all || c.positional_count == 0) ? KILN_IMPORT_ALL : 0;
    char *doc = NULL;
    kiln_error err;
    kiln_result r =
        kiln_project_meta(p, c.positional, (size_t)c.positional_count, flags, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        size_t i;
        json_t *w;
        json_array_foreach (json_object_get(d, "written"), i, w)
            printf("wrote %s.meta\n", json_string_value(w));
        printf("%zu .meta written, %zu already present\n",
               json_array_size(json_object_get(d, "written")),
               json_array_size(json_object_get(d, "existing")));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
