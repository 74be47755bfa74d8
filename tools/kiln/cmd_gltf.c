/* cmd_gltf.c — kiln gltf IN OUT.glb|OUT.gltf [--simplify R] [--simplify-error E] [--quantize]
 * [--position-bits N] [--texcoord-bits N] [--normal-bits N] [--compress] [--no-optimize]
 * [--keep-attributes]
 * [--json] [-q]: a model written as optimized glTF 2.0 (kiln_gltf_export). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static bool parse_float(const char *text, float lo, float hi, float *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (!text[0] || !end || *end || !(v >= lo && v <= hi)) return false;
    *out = (float)v;
    return true;
}

static bool parse_bits(const char *text, uint32_t lo, uint32_t *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (!text[0] || !end || *end || v < (long)lo || v > 16) return false;
    *out = (uint32_t)v;
    return true;
}

int kiln_cmd_gltf(int argc, char **argv)
{
    kiln_cli c = {.command = "gltf"};
    kiln_gltf_opts o = {0};
    o.struct_size = sizeof o;
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0) {
            c.json = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            c.quiet = true;
        } else if (strcmp(a, "--quantize") == 0) {
            o.quantize = true;
        } else if (strcmp(a, "--compress") == 0) {
            o.compress = true;
        } else if (strcmp(a, "--no-optimize") == 0) {
            o.no_optimize = true;
        } else if (strcmp(a, "--keep-attributes") == 0) {
            o.keep_attributes = true;
        } else if (strcmp(a, "--simplify") == 0 || strcmp(a, "--simplify-error") == 0) {
            bool ratio = strcmp(a, "--simplify") == 0;
            if (!v ||
                !parse_float(v, ratio ? 0.0f : 0.0f, 1.0f, ratio ? &o.simplify : &o.simplify_error))
                return kiln_cli_usage(&c, "%s takes a number in [0, 1]", a);
            i++;
        } else if (strcmp(a, "--position-bits") == 0 || strcmp(a, "--texcoord-bits") == 0 ||
                   strcmp(a, "--normal-bits") == 0) {
            uint32_t *dst = a[2] == 'p'   ? &o.position_bits
                            : a[2] == 't' ? &o.texcoord_bits
                                          : &o.normal_bits;
            uint32_t lo = a[2] == 'n' ? 2 : 1;
            if (!v || !parse_bits(v, lo, dst))
                return kiln_cli_usage(&c, "%s takes a whole number in %u..16", a, lo);
            i++;
        } else if (a[0] == '-' && a[1]) {
            return kiln_cli_usage(&c, "unknown option %s (kiln gltf --help lists them)", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return kiln_cli_usage(&c, "kiln gltf takes one input and one output");
        }
    }
    if (npos != 2)
        return kiln_cli_usage(&c, "usage: kiln gltf IN OUT.glb|OUT.gltf [options] "
                                  "(kiln gltf --help)");
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_gltf_export(pos[0], pos[1], &o, &doc, &err);
    int code = KILN_EXIT_OK;
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else if (!c.quiet) {
        json_t *d = json_loads(doc, 0, NULL);
        json_t *s = json_object_get(d, "source"), *w = json_object_get(d, "written");
        size_t i;
        json_t *f;
        long long total = 0;
        json_array_foreach (json_object_get(d, "files"), i, f) {
            printf("%-40s %10lld bytes\n", json_string_value(json_object_get(f, "file")),
                   json_integer_value(json_object_get(f, "size")));
            total += json_integer_value(json_object_get(f, "size"));
        }
        printf("%lld bytes: %lld triangles, %lld vertices (source: %lld triangles, %lld "
               "vertices)\n",
               total, json_integer_value(json_object_get(w, "triangles")),
               json_integer_value(json_object_get(w, "vertices")),
               json_integer_value(json_object_get(s, "triangles")),
               json_integer_value(json_object_get(s, "vertices")));
        json_t *e;
        json_array_foreach (json_object_get(d, "warnings"), i, e)
            printf("warning: %s\n", json_string_value(e));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_cli_free(&c);
    return code;
}
