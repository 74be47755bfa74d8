/* csg_demo.c — a kind that kiln does not have, added from outside the library: CSG shape sets.
 *
 *   csg_demo ASSETS WORK
 *
 * copies the .csg scenes (and their .meta) of ASSETS into WORK/assets, then, through the public
 * API only: registers the shape types, the "csg" source kind and its cooked kind with a project;
 * imports, reports and packs WORK/assets like any other assets; mounts the pack in libkiln_rt
 * with the "csg" runtime type registered and loads every set; mounts the cache, loads a set,
 * edits its source (one more shape), imports again, and sees the loaded set replaced in place
 * (hot reload). Exits 0 when every step did what it should, 1 with a message otherwise. */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csg_cook.h"
#include "csg_format.h"
#include "csg_runtime.h"
#include "csg_shapes.h"
#include "kiln/kiln.h"
#include "kiln/kiln_kind.h"
#include "kiln/kiln_rt.h"

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("csg_demo: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

static int fail_err(const char *what, const kiln_error *e)
{
    return fail("%s: %s: %s", what, kiln_result_name(e->code), e->message);
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[65536];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = 0;
    return ok ? 0 : -1;
}

/* Copies the *.csg and *.csg.meta files of src into dst (created). Returns the .csg count. */
static int copy_assets(const char *src, const char *dst)
{
    if (mkdir(dst, 0755) != 0 && errno != EEXIST) return -1;
    DIR *d = opendir(src);
    if (!d) return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        int is_csg = n > 4 && !strcmp(e->d_name + n - 4, ".csg");
        int is_meta = n > 9 && !strcmp(e->d_name + n - 9, ".csg.meta");
        if (!is_csg && !is_meta) continue;
        char a[4096], b[4096];
        if (snprintf(a, sizeof a, "%s/%s", src, e->d_name) >= (int)sizeof a ||
            snprintf(b, sizeof b, "%s/%s", dst, e->d_name) >= (int)sizeof b ||
            copy_file(a, b) != 0) {
            count = -1;
            break;
        }
        count += is_csg;
    }
    closedir(d);
    return count;
}

/* Loads name as a CSG set and runs krt_update until it is ready. */
static int load_set(krt_context *ctx, krt_type type, const char *name, krt_handle *h,
                    krt_custom_data *data)
{
    kiln_error e;
    *h = krt_load(ctx, type, name, &e);
    if (!h->id) return fail_err(name, &e);
    while (krt_state_of(ctx, *h) == KRT_STATE_LOADING) {
        krt_wait(ctx);
        krt_update(ctx);
    }
    if (krt_state_of(ctx, *h) != KRT_STATE_READY) {
        krt_error(ctx, *h, &e);
        return fail_err(name, &e);
    }
    if (krt_get_data(ctx, *h, type, data, &e) != KILN_OK) return fail_err(name, &e);
    return 0;
}

/* kiln_inspect_file with the csg kind given: the cooked scene.csg (found through the import
 * record's cache entry) is described by csg_cooked_kind.describe. */
static int inspect_set(const char *import_doc)
{
    json_t *doc = json_loads(import_doc, 0, NULL);
    const char *entry = NULL;
    size_t i;
    json_t *r;
    json_array_foreach (json_object_get(doc, "records"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "path")), "scene.csg"))
            entry = json_string_value(json_object_get(r, "entry"));
    char path[4096];
    snprintf(path, sizeof path, "%.4000s/set.kcsg", entry ? entry : "");
    json_decref(doc);
    if (!entry) return fail("import: no record of scene.csg");
    const kiln_cooked_kind *kinds[] = {&csg_cooked_kind};
    kiln_inspect_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.kinds = kinds;
    o.kind_count = 1;
    char *text = NULL;
    kiln_error e;
    if (kiln_inspect_file(path, &o, &text, &e) != KILN_OK) return fail_err("inspect", &e);
    doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    json_t *set = json_object_get(doc, "csg");
    long long shapes = json_integer_value(json_object_get(set, "shape_count"));
    size_t types = json_array_size(json_object_get(set, "types"));
    const char *first = json_string_value(
        json_object_get(json_array_get(json_object_get(set, "types"), 0), "name"));
    int rc = 0;
    if (shapes != 5 || types != 4 || !first)
        rc = fail("inspect: expected 5 shapes of 4 types, got %lld of %zu", shapes, types);
    else
        printf("inspect: scene.csg#csg: kind %s, %lld shapes of %zu types (first %s)\n",
               json_string_value(json_object_get(doc, "kind")), shapes, types, first);
    json_decref(doc);
    return rc;
}

static int cook_side(const char *work, const char *root, const char *out,
                     const csg_shape_registry *shapes, const char *pack, kiln_project **project)
{
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = work;
    o.root = root;
    o.out = out;
    kiln_error e;
    if (kiln_project_open(&o, project, &e) != KILN_OK) return fail_err("open the project", &e);
    kiln_source_kind_desc source = csg_source_kind(shapes);
    const kiln_cooked_kind *cooked[] = {&csg_cooked_kind};
    if (kiln_project_register_kind(*project, &source, cooked, 1, &e) != KILN_OK)
        return fail_err("register the csg kind", &e);

    char *doc = NULL;
    if (kiln_project_import(*project, NULL, 0, KILN_IMPORT_ALL, &doc, &e) != KILN_OK)
        return fail_err("import", &e);
    int rc = inspect_set(doc);
    kiln_string_free(doc);
    if (rc) return rc;
    if (kiln_project_report(*project, &doc, &e) != KILN_OK) return fail_err("report", &e);
    /* One row per asset, each with "state": every one of them up to date. */
    int fresh = strstr(doc, "\"state\": \"up_to_date\"") && !strstr(doc, "\"state\": \"stale\"") &&
                !strstr(doc, "\"state\": \"invalid\"") &&
                !strstr(doc, "\"state\": \"not_imported\"");
    kiln_string_free(doc);
    if (!fresh) return fail("report: not every set is up to date after the import");
    kiln_pack_opts po;
    memset(&po, 0, sizeof po);
    po.struct_size = sizeof po;
    po.output = pack;
    if (kiln_project_pack(*project, NULL, 0, KILN_IMPORT_ALL, &po, &doc, &e) != KILN_OK)
        return fail_err("pack", &e);
    kiln_string_free(doc);
    printf("cooked: every .csg imported, up to date, packed into %s\n", pack);
    return 0;
}

static krt_context *runtime(csg_renderer *renderer, krt_type *type, kiln_error *e)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    krt_context *ctx = NULL;
    if (krt_create(&d, &ctx, e) != KILN_OK) return NULL;
    if (csg_register_runtime_type(ctx, renderer, type, e) != KILN_OK) {
        krt_destroy(ctx);
        return NULL;
    }
    return ctx;
}

static int from_pack(const char *pack)
{
    csg_renderer renderer = {0};
    krt_type type;
    kiln_error e;
    krt_context *ctx = runtime(&renderer, &type, &e);
    if (!ctx) return fail_err("runtime", &e);
    int rc = 0;
    if (krt_mount_pack(ctx, pack, NULL, &e) != KILN_OK) rc = fail_err("mount the pack", &e);
    krt_handle h;
    krt_custom_data data;
    if (!rc) rc = load_set(ctx, type, "scene.csg#csg", &h, &data);
    if (!rc) {
        const csg_set *s = data.data;
        const csg_view *v = data.view;
        printf("pack: scene.csg#csg: %u shapes of %u types, bounds (%.2f %.2f %.2f)..(%.2f %.2f "
               "%.2f); first type %s\n",
               s->shape_count, s->type_count, s->bounds_min[0], s->bounds_min[1], s->bounds_min[2],
               s->bounds_max[0], s->bounds_max[1], s->bounds_max[2], v->types[0].name);
        if (s->shape_count != 5 || renderer.creates != 1 || renderer.last_shape_count != 5)
            rc = fail("pack: expected 5 shapes created once, got %u (%d creates)", s->shape_count,
                      renderer.creates);
        krt_release(ctx, h, NULL);
        krt_update(ctx);
        if (!rc && renderer.destroys != 1) rc = fail("pack: the released set was not destroyed");
    }
    krt_destroy(ctx);
    return rc;
}

static int hot_reload(kiln_project *project, const char *cache, const char *scene)
{
    csg_renderer renderer = {0};
    krt_type type;
    kiln_error e;
    krt_context *ctx = runtime(&renderer, &type, &e);
    if (!ctx) return fail_err("runtime", &e);
    int rc = 0;
    if (krt_mount_cache(ctx, cache, NULL, &e) != KILN_OK) rc = fail_err("mount the cache", &e);
    krt_handle h;
    krt_custom_data data;
    if (!rc) rc = load_set(ctx, type, "scene.csg#csg", &h, &data);
    /* One more shape in the source, imported again: the loaded set is replaced in place. */
    FILE *f = rc ? NULL : fopen(scene, "wb");
    if (!rc && !f) rc = fail("cannot write %s", scene);
    if (f) {
        fputs("{\"shapes\": [\n"
              "  {\"type\": \"box\", \"position\": [0, 0.5, 0], \"params\": [2, 0.5, 2]},\n"
              "  {\"type\": \"sphere\", \"position\": [0, 1.5, 0], \"params\": [0.75]},\n"
              "  {\"type\": \"capsule\", \"position\": [1.5, 1.5, 1.5]},\n"
              "  {\"type\": \"torus\", \"position\": [-1.5, 1.125, -1.5], \"scale\": 2},\n"
              "  {\"type\": \"sphere\", \"position\": [1.5, 1.25, -1.5]},\n"
              "  {\"type\": \"box\", \"position\": [0, 3, 0], \"scale\": 0.5}\n"
              "]}\n",
              f);
        if (fclose(f) != 0) rc = fail("cannot write %s", scene);
    }
    char *doc = NULL;
    if (!rc && kiln_project_import(project, NULL, 0, KILN_IMPORT_ALL, &doc, &e) != KILN_OK)
        rc = fail_err("import again", &e);
    kiln_string_free(doc);
    size_t reloads = 0;
    if (!rc && krt_poll_changes(ctx, &reloads, &e) != KILN_OK) rc = fail_err("poll", &e);
    if (!rc && reloads != 1) rc = fail("poll: %zu reloads started, expected 1", reloads);
    for (int i = 0; !rc && renderer.replaces == 0 && i < 1000; i++) {
        krt_wait(ctx);
        krt_update(ctx);
    }
    if (!rc && krt_get_data(ctx, h, type, &data, &e) != KILN_OK) rc = fail_err("reloaded", &e);
    if (!rc) {
        const csg_set *s = data.data;
        printf("hot reload: scene.csg#csg replaced in place: %u shapes (renderer: %d create, %d "
               "replace)\n",
               s->shape_count, renderer.creates, renderer.replaces);
        if (s->shape_count != 6 || renderer.replaces != 1 || renderer.last_shape_count != 6)
            rc = fail("hot reload: expected 6 shapes replaced once");
    }
    krt_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: csg_demo ASSETS WORK\n");
        return 2;
    }
    char root[4096], out[4096], pack[4096], cache[4096], scene[4096];
    if (strlen(argv[2]) > 2048) return fail("%s: path too long", argv[2]);
    snprintf(root, sizeof root, "%.2048s/assets", argv[2]);
    snprintf(out, sizeof out, "%.2048s/.kiln", argv[2]);
    snprintf(pack, sizeof pack, "%.2048s/.kiln/csg.kpak", argv[2]);
    snprintf(cache, sizeof cache, "%.2048s/.kiln/cache", argv[2]);
    snprintf(scene, sizeof scene, "%.2048s/assets/scene.csg", argv[2]);
    if (mkdir(argv[2], 0755) != 0 && errno != EEXIST) return fail("cannot make %s", argv[2]);
    int sets = copy_assets(argv[1], root);
    if (sets < 1) return fail("no .csg file could be copied from %s", argv[1]);

    csg_shape_registry shapes;
    memset(&shapes, 0, sizeof shapes);
    char why[160];
    if (csg_register_builtin_shapes(&shapes, why, sizeof why) != 0) return fail("%s", why);
    /* A type without a bounds function is refused. */
    csg_shape_type no_bounds = {"cone", 8, (const float[]){0.5f, 1.0f}, NULL};
    if (csg_register_shape(&shapes, &no_bounds, why, sizeof why) == 0)
        return fail("a shape type without bounds was accepted");
    printf("shapes: %zu types registered; refused: %s\n", shapes.count, why);

    kiln_project *project = NULL;
    int rc = cook_side(argv[2], root, out, &shapes, pack, &project);
    if (!rc) rc = from_pack(pack);
    if (!rc) rc = hot_reload(project, cache, scene);
    kiln_project_close(project);
    if (!rc) printf("csg_demo: every step passed\n");
    return rc;
}
