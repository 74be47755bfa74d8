/* vgeo_read.c — kiln_vgeo_read, the table accessors and kiln_vgeo_cluster_lod (kiln_format.h,
 * "virtual geometry"): the reader of "VGEO" containers, shared with the runtime (libc, xxHash
 * through the container). Every offset, count and index is checked, and so are the rules that
 * make a cut consistent (links agree with groups, levels rise along every edge, errors and
 * spheres grow up the DAG), before anything is handed out; docs/formats.md ("Virtual geometry")
 * gives the bytes. No allocation: the one table it needs (which groups made a cluster) is a
 * bitmap on the stack, filled a window of groups at a time. */
#include <math.h>
#include <string.h>

#include "codec/vgeo_sections.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "virtual geometry";

static const uint32_t k_ids[KILN_VGEO_SECTION_COUNT] = {
    KILN_VGEO_SECTION_HEADER,   KILN_VGEO_SECTION_GROUPS, KILN_VGEO_SECTION_CLUSTERS,
    KILN_VGEO_SECTION_LINKS,    KILN_VGEO_SECTION_BOUNDS, KILN_VGEO_SECTION_VERTICES,
    KILN_VGEO_SECTION_TRIANGLES};
static const uint32_t k_sizes[KILN_VGEO_SECTION_COUNT] = {KILN_VGEO_HEADER_SIZE,
                                                          KILN_VGEO_GROUP_SIZE,
                                                          KILN_VGEO_CLUSTER_SIZE,
                                                          KILN_VGEO_LINK_SIZE,
                                                          KILN_VGEO_BOUNDS_SIZE,
                                                          4,
                                                          1};

/* Groups per window of the "made a cluster" bitmap: 8 KiB of stack. */
#define WINDOW_GROUPS 65536u

static uint64_t offset_of(const kiln_vgeo_view *v, const uint8_t *at)
{
    return at ? (uint64_t)(at - v->container.bytes) : UINT64_MAX;
}

static const uint8_t *group_bytes(const kiln_vgeo_view *v, uint32_t g)
{
    return v->groups + (size_t)g * KILN_VGEO_GROUP_SIZE;
}

static const uint8_t *link_bytes(const kiln_vgeo_view *v, uint32_t c)
{
    return v->links + (size_t)c * KILN_VGEO_LINK_SIZE;
}

static kiln_result read_header(kiln_vgeo_view *v, const uint8_t *h,
                               const kiln_container_section s[KILN_VGEO_SECTION_COUNT],
                               kiln_error *err)
{
    v->mesh = kiln_load_u64le(h + KILN_VGEO_H_MESH);
    v->vertex_count = kiln_load_u32le(h + KILN_VGEO_H_VERTEX_COUNT);
    v->flags = kiln_load_u32le(h + KILN_VGEO_H_FLAGS);
    v->level_count = kiln_load_u32le(h + KILN_VGEO_H_LEVEL_COUNT);
    v->group_count = kiln_load_u32le(h + KILN_VGEO_H_GROUP_COUNT);
    v->cluster_count = kiln_load_u32le(h + KILN_VGEO_H_CLUSTER_COUNT);
    v->cluster_vertex_count = kiln_load_u32le(h + KILN_VGEO_H_CLUSTER_VERTEX_COUNT);
    v->cluster_triangle_size = kiln_load_u32le(h + KILN_VGEO_H_CLUSTER_TRIANGLE_SIZE);
    v->max_vertices = kiln_load_u32le(h + KILN_VGEO_H_MAX_VERTICES);
    v->max_triangles = kiln_load_u32le(h + KILN_VGEO_H_MAX_TRIANGLES);
    v->source_triangles = kiln_load_u32le(h + KILN_VGEO_H_SOURCE_TRIANGLES);
    v->extent = kiln_load_f32le(h + KILN_VGEO_H_EXTENT);

    if (v->mesh == 0)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_MESH),
                                    "header: mesh id is 0");
    if (v->vertex_count == 0)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_VERTEX_COUNT),
                                    "header: vertex_count is 0");
    if (v->flags & ~(uint32_t)KILN_VGEO_STALLED)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_FLAGS),
                                    "header: unknown flags 0x%x", v->flags);
    if (v->level_count < 1 || v->level_count > KILN_VGEO_MAX_LEVELS)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_LEVEL_COUNT),
                                    "header: level_count %u (1..%d)", v->level_count,
                                    KILN_VGEO_MAX_LEVELS);
    if (v->cluster_count == 0)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_CLUSTER_COUNT),
                                    "header: cluster_count is 0");
    if (v->group_count != s[1].count)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_GROUP_COUNT),
                                    "header: group_count %u, VGRP holds %llu", v->group_count,
                                    (unsigned long long)s[1].count);
    if (v->cluster_count != s[2].count || v->cluster_count != s[3].count ||
        v->cluster_count != s[4].count)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_CLUSTER_COUNT),
                                    "header: cluster_count %u, VCLU/VLNK/VBND hold %llu/%llu/%llu",
                                    v->cluster_count, (unsigned long long)s[2].count,
                                    (unsigned long long)s[3].count, (unsigned long long)s[4].count);
    if (v->cluster_vertex_count != s[5].count)
        return kiln_error_bad_bytes(err, k_format,
                                    offset_of(v, h + KILN_VGEO_H_CLUSTER_VERTEX_COUNT),
                                    "header: cluster_vertex_count %u, VCVX holds %llu",
                                    v->cluster_vertex_count, (unsigned long long)s[5].count);
    if (v->cluster_triangle_size != s[6].count || v->cluster_triangle_size % 4)
        return kiln_error_bad_bytes(
            err, k_format, offset_of(v, h + KILN_VGEO_H_CLUSTER_TRIANGLE_SIZE),
            "header: cluster_triangle_size %u (VCTR holds %llu; a multiple of 4)",
            v->cluster_triangle_size, (unsigned long long)s[6].count);
    if (v->max_vertices < 3 || v->max_vertices > KILN_MESH_MAX_MESHLET_VERTICES ||
        v->max_triangles < 1 || v->max_triangles > KILN_MESH_MAX_MESHLET_TRIANGLES)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_MAX_VERTICES),
                                    "header: cluster limits %u vertices / %u triangles",
                                    v->max_vertices, v->max_triangles);
    if (!isfinite(v->extent) || !(v->extent >= 0.0f))
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_EXTENT),
                                    "header: extent is not a finite non-negative number");
    for (int i = KILN_VGEO_H_RESERVED; i < KILN_VGEO_HEADER_SIZE; i++)
        if (h[i])
            return kiln_error_bad_bytes(err, k_format, offset_of(v, h + i),
                                        "header: reserved bytes are not zero");
    return KILN_OK;
}

/* Every cluster's ranges, counts, local indices and bounds; every cluster vertex. */
static kiln_result check_clusters(const kiln_vgeo_view *v, kiln_error *err)
{
    for (uint32_t i = 0; i < v->cluster_vertex_count; i++) {
        const uint8_t *p = v->cluster_vertices + (size_t)i * 4;
        if (kiln_load_u32le(p) >= v->vertex_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "cluster vertex %u is %u, past the %u vertices", i,
                                        kiln_load_u32le(p), v->vertex_count);
    }
    for (uint32_t c = 0; c < v->cluster_count; c++) {
        const uint8_t *p = v->clusters + (size_t)c * KILN_VGEO_CLUSTER_SIZE;
        uint32_t vo = kiln_load_u32le(p), to = kiln_load_u32le(p + 4);
        uint32_t vc = kiln_load_u32le(p + 8), tc = kiln_load_u32le(p + 12);
        if (vc < 1 || vc > v->max_vertices || tc < 1 || tc > v->max_triangles)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 8),
                                        "cluster %u: %u vertices, %u triangles (limits %u/%u)", c,
                                        vc, tc, v->max_vertices, v->max_triangles);
        if ((uint64_t)vo + vc > v->cluster_vertex_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "cluster %u: vertices %u+%u outside the %u", c, vo, vc,
                                        v->cluster_vertex_count);
        if (to % 4 || (uint64_t)to + 3u * tc > v->cluster_triangle_size)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 4),
                                        "cluster %u: triangle bytes %u+%u outside the %u or not "
                                        "4-aligned",
                                        c, to, 3u * tc, v->cluster_triangle_size);
        const uint8_t *t = v->cluster_triangles + to;
        for (uint32_t k = 0; k < 3 * tc; k++)
            if (t[k] >= vc)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, t + k),
                                            "cluster %u: triangle index %u of %u vertices", c, t[k],
                                            vc);
        const uint8_t *b = v->bounds + (size_t)c * KILN_VGEO_BOUNDS_SIZE;
        for (int k = 0; k < 11; k++)
            if (!isfinite(kiln_load_f32le(b + 4 * k)))
                return kiln_error_bad_bytes(err, k_format, offset_of(v, b + 4 * k),
                                            "cluster %u: bounds not finite", c);
        if (kiln_load_f32le(b + 12) < 0.0f)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, b + 12),
                                        "cluster %u: negative bounds radius", c);
    }
    return KILN_OK;
}

static kiln_result check_groups(const kiln_vgeo_view *v, kiln_error *err)
{
    for (uint32_t g = 0; g < v->group_count; g++) {
        kiln_vgeo_group x = kiln_vgeo_group_at(v, g);
        const uint8_t *p = group_bytes(v, g);
        if (x.cluster_count == 0 || (uint64_t)x.cluster_offset + x.cluster_count > v->cluster_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "group %u: members %u+%u outside the %u clusters", g,
                                        x.cluster_offset, x.cluster_count, v->cluster_count);
        if (x.level < 1 || x.level >= KILN_VGEO_MAX_LEVELS)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 28),
                                        "group %u: level %u (1..%d)", g, x.level,
                                        KILN_VGEO_MAX_LEVELS - 1);
        if (!isfinite(x.center[0]) || !isfinite(x.center[1]) || !isfinite(x.center[2]) ||
            !isfinite(x.radius) || !(x.radius >= 0.0f))
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 8),
                                        "group %u: sphere not finite or radius negative", g);
        if (!isfinite(x.error) || !(x.error >= 0.0f))
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 24),
                                        "group %u: error is not a finite non-negative number", g);
    }
    return KILN_OK;
}

/* Each link on its own: known values, a source group of the cluster's own level (none exactly at
 * level 0); the highest level, the roots and the source triangles on the way. */
static kiln_result check_links(kiln_vgeo_view *v, const uint8_t *h, kiln_error *err)
{
    uint32_t top = 0, roots = 0;
    uint64_t level0_triangles = 0;
    for (uint32_t c = 0; c < v->cluster_count; c++) {
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, c);
        const uint8_t *p = link_bytes(v, c);
        if (l.reserved)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 12),
                                        "cluster %u: link reserved word is not zero", c);
        if (l.level >= KILN_VGEO_MAX_LEVELS)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 8),
                                        "cluster %u: level %u (0..%d)", c, l.level,
                                        KILN_VGEO_MAX_LEVELS - 1);
        if (l.group != KILN_VGEO_NONE && l.group >= v->group_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                        "cluster %u: group %u of %u", c, l.group, v->group_count);
        if (l.level == 0) {
            if (l.source_group != KILN_VGEO_NONE)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 4),
                                            "cluster %u: level 0 with source group %u", c,
                                            l.source_group);
            level0_triangles += kiln_vgeo_cluster(v, c).triangle_count;
        } else {
            if (l.source_group >= v->group_count) /* KILN_VGEO_NONE too */
                return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 4),
                                            "cluster %u: level %u with source group %u of %u", c,
                                            l.level, l.source_group, v->group_count);
            uint32_t sl = kiln_load_u32le(group_bytes(v, l.source_group) + 28);
            if (sl != l.level)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 8),
                                            "cluster %u: level %u, made by group %u of level %u", c,
                                            l.level, l.source_group, sl);
        }
        if (l.group == KILN_VGEO_NONE) roots++;
        if (l.level > top) top = l.level;
    }
    if (v->level_count != top + 1)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_LEVEL_COUNT),
                                    "header: level_count %u, but the highest cluster level is %u",
                                    v->level_count, top);
    if (level0_triangles != v->source_triangles)
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_SOURCE_TRIANGLES),
                                    "header: source_triangles %u, level 0 holds %llu",
                                    v->source_triangles, (unsigned long long)level0_triangles);
    if (roots == 0)
        return kiln_error_bad_bytes(err, k_format, UINT64_MAX,
                                    "no root: every cluster has a group");
    if ((roots > 1) != ((v->flags & KILN_VGEO_STALLED) != 0))
        return kiln_error_bad_bytes(err, k_format, offset_of(v, h + KILN_VGEO_H_FLAGS),
                                    "%u roots with the STALLED flag %s: several roots exactly "
                                    "when simplification stalled",
                                    roots, (v->flags & KILN_VGEO_STALLED) ? "set" : "clear");
    v->root_count = roots;
    return KILN_OK;
}

/* Group g's members are exactly the clusters whose link names g: each member names it (and so
 * no other group), and each cluster naming a group lies in its range. Members are of lower
 * levels, and g's error and sphere bound their own (monotonic: a cut is consistent). Linear: a
 * cluster passes the member test of one group only, and the first failure ends the read. */
static kiln_result check_members(const kiln_vgeo_view *v, kiln_error *err)
{
    for (uint32_t g = 0; g < v->group_count; g++) {
        kiln_vgeo_group x = kiln_vgeo_group_at(v, g);
        for (uint32_t c = x.cluster_offset; c < x.cluster_offset + x.cluster_count; c++) {
            kiln_vgeo_link l = kiln_vgeo_cluster_link(v, c);
            const uint8_t *p = link_bytes(v, c);
            if (l.group != g)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, p),
                                            "group %u: member cluster %u links to group %u", g, c,
                                            l.group);
            if (l.level >= x.level)
                return kiln_error_bad_bytes(err, k_format, offset_of(v, p + 8),
                                            "group %u of level %u: member cluster %u has level %u",
                                            g, x.level, c, l.level);
            if (l.source_group == KILN_VGEO_NONE) continue; /* level 0: own error 0 */
            kiln_vgeo_group s = kiln_vgeo_group_at(v, l.source_group);
            if (!(x.error >= s.error))
                return kiln_error_bad_bytes(err, k_format, offset_of(v, group_bytes(v, g) + 24),
                                            "group %u: error %g below the error %g of group %u, "
                                            "which made its member cluster %u",
                                            g, (double)x.error, (double)s.error, l.source_group, c);
            double dx = (double)x.center[0] - s.center[0], dy = (double)x.center[1] - s.center[1],
                   dz = (double)x.center[2] - s.center[2];
            if (!(sqrt(dx * dx + dy * dy + dz * dz) + s.radius <= x.radius))
                return kiln_error_bad_bytes(err, k_format, offset_of(v, group_bytes(v, g) + 8),
                                            "group %u: sphere does not contain the sphere of "
                                            "group %u, which made its member cluster %u",
                                            g, l.source_group, c);
        }
    }
    for (uint32_t c = 0; c < v->cluster_count; c++) {
        uint32_t g = kiln_load_u32le(link_bytes(v, c));
        if (g == KILN_VGEO_NONE) continue;
        kiln_vgeo_group x = kiln_vgeo_group_at(v, g);
        if (c < x.cluster_offset || c - x.cluster_offset >= x.cluster_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(v, link_bytes(v, c)),
                                        "cluster %u: links to group %u, whose members are %u+%u", c,
                                        g, x.cluster_offset, x.cluster_count);
    }
    return KILN_OK;
}

/* Every group made at least one cluster: else, once the group's error is small enough, its
 * members are not drawn and nothing replaces them. */
static kiln_result check_groups_made(const kiln_vgeo_view *v, kiln_error *err)
{
    uint64_t made[WINDOW_GROUPS / 64];
    for (uint32_t base = 0; base < v->group_count; base += WINDOW_GROUPS) {
        uint32_t n = v->group_count - base < WINDOW_GROUPS ? v->group_count - base : WINDOW_GROUPS;
        memset(made, 0, sizeof made);
        for (uint32_t c = 0; c < v->cluster_count; c++) {
            uint32_t s = kiln_load_u32le(link_bytes(v, c) + 4);
            if (s != KILN_VGEO_NONE && s >= base && s - base < n)
                made[(s - base) / 64] |= 1ull << ((s - base) % 64);
        }
        for (uint32_t i = 0; i < n; i++)
            if (!(made[i / 64] >> (i % 64) & 1))
                return kiln_error_bad_bytes(err, k_format, offset_of(v, group_bytes(v, base + i)),
                                            "group %u made no cluster", base + i);
    }
    return KILN_OK;
}

static kiln_result read_vgeo(const void *data, size_t size, uint32_t flags, kiln_vgeo_view *v,
                             kiln_error *err)
{
    kiln_container *c = &v->container;
    kiln_result r = kiln_container_read(data, size, flags, c, err);
    if (r != KILN_OK) return r;
    if (c->kind != KILN_VGEO_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "not a VGEO container");
    if (c->kind_version != KILN_VGEO_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "virtual geometry version %u; this kiln reads version %u: cook again",
                       c->kind_version, KILN_VGEO_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    if (c->section_count != KILN_VGEO_SECTION_COUNT)
        return kiln_error_bad_bytes(err, k_format, 32,
                                    "%u sections; virtual geometry has exactly %d",
                                    c->section_count, KILN_VGEO_SECTION_COUNT);
    kiln_container_section s[KILN_VGEO_SECTION_COUNT];
    for (uint32_t i = 0; i < KILN_VGEO_SECTION_COUNT; i++) {
        kiln_container_section_at(c, i, &s[i]);
        if (s[i].id != k_ids[i] || s[i].element_size != k_sizes[i])
            return kiln_error_bad_bytes(err, k_format,
                                        KILN_CONTAINER_HEADER_SIZE +
                                            (uint64_t)KILN_CONTAINER_SECTION_SIZE * i,
                                        "section %u is not the one docs/formats.md names there, "
                                        "or has the wrong element size",
                                        i);
    }
    if (s[0].count != 1)
        return kiln_error_bad_bytes(err, k_format, KILN_CONTAINER_HEADER_SIZE,
                                    "no VHDR section of one %d-byte header", KILN_VGEO_HEADER_SIZE);
    if ((r = read_header(v, s[0].data, s, err)) != KILN_OK) return r;
    v->groups = s[1].data, v->clusters = s[2].data, v->links = s[3].data;
    v->bounds = s[4].data, v->cluster_vertices = s[5].data, v->cluster_triangles = s[6].data;
    if ((r = check_clusters(v, err)) != KILN_OK) return r;
    if ((r = check_groups(v, err)) != KILN_OK) return r;
    if ((r = check_links(v, s[0].data, err)) != KILN_OK) return r;
    if ((r = check_members(v, err)) != KILN_OK) return r;
    return check_groups_made(v, err);
}

KILN_API kiln_result kiln_vgeo_read(const void *data, size_t size, uint32_t flags,
                                    kiln_vgeo_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_vgeo_read: no output");
    memset(out, 0, sizeof *out);
    kiln_result r = read_vgeo(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}

KILN_API kiln_vgeo_group kiln_vgeo_group_at(const kiln_vgeo_view *v, uint32_t i)
{
    kiln_vgeo_group g;
    memset(&g, 0, sizeof g);
    if (!v || i >= v->group_count || !v->groups) return g;
    const uint8_t *p = group_bytes(v, i);
    g.cluster_offset = kiln_load_u32le(p);
    g.cluster_count = kiln_load_u32le(p + 4);
    for (int k = 0; k < 3; k++) g.center[k] = kiln_load_f32le(p + 8 + 4 * k);
    g.radius = kiln_load_f32le(p + 20);
    g.error = kiln_load_f32le(p + 24);
    g.level = kiln_load_u32le(p + 28);
    return g;
}

KILN_API kiln_meshlet kiln_vgeo_cluster(const kiln_vgeo_view *v, uint32_t i)
{
    kiln_meshlet m = {0, 0, 0, 0};
    if (!v || i >= v->cluster_count || !v->clusters) return m;
    const uint8_t *p = v->clusters + (size_t)i * KILN_VGEO_CLUSTER_SIZE;
    m.vertex_offset = kiln_load_u32le(p), m.triangle_offset = kiln_load_u32le(p + 4);
    m.vertex_count = kiln_load_u32le(p + 8), m.triangle_count = kiln_load_u32le(p + 12);
    return m;
}

KILN_API kiln_vgeo_link kiln_vgeo_cluster_link(const kiln_vgeo_view *v, uint32_t i)
{
    kiln_vgeo_link l = {KILN_VGEO_NONE, KILN_VGEO_NONE, 0, 0};
    if (!v || i >= v->cluster_count || !v->links) return l;
    const uint8_t *p = link_bytes(v, i);
    l.group = kiln_load_u32le(p), l.source_group = kiln_load_u32le(p + 4);
    l.level = kiln_load_u32le(p + 8), l.reserved = kiln_load_u32le(p + 12);
    return l;
}

KILN_API kiln_meshlet_bounds kiln_vgeo_cluster_bounds(const kiln_vgeo_view *v, uint32_t i)
{
    kiln_meshlet_bounds b;
    memset(&b, 0, sizeof b);
    if (!v || i >= v->cluster_count || !v->bounds) return b;
    const uint8_t *p = v->bounds + (size_t)i * KILN_VGEO_BOUNDS_SIZE;
    for (int c = 0; c < 3; c++) {
        b.center[c] = kiln_load_f32le(p + 4 * c);
        b.cone_apex[c] = kiln_load_f32le(p + 16 + 4 * c);
        b.cone_axis[c] = kiln_load_f32le(p + 28 + 4 * c);
        b.cone_axis_s8[c] = (int8_t)p[44 + c];
    }
    b.radius = kiln_load_f32le(p + 12);
    b.cone_cutoff = kiln_load_f32le(p + 40);
    b.cone_cutoff_s8 = (int8_t)p[47];
    return b;
}

static kiln_vgeo_lod lod_of_group(const kiln_vgeo_group *g)
{
    kiln_vgeo_lod l;
    memcpy(l.center, g->center, sizeof l.center);
    l.radius = g->radius;
    l.error = g->error;
    return l;
}

KILN_API void kiln_vgeo_cluster_lod(const kiln_vgeo_view *v, uint32_t i, kiln_vgeo_lod *self,
                                    kiln_vgeo_lod *parent)
{
    kiln_vgeo_lod own = {{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f}, up;
    kiln_vgeo_link l = kiln_vgeo_cluster_link(v, i);
    if (l.source_group != KILN_VGEO_NONE) {
        kiln_vgeo_group s = kiln_vgeo_group_at(v, l.source_group);
        own = lod_of_group(&s);
    } else { /* level 0: the cluster's culling sphere, exact */
        kiln_meshlet_bounds b = kiln_vgeo_cluster_bounds(v, i);
        memcpy(own.center, b.center, sizeof own.center);
        own.radius = b.radius;
    }
    if (l.group != KILN_VGEO_NONE) {
        kiln_vgeo_group g = kiln_vgeo_group_at(v, l.group);
        up = lod_of_group(&g);
    } else { /* a root: its parent is never fine enough */
        up = own;
        up.error = INFINITY;
    }
    if (self) *self = own;
    if (parent) *parent = up;
}
