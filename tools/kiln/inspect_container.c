/* inspect_container.c — `kiln inspect FILE` for kiln containers: the container's header and
 * section table, then what the kind's public reader (kiln_format.h) finds, as a JSON document
 * (docs/schemas/inspect.schema.json, "type": "container") and as text for people.
 *
 * The kind summaries are compiled when their reader's header is there (#ifdef on the kind's
 * fourcc macro): MESH, MATL, SCEN, SKEL, CLIP. A kind without one, or an unknown kind, gets the
 * section table alone. Asset ids are strings "0x" + 16 hex digits (JSON numbers lose bits past
 * 2^53); indices that may be absent are null then. */
#include "inspect_container.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- JSON helpers --------------------------------------------------------------------------- */

/* A float as the shortest decimal that reads back as the same float (printed with
 * KILN_INSPECT_CONTAINER_REAL_PRECISION digits it stays short: 0.8, not 0.800000012). */
static json_t *jf(float f)
{
    if (!isfinite(f)) return json_null();
    char buf[32];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)f);
        if ((float)strtod(buf, NULL) == f) break;
    }
    return json_real(strtod(buf, NULL));
}

static json_t *jfs(const float *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, jf(v[i]));
    return a;
}

static json_t *jid(uint64_t id)
{
    if (!id) return json_null();
    char buf[24];
    snprintf(buf, sizeof buf, "0x%016" PRIx64, id);
    return json_string(buf);
}

static json_t *jindex(uint32_t i) { return i == 0xFFFFFFFFu ? json_null() : json_integer(i); }

static json_t *jstr(const char *s, size_t n) { return json_stringn(s ? s : "", s ? n : 0); }

/* A fourcc as its four characters, or "0x" + 8 hex digits when they are not printable. */
static json_t *jfourcc(uint32_t v)
{
    char buf[16];
    bool printable = true;
    for (int i = 0; i < 4; i++) {
        unsigned c = (v >> (8 * i)) & 0xFF;
        printable &= c >= 0x20 && c < 0x7F;
        buf[i] = (char)c;
    }
    buf[4] = 0;
    if (!printable) snprintf(buf, sizeof buf, "0x%08" PRIx32, v);
    return json_string(buf);
}

static json_t *jbounds(const float *min, const float *max)
{
    json_t *b = json_object();
    json_object_set_new(b, "min", jfs(min, 3));
    json_object_set_new(b, "max", jfs(max, 3));
    return b;
}

static const char *name_of(uint32_t v, const char *const *names, uint32_t n)
{
    return v < n ? names[v] : "unknown";
}

/* ---- materials ------------------------------------------------------------------------------ */

static const char *const slot_names[] = {"base_color", "metallic_roughness", "normal", "occlusion",
                                         "emissive"};
static const char *const filter_names[] = {"default", "nearest", "linear"};
static const char *const wrap_names[] = {"repeat", "clamp", "mirror"};
static const char *const alpha_names[] = {"opaque", "mask", "blend"};

#ifdef KILN_MATERIAL_KIND
static json_t *material_doc(const kiln_material *m)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", jstr(m->name, m->name_size));
    json_object_set_new(j, "base_color", jfs(m->base_color, 4));
    json_object_set_new(j, "metallic", jf(m->metallic));
    json_object_set_new(j, "roughness", jf(m->roughness));
    json_object_set_new(j, "emissive", jfs(m->emissive, 3));
    json_object_set_new(j, "emissive_strength", jf(m->emissive_strength));
    json_object_set_new(j, "normal_scale", jf(m->normal_scale));
    json_object_set_new(j, "occlusion_strength", jf(m->occlusion_strength));
    json_object_set_new(j, "alpha_mode", json_string(name_of(m->alpha_mode, alpha_names, 3)));
    json_object_set_new(j, "alpha_cutoff", jf(m->alpha_cutoff));
    json_object_set_new(j, "double_sided", json_boolean(m->double_sided));
    json_object_set_new(j, "unlit", json_boolean(m->unlit));
    json_t *slots = json_object();
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        const kiln_material_texture *t = &m->textures[s];
        if (!t->image) {
            json_object_set_new(slots, slot_names[s], json_null());
            continue;
        }
        json_t *tj = json_object();
        json_object_set_new(tj, "image", jid(t->image));
        json_object_set_new(tj, "texcoord", json_integer(t->texcoord));
        json_object_set_new(tj, "mag_filter", json_string(name_of(t->mag_filter, filter_names, 3)));
        json_object_set_new(tj, "min_filter", json_string(name_of(t->min_filter, filter_names, 3)));
        json_object_set_new(tj, "mip_filter", json_string(name_of(t->mip_filter, filter_names, 3)));
        json_object_set_new(tj, "mipmaps", json_boolean(t->mipmaps));
        json_object_set_new(tj, "wrap_s", json_string(name_of(t->wrap_s, wrap_names, 3)));
        json_object_set_new(tj, "wrap_t", json_string(name_of(t->wrap_t, wrap_names, 3)));
        if (t->has_transform) {
            json_t *x = json_object();
            json_object_set_new(x, "offset", jfs(t->offset, 2));
            json_object_set_new(x, "rotation", jf(t->rotation));
            json_object_set_new(x, "scale", jfs(t->scale, 2));
            json_object_set_new(tj, "transform", x);
        } else {
            json_object_set_new(tj, "transform", json_null());
        }
        json_object_set_new(tj, "matrix", jfs(t->matrix, 6));
        json_object_set_new(slots, slot_names[s], tj);
    }
    json_object_set_new(j, "textures", slots);
    return j;
}
#endif

/* ---- scenes --------------------------------------------------------------------------------- */

#ifdef KILN_COOKED_SCENE_KIND
static json_t *scene_doc(const kiln_cooked_scene_view *v)
{
    static const char *const camera_types[] = {"perspective", "orthographic"};
    static const char *const light_types[] = {"directional", "point", "spot"};
    json_t *j = json_object();
    json_object_set_new(j, "name", jstr(v->name, v->name_size));
    json_object_set_new(j, "synthetic_root", json_boolean(v->flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT));
    json_object_set_new(j, "source_scene", jindex(v->source_scene));
    json_object_set_new(j, "bounds", (v->flags & KILN_COOKED_SCENE_HAS_BOUNDS)
                                         ? jbounds(v->bounds_min, v->bounds_max)
                                         : json_null());
    json_object_set_new(j, "primitive_count", json_integer(v->primitive_count));
    json_object_set_new(j, "weight_count", json_integer(v->weight_count));
    json_t *nodes = json_array();
    for (uint32_t i = 0; i < v->node_count; i++) {
        kiln_cooked_node n = kiln_cooked_scene_node(v, i);
        json_t *nj = json_object();
        json_object_set_new(nj, "name", jstr(n.name, n.name_size));
        json_object_set_new(nj, "parent", jindex(n.parent));
        json_object_set_new(nj, "subtree_end", json_integer(n.subtree_end));
        json_object_set_new(nj, "source_node", jindex(n.source_node));
        json_object_set_new(nj, "synthetic", json_boolean(n.flags & KILN_COOKED_NODE_SYNTHETIC));
        json_object_set_new(nj, "matrix_given", json_boolean(n.flags & KILN_COOKED_NODE_MATRIX));
        json_object_set_new(nj, "translation", jfs(n.translation, 3));
        json_object_set_new(nj, "rotation", jfs(n.rotation, 4));
        json_object_set_new(nj, "scale", jfs(n.scale, 3));
        json_object_set_new(nj, "matrix", jfs(n.matrix, 16));
        json_object_set_new(nj, "mesh", jindex(n.mesh));
        json_t *prims = json_array();
        for (uint32_t p = 0; p < n.primitive_count; p++)
            json_array_append_new(prims, jid(kiln_cooked_scene_primitive(v, n.first_primitive + p)));
        json_object_set_new(nj, "primitives", prims);
        json_object_set_new(nj, "skin", jindex(n.skin));
        json_object_set_new(nj, "skeleton", jid(n.skeleton));
        json_object_set_new(nj, "camera", jindex(n.camera));
        json_object_set_new(nj, "light", jindex(n.light));
        json_t *w = json_array();
        for (uint32_t k = 0; k < n.weight_count; k++)
            json_array_append_new(w, jf(kiln_cooked_scene_weight(v, n.first_weight + k)));
        json_object_set_new(nj, "weights", w);
        json_object_set_new(nj, "instance_weights",
                            json_boolean(n.flags & KILN_COOKED_NODE_INSTANCE_WEIGHTS));
        json_array_append_new(nodes, nj);
    }
    json_object_set_new(j, "nodes", nodes);
    json_t *cams = json_array();
    for (uint32_t i = 0; i < v->camera_count; i++) {
        kiln_cooked_camera c = kiln_cooked_scene_camera(v, i);
        json_t *cj = json_object();
        json_object_set_new(cj, "name", jstr(c.name, c.name_size));
        json_object_set_new(cj, "type", json_string(name_of(c.type, camera_types, 2)));
        json_object_set_new(cj, "source_camera", json_integer(c.source_camera));
        json_object_set_new(cj, "yfov", jf(c.yfov));
        json_object_set_new(cj, "aspect", jf(c.aspect));
        json_object_set_new(cj, "xmag", jf(c.xmag));
        json_object_set_new(cj, "ymag", jf(c.ymag));
        json_object_set_new(cj, "znear", jf(c.znear));
        json_object_set_new(cj, "zfar", jf(c.zfar));
        json_array_append_new(cams, cj);
    }
    json_object_set_new(j, "cameras", cams);
    json_t *lights = json_array();
    for (uint32_t i = 0; i < v->light_count; i++) {
        kiln_cooked_light l = kiln_cooked_scene_light(v, i);
        json_t *lj = json_object();
        json_object_set_new(lj, "name", jstr(l.name, l.name_size));
        json_object_set_new(lj, "type", json_string(name_of(l.type, light_types, 3)));
        json_object_set_new(lj, "source_light", json_integer(l.source_light));
        json_object_set_new(lj, "color", jfs(l.color, 3));
        json_object_set_new(lj, "intensity", jf(l.intensity));
        json_object_set_new(lj, "range", jf(l.range));
        json_object_set_new(lj, "inner_cone", jf(l.inner_cone));
        json_object_set_new(lj, "outer_cone", jf(l.outer_cone));
        json_array_append_new(lights, lj);
    }
    json_object_set_new(j, "lights", lights);
    json_t *clips = json_array();
    for (uint32_t i = 0; i < v->clip_count; i++)
        json_array_append_new(clips, jid(kiln_cooked_scene_clip(v, i)));
    json_object_set_new(j, "clips", clips);
    return j;
}
#endif

/* ---- meshes --------------------------------------------------------------------------------- */

#ifdef KILN_MESH_KIND
static const char *const stream_names[] = {
    "position", "normal", "tangent", "uv0", "uv1", "uv2", "uv3", "color0", "color1",
    "joints", "weights", "indices", "target_positions", "target_normals", "target_tangents"};
static const char *const format_names[] = {
    "none", "f32x2", "f32x3", "f32x4", "unorm16x4", "snorm16x2_oct", "snorm8x4_oct",
    "unorm16x2", "unorm8x4", "u8x4", "u16x4", "u16", "u32"};

static json_t *mesh_doc(const kiln_mesh_view *v)
{
    _Static_assert(sizeof stream_names / sizeof stream_names[0] == KILN_MESH_STREAM_COUNT,
                   "a name for every mesh stream");
    json_t *j = json_object();
    json_object_set_new(j, "quantized", json_boolean(v->flags & KILN_MESH_QUANTIZED));
    json_object_set_new(j, "compressed", json_boolean(v->flags & KILN_MESH_COMPRESSED));
    json_object_set_new(j, "vertex_count", json_integer(v->vertex_count));
    json_object_set_new(j, "index_count", json_integer(v->index_count));
    json_object_set_new(j, "material", jid(v->material));
    json_object_set_new(j, "bounds", jbounds(v->bounds_min, v->bounds_max));
    json_object_set_new(j, "uv_sets", json_integer(v->uv_set_count));
    json_object_set_new(j, "color_sets", json_integer(v->color_set_count));
    json_object_set_new(j, "joint_count", json_integer(v->joint_count));
    json_object_set_new(j, "target_count", json_integer(v->target_count));
    json_object_set_new(j, "meshlet_count", json_integer(v->meshlet_count));
    json_object_set_new(j, "meshlet_max_vertices", json_integer(v->meshlet_max_vertices));
    json_object_set_new(j, "meshlet_max_triangles", json_integer(v->meshlet_max_triangles));
    json_t *levels = json_array();
    for (uint32_t l = 0; l < v->level_count && l < KILN_MESH_MAX_LEVELS; l++) {
        const kiln_mesh_lod *d = &v->levels[l];
        json_t *lj = json_object();
        json_object_set_new(lj, "triangles", json_integer(d->index_count / 3));
        json_object_set_new(lj, "index_offset", json_integer(d->index_offset));
        json_object_set_new(lj, "meshlets", json_integer(d->meshlet_count));
        json_object_set_new(lj, "error", jf(d->error));
        json_object_set_new(lj, "error_absolute", jf(d->error_absolute));
        json_array_append_new(levels, lj);
    }
    json_object_set_new(j, "levels", levels);
    json_t *streams = json_array();
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        const kiln_mesh_stream *st = &v->streams[s];
        if (st->format == KILN_MESH_FORMAT_NONE) continue;
        json_t *sj = json_object();
        json_object_set_new(sj, "stream", json_string(stream_names[s]));
        json_object_set_new(sj, "format", json_string(name_of(st->format, format_names, 13)));
        json_object_set_new(sj, "stride", json_integer(st->stride));
        json_object_set_new(sj, "count", json_integer((json_int_t)st->count));
        json_object_set_new(sj, "size", json_integer((json_int_t)st->size));
        json_array_append_new(streams, sj);
    }
    json_object_set_new(j, "streams", streams);
    return j;
}
#endif

/* ---- skeletons and clips -------------------------------------------------------------------- */

#ifdef KILN_SKELETON_KIND
static json_t *skeleton_doc(const kiln_skeleton_view *v)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", jstr(v->name, v->name_size));
    json_object_set_new(j, "skin", json_integer(v->skin));
    json_object_set_new(j, "joint_count", json_integer(v->joint_count));
    json_object_set_new(j, "root_count", json_integer(v->root_count));
    json_object_set_new(j, "pre_transform_count", json_integer(v->pre_count));
    json_t *joints = json_array();
    for (uint32_t i = 0; i < v->joint_count; i++) {
        kiln_skeleton_joint k = kiln_skeleton_joint_at(v, i);
        json_t *jj = json_object();
        json_object_set_new(jj, "name", jstr(k.name, k.name_size));
        json_object_set_new(jj, "parent", k.parent < 0 ? json_null() : json_integer(k.parent));
        json_object_set_new(jj, "node", json_integer(k.node));
        json_array_append_new(joints, jj);
    }
    json_object_set_new(j, "joints", joints);
    return j;
}
#endif

#ifdef KILN_CLIP_KIND
static json_t *clip_doc(const kiln_clip_view *v)
{
    static const char *const paths[] = {"translation", "rotation", "scale", "weights"};
    static const char *const interps[] = {"linear", "step", "cubicspline"};
    json_t *j = json_object();
    json_object_set_new(j, "name", jstr(v->name, v->name_size));
    json_object_set_new(j, "skeleton", jid(v->skeleton));
    json_object_set_new(j, "start", jf(v->start));
    json_object_set_new(j, "end", jf(v->end));
    json_object_set_new(j, "resampled", json_boolean(v->flags & KILN_CLIP_RESAMPLED));
    json_object_set_new(j, "reduced", json_boolean(v->flags & KILN_CLIP_REDUCED));
    json_object_set_new(j, "resample_fps", jf(v->resample_fps));
    json_object_set_new(j, "max_error", jfs(v->max_error, 4));
    json_object_set_new(j, "source_key_count", json_integer((json_int_t)v->source_key_count));
    json_t *tracks = json_array();
    uint64_t keys = 0;
    for (uint32_t i = 0; i < v->track_count; i++) {
        kiln_clip_track t = kiln_clip_track_at(v, i);
        json_t *tj = json_object();
        json_object_set_new(tj, "node", json_integer(t.node));
        json_object_set_new(tj, "joint", (t.flags & KILN_CLIP_TRACK_NODE) ? json_null()
                                                                           : json_integer(t.target));
        json_object_set_new(tj, "path", json_string(name_of(t.path, paths, 4)));
        json_object_set_new(tj, "interpolation", json_string(name_of(t.interpolation, interps, 3)));
        json_object_set_new(tj, "components", json_integer(t.components));
        json_object_set_new(tj, "keys", json_integer(t.key_count));
        keys += t.key_count;
        json_array_append_new(tracks, tj);
    }
    json_object_set_new(j, "key_count", json_integer((json_int_t)keys));
    json_object_set_new(j, "tracks", tracks);
    return j;
}
#endif

/* ---- the document --------------------------------------------------------------------------- */

/* The kind's summary member, or NULL with *r set when its reader refuses the bytes (*r is KILN_OK
 * and NULL returned for a kind without a reader here). */
static json_t *kind_summary(const uint8_t *data, size_t size, uint32_t kind, const char **member,
                            kiln_result *r, kiln_error *err)
{
    *r = KILN_OK;
    *member = NULL;
    (void)data, (void)size, (void)err;
#ifdef KILN_MATERIAL_KIND
    if (kind == KILN_MATERIAL_KIND) {
        kiln_material_view v;
        *member = "material";
        if ((*r = kiln_material_read(data, size, 0, &v, err)) != KILN_OK) return NULL;
        return material_doc(&v.material);
    }
#endif
#ifdef KILN_COOKED_SCENE_KIND
    if (kind == KILN_COOKED_SCENE_KIND) {
        kiln_cooked_scene_view v;
        *member = "scene";
        if ((*r = kiln_cooked_scene_read(data, size, 0, &v, err)) != KILN_OK) return NULL;
        return scene_doc(&v);
    }
#endif
#ifdef KILN_MESH_KIND
    if (kind == KILN_MESH_KIND) {
        kiln_mesh_view v;
        *member = "mesh";
        if ((*r = kiln_mesh_read(data, size, 0, &v, err)) != KILN_OK) return NULL;
        return mesh_doc(&v);
    }
#endif
#ifdef KILN_SKELETON_KIND
    if (kind == KILN_SKELETON_KIND) {
        kiln_skeleton_view v;
        *member = "skeleton";
        if ((*r = kiln_skeleton_read(data, size, 0, &v, err)) != KILN_OK) return NULL;
        return skeleton_doc(&v);
    }
#endif
#ifdef KILN_CLIP_KIND
    if (kind == KILN_CLIP_KIND) {
        kiln_clip_view v;
        *member = "clip";
        if ((*r = kiln_clip_read(data, size, 0, &v, err)) != KILN_OK) return NULL;
        return clip_doc(&v);
    }
#endif
    /* Hook: a kind whose reader is not in kiln_format.h yet gets the section table only. */
    *member = NULL;
    return NULL;
}

json_t *kiln_inspect_container(const uint8_t *data, size_t size, kiln_result *r, kiln_error *err)
{
    kiln_container c;
    *r = kiln_container_read(data, size, 0, &c, err);
    if (*r != KILN_OK) return NULL;
    const char *member;
    json_t *summary = kind_summary(data, size, c.kind, &member, r, err);
    if (*r != KILN_OK) return NULL;
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("container"));
    json_object_set_new(j, "kind", jfourcc(c.kind));
    json_object_set_new(j, "kind_version", json_integer(c.kind_version));
    json_object_set_new(j, "container_version", json_integer(KILN_CONTAINER_VERSION));
    json_object_set_new(j, "size", json_integer((json_int_t)size));
    uint64_t checksum = 0;
    for (int i = 7; i >= 0; i--) checksum = checksum << 8 | data[24 + i];
    char buf[24];
    snprintf(buf, sizeof buf, "0x%016" PRIx64, checksum);
    json_object_set_new(j, "checksum", json_string(buf));
    json_t *sections = json_array();
    for (uint32_t i = 0; i < c.section_count; i++) {
        kiln_container_section s;
        kiln_container_section_at(&c, i, &s);
        json_t *sj = json_object();
        json_object_set_new(sj, "id", jfourcc(s.id));
        json_object_set_new(sj, "element_size", json_integer(s.element_size));
        json_object_set_new(sj, "count", json_integer((json_int_t)s.count));
        json_object_set_new(sj, "offset", json_integer((json_int_t)(s.data - c.bytes)));
        json_object_set_new(sj, "size", json_integer((json_int_t)s.size));
        json_array_append_new(sections, sj);
    }
    json_object_set_new(j, "sections", sections);
    if (summary) json_object_set_new(j, member, summary);
    return j;
}

/* ---- text ----------------------------------------------------------------------------------- */

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
    json_array_foreach(a, i, v) printf("%s%g", i ? ", " : "", json_number_value(v));
    putchar(')');
}

static bool is_unit(const json_t *a, double one_at)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) if (json_number_value(v) != ((double)i == one_at ? 1.0 : 0.0)) return false;
    return true;
}

static bool all_equal(const json_t *a, double x)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) if (json_number_value(v) != x) return false;
    return true;
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
    for (size_t s = 0; s < sizeof slot_names / sizeof slot_names[0]; s++) {
        const json_t *t = json_object_get(slots, slot_names[s]);
        printf("    %-18s ", slot_names[s]);
        if (!t || json_is_null(t)) {
            printf("none\n");
            continue;
        }
        printf("image %s, uv %lld, filter %s/%s", S(t, "image"), I(t, "texcoord"),
               S(t, "mag_filter"), S(t, "min_filter"));
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
    json_array_foreach(json_object_get(s, "clips"), i, c) printf("    clip %zu: %s\n", i, json_string_value(c));
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
    json_array_foreach(json_object_get(m, "levels"), i, v)
        printf("    level %zu: %lld triangles, error %g (%g absolute), %lld meshlets\n", i,
               I(v, "triangles"), F(v, "error"), F(v, "error_absolute"), I(v, "meshlets"));
    json_array_foreach(json_object_get(m, "streams"), i, v)
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

void kiln_inspect_container_print(const json_t *doc, const char *path)
{
    printf("%s: kiln container %s version %lld (container version %lld), %lld bytes, checksum %s\n",
           path, S(doc, "kind"), I(doc, "kind_version"), I(doc, "container_version"),
           I(doc, "size"), S(doc, "checksum"));
    printf("  %-8s %8s %10s %10s %10s\n", "section", "offset", "element", "count", "bytes");
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(doc, "sections"), i, s)
        printf("  %-8s %8lld %10lld %10lld %10lld\n", S(s, "id"), I(s, "offset"),
               I(s, "element_size"), I(s, "count"), I(s, "size"));
    const json_t *m;
    if ((m = json_object_get(doc, "material"))) print_material(m);
    if ((m = json_object_get(doc, "scene"))) print_scene(m);
    if ((m = json_object_get(doc, "mesh"))) print_mesh(m);
    if ((m = json_object_get(doc, "skeleton"))) print_skeleton(m);
    if ((m = json_object_get(doc, "clip"))) print_clip(m);
}
