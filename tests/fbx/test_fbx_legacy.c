/* test_fbx_legacy.c — kiln's own FBX reader: the node tree (fbx_tree.c) in both encodings and
 * its limits, and FBX 6.x into a scene (fbx_legacy.c).
 *
 * There is no binary FBX 6 file in the corpus, so the test writes its own: a small serializer
 * turns a parsed tree back into binary FBX (6100 with 32-bit record offsets, raw or zlib
 * arrays; 7500 with 64-bit offsets and zlib arrays), and the binary and ASCII forms must give
 * the same scene. Truncations and byte flips of both must give an error or a valid scene, never
 * a crash. Corpus cases (the Blender 2.79 ball, the 7500 Maya cubes) skip when it is absent.
 * With KILN_WRITE_FUZZ_SEEDS=1 the seeds of fuzz/corpus/fbx_tree/ are written from the small
 * file below (kiln's own, not the corpus). */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../fuzz/scene_check.h"
#include "core/buf.h"
#include "core/reader.h"
#include "import/assimp.h"
#include "import/fbx_blend.h"
#include "import/fbx_legacy.h"
#include "import/fbx_tree.h"
#include "import/scene_build.h"
#include "kiln/kiln.h"
#include "kiln/kiln_scene.h"
#include "process/scene_complete.h"

/* A small FBX 6.1 file: a null parent, a two-quad mesh under it with one material per quad,
 * a texture by relative name, +Z up in metres. */
static const char small_fbx[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXHeaderVersion: 1003\n"
    "\tFBXVersion: 6100\n"
    "}\n"
    "Objects:  {\n"
    "\tModel: \"Model::Parent\", \"Null\" {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,200,0\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: \"Model::Quad\", \"Mesh\" {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"Lcl Translation\", \"Lcl Translation\", \"A+\",100,0,0\n"
    "\t\t\tProperty: \"Lcl Rotation\", \"Lcl Rotation\", \"A+\",0,0,90\n"
    "\t\t\tProperty: \"Lift\", \"Number\", \"AN\",25\n"
    "\t\t}\n"
    "\t\tShading: Y\n"
    "\t\tVertices: 0,0,0,1,0,0,1,1,0,0,1,0,\n"
    "\t\t          2,0,0,2,1,0\n"
    "\t\tPolygonVertexIndex: 0,1,2,-4,1,4,5,-3\n"
    "\t\tLayerElementNormal: 0 {\n"
    "\t\t\tMappingInformationType: \"ByVertice\"\n"
    "\t\t\tReferenceInformationType: \"Direct\"\n"
    "\t\t\tNormals: 0,0,1,0,0,1,0,0,1,0,0,1,0,0,1,0,0,1\n"
    "\t\t}\n"
    "\t\tLayerElementUV: 0 {\n"
    "\t\t\tMappingInformationType: \"ByPolygonVertex\"\n"
    "\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
    "\t\t\tUV: 0,0,1,0,1,1,0,1\n"
    "\t\t\tUVIndex: 0,1,2,3,0,1,2,3\n"
    "\t\t}\n"
    "\t\tLayerElementMaterial: 0 {\n"
    "\t\t\tMappingInformationType: \"ByPolygon\"\n"
    "\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
    "\t\t\tMaterials: 0,1\n"
    "\t\t}\n"
    "\t\tShape: \"Lift\" {\n"
    "\t\t\tIndexes: 4,5\n"
    "\t\t\tVertices: 0,0,1,0,0,1\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: \"Model::Lamp\", \"Light\" {\n"
    "\t}\n"
    "\tMaterial: \"Material::Blue\", \"\" {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"DiffuseColor\", \"ColorRGB\", \"\",0,0,1\n"
    "\t\t\tProperty: \"DiffuseFactor\", \"double\", \"\",0.5\n"
    "\t\t}\n"
    "\t}\n"
    "\tMaterial: \"Material::Glow\", \"\" {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"Diffuse\", \"ColorRGB\", \"\",1,1,1\n"
    "\t\t\tProperty: \"EmissiveColor\", \"ColorRGB\", \"\",1,0.5,0\n"
    "\t\t\tProperty: \"EmissiveFactor\", \"double\", \"\",1\n"
    "\t\t}\n"
    "\t}\n"
    "\tTexture: \"Texture::wall\", \"TextureVideoClip\" {\n"
    "\t\tFileName: \"C:\\art\\wall.png\"\n"
    "\t\tRelativeFilename: \"maps\\wall.png\"\n"
    "\t}\n"
    "\tGlobalSettings:  {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"UpAxis\", \"int\", \"\",2\n"
    "\t\t\tProperty: \"UpAxisSign\", \"int\", \"\",1\n"
    "\t\t\tProperty: \"FrontAxis\", \"int\", \"\",1\n"
    "\t\t\tProperty: \"FrontAxisSign\", \"int\", \"\",-1\n"
    "\t\t\tProperty: \"CoordAxis\", \"int\", \"\",0\n"
    "\t\t\tProperty: \"CoordAxisSign\", \"int\", \"\",1\n"
    "\t\t\tProperty: \"UnitScaleFactor\", \"double\", \"\",100\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tConnect: \"OO\", \"Model::Parent\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Model::Quad\", \"Model::Parent\"\n"
    "\tConnect: \"OO\", \"Model::Lamp\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Material::Blue\", \"Model::Quad\"\n"
    "\tConnect: \"OO\", \"Material::Glow\", \"Model::Quad\"\n"
    "\tConnect: \"OP\", \"Texture::wall\", \"Material::Blue\", \"DiffuseColor\"\n"
    "}\n"
    "Takes:  {\n"
    "\tTake: \"Default Take\" {\n"
    "\t}\n"
    "\tTake: \"Slide\" {\n"
    "\t\tLocalTime: 0,46186158000\n"
    "\t\tModel: \"Model::Quad\" {\n"
    "\t\t\tChannel: \"Transform\" {\n"
    "\t\t\t\tChannel: \"T\" {\n"
    "\t\t\t\t\tChannel: \"X\" {\n"
    "\t\t\t\t\t\tKeyCount: 2\n"
    "\t\t\t\t\t\tKey: \n"
    "\t\t\t\t\t\t\t0,100,L,46186158000,300,L\n"
    "\t\t\t\t\t}\n"
    "\t\t\t\t}\n"
    "\t\t\t\tChannel: \"R\" {\n"
    "\t\t\t\t\tChannel: \"Z\" {\n"
    "\t\t\t\t\t\tKeyCount: 2\n"
    "\t\t\t\t\t\tKey: 0,90,C,n,23093079000,0,L\n"
    "\t\t\t\t\t}\n"
    "\t\t\t\t}\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "}\n";

/* A skinned strip: two limbs (Tip 1 unit above Root), a 1 x 2 quad whose bottom follows Root
 * and whose top is shared half and half. */
static const char skinned_fbx[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXVersion: 6100\n"
    "}\n"
    "Objects:  {\n"
    "\tModel: \"Model::Root\", \"Limb\" {\n"
    "\t}\n"
    "\tModel: \"Model::Tip\", \"Limb\" {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,1,0\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: \"Model::Strip\", \"Mesh\" {\n"
    "\t\tVertices: 0,0,0,1,0,0,0,2,0,1,2,0\n"
    "\t\tPolygonVertexIndex: 0,1,3,-3\n"
    "\t}\n"
    "\tDeformer: \"Deformer::Skin Strip\", \"Skin\" {\n"
    "\t}\n"
    "\tDeformer: \"SubDeformer::Cluster Root\", \"Cluster\" {\n"
    "\t\tIndexes: 0,1,2,3\n"
    "\t\tWeights: 1,1,0.5,0.5\n"
    "\t\tTransform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n"
    "\t\tTransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n"
    "\t}\n"
    "\tDeformer: \"SubDeformer::Cluster Tip\", \"Cluster\" {\n"
    "\t\tIndexes: 2,3,9\n"
    "\t\tWeights: 0.5,0.5,1\n"
    "\t\tTransform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n"
    "\t\tTransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,0,1,0,1\n"
    "\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tConnect: \"OO\", \"Model::Root\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Model::Tip\", \"Model::Root\"\n"
    "\tConnect: \"OO\", \"Model::Strip\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Deformer::Skin Strip\", \"Model::Strip\"\n"
    "\tConnect: \"OO\", \"SubDeformer::Cluster Root\", \"Deformer::Skin Strip\"\n"
    "\tConnect: \"OO\", \"SubDeformer::Cluster Tip\", \"Deformer::Skin Strip\"\n"
    "\tConnect: \"OO\", \"Model::Root\", \"SubDeformer::Cluster Root\"\n"
    "\tConnect: \"OO\", \"Model::Tip\", \"SubDeformer::Cluster Tip\"\n"
    "}\n";

/* FBX 7.4 ASCII with one blend shape channel (50 %) moving the small file's control points 4
 * and 5 by +1 in Z; %s is where a seventh control point can be added. */
static const char blend_fbx_fmt[] =
    "; FBX 7.4.0 project file\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXVersion: 7400\n"
    "}\n"
    "Objects:  {\n"
    "\tGeometry: 10, \"Geometry::\", \"Mesh\" {\n"
    "\t\tVertices: *18 {\n"
    "\t\t\ta: 0,0,0,1,0,0,1,1,0,0,1,0,2,0,0,2,1,0%s\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: 20, \"Model::Quad\", \"Mesh\" {\n"
    "\t}\n"
    "\tDeformer: 30, \"Deformer::Bend\", \"BlendShape\" {\n"
    "\t}\n"
    "\tDeformer: 40, \"SubDeformer::Bend.Up\", \"BlendShapeChannel\" {\n"
    "\t\tDeformPercent: 50\n"
    "\t}\n"
    "\tGeometry: 50, \"Geometry::Up\", \"Shape\" {\n"
    "\t\tIndexes: *2 {\n"
    "\t\t\ta: 4,5\n"
    "\t\t}\n"
    "\t\tVertices: *6 {\n"
    "\t\t\ta: 0,0,1,0,0,1\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tC: \"OO\",10,20\n"
    "\tC: \"OO\",30,10\n"
    "\tC: \"OO\",40,30\n"
    "\tC: \"OO\",50,40\n"
    "}\n";

/* ---- a binary FBX writer for parsed trees ---------------------------------------------------- */

typedef struct writer {
    kiln_buf b;
    bool wide, zip;
} writer;

static void w_u32(writer *w, uint32_t v) { kiln_buf_append_u32le(&w->b, v); }
static void w_off(writer *w, uint64_t v)
{
    if (w->wide) kiln_buf_append_u64le(&w->b, v);
    else kiln_buf_append_u32le(&w->b, (uint32_t)v);
}
static void w_patch(writer *w, size_t at, uint64_t v)
{
    if (w->wide) kiln_store_u64le(w->b.data + at, v);
    else kiln_store_u32le(w->b.data + at, (uint32_t)v);
}

static void w_array(writer *w, char type, const void *data, size_t count, size_t elem)
{
    kiln_buf_append(&w->b, &type, 1);
    size_t bytes = count * elem;
    w_u32(w, (uint32_t)count);
    if (!w->zip || !bytes) {
        w_u32(w, 0);
        w_u32(w, (uint32_t)bytes);
        kiln_buf_append(&w->b, data, bytes);
        return;
    }
    uLongf zsize = compressBound((uLong)bytes);
    Bytef *z = malloc(zsize);
    assert_non_null(z);
    assert_int_equal(compress2(z, &zsize, data, (uLong)bytes, 6), Z_OK);
    w_u32(w, 1);
    w_u32(w, (uint32_t)zsize);
    kiln_buf_append(&w->b, z, zsize);
    free(z);
}

static void w_prop(writer *w, const kiln_fbx_prop *p)
{
    char t = p->type;
    switch (t) {
    case 'L':
        if (p->i >= INT32_MIN && p->i <= INT32_MAX) {
            kiln_buf_append(&w->b, "I", 1);
            w_u32(w, (uint32_t)(int32_t)p->i);
        } else {
            kiln_buf_append(&w->b, "L", 1);
            kiln_buf_append_u64le(&w->b, (uint64_t)p->i);
        }
        break;
    case 'D': {
        uint64_t u;
        memcpy(&u, &p->d, 8);
        kiln_buf_append(&w->b, "D", 1);
        kiln_buf_append_u64le(&w->b, u);
        break;
    }
    case 'S':
    case 'R':
        kiln_buf_append(&w->b, &t, 1);
        w_u32(w, (uint32_t)p->count);
        kiln_buf_append(&w->b, p->data, p->count);
        break;
    case 'l': {
        /* Integer lists as i32 arrays, as FBX writers store indices. */
        const int64_t *v = p->data;
        bool fits = true;
        for (size_t i = 0; i < p->count; i++) fits = fits && v[i] >= INT32_MIN && v[i] <= INT32_MAX;
        if (!fits) {
            w_array(w, 'l', v, p->count, 8);
            break;
        }
        int32_t *n = malloc(p->count * 4 + 4);
        assert_non_null(n);
        for (size_t i = 0; i < p->count; i++) n[i] = (int32_t)v[i];
        w_array(w, 'i', n, p->count, 4);
        free(n);
        break;
    }
    case 'd':
        w_array(w, 'd', p->data, p->count, 8);
        break;
    default:
        fail_msg("writer: property type %c", t);
    }
}

static void w_node(writer *w, const kiln_fbx_node *n)
{
    size_t at = w->b.size;
    w_off(w, 0), w_off(w, n->prop_count), w_off(w, 0);
    uint8_t len = (uint8_t)strlen(n->name);
    kiln_buf_append(&w->b, &len, 1);
    kiln_buf_append(&w->b, n->name, len);
    size_t props = w->b.size;
    for (uint32_t i = 0; i < n->prop_count; i++) w_prop(w, &n->props[i]);
    w_patch(w, at + (w->wide ? 16 : 8), w->b.size - props);
    for (uint32_t i = 0; i < n->child_count; i++) w_node(w, &n->children[i]);
    if (n->child_count || !n->prop_count) kiln_buf_append_zeros(&w->b, w->wide ? 25 : 13);
    w_patch(w, at, w->b.size);
}

/* tree as a binary FBX of the given version (7500+: 64-bit); the caller frees *size bytes. */
static uint8_t *to_binary(const kiln_fbx_tree *t, uint32_t version, bool zip, size_t *size)
{
    writer w;
    memset(&w, 0, sizeof w);
    kiln_buf_init(&w.b, NULL);
    w.wide = version >= 7500;
    w.zip = zip;
    kiln_buf_append(&w.b, "Kaydara FBX Binary  \0\x1a\0", 23);
    w_u32(&w, version);
    for (uint32_t i = 0; i < t->root.child_count; i++) w_node(&w, &t->root.children[i]);
    kiln_buf_append_zeros(&w.b, w.wide ? 25 : 13);
    kiln_buf_append_zeros(&w.b, 16); /* a footer's worth */
    assert_false(w.b.failed);
    size_t cap;
    uint8_t *p = kiln_buf_detach(&w.b, size, &cap);
    return p; /* libc allocator: free() */
}

/* ---- helpers --------------------------------------------------------------------------------- */

static void parse_ok(const void *data, size_t size, kiln_fbx_tree *t)
{
    kiln_error err;
    kiln_result r = kiln_fbx_tree_parse(data, size, NULL, NULL, t, &err);
    if (r != KILN_OK)
        fail_msg("parse: %s (%s at %llu)", kiln_result_name(r), err.message,
                 (unsigned long long)err.offset);
}

static bool prop_equal(const kiln_fbx_prop *a, const kiln_fbx_prop *b)
{
    kiln_fbx_node na = {"", a, 1, NULL, 0, 0}, nb = {"", b, 1, NULL, 0, 0};
    kiln_fbx_values va, vb;
    if (kiln_fbx_values_of(&na, &va) && kiln_fbx_values_of(&nb, &vb)) {
        if (va.count != vb.count) return false;
        for (size_t i = 0; i < va.count; i++)
            if (kiln_fbx_values_f64(&va, i) != kiln_fbx_values_f64(&vb, i)) return false;
        return true;
    }
    return a->type == b->type && a->count == b->count && !memcmp(a->data, b->data, a->count);
}

/* Trees equal node for node, value for value (numbers compared as numbers). */
static void trees_equal(const kiln_fbx_node *a, const kiln_fbx_node *b)
{
    if (strcmp(a->name, b->name) || a->prop_count != b->prop_count ||
        a->child_count != b->child_count)
        fail_msg("node %s/%s: %u/%u values, %u/%u children", a->name, b->name, a->prop_count,
                 b->prop_count, a->child_count, b->child_count);
    for (uint32_t i = 0; i < a->prop_count; i++)
        if (!prop_equal(&a->props[i], &b->props[i]))
            fail_msg("node %s: value %u differs", a->name, i);
    for (uint32_t i = 0; i < a->child_count; i++) trees_equal(&a->children[i], &b->children[i]);
}

static kiln_scene *load_memory(const void *data, size_t size, const char *dir, kiln_result *code,
                               kiln_error *err)
{
    kiln_scene_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.flags = KILN_SCENE_LOAD_NO_PIXELS;
    kiln_scene *s = NULL;
    *code = kiln_scene_load_memory(data, size, dir, &o, &s, err);
    return s;
}

/* Scenes equal in what the importer fills: nodes, meshes and their streams, materials. */
static void scenes_equal(const kiln_scene *a, const kiln_scene *b)
{
    assert_int_equal(a->node_count, b->node_count);
    assert_int_equal(a->mesh_count, b->mesh_count);
    assert_int_equal(a->material_count, b->material_count);
    assert_int_equal(a->warning_count, b->warning_count);
    assert_int_equal(a->skin_count, b->skin_count);
    assert_int_equal(a->animation_count, b->animation_count);
    for (uint32_t i = 0; i < a->animation_count; i++) {
        assert_int_equal(a->animations[i].channel_count, b->animations[i].channel_count);
        for (uint32_t c = 0; c < a->animations[i].channel_count; c++) {
            const kiln_scene_channel *x = &a->animations[i].channels[c],
                                     *y = &b->animations[i].channels[c];
            assert_int_equal(x->key_count, y->key_count);
            assert_memory_equal(x->values, y->values, (size_t)x->key_count * x->components * 4);
        }
    }
    for (uint32_t i = 0; i < a->skin_count; i++) {
        assert_int_equal(a->skins[i].joint_count, b->skins[i].joint_count);
        assert_memory_equal(a->skins[i].inverse_bind, b->skins[i].inverse_bind,
                            (size_t)a->skins[i].joint_count * 64);
    }
    for (uint32_t i = 0; i < a->node_count; i++) {
        assert_string_equal(a->nodes[i].name, b->nodes[i].name);
        assert_int_equal(a->nodes[i].parent, b->nodes[i].parent);
        assert_memory_equal(a->nodes[i].matrix, b->nodes[i].matrix, sizeof a->nodes[i].matrix);
    }
    for (uint32_t i = 0; i < a->material_count; i++) {
        assert_string_equal(a->materials[i].name, b->materials[i].name);
        assert_memory_equal(a->materials[i].base_color, b->materials[i].base_color, 16);
        assert_memory_equal(a->materials[i].emissive, b->materials[i].emissive, 12);
    }
    for (uint32_t m = 0; m < a->mesh_count; m++) {
        assert_int_equal(a->meshes[m].primitive_count, b->meshes[m].primitive_count);
        for (uint32_t p = 0; p < a->meshes[m].primitive_count; p++) {
            const kiln_scene_primitive *x = &a->meshes[m].primitives[p],
                                       *y = &b->meshes[m].primitives[p];
            assert_int_equal(x->vertex_count, y->vertex_count);
            assert_int_equal(x->index_count, y->index_count);
            assert_int_equal(x->material, y->material);
            assert_memory_equal(x->positions, y->positions, (size_t)x->vertex_count * 12);
            assert_memory_equal(x->indices, y->indices, (size_t)x->index_count * 4);
            assert_true((x->normals == NULL) == (y->normals == NULL));
            if (x->normals)
                assert_memory_equal(x->normals, y->normals, (size_t)x->vertex_count * 12);
            assert_int_equal(x->texcoord_count, y->texcoord_count);
            assert_int_equal(x->joint_set_count, y->joint_set_count);
            if (x->joint_set_count) {
                assert_memory_equal(x->joints[0], y->joints[0], (size_t)x->vertex_count * 8);
                assert_memory_equal(x->weights[0], y->weights[0], (size_t)x->vertex_count * 16);
            }
        }
    }
}

static bool has_warning(const kiln_scene *s, const char *part)
{
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (strstr(s->warnings[i], part)) return true;
    return false;
}

static uint32_t count_warnings(const kiln_scene *s, const char *part)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->warning_count; i++) n += strstr(s->warnings[i], part) != NULL;
    return n;
}

static void *read_corpus(const char *rel, size_t *size)
{
    char *path = kt_corpus_path(rel);
    if (!path) return NULL;
    void *d = kt_read_file(path, size);
    free(path);
    return d;
}

/* ---- the tree -------------------------------------------------------------------------------- */

static void tree_reads_ascii_6x_lists_and_values(void **state)
{
    (void)state;
    kiln_fbx_tree t;
    parse_ok(small_fbx, sizeof small_fbx - 1, &t);
    assert_int_equal(t.version, 6100);
    assert_false(t.binary);
    assert_int_equal(kiln_fbx_sniff_version(small_fbx, sizeof small_fbx - 1), 6100);
    const kiln_fbx_node *objs = kiln_fbx_child(&t.root, "Objects");
    const kiln_fbx_node *quad = kiln_fbx_next(objs, kiln_fbx_child(objs, "Model"), "Model");
    assert_non_null(quad);
    size_t len;
    const char *full = kiln_fbx_string(quad, 0, &len);
    assert_string_equal(kiln_fbx_object_name(full, len + 1, NULL), "Quad");
    kiln_fbx_values v;
    assert_true(kiln_fbx_values_of(kiln_fbx_child(quad, "Vertices"), &v));
    assert_int_equal(v.count, 18); /* continued over a line after a comma */
    assert_true(kiln_fbx_values_of(kiln_fbx_child(quad, "PolygonVertexIndex"), &v));
    assert_int_equal(v.type, 'l');
    assert_int_equal(kiln_fbx_values_i64(&v, 3), -4);
    assert_string_equal(kiln_fbx_string(kiln_fbx_child(quad, "Shading"), 0, NULL), "Y");
    assert_true(kiln_fbx_property_number(quad, "Lcl Rotation", 2, 0) == 90.0);
    assert_true(kiln_fbx_property_number(quad, "Lcl Scaling", 0, 1.5) == 1.5);
    kiln_fbx_tree_free(&t);
    /* Binary names "Name\0\1Class". */
    static const char bin_name[] = "Cube\0\1Model";
    assert_string_equal(kiln_fbx_object_name(bin_name, sizeof bin_name, NULL), "Cube");
}

static void tree_binary_6100_and_7500_round_trip(void **state)
{
    (void)state;
    kiln_fbx_tree t;
    parse_ok(small_fbx, sizeof small_fbx - 1, &t);
    static const struct {
        uint32_t version;
        bool zip;
    } forms[] = {{6100, false}, {6100, true}, {7500, true}};
    for (size_t f = 0; f < 3; f++) {
        size_t size;
        uint8_t *bin = to_binary(&t, forms[f].version, forms[f].zip, &size);
        assert_int_equal(kiln_fbx_sniff_version(bin, size), forms[f].version);
        kiln_fbx_tree u;
        parse_ok(bin, size, &u);
        assert_true(u.binary);
        assert_int_equal(u.version, forms[f].version);
        trees_equal(&t.root, &u.root);
        kiln_fbx_tree_free(&u);
        free(bin);
    }
    kiln_fbx_tree_free(&t);
}

static void tree_reads_7500_ascii_and_binary_alike(void **state)
{
    (void)state;
    size_t an, bn;
    char *a = read_corpus("fbx/ufbx/maya_cube_7500_ascii.fbx", &an);
    char *b = read_corpus("fbx/ufbx/maya_cube_7500_binary.fbx", &bn);
    if (!a || !b) {
        free(a), free(b);
        skip();
    }
    kiln_fbx_tree ta, tb;
    parse_ok(a, an, &ta);
    parse_ok(b, bn, &tb);
    assert_int_equal(ta.version, 7500);
    assert_int_equal(tb.version, 7500);
    const kiln_fbx_node *ga = kiln_fbx_child(kiln_fbx_child(&ta.root, "Objects"), "Geometry");
    const kiln_fbx_node *gb = kiln_fbx_child(kiln_fbx_child(&tb.root, "Objects"), "Geometry");
    static const char *const arrays[] = {"Vertices", "PolygonVertexIndex", "Edges"};
    for (int k = 0; k < 3; k++) {
        kiln_fbx_values va, vb;
        assert_true(kiln_fbx_values_of(kiln_fbx_child(ga, arrays[k]), &va));
        assert_true(kiln_fbx_values_of(kiln_fbx_child(gb, arrays[k]), &vb));
        assert_int_equal(va.count, vb.count);
        for (size_t i = 0; i < va.count; i++)
            assert_true(fabs(kiln_fbx_values_f64(&va, i) - kiln_fbx_values_f64(&vb, i)) < 1e-6);
    }
    kiln_fbx_tree_free(&ta);
    kiln_fbx_tree_free(&tb);
    free(a), free(b);
}

static kiln_result parse_code(const void *data, size_t size, const kiln_fbx_limits *lim)
{
    kiln_fbx_tree t;
    kiln_error err;
    kiln_result r = kiln_fbx_tree_parse(data, size, NULL, lim, &t, &err);
    if (r != KILN_OK && !err.message[0]) fail_msg("an error without a message");
    kiln_fbx_tree_free(&t);
    return r;
}

static void tree_limits_hold(void **state)
{
    (void)state;
    /* Nesting past max_depth. */
    kiln_buf b;
    kiln_buf_init(&b, NULL);
    for (int i = 0; i < 200; i++) kiln_buf_append_str(&b, "a: {");
    for (int i = 0; i < 200; i++) kiln_buf_append_str(&b, "}");
    assert_int_equal(parse_code(b.data, b.size, NULL), KILN_E_LIMIT);
    kiln_fbx_limits deep = {0, 256, 0};
    assert_int_equal(parse_code(b.data, b.size, &deep), KILN_OK);
    kiln_buf_free(&b);
    /* Node count and memory. */
    kiln_fbx_limits few = {0, 0, 10};
    assert_int_equal(parse_code(small_fbx, sizeof small_fbx - 1, &few), KILN_E_LIMIT);
    kiln_fbx_limits small = {4096, 0, 0};
    assert_int_equal(parse_code(small_fbx, sizeof small_fbx - 1, &small), KILN_E_LIMIT);
    /* An unclosed brace, a stray one, an unclosed string. */
    assert_int_equal(parse_code("A: {", 4, NULL), KILN_E_IMPORT_FAILED);
    assert_int_equal(parse_code("}", 1, NULL), KILN_E_IMPORT_FAILED);
    assert_int_equal(parse_code("A: \"x", 5, NULL), KILN_E_IMPORT_FAILED);
    assert_int_equal(parse_code("A: *3 { a: 1,x }", 16, NULL), KILN_E_IMPORT_FAILED);
    assert_int_equal(parse_code("\0\0", 2, NULL), KILN_E_IMPORT_UNSUPPORTED);

    /* Binary: a 7500 array claiming 2^31 doubles from a few zlib bytes must not allocate them;
     * one whose inflated size is not its length is damaged; a node ending past its parent. */
    kiln_fbx_tree t;
    parse_ok(small_fbx, sizeof small_fbx - 1, &t);
    size_t size;
    uint8_t *bin = to_binary(&t, 7500, true, &size);
    kiln_fbx_tree_free(&t);
    uint8_t *p = NULL; /* the Vertices record's array: name, then 'd', count, encoding */
    for (size_t i = 27; i + 8 + 13 < size && !p; i++)
        if (!memcmp(bin + i, "\x08Vertices", 9)) p = bin + i + 9;
    assert_non_null(p);
    assert_true(p[0] == 'i' || p[0] == 'd');
    uint8_t keep[4];
    memcpy(keep, p + 1, 4);
    /* Issue 18: 2^31 doubles from a few bytes is damage (E_IMPORT_FAILED), not a limit; the
     * memory limit (E_LIMIT) is for a length the stored bytes could hold. */
    kiln_store_u32le(p + 1, 0x80000000u);
    assert_int_equal(parse_code(bin, size, NULL), KILN_E_IMPORT_FAILED);
    uint32_t elem = p[0] == 'd' ? 8 : 4, stored = kiln_load_u32le(p + 9);
    uint32_t plausible = (stored + 64) * 1032 / elem; /* what deflate could give */
    kiln_fbx_limits tight = {4096, 0, 0}; /* about the least that reads the file as it was */
    memcpy(p + 1, keep, 4);
    while (parse_code(bin, size, &tight) != KILN_OK && tight.memory_limit < (1u << 24))
        tight.memory_limit += 4096;
    assert_true((size_t)plausible * elem > tight.memory_limit); /* 89784 > 77824 bytes here */
    kiln_store_u32le(p + 1, plausible);
    assert_int_equal(parse_code(bin, size, &tight), KILN_E_LIMIT);
    kiln_store_u32le(p + 1, 0x100000u); /* within the limit, past deflate's 1032:1 */
    assert_int_equal(parse_code(bin, size, NULL), KILN_E_IMPORT_FAILED);
    kiln_store_u32le(p + 1, 3);
    assert_int_equal(parse_code(bin, size, NULL), KILN_E_IMPORT_FAILED);
    memcpy(p + 1, keep, 4);
    assert_int_equal(parse_code(bin, size, NULL), KILN_OK);
    kiln_store_u32le(p + 5, 7); /* unknown encoding */
    assert_int_equal(parse_code(bin, size, NULL), KILN_E_IMPORT_FAILED);
    kiln_store_u32le(p + 5, 1);
    kiln_store_u64le(bin + 27, (uint64_t)size + 100); /* the first node's end offset */
    assert_int_equal(parse_code(bin, size, NULL), KILN_E_IMPORT_FAILED);
    kiln_store_u64le(bin + 27, UINT64_MAX);
    assert_int_equal(parse_code(bin, size, NULL), KILN_E_IMPORT_FAILED);
    free(bin);
}

/* ---- FBX 6 into a scene ---------------------------------------------------------------------- */

static void legacy_small_file_layers_transforms_and_textures(void **state)
{
    (void)state;
    char *dir = kt_tempdir("fbx_legacy");
    char *png = kt_format("%s/maps/wall.png", dir);
    uint8_t px[4 * 4] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    kt_write_png(png, px, 2, 2, 4);
    kiln_result code;
    kiln_error err;
    kiln_scene *s = load_memory(small_fbx, sizeof small_fbx - 1, dir, &code, &err);
    if (code != KILN_OK) fail_msg("%s: %s", kiln_result_name(code), err.message);
    assert_string_equal(s->generator, "FBX 6 (kiln's own reader)");
    assert_int_equal(s->node_count, 3); /* RootNode, Parent, Quad; the lamp is dropped */
    assert_string_equal(s->nodes[2].name, "Quad");
    assert_int_equal(s->nodes[2].parent, 1);
    assert_true(has_warning(s, "light \"Lamp\" not imported"));
    /* Takes: the empty one is dropped; "Slide" moves Quad along X (100 to 300, linear) and holds
     * 90 degrees about Z until 0.5 s (a constant key), baked at 30 fps. */
    assert_true(has_warning(s, "animation \"Default Take\" animates nothing kiln imports"));
    assert_int_equal(s->animation_count, 1);
    const kiln_scene_animation *an = &s->animations[0];
    assert_string_equal(an->name, "Slide");
    assert_true(fabsf(an->end - 1.0f) < 1e-6f);
    assert_int_equal(an->channel_count, 3);
    for (uint32_t c = 0; c < 3; c++) {
        const kiln_scene_channel *ch = &an->channels[c];
        assert_int_equal(ch->node, 2);
        assert_int_equal(ch->key_count, 31);
        const float *k15 = ch->values + 15 * ch->components, *k7 = ch->values + 7 * ch->components,
                    *k23 = ch->values + 23 * ch->components;
        if (ch->path == KILN_SCENE_PATH_TRANSLATION) {
            assert_true(fabsf(k15[0] - 200.0f) < 1e-3f && fabsf(k15[1]) < 1e-6f);
        } else if (ch->path == KILN_SCENE_PATH_ROTATION) {
            assert_true(fabsf(fabsf(k7[2]) - 0.70710678f) < 1e-5f &&
                        fabsf(fabsf(k7[3]) - 0.70710678f) < 1e-5f);
            assert_true(fabsf(fabsf(k23[3]) - 1.0f) < 1e-5f);
        } else {
            assert_int_equal(ch->path, KILN_SCENE_PATH_SCALE);
            assert_true(fabsf(k15[0] - 1.0f) < 1e-6f);
        }
    }
    assert_int_equal(s->mesh_count, 1);
    assert_int_equal(s->meshes[0].primitive_count, 2);
    const kiln_scene_primitive *p0 = &s->meshes[0].primitives[0];
    assert_int_equal(p0->vertex_count, 4);
    assert_int_equal(p0->index_count, 6);
    assert_non_null(p0->normals);
    assert_int_equal(p0->texcoord_count, 1);
    /* UV (0, 0) of corner 0 becomes glTF's (0, 1). */
    assert_true(p0->texcoords[0][0] == 0.0f && p0->texcoords[0][1] == 1.0f);
    /* Materials: Blue = DiffuseColor x DiffuseFactor with the texture found by its relative
     * name; Glow from the 6.x "Diffuse" property, emissive x factor. */
    assert_int_equal(s->material_count, 2);
    assert_string_equal(s->materials[0].name, "Blue");
    assert_true(fabsf(s->materials[0].base_color[2] - 0.5f) < 1e-6f &&
                s->materials[0].base_color[0] == 0.0f);
    assert_int_equal(p0->material, 0);
    assert_int_equal(s->meshes[0].primitives[1].material, 1);
    /* The Shape child "Lift" moves control points 4 and 5 (x = 2) up by 1 in Z, 25 % by
     * default (the model's property of its name). */
    assert_int_equal(s->meshes[0].weight_count, 1);
    assert_true(s->meshes[0].weights[0] == 0.25f);
    assert_string_equal(s->meshes[0].target_names[0], "Lift");
    for (uint32_t q = 0; q < 2; q++) {
        const kiln_scene_primitive *pq = &s->meshes[0].primitives[q];
        assert_int_equal(pq->target_count, 1);
        for (uint32_t v = 0; v < pq->vertex_count; v++) {
            const float *d = pq->targets[0].positions + v * 3;
            assert_true(d[0] == 0 && d[1] == 0 &&
                        d[2] == (pq->positions[v * 3] == 2.0f ? 1.0f : 0.0f));
        }
    }
    assert_true(s->materials[1].base_color[0] == 1.0f && s->materials[1].emissive[1] == 0.5f);
    assert_int_equal(s->image_count, 1);
    assert_true(s->images[0].encoded_size > 0);
    assert_true(s->materials[0].textures[KILN_SCENE_SLOT_BASE_COLOR].texture >= 0);
    assert_true(s->file_count >= 1 && strstr(s->files[s->file_count - 1], "maps/wall.png"));
    /* +Z up in metres: the Quad's origin (100, 200, 0) in the file is (100, 0, -200) in kiln's
     * space, and its corner (1, 0, 0), turned 90 degrees about Z, lands at (100, 0, -201). */
    const float *w = s->nodes[2].world;
    assert_true(fabsf(w[12] - 100) < 1e-3f && fabsf(w[13]) < 1e-3f && fabsf(w[14] + 200) < 1e-3f);
    const float *v = p0->positions + 3;
    float x = w[0] * v[0] + w[4] * v[1] + w[8] * v[2] + w[12];
    float y = w[1] * v[0] + w[5] * v[1] + w[9] * v[2] + w[13];
    float z = w[2] * v[0] + w[6] * v[1] + w[10] * v[2] + w[14];
    assert_true(fabsf(x - 100) < 1e-3f && fabsf(y) < 1e-3f && fabsf(z + 201) < 1e-3f);
    kiln_scene_free(s);
    kt_rmtree(dir);
    free(dir);
    free(png);
}

/* Deformer "Skin" clusters become a skin: joints are the bone models, inverse bind matrices
 * TransformLink^-1 * Transform, each vertex's weights from the clusters listing its control
 * point; an index past the control points is dropped with a warning. */
static void legacy_skin_from_clusters(void **state)
{
    (void)state;
    kiln_result code;
    kiln_error err;
    kiln_scene *s = load_memory(skinned_fbx, sizeof skinned_fbx - 1, NULL, &code, &err);
    if (code != KILN_OK) fail_msg("%s: %s", kiln_result_name(code), err.message);
    assert_int_equal(s->skin_count, 1);
    const kiln_scene_skin *sk = &s->skins[0];
    assert_int_equal(sk->joint_count, 2);
    assert_string_equal(s->nodes[sk->joints[0]].name, "Root");
    assert_string_equal(s->nodes[sk->joints[1]].name, "Tip");
    assert_true(sk->inverse_bind[16 + 13] == -1.0f && sk->inverse_bind[13] == 0.0f);
    assert_true(has_warning(s, "1 skin weights name no vertex"));
    assert_false(has_warning(s, "Skin"));
    const kiln_scene_primitive *p = &s->meshes[0].primitives[0];
    assert_int_equal(p->vertex_count, 4);
    assert_int_equal(p->joint_set_count, 1);
    for (uint32_t v = 0; v < 4; v++) {
        const float *w = p->weights[0] + v * 4;
        const uint16_t *j = p->joints[0] + v * 4;
        float root = 0, tip = 0;
        for (int k = 0; k < 4; k++) {
            if (j[k] == 0) root += w[k];
            if (j[k] == 1) tip += w[k];
        }
        bool top = p->positions[v * 3 + 1] == 2.0f;
        assert_true(fabsf(root - (top ? 0.5f : 1.0f)) < 1e-6f);
        assert_true(fabsf(tip - (top ? 0.5f : 0.0f)) < 1e-6f);
    }
    kiln_scene_free(s);
}

/* A concave polygon keeps its shape: the dart (0,0) (2,1) (0,2) (1,1) has area 1, which a fan
 * from its first corner would exceed (3, with a flipped triangle); a convex quad is a fan. */
static void legacy_concave_polygons_are_ear_clipped(void **state)
{
    (void)state;
    static const char *const shapes[2][2] = {
        {"0,0,0,2,1,0,0,2,0,1,1,0", "0,1,2,-4"}, /* dart: area 1 */
        {"1,1,0,0,0,0,2,1,0,0,2,0", "0,1,2,-4"}, /* the same from the notch */
    };
    for (int k = 0; k < 2; k++) {
        char *text =
            kt_format("; FBX 6.1.0 project file\nFBXHeaderExtension: {\n FBXVersion: 6100\n}\n"
                      "Objects: {\n Model: \"Model::Dart\", \"Mesh\" {\n  Vertices: %s\n"
                      "  PolygonVertexIndex: %s\n }\n}\n",
                      shapes[k][0], shapes[k][1]);
        kiln_result code;
        kiln_error err;
        kiln_scene *s = load_memory(text, strlen(text), NULL, &code, &err);
        if (code != KILN_OK) fail_msg("%s", err.message);
        const kiln_scene_primitive *p = &s->meshes[0].primitives[0];
        assert_int_equal(p->index_count, 6);
        double area = 0;
        for (uint32_t t = 0; t < 2; t++) {
            const float *a = p->positions + p->indices[t * 3] * 3,
                        *b = p->positions + p->indices[t * 3 + 1] * 3,
                        *c = p->positions + p->indices[t * 3 + 2] * 3;
            double z = ((double)b[0] - a[0]) * ((double)c[1] - a[1]) -
                       ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
            assert_true(z > 0); /* the polygon's own winding */
            area += z / 2;
        }
        assert_true(fabs(area - 1.0) < 1e-6);
        kiln_scene_free(s);
        free(text);
    }
}

/* The corpus file rel loaded with the default options; the test is skipped without the
 * corpus and fails when the load does. */
static kiln_scene *load_corpus(const char *rel)
{
    char *path = kt_corpus_path(rel);
    if (!path) skip();
    kiln_scene_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    kiln_scene *s = NULL;
    kiln_error err;
    kiln_result r = kiln_scene_load(path, &o, &s, &err);
    free(path);
    if (r != KILN_OK) fail_msg("%s: %s", kiln_result_name(r), err.message);
    return s;
}

static void legacy_ball_imports_with_its_counts(void **state)
{
    (void)state;
    kiln_scene *s = load_corpus("fbx/ufbx/blender_279_ball_6100_ascii.fbx");
    assert_string_equal(s->generator, "FBX 6 (kiln's own reader)");
    assert_int_equal(s->mesh_count, 1);
    assert_int_equal(s->meshes[0].primitive_count, 2);
    assert_int_equal(s->stats.vertices, 153);
    assert_int_equal(s->stats.triangles, 80);
    /* Red and White: DiffuseColor 0.8 x DiffuseFactor 0.8, as assimp reads 7.x files;
     * EmissiveFactor 0. */
    assert_int_equal(s->material_count, 2);
    assert_string_equal(s->materials[0].name, "Red");
    assert_string_equal(s->materials[1].name, "White");
    const float *red = s->materials[0].base_color, *white = s->materials[1].base_color;
    assert_true(fabsf(red[0] - 0.64f) < 1e-5f && red[1] == 0 && red[2] == 0 && red[3] == 1);
    assert_true(fabsf(white[0] - 0.64f) < 1e-5f && fabsf(white[1] - 0.64f) < 1e-5f &&
                fabsf(white[2] - 0.64f) < 1e-5f);
    assert_true(s->materials[0].emissive[0] == 0);
    /* 40 triangles each (the Materials layer splits the icosphere in halves). */
    assert_int_equal(
        s->meshes[0].primitives[0].index_count + s->meshes[0].primitives[1].index_count, 240);
    assert_int_equal(count_warnings(s, "camera \"Producer "), 7);
    assert_true(has_warning(s, "camera switcher \"Camera Switcher\" not imported"));
    /* Its take holds the rest pose (one key a channel): no clip. */
    assert_int_equal(s->animation_count, 0);
    assert_true(has_warning(s, "animation \"Default Take\" animates nothing kiln imports"));
    /* A unit icosphere, UnitScaleFactor 1 (centimetres): 2 cm tall, centred, +Y up after the
     * file's own -90 degree turn about X. */
    assert_true(s->has_bounds);
    assert_true(fabsf(s->bounds_max[1] - s->bounds_min[1] - 0.02f) < 1e-5f);
    assert_true(fabsf(s->bounds_max[1] + s->bounds_min[1]) < 1e-5f);
    kiln_scene_free(s);
}

static void legacy_ball_cooks(void **state)
{
    (void)state;
    char *path = kt_corpus_path("fbx/ufbx/blender_279_ball_6100_ascii.fbx");
    if (!path) skip();
    char *out = kt_tempdir("fbx_legacy_cook");
    kiln_convert_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.jobs = 1;
    char *json = NULL;
    kiln_error err;
    kiln_result r = kiln_convert_model(path, out, &o, &json, &err);
    if (r != KILN_OK) fail_msg("cook: %s (%s)", kiln_result_name(r), err.message);
    assert_non_null(strstr(json, "\"scene.kscene\""));
    assert_non_null(strstr(json, "material1"));
    assert_non_null(strstr(json, "not imported"));
    kiln_string_free(json);
    kt_rmtree(out);
    free(out);
    free(path);
}

/* ASCII, binary 6100 (raw and zlib arrays) and the 6.x tree in a 7500 container (64-bit
 * records, zlib arrays) all give the same scene. */
static void legacy_binary_and_ascii_give_the_same_scene(void **state)
{
    (void)state;
    size_t an;
    char *ball = read_corpus("fbx/ufbx/blender_279_ball_6100_ascii.fbx", &an);
    const char *texts[3] = {small_fbx, skinned_fbx, ball};
    size_t sizes[3] = {sizeof small_fbx - 1, sizeof skinned_fbx - 1, an};
    for (int f = 0; f < (ball ? 3 : 2); f++) {
        kiln_result code;
        kiln_error err;
        kiln_scene *ref = load_memory(texts[f], sizes[f], NULL, &code, &err);
        if (code != KILN_OK) fail_msg("ascii: %s", err.message);
        kiln_fbx_tree t;
        parse_ok(texts[f], sizes[f], &t);
        for (int zip = 0; zip < 2; zip++) {
            size_t size;
            uint8_t *bin = to_binary(&t, 6100, zip, &size);
            kiln_scene *s = load_memory(bin, size, NULL, &code, &err);
            if (code != KILN_OK) fail_msg("binary 6100: %s", err.message);
            scenes_equal(ref, s);
            kiln_scene_free(s);
            free(bin);
        }
        size_t size;
        uint8_t *bin = to_binary(&t, 7500, true, &size);
        kiln_fbx_tree u;
        parse_ok(bin, size, &u);
        kiln_scene *s;
        assert_int_equal(kiln_scene_create(NULL, 0, &s, &err), KILN_OK);
        code = kiln_fbx_legacy_import_tree(&u, NULL, NULL, KILN_SCENE_LOAD_NO_PIXELS, s, &err);
        if (code != KILN_OK) fail_msg("binary 7500: %s", err.message);
        assert_int_equal(kiln_scene_complete(s, KILN_SCENE_LOAD_NO_PIXELS, &err), KILN_OK);
        scenes_equal(ref, s);
        kiln_scene_free(s);
        kiln_fbx_tree_free(&u);
        free(bin);
        kiln_fbx_tree_free(&t);
        kiln_scene_free(ref);
    }
    free(ball);
}

/* One damaged input through the whole import: an error with a message, or a valid scene. */
static void damaged_once(const uint8_t *data, size_t size)
{
    kiln_result code;
    kiln_error err;
    kiln_scene *s = load_memory(data, size, NULL, &code, &err);
    if (code == KILN_OK) {
        char why[256];
        const char *bad = kiln_scene_check(s, KILN_SCENE_LOAD_NO_PIXELS, why, sizeof why);
        if (bad) fail_msg("scene invariant: %s", bad);
    } else {
        if (code != KILN_E_IMPORT_FAILED && code != KILN_E_IMPORT_UNSUPPORTED &&
            code != KILN_E_LIMIT && code != KILN_E_OUT_OF_MEMORY)
            fail_msg("undocumented result %s (%s)", kiln_result_name(code), err.message);
        if (!err.message[0]) fail_msg("%s without a message", kiln_result_name(code));
    }
    kiln_scene_free(s);
}

static void legacy_truncations_and_flips_never_crash(void **state)
{
    (void)state;
    size_t sizes[6];
    uint8_t *forms[6];
    const char *texts[2] = {small_fbx, skinned_fbx};
    for (int k = 0; k < 2; k++) {
        kiln_fbx_tree t;
        parse_ok(texts[k], strlen(texts[k]), &t);
        forms[k * 3] = (uint8_t *)strdup(texts[k]);
        sizes[k * 3] = strlen(texts[k]);
        forms[k * 3 + 1] = to_binary(&t, 6100, false, &sizes[k * 3 + 1]);
        forms[k * 3 + 2] = to_binary(&t, 6100, true, &sizes[k * 3 + 2]);
        kiln_fbx_tree_free(&t);
    }
    uint32_t runs = 0;
    for (int f = 0; f < 6; f++) {
        uint8_t *copy = malloc(sizes[f]);
        assert_non_null(copy);
        /* Every length: the ASCII text and the binary records are cut everywhere. */
        for (size_t n = 0; n < sizes[f]; n++, runs++) {
            memcpy(copy, forms[f], n);
            damaged_once(copy, n);
        }
        /* Every byte flipped (ASCII: every third). */
        for (size_t i = 0; i < sizes[f]; i += f % 3 ? 1 : 3, runs++) {
            memcpy(copy, forms[f], sizes[f]);
            copy[i] ^= (uint8_t)(0x5A + i);
            damaged_once(copy, sizes[f]);
        }
        free(copy);
        free(forms[f]);
    }
    /* The Blender ball, ASCII and binary: every 97th length, every 31st byte flipped. */
    size_t an;
    char *ball = read_corpus("fbx/ufbx/blender_279_ball_6100_ascii.fbx", &an);
    if (ball) {
        kiln_fbx_tree t;
        parse_ok(ball, an, &t);
        size_t bn;
        uint8_t *bin = to_binary(&t, 6100, true, &bn);
        kiln_fbx_tree_free(&t);
        const uint8_t *bf[2] = {(const uint8_t *)ball, bin};
        size_t bs[2] = {an, bn};
        for (int f = 0; f < 2; f++) {
            uint8_t *copy = malloc(bs[f]);
            assert_non_null(copy);
            for (size_t n = 0; n < bs[f]; n += 97, runs++) {
                memcpy(copy, bf[f], n);
                damaged_once(copy, n);
            }
            for (size_t i = 0; i < bs[f]; i += 31, runs++) {
                memcpy(copy, bf[f], bs[f]);
                copy[i] ^= (uint8_t)(0x5A + i);
                damaged_once(copy, bs[f]);
            }
            free(copy);
        }
        free(bin);
        free(ball);
    }
    print_message("%u damaged imports\n", runs);
}

/* maya_blend_shape_cube_7700_binary.fbx: assimp 5.2 gives the cube no anim meshes; kiln's reader
 * maps the two shapes (TopH moves the top face's corners along X by +-0.317, TopV along Z by
 * +-0.284) onto assimp's 24 vertices by position, and bakes the DeformPercent curves (100, 0, 100
 * at 1/24, 1 and 2.5 s; at 1/24, 1.67 and 3.75 s) into the stack's clip. */
static void blend_shapes_assimp_drops_become_morph_targets(void **state)
{
    (void)state;
    kiln_scene *s = load_corpus("fbx/ufbx/maya_blend_shape_cube_7700_binary.fbx");
    assert_int_equal(s->mesh_count, 1);
    const kiln_scene_mesh *m = &s->meshes[0];
    assert_int_equal(m->weight_count, 2);
    assert_true(m->weights[0] == 1.0f && m->weights[1] == 1.0f);
    assert_string_equal(m->target_names[0], "Squish.TopH");
    assert_string_equal(m->target_names[1], "Squish.TopV");
    const kiln_scene_primitive *p = &m->primitives[0];
    assert_int_equal(p->target_count, 2);
    float top = p->bounds_max[1];
    uint32_t moved[2] = {0, 0};
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        const float *pos = p->positions + (size_t)v * 3;
        for (int t = 0; t < 2; t++) {
            const float *d = p->targets[t].positions + (size_t)v * 3;
            bool on_top = pos[1] == top;
            float expect = t == 0 ? 0.316956f : 0.283916f;
            float along = t == 0 ? d[0] : d[2], other = t == 0 ? d[2] : d[0];
            if (on_top) {
                assert_true(fabsf(fabsf(along) - expect) < 1e-5f);
                moved[t]++;
            } else {
                assert_true(along == 0.0f);
            }
            assert_true(d[1] == 0.0f && other == 0.0f);
        }
    }
    assert_int_equal(moved[0], 12); /* 4 corners x 3 faces each */
    assert_int_equal(moved[1], 12);
    assert_int_equal(s->animation_count, 1);
    const kiln_scene_animation *an = &s->animations[0];
    assert_string_equal(an->name, "Take 001");
    assert_true(fabsf(an->end - 3.75f) < 1e-4f);
    assert_int_equal(an->channel_count, 1);
    const kiln_scene_channel *ch = &an->channels[0];
    assert_int_equal(ch->path, KILN_SCENE_PATH_WEIGHTS);
    assert_int_equal(ch->components, 2);
    assert_int_equal(ch->key_count, 114); /* 113 frames of 1/30 s, the last at 3.75 s */
    assert_true(ch->values[0] == 1.0f && ch->values[1] == 1.0f);
    assert_true(fabsf(ch->values[30 * 2 + 0]) < 1e-6f); /* TopH at 1 s: 0 */
    assert_true(fabsf(ch->values[50 * 2 + 1]) < 1e-3f); /* TopV at 1.67 s: 0 */
    assert_false(has_warning(s, "no blend shapes"));
    assert_false(has_warning(s, "animates nothing"));
    assert_true(has_warning(s, "2 blend shapes of \"Squish\" read by kiln's FBX reader"));
    kiln_scene_free(s);
}

/* kiln_fbx_blend_shapes on a scene of the small file (its "Quad" mesh keeps the file's control
 * points): the channel becomes a target on both primitives, weight 0.5; a second control point
 * at a vertex's position makes the mapping ambiguous: a warning and no targets. */
static void blend_shapes_map_by_exact_position_or_not_at_all(void **state)
{
    (void)state;
    /* 1: a second control point at (0, 0, 0); 2: one at (-0, 0, 0), the same place. */
    for (int ambiguous = 0; ambiguous < 3; ambiguous++) {
        char *text = kt_format(blend_fbx_fmt, ambiguous == 1   ? ",0,0,0"
                                              : ambiguous == 2 ? ",-0.0,0,0"
                                                               : "");
        kiln_result code;
        kiln_error err;
        /* The small file without its own FBX 6 shape (a mesh with targets is left alone). */
        char *base = strdup(small_fbx);
        char *cut = strstr(base, "\t\tShape:"), *cut_end = cut ? strstr(cut, "\t\t}\n") : NULL;
        assert_non_null(cut_end);
        memmove(cut, cut_end + 4, strlen(cut_end + 4) + 1);
        kiln_scene *s = load_memory(base, strlen(base), NULL, &code, &err);
        free(base);
        assert_int_equal(code, KILN_OK);
        assert_int_equal(s->meshes[0].weight_count, 0);
        assert_int_equal(kiln_fbx_blend_shapes(text, strlen(text), NULL, s, &err), KILN_OK);
        const kiln_scene_mesh *m = &s->meshes[0];
        if (ambiguous) {
            assert_int_equal(m->weight_count, 0);
            assert_int_equal(m->primitives[0].target_count, 0);
            assert_true(has_warning(s, "matches more than one control point; not imported"));
        } else {
            assert_int_equal(m->weight_count, 1);
            assert_true(m->weights[0] == 0.5f);
            assert_string_equal(m->target_names[0], "Bend.Up");
            for (uint32_t p = 0; p < 2; p++) {
                const kiln_scene_primitive *pr = &m->primitives[p];
                assert_int_equal(pr->target_count, 1);
                for (uint32_t v = 0; v < pr->vertex_count; v++) {
                    const float *d = pr->targets[0].positions + v * 3;
                    float dz = pr->positions[v * 3] == 2.0f ? 1.0f : 0.0f;
                    assert_true(d[0] == 0 && d[1] == 0 && d[2] == dz);
                }
            }
            char why[256];
            assert_null(kiln_scene_check(s, KILN_SCENE_LOAD_NO_PIXELS, why, sizeof why));
        }
        kiln_scene_free(s);
        free(text);
    }
}

/* KILN_WRITE_FUZZ_SEEDS=1: fuzz/corpus/fbx_tree/ from the small file (then review them). */
static void write_fuzz_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS"), *src = getenv("KILN_SOURCE_DIR");
    if (!on || strcmp(on, "1") || !src) skip();
    kiln_fbx_tree t;
    parse_ok(small_fbx, sizeof small_fbx - 1, &t);
    char *p = kt_format("%s/fuzz/corpus/fbx_tree/small_6100_ascii.fbx", src);
    kt_write_file(p, small_fbx, sizeof small_fbx - 1);
    free(p);
    static const struct {
        uint32_t version;
        bool zip;
        const char *name;
    } forms[] = {{6100, false, "small_6100_binary.fbx"},
                 {6100, true, "small_6100_binary_zlib.fbx"},
                 {7500, true, "small_7500_binary_zlib.fbx"}};
    for (size_t f = 0; f < 3; f++) {
        size_t size;
        uint8_t *bin = to_binary(&t, forms[f].version, forms[f].zip, &size);
        p = kt_format("%s/fuzz/corpus/fbx_tree/%s", src, forms[f].name);
        kt_write_file(p, bin, size);
        free(p);
        free(bin);
    }
    kiln_fbx_tree_free(&t);
    p = kt_format("%s/fuzz/corpus/fbx_tree/skinned_6100_ascii.fbx", src);
    kt_write_file(p, skinned_fbx, sizeof skinned_fbx - 1);
    free(p);
    char *blend = kt_format(blend_fbx_fmt, "");
    p = kt_format("%s/fuzz/corpus/fbx_tree/blend_7400_ascii.fbx", src);
    kt_write_file(p, blend, strlen(blend));
    free(p);
    parse_ok(blend, strlen(blend), &t);
    size_t size;
    uint8_t *bin = to_binary(&t, 7400, true, &size);
    p = kt_format("%s/fuzz/corpus/fbx_tree/blend_7400_binary_zlib.fbx", src);
    kt_write_file(p, bin, size);
    free(p);
    free(bin);
    free(blend);
    kiln_fbx_tree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_reads_ascii_6x_lists_and_values),
        cmocka_unit_test(tree_binary_6100_and_7500_round_trip),
        cmocka_unit_test(tree_reads_7500_ascii_and_binary_alike),
        cmocka_unit_test(tree_limits_hold),
        cmocka_unit_test(legacy_small_file_layers_transforms_and_textures),
        cmocka_unit_test(legacy_skin_from_clusters),
        cmocka_unit_test(legacy_concave_polygons_are_ear_clipped),
        cmocka_unit_test(legacy_ball_imports_with_its_counts),
        cmocka_unit_test(legacy_ball_cooks),
        cmocka_unit_test(legacy_binary_and_ascii_give_the_same_scene),
        cmocka_unit_test(legacy_truncations_and_flips_never_crash),
        cmocka_unit_test(blend_shapes_assimp_drops_become_morph_targets),
        cmocka_unit_test(blend_shapes_map_by_exact_position_or_not_at_all),
        cmocka_unit_test(write_fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
