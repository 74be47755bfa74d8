/* thumbnail_vgeo.c — `kiln thumbnail NAME#vgeo<i>/prim<p>`: the cut through a virtual geometry's
 * cluster DAG that kiln_vgeo_select makes for the thumbnail's own camera (docs/rendering.md
 * "kiln thumbnail", docs/virtual_geometry.md "Pictures"). The VGEO is loaded with the mesh it
 * names; the camera frames that mesh's bounds as for a mesh thumbnail (--camera, --distance),
 * and the mesh is drawn with an identity transform, so the camera's eye is already in the mesh's
 * model space, which the cut wants. --cut-distance makes the cut for a camera farther or nearer
 * on the same line than the one drawing (a frozen LOD camera: a far cut seen up close). This file
 * chooses the clusters; kv only draws them (kv_clusters_create, kv_draw_desc.clusters), in the
 * meshlet view for `clusters` and the LOD view for `levels` (each triangle keyed by its cluster and
 * DAG level), or shaded. */
#ifdef KILN_HAVE_VIEW
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thumbnail.h"

/* The views of a cut and what kv draws them with. */
static const struct {
    const char *name;
    kv_view view;
} cut_views[] = {
    {"clusters", KV_VIEW_MESHLETS}, {"levels", KV_VIEW_LOD},      {"lit", KV_VIEW_LIT},
    {"unlit", KV_VIEW_UNLIT},       {"normals", KV_VIEW_NORMALS}, {"uv", KV_VIEW_UV},
};

static int cut_view(const char *name)
{
    for (size_t i = 0; i < sizeof cut_views / sizeof cut_views[0]; i++)
        if (!strcmp(cut_views[i].name, name)) return (int)cut_views[i].view;
    return -1;
}

/* The cut for cam: the cluster indices into *out (malloc'd), their count into *count. */
static kiln_result select_cut(const kiln_vgeo_view *v, const kv_camera *cam, uint32_t height,
                              float pixel_error, uint32_t **out, size_t *count, kiln_error *err)
{
    kiln_vgeo_camera vc = {
        .position = {cam->eye[0], cam->eye[1], cam->eye[2]},
        .fov_y = cam->fov_y,
        .viewport_height = (float)height,
    };
    *out = malloc(((size_t)v->cluster_count + 1) * sizeof **out);
    if (!*out) return kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    *count = kiln_vgeo_select(v, &vc, pixel_error, *out, v->cluster_count);
    if (*count > v->cluster_count) /* cannot happen: one entry per cluster at most */
        return kiln_thumb_error(err, KILN_E_INTERNAL, "kiln_vgeo_select: %zu of %u clusters",
                                *count, v->cluster_count);
    return KILN_OK;
}

kiln_result kiln_thumb_vgeo(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_thumb_opts *o = job->opts;
    const char *view_name = o->view ? o->view : "clusters";
    int view = cut_view(view_name);
    if (view < 0)
        return kiln_thumb_error(err, KILN_E_USAGE,
                                "%.200s: a virtual geometry's views are clusters, levels, lit, "
                                "unlit, normals and uv (not %.40s)",
                                job->name, view_name);
    if (!job->asset_id)
        return kiln_thumb_error(err, KILN_E_USAGE,
                                "%.200s: a cooked virtual geometry alone names its mesh by id: "
                                "give NAME#vgeo<i>/prim<p> in its project",
                                job->name);
    const kv_shader *vert, *frag;
    kiln_result r = kiln_thumb_shader(job->rt, "shaders/mesh.vert#shader", &vert, err);
    if (!r) r = kiln_thumb_shader(job->rt, "shaders/mesh.frag#shader", &frag, err);
    krt_handle h = {0};
    if (!r) r = kiln_thumb_load(job, &h, err);
    if (r) return r;
    krt_vgeo_data vd;
    if (krt_get_vgeo(job->rt, h, &vd, err)) {
        r = err->code;
        kiln_error ignored;
        krt_release(job->rt, h, &ignored);
        return r;
    }
    const kiln_vgeo_view *v = vd.view;
    uint32_t size = o->size;
    kv_target *target = NULL;
    kv_scene_renderer *sr = NULL;
    kv_clusters *cut = NULL;
    uint32_t *list = NULL;
    size_t count = 0;
    r = kv_target_create(job->kv, size, size, &target, err);
    if (!r) r = kv_scene_renderer_create(job->kv, target, vert, frag, &sr, err);
    float bmin[3], bmax[3];
    if (!r && o->has_bounds) {
        memcpy(bmin, o->bounds, sizeof bmin);
        memcpy(bmax, o->bounds + 3, sizeof bmax);
    } else if (!r) {
        r = kv_bounds(job->kv, job->rt, vd.mesh, bmin, bmax, err);
    }
    kv_camera cam, cut_cam;
    if (!r) r = kiln_thumb_camera(o, bmin, bmax, size, &cam, err);
    double cut_distance = o->cut_distance > 0 ? o->cut_distance : o->distance > 0 ? o->distance : 1;
    kiln_thumb_opts co = *o;
    co.distance = cut_distance;
    if (!r) r = kiln_thumb_camera(&co, bmin, bmax, size, &cut_cam, err);
    float pixel_error = o->pixel_error > 0 ? o->pixel_error : 1.0f;
    if (!r) r = select_cut(v, &cut_cam, size, pixel_error, &list, &count, err);
    if (!r) r = kv_clusters_create(job->kv, job->rt, vd.mesh, v, list, count, &cut, err);
    kv_draw_desc d = {.view = (kv_view)view, .clip = KV_NO_CLIP, .lod = -1, .clusters = cut};
    for (int i = 0; i < 4; i++) d.background[i] = (uint8_t)(o->background[i] + 0.5f);
    if (!r) r = kv_draw(job->kv, sr, target, job->rt, vd.mesh, &cam, &d, err);
    if (!r) {
        out->rgba = malloc((size_t)size * size * 4);
        if (!out->rgba) r = kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    if (!r) r = kv_target_read(job->kv, target, out->rgba, (size_t)size * size * 4, err);
    if (!r) {
        kv_draw_stats st;
        kv_draw_stats_get(sr, &st);
        uint32_t lo = UINT32_MAX, hi = 0;
        for (size_t i = 0; i < count; i++) {
            uint32_t l = kiln_vgeo_cluster_link(v, list[i]).level;
            if (l < lo) lo = l;
            if (l > hi) hi = l;
        }
        out->width = out->height = size;
        char levels[32];
        if (count == 0) snprintf(levels, sizeof levels, "no levels");
        else if (lo == hi) snprintf(levels, sizeof levels, "level %u", lo);
        else snprintf(levels, sizeof levels, "levels %u..%u", lo, hi);
        double distance = o->distance > 0 ? o->distance : 1.0;
        char seen[48] = "";
        if (cut_distance != distance) snprintf(seen, sizeof seen, ", seen from %g", distance);
        snprintf(out->what, sizeof out->what,
                 "virtual geometry, %.12s, cut of %zu clusters, %llu triangles (of %u), %.20s, "
                 "%g px at distance %g%.24s",
                 view_name, count, (unsigned long long)st.triangles, v->source_triangles, levels,
                 (double)pixel_error, cut_distance, seen);
    } else {
        free(out->rgba);
        out->rgba = NULL;
    }
    kv_clusters_destroy(job->kv, cut);
    free(list);
    kv_scene_renderer_destroy(job->kv, sr);
    if (target) kv_target_destroy(job->kv, target);
    kiln_error ignored;
    krt_release(job->rt, h, &ignored);
    return r;
}
#endif
