/* cmd_model.c — kiln model IN.gltf|IN.glb|IN.fbx|IN.obj OUTDIR [--set model.FIELD=VALUE]
 * [--settings JSON]
 * [--textures all|none] [--platform P] [-j N] [--json]: one model cooked into a folder without
 * a project, through the code path of an import. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int kiln_cmd_model(int argc, char **argv)
{
    kiln_cli c = {.command = "model"};
    if (!kiln_cli_parse(&c, argc, argv, "--set --settings --textures")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (c.positional_count != 2)
        return kiln_cli_usage(
            &c, "usage: kiln model IN.gltf|IN.glb|IN.fbx|IN.obj OUTDIR [--set model.FIELD=VALUE] "
                "[--textures all|none]");
    /* --textures none is a shorthand for --set model.textures=false. */
    if (c.textures) {
        if (strcmp(c.textures, "none") == 0) c.sets[c.set_count++] = "model.textures=false";
        else if (strcmp(c.textures, "all") == 0) c.sets[c.set_count++] = "model.textures=true";
        else return kiln_cli_usage(&c, "--textures takes all or none, not \"%s\"", c.textures);
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
    int code = KILN_EXIT_OK;
    kiln_result r = kiln_convert_model(c.positional[0], c.positional[1], &o, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else if (!c.quiet) { /* -q: errors only */
        json_t *d = json_loads(doc, 0, NULL);
        size_t i;
        json_t *a;
        long long total = 0;
        json_array_foreach (json_object_get(d, "artifacts"), i, a) {
            printf("%-28s %-9s %10lld bytes  %s\n", json_string_value(json_object_get(a, "label")),
                   json_string_value(json_object_get(a, "kind")),
                   json_integer_value(json_object_get(a, "size")),
                   json_string_value(json_object_get(a, "file")));
            total += json_integer_value(json_object_get(a, "size"));
        }
        json_t *s = json_object_get(d, "summary");
        printf("%zu artifacts, %lld bytes in %s: %lld triangles, %lld vertices\n",
               json_array_size(json_object_get(d, "artifacts")), total, c.positional[1],
               json_integer_value(json_object_get(s, "triangles")),
               json_integer_value(json_object_get(s, "vertices")));
        json_t *w;
        json_array_foreach (json_object_get(d, "warnings"), i, w)
            printf("warning: %s\n", json_string_value(w));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_cli_free(&c);
    return code;
}
