/* scene_write.c — kiln_cooked_scene_write (scene_write.h; docs/formats.md, "Scenes"). Names go
 * into one string section in a fixed order (scene, nodes, cameras, lights), each followed by a
 * NUL, so equal scenes give equal bytes. */
#include "write/scene_write.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

typedef struct strings {
    char *data;
    size_t size, cap;
} strings;

/* Appends name and a NUL; stores where. */
static void put_name(strings *t, const char *name, size_t size, uint8_t *ref)
{
    kiln_store_u32le(ref, (uint32_t)t->size);
    kiln_store_u32le(ref + 4, (uint32_t)size);
    if (size) memcpy(t->data + t->size, name, size);
    t->data[t->size + size] = 0;
    t->size += size + 1;
}

/* Adds size + 1 to *total; false when past 4 GiB (offsets are u32) or a name is missing. */
static bool count_name(const char *name, size_t size, size_t *total)
{
    if (!name && size) return false;
    return size < UINT32_MAX && kiln_size_add(*total, size + 1, total) && *total <= UINT32_MAX;
}

typedef struct buffers {
    uint8_t *nodes, *prims, *weights, *cameras, *lights, *clips;
    size_t nodes_size, prims_size, weights_size, cameras_size, lights_size, clips_size;
} buffers;

static void encode(const kiln_cooked_scene *s, buffers *b, strings *t, uint8_t *header)
{
    put_name(t, s->name, s->name_size, header);
    kiln_store_u32le(header + 8, s->flags);
    kiln_store_u32le(header + 12, s->source_scene);
    kiln_store_f32le_array(header + 16, s->bounds_min, 3);
    kiln_store_f32le_array(header + 28, s->bounds_max, 3);
    for (uint32_t i = 0; i < s->node_count; i++) {
        const kiln_cooked_node *n = &s->nodes[i];
        uint8_t *p = b->nodes + (size_t)i * KILN_SCENE_NODE_SIZE;
        kiln_store_u32le(p + 0, n->parent);
        kiln_store_u32le(p + 4, n->subtree_end);
        put_name(t, n->name, n->name_size, p + 8);
        kiln_store_u32le(p + 16, n->flags);
        kiln_store_u32le(p + 20, n->source_node);
        kiln_store_f32le_array(p + 24, n->translation, 3);
        kiln_store_f32le_array(p + 36, n->rotation, 4);
        kiln_store_f32le_array(p + 52, n->scale, 3);
        kiln_store_f32le_array(p + 64, n->matrix, 16);
        kiln_store_u32le(p + 128, n->mesh);
        kiln_store_u32le(p + 132, n->first_primitive);
        kiln_store_u32le(p + 136, n->primitive_count);
        kiln_store_u32le(p + 140, n->camera);
        kiln_store_u32le(p + 144, n->light);
        kiln_store_u32le(p + 148, n->first_weight);
        kiln_store_u32le(p + 152, n->weight_count);
        kiln_store_u32le(p + 156, n->skin);
        kiln_store_u64le(p + 160, n->skeleton);
    }
    for (uint32_t i = 0; i < s->primitive_count; i++)
        kiln_store_u64le(b->prims + 8 * (size_t)i, s->primitives[i]);
    for (uint32_t i = 0; i < s->weight_count; i++)
        kiln_store_f32le(b->weights + 4 * (size_t)i, s->weights[i]);
    for (uint32_t i = 0; i < s->clip_count; i++)
        kiln_store_u64le(b->clips + 8 * (size_t)i, s->clips[i]);
    for (uint32_t i = 0; i < s->camera_count; i++) {
        const kiln_cooked_camera *c = &s->cameras[i];
        uint8_t *p = b->cameras + (size_t)i * KILN_SCENE_CAMERA_SIZE;
        kiln_store_u32le(p + 0, c->type);
        kiln_store_u32le(p + 4, c->source_camera);
        put_name(t, c->name, c->name_size, p + 8);
        float v[6] = {c->yfov, c->aspect, c->xmag, c->ymag, c->znear, c->zfar};
        kiln_store_f32le_array(p + 16, v, 6);
    }
    for (uint32_t i = 0; i < s->light_count; i++) {
        const kiln_cooked_light *l = &s->lights[i];
        uint8_t *p = b->lights + (size_t)i * KILN_SCENE_LIGHT_SIZE;
        kiln_store_u32le(p + 0, l->type);
        kiln_store_u32le(p + 4, l->source_light);
        put_name(t, l->name, l->name_size, p + 8);
        kiln_store_f32le_array(p + 16, l->color, 3);
        float v[4] = {l->intensity, l->range, l->inner_cone, l->outer_cone};
        kiln_store_f32le_array(p + 28, v, 4);
    }
}

kiln_result kiln_cooked_scene_write(const kiln_cooked_scene *s, const kiln_allocator *alloc,
                                    uint8_t **out, size_t *size, kiln_error *err)
{
    if (!out || !size)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_write: no output");
    *out = NULL;
    *size = 0;
    if (!s || (s->node_count && !s->nodes) || (s->primitive_count && !s->primitives) ||
        (s->weight_count && !s->weights) || (s->camera_count && !s->cameras) ||
        (s->light_count && !s->lights) || (s->clip_count && !s->clips))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_write: no scene");
    /* Record counts are u32 in memory, so their byte sizes fit a 64-bit size_t. */
    size_t names = 0;
    bool ok = count_name(s->name, s->name_size, &names);
    for (uint32_t i = 0; ok && i < s->node_count; i++)
        ok = count_name(s->nodes[i].name, s->nodes[i].name_size, &names);
    for (uint32_t i = 0; ok && i < s->camera_count; i++)
        ok = count_name(s->cameras[i].name, s->cameras[i].name_size, &names);
    for (uint32_t i = 0; ok && i < s->light_count; i++)
        ok = count_name(s->lights[i].name, s->lights[i].name_size, &names);
    if (!ok)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "cooked scene: names missing or over 4 GiB in all");

    buffers b;
    memset(&b, 0, sizeof b);
    b.nodes_size = (size_t)s->node_count * KILN_SCENE_NODE_SIZE;
    b.prims_size = (size_t)s->primitive_count * 8;
    b.weights_size = (size_t)s->weight_count * 4;
    b.cameras_size = (size_t)s->camera_count * KILN_SCENE_CAMERA_SIZE;
    b.lights_size = (size_t)s->light_count * KILN_SCENE_LIGHT_SIZE;
    b.clips_size = (size_t)s->clip_count * 8;
    strings t = {NULL, 0, names};
    /* Zeroed: reserved bytes stay 0. kiln_calloc returns NULL for 0 bytes: ask for 1. */
    b.nodes = kiln_calloc(alloc, 1, b.nodes_size + 1);
    b.prims = kiln_calloc(alloc, 1, b.prims_size + 1);
    b.weights = kiln_calloc(alloc, 1, b.weights_size + 1);
    b.cameras = kiln_calloc(alloc, 1, b.cameras_size + 1);
    b.lights = kiln_calloc(alloc, 1, b.lights_size + 1);
    b.clips = kiln_calloc(alloc, 1, b.clips_size + 1);
    t.data = kiln_calloc(alloc, 1, names);
    kiln_result r = KILN_OK;
    if (!b.nodes || !b.prims || !b.weights || !b.cameras || !b.lights || !b.clips || !t.data)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "cooked scene: out of memory");
    uint8_t header[KILN_SCENE_HEADER_SIZE];
    memset(header, 0, sizeof header);
    if (r == KILN_OK) {
        encode(s, &b, &t, header);
        kiln_container_writer w;
        kiln_container_begin(&w, KILN_COOKED_SCENE_KIND, KILN_COOKED_SCENE_KIND_VERSION, alloc);
        const struct {
            uint32_t id, element_size, count;
            const void *data;
        } sections[] = {
            {KILN_SCENE_SECTION_HEADER, KILN_SCENE_HEADER_SIZE, 1, header},
            {KILN_SCENE_SECTION_NODES, KILN_SCENE_NODE_SIZE, s->node_count, b.nodes},
            {KILN_SCENE_SECTION_PRIMITIVES, 8, s->primitive_count, b.prims},
            {KILN_SCENE_SECTION_WEIGHTS, 4, s->weight_count, b.weights},
            {KILN_SCENE_SECTION_CAMERAS, KILN_SCENE_CAMERA_SIZE, s->camera_count, b.cameras},
            {KILN_SCENE_SECTION_LIGHTS, KILN_SCENE_LIGHT_SIZE, s->light_count, b.lights},
            {KILN_SCENE_SECTION_CLIPS, 8, s->clip_count, b.clips},
            {KILN_SCENE_SECTION_STRINGS, 1, (uint32_t)t.size, t.data},
        };
        for (size_t i = 0; r == KILN_OK && i < sizeof sections / sizeof sections[0]; i++)
            r = kiln_container_add(&w, sections[i].id, sections[i].element_size, sections[i].count,
                                   sections[i].data, err);
        if (r == KILN_OK) r = kiln_container_finish(&w, out, size, err);
    }
    kiln_free(alloc, b.nodes, b.nodes_size + 1);
    kiln_free(alloc, b.prims, b.prims_size + 1);
    kiln_free(alloc, b.weights, b.weights_size + 1);
    kiln_free(alloc, b.cameras, b.cameras_size + 1);
    kiln_free(alloc, b.lights, b.lights_size + 1);
    kiln_free(alloc, b.clips, b.clips_size + 1);
    kiln_free(alloc, t.data, names);
    if (r != KILN_OK) return r;
    kiln_cooked_scene_view v;
    kiln_error rerr;
    if (kiln_cooked_scene_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &rerr) != KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_write: not a valid scene: %s",
                              rerr.message);
    }
    return KILN_OK;
}
