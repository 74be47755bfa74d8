/* cmd_inspect.c — kiln inspect FILE: what an image, a KTX2 file, a kiln container (any cooked
 * kind), a pack, a model or a cache entry folder holds; inside a project also NAME#label, an
 * artifact of a source's current cache entry. libkiln's kiln_inspect_file (kiln_project_inspect
 * for names and entries of a project) returns the JSON document that --json prints; without
 * --json it is read back and printed for people (images and KTX2 files here, the other types in
 * inspect_text_*.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "inspect_text.h"

/* The document for people, by its "type". */
static void print_text(const json_t *j, const char *path)
{
    const char *type = json_string_value(json_object_get(j, "type"));
    if (!type) type = "";
    if (!strcmp(type, "container")) {
        kiln_inspect_print_container(j, path);
    } else if (!strcmp(type, "pack")) {
        kiln_inspect_print_pack(j, path);
    } else if (!strcmp(type, "model")) {
        kiln_inspect_print_model(j, path);
    } else if (!strcmp(type, "entry")) {
        kiln_inspect_print_entry(j, path);
    } else if (!strcmp(type, "ktx2")) {
        const char *shape = json_string_value(json_object_get(j, "shape"));
        char what[96] = "";
        if (shape)
            snprintf(what, sizeof what, " %s (%lld faces, %lld layers, depth %lld)", shape,
                     json_integer_value(json_object_get(j, "faces")),
                     json_integer_value(json_object_get(j, "layers")),
                     json_integer_value(json_object_get(j, "depth")));
        printf("%s: KTX2 %s %lldx%lld%s, %zu levels, %s, supercompression %s, writer \"%s\"\n",
               path, json_string_value(json_object_get(j, "format")),
               json_integer_value(json_object_get(j, "width")),
               json_integer_value(json_object_get(j, "height")), what,
               json_array_size(json_object_get(j, "levels")),
               json_is_true(json_object_get(j, "srgb")) ? "sRGB" : "linear",
               json_string_value(json_object_get(j, "supercompression")),
               json_string_value(json_object_get(j, "writer")));
        size_t i;
        json_t *l;
        json_array_foreach (json_object_get(j, "levels"), i, l)
            if (json_object_get(l, "depth"))
                printf("  level %zu: %lldx%lldx%lld, %lld bytes\n", i,
                       json_integer_value(json_object_get(l, "width")),
                       json_integer_value(json_object_get(l, "height")),
                       json_integer_value(json_object_get(l, "depth")),
                       json_integer_value(json_object_get(l, "size")));
            else
                printf("  level %zu: %lldx%lld, %lld bytes\n", i,
                       json_integer_value(json_object_get(l, "width")),
                       json_integer_value(json_object_get(l, "height")),
                       json_integer_value(json_object_get(l, "size")));
        json_t *cmp = json_object_get(j, "compare");
        if (cmp) {
            printf("  level 0 against %s: PSNR %.2f dB over %lld channel(s)",
                   json_string_value(json_object_get(cmp, "source")),
                   json_real_value(json_object_get(cmp, "psnr")),
                   json_integer_value(json_object_get(cmp, "channels")));
            if (json_object_get(cmp, "psnr_alpha"))
                printf(", alpha %.2f dB", json_real_value(json_object_get(cmp, "psnr_alpha")));
            putchar('\n');
            size_t k;
            json_t *t;
            json_array_foreach (json_object_get(cmp, "targets"), k, t) { /* a Basis texture's */
                printf("    transcoded to %s: PSNR %.2f dB",
                       json_string_value(json_object_get(t, "format")),
                       json_real_value(json_object_get(t, "psnr")));
                if (json_object_get(t, "psnr_alpha"))
                    printf(", alpha %.2f dB", json_real_value(json_object_get(t, "psnr_alpha")));
                putchar('\n');
            }
        }
    } else {
        printf("%s: %s image %lldx%lld, %lld channels of %lld bits%s\n", path,
               json_string_value(json_object_get(j, "format")),
               json_integer_value(json_object_get(j, "width")),
               json_integer_value(json_object_get(j, "height")),
               json_integer_value(json_object_get(j, "channels")),
               json_integer_value(json_object_get(j, "bits")),
               json_is_true(json_object_get(j, "has_alpha")) ? ", with alpha" : "");
    }
    const json_t *art = json_object_get(j, "artifact");
    if (art) printf("  cooked file %s\n", json_string_value(json_object_get(art, "path")));
}

/* How FILE is read: a name in the project (NAME#label, where no file has that name), maybe an
 * entry of the project's cache (a folder, a manifest.json: its assets are named when a project
 * opens here), or a file alone. */
enum { BY_FILE, BY_ENTRY, BY_NAME };
static int inspect_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return strchr(path, '#') ? BY_NAME : BY_FILE;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return S_ISDIR(st.st_mode) || !strcmp(base, "manifest.json") ? BY_ENTRY : BY_FILE;
}

/* The project of the options for an entry, quietly: without one the entry is listed alone. */
static kiln_project *open_quietly(const kiln_cli *c)
{
    kiln_project_opts o;
    kiln_cli_project_opts(c, &o);
    o.jobs = 1;
    kiln_project *p = NULL;
    kiln_error err;
    return kiln_project_open(&o, &p, &err) == KILN_OK ? p : NULL;
}

int kiln_cmd_inspect(int argc, char **argv)
{
    kiln_cli c = {.command = "inspect"};
    if (!kiln_cli_parse(&c, argc, argv, "--compare")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (c.positional_count != 1) {
        return kiln_cli_usage(&c, "inspect takes exactly one FILE");
    }
    const char *path = c.positional[0];
    kiln_inspect_opts o = {0};
    o.struct_size = sizeof o;
    o.compare = c.compare;
    char *doc = NULL;
    kiln_error err;
    int mode = inspect_mode(path), code = KILN_EXIT_OK;
    kiln_project *p = NULL;
    if (mode == BY_NAME) {
        p = kiln_cli_open(&c, &code);
        if (!p) {
            kiln_cli_free(&c);
            return code;
        }
    } else if (mode == BY_ENTRY) {
        p = open_quietly(&c);
    }
    kiln_result r =
        p ? kiln_project_inspect(p, path, &o, &doc, &err) : kiln_inspect_file(path, &o, &doc, &err);
    kiln_project_close(p);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        /* Names may hold NUL bytes (\u0000 in the document); %s prints up to the first. */
        json_t *j = json_loads(doc, JSON_ALLOW_NUL, NULL);
        if (j) {
            print_text(j, path);
        } else {
            kiln_error e = {.code = KILN_E_INTERNAL, .offset = UINT64_MAX};
            snprintf(e.message, sizeof e.message, "the inspect document of %.200s does not parse",
                     path);
            code = kiln_cli_fail(&c, KILN_E_INTERNAL, &e);
        }
        json_decref(j);
    }
    kiln_string_free(doc);
    kiln_cli_free(&c);
    return code;
}
