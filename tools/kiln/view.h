/* view.h — what `kiln view`'s files share: cmd_view.c (options, what PATH names, GLFW, Vulkan and
 * libkiln_rt set up and torn down) and view_loop.c (the frame loop: controls, hot reload, the
 * title and the test hooks). Built only with the renderer and GLFW's headers (KILN_HAVE_VIEW,
 * KILN_HAVE_GLFW); docs/rendering.md "kiln view". */
#ifndef KILN_TOOLS_VIEW_H
#define KILN_TOOLS_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/kiln_rt.h"
#include "kv.h"
#include "view_glfw.h"

/* The command's options, validated. */
typedef struct kiln_view_opts {
    kv_view view;
    int32_t lod;            /* -1: each mesh's level by kiln_lod_select */
    int32_t clip;           /* -1: the rest pose; -2: the scene's first clip when it has one */
    double yaw, pitch;      /* the --camera preset's direction (kv_camera_preset_angles) */
    uint32_t width, height; /* the window at start */
    /* Test hooks: exit after this many frames (0: when the window closes); exit once the first
     * re-import has been reloaded and drawn; read the last frame back into a PNG. With frames,
     * the clip clock advances 1/60 s a frame (pictures do not depend on the machine's speed). */
    uint32_t frames;
    bool until_reload;
    const char *screenshot;
    /* test hook: keys pressed one a frame from the first (kiln_view_keys_valid) */
    const char *keys;
    uint32_t resize_width, resize_height; /* test hook: the window's size after frame 1 */
    bool quiet;
} kiln_view_opts;

/* One window on one asset, and what the controls change. */
typedef struct kiln_view_session {
    const kiln_view_opts *opts;
    const char *name; /* NAME#label, for the title and messages */
    kiln_glfw *glfw;
    GLFWwindow *window;
    kv_context *kv;
    krt_context *rt;
    kv_swapchain *swapchain;
    kv_target *target;
    kv_scene_renderer *renderer;
    krt_handle asset;
    krt_type type;

    /* the controls' state */
    kv_view view;
    int32_t lod;  /* -1 auto */
    int32_t clip; /* -1 rest pose */
    bool playing;
    double time; /* seconds on the clip's timeline */
    double yaw, pitch, zoom;
    bool dragging;
    double cursor_x, cursor_y;
    bool quit;

    /* what the asset holds (again after each reload) */
    float bounds_min[3], bounds_max[3];
    uint32_t clip_count;
    uint32_t level_count; /* the most LOD levels of any of its meshes */

    /* counters for the report at exit */
    uint32_t frames_drawn;
    uint32_t reloads;   /* re-imports seen and reloaded */
    uint64_t triangles; /* the last frame's (kv_draw_stats) */
} kiln_view_session;

/* Whether every character of a --keys script names a control: 1-6 [ ] a, space, c r q. */
bool kiln_view_keys_valid(const char *keys);

/* Reads what the asset holds (bounds, clips, levels) into s: at start and after a reload. */
kiln_result kiln_view_refresh(kiln_view_session *s, kiln_error *err);

/* Installs the input callbacks and runs frames until the window closes, Esc or Q, or a test
 * hook ends it; writes the screenshot. s->swapchain and s->target may be replaced (a resize). */
kiln_result kiln_view_run(kiln_view_session *s, kiln_error *err);

#endif
