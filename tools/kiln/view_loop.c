/* view_loop.c — `kiln view`'s frames (view.h): each frame polls the window's events and
 * libkiln_rt's changes (its watcher notes a re-import; krt_poll_changes starts the reloads into the
 * same handles and krt_update applies them), advances the clip, draws the asset with kv_draw from
 * the orbit camera and presents it. The controls only change the session's state; the title says
 * what is drawn.
 *
 *   left drag  orbit (yaw, pitch)      wheel   zoom
 *   1..6       lit, unlit, normals, uv, lod, meshlets
 *   [ ]        LOD override finer / coarser        A  LOD chosen by kiln_lod_select again
 *   space      play / pause the clip   C  next clip (after the last: the rest pose)
 *   R          reset the camera        Esc, Q  quit */
#if defined(KILN_HAVE_VIEW) && defined(KILN_HAVE_GLFW)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thumbnail.h"
#include "view.h"

#define ORBIT_DEGREES_PER_PIXEL 0.4
#define ZOOM_STEP               1.1 /* per wheel notch */
#define FIXED_STEP              (1.0 / 60.0)

static const uint8_t background[4] = {48, 52, 60, 255};

kiln_result kiln_view_refresh(kiln_view_session *s, kiln_error *err)
{
    kiln_result r = kv_bounds(s->kv, s->rt, s->asset, s->bounds_min, s->bounds_max, err);
    if (r) return r;
    s->clip_count = 0;
    s->level_count = 1;
    if (s->type == KRT_TYPE_SCENE) {
        krt_scene_data sd;
        r = krt_get_scene(s->rt, s->asset, &sd, err);
        if (r) return r;
        s->clip_count = sd.view->clip_count;
        for (uint32_t i = 0; i < sd.view->primitive_count; i++) {
            krt_mesh_data md;
            if (krt_get_mesh(s->rt, sd.primitives[i], &md, NULL) == KILN_OK &&
                md.view->level_count > s->level_count)
                s->level_count = md.view->level_count;
        }
    } else if (s->type == KRT_TYPE_MESH) {
        krt_mesh_data md;
        r = krt_get_mesh(s->rt, s->asset, &md, err);
        if (r) return r;
        s->level_count = md.view->level_count;
    }
    if (s->clip >= (int32_t)s->clip_count) s->clip = s->clip_count ? 0 : -1;
    if (s->lod >= (int32_t)s->level_count) s->lod = (int32_t)s->level_count - 1;
    return KILN_OK;
}

/* The clip's name and time range, when one is chosen and loaded. */
static bool clip_info(kiln_view_session *s, const char **name, float *start, float *end)
{
    if (s->clip < 0 || s->type != KRT_TYPE_SCENE) return false;
    krt_scene_data sd;
    const kiln_clip_view *cv = NULL;
    if (krt_get_scene(s->rt, s->asset, &sd, NULL) != KILN_OK ||
        (uint32_t)s->clip >= sd.view->clip_count ||
        krt_get_clip(s->rt, sd.clips[s->clip], &cv, NULL) != KILN_OK)
        return false;
    *name = cv->name;
    *start = cv->start;
    *end = cv->end;
    return true;
}

static void start_clip(kiln_view_session *s)
{
    const char *name;
    float start = 0, end = 0;
    s->time = clip_info(s, &name, &start, &end) ? start : 0.0;
}

/* The finest and coarsest levels the last draw chose (auto), for [ and ] to start from. */
static void drawn_levels(const kiln_view_session *s, int32_t *finest, int32_t *coarsest)
{
    kv_draw_stats st;
    kv_draw_stats_get(s->renderer, &st);
    *finest = 0;
    *coarsest = 0;
    bool any = false;
    for (int32_t i = 0; i < KILN_MESH_MAX_LEVELS; i++)
        if (st.level_histogram[i]) {
            if (!any) *finest = i;
            *coarsest = i;
            any = true;
        }
}

/* What a key does (GLFW's key codes: positions on a US keyboard); repeat: held down. */
static void apply_key(kiln_view_session *s, int key, bool repeat)
{
    int32_t finest, coarsest;
    if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + KV_VIEW_COUNT && !repeat) {
        s->view = (kv_view)(key - GLFW_KEY_1);
        return;
    }
    switch (key) {
    case GLFW_KEY_LEFT_BRACKET: /* finer */
        drawn_levels(s, &finest, &coarsest);
        s->lod = (s->lod < 0 ? finest : s->lod) - 1;
        if (s->lod < 0) s->lod = 0;
        break;
    case GLFW_KEY_RIGHT_BRACKET: /* coarser */
        drawn_levels(s, &finest, &coarsest);
        s->lod = (s->lod < 0 ? coarsest : s->lod) + 1;
        if (s->lod >= (int32_t)s->level_count) s->lod = (int32_t)s->level_count - 1;
        break;
    case GLFW_KEY_A:
        s->lod = -1;
        break;
    case GLFW_KEY_SPACE:
        if (!repeat) s->playing = !s->playing;
        break;
    case GLFW_KEY_C:
        if (repeat) break;
        s->clip = s->clip + 1 < (int32_t)s->clip_count ? s->clip + 1 : -1;
        if (s->clip >= 0) s->playing = true;
        start_clip(s);
        break;
    case GLFW_KEY_R:
        s->yaw = s->opts->yaw;
        s->pitch = s->opts->pitch;
        s->zoom = 1.0;
        break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
        s->quit = true;
        break;
    default:
        break;
    }
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    kiln_view_session *s = kiln_glfw_user_pointer(w);
    if (s && action != GLFW_RELEASE) apply_key(s, key, action == GLFW_REPEAT);
}

/* --keys: a character of the script as the key it names ('1'..'6', '[', ']', 'a', ' ', 'c', 'r',
 * 'q'; letters in either case), or GLFW_KEY_UNKNOWN. */
static int key_of(char c)
{
    if (c >= '1' && c <= '6') return GLFW_KEY_1 + (c - '1');
    switch (c) {
    case '[':
        return GLFW_KEY_LEFT_BRACKET;
    case ']':
        return GLFW_KEY_RIGHT_BRACKET;
    case ' ':
        return GLFW_KEY_SPACE;
    case 'a':
    case 'A':
        return GLFW_KEY_A;
    case 'c':
    case 'C':
        return GLFW_KEY_C;
    case 'r':
    case 'R':
        return GLFW_KEY_R;
    case 'q':
    case 'Q':
        return GLFW_KEY_Q;
    default:
        return GLFW_KEY_UNKNOWN;
    }
}

bool kiln_view_keys_valid(const char *keys)
{
    for (; *keys; keys++)
        if (key_of(*keys) == GLFW_KEY_UNKNOWN) return false;
    return true;
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    kiln_view_session *s = kiln_glfw_user_pointer(w);
    if (s && button == GLFW_MOUSE_BUTTON_LEFT) s->dragging = action == GLFW_PRESS;
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    kiln_view_session *s = kiln_glfw_user_pointer(w);
    if (!s) return;
    if (s->dragging) {
        s->yaw -= (x - s->cursor_x) * ORBIT_DEGREES_PER_PIXEL;
        s->pitch += (y - s->cursor_y) * ORBIT_DEGREES_PER_PIXEL;
        s->yaw = fmod(s->yaw, 360.0);
        if (s->pitch > 90.0) s->pitch = 90.0;
        if (s->pitch < -90.0) s->pitch = -90.0;
    }
    s->cursor_x = x;
    s->cursor_y = y;
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    kiln_view_session *s = kiln_glfw_user_pointer(w);
    if (!s) return;
    s->zoom *= pow(ZOOM_STEP, dy);
    if (s->zoom < 0.05) s->zoom = 0.05;
    if (s->zoom > 50.0) s->zoom = 50.0;
}

/* "kiln view | NAME | lit | LOD auto: 576 triangles, levels 0-1 | clip 0 Survey 1.25/3.41 s" */
static void make_title(kiln_view_session *s, char *out, size_t cap)
{
    kv_draw_stats st;
    kv_draw_stats_get(s->renderer, &st);
    int32_t finest, coarsest;
    drawn_levels(s, &finest, &coarsest);
    char lod[32], levels[32], clip[200];
    if (s->lod < 0) snprintf(lod, sizeof lod, "auto");
    else snprintf(lod, sizeof lod, "%d", s->lod);
    if (finest == coarsest) snprintf(levels, sizeof levels, "level %d", finest);
    else snprintf(levels, sizeof levels, "levels %d-%d", finest, coarsest);
    const char *name;
    float start, end;
    if (clip_info(s, &name, &start, &end))
        snprintf(clip, sizeof clip, "clip %d/%u %.60s %.2f/%.2f s%s", s->clip, s->clip_count,
                 name && *name ? name : "(unnamed)", s->time, (double)end,
                 s->playing ? "" : " (paused)");
    else snprintf(clip, sizeof clip, "%s", s->clip_count ? "rest pose" : "no clip");
    snprintf(out, cap, "kiln view | %.200s | %s | LOD %s: %llu triangles, %s of %u | %s", s->name,
             kv_view_name(s->view), lod, (unsigned long long)st.triangles, levels, s->level_count,
             clip);
}

/* The clip clock: dt seconds on, wrapping over the clip's range. */
static void advance(kiln_view_session *s, double dt)
{
    const char *name;
    float start, end;
    if (!s->playing || !clip_info(s, &name, &start, &end)) return;
    s->time += dt;
    double span = (double)end - (double)start;
    if (span <= 0) s->time = start;
    else if (s->time > end || s->time < start) s->time = start + fmod(s->time - start, span);
}

/* Reloads: a change the watcher noted starts reloads (krt_poll_changes); once krt_update has
 * applied them all (none still loading) the line is printed and the bounds are read again.
 * Returns true on the frame that finished a batch. */
static bool poll_reloads(kiln_view_session *s, bool *pending, uint64_t *reloads_before,
                         uint64_t *failures_before)
{
    size_t started = 0;
    kiln_error e = {0};
    if (krt_poll_changes(s->rt, &started, &e) != KILN_OK)
        fprintf(stderr, "kiln view: looking for changes failed: %s\n", e.message);
    if (started && !*pending) {
        krt_stats st = {.struct_size = sizeof st};
        krt_get_stats(s->rt, &st);
        *pending = true;
        *reloads_before = st.reloads;
        *failures_before = st.reload_failures;
    }
    size_t loading = krt_update(s->rt);
    if (!*pending || loading) return false;
    *pending = false;
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(s->rt, &st);
    uint64_t applied = st.reloads - *reloads_before, failed = st.reload_failures - *failures_before;
    if (failed) {
        kiln_error re = {0};
        if (krt_reload_error(s->rt, s->asset, &re) == KILN_OK)
            snprintf(re.message, sizeof re.message, "an asset it uses");
        fprintf(stderr, "kiln view: %llu reload%s failed (the old data stays): %s\n",
                (unsigned long long)failed, failed == 1 ? "" : "s", re.message);
    }
    if (!applied) return false;
    s->reloads++;
    kiln_error be = {0};
    if (kiln_view_refresh(s, &be) != KILN_OK)
        fprintf(stderr, "kiln view: after the reload: %s\n", be.message);
    if (!s->opts->quiet) {
        printf("kiln view: reloaded %llu asset%s of %s (re-imported)\n",
               (unsigned long long)applied, applied == 1 ? "" : "s", s->name);
        fflush(stdout);
    }
    return true;
}

/* Draws one frame into the target and presents it; a resized window gets a new target. */
static kiln_result frame(kiln_view_session *s, uint32_t fw, uint32_t fh, kiln_error *err)
{
    uint32_t tw, th;
    kv_target_size(s->target, &tw, &th);
    kv_camera cam;
    kiln_result r =
        kv_camera_orbit(s->bounds_min, s->bounds_max, s->yaw, s->pitch, s->zoom, tw, th, &cam, err);
    if (r) return r;
    kv_draw_desc d = {
        .view = s->view,
        .clip = s->clip >= 0 ? (uint32_t)s->clip : KV_NO_CLIP,
        .time = (float)s->time,
        .lod = s->lod,
    };
    memcpy(d.background, background, sizeof background);
    r = kv_draw(s->kv, s->renderer, s->target, s->rt, s->asset, &cam, &d, err);
    if (r) return r;
    bool resized = false;
    r = kv_present(s->kv, s->swapchain, s->target, fw, fh, &resized, err);
    if (r || !resized) return r;
    uint32_t w, h;
    kv_swapchain_size(s->swapchain, &w, &h);
    if (w == tw && h == th) return KILN_OK;
    kv_target *t = NULL;
    r = kv_target_create(s->kv, w, h, &t, err);
    if (r) return r;
    kv_target_destroy(s->kv, s->target);
    s->target = t;
    return kv_draw(s->kv, s->renderer, s->target, s->rt, s->asset, &cam, &d, err);
}

static kiln_result screenshot(kiln_view_session *s, kiln_error *err)
{
    kiln_thumb_image img = {0};
    kv_target_size(s->target, &img.width, &img.height);
    size_t size = (size_t)img.width * img.height * 4;
    img.rgba = malloc(size);
    if (!img.rgba) return kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_result r = kv_target_read(s->kv, s->target, img.rgba, size, err);
    if (!r) r = kiln_thumb_write_png(s->opts->screenshot, &img, err);
    free(img.rgba);
    return r;
}

kiln_result kiln_view_run(kiln_view_session *s, kiln_error *err)
{
    kiln_glfw *g = s->glfw;
    g->glfwSetWindowUserPointer(s->window, s);
    g->glfwSetKeyCallback(s->window, on_key);
    g->glfwSetMouseButtonCallback(s->window, on_button);
    g->glfwSetCursorPosCallback(s->window, on_cursor);
    g->glfwSetScrollCallback(s->window, on_scroll);
    start_clip(s);
    bool pending = false;
    uint64_t reloads_before = 0, failures_before = 0;
    bool finish_after_next = false;
    const char *keys = s->opts->keys;
    double last = g->glfwGetTime();
    char title[512] = "", shown[512] = "";
    kiln_result r = KILN_OK;
    while (!r && !s->quit && !g->glfwWindowShouldClose(s->window)) {
        g->glfwPollEvents();
        if (keys && *keys) apply_key(s, key_of(*keys++), false); /* --keys: one a frame */
        if (s->quit) break;
        bool reloaded = poll_reloads(s, &pending, &reloads_before, &failures_before);
        double now = g->glfwGetTime();
        advance(s, s->opts->frames ? FIXED_STEP : now - last);
        last = now;
        int fw = 0, fh = 0;
        g->glfwGetFramebufferSize(s->window, &fw, &fh);
        if (fw <= 0 || fh <= 0) { /* minimised: nothing to draw into */
            g->glfwWaitEvents();
            continue;
        }
        r = frame(s, (uint32_t)fw, (uint32_t)fh, err);
        if (r) break;
        s->frames_drawn++;
        kv_draw_stats st;
        kv_draw_stats_get(s->renderer, &st);
        s->triangles = st.triangles;
        make_title(s, title, sizeof title);
        if (strcmp(title, shown) != 0) {
            g->glfwSetWindowTitle(s->window, title);
            memcpy(shown, title, sizeof shown);
        }
        if (s->opts->frames && s->frames_drawn >= s->opts->frames) break;
        /* --until-reload: this frame drew the reloaded data; one more, then stop */
        if (s->frames_drawn == 1 && s->opts->resize_width) /* --resize */
            g->glfwSetWindowSize(s->window, (int)s->opts->resize_width,
                                 (int)s->opts->resize_height);
        if (finish_after_next) break;
        if (reloaded && s->opts->until_reload) finish_after_next = true;
    }
    if (!r && s->opts->screenshot && s->frames_drawn) r = screenshot(s, err);
    g->glfwSetWindowUserPointer(s->window, NULL);
    return r;
}
#endif
