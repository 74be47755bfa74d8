/* assimp_blob_read.c — the blob of the assimp child (assimp_private.h) into an assimp_doc
 * (assimp_doc.h). The blob comes from a process that ran assimp over untrusted input, so it is
 * untrusted too: every count is checked against the bytes that remain before anything is
 * allocated for it, every string against MAX_NAME, every node's parent and mesh reference and
 * every index against its array; anything else is refused as "damaged at byte N". Values are
 * copied as they are: what they mean (non-finite numbers, names, units) is the build's
 * business (assimp_scene.c). */
#include "import/assimp_private.h"

#include <string.h>

#include "core/alloc.h"

#define MAX_NAME 65536u

typedef struct blob_in {
    kiln_reader r;
    kiln_scene *s;
    kiln_arena *keep; /* the scene's arena: what the scene will hold */
    kiln_arena *tmp;  /* the rest of the doc */
    kiln_error *err;
    assimp_doc *doc;
} blob_in;

static kiln_result damaged(blob_in *b, const char *what)
{
    return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                          "assimp's result is damaged at byte %zu (%s)", b->r.pos, what);
}

static kiln_result nomem(blob_in *b, const char *what)
{
    if (b->tmp->over_limit)
        return kiln_error_set(b->err, KILN_E_LIMIT, "%s: past the memory limit", what);
    return kiln_scene_alloc_error(b->s, b->err, what);
}

/* damaged() when the reader failed, else nomem(): what a NULL from rd_str or rd_floats means. */
static kiln_result failed(blob_in *b, const char *damaged_what, const char *nomem_what)
{
    return b->r.failed ? damaged(b, damaged_what) : nomem(b, nomem_what);
}

static uint32_t rd_u32(blob_in *b) { return kiln_read_u32le(&b->r); }
static int32_t rd_i32(blob_in *b) { return (int32_t)kiln_read_u32le(&b->r); }
static float rd_f32(blob_in *b) { return kiln_read_f32le(&b->r); }
static double rd_f64(blob_in *b) { return kiln_read_f64le(&b->r); }

/* A count of items each at least min_size bytes long; 0 and failure when they cannot fit. */
static uint32_t rd_count(blob_in *b, size_t min_size)
{
    uint32_t n = rd_u32(b);
    if (b->r.failed) return 0;
    if (min_size && n > (b->r.size - b->r.pos) / min_size) {
        b->r.failed = true;
        return 0;
    }
    return n;
}

static const char *rd_str(blob_in *b, kiln_arena *a)
{
    uint32_t n = rd_u32(b);
    if (n > MAX_NAME) b->r.failed = true;
    const uint8_t *p = kiln_reader_take(&b->r, n);
    if (!p) return NULL;
    char *s = kiln_arena_alloc(a, (size_t)n + 1, 1);
    if (!s) return NULL;
    memcpy(s, p, n);
    for (uint32_t i = 0; i < n; i++)
        if (!s[i]) s[i] = '?'; /* a NUL inside a name would cut it short */
    return s;
}

/* count floats copied out of the blob (unaligned there) into a; NaN and infinities stay. */
static float *rd_floats(blob_in *b, size_t count, kiln_arena *a)
{
    size_t bytes;
    if (!kiln_size_mul(count, 4, &bytes)) {
        b->r.failed = true;
        return NULL;
    }
    const uint8_t *p = kiln_reader_take(&b->r, bytes);
    if (!p || !count) return NULL;
    float *f = kiln_arena_alloc(a, bytes, 16);
    if (f) memcpy(f, p, bytes);
    return f;
}

/* ---- header, warnings, files, embedded textures ---------------------------------------------- */

static kiln_result read_head(blob_in *b)
{
    assimp_doc *d = b->doc;
    if (rd_u32(b) != ASSIMP_BLOB_MAGIC || rd_u32(b) != ASSIMP_BLOB_VERSION)
        return damaged(b, "header");
    uint32_t format = rd_u32(b);
    if (format != KILN_ASSIMP_FBX && format != KILN_ASSIMP_OBJ) return damaged(b, "format");
    d->format = (kiln_assimp_format)format;
    d->unit_scale_factor = rd_f64(b);
    for (int i = 0; i < 6; i++) d->axes[i] = rd_i32(b);
    if (b->r.failed) return damaged(b, "header");
    /* A count that cannot fit is noticed at the embedded textures (the reader stays failed). */
    uint32_t wn = rd_count(b, 4);
    if (wn && !(d->warnings = kiln_arena_array(b->tmp, wn, sizeof *d->warnings)))
        return nomem(b, "a warning");
    for (uint32_t i = 0; i < wn && !b->r.failed; i++) {
        if (!(d->warnings[i] = rd_str(b, b->tmp))) return failed(b, "warnings", "a warning");
        d->warning_count++;
    }
    uint32_t fn = rd_count(b, 8);
    if (fn && !(d->files = kiln_arena_array(b->tmp, fn, sizeof *d->files)))
        return nomem(b, "a file name");
    for (uint32_t i = 0; i < fn && !b->r.failed; i++) {
        assimp_doc_file *f = &d->files[i];
        f->name = rd_str(b, b->tmp);
        f->found = rd_u32(b) != 0;
        if (!f->name) return failed(b, "files", "a file name");
        d->file_count++;
    }
    d->embedded_count = rd_count(b, 20);
    if (b->r.failed) return damaged(b, "embedded textures");
    if (d->embedded_count &&
        !(d->embedded = kiln_arena_array(b->tmp, d->embedded_count, sizeof *d->embedded)))
        return nomem(b, "embedded textures");
    for (uint32_t i = 0; i < d->embedded_count; i++) {
        assimp_doc_embedded *e = &d->embedded[i];
        if (!(e->name = rd_str(b, b->tmp)) || !(e->format_hint = rd_str(b, b->tmp)))
            return failed(b, "an embedded texture", "a name");
        e->width = rd_u32(b), e->height = rd_u32(b), e->size = rd_u32(b);
        /* The bytes stay in the blob. */
        if (!(e->bytes = kiln_reader_take(&b->r, e->size)) && e->size)
            return damaged(b, "an embedded texture");
    }
    return KILN_OK;
}

/* ---- materials
 * ----------------------------------------------------------------------------------- */

static kiln_result read_materials(blob_in *b)
{
    assimp_doc *d = b->doc;
    uint32_t n = rd_count(b, 4 + 13 * 4);
    if (b->r.failed) return damaged(b, "materials");
    if (n && !(d->materials = kiln_arena_array(b->tmp, n, sizeof *d->materials)))
        return nomem(b, "materials");
    for (uint32_t i = 0; i < n; i++) {
        assimp_doc_material *m = &d->materials[i];
        if (!(m->name = rd_str(b, b->keep))) return failed(b, "a material", "a name");
        for (int k = 0; k < 4; k++) m->base[k] = rd_f32(b);
        for (int k = 0; k < 3; k++) m->emissive[k] = rd_f32(b);
        m->opacity = rd_f32(b), m->shininess = rd_f32(b);
        m->metallic = rd_f32(b), m->roughness = rd_f32(b);
        m->flags = rd_u32(b);
        uint32_t tn = rd_count(b, 16);
        if (b->r.failed) return damaged(b, "a material");
        if (tn && !(m->textures = kiln_arena_array(b->tmp, tn, sizeof *m->textures)))
            return nomem(b, "a texture");
        for (uint32_t t = 0; t < tn; t++) {
            assimp_doc_texture *tx = &m->textures[t];
            tx->type = rd_u32(b), tx->uv = rd_u32(b), tx->mode = rd_u32(b);
            if (!(tx->path = rd_str(b, b->tmp))) return failed(b, "a texture", "a name");
        }
        m->texture_count = tn;
        d->material_count++;
    }
    return KILN_OK;
}

/* ---- meshes
 * --------------------------------------------------------------------------------------- */

static kiln_result read_mesh(blob_in *b, assimp_doc_mesh *m, uint32_t index)
{
    if (!(m->name = rd_str(b, b->keep))) return failed(b, "a mesh", "a name");
    m->material = rd_u32(b);
    uint32_t v = rd_u32(b), icount = rd_u32(b), mflags = rd_u32(b);
    uint32_t uvs = rd_u32(b), colors = rd_u32(b);
    if (b->r.failed || !v || icount % 3 || uvs > ASSIMP_MAX_SETS || colors > ASSIMP_MAX_SETS ||
        v > (b->r.size - b->r.pos) / 12)
        return damaged(b, "a mesh header");
    m->vertex_count = v;
    if (!(m->positions = rd_floats(b, (size_t)v * 3, b->keep)))
        return failed(b, "positions", "positions");
    if ((mflags & ASSIMP_MESH_NORMALS) && !(m->normals = rd_floats(b, (size_t)v * 3, b->keep)))
        return failed(b, "normals", "normals");
    if ((mflags & ASSIMP_MESH_TANGENTS) && !(m->tangents = rd_floats(b, (size_t)v * 4, b->keep)))
        return failed(b, "tangents", "tangents");
    /* Sets kiln drops are only read past. */
    for (uint32_t k = 0; k < uvs; k++) {
        kiln_arena *a = k < KILN_SCENE_MAX_UV_SETS ? b->keep : b->tmp;
        if (!(m->uvs[k] = rd_floats(b, (size_t)v * 2, a))) return failed(b, "UVs", "UVs");
        m->uv_count++;
    }
    for (uint32_t k = 0; k < colors; k++) {
        kiln_arena *a = k < KILN_SCENE_MAX_COLOR_SETS ? b->keep : b->tmp;
        if (!(m->colors[k] = rd_floats(b, (size_t)v * 4, a)))
            return failed(b, "colours", "colours");
        m->color_count++;
    }
    size_t ibytes;
    if (!kiln_size_mul(icount, 4, &ibytes)) return damaged(b, "indices");
    const uint8_t *ip = kiln_reader_take(&b->r, ibytes);
    if (!ip) return damaged(b, "indices");
    uint32_t *idx = kiln_arena_alloc(b->keep, ibytes ? ibytes : 4, 16);
    if (!idx) return nomem(b, "indices");
    memcpy(idx, ip, ibytes);
    for (uint32_t i = 0; i < icount; i++)
        if (idx[i] >= v)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                                  "mesh %u (\"%s\"): index %u is past its %u vertices", index,
                                  m->name, idx[i], v);
    m->indices = idx;
    m->index_count = icount;
    uint32_t bn = rd_count(b, 4 + 64 + 4);
    if (b->r.failed) return damaged(b, "bones");
    if (bn && !(m->bones = kiln_arena_array(b->tmp, bn, sizeof *m->bones)))
        return nomem(b, "bones");
    for (uint32_t k = 0; k < bn; k++) {
        assimp_doc_bone *bo = &m->bones[k];
        if (!(bo->name = rd_str(b, b->tmp))) return failed(b, "a bone", "a name");
        for (int e = 0; e < 16; e++) bo->offset[e] = rd_f32(b);
        uint32_t wn = rd_count(b, 8);
        const uint8_t *w = kiln_reader_take(&b->r, (size_t)wn * 8);
        if (b->r.failed) return damaged(b, "bone weights");
        if (wn && !(bo->weights = kiln_arena_array(b->tmp, wn, sizeof *bo->weights)))
            return nomem(b, "bone weights");
        for (uint32_t i = 0; i < wn; i++) {
            bo->weights[i].vertex = kiln_load_u32le(w + (size_t)i * 8);
            bo->weights[i].weight = kiln_load_f32le(w + (size_t)i * 8 + 4);
        }
        bo->weight_count = wn;
        m->bone_count++;
    }
    uint32_t tn = rd_count(b, 16);
    if (b->r.failed) return damaged(b, "morph targets");
    if (tn && !(m->targets = kiln_arena_array(b->tmp, tn, sizeof *m->targets)))
        return nomem(b, "morph targets");
    for (uint32_t k = 0; k < tn; k++) {
        assimp_doc_target *t = &m->targets[k];
        if (!(t->name = rd_str(b, b->keep))) return failed(b, "a morph target", "a name");
        t->weight = rd_f32(b);
        uint32_t tf = rd_u32(b);
        if ((tf & ASSIMP_TARGET_POSITIONS) &&
            !(t->positions = rd_floats(b, (size_t)v * 3, b->keep)))
            return failed(b, "morph deltas", "morph deltas");
        if ((tf & ASSIMP_TARGET_NORMALS) && !(t->normals = rd_floats(b, (size_t)v * 3, b->keep)))
            return failed(b, "morph deltas", "morph deltas");
        m->target_count++;
    }
    return KILN_OK;
}

/* ---- nodes ----------------------------------------------------------------------------------- */

static kiln_result read_nodes(blob_in *b)
{
    assimp_doc *d = b->doc;
    uint32_t n = rd_count(b, 4 + 4 + 64 + 4);
    if (b->r.failed || !n) return damaged(b, "nodes");
    if (!(d->nodes = kiln_arena_array(b->tmp, n, sizeof *d->nodes))) return nomem(b, "nodes");
    for (uint32_t i = 0; i < n; i++) {
        assimp_doc_node *nd = &d->nodes[i];
        if (!(nd->name = rd_str(b, b->keep))) return failed(b, "a node", "a name");
        nd->parent = rd_i32(b);
        for (int k = 0; k < 16; k++) nd->matrix[k] = rd_f32(b);
        uint32_t refs = rd_count(b, 4);
        if (b->r.failed) return damaged(b, "a node");
        if (nd->parent >= (int32_t)i || nd->parent < -1) return damaged(b, "a node's parent");
        if (refs && !(nd->meshes = kiln_arena_array(b->tmp, refs, sizeof *nd->meshes)))
            return nomem(b, "mesh references");
        for (uint32_t k = 0; k < refs; k++)
            if ((nd->meshes[k] = rd_u32(b)) >= d->mesh_count) return damaged(b, "a mesh reference");
        nd->mesh_count = refs;
        d->node_count++;
    }
    return KILN_OK;
}

/* ---- animations
 * ------------------------------------------------------------------------------------ */

/* Keys of one property: count, then (f64 ticks, f32 value[components]) each. */
static kiln_result read_keys(blob_in *b, uint32_t components, assimp_doc_keys *k)
{
    k->count = rd_count(b, 8 + (size_t)components * 4);
    if (b->r.failed) return damaged(b, "animation keys");
    if (!k->count) return KILN_OK;
    k->times = kiln_arena_array(b->tmp, k->count, sizeof *k->times);
    k->values = kiln_arena_array(b->tmp, k->count, (size_t)components * sizeof *k->values);
    if (!k->times || !k->values) return nomem(b, "animation keys");
    for (uint32_t i = 0; i < k->count; i++) {
        k->times[i] = rd_f64(b);
        for (uint32_t c = 0; c < components; c++) k->values[(size_t)i * components + c] = rd_f32(b);
    }
    return b->r.failed ? damaged(b, "animation keys") : KILN_OK;
}

static kiln_result read_morph_channel(blob_in *b, assimp_doc_morph_channel *mc)
{
    mc->name = rd_str(b, b->tmp);
    uint32_t keys = rd_count(b, 12);
    if (!mc->name || b->r.failed) return failed(b, "a morph channel", "a name");
    if (keys && !(mc->keys = kiln_arena_array(b->tmp, keys, sizeof *mc->keys)))
        return nomem(b, "morph keys");
    for (uint32_t k = 0; k < keys; k++) {
        assimp_doc_morph_key *key = &mc->keys[k];
        key->time = rd_f64(b);
        uint32_t pairs = rd_count(b, 12);
        if (pairs && !(key->values = kiln_arena_array(b->tmp, pairs, sizeof *key->values)))
            return nomem(b, "morph keys");
        for (uint32_t p = 0; p < pairs; p++) {
            key->values[p].target = rd_u32(b);
            key->values[p].weight = rd_f64(b);
        }
        if (b->r.failed) return damaged(b, "morph keys");
        key->value_count = pairs;
        mc->key_count++;
    }
    return KILN_OK;
}

static kiln_result read_animations(blob_in *b)
{
    assimp_doc *d = b->doc;
    uint32_t n = rd_count(b, 4 + 16 + 8);
    if (b->r.failed) return damaged(b, "animations");
    if (n && !(d->animations = kiln_arena_array(b->tmp, n, sizeof *d->animations)))
        return nomem(b, "animations");
    for (uint32_t i = 0; i < n; i++) {
        assimp_doc_animation *an = &d->animations[i];
        if (!(an->name = rd_str(b, b->keep))) return failed(b, "an animation", "a name");
        an->duration = rd_f64(b), an->ticks_per_second = rd_f64(b);
        uint32_t cn = rd_count(b, 4 + 12);
        if (b->r.failed) return damaged(b, "an animation");
        if (cn && !(an->channels = kiln_arena_array(b->tmp, cn, sizeof *an->channels)))
            return nomem(b, "channels");
        for (uint32_t c = 0; c < cn; c++) {
            assimp_doc_channel *ch = &an->channels[c];
            if (!(ch->node = rd_str(b, b->tmp))) return failed(b, "a channel", "a name");
            kiln_result r;
            if ((r = read_keys(b, 3, &ch->keys[0])) || (r = read_keys(b, 4, &ch->keys[1])) ||
                (r = read_keys(b, 3, &ch->keys[2])))
                return r;
            an->channel_count++;
        }
        uint32_t mn = rd_count(b, 8);
        if (b->r.failed) return damaged(b, "morph channels");
        if (mn && !(an->morphs = kiln_arena_array(b->tmp, mn, sizeof *an->morphs)))
            return nomem(b, "morph channels");
        for (uint32_t c = 0; c < mn; c++) {
            kiln_result r = read_morph_channel(b, &an->morphs[c]);
            if (r) return r;
            an->morph_count++;
        }
        d->animation_count++;
    }
    return KILN_OK;
}

/* ---- the whole
 * ------------------------------------------------------------------------------------ */

kiln_result kiln_assimp_blob_read(const uint8_t *blob, size_t size, kiln_scene *scene,
                                  kiln_arena *tmp, assimp_doc *doc, kiln_error *err)
{
    memset(doc, 0, sizeof *doc);
    blob_in b = {kiln_reader_make(blob, size), scene, kiln_scene_arena(scene), tmp, err, doc};
    kiln_result r;
    if ((r = read_head(&b)) || (r = read_materials(&b))) return r;
    uint32_t mn = rd_count(&b, 28);
    if (b.r.failed) return damaged(&b, "meshes");
    if (mn && !(doc->meshes = kiln_arena_array(tmp, mn, sizeof *doc->meshes)))
        return nomem(&b, "meshes");
    for (uint32_t i = 0; i < mn; i++) {
        if ((r = read_mesh(&b, &doc->meshes[i], i))) return r;
        doc->mesh_count++;
    }
    if ((r = read_nodes(&b)) || (r = read_animations(&b))) return r;
    if (b.r.pos != b.r.size) return damaged(&b, "trailing bytes");
    return KILN_OK;
}
