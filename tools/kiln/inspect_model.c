/* inspect_model.c — `kiln inspect MODEL`: what a glTF 2.0 / GLB file declares, or what kiln
 * imports from an FBX or OBJ file (through assimp, in kiln's space), as a JSON document
 * (docs/schemas/inspect.schema.json, "type": "model") and as text for people.
 *
 * Counts are the file's, not the cook's: primitives, vertices and triangles come from
 * kiln_scene_stats (every mode; strips and fans n - 2; points and lines no triangles; meshes
 * counted once however many nodes draw them), the rest are the lengths of the scene's arrays,
 * which hold one entry per entry of the file's. */
#include "inspect_model.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A number, or null for what JSON cannot hold (a world transform may overflow to infinity). */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *count(uint64_t n)
{
    return json_integer(n > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)n);
}

static json_t *strings(const char *const *list, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++) json_array_append_new(a, json_string(list[i] ? list[i] : ""));
    return a;
}

static json_t *vec3(const float v[3])
{
    json_t *a = json_array();
    for (int i = 0; i < 3; i++) json_array_append_new(a, number(v[i]));
    return a;
}

static json_t *describe(const kiln_scene *s, const char *format)
{
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("model"));
    json_object_set_new(j, "format", json_string(format));
    json_object_set_new(j, "generator", json_string(s->generator ? s->generator : ""));
    json_object_set_new(j, "nodes", count(s->node_count));
    json_object_set_new(j, "meshes", count(s->mesh_count));
    json_object_set_new(j, "primitives", count(s->stats.primitives));
    json_object_set_new(j, "dropped_primitives", count(s->stats.dropped_primitives));
    json_object_set_new(j, "vertices", count(s->stats.vertices));
    json_object_set_new(j, "triangles", count(s->stats.triangles));
    json_object_set_new(j, "materials", count(s->material_count));
    json_object_set_new(j, "textures", count(s->texture_count));
    json_object_set_new(j, "images", count(s->image_count));
    json_object_set_new(j, "samplers", count(s->sampler_count));
    json_object_set_new(j, "skins", count(s->skin_count));
    json_object_set_new(j, "joints", count(s->stats.joints));
    json_object_set_new(j, "animations", count(s->animation_count));
    json_object_set_new(j, "cameras", count(s->camera_count));
    json_object_set_new(j, "lights", count(s->light_count));
    json_object_set_new(j, "scenes", count(s->scene_count));
    json_object_set_new(j, "default_scene",
                        s->default_scene >= 0 ? json_integer(s->default_scene) : json_null());
    json_object_set_new(j, "roots", count(s->root_count));

    json_t *anims = json_array();
    for (uint32_t i = 0; i < s->animation_count; i++) {
        const kiln_scene_animation *a = &s->animations[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(a->name ? a->name : ""));
        json_object_set_new(o, "channels", count(a->channel_count));
        json_object_set_new(o, "start", number(a->start));
        json_object_set_new(o, "end", number(a->end));
        json_object_set_new(o, "duration", number((double)a->end - (double)a->start));
        json_array_append_new(anims, o);
    }
    json_object_set_new(j, "animation_list", anims);

    if (s->has_bounds) {
        json_t *b = json_object();
        json_object_set_new(b, "min", vec3(s->bounds_min));
        json_object_set_new(b, "max", vec3(s->bounds_max));
        json_object_set_new(j, "bounds", b);
    } else {
        json_object_set_new(j, "bounds", json_null());
    }
    json_object_set_new(j, "extensions_used", strings(s->extensions_used, s->extensions_used_count));
    json_object_set_new(j, "extensions_required",
                        strings(s->extensions_required, s->extensions_required_count));
    json_object_set_new(j, "files", strings(s->files, s->file_count));
    json_object_set_new(j, "warnings", strings(s->warnings, s->warning_count));
    return j;
}

json_t *kiln_inspect_model(const char *path, const char *format, kiln_result *r, kiln_error *err)
{
    kiln_scene_opts o = {0};
    o.struct_size = sizeof o;
    /* Inspect counts; it needs the buffers (vertex counts, bounds) but no pixels, and nothing the
     * cook would add (normals, tangents). */
    o.flags = KILN_SCENE_LOAD_NO_IMAGES | KILN_SCENE_LOAD_NO_NORMALS | KILN_SCENE_LOAD_NO_TANGENTS;
    kiln_scene *scene = NULL;
    *r = kiln_scene_load(path, &o, &scene, err);
    if (*r != KILN_OK) return NULL;
    json_t *j = describe(scene, format);
    kiln_scene_free(scene);
    return j;
}

/* ---- text for people ------------------------------------------------------------------------ */

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
    json_array_foreach(list, i, v) printf("%s%s", i ? ", " : "", json_string_value(v));
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
    json_array_foreach(list, i, v) printf("    %s\n", json_string_value(v));
}

void kiln_inspect_model_print(const json_t *doc, const char *path)
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
           ival(doc, "materials"), ival(doc, "textures"), ival(doc, "images"), ival(doc, "samplers"));
    printf("  %-11s %lld; %lld joints\n", "skins", ival(doc, "skins"), ival(doc, "joints"));
    printf("  %-11s %lld\n", "animations", ival(doc, "animations"));
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(doc, "animation_list"), i, a) {
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
