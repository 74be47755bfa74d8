/* assimp_scene.c — an assimp_doc (assimp_doc.h: the child's blob as assimp_blob_read.c read it,
 * or what kiln's FBX 6 reader made) into a kiln_scene: materials and their textures, one
 * triangle-list primitive per assimp mesh, one kiln mesh per node that has meshes, skins from
 * bones (the four strongest weights, normalised), morph targets from anim meshes, and clips
 * baked at import.fbx.animation_fps (assimp_anim.c). Every value the doc holds is checked here
 * (non-finite numbers, short quaternions, names that match no node), for both fillers.
 *
 * kiln's space (right-handed, +Y up, metres) is reached with one conversion C = s * R on the
 * root node: R maps the file's axes (FBX header, or the up_axis setting) onto kiln's, s is the
 * file's unit in metres times import.fbx.scale. Since every node, joint and skinned vertex hangs
 * below the root, their world transforms all carry C; mesh data keeps the file's own numbers. */
#define _GNU_SOURCE /* qsort_r */
#include "import/assimp_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/xform.h"
#include "core/alloc.h"
#include "core/file.h"
#include "core/path.h"
#include "import/image.h"

#define MAX_BAKED_KEYS 10000000u /* keys per channel: 10 million frames is past any clip */

/* A doc mesh as a primitive, with what the skin and the kiln mesh need of it. */
typedef struct mesh_in {
    kiln_scene_primitive prim;
    const char *name;
    assimp_doc_bone *bones;
    uint32_t bone_count;
    const char **target_names;
    float *target_weights;
} mesh_in;

typedef struct image_key {
    int32_t embedded; /* >= 0: an embedded texture, else the name */
    const char *name;
} image_key;

typedef struct build {
    kiln_scene *s;
    kiln_arena *a;
    kiln_arena tmp; /* what only the build needs */
    assimp_doc *doc;
    kiln_error *err;
    const char *base_dir;
    const kiln_assimp_opts *o;
    uint32_t flags, fps;
    float conv[16];    /* C, column-major */
    float conv_rot[4]; /* R as a quaternion */
    float conv_scale;
    bool conv_identity;
    const assimp_doc_embedded *embedded;
    uint32_t embedded_count;
    image_key *image_keys;
    kiln_scene_image *images;
    uint32_t image_count, image_cap;
    kiln_scene_texture *textures;
    uint32_t texture_count, texture_cap;
    int32_t samplers[3]; /* per kiln_scene_wrap, -1 until made */
    kiln_scene_sampler *sampler_list;
    mesh_in *meshes; /* one per doc mesh */
    uint32_t mesh_count;
    uint32_t *by_name; /* node indices sorted by name */
} build;

/* ---- errors
 * ---------------------------------------------------------------------------------------- */

static kiln_result nomem(build *b, const char *what)
{
    if (b->tmp.over_limit)
        return kiln_error_set(b->err, KILN_E_LIMIT, "%s: past the memory limit", what);
    return kiln_scene_alloc_error(b->s, b->err, what);
}

/* What the doc's fillers guarantee (assimp_doc.h) failed to hold: a defect of kiln's, not of the
 * file, but the build must not index past an array for it. */
static kiln_result inconsistent(build *b, const char *what)
{
    return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                          "the model's description is inconsistent (%s)", what);
}

/* T, R, S and the world matrix of a node from its local matrix and its parent's world. */
static void place_node(const kiln_scene_node *nodes, kiln_scene_node *nd)
{
    kiln_mat4_decompose_f(nd->matrix, nd->translation, nd->rotation, nd->scale);
    if (nd->parent < 0) memcpy(nd->world, nd->matrix, sizeof nd->world);
    else kiln_mat4_mul(nodes[nd->parent].world, nd->matrix, nd->world);
}

static bool all_finite(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static bool node_finite(const kiln_scene_node *nd)
{
    return all_finite(nd->matrix, 16) && all_finite(nd->world, 16) &&
           all_finite(nd->translation, 3) && all_finite(nd->rotation, 4) &&
           all_finite(nd->scale, 3);
}

/* ---- the conversion to kiln's space ---------------------------------------------------------- */

static kiln_result conversion(build *b)
{
    kiln_assimp_format format = b->doc->format;
    double unit = b->doc->unit_scale_factor;
    const int32_t *ax = b->doc->axes;
    /* FBX's UnitScaleFactor is centimetres per unit, 1 when the header has none; OBJ has no
     * unit and is taken as metres. */
    double metres =
        format == KILN_ASSIMP_FBX ? (unit > 0 && isfinite(unit) ? unit : 1.0) / 100.0 : 1.0;
    double scale = metres * (b->o->scale > 0 ? b->o->scale : 1.0);
    if (!(scale > 0) || !isfinite(scale) || scale > 1e12) scale = 1.0;
    /* Rows of R: kiln's X, Y, Z as the file's axes (coord, up, front). */
    int rows[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    bool header = ax[0] >= 0 && ax[0] < 3 && ax[2] >= 0 && ax[2] < 3 && ax[4] >= 0 && ax[4] < 3 &&
                  ax[0] != ax[2] && ax[0] != ax[4] && ax[2] != ax[4] &&
                  (ax[1] == 1 || ax[1] == -1) && (ax[3] == 1 || ax[3] == -1) &&
                  (ax[5] == 1 || ax[5] == -1);
    int up = b->o->up_axis;
    if (up == 2) {
        int z[3][3] = {{1, 0, 0}, {0, 0, 1}, {0, -1, 0}};
        memcpy(rows, z, sizeof rows);
    } else if (up == 0 && header && format == KILN_ASSIMP_FBX) {
        memset(rows, 0, sizeof rows);
        rows[0][ax[4]] = ax[5];
        rows[1][ax[0]] = ax[1];
        rows[2][ax[2]] = ax[3];
        int det = rows[0][0] * (rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1]) -
                  rows[0][1] * (rows[1][0] * rows[2][2] - rows[1][2] * rows[2][0]) +
                  rows[0][2] * (rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0]);
        if (det < 0) {
            /* A left-handed axis system: keep up and front, turn X around. */
            for (int k = 0; k < 3; k++) rows[0][k] = -rows[0][k];
            if (!kiln_scene_warn(b->s, "the FBX header's axes are left-handed; X is mirrored "
                                       "into kiln's right-handed space"))
                return nomem(b, "a warning");
        }
    }
    memset(b->conv, 0, sizeof b->conv);
    float c[3][3];
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) {
            c[col][row] = (float)rows[row][col];
            b->conv[col * 4 + row] = (float)(rows[row][col] * scale);
        }
    b->conv[15] = 1;
    kiln_quat_from_rotation_f(c, b->conv_rot);
    b->conv_scale = (float)scale;
    b->conv_identity = scale == 1.0 && rows[0][0] == 1 && rows[1][1] == 1 && rows[2][2] == 1;
    return KILN_OK;
}

/* ---- images, textures, materials ------------------------------------------------------------- */

static const char *mime_of(const char *hint)
{
    if (!strcmp(hint, "png")) return "image/png";
    if (!strcmp(hint, "jpg") || !strcmp(hint, "jpeg")) return "image/jpeg";
    return "";
}

static kiln_result decode_pixels(build *b, kiln_scene_image *img)
{
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.allocator = kiln_arena_allocator(b->a);
    opts.name_hint = *img->uri ? img->uri : NULL;
    kiln_image out;
    kiln_error ierr;
    kiln_result r = kiln_image_decode(img->encoded, img->encoded_size, &opts, &out, &ierr);
    if (r == KILN_E_OUT_OF_MEMORY || (r == KILN_E_LIMIT && b->a->over_limit)) {
        if (b->err) *b->err = ierr;
        return r;
    }
    if (r != KILN_OK) {
        if (!kiln_scene_warn(b->s, "texture \"%s\" cannot be decoded: %s",
                             *img->uri ? img->uri : img->name, ierr.message))
            return nomem(b, "a warning");
        return KILN_OK;
    }
    img->width = out.width, img->height = out.height;
    img->pixel = out.type == KILN_PIXEL_U8    ? KILN_SCENE_PIXEL_U8
                 : out.type == KILN_PIXEL_U16 ? KILN_SCENE_PIXEL_U16
                                              : KILN_SCENE_PIXEL_F32;
    img->pixels = out.pixels;
    img->source_channels = out.source_channels;
    img->has_alpha = out.has_alpha;
    return KILN_OK;
}

/* The embedded texture a material's path names: "*<index>", or the embedded file's name. */
static int32_t embedded_of(build *b, const char *path)
{
    if (path[0] == '*') {
        char *end;
        unsigned long i = strtoul(path + 1, &end, 10);
        return !*end && end != path + 1 && i < b->embedded_count ? (int32_t)i : -2;
    }
    for (uint32_t i = 0; i < b->embedded_count; i++)
        if (!strcmp(b->embedded[i].name, path)) return (int32_t)i;
    return -1;
}

static kiln_result image_of(build *b, const char *path, int32_t *out)
{
    int32_t emb = embedded_of(b, path);
    if (emb == -2) {
        *out = -1;
        if (!kiln_scene_warn(b->s, "texture \"%s\" names an embedded texture the file lacks", path))
            return nomem(b, "a warning");
        return KILN_OK;
    }
    for (uint32_t i = 0; i < b->image_count; i++)
        if (b->image_keys[i].embedded == emb &&
            (emb >= 0 || !strcmp(b->image_keys[i].name, path))) {
            *out = (int32_t)i;
            return KILN_OK;
        }
    if (b->image_count == b->image_cap) {
        uint32_t cap = b->image_cap ? b->image_cap * 2 : 8;
        kiln_scene_image *ni = kiln_arena_array(b->a, cap, sizeof *ni);
        image_key *nk = kiln_arena_array(&b->tmp, cap, sizeof *nk);
        if (!ni || !nk) return nomem(b, "images");
        if (b->image_count) {
            memcpy(ni, b->images, b->image_count * sizeof *ni);
            memcpy(nk, b->image_keys, b->image_count * sizeof *nk);
        }
        b->images = ni, b->image_keys = nk, b->image_cap = cap;
    }
    uint32_t idx = b->image_count++;
    kiln_scene_image *img = &b->images[idx];
    memset(img, 0, sizeof *img);
    img->name = img->uri = img->path = img->mime_type = "";
    b->image_keys[idx] = (image_key){emb, path};
    kiln_result r;
    if (emb >= 0) {
        const assimp_doc_embedded *e = &b->embedded[emb];
        const char *bare = strrchr(e->name, '\\') ? strrchr(e->name, '\\') + 1 : e->name;
        if (strrchr(bare, '/')) bare = strrchr(bare, '/') + 1;
        img->source = KILN_SCENE_IMAGE_BUFFER_VIEW;
        img->mime_type = mime_of(e->format_hint);
        if (!(img->name = kiln_arena_strdup(b->a, bare))) return nomem(b, "an image name");
        if (e->height) {
            if (!kiln_scene_warn(b->s,
                                 "embedded texture \"%s\" is raw texels, which kiln does "
                                 "not import",
                                 e->name))
                return nomem(b, "a warning");
        } else if (!(b->flags & KILN_SCENE_LOAD_NO_IMAGES) && e->size) {
            if (!(img->encoded = kiln_arena_memdup(b->a, e->bytes, e->size)))
                return nomem(b, "embedded texture bytes");
            img->encoded_size = e->size;
        }
    } else {
        if ((r = kiln_assimp_texture_file(b->s, b->base_dir, path, b->flags, img, b->err)))
            return r;
        const char *bare = strrchr(img->uri, '/');
        bare = bare ? bare + 1 : img->uri;
        if (strrchr(bare, '\\')) bare = strrchr(bare, '\\') + 1;
        if (!(img->name = kiln_arena_strdup(b->a, bare))) return nomem(b, "an image name");
    }
    if (img->encoded && !(b->flags & (KILN_SCENE_LOAD_NO_PIXELS | KILN_SCENE_LOAD_NO_IMAGES)) &&
        (r = decode_pixels(b, img)))
        return r;
    *out = (int32_t)idx;
    return KILN_OK;
}

static kiln_result texture_of(build *b, int32_t image, uint32_t mode, int32_t *out)
{
    /* aiTextureMapMode: 0 wrap, 1 clamp, 2 mirror, 3 decal (clamped, kiln has no border). */
    kiln_scene_wrap wrap = mode == 2                ? KILN_SCENE_WRAP_MIRROR
                           : mode == 1 || mode == 3 ? KILN_SCENE_WRAP_CLAMP
                                                    : KILN_SCENE_WRAP_REPEAT;
    int32_t sampler = -1;
    if (wrap != KILN_SCENE_WRAP_REPEAT) {
        if (b->samplers[wrap] < 0) {
            uint32_t n = b->s->sampler_count;
            kiln_scene_sampler *ns = kiln_arena_array(b->a, n + 1, sizeof *ns);
            if (!ns) return nomem(b, "samplers");
            if (n) memcpy(ns, b->s->samplers, n * sizeof *ns);
            ns[n] = (kiln_scene_sampler){"",
                                         KILN_SCENE_FILTER_DEFAULT,
                                         KILN_SCENE_FILTER_DEFAULT,
                                         KILN_SCENE_FILTER_DEFAULT,
                                         true,
                                         wrap,
                                         wrap};
            b->s->samplers = ns;
            b->s->sampler_count = n + 1;
            b->samplers[wrap] = (int32_t)n;
        }
        sampler = b->samplers[wrap];
    }
    for (uint32_t i = 0; i < b->texture_count; i++)
        if (b->textures[i].image == image && b->textures[i].sampler == sampler) {
            *out = (int32_t)i;
            return KILN_OK;
        }
    if (b->texture_count == b->texture_cap) {
        uint32_t cap = b->texture_cap ? b->texture_cap * 2 : 8;
        kiln_scene_texture *nt = kiln_arena_array(b->a, cap, sizeof *nt);
        if (!nt) return nomem(b, "textures");
        if (b->texture_count) memcpy(nt, b->textures, b->texture_count * sizeof *nt);
        b->textures = nt, b->texture_cap = cap;
    }
    b->textures[b->texture_count] = (kiln_scene_texture){"", image, sampler};
    *out = (int32_t)b->texture_count++;
    return KILN_OK;
}

static const char *const texture_type_names[] = {
    "none",          "diffuse",     "specular",          "ambient",         "emissive",
    "height (bump)", "normal",      "shininess",         "opacity",         "displacement",
    "lightmap",      "reflection",  "base colour",       "normal (camera)", "emission colour",
    "metalness",     "roughness",   "ambient occlusion", "unknown",         "sheen",
    "clearcoat",     "transmission"};

/* The kiln slot of an assimp texture type, or -1. */
static int slot_of(uint32_t type)
{
    switch (type) {
    case 1:
    case 12:
        return KILN_SCENE_SLOT_BASE_COLOR;
    case 6:
    case 13:
        return KILN_SCENE_SLOT_NORMAL;
    case 4:
    case 14:
        return KILN_SCENE_SLOT_EMISSIVE;
    case 10:
    case 17:
        return KILN_SCENE_SLOT_OCCLUSION;
    default:
        return -1;
    }
}

static kiln_result make_materials(build *b)
{
    kiln_scene *s = b->s;
    uint32_t n = b->doc->material_count;
    kiln_scene_material *mats = kiln_arena_array(b->a, n ? n : 1, sizeof *mats);
    if (!mats) return nomem(b, "materials");
    for (uint32_t i = 0; i < n; i++) {
        const assimp_doc_material *dm = &b->doc->materials[i];
        kiln_scene_material *m = &mats[i];
        m->name = dm->name;
        const float *base = dm->base, *emissive = dm->emissive;
        float opacity = dm->opacity, shininess = dm->shininess, metallic = dm->metallic,
              roughness = dm->roughness;
        uint32_t mflags = dm->flags;
        for (int k = 0; k < 4; k++) {
            float v = k == 3 ? base[3] * (isfinite(opacity) ? opacity : 1.0f) : base[k];
            m->base_color[k] = isfinite(v) ? fminf(fmaxf(v, 0.0f), k == 3 ? 1.0f : 1e6f) : 1.0f;
        }
        for (int k = 0; k < 3; k++)
            m->emissive[k] = isfinite(emissive[k]) ? fmaxf(emissive[k], 0.0f) : 0.0f;
        m->emissive_strength = 1.0f;
        m->metallic = metallic >= 0 && metallic <= 1 ? metallic : 0.0f;
        /* Phong shininess to roughness (the Blinn-Phong / GGX match sqrt(2 / (n + 2))). */
        m->roughness = roughness >= 0 && roughness <= 1       ? roughness
                       : shininess > 0 && isfinite(shininess) ? sqrtf(2.0f / (shininess + 2.0f))
                                                              : 1.0f;
        m->alpha_mode = m->base_color[3] < 1.0f ? KILN_SCENE_ALPHA_BLEND : KILN_SCENE_ALPHA_OPAQUE;
        m->alpha_cutoff = 0.5f;
        m->double_sided = mflags & ASSIMP_MAT_TWO_SIDED;
        m->unlit = mflags & ASSIMP_MAT_UNLIT;
        kiln_material_ext_defaults(&m->ext); /* no glTF material extensions from assimp */
        if (m->unlit) m->ext.present = KILN_MATERIAL_EXT_UNLIT;
        for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++) {
            m->textures[k].texture = -1;
            m->textures[k].scale = 1.0f;
            m->textures[k].uv_scale[0] = m->textures[k].uv_scale[1] = 1.0f;
        }
        for (uint32_t t = 0; t < dm->texture_count; t++) {
            const assimp_doc_texture *tx = &dm->textures[t];
            uint32_t type = tx->type, uv = tx->uv, mode = tx->mode;
            const char *path = tx->path;
            int slot = slot_of(type);
            const char *tname = type < sizeof texture_type_names / sizeof *texture_type_names
                                    ? texture_type_names[type]
                                    : "unknown";
            if (slot < 0 || m->textures[slot].texture >= 0 || uv >= KILN_SCENE_MAX_UV_SETS) {
                if (!kiln_scene_warn(s, "material \"%s\": %s texture \"%s\" not imported%s",
                                     m->name, tname, path,
                                     slot < 0                       ? " (no matching kiln slot)"
                                     : uv >= KILN_SCENE_MAX_UV_SETS ? " (UV set past the fourth)"
                                                                    : " (the slot is taken)"))
                    return nomem(b, "a warning");
                continue;
            }
            if ((mode >> 8) != 0 &&
                !kiln_scene_warn(s,
                                 "material \"%s\": %s texture \"%s\" uses a projected mapping; "
                                 "kiln reads UV set %u instead",
                                 m->name, tname, path, uv))
                return nomem(b, "a warning");
            int32_t image = -1, texture = -1;
            kiln_result r = image_of(b, path, &image);
            if (r) return r;
            if (image < 0) continue;
            if ((r = texture_of(b, image, mode & 0xFF, &texture))) return r;
            m->textures[slot].texture = texture;
            m->textures[slot].texcoord = uv;
            /* An emissive map with a black factor would vanish; FBX means the map alone. */
            if (slot == KILN_SCENE_SLOT_EMISSIVE && !m->emissive[0] && !m->emissive[1] &&
                !m->emissive[2])
                m->emissive[0] = m->emissive[1] = m->emissive[2] = 1.0f;
        }
    }
    s->materials = mats;
    s->material_count = n;
    return KILN_OK;
}

/* ---- meshes
 * --------------------------------------------------------------------------------------- */

static kiln_result make_mesh(build *b, assimp_doc_mesh *dm, mesh_in *mi)
{
    kiln_scene *s = b->s;
    kiln_scene_primitive *p = &mi->prim;
    mi->name = dm->name;
    uint32_t v = dm->vertex_count, uvs = dm->uv_count, colors = dm->color_count;
    if (KILN_NEVER(!v || dm->index_count % 3 || uvs > ASSIMP_MAX_SETS || colors > ASSIMP_MAX_SETS))
        return inconsistent(b, "a mesh");
    p->vertex_count = v;
    p->mode = KILN_SCENE_MODE_TRIANGLES;
    p->material = dm->material < s->material_count ? (int32_t)dm->material : -1;
    float *pos = dm->positions;
    bool bad = false;
    for (size_t k = 0; k < (size_t)v * 3; k++)
        if (!isfinite(pos[k]) || fabsf(pos[k]) > 1e30f) pos[k] = 0, bad = true;
    if (bad) {
        p->flags |= KILN_SCENE_PRIM_POSITIONS_SANITIZED;
        if (!kiln_scene_warn(s, "mesh \"%s\": non-finite positions set to 0", mi->name))
            return nomem(b, "a warning");
    }
    p->positions = pos;
    for (int k = 0; k < 3; k++) p->bounds_min[k] = p->bounds_max[k] = pos[k];
    for (size_t i = 1; i < v; i++)
        for (int k = 0; k < 3; k++) {
            float x = pos[i * 3 + k];
            if (x < p->bounds_min[k]) p->bounds_min[k] = x;
            if (x > p->bounds_max[k]) p->bounds_max[k] = x;
        }
    if (dm->normals) {
        float *n = dm->normals;
        bool ok = true;
        for (size_t i = 0; i < v && ok; i++) {
            float *x = n + i * 3, len = sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            if (!(len > 1e-12f) || !isfinite(len)) ok = false;
            else x[0] /= len, x[1] /= len, x[2] /= len;
        }
        p->normals = ok ? n : NULL; /* otherwise kiln computes them */
    }
    if (dm->tangents) {
        float *t = dm->tangents;
        bool ok = p->normals != NULL;
        for (size_t i = 0; i < (size_t)v * 4 && ok; i++) ok = isfinite(t[i]);
        p->tangents = ok ? t : NULL;
    }
    for (uint32_t k = 0; k < uvs && k < KILN_SCENE_MAX_UV_SETS; k++) {
        float *uv = dm->uvs[k];
        for (size_t i = 0; i < (size_t)v * 2; i++)
            if (!isfinite(uv[i])) uv[i] = 0;
        p->texcoords[p->texcoord_count++] = uv;
    }
    if (uvs > KILN_SCENE_MAX_UV_SETS &&
        !kiln_scene_warn(s, "mesh \"%s\": %u UV sets past the fourth dropped", mi->name,
                         uvs - KILN_SCENE_MAX_UV_SETS))
        return nomem(b, "a warning");
    for (uint32_t k = 0; k < colors && k < KILN_SCENE_MAX_COLOR_SETS; k++) {
        float *c = dm->colors[k];
        for (size_t i = 0; i < (size_t)v * 4; i++)
            if (!isfinite(c[i])) c[i] = 0;
        p->colors[p->color_count++] = c;
    }
    if (colors > KILN_SCENE_MAX_COLOR_SETS &&
        !kiln_scene_warn(s, "mesh \"%s\": %u colour sets past the second dropped", mi->name,
                         colors - KILN_SCENE_MAX_COLOR_SETS))
        return nomem(b, "a warning");
    for (uint32_t i = 0; i < dm->index_count; i++)
        if (KILN_NEVER(dm->indices[i] >= v)) return inconsistent(b, "an index");
    p->indices = dm->indices;
    p->index_count = dm->index_count;
    mi->bones = dm->bones;
    mi->bone_count = dm->bone_count;
    for (uint32_t k = 0; k < mi->bone_count; k++) {
        assimp_doc_bone *bo = &mi->bones[k];
        if (!all_finite(bo->offset, 16)) {
            /* An inverse bind matrix must be finite; identity keeps the joint usable. */
            kiln_mat4_identity(bo->offset);
            if (!kiln_scene_warn(b->s,
                                 "mesh \"%s\": bone \"%s\" has a non-finite offset matrix, "
                                 "reset to identity",
                                 mi->name, bo->name))
                return nomem(b, "a warning");
        }
    }
    uint32_t targets = dm->target_count;
    if (targets) {
        kiln_scene_morph_target *t = kiln_arena_array(b->a, targets, sizeof *t);
        mi->target_names = kiln_arena_array(b->a, targets, sizeof *mi->target_names);
        mi->target_weights = kiln_arena_array(b->a, targets, sizeof *mi->target_weights);
        if (!t || !mi->target_names || !mi->target_weights) return nomem(b, "morph targets");
        for (uint32_t k = 0; k < targets; k++) {
            const assimp_doc_target *dt = &dm->targets[k];
            mi->target_names[k] = dt->name;
            mi->target_weights[k] = isfinite(dt->weight) ? dt->weight : 0.0f;
            float *d[2] = {dt->positions, dt->normals};
            for (int a = 0; a < 2; a++)
                for (size_t i = 0; d[a] && i < (size_t)v * 3; i++)
                    if (!isfinite(d[a][i])) d[a][i] = 0;
            t[k].positions = d[0];
            t[k].normals = p->normals ? d[1] : NULL;
        }
        p->targets = t;
        p->target_count = targets;
    }
    return KILN_OK;
}

/* ---- nodes, skins
 * ---------------------------------------------------------------------------------- */

static int by_name_cmp(const void *x, const void *y, void *ctx)
{
    const kiln_scene_node *nodes = ctx;
    uint32_t a = *(const uint32_t *)x, c = *(const uint32_t *)y;
    int d = strcmp(nodes[a].name, nodes[c].name);
    return d ? d : (a > c) - (a < c);
}

/* The first node (parents first) named name, or -1. */
static int32_t node_named(build *b, const char *name)
{
    const kiln_scene *s = b->s;
    uint32_t lo = 0, hi = s->node_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(s->nodes[b->by_name[mid]].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->node_count && !strcmp(s->nodes[b->by_name[lo]].name, name)
               ? (int32_t)b->by_name[lo]
               : -1;
}

/* Joints and weights of one primitive: the four strongest influences of each vertex,
 * normalised; bones are mapped to skin joints through map. */
static kiln_result skin_primitive(build *b, const mesh_in *mi, const uint32_t *map,
                                  kiln_scene_primitive *p)
{
    uint32_t v = p->vertex_count;
    uint16_t *joints = kiln_arena_array(b->a, (size_t)v * 4, sizeof *joints);
    float *weights = kiln_arena_array(b->a, (size_t)v * 4, sizeof *weights);
    if (!joints || !weights) return nomem(b, "joints and weights");
    for (uint32_t k = 0; k < mi->bone_count; k++) {
        const assimp_doc_bone *bo = &mi->bones[k];
        for (uint32_t w = 0; w < bo->weight_count; w++) {
            uint32_t vid = bo->weights[w].vertex;
            float wt = bo->weights[w].weight;
            if (vid >= v || !(wt > 0) || !isfinite(wt)) continue;
            float *vw = weights + (size_t)vid * 4;
            uint16_t *vj = joints + (size_t)vid * 4;
            int weakest = 0;
            for (int i = 1; i < 4; i++)
                if (vw[i] < vw[weakest]) weakest = i;
            if (wt > vw[weakest]) vw[weakest] = wt, vj[weakest] = (uint16_t)map[k];
        }
    }
    uint32_t bare = 0;
    bool renormalized = false;
    for (size_t i = 0; i < v; i++) {
        float *vw = weights + i * 4, sum = vw[0] + vw[1] + vw[2] + vw[3];
        if (!(sum > 0)) {
            vw[0] = 1.0f; /* a vertex no bone moves follows the first joint */
            joints[i * 4] = 0;
            bare++;
            continue;
        }
        if (fabsf(sum - 1.0f) > 1e-4f) renormalized = true;
        for (int k = 0; k < 4; k++) vw[k] /= sum;
    }
    if (renormalized) p->flags |= KILN_SCENE_PRIM_WEIGHTS_RENORMALIZED;
    if (bare && !kiln_scene_warn(b->s,
                                 "mesh \"%s\": %u vertices have no bone weights; they follow "
                                 "joint 0",
                                 mi->name, bare))
        return nomem(b, "a warning");
    p->joints[0] = joints;
    p->weights[0] = weights;
    p->joint_set_count = 1;
    return KILN_OK;
}

typedef struct skin_build {
    uint32_t *joints;
    float *inverse;
    uint32_t count, cap;
} skin_build;

/* The skin of a node whose meshes have bones; *skin = -1 when a bone names no node. */
static kiln_result make_skin(build *b, const uint32_t *refs, uint32_t ref_count,
                             kiln_scene_primitive *prims, kiln_scene_skin **skins,
                             uint32_t *skin_cap, int32_t *skin)
{
    kiln_scene *s = b->s;
    *skin = -1;
    skin_build sb = {0};
    for (uint32_t r = 0; r < ref_count; r++) sb.cap += b->meshes[refs[r]].bone_count;
    if (sb.cap > 65535) {
        return kiln_scene_warn(s, "a node's meshes have %u bones, past 65535: not skinned", sb.cap)
                   ? KILN_OK
                   : nomem(b, "a warning");
    }
    sb.joints = kiln_arena_array(b->a, sb.cap, sizeof *sb.joints);
    sb.inverse = kiln_arena_array(b->a, sb.cap, 16 * sizeof *sb.inverse);
    if (!sb.joints || !sb.inverse) return nomem(b, "a skin");
    uint32_t *maps = kiln_arena_array(&b->tmp, sb.cap, sizeof *maps);
    if (!maps) return nomem(b, "a skin");
    uint32_t at = 0;
    for (uint32_t r = 0; r < ref_count; r++) {
        const mesh_in *mi = &b->meshes[refs[r]];
        for (uint32_t k = 0; k < mi->bone_count; k++) {
            int32_t node = node_named(b, mi->bones[k].name);
            if (node < 0)
                return kiln_scene_warn(s,
                                       "mesh \"%s\": bone \"%s\" names no node; the mesh is not "
                                       "skinned",
                                       mi->name, mi->bones[k].name)
                           ? KILN_OK
                           : nomem(b, "a warning");
            uint32_t j = 0;
            while (j < sb.count && sb.joints[j] != (uint32_t)node) j++;
            if (j == sb.count) {
                sb.joints[sb.count] = (uint32_t)node;
                memcpy(sb.inverse + (size_t)sb.count * 16, mi->bones[k].offset, 16 * sizeof(float));
                sb.count++;
            }
            maps[at + k] = j;
        }
        at += mi->bone_count;
    }
    at = 0;
    for (uint32_t r = 0; r < ref_count; r++) {
        const mesh_in *mi = &b->meshes[refs[r]];
        if (mi->bone_count) {
            kiln_result res = skin_primitive(b, mi, maps + at, &prims[r]);
            if (res) return res;
        }
        at += mi->bone_count;
    }
    if (s->skin_count == *skin_cap) {
        uint32_t cap = *skin_cap ? *skin_cap * 2 : 4;
        kiln_scene_skin *ns = kiln_arena_array(b->a, cap, sizeof *ns);
        if (!ns) return nomem(b, "skins");
        if (s->skin_count) memcpy(ns, *skins, s->skin_count * sizeof *ns);
        *skins = ns;
        *skin_cap = cap;
        s->skins = ns;
    }
    (*skins)[s->skin_count] = (kiln_scene_skin){"", sb.joints, sb.count, sb.inverse, -1};
    s->stats.joints += sb.count;
    *skin = (int32_t)s->skin_count++;
    return KILN_OK;
}

static kiln_result make_nodes(build *b)
{
    kiln_scene *s = b->s;
    uint32_t n = b->doc->node_count;
    if (KILN_NEVER(!n)) return inconsistent(b, "no nodes");
    kiln_scene_node *nodes = kiln_arena_array(b->a, n, sizeof *nodes);
    const uint32_t **refs = kiln_arena_array(&b->tmp, n, sizeof *refs);
    uint32_t *ref_counts = kiln_arena_array(&b->tmp, n, sizeof *ref_counts);
    uint32_t *child_counts = kiln_arena_array(&b->tmp, n, sizeof *child_counts);
    if (!nodes || !refs || !ref_counts || !child_counts) return nomem(b, "nodes");
    uint32_t mesh_nodes = 0, roots = 0;
    for (uint32_t i = 0; i < n; i++) {
        const assimp_doc_node *dn = &b->doc->nodes[i];
        kiln_scene_node *nd = &nodes[i];
        nd->name = dn->name;
        nd->parent = dn->parent;
        memcpy(nd->matrix, dn->matrix, sizeof nd->matrix);
        ref_counts[i] = dn->mesh_count;
        if (KILN_NEVER(nd->parent >= (int32_t)i || nd->parent < -1))
            return inconsistent(b, "a parent");
        if (nd->parent < 0) roots++;
        else child_counts[nd->parent]++;
        if (ref_counts[i]) {
            refs[i] = dn->meshes;
            for (uint32_t k = 0; k < ref_counts[i]; k++)
                if (KILN_NEVER(refs[i][k] >= b->mesh_count))
                    return inconsistent(b, "a mesh reference");
            mesh_nodes++;
        }
        bool finite = true;
        for (int k = 0; k < 16; k++) finite = finite && isfinite(nd->matrix[k]);
        if (!finite) {
            kiln_mat4_identity(nd->matrix);
            if (!kiln_scene_warn(s, "node \"%s\": a non-finite transform was reset", nd->name))
                return nomem(b, "a warning");
        }
        nd->mesh = nd->skin = nd->camera = nd->light = -1;
    }
    /* kiln's space on the root(s): C * local. Parents come first, so each world is its parent's
     * (already finite) times the local matrix. */
    for (uint32_t i = 0; i < n; i++) {
        kiln_scene_node *nd = &nodes[i];
        if (nd->parent < 0 && !b->conv_identity) kiln_mat4_mul(b->conv, nd->matrix, nd->matrix);
        nd->has_matrix = true;
        place_node(nodes, nd);
        if (!node_finite(nd)) {
            /* Finite numbers can still overflow: in C, in a parent's world times this matrix, or
             * in the scale's length. The node then keeps its parent's place (the root: C). */
            kiln_mat4_identity(nd->matrix);
            if (nd->parent < 0 && !b->conv_identity) memcpy(nd->matrix, b->conv, sizeof nd->matrix);
            place_node(nodes, nd);
            if (!kiln_scene_warn(s, "node \"%s\": its transform overflowed and was reset",
                                 nd->name))
                return nomem(b, "a warning");
        }
    }
    uint32_t *children = kiln_arena_array(b->a, n, sizeof *children);
    uint32_t *root_list = kiln_arena_array(b->a, roots ? roots : 1, sizeof *root_list);
    if (!children || !root_list) return nomem(b, "the hierarchy");
    uint32_t at = 0, rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        nodes[i].children = children + at;
        at += child_counts[i];
    }
    for (uint32_t i = 0; i < n; i++) {
        if (nodes[i].parent < 0) root_list[rc++] = i;
        else {
            kiln_scene_node *p = &nodes[nodes[i].parent];
            ((uint32_t *)p->children)[p->child_count++] = i;
        }
    }
    s->nodes = nodes;
    s->node_count = n;
    s->roots = root_list;
    s->root_count = rc;
    if (!(b->by_name = kiln_arena_array(&b->tmp, n, sizeof *b->by_name))) return nomem(b, "names");
    for (uint32_t i = 0; i < n; i++) b->by_name[i] = i;
    qsort_r(b->by_name, n, sizeof *b->by_name, by_name_cmp, nodes);
    /* One kiln mesh per node with meshes; the vertex data of an assimp mesh is shared by every
     * node that draws it. */
    kiln_scene_mesh *meshes = kiln_arena_array(b->a, mesh_nodes ? mesh_nodes : 1, sizeof *meshes);
    if (!meshes) return nomem(b, "meshes");
    kiln_scene_skin *skins = NULL;
    uint32_t skin_cap = 0, mc = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!ref_counts[i]) continue;
        kiln_scene_mesh *m = &meshes[mc];
        kiln_scene_primitive *prims = kiln_arena_array(b->a, ref_counts[i], sizeof *prims);
        if (!prims) return nomem(b, "primitives");
        bool bones = false, same_targets = true;
        for (uint32_t k = 0; k < ref_counts[i]; k++) {
            const mesh_in *mi = &b->meshes[refs[i][k]];
            prims[k] = mi->prim;
            bones = bones || mi->bone_count;
            same_targets = same_targets && mi->prim.target_count == prims[0].target_count;
            s->stats.primitives++;
            s->stats.vertices += mi->prim.vertex_count;
            s->stats.triangles += mi->prim.index_count / 3;
        }
        const mesh_in *first = &b->meshes[refs[i][0]];
        m->name = ref_counts[i] == 1 ? first->name : nodes[i].name;
        m->primitives = prims;
        m->primitive_count = ref_counts[i];
        if (prims[0].target_count && same_targets) {
            m->weights = first->target_weights;
            m->weight_count = prims[0].target_count;
            m->target_names = first->target_names;
        } else if (!same_targets) {
            for (uint32_t k = 0; k < ref_counts[i]; k++)
                prims[k].targets = NULL, prims[k].target_count = 0;
            if (!kiln_scene_warn(s,
                                 "node \"%s\": its meshes have different blend shapes; none "
                                 "imported",
                                 nodes[i].name))
                return nomem(b, "a warning");
        }
        nodes[i].mesh = (int32_t)mc++;
        if (bones && !b->o->skip_skins) {
            kiln_result r =
                make_skin(b, refs[i], ref_counts[i], prims, &skins, &skin_cap, &nodes[i].skin);
            if (r) return r;
            if (nodes[i].skin < 0)
                for (uint32_t k = 0; k < ref_counts[i]; k++)
                    prims[k].joint_set_count = 0, prims[k].joints[0] = NULL,
                    prims[k].weights[0] = NULL;
        }
    }
    s->meshes = meshes;
    s->mesh_count = mc;
    /* World bounds over mesh instances. A skinned mesh too is placed by its node: assimp's
     * offset matrices take mesh space to each bone, so in the bind pose the joints put it
     * exactly where its node does. */
    for (uint32_t i = 0; i < n; i++) {
        const kiln_scene_node *nd = &nodes[i];
        if (nd->mesh < 0) continue;
        const float *w = nd->world;
        const kiln_scene_mesh *m = &meshes[nd->mesh];
        for (uint32_t p = 0; p < m->primitive_count; p++)
            for (int corner = 0; corner < 8; corner++) {
                const float *lo = m->primitives[p].bounds_min, *hi = m->primitives[p].bounds_max;
                float v[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1],
                              corner & 4 ? hi[2] : lo[2]};
                for (int k = 0; k < 3; k++) {
                    float x = w[k] * v[0] + w[4 + k] * v[1] + w[8 + k] * v[2] + w[12 + k];
                    if (!s->has_bounds || x < s->bounds_min[k]) s->bounds_min[k] = x;
                    if (!s->has_bounds || x > s->bounds_max[k]) s->bounds_max[k] = x;
                }
                s->has_bounds = true;
            }
    }
    return KILN_OK;
}

/* ---- animations
 * ------------------------------------------------------------------------------------ */

/* Keys of one property as seconds (the doc's ticks / tps), rotations normalised, both in place;
 * *ok false for keys kiln cannot use (non-finite, out of order, a rotation near zero). */
static void prepare_keys(assimp_doc_keys *dk, uint32_t components, double tps, assimp_keys *k,
                         bool *ok)
{
    k->count = dk->count;
    k->times = NULL, k->values = NULL;
    if (!k->count) return;
    double *t = dk->times;
    float *v = dk->values;
    for (uint32_t i = 0; i < k->count; i++) {
        t[i] /= tps;
        if (!isfinite(t[i]) || (i && t[i] < t[i - 1])) *ok = false;
        for (uint32_t c = 0; c < components; c++)
            if (!isfinite(v[(size_t)i * components + c])) *ok = false;
    }
    if (components == 4)
        for (uint32_t i = 0; i < k->count && *ok; i++)
            if (!(kiln_quat_normalize(v + (size_t)i * 4) > 1e-6f)) *ok = false;
    k->times = t;
    k->values = v;
}

static double last_time(const assimp_keys *k) { return k->count ? k->times[k->count - 1] : 0.0; }

/* The root carries C: its animated local transform T R S becomes C T R S = T(C t) (R_c R) (s S). */
static void convert_root_keys(build *b, kiln_scene_channel *ch)
{
    for (uint32_t i = 0; i < ch->key_count; i++) {
        float *v = (float *)ch->values + (size_t)i * ch->components;
        if (ch->path == KILN_SCENE_PATH_TRANSLATION) {
            float x = v[0], y = v[1], z = v[2];
            for (int k = 0; k < 3; k++)
                v[k] = b->conv[k] * x + b->conv[4 + k] * y + b->conv[8 + k] * z;
        } else if (ch->path == KILN_SCENE_PATH_ROTATION) {
            kiln_quat_mul(b->conv_rot, v, v);
        } else if (ch->path == KILN_SCENE_PATH_SCALE) {
            for (int k = 0; k < 3; k++) v[k] *= b->conv_scale;
        }
    }
}

/* Keys that baking or C made non-finite (finite inputs can still overflow: the difference of
 * two keys near FLT_MAX, or C times a large translation) become the rest value of their path:
 * translation 0, rotation identity, scale 1, weight 0. Returns how many keys changed. */
static uint32_t clean_keys(kiln_scene_channel *ch)
{
    uint32_t fixed = 0;
    for (uint32_t i = 0; i < ch->key_count; i++) {
        float *v = (float *)ch->values + (size_t)i * ch->components;
        if (all_finite(v, (int)ch->components)) continue;
        fixed++;
        for (uint32_t k = 0; k < ch->components; k++)
            v[k] = ch->path == KILN_SCENE_PATH_SCALE                ? 1.0f
                   : ch->path == KILN_SCENE_PATH_ROTATION && k == 3 ? 1.0f
                                                                    : 0.0f;
    }
    return fixed;
}

static kiln_result make_animations(build *b)
{
    kiln_scene *s = b->s;
    uint32_t n = b->doc->animation_count;
    kiln_scene_animation *anims = kiln_arena_array(b->a, n ? n : 1, sizeof *anims);
    if (!anims) return nomem(b, "animations");
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        assimp_doc_animation *da = &b->doc->animations[i];
        kiln_scene_animation *an = &anims[kept];
        an->name = da->name;
        double ticks = da->duration, tps = da->ticks_per_second;
        if (!(tps > 0) || !isfinite(tps)) tps = 25.0; /* assimp's documented default */
        uint32_t cn = da->channel_count;
        /* Read every channel first: the clip's length is the longest of them. */
        typedef struct raw {
            int32_t node;
            assimp_keys k[3];
            bool ok;
        } raw;
        raw *raws = kiln_arena_array(&b->tmp, cn ? cn : 1, sizeof *raws);
        if (!raws) return nomem(b, "channels");
        double duration = isfinite(ticks) && ticks > 0 ? ticks / tps : 0.0;
        uint32_t channels = 0;
        for (uint32_t c = 0; c < cn; c++) {
            assimp_doc_channel *dc = &da->channels[c];
            const char *node = dc->node;
            raw *rw = &raws[c];
            rw->ok = true;
            for (int p = 0; p < 3; p++)
                prepare_keys(&dc->keys[p], p == 1 ? 4 : 3, tps, &rw->k[p], &rw->ok);
            rw->node = node_named(b, node);
            if (rw->node < 0 || !rw->ok) {
                if (!kiln_scene_warn(s, "animation \"%s\": channel of \"%s\" not imported (%s)",
                                     an->name, node, rw->node < 0 ? "no such node" : "bad keys"))
                    return nomem(b, "a warning");
                rw->ok = false;
                continue;
            }
            for (int p = 0; p < 3; p++) {
                if (last_time(&rw->k[p]) > duration) duration = last_time(&rw->k[p]);
                channels += rw->k[p].count > 0;
            }
        }
        uint32_t mn = da->morph_count;
        typedef struct mraw {
            int32_t node;
            uint32_t targets;
            assimp_keys k;
        } mraw;
        mraw *mraws = kiln_arena_array(&b->tmp, mn ? mn : 1, sizeof *mraws);
        if (!mraws) return nomem(b, "morph channels");
        for (uint32_t c = 0; c < mn; c++) {
            mraw *mr = &mraws[c];
            const assimp_doc_morph_channel *dc = &da->morphs[c];
            char *name = kiln_arena_strdup(&b->tmp, dc->name);
            uint32_t keys = dc->key_count;
            if (!name) return nomem(b, "a name");
            /* assimp names a morph channel "<node>*<mesh>". */
            char *star = strrchr(name, '*');
            if (star) *star = '\0';
            mr->node = node_named(b, name);
            int32_t mesh = mr->node >= 0 ? s->nodes[mr->node].mesh : -1;
            mr->targets = mesh >= 0 ? s->meshes[mesh].weight_count : 0;
            float *vals = NULL;
            double *times = NULL;
            if (mr->targets && keys) {
                size_t nv;
                if (!kiln_size_mul(keys, mr->targets, &nv)) return nomem(b, "morph keys");
                vals = kiln_arena_array(&b->tmp, nv, sizeof *vals);
                times = kiln_arena_array(&b->tmp, keys, sizeof *times);
                if (!vals || !times) return nomem(b, "morph keys");
            }
            bool ok = true;
            for (uint32_t k = 0; k < keys; k++) {
                const assimp_doc_morph_key *key = &dc->keys[k];
                double t = key->time / tps;
                for (uint32_t p = 0; p < key->value_count; p++) {
                    uint32_t target = key->values[p].target;
                    double w = key->values[p].weight;
                    if (vals && target < mr->targets && isfinite(w))
                        vals[(size_t)k * mr->targets + target] = (float)w;
                }
                if (times) {
                    times[k] = t;
                    if (!isfinite(t) || (k && t < times[k - 1])) ok = false;
                }
            }
            mr->k = (assimp_keys){vals ? keys : 0, times, vals};
            if (!vals || !ok) {
                mr->k.count = 0;
                if (!kiln_scene_warn(s,
                                     "animation \"%s\": blend shape channel \"%s\" not imported "
                                     "(%s)",
                                     an->name, name,
                                     !mr->targets ? "assimp gave its mesh no blend shapes"
                                                  : "bad keys"))
                    return nomem(b, "a warning");
                continue;
            }
            if (last_time(&mr->k) > duration) duration = last_time(&mr->k);
            channels++;
        }
        if (!channels) {
            if (!kiln_scene_warn(s, "animation \"%s\" animates nothing kiln imports; dropped",
                                 an->name))
                return nomem(b, "a warning");
            continue;
        }
        uint32_t count = kiln_assimp_bake_count(duration, b->fps, MAX_BAKED_KEYS);
        if (!count)
            return kiln_error_set(b->err, KILN_E_LIMIT,
                                  "animation \"%s\" lasts %g s: past %u keys at "
                                  "%u fps",
                                  an->name, duration, MAX_BAKED_KEYS, b->fps);
        kiln_scene_channel *chs = kiln_arena_array(b->a, channels, sizeof *chs);
        if (!chs) return nomem(b, "channels");
        uint32_t at = 0;
        static const kiln_scene_path paths[3] = {KILN_SCENE_PATH_TRANSLATION,
                                                 KILN_SCENE_PATH_ROTATION, KILN_SCENE_PATH_SCALE};
        for (uint32_t c = 0; c < cn; c++) {
            if (!raws[c].ok) continue;
            for (int p = 0; p < 3; p++) {
                if (!raws[c].k[p].count) continue;
                kiln_scene_channel *ch = &chs[at++];
                if (!kiln_assimp_bake(b->a, &raws[c].k[p], p == 1 ? 4 : 3, p == 1, duration, b->fps,
                                      count, ch))
                    return nomem(b, "baked keys");
                ch->node = (uint32_t)raws[c].node;
                ch->path = paths[p];
                if (s->nodes[raws[c].node].parent < 0 && !b->conv_identity)
                    convert_root_keys(b, ch);
                uint32_t fixed = clean_keys(ch);
                if (fixed && !kiln_scene_warn(s,
                                              "animation \"%s\": %u keys of node \"%s\" "
                                              "overflowed and were reset",
                                              an->name, fixed, s->nodes[ch->node].name))
                    return nomem(b, "a warning");
            }
        }
        for (uint32_t c = 0; c < mn; c++) {
            if (!mraws[c].k.count) continue;
            kiln_scene_channel *ch = &chs[at++];
            if (!kiln_assimp_bake(b->a, &mraws[c].k, mraws[c].targets, false, duration, b->fps,
                                  count, ch))
                return nomem(b, "baked keys");
            ch->node = (uint32_t)mraws[c].node;
            ch->path = KILN_SCENE_PATH_WEIGHTS;
            uint32_t fixed = clean_keys(ch);
            if (fixed && !kiln_scene_warn(s,
                                          "animation \"%s\": %u weight keys of node \"%s\" "
                                          "overflowed and were reset",
                                          an->name, fixed, s->nodes[ch->node].name))
                return nomem(b, "a warning");
        }
        an->channels = chs;
        an->channel_count = at;
        an->start = 0;
        an->end = (float)duration;
        kept++;
    }
    s->animations = anims;
    s->animation_count = kept;
    return KILN_OK;
}

/* ---- the whole
 * ------------------------------------------------------------------------------------ */

static kiln_result build_all(build *b)
{
    kiln_scene *s = b->s;
    const assimp_doc *d = b->doc;
    if (KILN_NEVER(d->format != KILN_ASSIMP_FBX && d->format != KILN_ASSIMP_OBJ))
        return inconsistent(b, "format");
    kiln_result r = conversion(b);
    if (r) return r;
    for (uint32_t i = 0; i < d->warning_count; i++)
        if (!kiln_scene_warn(s, "%s", d->warnings[i])) return nomem(b, "a warning");
    for (uint32_t i = 0; i < d->file_count; i++) {
        const char *name = d->files[i].name;
        if (!b->base_dir || !kiln_path_is_safe_relative(name)) continue;
        char path[KILN_PATH_MAX];
        if (kiln_path_join(b->base_dir, name, path, sizeof path, NULL) != KILN_OK) continue;
        if (!kiln_scene_add_file(s, path)) return nomem(b, "the file list");
        if (!d->files[i].found &&
            !kiln_scene_warn(s, "\"%s\" (named by the model) not found", name))
            return nomem(b, "a warning");
    }
    b->embedded = d->embedded;
    b->embedded_count = d->embedded_count;
    if ((r = make_materials(b))) return r;
    b->mesh_count = d->mesh_count;
    if (b->mesh_count && !(b->meshes = kiln_arena_array(&b->tmp, b->mesh_count, sizeof *b->meshes)))
        return nomem(b, "meshes");
    for (uint32_t i = 0; i < b->mesh_count; i++)
        if ((r = make_mesh(b, &d->meshes[i], &b->meshes[i]))) return r;
    if ((r = make_nodes(b))) return r;
    if ((r = make_animations(b))) return r;
    s->images = b->images;
    s->image_count = b->image_count;
    s->textures = b->textures;
    s->texture_count = b->texture_count;
    return KILN_OK;
}

kiln_result kiln_assimp_build(assimp_doc *doc, const char *base_dir, const kiln_assimp_opts *opts,
                              uint32_t flags, kiln_scene *scene, kiln_error *err)
{
    build b;
    memset(&b, 0, sizeof b);
    b.s = scene;
    b.a = kiln_scene_arena(scene);
    kiln_arena_init(&b.tmp, &b.a->allocator, b.a->limit);
    b.doc = doc;
    b.err = err;
    b.base_dir = base_dir;
    b.o = opts;
    b.flags = flags;
    b.fps = opts->animation_fps ? opts->animation_fps : 30;
    b.samplers[0] = b.samplers[1] = b.samplers[2] = -1;
    kiln_result r = build_all(&b);
    kiln_arena_release(&b.tmp);
    return r;
}
