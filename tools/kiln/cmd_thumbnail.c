/* cmd_thumbnail.c — kiln thumbnail NAME#label|FILE -o OUT.png: a picture of a cooked artifact,
 * drawn headless by kiln's Vulkan renderer (tools/view, libkiln_view) as a client of libkiln_rt
 * (docs/rendering.md "kiln thumbnail").
 *
 *   NAME#label   an artifact of the project: its current cache entry (kiln_project_inspect says
 *                which, or why there is none); the cache is mounted in libkiln_rt and the
 *                artifact loaded from it by its asset id
 *   FILE         a source of the project (an image: its #texture; a model: its #scene), or a
 *                cooked file alone (a KTX2; a kiln container)
 *
 * thumbnail_resolve.c tells which. The artifact's type picks the function that draws it
 * (kinds[] below: textures in thumbnail_texture.c, models, scenes, meshes and materials in
 * thumbnail_model.c, a virtual geometry's cut in thumbnail_vgeo.c). The renderer's shaders are
 * kiln-cooked shader assets too: tools/view/shaders packed at build time into view_shaders.kpak
 * beside kiln (share/kiln/ when installed; $KILN_VIEW_SHADERS names another), mounted in the same
 * libkiln_rt context. Test hooks (environment): KILN_VULKAN_VALIDATION=1 requires the validation
 * layer and fails on any message it sends; KILN_RENDER_PIN keeps the named Vulkan drivers loaded
 * for the process's life (LeakSanitizer: tests/render/render_fixture.h says why). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct thumb_args {
    const char *output, *size, *level, *layer, *view, *time, *lod, *camera, *clip, *background,
        *bounds, *distance, *pixel_error, *cut_distance;
} thumb_args;

/* Moves thumbnail's own options out of argv into *a; the rest go to rest[] (rest[0] = argv[0]).
 * Returns the name of an option that lacks its value, or NULL. */
static const char *take_options(int argc, char **argv, thumb_args *a, char **rest, int *rest_count)
{
    *rest_count = 0;
    rest[(*rest_count)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char **slot = !strcmp(o, "-o") || !strcmp(o, "--output") ? &a->output
                            : !strcmp(o, "--size")                     ? &a->size
                            : !strcmp(o, "--level")                    ? &a->level
                            : !strcmp(o, "--layer")                    ? &a->layer
                            : !strcmp(o, "--view")                     ? &a->view
                            : !strcmp(o, "--time")                     ? &a->time
                            : !strcmp(o, "--lod")                      ? &a->lod
                            : !strcmp(o, "--camera")                   ? &a->camera
                            : !strcmp(o, "--clip")                     ? &a->clip
                            : !strcmp(o, "--background")               ? &a->background
                            : !strcmp(o, "--bounds")                   ? &a->bounds
                            : !strcmp(o, "--distance")                 ? &a->distance
                            : !strcmp(o, "--pixel-error")              ? &a->pixel_error
                            : !strcmp(o, "--cut-distance")             ? &a->cut_distance
                                                                       : NULL;
        if (!slot) {
            rest[(*rest_count)++] = argv[i];
            continue;
        }
        if (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2)) return o;
        *slot = argv[++i];
    }
    return NULL;
}

/* A whole number in min..max, or false. */
static bool parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *out)
{
    if (!text || !*text) return false;
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (*end || text[0] == '-' || text[0] == '+' || v < min || v > max) return false;
    *out = (uint32_t)v;
    return true;
}

/* Between min and max comma-separated numbers, each within lo..hi, into out (as many as given;
 * a fourth background component defaults to 255). */
static bool parse_floats(const char *text, size_t min, size_t max, double lo, double hi, float *out,
                         size_t *count)
{
    size_t n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || n == max || !(v >= lo && v <= hi)) return false;
        out[n++] = (float)v;
        if (*end == ',') p = end + 1;
        else if (*end == '\0') p = end;
        else return false;
    }
    if (n < min) return false;
    if (n == 3 && max == 4) out[3] = 255.0f;
    if (count) *count = n;
    return true;
}

static bool word_of(const char *word, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(word, *list)) return true;
    return false;
}

static const char *const views[] = {"lit",      "unlit",    "normals", "uv", "lod",
                                    "meshlets", "clusters", "levels",  NULL};
static const char *const cameras[] = {"auto",  "front", "back",   "left",
                                      "right", "top",   "bottom", NULL};

#ifndef KILN_HAVE_VIEW

int kiln_cmd_thumbnail(int argc, char **argv)
{
    (void)views;
    (void)cameras;
    (void)word_of;
    (void)parse_u32;
    thumb_args a = {0};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) return KILN_EXIT_FAILED;
    int rest_count = 0;
    (void)take_options(argc, argv, &a, rest, &rest_count);
    kiln_cli c = {.command = "thumbnail"};
    bool parsed = kiln_cli_parse(&c, rest_count, rest, "");
    free(rest);
    if (!parsed) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    kiln_error e = {.code = KILN_E_IMPORT_UNSUPPORTED, .offset = UINT64_MAX};
    snprintf(e.message, sizeof e.message,
             "this kiln was built without its Vulkan renderer (tools/view needs the Vulkan "
             "headers, Debian libvulkan-dev)");
    int code = kiln_cli_fail(&c, KILN_E_IMPORT_UNSUPPORTED, &e);
    kiln_cli_free(&c);
    return code;
}

#else

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include "thumbnail.h"

kiln_result kiln_thumb_error(kiln_error *err, kiln_result code, const char *fmt, ...)
{
    if (!err) return code;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = UINT64_MAX;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

typedef kiln_result (*thumb_fn)(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err);

/* The kinds that have a picture: the artifact's type picks the function that draws it. */
static const struct thumb_kind {
    krt_type type;
    const char *name; /* in --json "kind" and messages */
    thumb_fn draw;
} kinds[] = {
    {KRT_TYPE_TEXTURE, "texture", kiln_thumb_texture},
    {KRT_TYPE_SCENE, "scene", kiln_thumb_model},
    {KRT_TYPE_MESH, "mesh", kiln_thumb_model},
    {KRT_TYPE_MATERIAL, "material", kiln_thumb_model},
    {KRT_TYPE_TYPED_MATERIAL, "typed material", kiln_thumb_model},
    {KRT_TYPE_VGEO, "virtual geometry", kiln_thumb_vgeo},
};

static const struct thumb_kind *kind_of(krt_type t)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].type == t) return &kinds[i];
    return NULL;
}

static const char *type_name(krt_type t)
{
    switch (t) {
    case KRT_TYPE_SKELETON:
        return "skeleton";
    case KRT_TYPE_CLIP:
        return "clip";
    case KRT_TYPE_SHADER:
        return "shader";
    default: {
        const struct thumb_kind *k = kind_of(t);
        return k ? k->name : "file of an unknown kind";
    }
    }
}

/* Keeps each library of $KILN_RENDER_PIN (':'-separated) loaded for the process's life. */
void kiln_thumb_pin_drivers(void)
{
    const char *list = getenv("KILN_RENDER_PIN");
    char name[256];
    while (list && *list) {
        size_t n = strcspn(list, ":");
        if (n > 0 && n < sizeof name) {
            memcpy(name, list, n);
            name[n] = '\0';
            (void)dlopen(name, RTLD_NOW | RTLD_LOCAL); /* never closed, on purpose */
        }
        list += n;
        if (*list == ':') list++;
    }
}

/* The renderer's shaders: $KILN_VIEW_SHADERS, else view_shaders.kpak beside the kiln executable
 * (a build tree), else ../share/kiln/view_shaders.kpak from it (an installed kiln). */
void kiln_thumb_pack_path(char *out, size_t cap)
{
    const char *env = getenv("KILN_VIEW_SHADERS");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return;
    }
    char exe[2048];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(out, cap, "view_shaders.kpak");
        return;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    struct stat st;
    snprintf(out, cap, "%s/view_shaders.kpak", exe);
    if (stat(out, &st) == 0) return;
    snprintf(out, cap, "%s/../share/kiln/view_shaders.kpak", exe);
}

kiln_result kiln_thumb_shader(krt_context *rt, const char *name, const kv_shader **out,
                              kiln_error *err)
{
    *out = NULL;
    krt_handle h = krt_load_shader(rt, name, err);
    if (!h.id)
        return kiln_thumb_error(err, KILN_E_ASSET_IO,
                                "the renderer's shader %.100s is not in its pack (view_shaders."
                                "kpak of this build?)",
                                name);
    krt_finish(rt);
    if (krt_state_of(rt, h) != KRT_STATE_READY) {
        kiln_result r = krt_error(rt, h, err);
        return r ? r : kiln_thumb_error(err, KILN_E_INTERNAL, "%.100s: still loading", name);
    }
    *out = krt_gpu(rt, h);
    return *out ? KILN_OK
                : kiln_thumb_error(err, KILN_E_INTERNAL, "%.100s: no shader module", name);
}

/* Vulkan, libkiln_rt with kv as its renderer, the shader pack and the project's cache; then the
 * kind's function draws. */
static kiln_result render(const kiln_cli *c, const kiln_thumb_target *t, const kiln_thumb_opts *o,
                          kiln_thumb_image *img, char *device, size_t device_cap, kiln_error *err)
{
    const struct thumb_kind *kind = kind_of(t->type);
    if (!kind)
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED, "%.200s: a %s has no thumbnail",
                                t->name, type_name(t->type));
    kiln_thumb_pin_drivers();
    const char *v = getenv("KILN_VULKAN_VALIDATION");
    bool validate = v && *v && strcmp(v, "0") != 0;
    kv_context_desc kd = {
        .struct_size = sizeof kd, .no_validation = !validate, .require_validation = validate};
    kv_context *kv = NULL;
    kiln_result r = kv_context_create(&kd, &kv, err);
    if (r) return r;
    snprintf(device, device_cap, "%s", kv_device_name(kv));
    krt_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.worker_count = c->jobs ? c->jobs : 2;
    kv_renderer_fill(kv, &desc.renderer, &desc.renderer_shaders);
    krt_context *rt = NULL;
    r = krt_create(&desc, &rt, err);
    char pack[2200];
    kiln_thumb_pack_path(pack, sizeof pack);
    if (!r && krt_mount_pack(rt, pack, NULL, err) != KILN_OK) {
        char why[200];
        snprintf(why, sizeof why, "%.199s", err->message);
        r = kiln_thumb_error(err, KILN_E_ASSET_IO,
                             "the renderer's shaders: %.150s (KILN_VIEW_SHADERS names the pack)",
                             why);
    }
    if (!r && t->cache) r = krt_mount_cache_platform(rt, t->cache, c->platform, NULL, err);
    if (!r && t->cache && krt_lookup_id(rt, t->asset_id) != t->type)
        r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: not in the mounted cache %.200s",
                             t->name, t->cache);
    if (!r) {
        kiln_thumb_job job = {
            .opts = o,
            .name = t->name,
            .file = t->file,
            .kv = kv,
            .rt = rt,
            .renderer = &desc.renderer,
            .asset_id = t->cache ? t->asset_id : 0,
            .type = t->type,
        };
        r = kind->draw(&job, img, err);
    }
    krt_destroy(rt);
    kv_messages m;
    kv_messages_get(kv, &m);
    uint32_t left = kv_context_destroy_checked(kv); /* objects alive at the device's end */
    if (validate && left && !r)
        r = kiln_thumb_error(err, KILN_E_INTERNAL,
                             "vulkan validation: %u messages at device destruction (printed "
                             "above)",
                             left);
    if (validate && (m.errors || m.warnings)) {
        for (uint32_t i = 0; i < m.kept; i++) fprintf(stderr, "validation: %s\n", m.text[i]);
        if (!r)
            r = kiln_thumb_error(err, KILN_E_INTERNAL,
                                 "vulkan validation: %u errors, %u warnings (printed above)",
                                 m.errors, m.warnings);
    }
    return r;
}

static int usage_value(kiln_cli *c, const char *option, const char *value, const char *want)
{
    return kiln_cli_usage(c, "bad %s %s: %s", option, value, want);
}

int kiln_cmd_thumbnail(int argc, char **argv)
{
    thumb_args a = {0};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    kiln_cli c = {.command = "thumbnail"};
    if (!rest) return KILN_EXIT_FAILED;
    int rest_count = 0;
    const char *missing = take_options(argc, argv, &a, rest, &rest_count);
    bool parsed = kiln_cli_parse(&c, rest_count, rest, "");
    free(rest);
    if (!parsed) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (missing) return kiln_cli_usage(&c, "%s needs a value", missing);
    if (c.positional_count != 1)
        return kiln_cli_usage(&c, "thumbnail takes exactly one NAME#label or FILE");
    if (!a.output) return kiln_cli_usage(&c, "thumbnail needs -o OUT.png");
    kiln_thumb_opts o = {.size = 256,
                         .view = NULL, /* the kind's default */
                         .camera = "auto",
                         .distance = 1.0,
                         .pixel_error = 1.0f,
                         .lod = -1,
                         .clip = 0,
                         .background = {32, 64, 96, 255}};
    uint32_t u;
    if (a.size && !parse_u32(a.size, 1, 4096, &o.size))
        return usage_value(&c, "--size", a.size, "give 1..4096 pixels");
    if (a.level && !parse_u32(a.level, 0, KILN_KTX2_MAX_LEVELS - 1, &o.level))
        return usage_value(&c, "--level", a.level, "give a mip level 0..15");
    if (a.layer && !parse_u32(a.layer, 0, 6 * KILN_KTX2_MAX_LAYERS - 1, &o.layer))
        return usage_value(&c, "--layer", a.layer,
                           "give a cube face 0..5 (+X -X +Y -Y +Z -Z), an array layer or a "
                           "volume slice");
    if (a.lod) {
        if (!parse_u32(a.lod, 0, 255, &u))
            return usage_value(&c, "--lod", a.lod, "give a LOD 0..255");
        o.lod = (int32_t)u;
    }
    if (a.time) {
        char *end;
        o.time = strtod(a.time, &end);
        if (*end || !*a.time || !(o.time >= 0.0 && o.time <= 1e9))
            return usage_value(&c, "--time", a.time, "give seconds, 0 or more");
    }
    if (a.view && !word_of(a.view, views))
        return usage_value(&c, "--view", a.view,
                           "lit, unlit, normals, uv, lod or meshlets (a virtual geometry: "
                           "clusters, levels, lit, unlit, normals or uv)");
    if (a.view) o.view = a.view;
    if (a.camera && !word_of(a.camera, cameras))
        return usage_value(&c, "--camera", a.camera,
                           "auto, front, back, left, right, top or bottom");
    if (a.camera) o.camera = a.camera;
    if (a.distance) {
        char *end;
        o.distance = strtod(a.distance, &end);
        if (*end || !*a.distance || !(o.distance >= 0.01 && o.distance <= 1e6))
            return usage_value(&c, "--distance", a.distance,
                               "give a multiple of the framing distance, 0.01..1e6");
    }
    if (a.cut_distance) {
        char *end;
        o.cut_distance = strtod(a.cut_distance, &end);
        if (*end || !*a.cut_distance || !(o.cut_distance >= 0.01 && o.cut_distance <= 1e6))
            return usage_value(&c, "--cut-distance", a.cut_distance,
                               "give a multiple of the framing distance, 0.01..1e6");
    }
    if (a.pixel_error) {
        char *end;
        double pe = strtod(a.pixel_error, &end);
        if (*end || !*a.pixel_error || !(pe > 0.0 && pe <= 1e6))
            return usage_value(&c, "--pixel-error", a.pixel_error,
                               "give pixels, above 0 and at most 1e6");
        o.pixel_error = (float)pe;
    }
    if (a.clip) {
        if (!strcmp(a.clip, "none")) o.clip = KV_NO_CLIP;
        else if (!parse_u32(a.clip, 0, 1u << 20, &o.clip))
            return usage_value(&c, "--clip", a.clip, "give a clip index or none");
    }
    if (a.background && !parse_floats(a.background, 3, 4, 0.0, 255.0, o.background, NULL))
        return usage_value(&c, "--background", a.background, "give r,g,b[,a], each 0..255");
    if (a.bounds) {
        size_t n = 0;
        if (!parse_floats(a.bounds, 6, 6, -1e30, 1e30, o.bounds, &n))
            return usage_value(&c, "--bounds", a.bounds,
                               "give minx,miny,minz,maxx,maxy,maxz, finite");
        o.has_bounds = true;
    }

    const char *arg = c.positional[0];
    kiln_thumb_target t;
    kiln_error err = {.offset = UINT64_MAX};
    int code = KILN_EXIT_OK;
    kiln_result r = kiln_thumb_resolve(&c, arg, &t, &code, &err);
    kiln_thumb_image img = {0};
    char device[256] = "";
    if (code) { /* the project did not open: printed */
        kiln_thumb_target_free(&t);
        kiln_cli_free(&c);
        return code;
    }
    if (!r) r = render(&c, &t, &o, &img, device, sizeof device, &err);
    if (!r) r = kiln_thumb_write_png(a.output, &img, &err);
    if (r) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        json_t *d =
            json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:s,s:s}", "command", "thumbnail", "input", arg,
                      "output", a.output, "kind", type_name(t.type), "width", (json_int_t)img.width,
                      "height", (json_int_t)img.height, "drawn", img.what, "device", device);
        char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2));
        kiln_cli_print_json(s);
        free(s);
        json_decref(d);
    } else if (!c.quiet) {
        printf("%s: %s -> %s (%ux%u)\n", arg, img.what, a.output, img.width, img.height);
    }
    free(img.rgba);
    kiln_thumb_target_free(&t);
    kiln_cli_free(&c);
    return code;
}

#endif
