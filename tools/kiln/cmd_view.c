/* cmd_view.c — kiln view PATH: an interactive window on a project asset, drawn by kiln's Vulkan
 * renderer (tools/view) as a client of libkiln_rt, with hot reload (docs/rendering.md "kiln
 * view").
 *
 *   PATH   a model source (its #scene) or NAME#label of a scene, mesh or material of the project
 *          (what kiln thumbnail resolves: thumbnail_resolve.c); textures are left out (kiln
 *          thumbnail draws them)
 *
 * Here: the options, GLFW (opened at run time: view_glfw.c), the Vulkan context with the
 * window system's instance extensions, libkiln_rt with kv as its renderer, the renderer's shader
 * pack and the project's cache mounted and watched, the window, its surface and swapchain; then
 * view_loop.c runs the frames. Test hooks: --frames, --until-reload, --screenshot (view.h);
 * KILN_VULKAN_VALIDATION=1 requires the validation layer and fails on any message it sends;
 * KILN_RENDER_PIN as for kiln thumbnail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct view_args {
    const char *view, *clip, *lod, *camera, *size, *frames, *screenshot, *keys, *resize;
    bool until_reload;
} view_args;

/* Moves view's own options out of argv into *a; the rest go to rest[] (rest[0] = argv[0]).
 * Returns the name of an option that lacks its value, or NULL. */
static const char *take_options(int argc, char **argv, view_args *a, char **rest, int *rest_count)
{
    *rest_count = 0;
    rest[(*rest_count)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--until-reload")) {
            a->until_reload = true;
            continue;
        }
        const char **slot = !strcmp(o, "--view")         ? &a->view
                            : !strcmp(o, "--clip")       ? &a->clip
                            : !strcmp(o, "--lod")        ? &a->lod
                            : !strcmp(o, "--camera")     ? &a->camera
                            : !strcmp(o, "--size")       ? &a->size
                            : !strcmp(o, "--frames")     ? &a->frames
                            : !strcmp(o, "--screenshot") ? &a->screenshot
                            : !strcmp(o, "--keys")       ? &a->keys
                            : !strcmp(o, "--resize")     ? &a->resize
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

#if !defined(KILN_HAVE_VIEW) || !defined(KILN_HAVE_GLFW)

int kiln_cmd_view(int argc, char **argv)
{
    view_args a = {0};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) return KILN_EXIT_FAILED;
    int rest_count = 0;
    (void)take_options(argc, argv, &a, rest, &rest_count);
    kiln_cli c = {.command = "view"};
    bool parsed = kiln_cli_parse(&c, rest_count, rest, "");
    free(rest);
    if (!parsed) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    kiln_error e = {.code = KILN_E_IMPORT_UNSUPPORTED, .offset = UINT64_MAX};
#ifndef KILN_HAVE_VIEW
    snprintf(e.message, sizeof e.message,
             "this kiln was built without its Vulkan renderer (tools/view needs the Vulkan "
             "headers, Debian libvulkan-dev)");
#else
    snprintf(e.message, sizeof e.message,
             "this kiln was built without a window system: kiln view needs GLFW's headers at "
             "build time (Debian libglfw3-dev; CMake option KILN_VIEW_WINDOW)");
#endif
    int code = kiln_cli_fail(&c, KILN_E_IMPORT_UNSUPPORTED, &e);
    kiln_cli_free(&c);
    return code;
}

#else

#include "thumbnail.h"
#include "view.h"

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

/* WxH, each 16..8192. */
static bool parse_size(const char *text, uint32_t *w, uint32_t *h)
{
    char buf[32];
    const char *x = strchr(text, 'x');
    if (!x || (size_t)(x - text) >= sizeof buf) return false;
    memcpy(buf, text, (size_t)(x - text));
    buf[x - text] = '\0';
    return parse_u32(buf, 16, 8192, w) && parse_u32(x + 1, 16, 8192, h);
}

static int usage_value(kiln_cli *c, const char *option, const char *value, const char *want)
{
    return kiln_cli_usage(c, "bad %s %s: %s", option, value, want);
}

/* Parses view's own options into *o; on a bad one prints the usage error, frees c and returns
 * its exit status, else returns -1. */
static int parse_options(kiln_cli *c, const view_args *a, kiln_view_opts *o)
{
    *o = (kiln_view_opts){.view = KV_VIEW_LIT, .lod = -1, .clip = -2, .width = 1280, .height = 720};
    o->until_reload = a->until_reload;
    o->screenshot = a->screenshot;
    o->quiet = c->quiet || c->json; /* a JSON document alone on stdout */
    if (a->view) {
        int v = kv_view_parse(a->view);
        if (v < 0)
            return usage_value(c, "--view", a->view, "lit, unlit, normals, uv, lod or meshlets");
        o->view = (kv_view)v;
    }
    uint32_t u;
    if (a->lod) {
        if (!parse_u32(a->lod, 0, KILN_MESH_MAX_LEVELS - 1, &u))
            return usage_value(c, "--lod", a->lod, "give a level 0..7");
        o->lod = (int32_t)u;
    }
    if (a->clip) {
        if (!strcmp(a->clip, "none")) o->clip = -1;
        else if (parse_u32(a->clip, 0, 0xFFFFu, &u)) o->clip = (int32_t)u;
        else return usage_value(c, "--clip", a->clip, "give a clip index, or none");
    }
    if (!kv_camera_preset_angles(a->camera ? a->camera : "auto", &o->yaw, &o->pitch))
        return usage_value(c, "--camera", a->camera,
                           "auto, front, back, left, right, top or bottom");
    if (a->size && !parse_size(a->size, &o->width, &o->height))
        return usage_value(c, "--size", a->size, "give WxH, each 16..8192 (1280x720)");
    if (a->resize && !parse_size(a->resize, &o->resize_width, &o->resize_height))
        return usage_value(c, "--resize", a->resize, "give WxH, each 16..8192");
    if (a->keys && !kiln_view_keys_valid(a->keys))
        return usage_value(c, "--keys", a->keys, "give keys among 1-6 [ ] a c r q and space");
    o->keys = a->keys;
    if (a->frames && !parse_u32(a->frames, 1, 100000000u, &o->frames))
        return usage_value(c, "--frames", a->frames, "give a count of frames, 1 or more");
    return -1;
}

static const char *type_word(krt_type t)
{
    switch (t) {
    case KRT_TYPE_SCENE:
        return "scene";
    case KRT_TYPE_MESH:
        return "mesh";
    case KRT_TYPE_MATERIAL:
        return "material";
    case KRT_TYPE_TEXTURE:
        return "texture";
    default:
        return NULL;
    }
}

/* The window, its surface and swapchain, the target and the scene renderer. */
static kiln_result open_window(kiln_view_session *s, kiln_error *err)
{
    kiln_glfw *g = s->glfw;
    g->glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    char title[512];
    snprintf(title, sizeof title, "kiln view | %s", s->name);
    s->window = g->glfwCreateWindow((int)s->opts->width, (int)s->opts->height, title, NULL, NULL);
    if (!s->window)
        return kiln_thumb_error(err, KV_E_UNAVAILABLE, "no window: %.200s", kiln_glfw_error(g));
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkResult vr =
        g->glfwCreateWindowSurface((VkInstance)kv_instance(s->kv), s->window, NULL, &surface);
    if (vr != VK_SUCCESS)
        return kiln_thumb_error(err, KV_E_UNAVAILABLE,
                                "no Vulkan surface for the window (VkResult %d): "
                                "%.200s",
                                (int)vr, kiln_glfw_error(g));
    int fw = 0, fh = 0;
    g->glfwGetFramebufferSize(s->window, &fw, &fh);
    kiln_result r = kv_swapchain_create(
        s->kv, (uint64_t)(uintptr_t)surface, fw > 0 ? (uint32_t)fw : s->opts->width,
        fh > 0 ? (uint32_t)fh : s->opts->height, &s->swapchain, err);
    if (r) return r;
    uint32_t w, h;
    kv_swapchain_size(s->swapchain, &w, &h);
    r = kv_target_create(s->kv, w, h, &s->target, err);
    const kv_shader *vert = NULL, *frag = NULL;
    if (!r) r = kiln_thumb_shader(s->rt, "shaders/mesh.vert#shader", &vert, err);
    if (!r) r = kiln_thumb_shader(s->rt, "shaders/mesh.frag#shader", &frag, err);
    if (!r) r = kv_scene_renderer_create(s->kv, s->target, vert, frag, &s->renderer, err);
    return r;
}

/* Loads the asset (mounted already) and waits until it is ready. */
static kiln_result load_asset(kiln_view_session *s, uint64_t id, kiln_error *err)
{
    s->asset = krt_load_id(s->rt, s->type, id, err);
    if (!s->asset.id) return err->code ? err->code : KILN_E_INTERNAL;
    krt_finish(s->rt);
    if (krt_state_of(s->rt, s->asset) == KRT_STATE_READY) return KILN_OK;
    kiln_result r = krt_error(s->rt, s->asset, err);
    return r ? r : kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: still loading", s->name);
}

/* Sets up everything, runs the loop, tears down; the validation layer's messages fail it. */
static kiln_result view(const kiln_cli *c, const kiln_thumb_target *t, const kiln_view_opts *o,
                        kiln_view_session *s, char *device, size_t device_cap, kiln_error *err)
{
    kiln_glfw g;
    kiln_result r = kiln_glfw_open(&g, err);
    if (r) return r;
    s->glfw = &g;
    if (!g.glfwInit()) {
        r = kiln_thumb_error(err, KV_E_UNAVAILABLE,
                             "no window system (is DISPLAY or WAYLAND_DISPLAY set?): "
                             "%.200s",
                             kiln_glfw_error(&g));
        kiln_glfw_close(&g);
        return r;
    }
    uint32_t ext_count = 0;
    const char **exts =
        g.glfwVulkanSupported() ? g.glfwGetRequiredInstanceExtensions(&ext_count) : NULL;
    if (!exts || !ext_count) {
        r = kiln_thumb_error(err, KV_E_UNAVAILABLE,
                             "GLFW finds no Vulkan presentation here: %.200s", kiln_glfw_error(&g));
        g.glfwTerminate();
        kiln_glfw_close(&g);
        return r;
    }
    kiln_thumb_pin_drivers();
    const char *v = getenv("KILN_VULKAN_VALIDATION");
    bool validate = v && *v && strcmp(v, "0") != 0;
    kv_context_desc kd = {.struct_size = sizeof kd,
                          .no_validation = !validate,
                          .require_validation = validate,
                          .instance_extensions = exts,
                          .instance_extension_count = ext_count};
    r = kv_context_create(&kd, &s->kv, err);
    if (!r) {
        snprintf(device, device_cap, "%s", kv_device_name(s->kv));
        krt_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.struct_size = sizeof desc;
        desc.worker_count = c->jobs ? c->jobs : 2;
        kv_renderer_fill(s->kv, &desc.renderer, &desc.renderer_shaders);
        r = krt_create(&desc, &s->rt, err);
    }
    char pack[2200];
    kiln_thumb_pack_path(pack, sizeof pack);
    if (!r && krt_mount_pack(s->rt, pack, NULL, err)) {
        char why[200]; /* kiln_thumb_error clears err before it formats */
        snprintf(why, sizeof why, "%.199s", err->message);
        r = kiln_thumb_error(err, KILN_E_ASSET_IO,
                             "the renderer's shaders: %.150s (KILN_VIEW_SHADERS names the pack)",
                             why);
    }
    if (!r) r = krt_mount_cache_platform(s->rt, t->cache, c->platform, NULL, err);
    if (!r && krt_lookup_id(s->rt, t->asset_id) != t->type)
        r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: not in the mounted cache %.200s",
                             t->name, t->cache);
    kiln_error we = {0};
    if (!r && krt_watch_start(s->rt, &we)) /* krt_poll_changes then stats the records itself */
        fprintf(stderr, "kiln view: no watcher (%s): changes are looked for at each frame\n",
                we.message);
    if (!r) r = load_asset(s, t->asset_id, err);
    if (!r) r = kiln_view_refresh(s, err);
    if (!r && o->clip >= 0 && (uint32_t)o->clip >= s->clip_count)
        r = kiln_thumb_error(err, KILN_E_USAGE, "--clip %d: %.200s has %u clip%s", o->clip, t->name,
                             s->clip_count, s->clip_count == 1 ? "" : "s");
    if (!r) {
        s->clip = o->clip == -2 ? (s->clip_count ? 0 : -1) : o->clip;
        s->playing = s->clip >= 0;
        r = open_window(s, err);
    }
    if (!r && !o->quiet) {
        printf("kiln view: %s (%s) on %s\n", t->name, type_word(t->type), device);
        fflush(stdout);
    }
    if (!r) r = kiln_view_run(s, err);

    if (s->kv) {
        kv_scene_renderer_destroy(s->kv, s->renderer);
        kv_target_destroy(s->kv, s->target);
        kv_swapchain_destroy(s->kv, s->swapchain);
    }
    krt_destroy(s->rt);
    if (s->window) g.glfwDestroyWindow(s->window);
    kv_messages m = {0};
    if (s->kv) kv_messages_get(s->kv, &m);
    uint32_t left = kv_context_destroy_checked(s->kv); /* objects alive at the device's end */
    g.glfwTerminate();
    kiln_glfw_close(&g);
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

int kiln_cmd_view(int argc, char **argv)
{
    view_args a = {0};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    kiln_cli c = {.command = "view"};
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
        return kiln_cli_usage(&c, "view takes exactly one PATH (a model source or NAME#label)");
    kiln_view_opts o;
    int code = parse_options(&c, &a, &o);
    if (code >= 0) return code;

    const char *arg = c.positional[0];
    kiln_thumb_target t;
    kiln_error err = {.offset = UINT64_MAX};
    code = KILN_EXIT_OK;
    kiln_result r = kiln_thumb_resolve(&c, arg, &t, &code, &err);
    if (code) { /* the project did not open: printed */
        kiln_thumb_target_free(&t);
        kiln_cli_free(&c);
        return code;
    }
    if (!r && !t.cache)
        r = kiln_thumb_error(&err, KILN_E_USAGE,
                             "%.200s: kiln view shows assets of the project (give a model "
                             "source or NAME#label; kiln thumbnail draws a file alone)",
                             arg);
    if (!r && t.type == KRT_TYPE_TEXTURE)
        r = kiln_thumb_error(&err, KILN_E_IMPORT_UNSUPPORTED,
                             "%.200s: kiln view does not show textures yet (kiln thumbnail "
                             "draws them)",
                             t.name);
    if (!r && !type_word(t.type))
        r = kiln_thumb_error(&err, KILN_E_IMPORT_UNSUPPORTED,
                             "%.200s: kiln view shows scenes, meshes and materials", t.name);
    kiln_view_session s = {
        .opts = &o,
        .name = t.name,
        .type = t.type,
        .view = o.view,
        .lod = o.lod,
        .yaw = o.yaw,
        .pitch = o.pitch,
        .zoom = 1.0,
    };
    char device[256] = "";
    if (!r) r = view(&c, &t, &o, &s, device, sizeof device, &err);
    if (r) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        json_t *d = json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:s,s:i,s:i,s:I}", "command", "view",
                              "input", arg, "kind", type_word(t.type), "device", device, "frames",
                              (json_int_t)s.frames_drawn, "reloads", (json_int_t)s.reloads, "view",
                              kv_view_name(s.view), "lod", (json_int_t)s.lod, "clip",
                              (json_int_t)s.clip, "triangles", (json_int_t)s.triangles);
        if (d && o.screenshot) json_object_set_new(d, "screenshot", json_string(o.screenshot));
        char *text = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2));
        kiln_cli_print_json(text);
        free(text);
        json_decref(d);
    }
    kiln_thumb_target_free(&t);
    kiln_cli_free(&c);
    return code;
}

#endif
