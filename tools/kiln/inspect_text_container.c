/* inspect_text_container.c — `kiln inspect FILE` for kiln containers, as text for people: the
 * header and section table of the document kiln_inspect_file returns ("type": "container"), then
 * the summary its cooked kind wrote: laid out for people for the built-in kinds (material,
 * scene, mesh, skeleton, clip, shader: inspect_text_shader.c), as an indented tree of members for
 * any other kind. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect_text.h"

/* The material's texture slots in the order they are printed (the document's keys are sorted). */
static const char *const slot_names[] = {"base_color", "metallic_roughness", "normal", "occlusion",
                                         "emissive"};

#define I(o, k) json_integer_value(json_object_get(o, k))
#define S(o, k) json_string_value(json_object_get(o, k))
#define F(o, k) json_number_value(json_object_get(o, k))
#define B(o, k) json_is_true(json_object_get(o, k))

/* "(a, b, c)" with %g. */
static void print_vec(const json_t *a)
{
    size_t i;
    json_t *v;
    putchar('(');
    json_array_foreach (a, i, v) printf("%s%g", i ? ", " : "", json_number_value(v));
    putchar(')');
}

static bool is_unit(const json_t *a, double one_at)
{
    size_t i;
    json_t *v;
    json_array_foreach (a, i, v)
        if (json_number_value(v) != ((double)i == one_at ? 1.0 : 0.0)) return false;
    return true;
}

static bool all_equal(const json_t *a, double x)
{
    size_t i;
    json_t *v;
    json_array_foreach (a, i, v)
        if (json_number_value(v) != x) return false;
    return true;
}

/* One texture slot: "none", or its image, UV set, sampler and transform. */
static void print_slot(const char *indent, int width, const char *name, const json_t *t)
{
    printf("%s%-*s ", indent, width, name);
    if (!t || json_is_null(t)) {
        printf("none\n");
        return;
    }
    printf("image %s, uv %lld, filter %s/%s", S(t, "image"), I(t, "texcoord"), S(t, "mag_filter"),
           S(t, "min_filter"));
    if (B(t, "mipmaps")) printf("/mip %s", S(t, "mip_filter"));
    printf(", wrap %s/%s", S(t, "wrap_s"), S(t, "wrap_t"));
    const json_t *x = json_object_get(t, "transform");
    if (x && !json_is_null(x)) {
        printf(", offset ");
        print_vec(json_object_get(x, "offset"));
        printf(" rotation %g scale ", F(x, "rotation"));
        print_vec(json_object_get(x, "scale"));
    }
    putchar('\n');
}

static void print_material(const json_t *m)
{
    printf("  material \"%s\": base colour ", S(m, "name"));
    print_vec(json_object_get(m, "base_color"));
    printf(", metallic %g, roughness %g\n", F(m, "metallic"), F(m, "roughness"));
    printf("    emissive ");
    print_vec(json_object_get(m, "emissive"));
    printf(" x %g, normal scale %g, occlusion strength %g\n", F(m, "emissive_strength"),
           F(m, "normal_scale"), F(m, "occlusion_strength"));
    printf("    alpha %s", S(m, "alpha_mode"));
    if (!strcmp(S(m, "alpha_mode"), "mask")) printf(" (cutoff %g)", F(m, "alpha_cutoff"));
    printf("%s%s\n", B(m, "double_sided") ? ", double-sided" : "", B(m, "unlit") ? ", unlit" : "");
    const json_t *slots = json_object_get(m, "textures");
    for (size_t s = 0; s < sizeof slot_names / sizeof slot_names[0]; s++)
        print_slot("    ", 18, slot_names[s], json_object_get(slots, slot_names[s]));
    /* the glTF extensions: factors on one line, then the textures of their own slots */
    const char *ext;
    const json_t *e;
    json_object_foreach ((json_t *)json_object_get(m, "extensions"), ext, e) {
        printf("    %s", ext);
        const char *key;
        const json_t *v;
        bool first = true;
        json_object_foreach ((json_t *)e, key, v) {
            if (!json_is_number(v) && !json_is_array(v)) continue;
            printf("%s %s ", first ? ":" : ",", key);
            if (json_is_array(v)) print_vec(v);
            else printf("%g", json_number_value(v));
            first = false;
        }
        putchar('\n');
        json_object_foreach ((json_t *)e, key, v)
            if (json_is_null(v) || json_is_object(v)) print_slot("      ", 29, key, v);
    }
}

static void print_scene(const json_t *s)
{
    const json_t *nodes = json_object_get(s, "nodes");
    const json_t *cams = json_object_get(s, "cameras"), *lights = json_object_get(s, "lights");
    printf("  scene \"%s\": %zu nodes%s, %lld primitive references, %zu cameras, %zu lights, "
           "%zu clips\n",
           S(s, "name"), json_array_size(nodes), B(s, "synthetic_root") ? " (synthetic root)" : "",
           I(s, "primitive_count"), json_array_size(cams), json_array_size(lights),
           json_array_size(json_object_get(s, "clips")));
    const json_t *b = json_object_get(s, "bounds");
    if (b && !json_is_null(b)) {
        printf("    bounds ");
        print_vec(json_object_get(b, "min"));
        printf(" .. ");
        print_vec(json_object_get(b, "max"));
        putchar('\n');
    }
    /* The tree, indented by depth (parents come first, so depth[parent] is known). */
    size_t n = json_array_size(nodes), shown = n < 1000 ? n : 1000;
    unsigned *depth = calloc(n ? n : 1, sizeof *depth);
    for (size_t i = 0; i < shown && depth; i++) {
        const json_t *nd = json_array_get(nodes, i);
        const json_t *parent = json_object_get(nd, "parent");
        if (json_is_integer(parent) && (size_t)json_integer_value(parent) < i)
            depth[i] = depth[json_integer_value(parent)] + 1;
        printf("    %*s%zu \"%s\"", 2 * (int)depth[i], "", i, S(nd, "name"));
        const json_t *t = json_object_get(nd, "translation");
        if (!all_equal(t, 0)) printf(" t"), print_vec(t);
        const json_t *q = json_object_get(nd, "rotation");
        if (!is_unit(q, 3)) printf(" r"), print_vec(q);
        const json_t *sc = json_object_get(nd, "scale");
        if (!all_equal(sc, 1)) printf(" s"), print_vec(sc);
        if (json_is_integer(json_object_get(nd, "mesh"))) {
            size_t np = json_array_size(json_object_get(nd, "primitives"));
            printf(" mesh %lld (%zu primitive%s)", I(nd, "mesh"), np, np == 1 ? "" : "s");
        }
        const json_t *w = json_object_get(nd, "weights");
        if (json_array_size(w)) printf(" weights"), print_vec(w);
        if (json_is_integer(json_object_get(nd, "skin")))
            printf(" skin %lld -> %s", I(nd, "skin"), S(nd, "skeleton"));
        if (json_is_integer(json_object_get(nd, "camera"))) {
            const json_t *c = json_array_get(cams, (size_t)I(nd, "camera"));
            printf(" camera \"%s\" (%s)", S(c, "name"), S(c, "type"));
        }
        if (json_is_integer(json_object_get(nd, "light"))) {
            const json_t *l = json_array_get(lights, (size_t)I(nd, "light"));
            printf(" light \"%s\" (%s)", S(l, "name"), S(l, "type"));
        }
        putchar('\n');
    }
    if (shown < n) printf("    ... %zu more nodes (--json lists them all)\n", n - shown);
    free(depth);
    size_t i;
    json_t *c;
    json_array_foreach (json_object_get(s, "clips"), i, c)
        printf("    clip %zu: %s\n", i, json_string_value(c));
}

static void print_mesh(const json_t *m)
{
    printf("  mesh: %lld vertices, %lld indices, %s%s, material %s, %lld meshlets\n",
           I(m, "vertex_count"), I(m, "index_count"), B(m, "quantized") ? "quantized" : "float",
           B(m, "compressed") ? ", meshopt-compressed" : "",
           json_is_null(json_object_get(m, "material")) ? "default" : S(m, "material"),
           I(m, "meshlet_count"));
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(m, "levels"), i, v)
        printf("    level %zu: %lld triangles, error %g (%g absolute), %lld meshlets\n", i,
               I(v, "triangles"), F(v, "error"), F(v, "error_absolute"), I(v, "meshlets"));
    json_array_foreach (json_object_get(m, "streams"), i, v)
        printf("    %-16s %-14s %lld x %lld bytes, %lld stored\n", S(v, "stream"), S(v, "format"),
               I(v, "count"), I(v, "stride"), I(v, "size"));
}

static void print_skeleton(const json_t *s)
{
    printf("  skeleton \"%s\" (skin %lld): %lld joints, %lld roots\n", S(s, "name"), I(s, "skin"),
           I(s, "joint_count"), I(s, "root_count"));
}

static void print_clip(const json_t *c)
{
    printf("  clip \"%s\": %g .. %g s, %zu tracks, %lld keys (%lld in the source)%s%s\n",
           S(c, "name"), F(c, "start"), F(c, "end"), json_array_size(json_object_get(c, "tracks")),
           I(c, "key_count"), I(c, "source_key_count"), B(c, "resampled") ? ", resampled" : "",
           B(c, "reduced") ? ", reduced" : "");
}

/* The members of a container document that are not a kind's summary. */
static const char *const document_members[] = {
    "type",     "kind",    "kind_version", "container_version", "size", "checksum",
    "sections", "command", "file",         "artifact"};

static bool is_scalar(const json_t *v) { return !json_is_object(v) && !json_is_array(v); }

static void print_scalar(const json_t *v)
{
    if (json_is_string(v)) printf("\"%s\"", json_string_value(v));
    else if (json_is_integer(v)) printf("%lld", json_integer_value(v));
    else if (json_is_real(v)) printf("%g", json_real_value(v));
    else printf("%s", json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null");
}

/* "key: value", or "key:" and the members or elements indented below it; arrays of scalars on
 * one line. */
static void print_tree(const char *key, const json_t *v, int indent)
{
    printf("%*s%s:", indent, "", key);
    size_t i;
    json_t *e;
    bool scalars = json_is_array(v);
    json_array_foreach (v, i, e) scalars &= is_scalar(e);
    if (is_scalar(v)) {
        putchar(' ');
        print_scalar(v);
        putchar('\n');
    } else if (scalars) {
        printf(" [");
        json_array_foreach (v, i, e) {
            if (i) printf(", ");
            print_scalar(e);
        }
        printf("]\n");
    } else if (json_is_array(v)) {
        putchar('\n');
        json_array_foreach (v, i, e) {
            char index[32];
            snprintf(index, sizeof index, "[%zu]", i);
            print_tree(index, e, indent + 2);
        }
    } else {
        putchar('\n');
        const char *k;
        json_object_foreach ((json_t *)v, k, e) print_tree(k, e, indent + 2);
    }
}

/* Whether member k of a container document is the summary of a kind without its own printer. */
static bool is_other_summary(const char *k)
{
    static const char *const printed[] = {"material", "scene",  "mesh",           "skeleton",
                                          "clip",     "shader", "typed_material", "vgeo"};
    for (size_t i = 0; i < sizeof document_members / sizeof document_members[0]; i++)
        if (!strcmp(k, document_members[i])) return false;
    for (size_t i = 0; i < sizeof printed / sizeof printed[0]; i++)
        if (!strcmp(k, printed[i])) return false;
    return true;
}

void kiln_inspect_print_container(const json_t *doc, const char *path)
{
    printf("%s: kiln container %s version %lld (container version %lld), %lld bytes, checksum %s\n",
           path, S(doc, "kind"), I(doc, "kind_version"), I(doc, "container_version"),
           I(doc, "size"), S(doc, "checksum"));
    printf("  %-8s %8s %10s %10s %10s\n", "section", "offset", "element", "count", "bytes");
    size_t i;
    json_t *s;
    json_array_foreach (json_object_get(doc, "sections"), i, s)
        printf("  %-8s %8lld %10lld %10lld %10lld\n", S(s, "id"), I(s, "offset"),
               I(s, "element_size"), I(s, "count"), I(s, "size"));
    const json_t *m;
    if ((m = json_object_get(doc, "material"))) print_material(m);
    if ((m = json_object_get(doc, "scene"))) print_scene(m);
    if ((m = json_object_get(doc, "mesh"))) print_mesh(m);
    if ((m = json_object_get(doc, "skeleton"))) print_skeleton(m);
    if ((m = json_object_get(doc, "clip"))) print_clip(m);
    if ((m = json_object_get(doc, "shader"))) kiln_inspect_print_shader(m);
    if ((m = json_object_get(doc, "typed_material"))) kiln_inspect_print_typed_material(m);
    if ((m = json_object_get(doc, "vgeo"))) kiln_inspect_print_vgeo(m);
    const char *k;
    json_object_foreach ((json_t *)doc, k, m)
        if (is_other_summary(k)) print_tree(k, m, 2);
}
