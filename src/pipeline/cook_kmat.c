/* cook_kmat.c — a .kmat typed material cooked against its shaders into one TMAT container: the
 * chain of parents read and merged (import/kmat.h), the two shaders' cooked files taken from
 * the cache (or cooked now), the parameter block packed from the fragment shader's reflection,
 * the stage interfaces, textures and alpha checked (process/material_block.h), the textures and
 * shaders named by asset id. Paths in a .kmat are relative to its own file, or to the project
 * root with a leading '/'; every one stays inside the asset root. docs/shaders.md, "Typed
 * materials". */
#include "pipeline/cook_kmat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/path.h"
#include "import/kmat.h"
#include "pipeline/cache.h"
#include "pipeline/source.h"
#include "process/material_block.h"
#include "write/typed_material_write.h"

#define KMAT_MAX_SIZE ((size_t)16 << 20) /* a .kmat document */

/* The documents of a material: [0] the material, [i + 1] the parent of [i]. Every path in them
 * rewritten to "/<root-relative>" so that the merge keeps where each one points. */
typedef struct kmat_chain {
    kiln_kmat docs[KILN_KMAT_MAX_DEPTH];
    char rels[KILN_KMAT_MAX_DEPTH][KILN_PATH_MAX]; /* each document's root-relative name */
    size_t count;
} kmat_chain;

static void chain_free(kmat_chain *c)
{
    for (size_t i = 0; i < c->count; i++) kiln_kmat_free(&c->docs[i]);
    c->count = 0;
}

/* written (relative to the folder of the document doc_rel, or to the root with a leading '/')
 * as a root-relative path in out; false when it leaves the root. */
static bool ref_path(const char *doc_rel, const char *written, char *out, size_t cap)
{
    char dir[KILN_PATH_MAX], joined[KILN_PATH_MAX];
    if (written[0] == '/') {
        snprintf(dir, sizeof dir, "%s", "");
        written++;
    } else if (!kiln_path_dirname(doc_rel, dir, sizeof dir) || !strcmp(dir, ".")) {
        dir[0] = '\0';
    }
    if (!kiln_path_format(joined, sizeof joined, "%s%s%s", dir, dir[0] ? "/" : "", written))
        return false;
    if (kiln_path_normalize(joined, out, cap, NULL) != KILN_OK) return false;
    return out[0] && out[0] != '/' && strcmp(out, ".") && strcmp(out, "..") &&
           strncmp(out, "../", 3);
}

/* Replaces *s (a path as written in doc_rel) with "/<root-relative>". */
static kiln_result rebase_one(kiln_kmat *m, char **s, const char *doc_rel, const char *pointer,
                              kiln_error *err)
{
    if (!*s) return KILN_OK;
    char rel[KILN_PATH_MAX], rooted[KILN_PATH_MAX + 1];
    if (!ref_path(doc_rel, *s, rel, sizeof rel)) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "%s: \"%.200s\" leads outside the project root; allowed: a path relative "
                       "to the .kmat, or to the root with a leading /",
                       doc_rel, *s);
        kiln_error_at_pointer(err, pointer);
        return KILN_E_IMPORT_SETTINGS;
    }
    snprintf(rooted, sizeof rooted, "/%s", rel);
    char *copy = kiln_strdup(&m->allocator, rooted);
    if (!copy) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_free(&m->allocator, *s, strlen(*s) + 1);
    *s = copy;
    return KILN_OK;
}

static kiln_result rebase(kiln_kmat *m, const char *doc_rel, kiln_error *err)
{
    kiln_result r = rebase_one(m, &m->parent, doc_rel, "/parent", err);
    if (r == KILN_OK) r = rebase_one(m, &m->vertex.shader, doc_rel, "/vertex", err);
    if (r == KILN_OK) r = rebase_one(m, &m->fragment.shader, doc_rel, "/fragment", err);
    for (size_t i = 0; r == KILN_OK && i < m->texture_count; i++)
        r = rebase_one(m, &m->textures[i].texture, doc_rel, m->textures[i].pointer, err);
    return r;
}

/* root/rel read with the read rule (it must resolve inside the root). */
static kiln_result read_inside(const char *root, const char *rel, uint8_t **data, size_t *size,
                               kiln_error *err)
{
    char abs[KILN_PATH_MAX];
    if (!kiln_path_format(abs, sizeof abs, "%s/%s", root, rel))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", rel);
    kiln_result r = kiln_path_confine_read(abs, root, NULL, 0, err);
    if (r == KILN_OK) r = kiln_file_read(abs, KMAT_MAX_SIZE, NULL, data, size, err);
    if (r != KILN_OK) kiln_error_prefix(err, "%s: ", rel);
    return r;
}

/* The material (source bytes, root-relative name rel) and its parents, each parsed and rebased;
 * a cycle or a chain longer than KILN_KMAT_MAX_DEPTH is E_IMPORT_SETTINGS at /parent. */
static kiln_result chain_load(const char *root, const char *rel, const uint8_t *source, size_t size,
                              kmat_chain *c, kiln_error *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->rels[0], sizeof c->rels[0], "%s", rel);
    kiln_result r = kiln_kmat_parse((const char *)source, size, NULL, &c->docs[0], err);
    c->count = 1; /* freed by chain_free whatever happens (a failed parse leaves it zeroed) */
    if (r == KILN_OK) r = rebase(&c->docs[0], rel, err);
    if (r != KILN_OK) kiln_error_prefix(err, "%s: ", rel);
    while (r == KILN_OK && c->docs[c->count - 1].parent) {
        const char *parent = c->docs[c->count - 1].parent + 1; /* rebased: "/<rel>" */
        const char *child = c->rels[c->count - 1];
        for (size_t i = 0; i < c->count && r == KILN_OK; i++)
            if (!strcmp(c->rels[i], parent))
                r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                                   "%s: parent %s makes a cycle (it is already in the chain)",
                                   child, parent);
        if (r == KILN_OK && c->count == KILN_KMAT_MAX_DEPTH)
            r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                               "%s: more than %u materials in the chain of parents", rel,
                               KILN_KMAT_MAX_DEPTH);
        if (r != KILN_OK) {
            kiln_error_at_pointer(err, "/parent");
            break;
        }
        uint8_t *data = NULL;
        size_t n = 0;
        if ((r = read_inside(root, parent, &data, &n, err)) != KILN_OK) break;
        snprintf(c->rels[c->count], sizeof c->rels[c->count], "%s", parent);
        r = kiln_kmat_parse((const char *)data, n, NULL, &c->docs[c->count], err);
        kiln_free(NULL, data, n + 1);
        if (r == KILN_OK) r = rebase(&c->docs[c->count], parent, err);
        c->count++; /* counted even when it failed: chain_free frees it (a zeroed one too) */
        if (r != KILN_OK) kiln_error_prefix(err, "%s: ", parent);
    }
    if (r != KILN_OK) chain_free(c);
    return r;
}

kiln_result kiln_kmat_source_dependencies(const char *root, const char *rel, const uint8_t *source,
                                          size_t size, kiln_dep_fn fn, void *user, kiln_error *err)
{
    kmat_chain c;
    kiln_result r = chain_load(root, rel, source, size, &c, err);
    if (r != KILN_OK) return r;
    const kiln_kmat *m = &c.docs[0];
    /* Its own references: what the parent refers to is in the parent's key. */
    const char *refs[3] = {m->parent, m->vertex.shader, m->fragment.shader};
    char abs[KILN_PATH_MAX];
    for (size_t i = 0; r == KILN_OK && i < 3 + m->texture_count; i++) {
        const char *ref = i < 3 ? refs[i] : m->textures[i - 3].texture;
        if (!ref) continue;
        if (!kiln_path_format(abs, sizeof abs, "%s%s", root, ref))
            r = kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", ref);
        else r = fn(user, abs, err);
    }
    chain_free(&c);
    return r;
}

/* ---- the shaders --------------------------------------------------------------------------- */

/* A shader the material draws with: its cooked bytes (from its cache entry when the entry is
 * there and reads back, else cooked now and not published) and its GUID. */
typedef struct stage_shader {
    uint8_t *bytes;
    size_t size;
    kiln_shader_view view;
    uint32_t variant;
    char guid[33];
    char rel[KILN_PATH_MAX];
} stage_shader;

static kiln_result stage_load(kiln_project *p, const char *root, const kiln_kmat_stage *st,
                              const char *pointer, uint32_t want_stage, stage_shader *out,
                              kiln_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->rel, sizeof out->rel, "%s", st->shader + 1);
    char abs[KILN_PATH_MAX];
    if (!kiln_path_format(abs, sizeof abs, "%s/%s", root, out->rel))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", out->rel);
    kiln_asset a;
    kiln_result r = kiln_database_find(p, abs, &a, err);
    if (r != KILN_OK) return r;
    if (a.kind != &kiln_source_kind_shader) {
        kiln_asset_clear(p, &a);
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s is not a shader (a %s)", out->rel,
                       kiln_source_kind_name(a.kind));
        kiln_error_at_pointer(err, pointer);
        return KILN_E_IMPORT_SETTINGS;
    }
    if (a.settings_result != KILN_OK) {
        r = a.settings_result;
        if (err) *err = *kiln_asset_settings_error(&a);
    }
    memcpy(out->guid, a.guid, sizeof out->guid);
    json_t *record = r == KILN_OK ? kiln_cache_record_load(p, a.guid) : NULL;
    kiln_source src;
    kiln_deps deps;
    char key[KILN_SHA256_HEX_SIZE];
    memset(&src, 0, sizeof src);
    memset(&deps, 0, sizeof deps);
    if (r == KILN_OK) r = kiln_asset_key(p, &a, record, false, &src, &deps, key, err);
    json_decref(record);
    char file[KILN_PATH_MAX];
    if (r == KILN_OK) {
        kiln_cache_entry_dir(p, key, file);
        size_t n = strlen(file);
        snprintf(file + n, sizeof file - n, "/shader.kshader");
        if (kiln_file_read(file, (size_t)1 << 30, &p->allocator, &out->bytes, &out->size, NULL) ==
                KILN_OK &&
            kiln_shader_read(out->bytes, out->size, 0, &out->view, NULL) != KILN_OK) {
            kiln_free(&p->allocator, out->bytes, out->size + 1);
            out->bytes = NULL;
        }
    }
    if (r == KILN_OK && !out->bytes) { /* not cooked yet (or damaged): cook it here */
        uint8_t *data = src.data;
        size_t size = src.size;
        if (!data)
            r = kiln_file_read(a.abs, KILN_SOURCE_MAX_SIZE, &p->allocator, &data, &size, err);
        kiln_cooked c;
        memset(&c, 0, sizeof c);
        if (r == KILN_OK) r = a.kind->cook(p, &a, data, size, &c, err);
        if (data != src.data) kiln_free(&p->allocator, data, size + 1);
        if (r == KILN_OK) {
            out->bytes = kiln_alloc(&p->allocator, c.outputs[0].size + 1);
            if (!out->bytes) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            else memcpy(out->bytes, c.outputs[0].data, out->size = c.outputs[0].size);
        }
        kiln_cooked_free(p, &c);
        if (r == KILN_OK) r = kiln_shader_read(out->bytes, out->size, 0, &out->view, err);
    }
    kiln_source_free(p, &src);
    kiln_deps_free(&deps);
    kiln_asset_clear(p, &a);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "shader %s: ", out->rel);
        return r;
    }
    int32_t v = st->variant ? kiln_shader_find_variant(&out->view, st->variant) : 0;
    if (v < 0) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "shader %s has no variant \"%.64s\"", out->rel,
                       st->variant);
        kiln_error_at_pointer(err, pointer);
        return KILN_E_IMPORT_SETTINGS;
    }
    out->variant = (uint32_t)v;
    if (out->view.stage != want_stage) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "shader %s is a %s shader; allowed: a %s shader", out->rel,
                       kiln_shader_stage_name(out->view.stage), kiln_shader_stage_name(want_stage));
        kiln_error_at_pointer(err, pointer);
        return KILN_E_IMPORT_SETTINGS;
    }
    return KILN_OK;
}

static void stage_free(kiln_project *p, stage_shader *s)
{
    if (s->bytes) kiln_free(&p->allocator, s->bytes, s->size + 1);
    s->bytes = NULL;
}

/* ---- the cook ------------------------------------------------------------------------------ */

static int texture_cmp(const void *x, const void *y)
{
    const kiln_typed_material_texture *a = x, *b = y;
    if (a->set != b->set) return a->set < b->set ? -1 : 1;
    return a->binding < b->binding ? -1 : a->binding > b->binding;
}

/* The binding of the sampled image or separate texture named name in the fragment shader. */
static bool image_binding(const stage_shader *f, const char *name, uint32_t *set, uint32_t *binding)
{
    kiln_shader_variant_info vi = kiln_shader_variant_at(&f->view, f->variant);
    for (uint32_t i = 0; i < vi.binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(&f->view, f->variant, i);
        if ((b.resource == KILN_SHADER_SAMPLED_IMAGE || b.resource == KILN_SHADER_SEPARATE_IMAGE) &&
            !strcmp(b.name, name)) {
            *set = b.set;
            *binding = b.binding;
            return true;
        }
    }
    return false;
}

/* The texture source a .kmat names: its asset id (label "texture"). */
static kiln_result texture_id(kiln_project *p, const char *root, const kiln_kmat_texture *t,
                              uint64_t *id, kiln_error *err)
{
    char abs[KILN_PATH_MAX];
    if (!kiln_path_format(abs, sizeof abs, "%s%s", root, t->texture))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", t->texture);
    kiln_asset a;
    kiln_result r = kiln_database_find(p, abs, &a, err);
    if (r == KILN_OK && a.kind != &kiln_source_kind_texture) {
        r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s is not a texture source (a %s)",
                           t->texture + 1, kiln_source_kind_name(a.kind));
        kiln_error_at_pointer(err, t->pointer);
    }
    if (r == KILN_OK) *id = kiln_asset_id(a.guid, "texture");
    if (r == KILN_OK || a.rel) kiln_asset_clear(p, &a);
    return r;
}

/* ---- templates ---------------------------------------------------------------------------- */

struct kiln_kmat_template {
    kiln_project *p;
    char rel[KILN_PATH_MAX];
    kmat_chain chain;
    kiln_kmat merged;   /* the chain merged (empty with one document) */
    const kiln_kmat *m; /* merged, or chain.docs[0] */
    stage_shader vs, fs;
    uint32_t block;                   /* in fs's variant; KILN_SHADER_NONE: no parameter block */
    kiln_typed_material_texture *tex; /* the material's own textures, bound and named by id */
    size_t nt;
};

void kiln_kmat_template_free(kiln_kmat_template *t)
{
    if (!t) return;
    kiln_project *p = t->p;
    kiln_free(&p->allocator, t->tex, (t->nt ? t->nt : 1) * sizeof *t->tex);
    stage_free(p, &t->vs);
    stage_free(p, &t->fs);
    kiln_kmat_free(&t->merged);
    chain_free(&t->chain);
    kiln_free(&p->allocator, t, sizeof *t);
}

kiln_result kiln_kmat_template_load(kiln_project *p, const char *root, const char *rel,
                                    const uint8_t *source, size_t size, kiln_kmat_template **out,
                                    kiln_error *err)
{
    *out = NULL;
    kiln_kmat_template *t = kiln_calloc(&p->allocator, 1, sizeof *t);
    if (!t) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    t->p = p;
    t->block = KILN_SHADER_NONE;
    snprintf(t->rel, sizeof t->rel, "%s", rel);
    kmat_chain *c = &t->chain;
    kiln_result r = chain_load(root, rel, source, size, c, err);
    if (r != KILN_OK) {
        kiln_free(&p->allocator, t, sizeof *t);
        return r;
    }
    /* Merged from the top parent down. */
    kiln_kmat next;
    t->m = &c->docs[c->count - 1];
    for (size_t i = c->count - 1; r == KILN_OK && i-- > 0;) {
        r = kiln_kmat_resolve(&c->docs[i], t->m, NULL, &next, err);
        kiln_kmat_free(&t->merged);
        t->merged = next;
        t->m = &t->merged;
    }
    const kiln_kmat *m = t->m;
    if (r == KILN_OK && (!m->vertex.shader || !m->fragment.shader)) {
        r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "%s names no %s shader", rel,
                           m->vertex.shader ? "fragment" : "vertex");
        kiln_error_at_pointer(err, m->vertex.shader ? "/fragment" : "/vertex");
    }
    if (r == KILN_OK)
        r = stage_load(p, root, &m->vertex, "/vertex", KILN_SHADER_VERTEX, &t->vs, err);
    if (r == KILN_OK)
        r = stage_load(p, root, &m->fragment, "/fragment", KILN_SHADER_FRAGMENT, &t->fs, err);
    if (r == KILN_OK)
        r = kiln_shader_interface_check(&t->vs.view, t->vs.variant, &t->fs.view, t->fs.variant,
                                        err);
    kiln_block_select sel = {m->block.pick, m->block.name, m->block.set, m->block.binding};
    if (r == KILN_OK)
        r = kiln_material_block_find(&t->fs.view, t->fs.variant, &sel, &t->block, err);
    if (r == KILN_OK && t->block == KILN_SHADER_NONE && m->param_count) {
        r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                           "%s gives parameters, but shader %s has no parameter block", rel,
                           t->fs.rel);
        kiln_error_at_pointer(err, "/parameters");
    }
    /* Its textures: bound to the fragment shader's images, named by asset id. */
    t->nt = m->texture_count;
    if (r == KILN_OK) {
        t->tex = kiln_calloc(&p->allocator, t->nt ? t->nt : 1, sizeof *t->tex);
        if (!t->tex) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; r == KILN_OK && i < t->nt; i++) {
        const kiln_kmat_texture *k = &m->textures[i];
        kiln_typed_material_texture *x = &t->tex[i];
        x->name = k->name;
        if (!image_binding(&t->fs, k->name, &x->set, &x->binding)) {
            r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                               "shader %s has no sampled image \"%.64s\"", t->fs.rel, k->name);
            kiln_error_at_pointer(err, k->pointer);
            break;
        }
        r = texture_id(p, root, k, &x->image, err);
        x->mag_filter = k->sampler.mag_filter;
        x->min_filter = k->sampler.min_filter;
        x->mip_filter = k->sampler.mip_filter;
        x->wrap_s = k->sampler.wrap_s;
        x->wrap_t = k->sampler.wrap_t;
    }
    if (r != KILN_OK) {
        kiln_kmat_template_free(t);
        return r;
    }
    *out = t;
    return KILN_OK;
}

const char *kiln_kmat_template_name(const kiln_kmat_template *t) { return t->rel; }

kiln_result kiln_kmat_template_load_file(kiln_project *p, const char *root, const char *rel,
                                         kiln_kmat_template **out, kiln_error *err)
{
    *out = NULL;
    uint8_t *data = NULL;
    size_t n = 0;
    kiln_result r = read_inside(root, rel, &data, &n, err);
    if (r == KILN_OK) r = kiln_kmat_template_load(p, root, rel, data, n, out, err);
    kiln_free(NULL, data, n + 1);
    return r;
}

/* Marks the overrides whose name is a leaf of the block (those the shader reads). */
typedef struct leaf_match {
    const kiln_material_param *params;
    size_t count;
    bool *found;
} leaf_match;

static void on_leaf(void *user, const kiln_material_leaf *leaf)
{
    leaf_match *lm = user;
    for (size_t i = 0; i < lm->count; i++)
        if (!strcmp(lm->params[i].name, leaf->path)) lm->found[i] = true;
}

/* The block: the overrides the shader reads (depth 0) over the template's parameters (each one
 * level deeper than in its document), packed. */
static kiln_result pack_block(const kiln_kmat_template *t, const kiln_kmat_overrides *o,
                              kiln_typed_material *tm, uint8_t **packed, size_t *packed_size,
                              json_t *sum, kiln_error *err)
{
    kiln_project *p = t->p;
    const kiln_kmat *m = t->m;
    const stage_shader *fs = &t->fs;
    size_t no = o ? o->param_count : 0, n = m->param_count + no;
    kiln_material_param *params = kiln_calloc(&p->allocator, n ? n : 1, sizeof *params);
    bool *found = kiln_calloc(&p->allocator, no ? no : 1, sizeof *found);
    kiln_result r =
        params && found ? KILN_OK : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    size_t k = 0;
    for (size_t i = 0; r == KILN_OK && i < m->param_count; i++)
        params[k++] =
            (kiln_material_param){m->params[i].name, &m->params[i].value,
                                  m->params[i].depth + (no ? 1u : 0u), m->params[i].pointer};
    leaf_match lm = {o ? o->params : NULL, no, found};
    if (r == KILN_OK && no)
        r = kiln_material_block_leaves(&fs->view, fs->variant, t->block, on_leaf, &lm, NULL, err);
    size_t used = 0;
    for (size_t i = 0; r == KILN_OK && i < no; i++)
        if (found[i]) {
            params[k] = o->params[i];
            params[k++].depth = 0;
            used++;
        }
    if (r == KILN_OK)
        r = kiln_material_block_pack(&fs->view, fs->variant, t->block, params, k, &p->allocator,
                                     packed, packed_size, err);
    kiln_free(&p->allocator, params, (n ? n : 1) * sizeof *params);
    kiln_free(&p->allocator, found, (no ? no : 1) * sizeof *found);
    if (r != KILN_OK) return r;
    if (o) json_object_set_new(sum, "overrides", json_integer((json_int_t)used));
    kiln_shader_variant_info vi = kiln_shader_variant_at(&fs->view, fs->variant);
    kiln_shader_block_info bi = kiln_shader_block_at(&fs->view, fs->variant, t->block);
    tm->block_name = bi.name;
    tm->block = *packed;
    tm->block_size = (uint32_t)*packed_size;
    tm->block_kind = t->block == vi.push_block ? KILN_TYPED_BLOCK_PUSH : KILN_TYPED_BLOCK_UNIFORM;
    for (uint32_t i = 0; tm->block_kind == KILN_TYPED_BLOCK_UNIFORM && i < vi.binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(&fs->view, fs->variant, i);
        if (b.block == t->block && (b.resource == KILN_SHADER_UNIFORM_BUFFER ||
                                    b.resource == KILN_SHADER_STORAGE_BUFFER)) {
            tm->block_set = b.set;
            tm->block_binding = b.binding;
            break;
        }
    }
    return KILN_OK;
}

/* The textures: the overrides for images the shader has, then the template's for the others;
 * every sampled image of the material's set needs one. *tex is allocated (count *nt). */
static kiln_result bind_textures(const kiln_kmat_template *t, const kiln_kmat_overrides *o,
                                 uint32_t set, kiln_typed_material_texture **tex, size_t *nt,
                                 kiln_error *err)
{
    kiln_project *p = t->p;
    size_t no = o ? o->texture_count : 0, cap = t->nt + no;
    kiln_typed_material_texture *x = kiln_calloc(&p->allocator, cap ? cap : 1, sizeof *x);
    const char **names = kiln_calloc(&p->allocator, cap ? cap : 1, sizeof *names);
    const char **ptrs = kiln_calloc(&p->allocator, cap ? cap : 1, sizeof *ptrs);
    kiln_result r =
        x && names && ptrs ? KILN_OK : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    size_t n = 0;
    for (size_t i = 0; r == KILN_OK && i < no; i++) {
        kiln_typed_material_texture b = o->textures[i];
        if (!image_binding(&t->fs, b.name, &b.set, &b.binding)) continue; /* not read */
        names[n] = b.name;
        ptrs[n] = NULL;
        x[n++] = b;
    }
    size_t from_overrides = n;
    for (size_t i = 0; r == KILN_OK && i < t->nt; i++) {
        bool taken = false;
        for (size_t k = 0; k < from_overrides && !taken; k++)
            taken = !strcmp(x[k].name, t->tex[i].name);
        if (taken) continue;
        names[n] = t->tex[i].name;
        ptrs[n] = t->m->textures[i].pointer;
        x[n++] = t->tex[i];
    }
    if (r == KILN_OK)
        r = kiln_material_textures_check(&t->fs.view, t->fs.variant, set, names, ptrs, n, err);
    if (r == KILN_OK) qsort(x, n, sizeof *x, texture_cmp);
    kiln_free(&p->allocator, names, (cap ? cap : 1) * sizeof *names);
    kiln_free(&p->allocator, ptrs, (cap ? cap : 1) * sizeof *ptrs);
    if (r != KILN_OK) {
        kiln_free(&p->allocator, x, (cap ? cap : 1) * sizeof *x);
        return r;
    }
    *tex = x;
    *nt = n;
    return KILN_OK;
}

kiln_result kiln_kmat_template_cook(const kiln_kmat_template *t, const kiln_kmat_overrides *o,
                                    uint8_t **bytes, size_t *size, json_t **summary,
                                    kiln_error *err)
{
    *bytes = NULL;
    *size = 0;
    *summary = NULL;
    kiln_project *p = t->p;
    const kiln_kmat_render_state *rs = &t->m->render_state;
    uint32_t alpha_mode = rs->alpha_mode, blend = rs->blend;
    float cutoff = rs->alpha_cutoff;
    bool double_sided = rs->double_sided, depth_write = rs->depth_write;
    if (o && o->has_render_state) { /* the glTF material says these */
        alpha_mode = o->alpha_mode;
        cutoff = o->alpha_mode == KILN_MATERIAL_ALPHA_MASK ? o->alpha_cutoff : 0.5f;
        double_sided = o->double_sided;
        bool blended = alpha_mode == KILN_MATERIAL_ALPHA_BLEND;
        blend = !blended                                ? KILN_MATERIAL_BLEND_NONE
                : rs->blend != KILN_MATERIAL_BLEND_NONE ? rs->blend
                                                        : KILN_MATERIAL_BLEND_ALPHA;
        if (!(rs->given & KILN_KMAT_GIVEN_DEPTH_WRITE)) depth_write = rs->depth_test && !blended;
    }
    kiln_result r = kiln_material_alpha_check(&t->fs.view, t->fs.variant, alpha_mode, err);
    json_t *sum = json_object();
    kiln_typed_material tm;
    memset(&tm, 0, sizeof tm);
    uint8_t *packed = NULL;
    size_t packed_size = 0;
    if (r == KILN_OK && t->block != KILN_SHADER_NONE)
        r = pack_block(t, o, &tm, &packed, &packed_size, sum, err);
    kiln_typed_material_texture *tex = NULL;
    size_t nt = 0;
    uint32_t set = tm.block_kind == KILN_TYPED_BLOCK_UNIFORM ? tm.block_set : 1;
    if (r == KILN_OK) r = bind_textures(t, o, set, &tex, &nt, err);
    size_t file_size = 0;
    if (r == KILN_OK) {
        tm.name = o && o->name ? o->name : kiln_path_basename(t->rel);
        tm.vertex =
            (kiln_typed_material_stage){kiln_asset_id(t->vs.guid, "shader"),
                                        kiln_shader_variant_at(&t->vs.view, t->vs.variant).name};
        tm.fragment =
            (kiln_typed_material_stage){kiln_asset_id(t->fs.guid, "shader"),
                                        kiln_shader_variant_at(&t->fs.view, t->fs.variant).name};
        tm.alpha_mode = alpha_mode;
        tm.alpha_cutoff = cutoff;
        tm.blend = blend;
        tm.flags = (double_sided ? KILN_TYPED_MATERIAL_DOUBLE_SIDED : 0u) |
                   (rs->depth_test ? KILN_TYPED_MATERIAL_DEPTH_TEST : 0u) |
                   (depth_write ? KILN_TYPED_MATERIAL_DEPTH_WRITE : 0u);
        tm.texture_count = (uint32_t)nt;
        tm.textures = tex;
        r = kiln_typed_material_write(&tm, &p->allocator, bytes, &file_size, err);
    }
    if (r == KILN_OK) {
        json_object_set_new(sum, "vertex", json_string(t->vs.rel));
        json_object_set_new(sum, "fragment", json_string(t->fs.rel));
        json_object_set_new(sum, "parents", json_integer((json_int_t)(t->chain.count - 1)));
        json_object_set_new(sum, "parameters", json_integer((json_int_t)t->m->param_count));
        json_object_set_new(sum, "block_size", json_integer((json_int_t)tm.block_size));
        json_object_set_new(sum, "textures", json_integer((json_int_t)nt));
        json_object_set_new(sum, "size", json_integer((json_int_t)file_size));
        *size = file_size;
        *summary = sum;
    } else {
        json_decref(sum);
    }
    kiln_free(&p->allocator, tex, (nt ? nt : 1) * sizeof *tex);
    if (packed) kiln_free(&p->allocator, packed, packed_size);
    return r;
}

kiln_result kiln_cook_kmat_source(kiln_project *p, const char *root, const char *rel,
                                  const uint8_t *source, size_t size, kiln_cooked *out,
                                  kiln_error *err)
{
    kiln_kmat_template *t = NULL;
    kiln_result r = kiln_kmat_template_load(p, root, rel, source, size, &t, err);
    uint8_t *bytes = NULL;
    size_t n = 0;
    json_t *sum = NULL;
    if (r == KILN_OK) r = kiln_kmat_template_cook(t, NULL, &bytes, &n, &sum, err);
    if (r == KILN_OK) {
        out->summary = sum;
        out->warnings = json_array();
        r = kiln_cooked_add(out, &p->allocator, KILN_KMAT_LABEL, KILN_KMAT_FILE, bytes, n, n, err);
    }
    kiln_kmat_template_free(t);
    return r;
}
