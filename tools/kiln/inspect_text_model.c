/* inspect_text_model.c — `kiln inspect MODEL` as text for people: the counts, animations,
 * bounds, extensions, files read and warnings of the document kiln_inspect_file returns
 * ("type": "model"). */
#include <stdio.h>
#include <string.h>

#include "inspect_text.h"

static long long ival(const json_t *doc, const char *key)
{
    return (long long)json_integer_value(json_object_get(doc, key));
}

/* "(x, y, z)" of a bounds corner; "?" for a null (non-finite) coordinate. */
static void print_point(const json_t *v)
{
    putchar('(');
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *c = json_array_get(v, i);
        if (i) fputs(", ", stdout);
        if (json_is_number(c)) printf("%g", json_number_value(c));
        else putchar('?');
    }
    putchar(')');
}

/* "a, b" or "none". */
static void print_joined(const json_t *list)
{
    if (!json_array_size(list)) {
        fputs("none", stdout);
        return;
    }
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) printf("%s%s", i ? ", " : "", json_string_value(v));
}

/* A header with its count, then one indented line per entry. */
static void print_lines(const char *label, const json_t *list)
{
    if (!json_array_size(list)) {
        printf("  %-11s none\n", label);
        return;
    }
    printf("  %-11s %zu\n", label, json_array_size(list));
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) printf("    %s\n", json_string_value(v));
}

void kiln_inspect_print_model(const json_t *doc, const char *path)
{
    const char *gen = json_string_value(json_object_get(doc, "generator"));
    const char *format = json_string_value(json_object_get(doc, "format"));
    const char *kind = !strcmp(format, "fbx") ? "FBX" : !strcmp(format, "obj") ? "OBJ" : "glTF 2.0";
    printf("%s: %s model (%s)", path, kind, format);
    if (gen && *gen) printf(", generator \"%s\"", gen);
    putchar('\n');

    json_t *def = json_object_get(doc, "default_scene");
    printf("  %-11s %lld; %lld scenes, ", "nodes", ival(doc, "nodes"), ival(doc, "scenes"));
    if (json_is_integer(def)) printf("default %lld, ", (long long)json_integer_value(def));
    else fputs("no default, ", stdout);
    printf("%lld roots\n", ival(doc, "roots"));

    printf("  %-11s %lld; %lld primitives", "meshes", ival(doc, "meshes"), ival(doc, "primitives"));
    if (ival(doc, "dropped_primitives"))
        printf(" (%lld points/lines, not drawn)", ival(doc, "dropped_primitives"));
    printf(", %lld vertices, %lld triangles\n", ival(doc, "vertices"), ival(doc, "triangles"));
    printf("  %-11s %lld; %lld textures, %lld images, %lld samplers\n", "materials",
           ival(doc, "materials"), ival(doc, "textures"), ival(doc, "images"),
           ival(doc, "samplers"));
    printf("  %-11s %lld; %lld joints\n", "skins", ival(doc, "skins"), ival(doc, "joints"));
    printf("  %-11s %lld\n", "animations", ival(doc, "animations"));
    size_t i;
    json_t *a;
    json_array_foreach (json_object_get(doc, "animation_list"), i, a) {
        const char *name = json_string_value(json_object_get(a, "name"));
        json_t *d = json_object_get(a, "duration");
        printf("    %zu \"%s\": %lld channels, ", i, name ? name : "", ival(a, "channels"));
        if (json_is_number(d)) printf("%.3f s\n", json_number_value(d));
        else puts("unbounded duration");
    }
    printf("  %-11s %lld; %lld lights\n", "cameras", ival(doc, "cameras"), ival(doc, "lights"));

    json_t *b = json_object_get(doc, "bounds");
    printf("  %-11s ", "bounds");
    if (json_is_object(b)) {
        print_point(json_object_get(b, "min"));
        fputs(" .. ", stdout);
        print_point(json_object_get(b, "max"));
        putchar('\n');
    } else {
        puts("none (no mesh under the roots)");
    }
    printf("  %-11s used: ", "extensions");
    print_joined(json_object_get(doc, "extensions_used"));
    fputs("; required: ", stdout);
    print_joined(json_object_get(doc, "extensions_required"));
    putchar('\n');
    print_lines("files read", json_object_get(doc, "files"));
    print_lines("warnings", json_object_get(doc, "warnings"));
}
