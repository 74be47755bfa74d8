/* model_check.c — see model_check.h. The checks read only what a consumer of the cook has: the
 * files written, the convert's document and the public readers; the source scene they are held
 * against is loaded again here through kiln_scene_load. */
#define _GNU_SOURCE
#include "model_check.h"

#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

bool mc_sanitized(void)
{
    const char *s = getenv("KILN_TEST_SANITIZED");
    return s && !strcmp(s, "1");
}

char *mc_corpus(const char *rel)
{
    char *gltf = kt_corpus_path("gltf");
    if (!gltf) return NULL;
    char *p = kt_format("%s/%s", gltf, rel);
    free(gltf);
    return p;
}

/* ---- the corpus ---------------------------------------------------------------------------- */

/* Files the corpus holds to be refused: indices out of range, a node cycle, a scene index
 * into nothing. */
static bool broken(const char *path)
{
    return strstr(path, "/assimp-IndexOutOfRange/") || strstr(path, "/assimp-RecursiveNodes/") ||
           strstr(path, "/NoScene.gltf");
}

char **mc_corpus_models(size_t *count)
{
    char *dir = kt_corpus_path("gltf");
    *count = 0;
    char **paths = dir ? kt_gltf_files(dir, count) : NULL;
    free(dir);
    size_t kept = 0;
    for (size_t i = 0; i < *count; i++) {
        if (broken(paths[i])) free(paths[i]);
        else paths[kept++] = paths[i];
    }
    *count = kept;
    return paths;
}

/* ---- cooking and loading --------------------------------------------------------------------- */

json_t *mc_convert(const char *in, const char *out_dir, unsigned jobs, const char *const *sets,
                   size_t set_count, kiln_result *code, kiln_error *err)
{
    kiln_convert_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.assignments = sets;
    o.assignment_count = set_count;
    o.jobs = jobs;
    char *doc = NULL;
    *code = kiln_convert_model(in, out_dir, &o, &doc, err);
    if (*code != KILN_OK) return NULL;
    json_error_t je;
    json_t *d = json_loads(doc, 0, &je);
    kiln_string_free(doc);
    assert_non_null(d);
    return d;
}

static const char *str_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s) fail_msg("no string \"%s\" in the document", key);
    return s;
}

void mc_load(mc_model *m, const char *out_dir, json_t *doc)
{
    memset(m, 0, sizeof *m);
    m->doc = doc;
    m->summary = json_object_get(doc, "summary");
    assert_non_null(m->summary);
    const char *guid = str_of(doc, "guid");
    assert_int_equal(strlen(guid), 32);
    memcpy(m->guid, guid, 33);
    json_t *list = json_object_get(doc, "artifacts");
    m->count = json_array_size(list);
    m->items = calloc(m->count ? m->count : 1, sizeof *m->items);
    assert_non_null(m->items);
    for (size_t i = 0; i < m->count; i++) {
        json_t *e = json_array_get(list, i);
        mc_artifact *a = &m->items[i];
        snprintf(a->label, sizeof a->label, "%s", str_of(e, "label"));
        snprintf(a->file, sizeof a->file, "%s", str_of(e, "file"));
        snprintf(a->kind, sizeof a->kind, "%s", str_of(e, "kind"));
        a->id = kiln_asset_id(m->guid, a->label);
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)a->id);
        assert_string_equal(str_of(e, "asset_id"), hex);
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(m->items[j].label, a->label);
            assert_string_not_equal(m->items[j].file, a->file);
        }
        char *path = kt_format("%s/%s", out_dir, a->file);
        a->bytes = kt_read_file(path, &a->size);
        if (!a->bytes) fail_msg("%s: listed but not written", path);
        assert_int_equal(a->size, (size_t)json_integer_value(json_object_get(e, "size")));
        free(path);
    }
    /* Nothing else in the folder but the manifest that makes it mountable (kiln_convert_model). */
    DIR *d = opendir(out_dir);
    assert_non_null(d);
    size_t files = 0;
    bool manifest = false;
    struct dirent *de;
    while ((de = readdir(d)))
        if (!strcmp(de->d_name, "manifest.json")) manifest = true;
        else if (de->d_name[0] != '.') files++;
    closedir(d);
    assert_true(manifest);
    assert_int_equal(files, m->count);
}

void mc_free(mc_model *m)
{
    for (size_t i = 0; i < m->count; i++) free(m->items[i].bytes);
    free(m->items);
    json_decref(m->doc);
    memset(m, 0, sizeof *m);
}

const mc_artifact *mc_find(const mc_model *m, const char *label)
{
    for (size_t i = 0; i < m->count; i++)
        if (!strcmp(m->items[i].label, label)) return &m->items[i];
    return NULL;
}

const mc_artifact *mc_find_id(const mc_model *m, uint64_t id)
{
    for (size_t i = 0; i < m->count; i++)
        if (m->items[i].id == id) return &m->items[i];
    return NULL;
}

bool mc_has_id(const mc_model *m, uint64_t id) { return mc_find_id(m, id) != NULL; }

static uint64_t id_of(const mc_model *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static uint64_t id_of(const mc_model *m, const char *fmt, ...)
{
    char label[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(label, sizeof label, fmt, ap);
    va_end(ap);
    return kiln_asset_id(m->guid, label);
}

/* The summary row of an artifact in list `key` (meshes, clips, skeletons, images). */
static json_t *row_of(const mc_model *m, const char *key, const char *label)
{
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(m->summary, key), i, row)
        if (!strcmp(str_of(row, "label"), label)) return row;
    fail_msg("summary %s has no row for %s", key, label);
    return NULL;
}

static json_int_t int_of(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v)) fail_msg("no integer \"%s\" in a summary row", key);
    return json_integer_value(v);
}

/* ---- per kind ------------------------------------------------------------------------------- */

typedef struct ctx {
    const mc_model *m;
    const kiln_scene *sc;
    const char *source;
    bool textures;
    mc_stats *st;
} ctx;

static const char *const role_names[3] = {"color", "normal", "linear"};

static int slot_role(int slot)
{
    return slot == KILN_SCENE_SLOT_BASE_COLOR || slot == KILN_SCENE_SLOT_EMISSIVE ? 0
           : slot == KILN_SCENE_SLOT_NORMAL                                       ? 1
                                                                                  : 2;
}

static void check_image(ctx *c, const mc_artifact *a)
{
    kiln_ktx2_info info;
    kiln_error err;
    if (kiln_ktx2_read(a->bytes, a->size, &info, &err) != KILN_OK)
        fail_msg("%s %s: %s", c->source, a->label, err.message);
    json_t *row = row_of(c->m, "images", a->label);
    assert_int_equal(int_of(row, "size"), (json_int_t)a->size);
    assert_int_equal(int_of(row, "width"), info.width);
    assert_int_equal(int_of(row, "height"), info.height);
    assert_int_equal(int_of(row, "levels"), info.level_count);
    c->st->images++;
}

/* An image artifact of the role the slot gives, with the texture properties of that role (the
 * model's texture format is auto in these tests). */
static void check_slot_image(ctx *c, const mc_artifact *img, uint32_t image, int slot)
{
    int role = slot_role(slot);
    char first[32], other[48];
    snprintf(first, sizeof first, "image%u", image);
    snprintf(other, sizeof other, "image%u/%s", image, role_names[role]);
    if (strcmp(img->label, first) && strcmp(img->label, other))
        fail_msg("%s: slot %d names %s, not image %u", c->source, slot, img->label, image);
    json_t *row = row_of(c->m, "images", img->label);
    assert_string_equal(str_of(row, "role"), role_names[role]);
    kiln_ktx2_info info;
    assert_int_equal(kiln_ktx2_read(img->bytes, img->size, &info, NULL), KILN_OK);
    if (role == 0) {
        assert_true(info.srgb);
        assert_true(info.vk_format == KILN_VK_FORMAT_BC7_SRGB_BLOCK ||
                    info.vk_format == KILN_VK_FORMAT_R16G16B16A16_SFLOAT);
    } else if (role == 1) {
        assert_false(info.srgb);
        assert_int_equal(info.vk_format, KILN_VK_FORMAT_BC5_UNORM_BLOCK);
    } else {
        assert_false(info.srgb);
        assert_true(info.vk_format == KILN_VK_FORMAT_BC7_UNORM_BLOCK ||
                    info.vk_format == KILN_VK_FORMAT_BC4_UNORM_BLOCK ||
                    info.vk_format == KILN_VK_FORMAT_R16G16B16A16_SFLOAT);
    }
}

static void check_material(ctx *c, const mc_artifact *a, uint32_t index)
{
    kiln_material_view v;
    kiln_error err;
    if (kiln_material_read(a->bytes, a->size, 0, &v, &err) != KILN_OK)
        fail_msg("%s %s: %s", c->source, a->label, err.message);
    assert_true(index < c->sc->material_count);
    const kiln_scene_material *src = &c->sc->materials[index];
    assert_string_equal(v.material.name, src->name ? src->name : "");
    assert_int_equal(v.material.alpha_mode, (uint32_t)src->alpha_mode);
    assert_int_equal(v.material.double_sided, src->double_sided);
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        uint64_t id = v.material.textures[s].image;
        int32_t t = src->textures[s].texture;
        int32_t image =
            t >= 0 && (uint32_t)t < c->sc->texture_count ? c->sc->textures[t].image : -1;
        if (!c->textures || image < 0) {
            assert_int_equal(id, 0); /* nothing cooked for it: the slot is empty */
            continue;
        }
        const mc_artifact *img = mc_find_id(c->m, id);
        if (!img)
            fail_msg("%s %s: slot %d names image id %016llx, not written", c->source, a->label, s,
                     (unsigned long long)id);
        assert_string_equal(img->kind, "image");
        check_slot_image(c, img, (uint32_t)image, s);
        assert_int_equal(v.material.textures[s].texcoord, src->textures[s].texcoord);
    }
    c->st->materials++;
}

static void check_skeleton(ctx *c, const mc_artifact *a, uint32_t index)
{
    kiln_skeleton_view v;
    kiln_error err;
    if (kiln_skeleton_read(a->bytes, a->size, 0, &v, &err) != KILN_OK)
        fail_msg("%s %s: %s", c->source, a->label, err.message);
    assert_true(index < c->sc->skin_count);
    const kiln_scene_skin *skin = &c->sc->skins[index];
    assert_int_equal(v.skin, index);
    assert_int_equal(v.joint_count, skin->joint_count);
    bool moved = false;
    for (uint32_t j = 0; j < v.joint_count; j++) {
        kiln_skeleton_joint jt = kiln_skeleton_joint_at(&v, j);
        assert_true(jt.parent < (int32_t)j);
        assert_int_equal(jt.node, skin->joints[jt.skin_joint]);
        if (jt.skin_joint != j) moved = true;
    }
    assert_int_equal(int_of(row_of(c->m, "skeletons", a->label), "joints"), v.joint_count);
    c->st->skeletons++;
    if (moved) c->st->skeletons_reordered++;
}

/* The skin of a mesh: that of the first node (in node order) drawing it with one. */
static int32_t mesh_skin(const kiln_scene *sc, uint32_t mesh)
{
    for (uint32_t n = 0; n < sc->node_count; n++)
        if (sc->nodes[n].mesh == (int32_t)mesh && sc->nodes[n].skin >= 0) return sc->nodes[n].skin;
    return -1;
}

/* Influences of one vertex as skin joint -> weight (joints of weight below ~0.5/255 ignored).
 * n: how many stored. */
typedef struct influence {
    uint32_t joint[8];
    float weight[8];
    uint32_t n;
} influence;

static void add_influence(influence *f, uint32_t joint, float w)
{
    if (!(w > 0.5f / 255.0f)) return;
    for (uint32_t i = 0; i < f->n; i++)
        if (f->joint[i] == joint) {
            f->weight[i] += w;
            return;
        }
    if (f->n < 8) {
        f->joint[f->n] = joint;
        f->weight[f->n++] = w;
    }
}

static bool same_influences(const influence *a, const influence *b)
{
    if (a->n != b->n) return false;
    for (uint32_t i = 0; i < a->n; i++) {
        bool found = false;
        for (uint32_t k = 0; k < b->n; k++)
            if (a->joint[i] == b->joint[k] && fabsf(a->weight[i] - b->weight[k]) <= 2.5f / 255.0f)
                found = true;
        if (!found) return false;
    }
    return true;
}

/* Every cooked vertex's joints, taken back to the skin's order through the skeleton of `skin`,
 * with its weights, equal those of a source vertex at the same position: the mesh deforms right
 * when drawn with that skin. Counted in the stats when count is true. */
static void check_skinning(ctx *c, const char *label, const kiln_mesh_view *v,
                           const kiln_scene_primitive *p, int32_t skin, bool count)
{
    char sl[32];
    snprintf(sl, sizeof sl, "skeleton%d", skin);
    const mc_artifact *ska = mc_find(c->m, sl);
    assert_non_null(ska);
    kiln_skeleton_view sk;
    assert_int_equal(kiln_skeleton_read(ska->bytes, ska->size, 0, &sk, NULL), KILN_OK);
    /* The copy's own skeleton: its joint count; another skin drawing it may have more joints
     * (or fewer, past those any vertex weights). */
    if (count) assert_int_equal(v->joint_count, sk.joint_count);
    if (count) c->st->skinned_prims++;
    if (p->joint_set_count != 1) return; /* four of eight kept: no one-to-one comparison */
    kiln_mesh_decoded d;
    kiln_error err;
    assert_int_equal(kiln_mesh_decode(v, 0, NULL, &d, &err), KILN_OK);
    assert_non_null(d.joints);
    assert_non_null(d.weights);
    float tol = v->extent * 1e-4f + 1e-6f;
    for (uint32_t i = 0; i < d.vertex_count; i++) {
        influence got = {0};
        for (int k = 0; k < 4; k++) {
            uint16_t j = d.joints[i * 4 + k];
            assert_true(j < sk.joint_count || (!count && d.weights[i * 4 + k] == 0.0f));
            add_influence(&got, kiln_skeleton_joint_at(&sk, j).skin_joint, d.weights[i * 4 + k]);
        }
        const float *pos = d.positions + (size_t)i * 3;
        bool near = false, match = false;
        for (uint32_t s = 0; s < p->vertex_count && !match; s++) {
            const float *q = p->positions + (size_t)s * 3;
            if (fabsf(q[0] - pos[0]) > tol || fabsf(q[1] - pos[1]) > tol ||
                fabsf(q[2] - pos[2]) > tol)
                continue;
            near = true;
            influence want = {0};
            for (int k = 0; k < 4; k++)
                add_influence(&want, p->joints[0][s * 4 + k], p->weights[0][s * 4 + k]);
            match = same_influences(&got, &want);
        }
        if (!near)
            fail_msg("%s %s: vertex %u has no source vertex within %g", c->source, label, i, tol);
        if (!match)
            fail_msg("%s %s: vertex %u: joints/weights differ from the source's (skin %d)",
                     c->source, label, i, skin);
        if (count) c->st->skinned_vertices_checked++;
    }
    kiln_mesh_decoded_free(&d);
}

/* copy_skin: -1 for a mesh's first copy ("mesh<i>/prim<p>"), else the skin of the copy. */
static void check_mesh(ctx *c, const mc_artifact *a, uint32_t mesh, uint32_t prim,
                       int32_t copy_skin)
{
    kiln_mesh_view v;
    kiln_error err;
    if (kiln_mesh_read(a->bytes, a->size, 0, &v, &err) != KILN_OK)
        fail_msg("%s %s: %s", c->source, a->label, err.message);
    assert_true(mesh < c->sc->mesh_count);
    assert_true(prim < c->sc->meshes[mesh].primitive_count);
    const kiln_scene_primitive *p = &c->sc->meshes[mesh].primitives[prim];
    if (p->material >= 0) {
        assert_int_equal(v.material, id_of(c->m, "material%d", p->material));
        assert_true(mc_has_id(c->m, v.material));
    } else {
        assert_int_equal(v.material, 0);
    }
    assert_int_equal(v.target_count, p->target_count);
    /* Morph targets keep their default weights (the mesh's, 0 without). */
    const kiln_scene_mesh *sm = &c->sc->meshes[mesh];
    for (uint32_t t = 0; t < v.target_count; t++)
        assert_true(kiln_mesh_target_weight(&v, t) ==
                    (t < sm->weight_count ? sm->weights[t] : 0.0f));
    /* Meshlets within the default limits (64 vertices, 124 triangles). */
    assert_int_equal(v.meshlet_max_vertices, 64);
    assert_int_equal(v.meshlet_max_triangles, 124);
    for (uint32_t i = 0; i < v.meshlet_count; i++) {
        kiln_meshlet ml = kiln_mesh_meshlet(&v, i);
        assert_true(ml.vertex_count >= 1 && ml.vertex_count <= 64);
        assert_true(ml.triangle_count >= 1 && ml.triangle_count <= 124);
    }
    /* Quantized skin weights: four bytes summing to exactly 255 (uncompressed by default). */
    const kiln_mesh_stream *ws = &v.streams[KILN_MESH_WEIGHTS];
    if (ws->format == KILN_MESH_FORMAT_UNORM8X4 && !(v.flags & KILN_MESH_COMPRESSED))
        for (uint32_t i = 0; i < v.vertex_count; i++) {
            const uint8_t *q = ws->data + (size_t)i * 4;
            assert_int_equal(q[0] + q[1] + q[2] + q[3], 255);
        }
    json_t *row = row_of(c->m, "meshes", a->label);
    assert_int_equal(int_of(row, "vertices"), v.vertex_count);
    assert_int_equal(int_of(row, "size"), (json_int_t)a->size);
    assert_int_equal(int_of(row, "meshlets"), v.meshlet_count);
    assert_true(int_of(row, "vertex_bytes") > 0);
    json_t *tris = json_object_get(row, "triangles"), *errs = json_object_get(row, "lod_errors");
    assert_int_equal(json_array_size(tris), v.level_count);
    assert_int_equal(json_array_size(errs), v.level_count);
    /* Default settings: at most three simplified levels, each under 95 % of the one before. */
    assert_true(v.level_count >= 1 && v.level_count <= 4);
    for (uint32_t l = 0; l < v.level_count; l++) {
        uint32_t t = v.levels[l].index_count / 3;
        assert_int_equal(json_integer_value(json_array_get(tris, l)), t);
        assert_true((float)json_real_value(json_array_get(errs, l)) == v.levels[l].error);
        if (l > 0) {
            uint32_t prev = v.levels[l - 1].index_count / 3;
            if (!((uint64_t)t * 100 <= (uint64_t)prev * 95))
                fail_msg("%s %s: level %u has %u triangles after %u", c->source, a->label, l, t,
                         prev);
            assert_true(v.levels[l].error >= v.levels[l - 1].error);
        } else {
            assert_true(v.levels[0].error == 0.0f);
        }
        kiln_mesh_decoded d;
        if (kiln_mesh_decode(&v, l, NULL, &d, &err) != KILN_OK)
            fail_msg("%s %s level %u: %s", c->source, a->label, l, err.message);
        assert_int_equal(d.index_count, v.levels[l].index_count);
        kiln_mesh_decoded_free(&d);
    }
    c->st->meshes++;
    c->st->levels += v.level_count;
    if (v.level_count > 1) c->st->meshes_with_lods++;
    int32_t skin = copy_skin >= 0 ? copy_skin : p->joint_set_count ? mesh_skin(c->sc, mesh) : -1;
    if (skin >= 0) check_skinning(c, a->label, &v, p, skin, true);
    if (copy_skin >= 0) {
        /* A further copy exists because its joint indices differ from the first copy's. */
        assert_true(p->joint_set_count > 0);
        char first[48];
        snprintf(first, sizeof first, "mesh%u/prim%u", mesh, prim);
        const mc_artifact *f = mc_find(c->m, first);
        assert_non_null(f);
        kiln_mesh_view fv;
        assert_int_equal(kiln_mesh_read(f->bytes, f->size, 0, &fv, NULL), KILN_OK);
        kiln_mesh_decoded dc, df;
        assert_int_equal(kiln_mesh_decode(&v, 0, NULL, &dc, &err), KILN_OK);
        assert_int_equal(kiln_mesh_decode(&fv, 0, NULL, &df, &err), KILN_OK);
        assert_int_equal(dc.vertex_count, df.vertex_count);
        if (!memcmp(dc.joints, df.joints, (size_t)dc.vertex_count * 4 * sizeof *dc.joints))
            fail_msg("%s %s: the same joint indices as %s: a copy for nothing", c->source, a->label,
                     first);
        kiln_mesh_decoded_free(&dc);
        kiln_mesh_decoded_free(&df);
        c->st->mesh_copies++;
    }
}

static void check_clip(ctx *c, const mc_artifact *a, uint32_t index)
{
    kiln_clip_view v;
    kiln_error err;
    if (kiln_clip_read(a->bytes, a->size, 0, &v, &err) != KILN_OK)
        fail_msg("%s %s: %s", c->source, a->label, err.message);
    assert_true(index < c->sc->animation_count);
    const kiln_scene_animation *an = &c->sc->animations[index];
    assert_int_equal(v.track_count, an->channel_count);
    kiln_skeleton_view sk;
    bool has_skeleton = v.skeleton != 0;
    if (has_skeleton) {
        const mc_artifact *ska = mc_find_id(c->m, v.skeleton);
        if (!ska)
            fail_msg("%s %s: names skeleton %016llx, not written", c->source, a->label,
                     (unsigned long long)v.skeleton);
        assert_int_equal(kiln_skeleton_read(ska->bytes, ska->size, 0, &sk, NULL), KILN_OK);
        assert_int_equal(v.skeleton, id_of(c->m, "skeleton%u", v.skin));
        assert_int_equal(sk.joint_count, v.skeleton_joint_count);
    }
    uint64_t keys_before = 0, keys_after = 0;
    for (uint32_t t = 0; t < v.track_count; t++) {
        kiln_clip_track tr = kiln_clip_track_at(&v, t);
        const kiln_scene_channel *ch = &an->channels[t];
        assert_int_equal(tr.node, ch->node);
        assert_int_equal(tr.path, (uint32_t)ch->path);
        assert_true(tr.key_count >= 1 && tr.key_count <= ch->key_count);
        if (!(tr.flags & KILN_CLIP_TRACK_NODE)) {
            assert_true(has_skeleton);
            assert_int_equal(kiln_skeleton_joint_at(&sk, tr.target).node, ch->node);
        } else {
            assert_int_equal(tr.target, ch->node);
        }
        keys_before += ch->key_count;
        keys_after += tr.key_count;
    }
    assert_int_equal(v.source_key_count, keys_before);
    json_t *row = row_of(c->m, "clips", a->label);
    assert_int_equal(int_of(row, "tracks"), v.track_count);
    assert_int_equal(int_of(row, "keys_before"), (json_int_t)keys_before);
    assert_int_equal(int_of(row, "keys_after"), (json_int_t)keys_after);
    assert_string_equal(str_of(row, "name"), v.name);
    static const char *const paths[4] = {"translation", "rotation", "scale", "weights"};
    json_t *bound = json_object_get(row, "error_bound"), *worst = json_object_get(row, "max_error");
    assert_non_null(bound);
    assert_non_null(worst);
    for (int k = 0; k < 4; k++) {
        json_t *b = json_object_get(bound, paths[k]), *w = json_object_get(worst, paths[k]);
        assert_true(json_is_number(b) && json_is_number(w));
        assert_true((float)json_number_value(w) == v.max_error[k]);
        /* Reduction keeps every track within its bound (docs/animation.md). */
        if (v.flags & KILN_CLIP_REDUCED && !(v.flags & KILN_CLIP_RESAMPLED))
            assert_true(json_number_value(w) <= json_number_value(b) * 1.0001);
    }
    c->st->clips++;
    c->st->tracks += v.track_count;
    c->st->keys += keys_after;
}

/* Source nodes reachable from the roots (each once). */
static uint32_t reachable(const kiln_scene *sc)
{
    uint32_t n = 0;
    uint32_t *stack = malloc(((size_t)sc->node_count + 1) * sizeof *stack);
    assert_non_null(stack);
    size_t top = 0;
    for (uint32_t r = 0; r < sc->root_count; r++) stack[top++] = sc->roots[r];
    while (top) {
        uint32_t i = stack[--top];
        n++;
        for (uint32_t k = 0; k < sc->nodes[i].child_count; k++)
            stack[top++] = sc->nodes[i].children[k];
    }
    free(stack);
    return n;
}

static void check_scene(ctx *c, const mc_artifact *a)
{
    kiln_cooked_scene_view v;
    kiln_error err;
    if (kiln_cooked_scene_read(a->bytes, a->size, 0, &v, &err) != KILN_OK)
        fail_msg("%s scene: %s", c->source, err.message);
    const kiln_scene *sc = c->sc;
    json_t *row = json_object_get(c->m->summary, "scene");
    assert_int_equal(int_of(row, "nodes"), v.node_count);
    assert_int_equal(int_of(row, "primitives"), v.primitive_count);
    uint32_t expect = reachable(sc);
    bool synthetic = sc->root_count > 1;
    assert_int_equal(v.node_count, expect + (synthetic ? 1 : 0));
    assert_int_equal(!!(v.flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT), synthetic);
    uint8_t *seen = calloc(sc->node_count + 1, 1);
    uint8_t *drawn = calloc(c->m->count + 1, 1); /* per artifact: a node draws it */
    assert_non_null(seen);
    assert_non_null(drawn);
    for (uint32_t i = 0; i < v.node_count; i++) {
        kiln_cooked_node n = kiln_cooked_scene_node(&v, i);
        if (i == 0) {
            assert_int_equal(n.parent, KILN_COOKED_NONE);
        } else {
            assert_true(n.parent < i); /* parent before child */
        }
        if (n.flags & KILN_COOKED_NODE_SYNTHETIC) {
            assert_int_equal(i, 0);
            assert_int_equal(n.source_node, KILN_COOKED_NONE);
            continue;
        }
        assert_true(n.source_node < sc->node_count);
        assert_false(seen[n.source_node]);
        seen[n.source_node] = 1;
        const kiln_scene_node *s = &sc->nodes[n.source_node];
        if (s->parent >= 0) {
            assert_true(i > 0);
            assert_int_equal(kiln_cooked_scene_node(&v, n.parent).source_node, (uint32_t)s->parent);
        } else if (i > 0) {
            assert_true(kiln_cooked_scene_node(&v, n.parent).flags & KILN_COOKED_NODE_SYNTHETIC);
        }
        if (s->mesh >= 0) {
            assert_int_equal(n.mesh, (uint32_t)s->mesh);
            assert_int_equal(n.primitive_count, sc->meshes[s->mesh].primitive_count);
            for (uint32_t p = 0; p < n.primitive_count; p++) {
                uint64_t id = kiln_cooked_scene_primitive(&v, n.first_primitive + p);
                const mc_artifact *pa = mc_find_id(c->m, id);
                if (!pa)
                    fail_msg("%s: node %u names primitive %016llx, not written", c->source,
                             n.source_node, (unsigned long long)id);
                drawn[pa - c->m->items] = 1;
                /* The first copy, or a copy that follows another skin's joint order. */
                uint32_t mi, pi;
                int32_t si = -1;
                char tail[32];
                int got = sscanf(pa->label, "mesh%u/prim%u/skin%d%31s", &mi, &pi, &si, tail);
                assert_true(got == 2 || got == 3);
                assert_true(mi == (uint32_t)s->mesh && pi == p);
                /* Whichever copy it is, drawn with this node's skin it deforms as the source. */
                const kiln_scene_primitive *sp = &sc->meshes[s->mesh].primitives[p];
                if (s->skin >= 0 && sp->joint_set_count) {
                    kiln_mesh_view mv;
                    assert_int_equal(kiln_mesh_read(pa->bytes, pa->size, 0, &mv, NULL), KILN_OK);
                    check_skinning(c, pa->label, &mv, sp, s->skin, false);
                } else {
                    assert_int_equal(got, 2); /* unskinned: the first copy */
                }
            }
        } else {
            assert_int_equal(n.mesh, KILN_COOKED_NONE);
        }
        if (s->skin >= 0) {
            assert_int_equal(n.skin, (uint32_t)s->skin);
            assert_int_equal(n.skeleton, id_of(c->m, "skeleton%d", s->skin));
            assert_true(mc_has_id(c->m, n.skeleton));
        } else {
            assert_int_equal(n.skeleton, 0);
        }
    }
    free(seen);
    /* Every further copy of a mesh is drawn by some node. */
    for (size_t i = 0; i < c->m->count; i++)
        if (!strcmp(c->m->items[i].kind, "mesh") && strstr(c->m->items[i].label, "/skin") &&
            !drawn[i])
            fail_msg("%s: %s is drawn by no node", c->source, c->m->items[i].label);
    free(drawn);
    assert_int_equal(v.clip_count, sc->animation_count);
    for (uint32_t i = 0; i < v.clip_count; i++) {
        uint64_t id = kiln_cooked_scene_clip(&v, i);
        assert_int_equal(id, id_of(c->m, "clip%u", i));
        assert_true(mc_has_id(c->m, id));
    }
    c->st->nodes += v.node_count;
}

void mc_check(const mc_model *m, const char *source, bool textures, mc_stats *stats)
{
    mc_stats local;
    memset(&local, 0, sizeof local);
    kiln_scene *sc = NULL;
    kiln_error err;
    kiln_scene_opts so;
    memset(&so, 0, sizeof so);
    so.struct_size = sizeof so;
    so.flags = KILN_SCENE_LOAD_NO_IMAGES;
    if (kiln_scene_load(source, &so, &sc, &err) != KILN_OK) fail_msg("%s: %s", source, err.message);
    ctx c = {m, sc, source, textures, stats ? stats : &local};

    /* The artifacts the source calls for, in the order the cook writes them. */
    size_t meshes = 0;
    for (uint32_t i = 0; i < sc->mesh_count; i++) meshes += sc->meshes[i].primitive_count;
    size_t images = json_array_size(json_object_get(m->summary, "images"));
    if (!textures) assert_int_equal(images, 0);
    size_t copies = 0; /* primitives of further copies of skinned meshes */
    for (size_t i = 0; i < m->count; i++)
        if (!strcmp(m->items[i].kind, "mesh") && strstr(m->items[i].label, "/skin")) copies++;
    assert_int_equal(m->count, images + sc->material_count + sc->skin_count + meshes + copies +
                                   sc->animation_count + 1);
    assert_int_equal(int_of(m->summary, "materials"), sc->material_count);
    uint64_t triangles = 0, vertices = 0;
    static const char *const order[] = {"image", "material", "skeleton", "mesh", "clip", "scene"};
    size_t stage = 0;
    for (size_t i = 0; i < m->count; i++) {
        const mc_artifact *a = &m->items[i];
        while (stage < 6 && strcmp(a->kind, order[stage])) stage++;
        if (stage == 6) fail_msg("%s: %s out of order", source, a->label);
        uint32_t x, y;
        char tail[32];
        if (!strcmp(a->kind, "image")) {
            assert_true(sscanf(a->label, "image%u", &x) == 1 && x < sc->image_count);
            check_image(&c, a);
        } else if (!strcmp(a->kind, "material")) {
            assert_true(sscanf(a->label, "material%u%31s", &x, tail) == 1);
            check_material(&c, a, x);
        } else if (!strcmp(a->kind, "skeleton")) {
            assert_true(sscanf(a->label, "skeleton%u%31s", &x, tail) == 1);
            check_skeleton(&c, a, x);
        } else if (!strcmp(a->kind, "mesh")) {
            int32_t copy_skin = -1;
            int got = sscanf(a->label, "mesh%u/prim%u/skin%d%31s", &x, &y, &copy_skin, tail);
            assert_true(got == 2 ||
                        (got == 3 && copy_skin >= 0 && (uint32_t)copy_skin < sc->skin_count));
            check_mesh(&c, a, x, y, copy_skin);
            json_t *row = row_of(m, "meshes", a->label);
            triangles +=
                (uint64_t)json_integer_value(json_array_get(json_object_get(row, "triangles"), 0));
            vertices += (uint64_t)int_of(row, "vertices");
        } else if (!strcmp(a->kind, "clip")) {
            assert_true(sscanf(a->label, "clip%u%31s", &x, tail) == 1);
            check_clip(&c, a, x);
        } else {
            assert_string_equal(a->label, "scene");
            check_scene(&c, a);
        }
    }
    assert_int_equal(int_of(m->summary, "triangles"), (json_int_t)triangles);
    assert_int_equal(int_of(m->summary, "vertices"), (json_int_t)vertices);
    kiln_scene_free(sc);
}

/* ---- files ----------------------------------------------------------------------------------- */

void mc_copy_tree(const char *from, const char *to)
{
    char *cmd =
        kt_format("mkdir -p '%s' && cp -R '%s'/. '%s' && chmod -R u+w '%s'", to, from, to, to);
    if (kt_run(cmd, NULL) != 0) fail_msg("%s failed", cmd);
    free(cmd);
}

bool mc_trees_equal(const char *a, const char *b)
{
    char *cmd = kt_format("diff -r '%s' '%s' 1>&2", a, b);
    int st = kt_run(cmd, NULL);
    free(cmd);
    return st == 0;
}

void mc_age_tree(const char *dir, int seconds)
{
    char *cmd = kt_format("find '%s' -type f -exec touch -d '-%d seconds' {} +", dir, seconds);
    if (kt_run(cmd, NULL) != 0) fail_msg("%s failed", cmd);
    free(cmd);
}

void mc_flip_byte(const char *path, size_t offset)
{
    size_t size;
    uint8_t *bytes = kt_read_file(path, &size);
    assert_non_null(bytes);
    assert_true(offset < size);
    bytes[offset] ^= 0xFF;
    kt_write_file(path, bytes, size);
    free(bytes);
}
