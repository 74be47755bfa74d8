/* scene_read.c — kiln_cooked_scene_read and its record accessors: validating a cooked scene
 * (kiln_format.h; the bytes are in docs/formats.md, "Scenes"). Shared with the runtime: libc
 * only. Every check runs once here, in time linear in the file, without allocating; the
 * accessors then decode records without checking again. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

#define NONE        KILN_COOKED_NONE
#define HEADER_ID   KILN_FOURCC('S', 'C', 'N', 'H')
#define NODES_ID    KILN_FOURCC('N', 'O', 'D', 'E')
#define PRIMS_ID    KILN_FOURCC('P', 'R', 'I', 'M')
#define WEIGHTS_ID  KILN_FOURCC('W', 'G', 'H', 'T')
#define CAMERAS_ID  KILN_FOURCC('C', 'A', 'M', 'R')
#define LIGHTS_ID   KILN_FOURCC('L', 'G', 'H', 'T')
#define CLIPS_ID    KILN_FOURCC('C', 'L', 'I', 'P')
#define STRINGS_ID  KILN_FOURCC('S', 'T', 'R', 'S')
#define HEADER_SIZE 40
#define NODE_SIZE   168
#define CAMERA_SIZE 40
#define LIGHT_SIZE  48
#define SCENE_FLAGS (KILN_COOKED_SCENE_SYNTHETIC_ROOT | KILN_COOKED_SCENE_HAS_BOUNDS)
#define NODE_FLAGS                                                                                 \
    (KILN_COOKED_NODE_SYNTHETIC | KILN_COOKED_NODE_MATRIX | KILN_COOKED_NODE_INSTANCE_WEIGHTS)

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "cooked scene";

/* Offset of the first non-finite float among n at p, or -1. */
static int non_finite(const uint8_t *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(kiln_load_f32le(p + 4 * i))) return 4 * i;
    return -1;
}

/* A name reference (u32 offset, u32 size) at ref: inside the strings, followed by a NUL, with
 * no NUL inside. */
static bool name_ok(const kiln_cooked_scene_view *v, const uint8_t *ref)
{
    uint32_t off = kiln_load_u32le(ref), size = kiln_load_u32le(ref + 4);
    if (off > v->strings_size || size >= v->strings_size - off) return false;
    return v->strings[off + size] == 0 && memchr(v->strings + off, 0, size) == NULL;
}

static const char *name_at(const kiln_cooked_scene_view *v, const uint8_t *ref, size_t *size)
{
    *size = kiln_load_u32le(ref + 4);
    return v->strings + kiln_load_u32le(ref);
}

/* A range [first, first + count) inside total; an empty range starts at 0. */
static bool range_ok(uint32_t first, uint32_t count, uint32_t total)
{
    if (count == 0) return first == 0;
    return first <= total && count <= total - first;
}

static kiln_result check_nodes(const kiln_cooked_scene_view *v, uint64_t base, kiln_error *err)
{
    uint32_t n = v->node_count;
    bool synthetic_scene = (v->flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT) != 0;
    if (n == 0)
        return synthetic_scene
                   ? kiln_error_bad_bytes(err, k_format, base, "a synthetic root without nodes")
                   : KILN_OK;
    const uint8_t *nodes = v->nodes;
#define NODE(i)   (nodes + (size_t)(i)*NODE_SIZE)
#define PARENT(i) kiln_load_u32le(NODE(i))
#define END(i)    kiln_load_u32le(NODE(i) + 4)
    if (PARENT(0) != NONE)
        return kiln_error_bad_bytes(err, k_format, base, "node 0: the root has a parent");
    if (END(0) != n)
        return kiln_error_bad_bytes(err, k_format, base + 4,
                                    "node 0: the root's subtree is not every node");
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = NODE(i);
        uint64_t at = base + (uint64_t)i * NODE_SIZE;
        if (i > 0) {
            uint32_t parent = PARENT(i), end = END(i);
            if (parent >= i)
                return kiln_error_bad_bytes(err, k_format, at,
                                            "node %u: its parent does not come before it", i);
            /* Pre-order: the parent is the nearest ancestor of node i - 1 whose subtree still
             * holds i. Walking up closes finished subtrees; a closed node is never walked again,
             * so the whole check is linear. */
            uint32_t x = i - 1;
            while (END(x) <= i) x = PARENT(x); /* ends at node 0 at the latest: END(0) = n > i */
            if (x != parent)
                return kiln_error_bad_bytes(err, k_format, at,
                                            "node %u: subtrees do not nest in pre-order", i);
            if (end <= i || end > END(parent))
                return kiln_error_bad_bytes(err, k_format, at + 4,
                                            "node %u: its subtree end is outside its parent's", i);
        }
        if (!name_ok(v, p + 8))
            return kiln_error_bad_bytes(err, k_format, at + 8, "node %u: bad name", i);
        uint32_t flags = kiln_load_u32le(p + 16), source = kiln_load_u32le(p + 20);
        if (flags & ~(uint32_t)NODE_FLAGS)
            return kiln_error_bad_bytes(err, k_format, at + 16, "node %u: unknown flags", i);
        bool synthetic = (flags & KILN_COOKED_NODE_SYNTHETIC) != 0;
        if (synthetic != (i == 0 && synthetic_scene))
            return kiln_error_bad_bytes(err, k_format, at + 16,
                                        "node %u: only a synthetic scene root is synthetic", i);
        if (synthetic ? source != NONE || flags != KILN_COOKED_NODE_SYNTHETIC : source == NONE)
            return kiln_error_bad_bytes(err, k_format, at + 20,
                                        "node %u: source node does not match the synthetic flag",
                                        i);
        int f = non_finite(p + 24, 26);
        if (f >= 0)
            return kiln_error_bad_bytes(err, k_format, at + 24 + (uint64_t)f,
                                        "node %u: transform not finite", i);
        uint32_t mesh = kiln_load_u32le(p + 128), first = kiln_load_u32le(p + 132),
                 count = kiln_load_u32le(p + 136);
        uint32_t camera = kiln_load_u32le(p + 140), light = kiln_load_u32le(p + 144);
        uint32_t wfirst = kiln_load_u32le(p + 148), wcount = kiln_load_u32le(p + 152),
                 skin = kiln_load_u32le(p + 156);
        uint64_t skeleton = kiln_load_u64le(p + 160);
        if (!range_ok(first, count, v->primitive_count) || (mesh == NONE && count))
            return kiln_error_bad_bytes(err, k_format, at + 132,
                                        "node %u: primitive range outside the scene's", i);
        if (!range_ok(wfirst, wcount, v->weight_count) || (mesh == NONE && wcount))
            return kiln_error_bad_bytes(err, k_format, at + 148,
                                        "node %u: weight range outside the scene's", i);
        if ((flags & KILN_COOKED_NODE_INSTANCE_WEIGHTS) && !wcount)
            return kiln_error_bad_bytes(err, k_format, at + 16,
                                        "node %u: instance weights flagged but none stored", i);
        if (camera != NONE && camera >= v->camera_count)
            return kiln_error_bad_bytes(err, k_format, at + 140, "node %u: camera out of range", i);
        if (light != NONE && light >= v->light_count)
            return kiln_error_bad_bytes(err, k_format, at + 144, "node %u: light out of range", i);
        if ((skin == NONE) != (skeleton == 0))
            return kiln_error_bad_bytes(err, k_format, at + 156,
                                        "node %u: a skin without a skeleton id, or the reverse", i);
    }
#undef NODE
#undef PARENT
#undef END
    return KILN_OK;
}

static kiln_result check_records(const kiln_cooked_scene_view *v, const kiln_container *c,
                                 kiln_error *err)
{
    uint64_t base = (uint64_t)(v->primitives - c->bytes);
    for (uint32_t i = 0; i < v->primitive_count; i++)
        if (!kiln_load_u64le(v->primitives + 8 * (size_t)i))
            return kiln_error_bad_bytes(err, k_format, base + 8 * (uint64_t)i, "primitive %u: id 0",
                                        i);
    base = (uint64_t)(v->clips - c->bytes);
    for (uint32_t i = 0; i < v->clip_count; i++)
        if (!kiln_load_u64le(v->clips + 8 * (size_t)i))
            return kiln_error_bad_bytes(err, k_format, base + 8 * (uint64_t)i, "clip %u: id 0", i);
    base = (uint64_t)(v->weights - c->bytes);
    for (uint32_t i = 0; i < v->weight_count; i++)
        if (non_finite(v->weights + 4 * (size_t)i, 1) >= 0)
            return kiln_error_bad_bytes(err, k_format, base + 4 * (uint64_t)i,
                                        "weight %u: not finite", i);
    base = (uint64_t)(v->cameras - c->bytes);
    for (uint32_t i = 0; i < v->camera_count; i++) {
        const uint8_t *p = v->cameras + (size_t)i * CAMERA_SIZE;
        uint64_t at = base + (uint64_t)i * CAMERA_SIZE;
        if (kiln_load_u32le(p) > KILN_COOKED_CAMERA_ORTHOGRAPHIC)
            return kiln_error_bad_bytes(err, k_format, at, "camera %u: unknown type", i);
        if (!name_ok(v, p + 8))
            return kiln_error_bad_bytes(err, k_format, at + 8, "camera %u: bad name", i);
        int f = non_finite(p + 16, 6);
        if (f >= 0)
            return kiln_error_bad_bytes(err, k_format, at + 16 + (uint64_t)f,
                                        "camera %u: not finite", i);
    }
    base = (uint64_t)(v->lights - c->bytes);
    for (uint32_t i = 0; i < v->light_count; i++) {
        const uint8_t *p = v->lights + (size_t)i * LIGHT_SIZE;
        uint64_t at = base + (uint64_t)i * LIGHT_SIZE;
        if (kiln_load_u32le(p) > KILN_COOKED_LIGHT_SPOT)
            return kiln_error_bad_bytes(err, k_format, at, "light %u: unknown type", i);
        if (!name_ok(v, p + 8))
            return kiln_error_bad_bytes(err, k_format, at + 8, "light %u: bad name", i);
        int f = non_finite(p + 16, 7);
        if (f >= 0)
            return kiln_error_bad_bytes(err, k_format, at + 16 + (uint64_t)f,
                                        "light %u: not finite", i);
        if (kiln_load_u32le(p + 44))
            return kiln_error_bad_bytes(err, k_format, at + 44,
                                        "light %u: reserved bytes are not zero", i);
    }
    return KILN_OK;
}

static kiln_result read_scene(const void *data, size_t size, uint32_t flags,
                              kiln_cooked_scene_view *v, kiln_error *err)
{
    kiln_container c;
    kiln_result r = kiln_container_read(data, size, flags, &c, err);
    if (r != KILN_OK) return r;
    if (c.kind != KILN_COOKED_SCENE_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "the container is not of kind SCEN");
    if (c.kind_version != KILN_COOKED_SCENE_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "cooked scene version %u; this kiln reads version %d: cook again",
                       c.kind_version, KILN_COOKED_SCENE_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    kiln_container_section h, nd, pr, wg, ca, li, cl, st;
    if (c.section_count != 8 || !kiln_container_find(&c, HEADER_ID, HEADER_SIZE, &h) ||
        !kiln_container_find(&c, NODES_ID, NODE_SIZE, &nd) ||
        !kiln_container_find(&c, PRIMS_ID, 8, &pr) ||
        !kiln_container_find(&c, WEIGHTS_ID, 4, &wg) ||
        !kiln_container_find(&c, CAMERAS_ID, CAMERA_SIZE, &ca) ||
        !kiln_container_find(&c, LIGHTS_ID, LIGHT_SIZE, &li) ||
        !kiln_container_find(&c, CLIPS_ID, 8, &cl) || !kiln_container_find(&c, STRINGS_ID, 1, &st))
        return kiln_error_bad_bytes(
            err, k_format, 32,
            "sections are not SCNH, NODE, PRIM, WGHT, CAMR, LGHT, CLIP and STRS "
            "with their record sizes");
    uint64_t ho = (uint64_t)(h.data - c.bytes);
    if (h.count != 1)
        return kiln_error_bad_bytes(err, k_format, ho, "SCNH does not hold one record");
    /* NONE (2^32 - 1) must stay free as an index; a record count that large cannot be indexed. */
    const kiln_container_section *all[] = {&nd, &pr, &wg, &ca, &li, &cl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]->count >= NONE)
            return kiln_error_bad_bytes(err, k_format, (uint64_t)(all[i]->data - c.bytes),
                                        "too many records");
    if (st.count > UINT32_MAX)
        return kiln_error_bad_bytes(err, k_format, (uint64_t)(st.data - c.bytes),
                                    "strings over 4 GiB");
    v->container = c;
    v->node_count = (uint32_t)nd.count;
    v->primitive_count = (uint32_t)pr.count;
    v->weight_count = (uint32_t)wg.count;
    v->camera_count = (uint32_t)ca.count;
    v->light_count = (uint32_t)li.count;
    v->clip_count = (uint32_t)cl.count;
    v->nodes = nd.data;
    v->primitives = pr.data;
    v->weights = wg.data;
    v->cameras = ca.data;
    v->lights = li.data;
    v->clips = cl.data;
    v->strings = (const char *)st.data;
    v->strings_size = st.size;

    const uint8_t *p = h.data;
    if (!name_ok(v, p)) return kiln_error_bad_bytes(err, k_format, ho, "bad scene name");
    v->name = name_at(v, p, &v->name_size);
    v->flags = kiln_load_u32le(p + 8);
    v->source_scene = kiln_load_u32le(p + 12);
    if (v->flags & ~(uint32_t)SCENE_FLAGS)
        return kiln_error_bad_bytes(err, k_format, ho + 8, "unknown scene flags");
    int f = non_finite(p + 16, 6);
    if (f >= 0)
        return kiln_error_bad_bytes(err, k_format, ho + 16 + (uint64_t)f, "bounds not finite");
    kiln_load_f32le_array(p + 16, v->bounds_min, 3);
    kiln_load_f32le_array(p + 28, v->bounds_max, 3);
    if (v->flags & KILN_COOKED_SCENE_HAS_BOUNDS) {
        for (int i = 0; i < 3; i++)
            if (v->bounds_min[i] > v->bounds_max[i])
                return kiln_error_bad_bytes(err, k_format, ho + 16, "bounds min > max");
    } else {
        for (int i = 16; i < HEADER_SIZE; i++)
            if (p[i])
                return kiln_error_bad_bytes(err, k_format, ho + (uint64_t)i,
                                            "bounds without HAS_BOUNDS");
    }
    if ((r = check_nodes(v, (uint64_t)(nd.data - c.bytes), err))) return r;
    return check_records(v, &c, err);
}

KILN_API kiln_result kiln_cooked_scene_read(const void *data, size_t size, uint32_t flags,
                                            kiln_cooked_scene_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_read: no output");
    memset(out, 0, sizeof *out);
    kiln_result r = read_scene(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}

KILN_API kiln_cooked_node kiln_cooked_scene_node(const kiln_cooked_scene_view *v, uint32_t i)
{
    kiln_cooked_node n;
    memset(&n, 0, sizeof n);
    if (!v || i >= v->node_count) return n;
    const uint8_t *p = v->nodes + (size_t)i * NODE_SIZE;
    n.parent = kiln_load_u32le(p);
    n.subtree_end = kiln_load_u32le(p + 4);
    n.name = name_at(v, p + 8, &n.name_size);
    n.flags = kiln_load_u32le(p + 16);
    n.source_node = kiln_load_u32le(p + 20);
    kiln_load_f32le_array(p + 24, n.translation, 3);
    kiln_load_f32le_array(p + 36, n.rotation, 4);
    kiln_load_f32le_array(p + 52, n.scale, 3);
    kiln_load_f32le_array(p + 64, n.matrix, 16);
    n.mesh = kiln_load_u32le(p + 128);
    n.first_primitive = kiln_load_u32le(p + 132);
    n.primitive_count = kiln_load_u32le(p + 136);
    n.camera = kiln_load_u32le(p + 140);
    n.light = kiln_load_u32le(p + 144);
    n.first_weight = kiln_load_u32le(p + 148);
    n.weight_count = kiln_load_u32le(p + 152);
    n.skin = kiln_load_u32le(p + 156);
    n.skeleton = kiln_load_u64le(p + 160);
    return n;
}

KILN_API kiln_cooked_camera kiln_cooked_scene_camera(const kiln_cooked_scene_view *v, uint32_t i)
{
    kiln_cooked_camera c;
    memset(&c, 0, sizeof c);
    if (!v || i >= v->camera_count) return c;
    const uint8_t *p = v->cameras + (size_t)i * CAMERA_SIZE;
    c.type = kiln_load_u32le(p);
    c.source_camera = kiln_load_u32le(p + 4);
    c.name = name_at(v, p + 8, &c.name_size);
    c.yfov = kiln_load_f32le(p + 16);
    c.aspect = kiln_load_f32le(p + 20);
    c.xmag = kiln_load_f32le(p + 24);
    c.ymag = kiln_load_f32le(p + 28);
    c.znear = kiln_load_f32le(p + 32);
    c.zfar = kiln_load_f32le(p + 36);
    return c;
}

KILN_API kiln_cooked_light kiln_cooked_scene_light(const kiln_cooked_scene_view *v, uint32_t i)
{
    kiln_cooked_light l;
    memset(&l, 0, sizeof l);
    if (!v || i >= v->light_count) return l;
    const uint8_t *p = v->lights + (size_t)i * LIGHT_SIZE;
    l.type = kiln_load_u32le(p);
    l.source_light = kiln_load_u32le(p + 4);
    l.name = name_at(v, p + 8, &l.name_size);
    kiln_load_f32le_array(p + 16, l.color, 3);
    l.intensity = kiln_load_f32le(p + 28);
    l.range = kiln_load_f32le(p + 32);
    l.inner_cone = kiln_load_f32le(p + 36);
    l.outer_cone = kiln_load_f32le(p + 40);
    return l;
}

KILN_API uint64_t kiln_cooked_scene_primitive(const kiln_cooked_scene_view *v, uint32_t i)
{
    if (!v || i >= v->primitive_count) return 0;
    return kiln_load_u64le(v->primitives + 8 * (size_t)i);
}

KILN_API float kiln_cooked_scene_weight(const kiln_cooked_scene_view *v, uint32_t i)
{
    if (!v || i >= v->weight_count) return 0.0f;
    return kiln_load_f32le(v->weights + 4 * (size_t)i);
}

KILN_API uint64_t kiln_cooked_scene_clip(const kiln_cooked_scene_view *v, uint32_t i)
{
    if (!v || i >= v->clip_count) return 0;
    return kiln_load_u64le(v->clips + 8 * (size_t)i);
}
