/* break_cooked.c — breaks one cooked file on purpose, in place, for the three.js comparison's
 * negative cases (issue 20: the comparison must fail on each): the file is parsed with kiln's
 * own reader, the named fault is written into its bytes, and the container checksum is sealed
 * again so that libkiln_rt loads it (the caller fixes the entry's manifest.json sha256 and size).
 *
 *   break_cooked winding FILE.kmesh     every triangle's last two indices swapped (all levels)
 *   break_cooked uv-mirror FILE.kmesh   UV set 0 mirrored in u (quantized: offset and scale)
 *   break_cooked scale FILE.kmesh       the position quantization scale 5 % too large
 *   break_cooked morph FILE.kmesh       every morph target's position deltas zeroed
 *   break_cooked transform FILE.kmat    every slot's texture transform dropped (identity)
 *   break_cooked pose FILE.kclip        every rotation key's x and y swapped (a wrong pose)
 *
 * The mesh faults need an uncompressed mesh (model.compress none). Exit 0 done, 1 the file does
 * not have what the fault needs, 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"
#include "support.h"

static int refuse(const char *what)
{
    fprintf(stderr, "break_cooked: %s\n", what);
    return 1;
}

static uint8_t *section(const kiln_container *c, uint32_t id, size_t *size)
{
    for (uint32_t i = 0; i < c->section_count; i++) {
        kiln_container_section s;
        kiln_container_section_at(c, i, &s);
        if (s.id == id) {
            *size = s.size;
            return (uint8_t *)s.data;
        }
    }
    return NULL;
}

static void put_f32(uint8_t *p, float v) { memcpy(p, &v, 4); }
static float get_f32(const uint8_t *p)
{
    float v;
    memcpy(&v, p, 4);
    return v;
}

static int break_mesh(const char *mode, uint8_t *bytes, size_t size)
{
    kiln_mesh_view v;
    kiln_error err;
    if (kiln_mesh_read(bytes, size, 0, &v, &err)) return refuse(err.message);
    if (v.flags & KILN_MESH_COMPRESSED) return refuse("the mesh is compressed");
    size_t hs = 0;
    uint8_t *h = section(&v.container, KILN_FOURCC('M', 'H', 'D', 'R'), &hs);
    if (!h || hs < 136) return refuse("no mesh header");
    if (strcmp(mode, "winding") == 0) {
        kiln_mesh_stream *s = &v.streams[KILN_MESH_INDICES];
        uint8_t *ix = (uint8_t *)s->data;
        size_t w = s->stride;
        uint8_t tmp[4];
        for (uint64_t t = 0; t + 2 < s->count; t += 3) {
            memcpy(tmp, ix + (t + 1) * w, w);
            memcpy(ix + (t + 1) * w, ix + (t + 2) * w, w);
            memcpy(ix + (t + 2) * w, tmp, w);
        }
        return 0;
    }
    if (strcmp(mode, "uv-mirror") == 0) {
        if (v.uv_set_count == 0) return refuse("no UV set");
        if (v.flags & KILN_MESH_QUANTIZED) { /* u = offset + scale q  ->  1 - u */
            put_f32(h + 88, 1.0f - get_f32(h + 88));
            put_f32(h + 120, -get_f32(h + 120));
        } else {
            kiln_mesh_stream *s = &v.streams[KILN_MESH_UV0];
            uint8_t *p = (uint8_t *)s->data;
            for (uint64_t i = 0; i < s->count; i++)
                put_f32(p + i * s->stride, 1.0f - get_f32(p + i * s->stride));
        }
        return 0;
    }
    if (strcmp(mode, "scale") == 0) {
        if (!(v.flags & KILN_MESH_QUANTIZED)) return refuse("the mesh is not quantized");
        for (int i = 0; i < 3; i++) put_f32(h + 72 + 4 * i, get_f32(h + 72 + 4 * i) * 1.05f);
        return 0;
    }
    if (strcmp(mode, "morph") == 0) {
        kiln_mesh_stream *s = &v.streams[KILN_MESH_TARGET_POSITIONS];
        if (!s->data) return refuse("no morph target positions");
        memset((uint8_t *)s->data, 0, s->size);
        return 0;
    }
    return refuse("not a mesh fault");
}

static int break_material(uint8_t *bytes, size_t size)
{
    kiln_container c;
    kiln_error err;
    if (kiln_container_read(bytes, size, 0, &c, &err)) return refuse(err.message);
    size_t ts = 0;
    uint8_t *t = section(&c, KILN_FOURCC('M', 'T', 'E', 'X'), &ts);
    if (!t || ts < 5 * 64) return refuse("no texture slots");
    int dropped = 0;
    for (int s = 0; s < 5; s++) {
        uint8_t *slot = t + s * 64;
        if (!(slot[15] & 2)) continue;
        slot[15] &= (uint8_t)~2u;
        const float identity[11] = {0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0};
        for (int i = 0; i < 11; i++) put_f32(slot + 20 + 4 * i, identity[i]);
        dropped++;
    }
    return dropped ? 0 : refuse("no slot has a texture transform");
}

static int break_clip(uint8_t *bytes, size_t size)
{
    kiln_clip_view v;
    kiln_error err;
    if (kiln_clip_read(bytes, size, 0, &v, &err)) return refuse(err.message);
    int changed = 0;
    uint8_t *values = (uint8_t *)v.values;
    for (uint32_t i = 0; i < v.track_count; i++) {
        kiln_clip_track t = kiln_clip_track_at(&v, i);
        if (t.path != KILN_CLIP_PATH_ROTATION) continue;
        uint32_t per_key = t.interpolation == KILN_CLIP_INTERP_CUBICSPLINE ? 3 : 1;
        for (uint64_t k = 0; k < (uint64_t)t.key_count * per_key; k++) {
            uint8_t *q = values + ((uint64_t)t.value_offset + k * 4) * 4;
            uint8_t x[4];
            memcpy(x, q, 4);
            memcpy(q, q + 4, 4);
            memcpy(q + 4, x, 4);
        }
        changed++;
    }
    return changed ? 0 : refuse("no rotation track");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: break_cooked winding|uv-mirror|scale|morph|transform|pose FILE\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    size_t size = 0;
    uint8_t *bytes = kt_read_file(path, &size);
    if (!bytes) return refuse("cannot read the file");
    int rc;
    if (strcmp(mode, "transform") == 0) rc = break_material(bytes, size);
    else if (strcmp(mode, "pose") == 0) rc = break_clip(bytes, size);
    else rc = break_mesh(mode, bytes, size);
    if (rc == 0) {
        kt_container_reseal(bytes, size);
        kt_write_file(path, bytes, size);
    }
    free(bytes);
    return rc;
}
