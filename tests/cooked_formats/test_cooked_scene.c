/* test_cooked_scene.c — cooked scenes (src/process/scene_cook.c, src/codec/scene_*.c): the
 * fixture's nodes in depth-first pre-order under a synthetic root, references by asset id,
 * shared primitive and weight ranges, cameras and lights kept once, clips; one root staying the
 * root; callbacks that leave references out; hostile hand-built trees (cycles, two parents, bad
 * indices, non-finite values); the round trip, golden bytes, every flip and truncation refused,
 * damage with a valid checksum; every allocation failed in turn. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cooked_fixture.h"
#include "core/alloc.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"
#include "process/scene_cook.h"
#include "write/scene_write.h"

#define NONE KILN_COOKED_NONE

static uint64_t id(const char *label) { return kiln_asset_id(KT_FIXTURE_GUID, label); }

static void build(kiln_scene *scene, kiln_cooked_scene *s)
{
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    kiln_error err;
    if (kiln_cooked_scene_build(scene, &ids, NULL, s, &err) != KILN_OK) fail_msg("%s", err.message);
}

static void fixture_nodes_in_pre_order_under_a_synthetic_root(void **state)
{
    (void)state;
    kiln_scene *scene = kt_fixture_scene(false);
    assert_non_null(scene);
    kiln_cooked_scene s;
    build(scene, &s);
    assert_string_equal(s.name, "demo");
    assert_int_equal(s.flags, KILN_COOKED_SCENE_SYNTHETIC_ROOT | KILN_COOKED_SCENE_HAS_BOUNDS);
    assert_int_equal(s.source_scene, 0);
    static const char *const names[] = {"demo",       "root_a", "child_mesh", "child_cam",
                                        "grandchild", "root_b", "leaf"};
    static const uint32_t parents[] = {NONE, 0, 1, 1, 3, 0, 5};
    static const uint32_t ends[] = {7, 5, 3, 5, 5, 7, 7};
    static const uint32_t sources[] = {NONE, 0, 1, 2, 3, 4, 5};
    assert_int_equal(s.node_count, 7);
    for (uint32_t i = 0; i < 7; i++) {
        assert_string_equal(s.nodes[i].name, names[i]);
        assert_int_equal(s.nodes[i].parent, parents[i]);
        assert_int_equal(s.nodes[i].subtree_end, ends[i]);
        assert_int_equal(s.nodes[i].source_node, sources[i]);
    }
    const kiln_cooked_node *n = s.nodes;
    assert_int_equal(n[0].flags, KILN_COOKED_NODE_SYNTHETIC);
    assert_true(n[0].matrix[0] == 1 && n[0].matrix[15] == 1 && n[0].rotation[3] == 1);
    assert_int_equal(n[0].mesh, NONE);
    assert_true(n[1].translation[0] == 1 && n[1].translation[2] == 3 && n[1].matrix[14] == 3);
    /* mesh 0 drawn by child_mesh and grandchild: one range of two ids. */
    assert_int_equal(s.primitive_count, 3);
    assert_true(s.primitives[0] == id("mesh0/prim0") && s.primitives[1] == id("mesh0/prim1"));
    assert_true(s.primitives[2] == id("mesh1/prim0"));
    assert_int_equal(n[2].mesh, 0);
    assert_int_equal(n[2].first_primitive, 0);
    assert_int_equal(n[2].primitive_count, 2);
    assert_int_equal(n[4].first_primitive, 0);
    assert_int_equal(n[4].primitive_count, 2);
    assert_int_equal(n[6].mesh, 1);
    assert_int_equal(n[6].first_primitive, 2);
    /* Weights: child_mesh its own 0.75, grandchild the mesh's 0.25. */
    assert_int_equal(s.weight_count, 2);
    assert_int_equal(n[2].flags, KILN_COOKED_NODE_INSTANCE_WEIGHTS);
    assert_true(s.weights[n[2].first_weight] == 0.75f && n[2].weight_count == 1);
    assert_true(s.weights[n[4].first_weight] == 0.25f && n[4].weight_count == 1);
    assert_int_equal(n[6].weight_count, 0);
    /* Skin 0 on grandchild. */
    assert_int_equal(n[4].skin, 0);
    assert_true(n[4].skeleton == id("skeleton0"));
    assert_true(n[4].scale[1] == 2.0f);
    assert_int_equal(n[2].skin, NONE);
    assert_true(n[2].skeleton == 0);
    /* root_b gave a matrix. */
    assert_int_equal(n[5].flags, KILN_COOKED_NODE_MATRIX);
    assert_true(n[5].translation[0] == 4 && n[5].matrix[13] == 5);
    /* Cameras and lights in order of first use. */
    assert_int_equal(s.camera_count, 2);
    assert_int_equal(n[3].camera, 0);
    assert_int_equal(n[6].camera, 1);
    assert_string_equal(s.cameras[0].name, "eye");
    assert_int_equal(s.cameras[0].type, KILN_COOKED_CAMERA_PERSPECTIVE);
    assert_true(s.cameras[0].yfov == 0.8f && s.cameras[0].aspect == 1.5f &&
                s.cameras[0].zfar == 100);
    assert_int_equal(s.cameras[1].type, KILN_COOKED_CAMERA_ORTHOGRAPHIC);
    assert_true(s.cameras[1].xmag == 2 && s.cameras[1].ymag == 1);
    assert_int_equal(s.light_count, 2);
    assert_int_equal(n[5].light, 0);
    assert_int_equal(n[6].light, 1);
    assert_string_equal(s.lights[0].name, "lamp");
    assert_int_equal(s.lights[0].type, KILN_COOKED_LIGHT_SPOT);
    assert_true(s.lights[0].intensity == 10 && s.lights[0].range == 20);
    assert_true(s.lights[0].inner_cone == 0.2f && s.lights[0].outer_cone == 0.6f);
    assert_int_equal(s.lights[1].type, KILN_COOKED_LIGHT_DIRECTIONAL);
    assert_int_equal(s.clip_count, 2);
    assert_true(s.clips[0] == id("clip0") && s.clips[1] == id("clip1"));
    kiln_cooked_scene_free(&s);
    kiln_cooked_scene_free(&s); /* twice is harmless */
    kiln_scene_free(scene);
}

static void one_root_stays_the_root(void **state)
{
    (void)state;
    kiln_scene *scene = kt_fixture_scene(true);
    assert_non_null(scene);
    kiln_cooked_scene s;
    build(scene, &s);
    assert_int_equal(s.flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT, 0);
    assert_int_equal(s.node_count, 4);
    assert_string_equal(s.nodes[0].name, "root_a");
    assert_int_equal(s.nodes[0].parent, NONE);
    assert_int_equal(s.nodes[0].subtree_end, 4);
    assert_int_equal(s.nodes[0].source_node, 0);
    assert_int_equal(s.camera_count, 1);
    assert_int_equal(s.light_count, 0);
    uint8_t *bytes;
    size_t size;
    kiln_error err;
    assert_int_equal(kiln_cooked_scene_write(&s, NULL, &bytes, &size, &err), KILN_OK);
    kiln_cooked_scene_view v;
    assert_int_equal(kiln_cooked_scene_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_int_equal(v.node_count, 4);
    kiln_free(NULL, bytes, size);
    kiln_cooked_scene_free(&s);
    kiln_scene_free(scene);
}

static uint64_t only_first_primitive(void *user, uint32_t mesh, uint32_t p, int32_t copy_skin)
{
    (void)user, (void)copy_skin;
    return p == 0 ? 1000 + mesh : 0;
}
static uint64_t no_skeleton(void *user, uint32_t skin)
{
    (void)user, (void)skin;
    return 0;
}
static uint64_t odd_clips(void *user, uint32_t a)
{
    (void)user;
    return a % 2 ? 77 : 0;
}

static void callbacks_give_ids_and_zero_leaves_a_reference_out(void **state)
{
    (void)state;
    kiln_scene *scene = kt_fixture_scene(false);
    assert_non_null(scene);
    kiln_cooked_scene_ids ids = {NULL, only_first_primitive, no_skeleton, odd_clips, NULL, NULL};
    kiln_cooked_scene s;
    kiln_error err;
    assert_int_equal(kiln_cooked_scene_build(scene, &ids, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.primitive_count, 2);
    assert_true(s.primitives[0] == 1000 && s.primitives[1] == 1001);
    assert_int_equal(s.nodes[2].primitive_count, 1);
    assert_int_equal(s.nodes[4].skin, NONE);
    assert_true(s.nodes[4].skeleton == 0);
    assert_int_equal(s.clip_count, 1);
    assert_true(s.clips[0] == 77);
    kiln_cooked_scene_free(&s);
    /* Neither a guid nor every callback. */
    ids.clip = NULL;
    assert_int_equal(kiln_cooked_scene_build(scene, &ids, NULL, &s, &err), KILN_E_USAGE);
    assert_int_equal(kiln_cooked_scene_build(NULL, &ids, NULL, &s, &err), KILN_E_USAGE);
    assert_int_equal(kiln_cooked_scene_build(scene, NULL, NULL, &s, &err), KILN_E_USAGE);
    kiln_scene_free(scene);
}

/* The skinned node "grandchild" (source node 3) draws the copy of mesh 0 that follows skin 0. */
static int32_t grandchild_draws_a_copy(void *user, uint32_t node)
{
    (void)user;
    return node == 3 ? 0 : -1;
}
static int32_t copy_of_a_missing_skin(void *user, uint32_t node)
{
    (void)user;
    return node == 3 ? 5 : -1;
}

/* A node drawing another copy of a mesh lists that copy's ids ("mesh<i>/prim<p>/skin<s>" from
 * the guid) in a range of its own; the other nodes of the mesh keep sharing the first copy's. */
static void copies_of_a_mesh_get_their_own_ranges(void **state)
{
    (void)state;
    kiln_scene *scene = kt_fixture_scene(false);
    assert_non_null(scene);
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    ids.mesh_copy = grandchild_draws_a_copy;
    kiln_cooked_scene s;
    kiln_error err;
    assert_int_equal(kiln_cooked_scene_build(scene, &ids, NULL, &s, &err), KILN_OK);
    const kiln_cooked_node *mesh_node = &s.nodes[2], *copy_node = &s.nodes[4];
    assert_int_equal(mesh_node->source_node, 1);
    assert_int_equal(copy_node->source_node, 3);
    assert_int_equal(mesh_node->mesh, 0);
    assert_int_equal(copy_node->mesh, 0);
    assert_int_equal(mesh_node->primitive_count, 2);
    assert_int_equal(copy_node->primitive_count, 2);
    assert_int_not_equal(mesh_node->first_primitive, copy_node->first_primitive);
    assert_true(s.primitives[mesh_node->first_primitive] == id("mesh0/prim0"));
    assert_true(s.primitives[copy_node->first_primitive] == id("mesh0/prim0/skin0"));
    assert_true(s.primitives[copy_node->first_primitive + 1] == id("mesh0/prim1/skin0"));
    assert_int_equal(copy_node->skin, 0);
    assert_int_equal(s.primitive_count, 5); /* mesh 0 twice, mesh 1 once */
    kiln_cooked_scene_free(&s);
    ids.mesh_copy = copy_of_a_missing_skin;
    assert_int_equal(kiln_cooked_scene_build(scene, &ids, NULL, &s, &err), KILN_E_USAGE);
    kiln_scene_free(scene);
}

/* ---- hand-built hostile trees --------------------------------------------------------------- */

typedef struct tree {
    kiln_scene scene;
    kiln_scene_node nodes[6];
    uint32_t children[6][6];
    uint32_t roots[4];
    kiln_scene_mesh mesh;
    kiln_scene_camera camera;
    kiln_scene_light light;
    float weights[2];
} tree;

/* n nodes in a chain 0 -> 1 -> ... unless the test rewires them; node 0 the only root. */
static void tree_init(tree *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < n; i++) {
        kiln_scene_node *k = &t->nodes[i];
        k->name = "n";
        k->parent = (int32_t)i - 1;
        k->rotation[3] = 1;
        k->scale[0] = k->scale[1] = k->scale[2] = 1;
        k->matrix[0] = k->matrix[5] = k->matrix[10] = k->matrix[15] = 1;
        k->mesh = k->skin = k->camera = k->light = -1;
        k->children = t->children[i];
        if (i + 1 < n) {
            t->children[i][0] = i + 1;
            k->child_count = 1;
        }
    }
    t->scene.nodes = t->nodes;
    t->scene.node_count = n;
    t->roots[0] = 0;
    t->scene.roots = t->roots;
    t->scene.root_count = 1;
    t->scene.default_scene = -1;
    t->scene.meshes = &t->mesh;
    t->scene.mesh_count = 1;
    t->mesh.primitive_count = 1;
    t->mesh.weights = t->weights;
    t->mesh.weight_count = 2;
    t->scene.cameras = &t->camera;
    t->scene.camera_count = 1;
    t->scene.lights = &t->light;
    t->scene.light_count = 1;
}

static kiln_result try_build(tree *t, kiln_error *err)
{
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    kiln_cooked_scene s;
    kiln_result r = kiln_cooked_scene_build(&t->scene, &ids, NULL, &s, err);
    if (r == KILN_OK) {
        uint8_t *bytes;
        size_t size;
        r = kiln_cooked_scene_write(&s, NULL, &bytes, &size, err);
        if (r == KILN_OK) kiln_free(NULL, bytes, size);
    } else {
        static const kiln_cooked_scene zero;
        assert_memory_equal(&s, &zero, sizeof s); /* freed and zeroed on error */
    }
    kiln_cooked_scene_free(&s);
    return r;
}

static void hostile_trees_are_errors(void **state)
{
    (void)state;
    tree t;
    kiln_error err;
    tree_init(&t, 4);
    assert_int_equal(try_build(&t, &err), KILN_OK);
    /* A cycle: 3 -> 1. */
    tree_init(&t, 4);
    t.children[3][0] = 1;
    t.nodes[3].child_count = 1;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "reached twice"));
    /* Two parents: 0 lists 2 as well. */
    tree_init(&t, 4);
    t.children[0][1] = 2;
    t.nodes[0].child_count = 2;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    /* A root listed twice. */
    tree_init(&t, 4);
    t.roots[1] = 0;
    t.scene.root_count = 2;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    /* Indices out of range. */
    tree_init(&t, 4);
    t.children[1][0] = 9;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.roots[0] = 4;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[2].mesh = 1;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[2].camera = 1;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[2].light = 3;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[2].skin = 0; /* no skins */
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    /* Values not finite, types unknown. */
    tree_init(&t, 4);
    t.nodes[1].matrix[3] = NAN;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[1].mesh = 0;
    t.weights[1] = INFINITY;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[1].camera = 0;
    t.camera.type = (kiln_scene_camera_type)5;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    tree_init(&t, 4);
    t.nodes[1].light = 0;
    t.light.intensity = NAN;
    assert_int_equal(try_build(&t, &err), KILN_E_IMPORT_FAILED);
    /* No roots: an empty scene named "scene". */
    tree_init(&t, 4);
    t.scene.root_count = 0;
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    kiln_cooked_scene s;
    assert_int_equal(kiln_cooked_scene_build(&t.scene, &ids, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.node_count, 0);
    assert_string_equal(s.name, "scene");
    uint8_t *bytes;
    size_t size;
    assert_int_equal(kiln_cooked_scene_write(&s, NULL, &bytes, &size, &err), KILN_OK);
    kiln_cooked_scene_view v;
    assert_int_equal(kiln_cooked_scene_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_int_equal(v.node_count, 0);
    assert_string_equal(v.name, "scene");
    kiln_free(NULL, bytes, size);
    kiln_cooked_scene_free(&s);
}

/* What a scene's refs said about skeletons: each distinct id once, in first-report order. */
typedef struct skeleton_reports {
    uint64_t first[80];
    uint32_t distinct, reports;
    bool unflagged; /* a skeleton without KILN_REF_LOAD | KILN_REF_ONCE */
} skeleton_reports;

static kiln_result on_skeleton(void *user, uint64_t asset_id, uint32_t kind, uint32_t flags,
                               kiln_error *err)
{
    (void)err;
    skeleton_reports *r = user;
    if (kind != KILN_SKELETON_KIND) return KILN_OK;
    r->reports++;
    r->unflagged |= flags != (KILN_REF_LOAD | KILN_REF_ONCE);
    for (uint32_t i = 0; i < r->distinct; i++)
        if (r->first[i] == asset_id) return KILN_OK;
    if (r->distinct < 80) r->first[r->distinct] = asset_id;
    r->distinct++;
    return KILN_OK;
}

static void deep_chain_needs_no_recursion(void **state)
{
    (void)state;
    /* 200,000 nodes in one chain: an explicit stack, and a linear reader. */
    const uint32_t n = 200000;
    kiln_scene scene;
    memset(&scene, 0, sizeof scene);
    kiln_scene_node *nodes = calloc(n, sizeof *nodes);
    uint32_t *kids = malloc(n * sizeof *kids);
    for (uint32_t i = 0; i < n; i++) {
        nodes[i].name = "";
        nodes[i].parent = (int32_t)i - 1;
        nodes[i].rotation[3] = 1;
        nodes[i].scale[0] = nodes[i].scale[1] = nodes[i].scale[2] = 1;
        nodes[i].matrix[0] = nodes[i].matrix[5] = nodes[i].matrix[10] = nodes[i].matrix[15] = 1;
        nodes[i].mesh = nodes[i].skin = nodes[i].camera = nodes[i].light = -1;
        kids[i] = i + 1;
        nodes[i].children = &kids[i];
        nodes[i].child_count = i + 1 < n;
    }
    uint32_t root = 0;
    scene.nodes = nodes;
    scene.node_count = n;
    scene.roots = &root;
    scene.root_count = 1;
    scene.default_scene = -1;
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    kiln_cooked_scene s;
    kiln_error err;
    assert_int_equal(kiln_cooked_scene_build(&scene, &ids, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.node_count, n);
    assert_int_equal(s.nodes[n - 1].parent, n - 2);
    assert_int_equal(s.nodes[1].subtree_end, n);
    /* Skeletons laid out against a naive "seen at an earlier node?" search: 64 distinct ones
     * first, then a 65th and 66th first named halfway down and alternating to the end. */
    for (uint32_t i = 0; i < n; i++) {
        s.nodes[i].skeleton = i < 64 ? i + 1 : i < n / 2 ? 1 : 65 + (i & 1);
        s.nodes[i].skin = (uint32_t)(s.nodes[i].skeleton - 1);
    }
    uint8_t *bytes;
    size_t size;
    assert_int_equal(kiln_cooked_scene_write(&s, NULL, &bytes, &size, &err), KILN_OK);
    kiln_cooked_scene_view v;
    assert_int_equal(kiln_cooked_scene_read(bytes, size, 0, &v, &err), KILN_OK);
    /* The scene kind reports them in first-use order, each flagged once-only, in a walk linear
     * in the nodes: repeats past the first 64 are the caller's to drop. */
    skeleton_reports rep = {0};
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(KILN_COOKED_SCENE_KIND);
    assert_non_null(k);
    assert_int_equal(k->refs(&v, on_skeleton, &rep, &err), KILN_OK);
    assert_int_equal(rep.distinct, 66);
    for (uint32_t i = 0; i < 66; i++) assert_true(rep.first[i] == i + 1);
    assert_true(rep.reports <= n);
    assert_false(rep.unflagged);
    kiln_free(NULL, bytes, size);
    kiln_cooked_scene_free(&s);
    free(nodes);
    free(kids);
}

/* ---- bytes ---------------------------------------------------------------------------------- */

static void round_trip_and_golden_bytes(void **state)
{
    (void)state;
    kiln_scene *scene = kt_fixture_scene(false);
    assert_non_null(scene);
    kiln_cooked_scene s;
    build(scene, &s);
    uint8_t *bytes;
    size_t size;
    kiln_error err;
    assert_int_equal(kiln_cooked_scene_write(&s, NULL, &bytes, &size, &err), KILN_OK);
    kt_check_golden("scene_demo.scen", bytes, size);
    kiln_cooked_scene_view v;
    assert_int_equal(kiln_cooked_scene_read(bytes, size, 0, &v, &err), KILN_OK);
    assert_int_equal(v.container.kind, KILN_COOKED_SCENE_KIND);
    assert_int_equal(v.name_size, s.name_size);
    assert_memory_equal(v.name, s.name, s.name_size);
    assert_int_equal(v.flags, s.flags);
    assert_int_equal(v.source_scene, s.source_scene);
    assert_memory_equal(v.bounds_min, s.bounds_min, sizeof v.bounds_min);
    assert_memory_equal(v.bounds_max, s.bounds_max, sizeof v.bounds_max);
    assert_int_equal(v.node_count, s.node_count);
    for (uint32_t i = 0; i < s.node_count; i++) {
        kiln_cooked_node a = s.nodes[i], b = kiln_cooked_scene_node(&v, i);
        assert_int_equal(a.name_size, b.name_size);
        assert_memory_equal(a.name, b.name, a.name_size);
        assert_int_equal(b.name[b.name_size], 0);
        a.name = b.name = NULL;
        assert_memory_equal(&a, &b, sizeof a); /* every other member, padding zeroed on both */
    }
    assert_int_equal(v.primitive_count, s.primitive_count);
    for (uint32_t i = 0; i < s.primitive_count; i++)
        assert_true(kiln_cooked_scene_primitive(&v, i) == s.primitives[i]);
    assert_int_equal(v.weight_count, s.weight_count);
    for (uint32_t i = 0; i < s.weight_count; i++)
        assert_true(kiln_cooked_scene_weight(&v, i) == s.weights[i]);
    assert_int_equal(v.clip_count, s.clip_count);
    for (uint32_t i = 0; i < s.clip_count; i++)
        assert_true(kiln_cooked_scene_clip(&v, i) == s.clips[i]);
    assert_int_equal(v.camera_count, s.camera_count);
    for (uint32_t i = 0; i < s.camera_count; i++) {
        kiln_cooked_camera a = s.cameras[i], b = kiln_cooked_scene_camera(&v, i);
        assert_string_equal(a.name, b.name);
        a.name = b.name = NULL;
        assert_memory_equal(&a, &b, sizeof a);
    }
    assert_int_equal(v.light_count, s.light_count);
    for (uint32_t i = 0; i < s.light_count; i++) {
        kiln_cooked_light a = s.lights[i], b = kiln_cooked_scene_light(&v, i);
        assert_string_equal(a.name, b.name);
        a.name = b.name = NULL;
        assert_memory_equal(&a, &b, sizeof a);
    }
    /* Out of range: zeroed records. */
    kiln_cooked_node none = kiln_cooked_scene_node(&v, 7);
    assert_null(none.name);
    assert_true(kiln_cooked_scene_primitive(&v, 3) == 0);
    /* Deterministic: a second build and write give the same bytes. */
    kiln_cooked_scene s2;
    build(scene, &s2);
    uint8_t *again;
    size_t again_size;
    assert_int_equal(kiln_cooked_scene_write(&s2, NULL, &again, &again_size, &err), KILN_OK);
    assert_int_equal(size, again_size);
    assert_memory_equal(bytes, again, size);
    kiln_free(NULL, again, again_size);
    kiln_cooked_scene_free(&s2);
    kiln_free(NULL, bytes, size);
    kiln_cooked_scene_free(&s);
    kiln_scene_free(scene);
}

/* What a reader that said OK promises, checked through the accessors only. */
static void assert_valid(const kiln_cooked_scene_view *v)
{
    for (uint32_t i = 0; i < v->node_count; i++) {
        kiln_cooked_node n = kiln_cooked_scene_node(v, i);
        assert_true(i == 0 ? n.parent == NONE : n.parent < i);
        assert_true(n.subtree_end > i && n.subtree_end <= v->node_count);
        if (i) assert_true(n.subtree_end <= kiln_cooked_scene_node(v, n.parent).subtree_end);
        assert_int_equal(strlen(n.name), n.name_size);
        assert_true(n.primitive_count <= v->primitive_count - n.first_primitive);
        assert_true(n.weight_count <= v->weight_count - n.first_weight);
        assert_true(n.camera == NONE || n.camera < v->camera_count);
        assert_true(n.light == NONE || n.light < v->light_count);
        for (int k = 0; k < 16; k++) assert_true(isfinite(n.matrix[k]));
    }
    for (uint32_t i = 0; i < v->primitive_count; i++)
        assert_true(kiln_cooked_scene_primitive(v, i) != 0);
}

static kiln_result read_scene(void *user, const uint8_t *b, size_t n)
{
    kiln_error err;
    return kiln_cooked_scene_read(b, n, 0, user, &err);
}
static void check_scene(void *user) { assert_valid(user); }

static void every_flip_and_truncation_is_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = kt_fixture_scene_bytes(false, &size);
    assert_non_null(bytes);
    kiln_cooked_scene_view v;
    kt_flip_counts c = kt_container_flips(bytes, size, read_scene, check_scene, &v);
    print_message("resealed flips: %zu refused, %zu accepted and valid\n", c.refused, c.accepted);
    free(bytes);
}

/* File offset of section `id`'s data in bytes (from the table). */
static size_t section_offset(const uint8_t *bytes, uint32_t id)
{
    uint32_t count;
    memcpy(&count, bytes + 32, 4);
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = bytes + 64 + 32 * (size_t)i;
        uint32_t sid;
        uint64_t off;
        memcpy(&sid, e, 4);
        memcpy(&off, e + 8, 8);
        if (sid == id) return (size_t)off;
    }
    fail_msg("no section");
    return 0;
}

static void structural_damage_with_valid_checksum(void **state)
{
    (void)state;
    size_t size;
    kiln_cooked_scene_view v;
    kiln_error err;
    enum { H, N, P, W, C, L, K, S };
    static const uint32_t ids[] = {KILN_SCENE_SECTION_HEADER,     KILN_SCENE_SECTION_NODES,
                                   KILN_SCENE_SECTION_PRIMITIVES, KILN_SCENE_SECTION_WEIGHTS,
                                   KILN_SCENE_SECTION_CAMERAS,    KILN_SCENE_SECTION_LIGHTS,
                                   KILN_SCENE_SECTION_CLIPS,      KILN_SCENE_SECTION_STRINGS};
    const struct {
        int section;
        size_t at; /* within the section */
        uint32_t value;
        int width; /* 4, or 8 for a u64 */
        kiln_result code;
        const char *fragment;
    } cases[] = {
        {-1, 8, KILN_FOURCC('M', 'A', 'T', 'L'), 4, KILN_E_FORMAT_INVALID, "not of kind SCEN"},
        {-1, 12, 9, 4, KILN_E_FORMAT_VERSION, "cook again"},
        {-1, 64 + 32, KILN_FOURCC('N', 'O', 'D', 'F'), 4, KILN_E_FORMAT_INVALID, "sections"},
        {H, 0, 100000, 4, KILN_E_FORMAT_INVALID, "scene name"},
        {H, 8, 4, 4, KILN_E_FORMAT_INVALID, "scene flags"},
        {H, 16, 0x7F800000u, 4, KILN_E_FORMAT_INVALID, "bounds not finite"},
        {H, 16, 0x4f000000u, 4, KILN_E_FORMAT_INVALID, "min > max"},
        {H, 8, 2, 4, KILN_E_FORMAT_INVALID, "synthetic"}, /* flag dropped */
        {N, 0, 0, 4, KILN_E_FORMAT_INVALID, "the root has a parent"},
        {N, 4, 6, 4, KILN_E_FORMAT_INVALID, "subtree is not every node"},
        {N, 168 * 2, 2, 4, KILN_E_FORMAT_INVALID, "does not come before"},
        {N, 168 * 5, 1, 4, KILN_E_FORMAT_INVALID, "pre-order"}, /* root_b under root_a */
        {N, 168 * 3 + 4, 6, 4, KILN_E_FORMAT_INVALID, "outside its parent"},
        {N, 168 * 2 + 4, 2, 4, KILN_E_FORMAT_INVALID, "outside its parent"},
        {N, 168 * 1 + 8, 5000, 4, KILN_E_FORMAT_INVALID, "bad name"},
        {N, 168 * 1 + 12, 50, 4, KILN_E_FORMAT_INVALID, "bad name"},
        {N, 168 * 1 + 16, 8, 4, KILN_E_FORMAT_INVALID, "unknown flags"},
        {N, 168 * 1 + 16, 1, 4, KILN_E_FORMAT_INVALID, "synthetic"},
        {N, 168 * 1 + 20, NONE, 4, KILN_E_FORMAT_INVALID, "source node"},
        {N, 168 * 1 + 24, 0x7FC00000u, 4, KILN_E_FORMAT_INVALID, "not finite"},
        {N, 168 * 2 + 132, 2, 4, KILN_E_FORMAT_INVALID, "primitive range"},
        {N, 168 * 2 + 136, 4, 4, KILN_E_FORMAT_INVALID, "primitive range"},
        {N, 168 * 2 + 128, NONE, 4, KILN_E_FORMAT_INVALID, "primitive range"}, /* no mesh */
        {N, 168 * 2 + 148, 2, 4, KILN_E_FORMAT_INVALID, "weight range"},
        {N, 168 * 2 + 152, 0, 4, KILN_E_FORMAT_INVALID, "instance weights"},
        {N, 168 * 3 + 140, 2, 4, KILN_E_FORMAT_INVALID, "camera out of range"},
        {N, 168 * 5 + 144, 7, 4, KILN_E_FORMAT_INVALID, "light out of range"},
        {N, 168 * 4 + 156, NONE, 4, KILN_E_FORMAT_INVALID, "skin"},
        {N, 168 * 4 + 160, 0, 8, KILN_E_FORMAT_INVALID, "skin"},
        {P, 8, 0, 8, KILN_E_FORMAT_INVALID, "id 0"},
        {K, 0, 0, 8, KILN_E_FORMAT_INVALID, "id 0"},
        {W, 0, 0xFF800000u, 4, KILN_E_FORMAT_INVALID, "weight 0: not finite"},
        {C, 0, 2, 4, KILN_E_FORMAT_INVALID, "unknown type"},
        {C, 40 + 16, 0x7F800000u, 4, KILN_E_FORMAT_INVALID, "camera 1: not finite"},
        {L, 48, 3, 4, KILN_E_FORMAT_INVALID, "unknown type"},
        {L, 44, 1, 4, KILN_E_FORMAT_INVALID, "reserved"},
        {L, 12, 3, 4, KILN_E_FORMAT_INVALID, "bad name"},    /* "lam" is not followed by a NUL */
        {S, 4, 'x', 1, KILN_E_FORMAT_INVALID, "scene name"}, /* "demo" loses its NUL */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *bytes = kt_fixture_scene_bytes(false, &size);
        assert_non_null(bytes);
        size_t at =
            cases[i].at + (cases[i].section < 0 ? 0 : section_offset(bytes, ids[cases[i].section]));
        if (cases[i].width == 8) kiln_store_u64le(bytes + at, cases[i].value);
        else if (cases[i].width == 4) kiln_store_u32le(bytes + at, cases[i].value);
        else bytes[at] = (uint8_t)cases[i].value;
        kt_container_reseal(bytes, size);
        kiln_result r = kiln_cooked_scene_read(bytes, size, 0, &v, &err);
        if (r != cases[i].code || !strstr(err.message, cases[i].fragment))
            fail_msg("case %zu: %s: %s", i, kiln_result_name(r), err.message);
        static const kiln_cooked_scene_view zero;
        assert_memory_equal(&v, &zero, sizeof v);
        free(bytes);
    }
}

/* ---- allocation failures -------------------------------------------------------------------- */

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
    if (f->countdown == 0) return NULL;
    if (f->countdown > 0) f->countdown--;
    void *p = realloc(ptr, new_size);
    (void)old_size;
    return p;
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
    kiln_scene *scene = kt_fixture_scene(false);
    assert_non_null(scene);
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    long n;
    for (n = 0;; n++) {
        failing f = {n, 0};
        kiln_allocator a = {f_alloc, f_realloc, f_free, &f};
        kiln_cooked_scene s;
        kiln_error err;
        kiln_result r = kiln_cooked_scene_build(scene, &ids, &a, &s, &err);
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (r == KILN_OK) r = kiln_cooked_scene_write(&s, &a, &bytes, &size, &err);
        kiln_cooked_scene_free(&s);
        if (r == KILN_OK) {
            kiln_free(&a, bytes, size);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    print_message("%ld allocation failures, each an error without a leak\n", n);
    assert_true(n > 5);
    kiln_scene_free(scene);
}

static void fuzz_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS");
    if (!on || strcmp(on, "1") != 0) skip();
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    for (int single = 0; single <= 1; single++) {
        size_t size;
        uint8_t *bytes = kt_fixture_scene_bytes(single, &size);
        assert_non_null(bytes);
        char *path =
            kt_format("%s/fuzz/corpus/scene_cooked/%s.scen", src, single ? "one_root" : "demo");
        kt_write_file(path, bytes, size);
        free(path);
        free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixture_nodes_in_pre_order_under_a_synthetic_root),
        cmocka_unit_test(one_root_stays_the_root),
        cmocka_unit_test(callbacks_give_ids_and_zero_leaves_a_reference_out),
        cmocka_unit_test(copies_of_a_mesh_get_their_own_ranges),
        cmocka_unit_test(hostile_trees_are_errors),
        cmocka_unit_test(deep_chain_needs_no_recursion),
        cmocka_unit_test(round_trip_and_golden_bytes),
        cmocka_unit_test(every_flip_and_truncation_is_refused),
        cmocka_unit_test(structural_damage_with_valid_checksum),
        cmocka_unit_test(every_allocation_failure_is_an_error_without_leaks),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
