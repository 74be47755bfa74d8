/* cook_model.c — a glTF model into its artifacts (DESIGN.md): image<i> (KTX2, one per image and
 * role), material<i> (and typed_material<i> where a template is named:
 * cook_model_template.c), mesh<i>/prim<p>, skeleton<i>, clip<i> and scene, in that order. The
 * processors build each in memory, the format writers serialize it; this file decides the
 * roles of images, which skeleton a mesh and a clip belong to, the asset ids artifacts use to
 * name each other, and the summary the manifest keeps. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/jobs.h"
#include "pipeline/cook.h"
#include "pipeline/cook_model_template.h"
#include "pipeline/scene_load.h"
#include "process/clip.h"
#include "process/material.h"
#include "process/mesh.h"
#include "process/mesh_copies.h"
#include "process/scene_cook.h"
#include "process/skeleton.h"
#include "process/vgeo.h"
#include "write/clip_write.h"
#include "write/material_write.h"
#include "write/mesh_write.h"
#include "write/scene_write.h"
#include "write/skeleton_write.h"
#include "write/vgeo_write.h"

/* The roles an image is cooked for: its texture settings follow the role
 * (kiln_material_slot_role). */
typedef kiln_image_role image_role;
#define ROLE_COLOR  KILN_IMAGE_ROLE_COLOR
#define ROLE_NORMAL KILN_IMAGE_ROLE_NORMAL
#define ROLE_COUNT  KILN_IMAGE_ROLE_COUNT
static const char *const role_names[ROLE_COUNT] = {"color", "normal", "linear"};

static image_role slot_role(int slot) { return kiln_material_slot_role((uint32_t)slot); }

typedef struct model_cook {
    const kiln_cook_env *env;
    const kiln_model_settings *s;
    const char *guid;
    const kiln_allocator *alloc;
    const kiln_scene *scene;
    kiln_cooked *out;
    json_t *summary, *warnings;
    /* image i, role r: 0 = not used in that role, else 1 + the order of first use */
    uint32_t (*image_roles)[ROLE_COUNT];
    uint64_t (*image_ids)[ROLE_COUNT]; /* the cooked artifact's id, 0 = none cooked */
    kiln_cooked_skeleton *skeletons;   /* per skin */
    kiln_mesh_copies copies;           /* which skin each mesh's joint indices follow, per copy */
} model_cook;

static void warn(model_cook *m, const char *fmt, ...) KILN_PRINTF(2, 3);
static void warn(model_cook *m, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    json_array_append_new(m->warnings, json_string(text));
}

static uint64_t id_of(const model_cook *m, const char *label)
{
    return kiln_asset_id(m->guid, label);
}

/* Appends serialized bytes (allocated from m->alloc) as an output. */
static kiln_result add_output(model_cook *m, const char *label, const char *file, uint8_t *bytes,
                              size_t size, kiln_error *err)
{
    return kiln_cooked_add(m->out, m->alloc, label, file, bytes, size, size, err);
}

/* ---- images ---------------------------------------------------------------------------------- */

static void find_image_roles(model_cook *m)
{
    const kiln_scene *sc = m->scene;
    uint32_t order = 0;
    for (uint32_t i = 0; i < sc->material_count; i++)
        for (int slot = 0; slot < KILN_SCENE_SLOT_COUNT; slot++) {
            int32_t t = sc->materials[i].textures[slot].texture;
            if (t < 0 || (uint32_t)t >= sc->texture_count) continue;
            int32_t img = sc->textures[t].image;
            if (img < 0 || (uint32_t)img >= sc->image_count) continue;
            uint32_t *r = &m->image_roles[img][slot_role(slot)];
            if (!*r) *r = ++order;
        }
}

/* The texture settings of a role, from the model's. */
static kiln_texture_settings role_settings(const kiln_model_settings *s, image_role role)
{
    kiln_texture_settings t;
    memset(&t, 0, sizeof t);
    t.format = s->texture_format;
    t.mipmaps = true;
    t.max_size = s->texture_max_size;
    t.quality = s->texture_quality;
    t.supercompression = KILN_SUPERCOMPRESSION_NONE;
    t.normal_map = role == ROLE_NORMAL;
    /* Formats without an sRGB variant take linear data as they are (auto picks one that fits). */
    bool has_srgb = t.format == KILN_TEXFMT_AUTO || kiln_texture_format_has_srgb(t.format);
    t.srgb = role == ROLE_COLOR && has_srgb ? KILN_TRI_TRUE : KILN_TRI_FALSE;
    return t;
}

static kiln_result cook_images(model_cook *m, kiln_error *err)
{
    const kiln_scene *sc = m->scene;
    json_t *list = json_array();
    json_object_set_new(m->summary, "images", list);
    if (!m->s->textures) return KILN_OK;
    for (uint32_t i = 0; i < sc->image_count; i++) {
        /* Roles in order of first use: the first is image<i>, others image<i>/<role>. */
        uint32_t first = 0;
        for (int r = 0; r < ROLE_COUNT; r++)
            if (m->image_roles[i][r] &&
                (!first || m->image_roles[i][r] < m->image_roles[i][first - 1]))
                first = (uint32_t)r + 1;
        for (int r = 0; r < ROLE_COUNT; r++) {
            if (!m->image_roles[i][r]) continue;
            const kiln_scene_image *img = &sc->images[i];
            char label[64], file[64];
            if ((uint32_t)r + 1 == first) {
                snprintf(label, sizeof label, "image%u", i);
                snprintf(file, sizeof file, "image%u.ktx2", i);
            } else {
                snprintf(label, sizeof label, "image%u/%s", i, role_names[r]);
                snprintf(file, sizeof file, "image%u.%s.ktx2", i, role_names[r]);
            }
            if (!img->encoded_size) {
                warn(m, "%s: image %u (\"%s\") has no bytes; its material slots stay empty", label,
                     i, *img->uri ? img->uri : img->name);
                continue;
            }
            kiln_texture_settings ts = role_settings(m->s, (image_role)r);
            kiln_cooked tc;
            memset(&tc, 0, sizeof tc);
            kiln_cook_env env = *m->env;
            char name[KILN_PATH_MAX + 64];
            snprintf(name, sizeof name, "%s#%s", m->env->name, label);
            env.name = name;
            kiln_error terr;
            kiln_result res =
                kiln_cook_texture_source(&env, &ts, img->encoded, img->encoded_size, &tc, &terr);
            if (res == KILN_E_OUT_OF_MEMORY) {
                if (err) *err = terr;
                kiln_cooked_release(m->alloc, &tc);
                return res;
            }
            if (res != KILN_OK) {
                /* A texture kiln cannot read (another format, damaged) leaves its slots empty:
                 * the geometry is still worth cooking. */
                warn(m, "%s: not cooked: %s: %s", label, kiln_result_name(res), terr.message);
                kiln_cooked_release(m->alloc, &tc);
                continue;
            }
            size_t wi;
            json_t *w;
            json_array_foreach (tc.warnings, wi, w) {
                warn(m, "%s: %s", label, json_string_value(w));
            }
            uint8_t *bytes = tc.owned[0];
            size_t size = tc.outputs[0].size, cap = tc.owned_capacity[0];
            tc.owned[0] = NULL; /* moved into the model's outputs */
            json_t *row = json_object();
            json_object_set_new(row, "label", json_string(label));
            json_object_set_new(row, "role", json_string(role_names[r]));
            json_object_set_new(row, "size", json_integer((json_int_t)size));
            const char *keys[] = {"format", "width", "height", "levels"};
            for (size_t k = 0; k < 4; k++) {
                json_t *v = json_object_get(tc.summary, keys[k]);
                if (v) json_object_set(row, keys[k], v);
            }
            json_array_append_new(list, row);
            kiln_cooked_release(m->alloc, &tc);
            kiln_result ar = kiln_cooked_add(m->out, m->alloc, label, file, bytes, size, cap, err);
            if (ar != KILN_OK) return ar;
            m->image_ids[i][r] = id_of(m, label);
        }
    }
    return KILN_OK;
}

/* ---- materials ------------------------------------------------------------------------------- */

/* material<i> for every material, and typed_material<i> for those a template names. */
static kiln_result cook_materials(model_cook *m, kiln_error *err)
{
    const kiln_scene *sc = m->scene;
    json_t *typed = NULL; /* the summary's rows (owned by the summary) */
    for (uint32_t i = 0; i < sc->material_count; i++) {
        uint64_t ids[KILN_SCENE_SLOT_COUNT] = {0};
        for (int slot = 0; slot < KILN_SCENE_SLOT_COUNT; slot++) {
            int32_t t = sc->materials[i].textures[slot].texture;
            if (t < 0 || (uint32_t)t >= sc->texture_count) continue;
            int32_t img = sc->textures[t].image;
            if (img >= 0 && (uint32_t)img < sc->image_count)
                ids[slot] = m->image_ids[img][slot_role(slot)];
        }
        kiln_cooked_material mat;
        kiln_result r = kiln_material_build(sc, (int32_t)i, ids, &mat, err);
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (r == KILN_OK) r = kiln_material_write(&mat, m->alloc, &bytes, &size, err);
        char label[48], file[48];
        snprintf(label, sizeof label, "material%u", i);
        snprintf(file, sizeof file, "material%u.kmat", i);
        if (r == KILN_OK) r = add_output(m, label, file, bytes, size, err);
        if (r != KILN_OK) return r;
        /* and against its template, when the settings name one */
        const kiln_model_template *t = kiln_model_template_for(m->env, sc->materials[i].name);
        if (!t) continue;
        json_t *row = NULL;
        r = kiln_model_template_cook(m->env, t, sc, i, ids, &bytes, &size, &row, err);
        snprintf(label, sizeof label, "typed_material%u", i);
        snprintf(file, sizeof file, "typed_material%u.tmat", i);
        if (r == KILN_OK) r = add_output(m, label, file, bytes, size, err);
        if (r != KILN_OK) {
            json_decref(row);
            return r;
        }
        if (!typed) json_object_set_new(m->summary, "typed_materials", typed = json_array());
        json_array_append_new(typed, row);
    }
    json_object_set_new(m->summary, "materials", json_integer(sc->material_count));
    return KILN_OK;
}

/* ---- skeletons ------------------------------------------------------------------------------- */

static kiln_result cook_skeletons(model_cook *m, kiln_error *err)
{
    const kiln_scene *sc = m->scene;
    json_t *list = json_array();
    json_object_set_new(m->summary, "skeletons", list);
    for (uint32_t i = 0; i < sc->skin_count; i++) {
        kiln_cooked_skeleton *sk = &m->skeletons[i];
        kiln_result r = kiln_skeleton_build(sc, i, m->alloc, sk, err);
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (r == KILN_OK) r = kiln_skeleton_write(sk, m->alloc, &bytes, &size, err);
        char label[48], file[48];
        snprintf(label, sizeof label, "skeleton%u", i);
        snprintf(file, sizeof file, "skeleton%u.kskel", i);
        if (r == KILN_OK) r = add_output(m, label, file, bytes, size, err);
        if (r != KILN_OK) return r;
        json_t *row = json_object();
        json_object_set_new(row, "label", json_string(label));
        json_object_set_new(row, "joints", json_integer(sk->joint_count));
        json_array_append_new(list, row);
    }
    return KILN_OK;
}

/* The copies of each skinned mesh (process/mesh_copies.h): one per distinct joint order of the
 * skins that draw it, so every node deforms its mesh as the source says. Called once every
 * skeleton is built. */
static kiln_result plan_mesh_copies(model_cook *m, kiln_error *err)
{
    return kiln_mesh_copies_plan(m->scene, m->skeletons, m->alloc, &m->copies, err);
}

/* ---- meshes ---------------------------------------------------------------------------------- */

typedef struct mesh_job {
    model_cook *m;
    uint32_t mesh, prim;
    int32_t skin;      /* the skeleton whose joint order the joint indices take, or -1 */
    int32_t copy_skin; /* -1 for the mesh's first copy, else skin (the label says it) */
    kiln_cooked_mesh cooked;
    uint8_t *bytes;
    size_t size;
} mesh_job;

typedef struct mesh_batch {
    model_cook *m;
    mesh_job *jobs;
} mesh_batch;

/* Copies of a primitive's joint streams in the skeleton's joint order (the skeleton puts
 * parents first, which may move joints). */
static kiln_result remap_joints(const kiln_scene_primitive *p, const kiln_cooked_skeleton *sk,
                                const kiln_allocator *a, kiln_scene_primitive *out,
                                uint16_t *copies[KILN_SCENE_MAX_JOINT_SETS], kiln_error *err)
{
    *out = *p;
    for (uint32_t s = 0; s < p->joint_set_count; s++) {
        size_t n = (size_t)p->vertex_count * 4;
        copies[s] = kiln_alloc(a, n * sizeof(uint16_t));
        if (!copies[s]) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0; i < n; i++) {
            uint16_t j = p->joints[s][i];
            copies[s][i] = j < sk->joint_count ? (uint16_t)sk->skin_to_joint[j] : j;
        }
        out->joints[s] = copies[s];
    }
    return KILN_OK;
}

/* Streams nothing reads are not stored, as gltfpack does: tangents (and their morph deltas)
 * without a normal map, UV sets past the last one a texture of the material reads (all of them
 * when it reads none). Normals the source did not have are not stored either, unless a normal
 * map needs them for its tangent frame: glTF says such a mesh is shaded flat, and the mesh says
 * so with KILN_MESH_FLAT_NORMALS (its vertices are then shared between faces again). Decided
 * from the source's material, so `textures: false` cooks the very same geometry. targets
 * receives copies of the morph targets when deltas go (capacity prim->target_count). Returns
 * whether the primitive is to be shaded flat. */
static bool drop_unused_streams(const kiln_scene *sc, kiln_scene_primitive *p,
                                kiln_scene_morph_target *targets)
{
    const kiln_scene_material *mat = p->material >= 0 && (uint32_t)p->material < sc->material_count
                                         ? &sc->materials[p->material]
                                         : NULL;
    uint32_t uv_sets = 0;
    bool normal_map = false;
    for (int slot = 0; mat && slot < KILN_SCENE_SLOT_COUNT; slot++) {
        const kiln_scene_texture_ref *t = &mat->textures[slot];
        if (t->texture < 0) continue;
        if (t->texcoord + 1 > uv_sets) uv_sets = t->texcoord + 1;
        if (slot_role(slot) == ROLE_NORMAL) normal_map = true; /* normal, clearcoat normal */
    }
    if (uv_sets < p->texcoord_count) p->texcoord_count = uv_sets;
    for (uint32_t k = p->texcoord_count; k < KILN_SCENE_MAX_UV_SETS; k++) p->texcoords[k] = NULL;
    bool drop_tangents = !normal_map && p->tangents;
    bool flat = !normal_map && p->normals && (p->flags & KILN_SCENE_PRIM_NORMALS_GENERATED);
    if (drop_tangents) p->tangents = NULL;
    if (flat) p->normals = NULL;
    if ((drop_tangents || flat) && p->target_count) {
        for (uint32_t t = 0; t < p->target_count; t++) {
            targets[t] = p->targets[t];
            if (drop_tangents) targets[t].tangents = NULL;
            if (flat) targets[t].normals = NULL;
        }
        p->targets = targets;
    }
    return flat;
}

/* "mesh<i>/prim<p>" for a mesh's first copy, "mesh<i>/prim<p>/skin<s>" for the others (sep "/");
 * with sep "." the artifact's file name without ".kmesh". */
static void mesh_label(const mesh_job *j, char *out, size_t size, const char *sep)
{
    if (j->copy_skin < 0) snprintf(out, size, "mesh%u%sprim%u", j->mesh, sep, j->prim);
    else snprintf(out, size, "mesh%u%sprim%u%sskin%d", j->mesh, sep, j->prim, sep, j->copy_skin);
}

static kiln_result mesh_job_run(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker;
    mesh_batch *b = user;
    mesh_job *j = &b->jobs[index];
    model_cook *m = b->m;
    const kiln_scene *sc = m->scene;
    const kiln_scene_mesh *mesh = &sc->meshes[j->mesh];
    const kiln_scene_primitive *prim = &mesh->primitives[j->prim];
    kiln_mesh_build_opts o;
    kiln_mesh_build_opts_default(&o);
    const kiln_model_settings *s = m->s;
    o.lod_count = s->lod_count;
    for (uint32_t i = 0; i < s->lod_count && i < KILN_MESH_MAX_LOD_FRACTIONS; i++)
        o.lods[i] = (float)s->lods[i];
    o.lod_error = (float)s->lod_error;
    o.lod_min_triangles = s->lod_min_triangles;
    o.quantize = s->quantize;
    o.optimize = s->optimize;
    o.overdraw_threshold = (float)s->overdraw_threshold;
    o.meshlet_max_vertices = s->meshlet_max_vertices;
    o.meshlet_max_triangles = s->meshlet_max_triangles;
    o.compress = s->compress_meshopt ? KILN_MESH_COMPRESS_MESHOPT : KILN_MESH_COMPRESS_NONE;
    o.no_meshlets = !s->meshlets;
    o.analyze = false; /* statistics nobody reads here */
    if (prim->material >= 0) {
        char label[48];
        snprintf(label, sizeof label, "material%d", prim->material);
        o.material = id_of(m, label);
    }
    o.morph_weights = mesh->weights;
    o.morph_weight_count = mesh->weight_count;

    kiln_scene_primitive remapped = *prim;
    uint16_t *copies[KILN_SCENE_MAX_JOINT_SETS] = {NULL};
    int32_t skin = j->skin;
    kiln_result r = KILN_OK;
    if (skin >= 0) {
        const kiln_cooked_skeleton *sk = &m->skeletons[skin];
        o.skin_joint_count = sk->joint_count;
        r = remap_joints(prim, sk, m->alloc, &remapped, copies, err);
    }
    size_t targets_size = (size_t)prim->target_count * sizeof(kiln_scene_morph_target);
    kiln_scene_morph_target *targets = targets_size ? kiln_alloc(m->alloc, targets_size) : NULL;
    if (r == KILN_OK && targets_size && !targets)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (r == KILN_OK) o.flat_normals = drop_unused_streams(sc, &remapped, targets);
    prim = &remapped;
    if (r == KILN_OK) r = kiln_mesh_build(prim, &o, m->alloc, &j->cooked, err);
    kiln_free(m->alloc, targets, targets_size);
    if (r == KILN_OK) r = kiln_mesh_write(&j->cooked, m->alloc, &j->bytes, &j->size, err);
    for (uint32_t s2 = 0; s2 < KILN_SCENE_MAX_JOINT_SETS; s2++)
        if (copies[s2])
            kiln_free(m->alloc, copies[s2], (size_t)remapped.vertex_count * 4 * sizeof(uint16_t));
    if (r != KILN_OK) {
        char label[64];
        mesh_label(j, label, sizeof label, "/");
        kiln_error_prefix(err, "%s: ", label);
    }
    return r;
}

/* The cluster DAG of a cooked primitive (model.virtual_geometry): "vgeo<i>/prim<p>", over the
 * mesh artifact's vertices. Skinned meshes get a warning instead: a cut chosen on the bind pose
 * would not follow the skin. Built after all primitives, one at a time, so that each DAG's
 * groups use the whole job pool. */
static kiln_result cook_vgeo(model_cook *m, const mesh_job *j, const char *mesh_label_text,
                             json_t *row, kiln_error *err)
{
    if (j->copy_skin >= 0) return KILN_OK; /* a skinned copy: its first copy warned */
    if (j->skin >= 0) {
        warn(m,
             "%s: skinned: no virtual geometry (a cut made on the bind pose would not follow "
             "the skin)",
             mesh_label_text);
        return KILN_OK;
    }
    const kiln_cooked_mesh *cm = &j->cooked;
    if (cm->level_count == 0 || cm->levels[0].index_count == 0) return KILN_OK;
    kiln_vgeo_build_opts o = {m->s->meshlet_max_vertices, m->s->meshlet_max_triangles,
                              m->env->jobs};
    kiln_cooked_vgeo v;
    kiln_result r =
        kiln_vgeo_build(cm->positions, cm->vertex_count, cm->indices + cm->levels[0].index_offset,
                        cm->levels[0].index_count, &o, m->alloc, &v, err);
    uint8_t *bytes = NULL;
    size_t size = 0;
    v.mesh = id_of(m, mesh_label_text);
    if (r == KILN_OK) r = kiln_vgeo_write(&v, m->alloc, &bytes, &size, err);
    if (r == KILN_OK) {
        char label[64], file[72];
        snprintf(label, sizeof label, "vgeo%u/prim%u", j->mesh, j->prim);
        snprintf(file, sizeof file, "vgeo%u.prim%u.kvgeo", j->mesh, j->prim);
        json_t *d = json_object();
        json_object_set_new(d, "label", json_string(label));
        json_object_set_new(d, "clusters", json_integer(v.cluster_count));
        json_object_set_new(d, "groups", json_integer(v.group_count));
        json_object_set_new(d, "levels", json_integer(v.level_count));
        json_object_set_new(d, "stalled", json_boolean(v.flags & KILN_VGEO_STALLED));
        json_object_set_new(d, "size", json_integer((json_int_t)size));
        json_object_set_new(row, "virtual_geometry", d);
        r = add_output(m, label, file, bytes, size, err);
        bytes = NULL;
    }
    if (bytes) kiln_free(m->alloc, bytes, size);
    kiln_cooked_vgeo_free(&v);
    if (r != KILN_OK) kiln_error_prefix(err, "%s: virtual geometry: ", mesh_label_text);
    return r;
}

/* One job per primitive of one copy of mesh i. */
static void add_mesh_jobs(model_cook *m, uint32_t i, int32_t skin, int32_t copy_skin,
                          mesh_job *jobs, size_t *k)
{
    for (uint32_t p = 0; p < m->scene->meshes[i].primitive_count; p++, (*k)++) {
        jobs[*k].m = m;
        jobs[*k].mesh = i;
        jobs[*k].prim = p;
        jobs[*k].skin = skin;
        jobs[*k].copy_skin = copy_skin;
    }
}

static kiln_result cook_meshes(model_cook *m, kiln_error *err)
{
    const kiln_scene *sc = m->scene;
    const kiln_mesh_copies *cp = &m->copies;
    size_t count = 0;
    for (uint32_t i = 0; i < sc->mesh_count; i++) count += sc->meshes[i].primitive_count;
    for (uint32_t c = 0; c < cp->copy_count; c++)
        count += sc->meshes[cp->copy_mesh[c]].primitive_count;
    json_t *list = json_array();
    json_object_set_new(m->summary, "meshes", list);
    if (!count) { /* a model of nodes only: the totals are still there, as 0 */
        json_object_set_new(m->summary, "triangles", json_integer(0));
        json_object_set_new(m->summary, "vertices", json_integer(0));
        return KILN_OK;
    }
    mesh_job *jobs = kiln_calloc(m->alloc, count, sizeof *jobs);
    if (!jobs) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    /* Each mesh's first copy, then its further copies (grouped by mesh in the plan). */
    size_t k = 0;
    for (uint32_t i = 0, c = 0; i < sc->mesh_count; i++) {
        add_mesh_jobs(m, i, cp->mesh_skin[i], -1, jobs, &k);
        for (; c < cp->copy_count && cp->copy_mesh[c] == i; c++)
            add_mesh_jobs(m, i, cp->copy_skin[c], cp->copy_skin[c], jobs, &k);
    }
    mesh_batch b = {m, jobs};
    /* Primitives cook in parallel; each result depends on its primitive only, and the outputs
     * are listed in primitive order below, so the thread count changes nothing. */
    kiln_result r = kiln_jobs_for(m->env->jobs, count, mesh_job_run, &b, err);
    uint64_t triangles = 0, vertices = 0;
    for (size_t i = 0; i < count; i++) {
        mesh_job *j = &jobs[i];
        if (r == KILN_OK) {
            char label[64], file[72];
            mesh_label(j, label, sizeof label, "/");
            mesh_label(j, file, sizeof file - 6, ".");
            strcat(file, ".kmesh");
            const kiln_cooked_mesh *cm = &j->cooked;
            json_t *row = json_object();
            json_object_set_new(row, "label", json_string(label));
            json_object_set_new(row, "vertices", json_integer(cm->vertex_count));
            json_t *tris = json_array(), *errs = json_array();
            for (uint32_t l = 0; l < cm->level_count; l++) {
                json_array_append_new(tris, json_integer(cm->levels[l].index_count / 3));
                json_array_append_new(errs, json_real(cm->levels[l].error));
            }
            json_object_set_new(row, "triangles", tris);
            json_object_set_new(row, "lod_errors", errs);
            json_object_set_new(row, "meshlets", json_integer(cm->meshlet_count));
            json_object_set_new(row, "vertex_bytes",
                                json_integer((json_int_t)cm->stats.vertex_bytes));
            json_object_set_new(row, "size", json_integer((json_int_t)j->size));
            json_array_append_new(list, row);
            triangles += cm->level_count ? cm->levels[0].index_count / 3 : 0;
            vertices += cm->vertex_count;
            for (uint32_t bit = 0; bit < KILN_MESH_WARN_COUNT; bit++)
                if (cm->warnings & (1u << bit))
                    warn(m, "%s: %s", label, kiln_mesh_warning_text(bit));
            r = add_output(m, label, file, j->bytes, j->size, err);
            j->bytes = NULL;
            if (r == KILN_OK && m->s->virtual_geometry) r = cook_vgeo(m, j, label, row, err);
        }
        if (j->bytes) kiln_free(m->alloc, j->bytes, j->size);
        kiln_cooked_mesh_free(&j->cooked);
    }
    kiln_free(m->alloc, jobs, count * sizeof *jobs);
    json_object_set_new(m->summary, "triangles", json_integer((json_int_t)triangles));
    json_object_set_new(m->summary, "vertices", json_integer((json_int_t)vertices));
    return r;
}

/* ---- clips ----------------------------------------------------------------------------------- */

/* The skin an animation moves most joints of (lowest index on a tie), or -1. */
static int32_t clip_skin(const kiln_scene *sc, uint32_t anim)
{
    int32_t best = -1;
    uint32_t best_count = 0;
    for (uint32_t s = 0; s < sc->skin_count; s++) {
        uint32_t count = 0;
        const kiln_scene_animation *a = &sc->animations[anim];
        for (uint32_t c = 0; c < a->channel_count; c++)
            for (uint32_t j = 0; j < sc->skins[s].joint_count; j++)
                if (sc->skins[s].joints[j] == a->channels[c].node) {
                    count++;
                    break;
                }
        if (count > best_count) best = (int32_t)s, best_count = count;
    }
    return best;
}

static json_t *error_json(const kiln_clip_error *e)
{
    json_t *j = json_object();
    json_object_set_new(j, "translation", json_real(e->translation));
    json_object_set_new(j, "rotation", json_real(e->rotation));
    json_object_set_new(j, "scale", json_real(e->scale));
    json_object_set_new(j, "weights", json_real(e->weights));
    return j;
}

static kiln_result cook_clips(model_cook *m, kiln_error *err)
{
    const kiln_scene *sc = m->scene;
    json_t *list = json_array();
    json_object_set_new(m->summary, "clips", list);
    kiln_clip_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.reduce = m->s->animation_reduce;
    o.resample_fps = (float)m->s->animation_resample_fps;
    for (uint32_t i = 0; i < sc->animation_count; i++) {
        int32_t skin = clip_skin(sc, i);
        kiln_cooked_clip clip;
        kiln_result r = kiln_clip_build(sc, i, skin >= 0 ? &m->skeletons[skin] : NULL, &o, m->alloc,
                                        &clip, err);
        char label[48], file[48];
        snprintf(label, sizeof label, "clip%u", i);
        snprintf(file, sizeof file, "clip%u.kclip", i);
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (r == KILN_OK) {
            if (skin >= 0) {
                char sl[48];
                snprintf(sl, sizeof sl, "skeleton%d", skin);
                clip.skeleton_id = id_of(m, sl);
            }
            r = kiln_clip_write(&clip, m->alloc, &bytes, &size, err);
        }
        if (r == KILN_OK) {
            const kiln_clip_summary *cs = &clip.summary;
            json_t *row = json_object();
            json_object_set_new(row, "label", json_string(label));
            json_object_set_new(row, "name", json_string(clip.name ? clip.name : ""));
            json_object_set_new(row, "duration", json_real(cs->duration));
            json_object_set_new(row, "tracks", json_integer(cs->tracks));
            json_object_set_new(row, "constant_tracks", json_integer(cs->constant_tracks));
            json_object_set_new(row, "keys_before", json_integer((json_int_t)cs->keys_before));
            json_object_set_new(row, "keys_after", json_integer((json_int_t)cs->keys_after));
            json_object_set_new(row, "error_bound", error_json(&cs->bound));
            json_object_set_new(row, "max_error", error_json(&cs->max_error));
            json_array_append_new(list, row);
            r = add_output(m, label, file, bytes, size, err);
        }
        kiln_cooked_clip_free(&clip);
        if (r != KILN_OK) {
            kiln_error_prefix(err, "%s: ", label);
            return r;
        }
    }
    return KILN_OK;
}

/* ---- scene ----------------------------------------------------------------------------------- */

static int32_t node_mesh_copy(void *user, uint32_t node)
{
    const kiln_mesh_copies *c = user;
    return node < c->node_count ? c->node_copy[node] : -1;
}

static kiln_result cook_scene(model_cook *m, kiln_error *err)
{
    kiln_cooked_scene_ids ids;
    memset(&ids, 0, sizeof ids);
    ids.guid = m->guid; /* every primitive, copy, skin and animation has its artifact */
    ids.mesh_copy = node_mesh_copy;
    ids.user = &m->copies;
    kiln_cooked_scene cs;
    kiln_result r = kiln_cooked_scene_build(m->scene, &ids, m->alloc, &cs, err);
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (r == KILN_OK) r = kiln_cooked_scene_write(&cs, m->alloc, &bytes, &size, err);
    if (r == KILN_OK) {
        json_t *row = json_object();
        json_object_set_new(row, "nodes", json_integer(cs.node_count));
        json_object_set_new(row, "primitives", json_integer(cs.primitive_count));
        json_object_set_new(m->summary, "scene", row);
        r = add_output(m, "scene", "scene.kscene", bytes, size, err);
    }
    kiln_cooked_scene_free(&cs);
    return r;
}

/* ---- the cook -------------------------------------------------------------------------------- */

kiln_result kiln_cook_model_source(const kiln_cook_env *env, const kiln_model_settings *s,
                                   const char *guid, const char *base_dir, const uint8_t *source,
                                   size_t size, kiln_cooked *out, kiln_error *err)
{
    return kiln_cook_model_source_fbx(env, s, NULL, guid, base_dir, source, size, out, err);
}

kiln_result kiln_cook_model_source_fbx(const kiln_cook_env *env, const kiln_model_settings *s,
                                       const kiln_fbx_settings *fbx_settings, const char *guid,
                                       const char *base_dir, const uint8_t *source, size_t size,
                                       kiln_cooked *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    const kiln_allocator *alloc = env->allocator;
    kiln_scene_opts so;
    memset(&so, 0, sizeof so);
    so.struct_size = sizeof so;
    /* The texture cook decodes images itself, from their bytes. */
    so.flags = KILN_SCENE_LOAD_NO_PIXELS;
    if (!s->textures) so.flags |= KILN_SCENE_LOAD_NO_IMAGES;
    if (s->tangents_from_file_only) so.flags |= KILN_SCENE_LOAD_NO_TANGENTS;
    if (alloc) so.allocator = *alloc;
    kiln_scene *scene = NULL;
    kiln_assimp_opts fbx;
    kiln_assimp_opts_from_settings(fbx_settings, &fbx);
    kiln_result r =
        kiln_scene_load_model(source, size, env->name, base_dir, &so, &fbx, &scene, err);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "%s: ", env->name);
        return r;
    }
    model_cook m;
    memset(&m, 0, sizeof m);
    m.env = env;
    m.s = s;
    m.guid = guid;
    m.alloc = alloc;
    m.scene = scene;
    m.out = out;
    m.summary = json_object();
    m.warnings = json_array();
    for (uint32_t i = 0; i < scene->warning_count; i++)
        json_array_append_new(m.warnings, json_string(scene->warnings[i]));
    size_t images = scene->image_count ? scene->image_count : 1;
    size_t skins = scene->skin_count ? scene->skin_count : 1;
    m.image_roles = kiln_calloc(alloc, images, sizeof *m.image_roles);
    m.image_ids = kiln_calloc(alloc, images, sizeof *m.image_ids);
    m.skeletons = kiln_calloc(alloc, skins, sizeof *m.skeletons);
    if (!m.image_roles || !m.image_ids || !m.skeletons) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "%s: out of memory", env->name);
    } else {
        find_image_roles(&m);
        if ((r = cook_images(&m, err)) == KILN_OK && (r = cook_materials(&m, err)) == KILN_OK &&
            (r = cook_skeletons(&m, err)) == KILN_OK &&
            (r = plan_mesh_copies(&m, err)) == KILN_OK && (r = cook_meshes(&m, err)) == KILN_OK &&
            (r = cook_clips(&m, err)) == KILN_OK)
            r = cook_scene(&m, err);
        if (r != KILN_OK) kiln_error_prefix(err, "%s: ", env->name);
    }
    for (uint32_t i = 0; m.skeletons && i < scene->skin_count; i++)
        kiln_cooked_skeleton_free(&m.skeletons[i]);
    kiln_free(alloc, m.image_roles, images * sizeof *m.image_roles);
    kiln_free(alloc, m.image_ids, images * sizeof *m.image_ids);
    kiln_mesh_copies_free(&m.copies);
    kiln_free(alloc, m.skeletons, skins * sizeof *m.skeletons);
    kiln_scene_free(scene);
    if (r != KILN_OK) {
        json_decref(m.summary);
        json_decref(m.warnings);
        kiln_cooked_release(alloc, out);
        return r;
    }
    out->summary = m.summary;
    out->warnings = m.warnings;
    return KILN_OK;
}
