/* cmd_shader.c — kiln shader IN OUT.kshader|OUT.spv [--stage S] [--entry E] [--define NAME=VALUE]
 * [--include-dir DIR] [--variant NAME] [--root DIR] [--set shader.FIELD=VALUE] [--settings JSON]
 * [--json]: one shader compiled without a project, through kiln_convert_shader. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* --define and --include-dir as one --settings-style patch merged under the user's own: a macro
 * NAME (no value) or NAME=VALUE (the value as text), folders in the order given. */
static char *shorthand_patch(const kiln_cli *c)
{
    json_t *shader = json_object();
    if (c->define_count) {
        json_t *defines = json_object();
        for (int i = 0; i < c->define_count; i++) {
            const char *eq = strchr(c->defines[i], '=');
            if (eq)
                json_object_setn_new(defines, c->defines[i], (size_t)(eq - c->defines[i]),
                                     json_string(eq + 1));
            else json_object_set_new(defines, c->defines[i], json_null());
        }
        json_object_set_new(shader, "defines", defines);
    }
    if (c->include_dir_count) {
        json_t *dirs = json_array();
        for (int i = 0; i < c->include_dir_count; i++)
            json_array_append_new(dirs, json_string(c->include_dirs[i]));
        json_object_set_new(shader, "include_dirs", dirs);
    }
    json_t *patch = json_object();
    json_object_set_new(patch, "shader", shader);
    char *text = json_dumps(patch, JSON_COMPACT);
    json_decref(patch);
    return text;
}

int kiln_cmd_shader(int argc, char **argv)
{
    kiln_cli c = {.command = "shader"};
    if (!kiln_cli_parse(&c, argc, argv,
                        "--set --settings --stage --entry --define --include-dir --variant")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (c.positional_count != 2)
        return kiln_cli_usage(&c, "usage: kiln shader IN OUT.kshader|OUT.spv [--stage S] "
                                  "[--define NAME=VALUE] [--variant NAME]");
    if (c.settings && (c.define_count || c.include_dir_count))
        return kiln_cli_usage(&c, "--define and --include-dir go into --settings; give them there");
    /* --stage and --entry are shorthands for --set shader.stage=... and shader.entry=... */
    char stage[96], entry[160];
    if (c.stage) {
        snprintf(stage, sizeof stage, "shader.stage=%.60s", c.stage);
        c.sets[c.set_count++] = stage;
    }
    if (c.entry) {
        snprintf(entry, sizeof entry, "shader.entry=%.120s", c.entry);
        c.sets[c.set_count++] = entry;
    }
    char *patch = c.define_count || c.include_dir_count ? shorthand_patch(&c) : NULL;
    kiln_convert_opts o = {0};
    o.struct_size = sizeof o;
    o.settings_json = patch ? patch : c.settings;
    o.assignments = c.sets;
    o.assignment_count = (size_t)c.set_count;
    o.platform = c.platform;
    o.jobs = c.jobs;
    o.root = c.root;
    o.variant = c.variant;
    char *doc = NULL;
    kiln_error err;
    int code = KILN_EXIT_OK;
    kiln_result r = kiln_convert_shader(c.positional[0], c.positional[1], &o, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else if (!c.quiet) { /* -q: errors only */
        json_t *d = json_loads(doc, 0, NULL);
        char text[256];
        printf("%s: %s\n", c.positional[1],
               kiln_cli_summary_text(json_object_get(d, "summary"), false, text, sizeof text));
        size_t i;
        json_t *v;
        json_array_foreach (json_object_get(d, "variants"), i, v)
            printf("  variant %s: %lld bytes of SPIR-V  %s\n",
                   json_string_value(json_object_get(v, "name")),
                   json_integer_value(json_object_get(v, "spirv_bytes")),
                   json_string_value(json_object_get(v, "defines")));
        json_array_foreach (json_object_get(d, "warnings"), i, v)
            printf("warning: %s\n", json_string_value(v));
        json_decref(d);
    }
    free(patch);
    kiln_string_free(doc);
    kiln_cli_free(&c);
    return code;
}
