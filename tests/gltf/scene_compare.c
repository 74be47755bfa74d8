/* scene_compare.c — see scene_compare.h. */
#include "scene_compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            char msg_[256];                                                                        \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                                              \
            fail_msg("%s: %s", label, msg_);                                                       \
        }                                                                                          \
    } while (0)

static void check_ref(const kiln_scene *s, const kiln_scene_texture_ref *t, const char *label)
{
    CHECK(t->texture < (int32_t)s->texture_count, "texture ref %d", t->texture);
    CHECK(t->texcoord < KILN_SCENE_MAX_UV_SETS, "texcoord %u", t->texcoord);
}

void ks_check_invariants(const kiln_scene *s, const char *label)
{
    for (uint32_t i = 0; i < s->texture_count; i++) {
        CHECK(s->textures[i].image < (int32_t)s->image_count, "texture %u image", i);
        CHECK(s->textures[i].sampler < (int32_t)s->sampler_count, "texture %u sampler", i);
    }
    for (uint32_t i = 0; i < s->material_count; i++)
        for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++)
            check_ref(s, &s->materials[i].textures[k], label);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const kiln_scene_mesh *mesh = &s->meshes[m];
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const kiln_scene_primitive *pr = &mesh->primitives[p];
            CHECK(pr->positions && pr->vertex_count > 0, "mesh %u prim %u has no positions", m, p);
            CHECK(pr->index_count % 3 == 0, "mesh %u prim %u index count %u", m, p,
                  pr->index_count);
            CHECK(pr->material < (int32_t)s->material_count, "mesh %u prim %u material", m, p);
            for (uint32_t i = 0; i < pr->index_count; i++)
                CHECK(pr->indices[i] < pr->vertex_count, "mesh %u prim %u index %u", m, p, i);
            for (size_t v = 0; v < (size_t)pr->vertex_count * 3; v++) {
                CHECK(isfinite(pr->positions[v]), "mesh %u prim %u position %zu", m, p, v);
                CHECK(pr->positions[v] >= pr->bounds_min[v % 3] &&
                          pr->positions[v] <= pr->bounds_max[v % 3],
                      "mesh %u prim %u outside its bounds", m, p);
            }
            if (pr->normals)
                for (size_t v = 0; v < pr->vertex_count; v++) {
                    const float *n = pr->normals + v * 3;
                    float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                    CHECK(fabsf(len - 1.0f) < 1e-3f, "mesh %u prim %u normal %zu length %g", m, p,
                          v, (double)len);
                }
            for (size_t v = 0; v < pr->vertex_count && pr->joint_set_count; v++) {
                double sum = 0;
                for (uint32_t set = 0; set < pr->joint_set_count; set++)
                    for (int k = 0; k < 4; k++) sum += pr->weights[set][v * 4 + k];
                CHECK(fabs(sum - 1.0) < 1e-4, "mesh %u prim %u weights of vertex %zu sum to %g", m,
                      p, v, sum);
            }
            for (uint32_t t = 0; t < pr->target_count; t++)
                CHECK(pr->targets[t].positions || pr->targets[t].normals || pr->targets[t].tangents,
                      "mesh %u prim %u target %u is empty", m, p, t);
        }
    }
    for (uint32_t i = 0; i < s->node_count; i++) {
        const kiln_scene_node *n = &s->nodes[i];
        CHECK(n->parent < (int32_t)s->node_count, "node %u parent", i);
        CHECK(n->mesh < (int32_t)s->mesh_count && n->skin < (int32_t)s->skin_count &&
                  n->camera < (int32_t)s->camera_count && n->light < (int32_t)s->light_count,
              "node %u references", i);
        for (uint32_t k = 0; k < n->child_count; k++) {
            CHECK(n->children[k] < s->node_count, "node %u child %u", i, k);
            CHECK(s->nodes[n->children[k]].parent == (int32_t)i, "node %u child %u parent", i, k);
        }
        for (int k = 0; k < 16; k++) CHECK(isfinite(n->world[k]), "node %u world matrix", i);
    }
    for (uint32_t i = 0; i < s->skin_count; i++)
        for (uint32_t k = 0; k < s->skins[i].joint_count; k++)
            CHECK(s->skins[i].joints[k] < s->node_count, "skin %u joint %u", i, k);
    for (uint32_t i = 0; i < s->root_count; i++)
        CHECK(s->roots[i] < s->node_count && s->nodes[s->roots[i]].parent < 0, "root %u", i);
    for (uint32_t a = 0; a < s->animation_count; a++)
        for (uint32_t c = 0; c < s->animations[a].channel_count; c++) {
            const kiln_scene_channel *ch = &s->animations[a].channels[c];
            CHECK(ch->node < s->node_count && ch->key_count > 0, "animation %u channel %u", a, c);
            for (uint32_t k = 1; k < ch->key_count; k++)
                CHECK(ch->times[k] >= ch->times[k - 1], "animation %u channel %u times", a, c);
        }
}

/* ---- equality ------------------------------------------------------------------------------ */

typedef struct cmp {
    char *why;
    size_t size;
    bool ok;
} cmp;

static bool differ(cmp *c, const char *fmt, ...)
{
    if (!c->ok) return true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->size, fmt, ap);
    va_end(ap);
    c->ok = false;
    return true;
}

static void floats(cmp *c, const float *a, const float *b, size_t n, float tol, const char *what)
{
    if (!c->ok) return;
    if (!a != !b) {
        differ(c, "%s: present in one scene only", what);
        return;
    }
    for (size_t i = 0; a && i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= tol)) {
            differ(c, "%s[%zu]: %g vs %g", what, i, (double)a[i], (double)b[i]);
            return;
        }
}

static void strings(cmp *c, const char *a, const char *b, const char *what)
{
    if (c->ok && strcmp(a ? a : "", b ? b : "") != 0) differ(c, "%s: \"%s\" vs \"%s\"", what, a, b);
}

#define COUNT(field)                                                                               \
    if (a->field != b->field)                                                                      \
    return !differ(&c, #field ": %llu vs %llu", (unsigned long long)a->field,                      \
                   (unsigned long long)b->field)

bool ks_scenes_equal(const kiln_scene *a, const kiln_scene *b, float tol, char *why,
                     size_t why_size)
{
    cmp c = {why, why_size, true};
    char what[160];
    COUNT(image_count);
    COUNT(sampler_count);
    COUNT(texture_count);
    COUNT(material_count);
    COUNT(mesh_count);
    COUNT(node_count);
    COUNT(skin_count);
    COUNT(animation_count);
    COUNT(camera_count);
    COUNT(light_count);
    COUNT(scene_count);
    COUNT(root_count);
    COUNT(stats.primitives);
    COUNT(stats.vertices);
    COUNT(stats.triangles);
    for (uint32_t i = 0; i < a->image_count; i++) {
        const kiln_scene_image *x = &a->images[i], *y = &b->images[i];
        if (x->encoded_size == y->encoded_size &&
            (!x->encoded_size || memcmp(x->encoded, y->encoded, x->encoded_size) == 0))
            continue;
        /* Encoded differently (re-saved PNGs): then the pixels must agree. */
        size_t bytes = (size_t)x->width * x->height * 4 *
                       (x->pixel == KILN_SCENE_PIXEL_U8    ? 1
                        : x->pixel == KILN_SCENE_PIXEL_U16 ? 2
                                                           : 4);
        if (!x->pixels || !y->pixels || x->width != y->width || x->height != y->height ||
            x->pixel != y->pixel || memcmp(x->pixels, y->pixels, bytes) != 0)
            return !differ(&c, "image %u: encoded bytes (%zu vs %zu) and pixels differ", i,
                           x->encoded_size, y->encoded_size);
    }
    for (uint32_t i = 0; i < a->sampler_count; i++) {
        const kiln_scene_sampler *x = &a->samplers[i], *y = &b->samplers[i];
        if (x->mag_filter != y->mag_filter || x->min_filter != y->min_filter ||
            x->mip_filter != y->mip_filter || x->wrap_s != y->wrap_s || x->wrap_t != y->wrap_t)
            return !differ(&c, "sampler %u differs", i);
    }
    for (uint32_t i = 0; i < a->texture_count; i++)
        if (a->textures[i].image != b->textures[i].image ||
            a->textures[i].sampler != b->textures[i].sampler)
            return !differ(&c, "texture %u differs", i);
    for (uint32_t i = 0; i < a->material_count; i++) {
        const kiln_scene_material *x = &a->materials[i], *y = &b->materials[i];
        snprintf(what, sizeof what, "material %u", i);
        strings(&c, x->name, y->name, what);
        floats(&c, x->base_color, y->base_color, 4, 0, what);
        floats(&c, &x->metallic, &y->metallic, 1, 0, what);
        floats(&c, &x->roughness, &y->roughness, 1, 0, what);
        floats(&c, x->emissive, y->emissive, 3, 0, what);
        floats(&c, &x->emissive_strength, &y->emissive_strength, 1, 0, what);
        if (x->alpha_mode != y->alpha_mode || x->double_sided != y->double_sided ||
            x->unlit != y->unlit || x->alpha_cutoff != y->alpha_cutoff)
            differ(&c, "%s: alpha or sides differ", what);
        for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++)
            if (memcmp(&x->textures[k], &y->textures[k], sizeof x->textures[k]) != 0)
                differ(&c, "%s: texture slot %d differs", what, k);
        if (memcmp(&x->ext, &y->ext, sizeof x->ext) != 0)
            differ(&c, "%s: material extensions differ", what);
    }
    for (uint32_t m = 0; m < a->mesh_count && c.ok; m++) {
        const kiln_scene_mesh *x = &a->meshes[m], *y = &b->meshes[m];
        if (x->primitive_count != y->primitive_count || x->weight_count != y->weight_count)
            return !differ(&c, "mesh %u: primitive or weight counts differ", m);
        snprintf(what, sizeof what, "mesh %u weights", m);
        floats(&c, x->weights, y->weights, x->weight_count, 0, what);
        for (uint32_t p = 0; p < x->primitive_count && c.ok; p++) {
            const kiln_scene_primitive *u = &x->primitives[p], *v = &y->primitives[p];
            if (u->vertex_count != v->vertex_count || u->index_count != v->index_count ||
                u->texcoord_count != v->texcoord_count || u->color_count != v->color_count ||
                u->joint_set_count != v->joint_set_count || u->target_count != v->target_count ||
                u->material != v->material || u->mode != v->mode)
                return !differ(&c,
                               "mesh %u prim %u: counts differ (vertices %u/%u, indices "
                               "%u/%u)",
                               m, p, u->vertex_count, v->vertex_count, u->index_count,
                               v->index_count);
            size_t n = u->vertex_count;
            snprintf(what, sizeof what, "mesh %u prim %u positions", m, p);
            floats(&c, u->positions, v->positions, n * 3, tol, what);
            snprintf(what, sizeof what, "mesh %u prim %u normals", m, p);
            floats(&c, u->normals, v->normals, n * 3, tol, what);
            snprintf(what, sizeof what, "mesh %u prim %u tangents", m, p);
            floats(&c, u->tangents, v->tangents, n * 4, tol, what);
            for (uint32_t s = 0; s < u->texcoord_count; s++) {
                snprintf(what, sizeof what, "mesh %u prim %u uv%u", m, p, s);
                floats(&c, u->texcoords[s], v->texcoords[s], n * 2, tol, what);
            }
            for (uint32_t s = 0; s < u->color_count; s++) {
                snprintf(what, sizeof what, "mesh %u prim %u colour%u", m, p, s);
                floats(&c, u->colors[s], v->colors[s], n * 4, tol, what);
            }
            for (uint32_t s = 0; s < u->joint_set_count && c.ok; s++) {
                if (memcmp(u->joints[s], v->joints[s], n * 4 * sizeof(uint16_t)) != 0)
                    differ(&c, "mesh %u prim %u joints%u differ", m, p, s);
                snprintf(what, sizeof what, "mesh %u prim %u weights%u", m, p, s);
                floats(&c, u->weights[s], v->weights[s], n * 4, tol, what);
            }
            if (c.ok && memcmp(u->indices, v->indices, u->index_count * sizeof(uint32_t)) != 0)
                differ(&c, "mesh %u prim %u indices differ", m, p);
            for (uint32_t t = 0; t < u->target_count; t++) {
                snprintf(what, sizeof what, "mesh %u prim %u target %u", m, p, t);
                floats(&c, u->targets[t].positions, v->targets[t].positions, n * 3, tol, what);
                floats(&c, u->targets[t].normals, v->targets[t].normals, n * 3, tol, what);
                floats(&c, u->targets[t].tangents, v->targets[t].tangents, n * 3, tol, what);
            }
        }
    }
    for (uint32_t i = 0; i < a->node_count && c.ok; i++) {
        const kiln_scene_node *x = &a->nodes[i], *y = &b->nodes[i];
        snprintf(what, sizeof what, "node %u", i);
        strings(&c, x->name, y->name, what);
        if (x->parent != y->parent || x->child_count != y->child_count || x->mesh != y->mesh ||
            x->skin != y->skin || x->camera != y->camera || x->light != y->light)
            differ(&c, "%s: links differ", what);
        floats(&c, x->world, y->world, 16, tol, what);
    }
    for (uint32_t i = 0; i < a->skin_count && c.ok; i++) {
        const kiln_scene_skin *x = &a->skins[i], *y = &b->skins[i];
        if (x->joint_count != y->joint_count || x->skeleton != y->skeleton ||
            memcmp(x->joints, y->joints, x->joint_count * sizeof(uint32_t)) != 0)
            return !differ(&c, "skin %u: joints differ", i);
        snprintf(what, sizeof what, "skin %u inverse bind", i);
        floats(&c, x->inverse_bind, y->inverse_bind, (size_t)x->joint_count * 16, tol, what);
    }
    for (uint32_t i = 0; i < a->animation_count && c.ok; i++) {
        const kiln_scene_animation *x = &a->animations[i], *y = &b->animations[i];
        if (x->channel_count != y->channel_count)
            return !differ(&c, "animation %u: channel counts differ", i);
        for (uint32_t k = 0; k < x->channel_count && c.ok; k++) {
            const kiln_scene_channel *u = &x->channels[k], *v = &y->channels[k];
            if (u->node != v->node || u->path != v->path || u->interpolation != v->interpolation ||
                u->key_count != v->key_count || u->components != v->components)
                return !differ(&c, "animation %u channel %u differs", i, k);
            size_t per = u->interpolation == KILN_SCENE_INTERP_CUBICSPLINE ? 3 : 1;
            snprintf(what, sizeof what, "animation %u channel %u", i, k);
            floats(&c, u->times, v->times, u->key_count, tol, what);
            floats(&c, u->values, v->values, per * u->key_count * u->components, tol, what);
        }
    }
    return c.ok;
}
