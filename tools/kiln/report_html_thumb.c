/* report_html_thumb.c — model pictures for `kiln report --html`, drawn by tools/view: one Vulkan
 * context and one libkiln_rt context (kv as its renderer, the renderer's shader pack and the
 * project's cache mounted) for the whole page; each request loads the scene or mesh by name,
 * frames it by the camera rule and draws it lit (a mesh at the level asked for). */
#include "report_html_thumb.h"

#ifndef KILN_HAVE_VIEW

const char *report_model_thumbnail(report_thumbs **session, const report_thumb_request *rq,
                                   kiln_error *err)
{
    (void)session;
    (void)rq;
    (void)err;
    return "none";
}

void report_thumbs_close(report_thumbs *session) { (void)session; }

#else

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thumbnail.h"

struct report_thumbs {
    kv_context *kv;
    krt_context *rt;
    const kv_shader *vert, *frag;
    char cache[4096];       /* the mounted cache ("" before the first request) */
    bool validate;          /* KILN_VULKAN_VALIDATION=1: the layer required, messages fail */
    uint32_t messages_seen; /* the messenger's count after the last picture */
    kiln_result failed;     /* the session could not start: every request says so */
    kiln_error why;
};

static kiln_result start(report_thumbs *s, kiln_error *err)
{
    kiln_thumb_pin_drivers();
    const char *v = getenv("KILN_VULKAN_VALIDATION");
    bool validate = v && *v && strcmp(v, "0") != 0;
    s->validate = validate;
    kv_context_desc kd = {
        .struct_size = sizeof kd, .no_validation = !validate, .require_validation = validate};
    kiln_result r = kv_context_create(&kd, &s->kv, err);
    if (r) return r;
    krt_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.worker_count = 2;
    kv_renderer_fill(s->kv, &desc.renderer, &desc.renderer_shaders);
    r = krt_create(&desc, &s->rt, err);
    char pack[2200];
    kiln_thumb_pack_path(pack, sizeof pack);
    if (!r && krt_mount_pack(s->rt, pack, NULL, err)) {
        char why[200]; /* kiln_thumb_error clears err before it formats */
        snprintf(why, sizeof why, "%.199s", err->message);
        r = kiln_thumb_error(err, KILN_E_ASSET_IO, "the renderer's shaders: %.150s", why);
    }
    if (!r) r = kiln_thumb_shader(s->rt, "shaders/mesh.vert#shader", &s->vert, err);
    if (!r) r = kiln_thumb_shader(s->rt, "shaders/mesh.frag#shader", &s->frag, err);
    return r;
}

/* The cache folder of an entry folder: everything before its last "/objects/". */
static bool cache_of(const char *entry, char *out, size_t cap)
{
    const char *at = NULL;
    for (const char *p = strstr(entry, "/objects/"); p; p = strstr(p + 1, "/objects/")) at = p;
    if (!at || (size_t)(at - entry) >= cap) return false;
    memcpy(out, entry, (size_t)(at - entry));
    out[at - entry] = '\0';
    return true;
}

static kiln_result draw(report_thumbs *s, const report_thumb_request *rq, kiln_error *err)
{
    char cache[4096];
    if (!cache_of(rq->entry_dir, cache, sizeof cache))
        return kiln_thumb_error(err, KILN_E_USAGE, "%.200s is not in a cache", rq->entry_dir);
    if (strcmp(cache, s->cache) != 0) {
        if (s->cache[0]) krt_unmount(s->rt, s->cache, err);
        kiln_result r = krt_mount_cache(s->rt, cache, NULL, err);
        if (r) return r;
        snprintf(s->cache, sizeof s->cache, "%s", cache);
    }
    char name[1024];
    snprintf(name, sizeof name, "%s#%s", rq->asset, rq->label);
    bool scene = !strcmp(rq->label, "scene");
    krt_handle h = krt_load(s->rt, scene ? KRT_TYPE_SCENE : KRT_TYPE_MESH, name, err);
    if (!h.id) return err->code ? err->code : KILN_E_INTERNAL;
    krt_finish(s->rt);
    kiln_result r = KILN_OK;
    if (krt_state_of(s->rt, h) != KRT_STATE_READY) {
        r = krt_error(s->rt, h, err);
        if (!r) r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s did not load", name);
    }
    kv_target *t = NULL;
    kv_scene_renderer *sr = NULL;
    if (!r) r = kv_target_create(s->kv, rq->size, rq->size, &t, err);
    if (!r) r = kv_scene_renderer_create(s->kv, t, s->vert, s->frag, &sr, err);
    float mn[3], mx[3];
    kv_camera cam;
    if (!r) r = kv_bounds(s->kv, s->rt, h, mn, mx, err);
    if (!r) r = kv_camera_frame(mn, mx, "auto", rq->size, rq->size, &cam, err);
    kv_draw_desc d = {.view = KV_VIEW_LIT,
                      .clip = KV_NO_CLIP,
                      .lod = scene ? -1 : (int32_t)rq->lod,
                      .background = {32, 64, 96, 255}};
    if (!r) r = kv_draw(s->kv, sr, t, s->rt, h, &cam, &d, err);
    kiln_thumb_image img = {.width = rq->size, .height = rq->size};
    if (!r) {
        img.rgba = malloc((size_t)rq->size * rq->size * 4);
        if (!img.rgba) r = kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    if (!r) r = kv_target_read(s->kv, t, img.rgba, (size_t)rq->size * rq->size * 4, err);
    if (!r) r = kiln_thumb_write_png(rq->png_path, &img, err);
    if (!r && s->validate) { /* KILN_VULKAN_VALIDATION=1: a message fails this picture */
        kv_messages m;
        kv_messages_get(s->kv, &m);
        if (m.errors + m.warnings > s->messages_seen) {
            uint32_t i = s->messages_seen < m.kept ? s->messages_seen : m.kept - 1;
            r = kiln_thumb_error(err, KILN_E_INTERNAL, "vulkan validation: %.300s",
                                 m.kept ? m.text[i] : "(a message)");
        }
        s->messages_seen = m.errors + m.warnings;
    }
    free(img.rgba);
    kv_scene_renderer_destroy(s->kv, sr);
    if (t) kv_target_destroy(s->kv, t);
    kiln_error ignored;
    krt_release(s->rt, h, &ignored);
    return r;
}

const char *report_model_thumbnail(report_thumbs **session, const report_thumb_request *rq,
                                   kiln_error *err)
{
    if (!*session) {
        report_thumbs *s = calloc(1, sizeof *s);
        if (!s) {
            kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        s->failed = start(s, &s->why);
        *session = s;
    }
    report_thumbs *s = *session;
    if (s->failed) {
        *err = s->why;
        return NULL;
    }
    return draw(s, rq, err) ? NULL : "png";
}

void report_thumbs_close(report_thumbs *s)
{
    if (!s) return;
    krt_destroy(s->rt);
    kv_context_destroy(s->kv); /* prints what the validation layer saw left alive, if anything */
    free(s);
}

#endif
