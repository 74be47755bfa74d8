/* test_vgeo_format.c — cooked virtual geometry (src/write/vgeo_write.c, src/codec/vgeo_read.c,
 * src/codec/cooked_vgeo.c) from cluster DAGs built by hand: every field back (a three-level DAG
 * with one root, a stalled DAG with two roots, a single cluster), determinism, golden bytes
 * (tests/golden/vgeo_three_levels.vgeo), any alignment,
 * every check of the reader reached by one field changed (each refused by the reader with
 * E_FORMAT_INVALID naming the field, and by the writer with E_USAGE), every flip and truncation
 * refused or safe to walk, every allocation failing in turn, the kind's reference and
 * description. */
#include "support.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/vgeo_sections.h"
#include "core/alloc.h"
#include "core/reader.h"
#include "kiln/kiln.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"
#include "write/container_write.h"
#include "write/vgeo_write.h"

#define MESH_ID 0x0123456789ABCDEFull
#define NONE    KILN_VGEO_NONE

/* A DAG whose tables live beside it (hand-built fixtures, at most 8 clusters). */
typedef struct dag {
    kiln_cooked_vgeo v;
    kiln_vgeo_group groups[8];
    kiln_meshlet clusters[8];
    kiln_vgeo_link links[8];
    kiln_meshlet_bounds bounds[8];
    uint32_t vertices[64];
    uint8_t triangles[128];
} dag;

/* A 3 x 3 grid of vertices (index y * 3 + x, at (x, y, 0)): 4 cells. */
static void add_cluster(dag *d, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                        kiln_vgeo_link link)
{
    kiln_cooked_vgeo *v = &d->v;
    uint32_t c = v->cluster_count++;
    kiln_meshlet *m = &d->clusters[c];
    m->vertex_offset = v->cluster_vertex_count;
    m->triangle_offset = v->cluster_triangle_size;
    m->vertex_count = 4;
    m->triangle_count = 2;
    const uint32_t corner[4] = {y0 * 3 + x0, y0 * 3 + x1, y1 * 3 + x0, y1 * 3 + x1};
    for (int k = 0; k < 4; k++) d->vertices[v->cluster_vertex_count++] = corner[k];
    /* two triangles, padded to 8 bytes as the meshlet builder pads */
    const uint8_t tri[8] = {0, 1, 2, 2, 1, 3, 0, 0};
    memcpy(d->triangles + v->cluster_triangle_size, tri, 8);
    v->cluster_triangle_size += 8;
    d->links[c] = link;
    kiln_meshlet_bounds *b = &d->bounds[c];
    memset(b, 0, sizeof *b);
    b->center[0] = 0.5f * (float)(x0 + x1);
    b->center[1] = 0.5f * (float)(y0 + y1);
    b->radius = 0.5f * sqrtf((float)((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)));
    memcpy(b->cone_apex, b->center, sizeof b->center);
    b->cone_axis[2] = 1.0f;
    b->cone_cutoff = 0.5f;
    b->cone_axis_s8[2] = 127;
    b->cone_cutoff_s8 = 64;
    if (link.level == 0) v->source_triangles += 2;
}

static void begin(dag *d)
{
    memset(d, 0, sizeof *d);
    kiln_cooked_vgeo *v = &d->v;
    v->mesh = MESH_ID;
    v->vertex_count = 9;
    v->max_vertices = 64;
    v->max_triangles = 124;
    v->extent = 2.0f;
    v->groups = d->groups;
    v->clusters = d->clusters;
    v->links = d->links;
    v->bounds = d->bounds;
    v->cluster_vertices = d->vertices;
    v->cluster_triangles = d->triangles;
}

static kiln_vgeo_link L(uint32_t group, uint32_t source, uint32_t level)
{
    kiln_vgeo_link l = {group, source, level, 0};
    return l;
}

/* The four cells (level 0) in group 0 (level 1, error 0.1), which made the two halves; the
 * halves in group 1 (level 2, error 0.3), which made the whole square: one root. */
static void dag_three_levels(dag *d)
{
    begin(d);
    add_cluster(d, 0, 0, 1, 1, L(0, NONE, 0));
    add_cluster(d, 1, 0, 2, 1, L(0, NONE, 0));
    add_cluster(d, 0, 1, 1, 2, L(0, NONE, 0));
    add_cluster(d, 1, 1, 2, 2, L(0, NONE, 0));
    add_cluster(d, 0, 0, 1, 2, L(1, 0, 1));
    add_cluster(d, 1, 0, 2, 2, L(1, 0, 1));
    add_cluster(d, 0, 0, 2, 2, L(NONE, 1, 2));
    d->groups[0] = (kiln_vgeo_group){0, 4, {1.0f, 1.0f, 0.0f}, 1.5f, 0.1f, 1};
    d->groups[1] = (kiln_vgeo_group){4, 2, {1.0f, 1.0f, 0.0f}, 2.0f, 0.3f, 2};
    d->v.group_count = 2;
    d->v.level_count = 3;
}

/* The same level 0 and group 0; the halves could not be grouped further: two roots. */
static void dag_stalled(dag *d)
{
    begin(d);
    add_cluster(d, 0, 0, 1, 1, L(0, NONE, 0));
    add_cluster(d, 1, 0, 2, 1, L(0, NONE, 0));
    add_cluster(d, 0, 1, 1, 2, L(0, NONE, 0));
    add_cluster(d, 1, 1, 2, 2, L(0, NONE, 0));
    add_cluster(d, 0, 0, 1, 2, L(NONE, 0, 1));
    add_cluster(d, 1, 0, 2, 2, L(NONE, 0, 1));
    d->groups[0] = (kiln_vgeo_group){0, 4, {1.0f, 1.0f, 0.0f}, 1.5f, 0.25f, 1};
    d->v.group_count = 1;
    d->v.level_count = 2;
    d->v.flags = KILN_VGEO_STALLED;
}

/* One cluster, no group: the root is the source mesh. */
static void dag_single(dag *d)
{
    begin(d);
    add_cluster(d, 0, 0, 2, 2, L(NONE, NONE, 0));
    d->v.level_count = 1;
}

static uint8_t *write_ok(const dag *d, size_t *size)
{
    uint8_t *bytes = NULL;
    kiln_error err;
    kiln_result r = kiln_vgeo_write(&d->v, NULL, &bytes, size, &err);
    if (r != KILN_OK) fail_msg("kiln_vgeo_write: %s", err.message);
    return bytes;
}

/* The container without the writer's read-back: how damaged files are made. */
static uint8_t *write_raw(const dag *d, size_t *size)
{
    const kiln_cooked_vgeo *v = &d->v;
    uint8_t h[KILN_VGEO_HEADER_SIZE];
    kiln_vgeo_header_bytes(v, h);
    kiln_container_writer w;
    kiln_error err;
    kiln_container_begin(&w, KILN_VGEO_KIND, KILN_VGEO_KIND_VERSION, NULL);
    assert_int_equal(kiln_container_add(&w, KILN_VGEO_SECTION_HEADER, 64, 1, h, &err), KILN_OK);
    assert_int_equal(
        kiln_container_add(&w, KILN_VGEO_SECTION_GROUPS, 32, v->group_count, v->groups, &err),
        KILN_OK);
    assert_int_equal(
        kiln_container_add(&w, KILN_VGEO_SECTION_CLUSTERS, 16, v->cluster_count, v->clusters, &err),
        KILN_OK);
    assert_int_equal(
        kiln_container_add(&w, KILN_VGEO_SECTION_LINKS, 16, v->cluster_count, v->links, &err),
        KILN_OK);
    assert_int_equal(
        kiln_container_add(&w, KILN_VGEO_SECTION_BOUNDS, 48, v->cluster_count, v->bounds, &err),
        KILN_OK);
    assert_int_equal(kiln_container_add(&w, KILN_VGEO_SECTION_VERTICES, 4, v->cluster_vertex_count,
                                        v->cluster_vertices, &err),
                     KILN_OK);
    assert_int_equal(kiln_container_add(&w, KILN_VGEO_SECTION_TRIANGLES, 1,
                                        v->cluster_triangle_size, v->cluster_triangles, &err),
                     KILN_OK);
    uint8_t *out = NULL;
    assert_int_equal(kiln_container_finish(&w, &out, size, &err), KILN_OK);
    return out;
}

/* ---- walking a view: what every reader promise lets a caller do ----------------------------- */

/* Uses every accessor and kiln_vgeo_cluster_lod on a view the reader accepted, checking what
 * the reader promised (so a flip it lets through must still leave a consistent DAG). */
static void assert_valid(const kiln_vgeo_view *v)
{
    assert_true(v->cluster_count >= 1 && v->level_count >= 1);
    assert_true(v->level_count <= KILN_VGEO_MAX_LEVELS);
    assert_true(v->root_count >= 1);
    assert_true((v->root_count > 1) == ((v->flags & KILN_VGEO_STALLED) != 0));
    uint32_t roots = 0, top = 0;
    uint64_t level0 = 0;
    for (uint32_t c = 0; c < v->cluster_count; c++) {
        kiln_meshlet m = kiln_vgeo_cluster(v, c);
        kiln_vgeo_link l = kiln_vgeo_cluster_link(v, c);
        kiln_meshlet_bounds b = kiln_vgeo_cluster_bounds(v, c);
        assert_true(m.vertex_count >= 1 && m.vertex_count <= v->max_vertices);
        assert_true(m.triangle_count >= 1 && m.triangle_count <= v->max_triangles);
        assert_true((uint64_t)m.vertex_offset + m.vertex_count <= v->cluster_vertex_count);
        assert_true((uint64_t)m.triangle_offset + 3 * m.triangle_count <= v->cluster_triangle_size);
        for (uint32_t k = 0; k < m.vertex_count; k++)
            assert_true(kiln_load_u32le(v->cluster_vertices + 4 * (size_t)(m.vertex_offset + k)) <
                        v->vertex_count);
        for (uint32_t k = 0; k < 3 * m.triangle_count; k++)
            assert_true(v->cluster_triangles[m.triangle_offset + k] < m.vertex_count);
        assert_true(isfinite(b.radius) && b.radius >= 0.0f);
        assert_true(l.level < v->level_count);
        if (l.level > top) top = l.level;
        if (l.level == 0) level0 += m.triangle_count;
        kiln_vgeo_lod self, parent;
        kiln_vgeo_cluster_lod(v, c, &self, &parent);
        assert_true(isfinite(self.error) && self.error >= 0.0f);
        assert_true(parent.error >= self.error);
        if (l.group == NONE) {
            roots++;
            assert_true(isinf(parent.error));
        } else {
            kiln_vgeo_group g = kiln_vgeo_group_at(v, l.group);
            assert_true(c >= g.cluster_offset && c - g.cluster_offset < g.cluster_count);
            assert_true(g.level > l.level);
            if (l.level > 0) {
                double dx = (double)parent.center[0] - self.center[0],
                       dy = (double)parent.center[1] - self.center[1],
                       dz = (double)parent.center[2] - self.center[2];
                assert_true(sqrt(dx * dx + dy * dy + dz * dz) + self.radius <= parent.radius);
            }
        }
        if (l.level == 0) {
            assert_int_equal(l.source_group, NONE);
            assert_true(self.error == 0.0f);
        } else {
            assert_true(l.source_group < v->group_count);
            assert_int_equal(kiln_vgeo_group_at(v, l.source_group).level, l.level);
        }
    }
    assert_int_equal(roots, v->root_count);
    assert_int_equal(top + 1, v->level_count);
    assert_true(level0 == v->source_triangles);
    for (uint32_t g = 0; g < v->group_count; g++) {
        kiln_vgeo_group x = kiln_vgeo_group_at(v, g);
        assert_true(x.cluster_count >= 1);
        assert_true((uint64_t)x.cluster_offset + x.cluster_count <= v->cluster_count);
        for (uint32_t c = x.cluster_offset; c < x.cluster_offset + x.cluster_count; c++)
            assert_int_equal(kiln_vgeo_cluster_link(v, c).group, g);
    }
    /* past the ends: zeros, never a read outside */
    assert_int_equal(kiln_vgeo_cluster(v, v->cluster_count).vertex_count, 0);
    assert_int_equal(kiln_vgeo_cluster_link(v, v->cluster_count).group, NONE);
    assert_int_equal(kiln_vgeo_group_at(v, v->group_count).cluster_count, 0);
    assert_true(kiln_vgeo_cluster_bounds(v, v->cluster_count).radius == 0.0f);
}

/* ---- round trips -------------------------------------------------------------------------- */

static void assert_round_trip(const dag *d)
{
    size_t size;
    uint8_t *bytes = write_ok(d, &size);
    kiln_vgeo_view v;
    kiln_error err;
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_OK);
    const kiln_cooked_vgeo *c = &d->v;
    assert_true(v.mesh == c->mesh);
    assert_int_equal(v.vertex_count, c->vertex_count);
    assert_int_equal(v.flags, c->flags);
    assert_int_equal(v.level_count, c->level_count);
    assert_int_equal(v.group_count, c->group_count);
    assert_int_equal(v.cluster_count, c->cluster_count);
    assert_int_equal(v.cluster_vertex_count, c->cluster_vertex_count);
    assert_int_equal(v.cluster_triangle_size, c->cluster_triangle_size);
    assert_int_equal(v.max_vertices, c->max_vertices);
    assert_int_equal(v.max_triangles, c->max_triangles);
    assert_int_equal(v.source_triangles, c->source_triangles);
    assert_true(v.extent == c->extent);
    for (uint32_t g = 0; g < c->group_count; g++) {
        kiln_vgeo_group x = kiln_vgeo_group_at(&v, g);
        assert_memory_equal(&x, &c->groups[g], sizeof x);
    }
    uint32_t roots = 0;
    for (uint32_t i = 0; i < c->cluster_count; i++) {
        kiln_meshlet m = kiln_vgeo_cluster(&v, i);
        kiln_vgeo_link l = kiln_vgeo_cluster_link(&v, i);
        kiln_meshlet_bounds b = kiln_vgeo_cluster_bounds(&v, i);
        assert_memory_equal(&m, &c->clusters[i], sizeof m);
        assert_memory_equal(&l, &c->links[i], sizeof l);
        assert_memory_equal(&b, &c->bounds[i], sizeof b);
        roots += l.group == NONE;
        kiln_vgeo_lod self, parent;
        kiln_vgeo_cluster_lod(&v, i, &self, &parent);
        if (l.level == 0) {
            assert_memory_equal(self.center, c->bounds[i].center, sizeof self.center);
            assert_true(self.radius == c->bounds[i].radius && self.error == 0.0f);
        } else {
            const kiln_vgeo_group *s = &c->groups[l.source_group];
            assert_memory_equal(self.center, s->center, sizeof self.center);
            assert_true(self.radius == s->radius && self.error == s->error);
        }
        if (l.group == NONE) {
            assert_true(isinf(parent.error) && parent.error > 0.0f);
            assert_memory_equal(parent.center, self.center, sizeof self.center);
        } else {
            const kiln_vgeo_group *g = &c->groups[l.group];
            assert_memory_equal(parent.center, g->center, sizeof parent.center);
            assert_true(parent.radius == g->radius && parent.error == g->error);
        }
        kiln_vgeo_cluster_lod(&v, i, NULL, NULL); /* both may be NULL */
    }
    assert_int_equal(v.root_count, roots);
    for (uint32_t i = 0; i < c->cluster_vertex_count; i++)
        assert_int_equal(kiln_load_u32le(v.cluster_vertices + 4 * (size_t)i),
                         c->cluster_vertices[i]);
    assert_memory_equal(v.cluster_triangles, c->cluster_triangles, c->cluster_triangle_size);
    assert_valid(&v);
    /* deterministic: the same DAG, the same bytes */
    size_t again_size;
    uint8_t *again = write_ok(d, &again_size);
    assert_int_equal(again_size, size);
    assert_memory_equal(again, bytes, size);
    kiln_free(NULL, again, again_size);
    kiln_free(NULL, bytes, size);
}

static void round_trips(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    assert_round_trip(&d);
    dag_stalled(&d);
    assert_round_trip(&d);
    dag_single(&d);
    assert_round_trip(&d);
}

static void three_level_dag_reads_as_built(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    kiln_vgeo_view v;
    kiln_error err;
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_int_equal(v.root_count, 1);
    assert_int_equal(v.level_count, 3);
    assert_int_equal(v.source_triangles, 8);
    assert_int_equal(v.container.kind, KILN_VGEO_KIND);
    assert_int_equal(v.container.section_count, KILN_VGEO_SECTION_COUNT);
    kiln_vgeo_lod self, parent;
    kiln_vgeo_cluster_lod(&v, 6, &self, &parent); /* the root, made by group 1 */
    assert_true(self.error == 0.3f && self.radius == 2.0f && isinf(parent.error));
    kiln_vgeo_cluster_lod(&v, 4, &self, &parent); /* a half: group 0 made it, group 1 holds it */
    assert_true(self.error == 0.1f && parent.error == 0.3f);
    kiln_vgeo_cluster_lod(&v, 0, &self, &parent); /* a cell */
    assert_true(self.error == 0.0f && self.center[0] == 0.5f && parent.error == 0.1f);
    kiln_free(NULL, bytes, size);

    dag_stalled(&d);
    bytes = write_ok(&d, &size);
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_int_equal(v.root_count, 2);
    assert_true(v.flags & KILN_VGEO_STALLED);
    kiln_free(NULL, bytes, size);
}

/* The worked example of docs/formats.md ("Virtual geometry"): its bytes are pinned. */
static void golden_bytes(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    assert_int_equal(size, 1144);
    kt_check_golden("vgeo_three_levels.vgeo", bytes, size);
    kiln_free(NULL, bytes, size);
}

static void any_alignment(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    uint8_t *buf = malloc(size + 16);
    assert_non_null(buf);
    for (size_t shift = 0; shift < 16; shift++) {
        memcpy(buf + shift, bytes, size);
        kiln_vgeo_view v;
        kiln_error err;
        assert_int_equal(kiln_vgeo_read(buf + shift, size, 0, &v, &err), KILN_OK);
        assert_valid(&v);
    }
    free(buf);
    kiln_free(NULL, bytes, size);
}

/* ---- damage -------------------------------------------------------------------------------- */

/* d, written without checks, is refused by the reader with E_FORMAT_INVALID and a message that
 * holds `needle` (and, when at_field, the offset of a field), and by the writer with E_USAGE. */
static void expect_bad_at(const dag *d, const char *needle, bool at_field)
{
    size_t size;
    uint8_t *bytes = write_raw(d, &size);
    kiln_vgeo_view v;
    kiln_error err;
    kiln_result r = kiln_vgeo_read(bytes, size, 0, &v, &err);
    if (r != KILN_E_FORMAT_INVALID || !strstr(err.message, needle))
        fail_msg("expected E_FORMAT_INVALID with \"%s\", got %s: %s", needle, kiln_result_name(r),
                 r == KILN_OK ? "" : err.message);
    if (at_field) assert_true(err.offset != UINT64_MAX && err.offset < size);
    assert_int_equal(v.cluster_count, 0); /* the view is cleared */
    free(bytes);
    uint8_t *out = (uint8_t *)1;
    size_t out_size = 1;
    r = kiln_vgeo_write(&d->v, NULL, &out, &out_size, &err);
    if (r != KILN_E_USAGE || !strstr(err.message, needle))
        fail_msg("writer: expected E_USAGE with \"%s\", got %s: %s", needle, kiln_result_name(r),
                 r == KILN_OK ? "" : err.message);
    assert_null(out);
    assert_int_equal(out_size, 0);
}

static void expect_bad(const dag *d, const char *needle) { expect_bad_at(d, needle, true); }

static void bad_header_fields(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.v.mesh = 0;
    expect_bad(&d, "mesh id is 0");
    dag_three_levels(&d);
    d.v.vertex_count = 0;
    expect_bad(&d, "vertex_count is 0");
    dag_three_levels(&d);
    d.v.flags = 2;
    expect_bad(&d, "unknown flags 0x2");
    dag_three_levels(&d);
    d.v.level_count = KILN_VGEO_MAX_LEVELS + 1;
    expect_bad(&d, "level_count 65");
    dag_three_levels(&d);
    d.v.level_count = 2;
    expect_bad(&d, "highest cluster level is 2");
    dag_three_levels(&d);
    d.v.max_vertices = 2;
    expect_bad(&d, "cluster limits 2 vertices");
    dag_three_levels(&d);
    d.v.max_triangles = 513;
    expect_bad(&d, "cluster limits 64 vertices / 513 triangles");
    dag_three_levels(&d);
    d.v.extent = NAN;
    expect_bad(&d, "extent");
    d.v.extent = -1.0f;
    expect_bad(&d, "extent");
    dag_three_levels(&d);
    d.v.source_triangles = 9;
    expect_bad(&d, "source_triangles 9, level 0 holds 8");
    dag_three_levels(&d);
    d.v.cluster_triangle_size -= 2; /* the last cluster's padding: not a multiple of 4 */
    expect_bad(&d, "cluster_triangle_size 54");
    dag_three_levels(&d);
    d.v.flags = KILN_VGEO_STALLED; /* one root */
    expect_bad(&d, "1 roots with the STALLED flag set");
    dag_stalled(&d);
    d.v.flags = 0; /* two roots */
    expect_bad(&d, "2 roots with the STALLED flag clear");
}

static void header_counts_must_match_the_sections(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    /* the header is the first section, at 64 + 7 * 32 = 288 */
    const size_t h = 64 + 32 * KILN_VGEO_SECTION_COUNT;
    assert_int_equal(kiln_load_u32le(bytes + 64 + 8), h);
    static const struct {
        size_t field;
        const char *needle;
    } cases[] = {
        {KILN_VGEO_H_GROUP_COUNT, "group_count 3, VGRP holds 2"},
        {KILN_VGEO_H_CLUSTER_COUNT, "cluster_count 8, VCLU/VLNK/VBND hold 7/7/7"},
        {KILN_VGEO_H_CLUSTER_VERTEX_COUNT, "cluster_vertex_count 29, VCVX holds 28"},
        {KILN_VGEO_H_CLUSTER_TRIANGLE_SIZE, "cluster_triangle_size 57"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *p = bytes + h + cases[i].field;
        uint32_t old = kiln_load_u32le(p);
        kiln_store_u32le(p, old + 1);
        kt_container_reseal(bytes, size);
        kiln_vgeo_view v;
        kiln_error err;
        assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_E_FORMAT_INVALID);
        if (!strstr(err.message, cases[i].needle))
            fail_msg("expected \"%s\", got \"%s\"", cases[i].needle, err.message);
        assert_int_equal(err.offset, h + cases[i].field);
        kiln_store_u32le(p, old);
    }
    /* reserved bytes */
    bytes[h + 60] = 1;
    kt_container_reseal(bytes, size);
    kiln_vgeo_view v;
    kiln_error err;
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "reserved"));
    assert_int_equal(err.offset, h + 60);
    bytes[h + 60] = 0;
    /* another kind version: re-cook */
    kiln_store_u32le(bytes + 12, KILN_VGEO_KIND_VERSION + 1);
    kt_container_reseal(bytes, size);
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_E_FORMAT_VERSION);
    assert_non_null(strstr(err.message, "cook again"));
    kiln_store_u32le(bytes + 12, KILN_VGEO_KIND_VERSION);
    /* another kind */
    kiln_store_u32le(bytes + 8, KILN_MESH_KIND);
    kt_container_reseal(bytes, size);
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "not a VGEO container"));
    kiln_store_u32le(bytes + 8, KILN_VGEO_KIND);
    /* a section that is not the one docs/formats.md names in its place */
    kiln_store_u32le(bytes + 64 + 32 * 3, KILN_FOURCC('X', 'L', 'N', 'K'));
    kt_container_reseal(bytes, size);
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "section 3"));
    kiln_store_u32le(bytes + 64 + 32 * 3, KILN_VGEO_SECTION_LINKS);
    kt_container_reseal(bytes, size);
    assert_int_equal(kiln_vgeo_read(bytes, size, 0, &v, &err), KILN_OK);
    kiln_free(NULL, bytes, size);
}

static void bad_cluster_ranges(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.vertices[5] = 9; /* the vertex_count */
    expect_bad(&d, "cluster vertex 5 is 9, past the 9 vertices");
    dag_three_levels(&d);
    d.clusters[6].vertex_offset = 25; /* 25 + 4 > 28 */
    expect_bad(&d, "cluster 6: vertices 25+4 outside the 28");
    dag_three_levels(&d);
    d.clusters[6].triangle_offset = 52; /* 52 + 6 > 56 */
    expect_bad(&d, "cluster 6: triangle bytes 52+6 outside the 56");
    dag_three_levels(&d);
    d.clusters[2].triangle_offset = 18; /* inside, but not where a cluster may start */
    expect_bad(&d, "cluster 2: triangle bytes 18+6");
    dag_three_levels(&d);
    d.clusters[3].vertex_count = 65;
    expect_bad(&d, "cluster 3: 65 vertices, 2 triangles (limits 64/124)");
    dag_three_levels(&d);
    d.clusters[3].triangle_count = 0;
    expect_bad(&d, "cluster 3: 4 vertices, 0 triangles");
}

static void bad_cluster_index(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.triangles[8 * 4 + 5] = 4; /* cluster 4's second triangle names a fifth vertex */
    expect_bad(&d, "cluster 4: triangle index 4 of 4 vertices");
}

static void bad_bounds(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.bounds[1].cone_axis[1] = NAN;
    expect_bad(&d, "cluster 1: bounds not finite");
    dag_three_levels(&d);
    d.bounds[1].center[0] = INFINITY;
    expect_bad(&d, "cluster 1: bounds not finite");
    dag_three_levels(&d);
    d.bounds[2].radius = -0.5f;
    expect_bad(&d, "cluster 2: negative bounds radius");
}

static void bad_groups(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.groups[1].cluster_offset = 6; /* 6 + 2 > 7 */
    expect_bad(&d, "group 1: members 6+2 outside the 7 clusters");
    dag_three_levels(&d);
    d.groups[1].cluster_count = 0;
    expect_bad(&d, "group 1: members 4+0");
    dag_three_levels(&d);
    d.groups[0].level = 0;
    expect_bad(&d, "group 0: level 0");
    dag_three_levels(&d);
    d.groups[0].radius = NAN;
    expect_bad(&d, "group 0: sphere not finite");
    dag_three_levels(&d);
    d.groups[0].center[2] = INFINITY;
    expect_bad(&d, "group 0: sphere not finite");
    dag_three_levels(&d);
    d.groups[1].radius = -2.0f;
    expect_bad(&d, "group 1: sphere not finite or radius negative");
    dag_three_levels(&d);
    d.groups[1].error = NAN;
    expect_bad(&d, "group 1: error is not a finite non-negative number");
    d.groups[1].error = INFINITY;
    expect_bad(&d, "group 1: error is not a finite non-negative number");
    d.groups[1].error = -0.1f;
    expect_bad(&d, "group 1: error is not a finite non-negative number");
}

static void bad_links(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.links[2].reserved = 1;
    expect_bad(&d, "cluster 2: link reserved word is not zero");
    dag_three_levels(&d);
    d.links[2].group = 7;
    expect_bad(&d, "cluster 2: group 7 of 2");
    dag_three_levels(&d);
    d.links[2].source_group = 0;
    expect_bad(&d, "cluster 2: level 0 with source group 0");
    dag_three_levels(&d);
    d.links[4].source_group = NONE;
    expect_bad(&d, "cluster 4: level 1 with source group 4294967295 of 2");
    dag_three_levels(&d);
    d.links[4].source_group = 5;
    expect_bad(&d, "cluster 4: level 1 with source group 5 of 2");
    dag_three_levels(&d);
    d.links[5].source_group = 1; /* group 1 is of level 2 */
    expect_bad(&d, "cluster 5: level 1, made by group 1 of level 2");
    dag_three_levels(&d);
    d.links[3].level = KILN_VGEO_MAX_LEVELS;
    expect_bad(&d, "cluster 3: level 64");
}

/* A group's members are exactly the clusters that name it. */
static void links_must_agree_with_groups(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.links[3].group = 1; /* in group 0's range, naming group 1 */
    expect_bad(&d, "group 0: member cluster 3 links to group 1");
    dag_three_levels(&d);
    d.links[4].group = 0; /* in group 1's range, naming group 0 */
    expect_bad(&d, "group 1: member cluster 4 links to group 0");
    dag_three_levels(&d);
    d.groups[0].cluster_count = 3; /* cluster 3 names group 0 from outside its range */
    expect_bad(&d, "cluster 3: links to group 0, whose members are 0+3");
    dag_three_levels(&d);
    d.links[3].group = NONE; /* a level-0 root inside a group's range */
    d.v.flags = KILN_VGEO_STALLED;
    expect_bad(&d, "group 0: member cluster 3 links to group 4294967295");
    /* a root of the stalled DAG naming group 0 from outside it (one root left, flag cleared) */
    dag_stalled(&d);
    d.links[5].group = 0;
    d.v.flags = 0;
    expect_bad(&d, "cluster 5: links to group 0, whose members are 0+4");
}

/* Levels rise along every edge of the DAG (so it has no cycle), and every group made a
 * cluster. */
static void level_rule(void **state)
{
    (void)state;
    dag d;
    /* the halves at level 2, made by group 0 at level 2, members of group 1 at level 2 */
    dag_three_levels(&d);
    d.groups[0].level = 2;
    d.links[4].level = d.links[5].level = 2;
    expect_bad(&d, "group 1 of level 2: member cluster 4 has level 2");
    /* a group whose level is not that of what it made */
    dag_three_levels(&d);
    d.groups[0].level = 2;
    expect_bad(&d, "cluster 4: level 1, made by group 0 of level 2");
    /* a cycle: group 1 holds the root it made (group 1 made cluster 6, which names it) */
    dag_three_levels(&d);
    d.groups[1].cluster_offset = 5;
    d.links[4].group = NONE;
    d.groups[1].cluster_count = 2;
    d.links[6].group = 1;
    expect_bad(&d, "group 1 of level 2: member cluster 6 has level 2");
    /* a group that made nothing: its members would vanish once it is fine enough */
    dag_stalled(&d);
    d.groups[1] = (kiln_vgeo_group){5, 1, {1.5f, 1.0f, 0.0f}, 3.0f, 0.5f, 2};
    d.v.group_count = 2;
    d.links[5].group = 1;
    d.v.flags = 0;
    expect_bad(&d, "group 1 made no cluster");
}

static void non_monotonic_error(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.groups[1].error = 0.05f; /* below group 0's 0.1, which made its members */
    expect_bad(&d, "group 1: error 0.05 below the error 0.1 of group 0");
    /* equal errors are monotonic */
    dag_three_levels(&d);
    d.groups[1].error = d.groups[0].error;
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    kiln_free(NULL, bytes, size);
    /* level-0 members only need an error >= 0 */
    dag_three_levels(&d);
    d.groups[0].error = 0.0f;
    bytes = write_ok(&d, &size);
    kiln_free(NULL, bytes, size);
}

static void sphere_not_contained(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.groups[1].radius = 1.4f; /* group 0's sphere has radius 1.5 at the same centre */
    expect_bad(&d, "group 1: sphere does not contain the sphere of group 0");
    dag_three_levels(&d);
    d.groups[1].center[0] = 1.6f; /* 0.6 + 1.5 > 2 */
    expect_bad(&d, "group 1: sphere does not contain the sphere of group 0");
    /* touching from inside is contained: |c1 - c0| + r0 == r1, exact in double */
    dag_three_levels(&d);
    d.groups[1].center[0] = 1.5f;
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    kiln_free(NULL, bytes, size);
    /* level-0 members' culling spheres need not be inside (their own error is 0) */
    dag_three_levels(&d);
    d.groups[0].radius = 0.1f;
    d.groups[1].radius = 1.0f;
    bytes = write_ok(&d, &size);
    kiln_free(NULL, bytes, size);
}

static void nan_anywhere_is_refused(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    d.groups[0].error = NAN;
    expect_bad(&d, "group 0: error");
    dag_three_levels(&d);
    d.groups[1].center[1] = NAN;
    expect_bad(&d, "group 1: sphere not finite");
    dag_three_levels(&d);
    d.bounds[6].cone_cutoff = NAN;
    expect_bad(&d, "cluster 6: bounds not finite");
    dag_three_levels(&d);
    d.v.extent = NAN;
    expect_bad(&d, "header: extent");
}

static kiln_result read_view(void *user, const uint8_t *b, size_t n)
{
    kiln_error err;
    return kiln_vgeo_read(b, n, 0, user, &err);
}
static void check_view(void *user) { assert_valid(user); }

static void every_flip_and_truncation_is_refused_or_safe(void **state)
{
    (void)state;
    dag fixtures[3];
    dag_three_levels(&fixtures[0]);
    dag_stalled(&fixtures[1]);
    dag_single(&fixtures[2]);
    for (int f = 0; f < 3; f++) {
        size_t size;
        uint8_t *bytes = write_ok(&fixtures[f], &size);
        kiln_vgeo_view v;
        kt_flip_counts c = kt_container_flips(bytes, size, read_view, check_view, &v);
        print_message("fixture %d: resealed bit flips %zu refused, %zu accepted and valid\n", f,
                      c.refused, c.accepted);
        assert_true(c.refused > 0 && c.accepted > 0);
        /* every byte replaced by its complement, resealed: refused, or a DAG safe to walk */
        size_t refused = 0;
        for (size_t i = 64; i < size; i++) {
            bytes[i] ^= 0xFF;
            kt_container_reseal(bytes, size);
            kiln_error err;
            kiln_result r = kiln_vgeo_read(bytes, size, 0, &v, &err);
            if (r == KILN_OK) assert_valid(&v);
            else {
                assert_true(r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION);
                refused++;
            }
            bytes[i] ^= 0xFF;
        }
        kt_container_reseal(bytes, size);
        assert_true(refused > 0);
        kiln_free(NULL, bytes, size);
    }
}

/* ---- what the writer refuses, allocation failures ------------------------------------------- */

static void writer_refuses_null_arguments(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    uint8_t *out;
    size_t size;
    kiln_error err;
    assert_int_equal(kiln_vgeo_write(NULL, NULL, &out, &size, &err), KILN_E_USAGE);
    assert_int_equal(kiln_vgeo_write(&d.v, NULL, NULL, &size, &err), KILN_E_USAGE);
    assert_int_equal(kiln_vgeo_write(&d.v, NULL, &out, NULL, &err), KILN_E_USAGE);
    d.v.links = NULL;
    assert_int_equal(kiln_vgeo_write(&d.v, NULL, &out, &size, &err), KILN_E_USAGE);
    assert_null(out);
    kiln_vgeo_view v;
    assert_int_equal(kiln_vgeo_read("", 0, 0, NULL, &err), KILN_E_USAGE);
    assert_int_equal(kiln_vgeo_read(NULL, 0, 0, &v, &err), KILN_E_FORMAT_INVALID);
}

typedef struct failing {
    long countdown; /* allocations left before failing; < 0 never fails */
    long live;
} failing;

static void *f_alloc(void *user, size_t size, size_t align)
{
    failing *f = user;
    if (f->countdown == 0) return NULL;
    if (f->countdown > 0) f->countdown--;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size)) return NULL;
    f->live++;
    return p;
}

static void *f_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    failing *f = user;
    (void)old_size;
    if (f->countdown == 0) return NULL;
    if (f->countdown > 0) f->countdown--;
    return realloc(ptr, new_size);
}

static void f_free(void *user, void *ptr, size_t size)
{
    failing *f = user;
    (void)size;
    if (ptr) f->live--;
    free(ptr);
}

static void every_allocation_failure_is_an_error_without_leaks(void **state)
{
    (void)state;
    dag d;
    dag_three_levels(&d);
    long n;
    for (n = 0;; n++) {
        failing f = {n, 0};
        kiln_allocator a = {f_alloc, f_realloc, f_free, &f};
        uint8_t *bytes = NULL;
        size_t size = 0;
        kiln_error err;
        kiln_result r = kiln_vgeo_write(&d.v, &a, &bytes, &size, &err);
        if (r == KILN_OK) {
            kiln_free(&a, bytes, size);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    assert_true(n >= 1);
}

/* ---- the kind ------------------------------------------------------------------------------- */

typedef struct ref_log {
    uint64_t ids[4];
    uint32_t kinds[4], flags[4];
    size_t count;
} ref_log;

static kiln_result log_ref(void *user, uint64_t id, uint32_t kind, uint32_t flags, kiln_error *err)
{
    (void)err;
    ref_log *l = user;
    assert_true(l->count < 4);
    l->ids[l->count] = id;
    l->kinds[l->count] = kind;
    l->flags[l->count++] = flags;
    return KILN_OK;
}

static void the_kind_is_registered_with_its_mesh(void **state)
{
    (void)state;
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(KILN_VGEO_KIND);
    assert_non_null(k);
    assert_string_equal(k->name, "vgeo");
    const char *prefix = NULL;
    assert_ptr_equal(kiln_cooked_kind_of_label("vgeo0/prim1", &prefix), k);
    assert_string_equal(prefix, "vgeo");
    /* the mesh's labels stay the mesh's */
    assert_ptr_equal(kiln_cooked_kind_of_label("mesh0/prim1", NULL),
                     kiln_cooked_kind_of_fourcc(KILN_MESH_KIND));
    dag d;
    dag_three_levels(&d);
    size_t size;
    uint8_t *bytes = write_ok(&d, &size);
    uint32_t fourcc;
    assert_ptr_equal(kiln_cooked_kind_of_bytes(bytes, size, &fourcc), k);
    assert_int_equal(fourcc, KILN_VGEO_KIND);
    void *view = calloc(1, k->view_size);
    assert_non_null(view);
    kiln_error err;
    assert_int_equal(k->read(bytes, size, 0, view, &err), KILN_OK);
    ref_log log = {0};
    assert_non_null(k->refs);
    assert_int_equal(k->refs(view, log_ref, &log, &err), KILN_OK);
    assert_int_equal(log.count, 1);
    assert_true(log.ids[0] == MESH_ID);
    assert_int_equal(log.kinds[0], KILN_MESH_KIND);
    assert_int_equal(log.flags[0], KILN_REF_LOAD);
    free(view);

    /* what inspect says: counts, and per level the clusters, triangles and errors */
    char *dir = kt_tempdir("vgeo_inspect");
    char *file = kt_format("%s/tiny.vgeo", dir);
    kt_write_file(file, bytes, size);
    char *text = NULL;
    assert_int_equal(kiln_inspect_file(file, NULL, &text, &err), KILN_OK);
    json_t *doc = json_loads(text, 0, NULL);
    assert_non_null(doc);
    kiln_string_free(text);
    assert_string_equal(json_string_value(json_object_get(doc, "kind")), "VGEO");
    json_t *g = json_object_get(doc, "vgeo");
    assert_non_null(g);
    assert_string_equal(json_string_value(json_object_get(g, "mesh")), "0x0123456789abcdef");
    assert_int_equal(json_integer_value(json_object_get(g, "cluster_count")), 7);
    assert_int_equal(json_integer_value(json_object_get(g, "group_count")), 2);
    assert_int_equal(json_integer_value(json_object_get(g, "root_count")), 1);
    assert_int_equal(json_integer_value(json_object_get(g, "source_triangles")), 8);
    assert_true(json_is_false(json_object_get(g, "stalled")));
    json_t *levels = json_object_get(g, "levels");
    assert_int_equal(json_array_size(levels), 3);
    static const int clusters[] = {4, 2, 1}, triangles[] = {8, 4, 2};
    static const double errors[] = {0.0, 0.1, 0.3};
    for (size_t l = 0; l < 3; l++) {
        json_t *e = json_array_get(levels, l);
        assert_int_equal(json_integer_value(json_object_get(e, "clusters")), clusters[l]);
        assert_int_equal(json_integer_value(json_object_get(e, "triangles")), triangles[l]);
        assert_true(fabs(json_number_value(json_object_get(e, "error_min")) - errors[l]) < 1e-7);
        assert_true(fabs(json_number_value(json_object_get(e, "error_max")) - errors[l]) < 1e-7);
    }
    json_decref(doc);
    kt_rmtree(dir);
    free(file);
    free(dir);
    kiln_free(NULL, bytes, size);
}

/* The seeds of fuzz/fuzz_vgeo.c: KILN_WRITE_FUZZ_SEEDS=1 build/tests/vgeo/test_vgeo_format. */
static void fuzz_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS");
    if (!on || strcmp(on, "1") != 0) skip();
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    dag d[3];
    dag_three_levels(&d[0]);
    dag_stalled(&d[1]);
    dag_single(&d[2]);
    static const char *const names[] = {"three_levels", "stalled", "single"};
    for (int i = 0; i < 3; i++) {
        size_t size;
        uint8_t *bytes = write_ok(&d[i], &size);
        char path[4096];
        snprintf(path, sizeof path, "%s/fuzz/corpus/vgeo/%s.vgeo", src, names[i]);
        kt_write_file(path, bytes, size);
        kiln_free(NULL, bytes, size);
    }
    /* damaged ones (valid checksums): a cycle, a non-monotonic error, a sphere not contained */
    dag bad;
    dag_three_levels(&bad);
    bad.groups[1].cluster_offset = 5;
    bad.links[4].group = NONE;
    bad.links[6].group = 1;
    dag_three_levels(&d[0]);
    d[0].groups[1].error = 0.05f;
    dag_three_levels(&d[1]);
    d[1].groups[1].radius = 1.4f;
    const dag *bads[] = {&bad, &d[0], &d[1]};
    static const char *const bad_names[] = {"bad_cycle", "bad_error", "bad_sphere"};
    for (int i = 0; i < 3; i++) {
        size_t size;
        uint8_t *bytes = write_raw(bads[i], &size);
        char path[4096];
        snprintf(path, sizeof path, "%s/fuzz/corpus/vgeo/%s.vgeo", src, bad_names[i]);
        kt_write_file(path, bytes, size);
        free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips),
        cmocka_unit_test(three_level_dag_reads_as_built),
        cmocka_unit_test(golden_bytes),
        cmocka_unit_test(any_alignment),
        cmocka_unit_test(bad_header_fields),
        cmocka_unit_test(header_counts_must_match_the_sections),
        cmocka_unit_test(bad_cluster_ranges),
        cmocka_unit_test(bad_cluster_index),
        cmocka_unit_test(bad_bounds),
        cmocka_unit_test(bad_groups),
        cmocka_unit_test(bad_links),
        cmocka_unit_test(links_must_agree_with_groups),
        cmocka_unit_test(level_rule),
        cmocka_unit_test(non_monotonic_error),
        cmocka_unit_test(sphere_not_contained),
        cmocka_unit_test(nan_anywhere_is_refused),
        cmocka_unit_test(every_flip_and_truncation_is_refused_or_safe),
        cmocka_unit_test(writer_refuses_null_arguments),
        cmocka_unit_test(every_allocation_failure_is_an_error_without_leaks),
        cmocka_unit_test(the_kind_is_registered_with_its_mesh),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
