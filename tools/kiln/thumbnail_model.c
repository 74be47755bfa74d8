/* thumbnail_model.c — `kiln thumbnail` for a scene (a model's #scene), a mesh or a material (on a
 * sphere): the artifact is loaded from the mounted cache with everything it names, the camera
 * frames its bounds at rest by the rule shared with the three.js reference (or --bounds), and
 * kv draws it with the renderer's mesh shaders from the pack, in the asked view, clip time and
 * LOD (docs/rendering.md "kiln thumbnail"). The loading and the camera serve thumbnail_vgeo.c too.
 * A cooked model file alone has no cache to find its meshes in: give NAME#scene in its project. */
#ifdef KILN_HAVE_VIEW
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thumbnail.h"

/* krt_finish runs every queued job and the renderer's callbacks. */
kiln_result kiln_thumb_load(const kiln_thumb_job *job, krt_handle *out, kiln_error *err)
{
    krt_handle h = krt_load_id(job->rt, job->type, job->asset_id, err);
    if (!h.id) return err->code ? err->code : KILN_E_INTERNAL;
    krt_finish(job->rt);
    for (int i = 0; i < 1000 && krt_state_of(job->rt, h) == KRT_STATE_LOADING; i++) {
        krt_wait(job->rt);
        krt_update(job->rt);
    }
    if (krt_state_of(job->rt, h) != KRT_STATE_READY) {
        kiln_result r = krt_error(job->rt, h, err);
        return r ? r : kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: did not load", job->name);
    }
    *out = h;
    return KILN_OK;
}

kiln_result kiln_thumb_camera(const kiln_thumb_opts *o, const float bmin[3], const float bmax[3],
                              uint32_t size, kv_camera *out, kiln_error *err)
{
    double yaw, pitch;
    if (!kv_camera_preset_angles(o->camera, &yaw, &pitch))
        return kiln_thumb_error(err, KILN_E_USAGE, "unknown camera %.40s", o->camera);
    double distance = o->distance > 0 ? o->distance : 1.0;
    return kv_camera_orbit(bmin, bmax, yaw, pitch, 1.0 / distance, size, size, out, err);
}

kiln_result kiln_thumb_model(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_thumb_opts *o = job->opts;
    if (job->type == KRT_TYPE_TYPED_MATERIAL)
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                "%.200s: typed materials (.kmat) have no thumbnail yet: their "
                                "shaders are the project's own",
                                job->name);
    if (!job->asset_id)
        return kiln_thumb_error(err, KILN_E_USAGE,
                                "%.200s: a cooked %s alone names its meshes, materials and "
                                "textures by id: give NAME#label in its project",
                                job->name, job->type == KRT_TYPE_SCENE ? "scene" : "file");
    const char *view_name = o->view ? o->view : "lit";
    int view = kv_view_parse(view_name);
    if (view < 0 && (!strcmp(view_name, "clusters") || !strcmp(view_name, "levels")))
        return kiln_thumb_error(err, KILN_E_USAGE,
                                "%.200s: --view %s is for a virtual geometry "
                                "(NAME#vgeo<i>/prim<p>); a mesh's are meshlets and lod",
                                job->name, view_name);
    if (view < 0) return kiln_thumb_error(err, KILN_E_USAGE, "unknown view %.40s", view_name);
    const kv_shader *vert, *frag;
    kiln_result r = kiln_thumb_shader(job->rt, "shaders/mesh.vert#shader", &vert, err);
    if (!r) r = kiln_thumb_shader(job->rt, "shaders/mesh.frag#shader", &frag, err);
    krt_handle h = {0};
    if (!r) r = kiln_thumb_load(job, &h, err);
    if (r) return r;
    if (job->type == KRT_TYPE_SCENE && o->clip != KV_NO_CLIP) {
        krt_scene_data sd;
        if (krt_get_scene(job->rt, h, &sd, err)) return err->code;
        if (o->clip >= sd.view->clip_count && !(o->clip == 0 && sd.view->clip_count == 0))
            return kiln_thumb_error(err, KILN_E_USAGE, "%.200s has %u clips; --clip %u asked for",
                                    job->name, sd.view->clip_count, o->clip);
    }
    uint32_t size = o->size;
    kv_target *target = NULL;
    kv_scene_renderer *sr = NULL;
    r = kv_target_create(job->kv, size, size, &target, err);
    if (!r) r = kv_scene_renderer_create(job->kv, target, vert, frag, &sr, err);
    float bmin[3], bmax[3];
    if (!r && o->has_bounds) {
        memcpy(bmin, o->bounds, sizeof bmin);
        memcpy(bmax, o->bounds + 3, sizeof bmax);
    } else if (!r) {
        r = kv_bounds(job->kv, job->rt, h, bmin, bmax, err);
    }
    kv_camera cam;
    if (!r) r = kiln_thumb_camera(o, bmin, bmax, size, &cam, err);
    kv_draw_desc d = {.view = (kv_view)view,
                      .clip = o->clip,
                      .time = (float)o->time,
                      .lod = o->lod,
                      .lod_pixels = o->pixel_error};
    for (int i = 0; i < 4; i++) d.background[i] = (uint8_t)(o->background[i] + 0.5f);
    if (job->type == KRT_TYPE_SCENE && !r) {
        krt_scene_data sd;
        if (krt_get_scene(job->rt, h, &sd, err)) r = err->code;
        else if (sd.view->clip_count == 0) d.clip = KV_NO_CLIP; /* the default clip 0 of none */
    } else {
        d.clip = KV_NO_CLIP;
    }
    if (!r) r = kv_draw(job->kv, sr, target, job->rt, h, &cam, &d, err);
    if (!r) {
        out->rgba = malloc((size_t)size * size * 4);
        if (!out->rgba) r = kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    if (!r) r = kv_target_read(job->kv, target, out->rgba, (size_t)size * size * 4, err);
    if (!r) {
        kv_draw_stats st;
        kv_draw_stats_get(sr, &st);
        uint32_t lo = KILN_MESH_MAX_LEVELS, hi = 0;
        for (uint32_t l = 0; l < KILN_MESH_MAX_LEVELS; l++)
            if (st.level_histogram[l]) {
                if (l < lo) lo = l;
                hi = l;
            }
        out->width = out->height = size;
        const char *kind = job->type == KRT_TYPE_SCENE  ? "scene"
                           : job->type == KRT_TYPE_MESH ? "mesh"
                                                        : "material on a sphere";
        if (st.draws == 0)
            snprintf(out->what, sizeof out->what, "%s, %s: nothing to draw", kind, view_name);
        else if (lo == hi)
            snprintf(out->what, sizeof out->what, "%s, %s, %u draws, %llu triangles, LOD %u", kind,
                     view_name, st.draws, (unsigned long long)st.triangles, lo);
        else
            snprintf(out->what, sizeof out->what, "%s, %s, %u draws, %llu triangles, LODs %u..%u",
                     kind, view_name, st.draws, (unsigned long long)st.triangles, lo, hi);
    } else {
        free(out->rgba);
        out->rgba = NULL;
    }
    kv_scene_renderer_destroy(job->kv, sr);
    if (target) kv_target_destroy(job->kv, target);
    kiln_error ignored;
    if (h.id) krt_release(job->rt, h, &ignored);
    return r;
}
#endif
