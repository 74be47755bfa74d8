/* test_gltf_hostile.c — hand-written hostile glTF documents against the importer, one damage
 * each: node cycles and shared children, out-of-range indices of every kind, accessors and
 * views past their ends, bad counts and enum values, bad base64, truncated GLBs, extensions,
 * URIs that leave the folder, NaN positions, huge declared counts and deep nesting.
 *
 * Every case starts from one small valid document (base_json below, its buffer a base64 data URI
 * built here) and edits it with JSON-pointer set/remove operations, then asserts the exact result
 * code, the exact err.json_pointer and a fragment of the message. Every load also goes through
 * the checks of robust_load.h (documented code, no leak, scene invariants) and is timed: none
 * may take a second. */
#include "support.h"

#include <jansson.h>
#include <math.h>
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/gltf_deps.h"
#include "robust_load.h"

/* ---- the base document and its buffer ------------------------------------------------------- */

/* Buffer layout (bytes): each region is one bufferView of base_json, in this order. */
enum {
    BUF_POSITIONS = 0,     /* view 0: 3 x VEC3 float, a triangle */
    BUF_INDICES = 36,      /* view 1: u16 0, 1, 2 (+2 pad) */
    BUF_TIMES = 44,        /* view 2: float 0, 1 */
    BUF_TRANSLATIONS = 52, /* view 3: 2 x VEC3 float */
    BUF_JOINTS = 76,       /* view 4: 3 x VEC4 u8, all joint 0 */
    BUF_WEIGHTS = 88,      /* view 5: 3 x VEC4 float (1, 0, 0, 0) */
    BUF_IBM = 136,         /* view 6: MAT4 identity */
    BUF_SPARSE_BAD = 200,  /* view 7: u16 2, 0, 2 (not increasing) (+2 pad) */
    BUF_TIMES_BAD = 208,   /* view 8: float 1, 0.5 (decreasing) */
    BUF_NAN = 216,         /* view 9: 3 x VEC3 float with a NaN and an Inf */
    BUF_INDICES_BAD = 252, /* view 10: u16 0, 1, 7 (+2 pad) */
    BUF_WEIGHTS_BAD = 260, /* view 11: 3 x VEC4 float not summing to 1 */
    BUF_JOINTS_BAD = 308,  /* view 12: 3 x VEC4 u8, joint 5 */
    BUF_SIZE = 320,
};

static const char base_json[] =
    "{\"asset\":{\"version\":\"2.0\",\"generator\":\"kiln test_gltf_hostile\"},"
    "\"buffers\":[{\"byteLength\":320,\"uri\":\"\"}],"
    "\"bufferViews\":["
    "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":6},"
    "{\"buffer\":0,\"byteOffset\":44,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":52,\"byteLength\":24},"
    "{\"buffer\":0,\"byteOffset\":76,\"byteLength\":12},"
    "{\"buffer\":0,\"byteOffset\":88,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":136,\"byteLength\":64},"
    "{\"buffer\":0,\"byteOffset\":200,\"byteLength\":6},"
    "{\"buffer\":0,\"byteOffset\":208,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":216,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":252,\"byteLength\":6},"
    "{\"buffer\":0,\"byteOffset\":260,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":308,\"byteLength\":12}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"   /* 0 positions */
    "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}," /* 1 indices */
    "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}," /* 2 times */
    "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}," /* 3 translations */
    "{\"bufferView\":4,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"}," /* 4 joints */
    "{\"bufferView\":5,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}," /* 5 weights */
    "{\"bufferView\":6,\"componentType\":5126,\"count\":1,\"type\":\"MAT4\"}," /* 6 IBM */
    "{\"bufferView\":9,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}," /* 7 NaN positions */
    "{\"bufferView\":10,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}," /* 8 bad indices
                                                                                   */
    "{\"bufferView\":8,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"  /* 9 bad times */
    "{\"bufferView\":11,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}," /* 10 bad weights */
    "{\"bufferView\":12,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"}]," /* 11 bad joints */
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
    "\"nodes\":[{\"mesh\":0}],"
    "\"scenes\":[{\"nodes\":[0]}],\"scene\":0}";

static void put_f32(uint8_t *b, size_t at, float v) { memcpy(b + at, &v, 4); }
static void put_u16(uint8_t *b, size_t at, uint16_t v)
{
    b[at] = (uint8_t)v, b[at + 1] = (uint8_t)(v >> 8);
}

static void make_buffer(uint8_t b[BUF_SIZE])
{
    memset(b, 0, BUF_SIZE);
    static const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 9; i++) put_f32(b, BUF_POSITIONS + 4 * i, tri[i]);
    for (int i = 0; i < 3; i++) put_u16(b, BUF_INDICES + 2 * i, (uint16_t)i);
    put_f32(b, BUF_TIMES, 0.0f), put_f32(b, BUF_TIMES + 4, 1.0f);
    for (int i = 0; i < 6; i++) put_f32(b, BUF_TRANSLATIONS + 4 * i, (float)i);
    for (int v = 0; v < 3; v++) put_f32(b, BUF_WEIGHTS + 16 * v, 1.0f);
    for (int i = 0; i < 4; i++) put_f32(b, BUF_IBM + 4 * (i * 5), 1.0f);
    put_u16(b, BUF_SPARSE_BAD, 2), put_u16(b, BUF_SPARSE_BAD + 2, 0),
        put_u16(b, BUF_SPARSE_BAD + 4, 2);
    put_f32(b, BUF_TIMES_BAD, 1.0f), put_f32(b, BUF_TIMES_BAD + 4, 0.5f);
    for (int i = 0; i < 9; i++) put_f32(b, BUF_NAN + 4 * i, tri[i]);
    put_f32(b, BUF_NAN, NAN), put_f32(b, BUF_NAN + 16, INFINITY);
    put_u16(b, BUF_INDICES_BAD, 0), put_u16(b, BUF_INDICES_BAD + 2, 1),
        put_u16(b, BUF_INDICES_BAD + 4, 7);
    put_f32(b, BUF_WEIGHTS_BAD, 0.5f);
    put_f32(b, BUF_WEIGHTS_BAD + 32, 2.0f), put_f32(b, BUF_WEIGHTS_BAD + 36, 2.0f);
    for (int v = 0; v < 3; v++) b[BUF_JOINTS_BAD + 4 * v] = 5;
}

static char *base64(const uint8_t *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    assert_non_null(out);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *o++ = abc[v >> 18 & 63], *o++ = abc[v >> 12 & 63];
        *o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? abc[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* "data:application/octet-stream;base64,..." of the base buffer, made once. */
static const char *buffer_uri(void)
{
    static char *uri;
    if (!uri) {
        uint8_t b[BUF_SIZE];
        make_buffer(b);
        char *b64 = base64(b, sizeof b);
        uri = kt_format("data:application/octet-stream;base64,%s", b64);
        free(b64);
    }
    return uri;
}

/* ---- editing documents by JSON pointer ------------------------------------------------------- */

typedef struct edit_op {
    const char *at;    /* JSON pointer; the last token may be "-" (append to an array) */
    const char *value; /* JSON text; NULL removes the member or element */
} edit_op;

/* Applies one edit; objects missing on the way are created. */
static void edit(json_t *root, const char *at, const char *value)
{
    char path[256];
    assert_true(at[0] == '/' && strlen(at) < sizeof path);
    strcpy(path, at + 1);
    json_t *cur = root;
    char *tok = path;
    for (;;) {
        char *slash = strchr(tok, '/');
        if (slash) *slash = '\0';
        bool last = !slash;
        if (json_is_array(cur)) {
            size_t i =
                strcmp(tok, "-") == 0 ? json_array_size(cur) : (size_t)strtoul(tok, NULL, 10);
            if (last) {
                if (!value) {
                    assert_int_equal(json_array_remove(cur, i), 0);
                } else {
                    json_error_t je;
                    json_t *v = json_loads(value, JSON_DECODE_ANY, &je);
                    if (!v) fail_msg("edit %s: bad JSON %s: %s", at, value, je.text);
                    if (i == json_array_size(cur))
                        assert_int_equal(json_array_append_new(cur, v), 0);
                    else assert_int_equal(json_array_set_new(cur, i, v), 0);
                }
                return;
            }
            cur = json_array_get(cur, i);
            if (!cur) fail_msg("edit %s: no element %s", at, tok);
        } else {
            if (!json_is_object(cur)) fail_msg("edit %s: %s is inside a non-container", at, tok);
            if (last) {
                if (!value) {
                    json_object_del(cur, tok);
                } else {
                    json_error_t je;
                    json_t *v = json_loads(value, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
                    if (!v) fail_msg("edit %s: bad JSON %s: %s", at, value, je.text);
                    assert_int_equal(json_object_set_new(cur, tok, v), 0);
                }
                return;
            }
            json_t *next = json_object_get(cur, tok);
            if (!next) {
                next = json_object();
                json_object_set_new(cur, tok, next);
            }
            cur = next;
        }
        tok = slash + 1;
    }
}

/* The base document with edits applied (terminated by an entry with at == NULL), as text. */
static char *document(const edit_op *edits)
{
    json_error_t je;
    json_t *root = json_loads(base_json, 0, &je);
    if (!root) fail_msg("base_json: %s", je.text);
    json_object_set_new(json_array_get(json_object_get(root, "buffers"), 0), "uri",
                        json_string(buffer_uri()));
    for (const edit_op *e = edits; e && e->at; e++) edit(root, e->at, e->value);
    char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    assert_non_null(text);
    return text;
}

/* ---- running cases --------------------------------------------------------------------------- */

typedef struct hostile_case {
    const char *name;
    edit_op edits[6];
    kiln_result code;
    const char *pointer;  /* exact err.json_pointer */
    const char *fragment; /* in err.message */
} hostile_case;

static double slowest_seconds;
static const char *slowest_case;
static size_t loads_run;

/* Time budgets scale under the sanitizers, which slow allocation-heavy parsing ~10x. */
static double time_scale(void)
{
    const char *s = getenv("KILN_TEST_SANITIZED");
    return s && strcmp(s, "1") == 0 ? 10.0 : 1.0;
}

static void note_time(const char *name, double seconds)
{
    loads_run++;
    if (seconds > slowest_seconds) slowest_seconds = seconds, slowest_case = name;
    if (seconds > 1.0 * time_scale())
        fail_msg("%s: the load took %.2f s (more than %.0f s)", name, seconds, time_scale());
}

/* Cases that went wrong in the current test function; each is printed when it happens, so one
 * run lists them all. */
static size_t mismatches;

/* Loads bytes and checks code, pointer and message. With out, the scene is kept there (and any
 * mismatch fails the test at once, since the caller goes on to use it). */
static void expect_bytes(const char *name, const void *data, size_t size, const char *base_dir,
                         kiln_result code, const char *pointer, const char *fragment, kt_load *out)
{
    kt_load l;
    memset(&l, 0, sizeof l);
    l.base_dir = base_dir;
    l.keep = out != NULL;
    kt_load_run(&l, data, size);
    note_time(name, l.seconds);
    bool bad = false;
    if (l.problem) {
        print_error("%s: %s\n", name, l.problem);
        bad = true;
    } else if (l.code != code || (pointer && strcmp(l.err.json_pointer, pointer) != 0) ||
               (fragment && !strstr(l.err.message, fragment))) {
        print_error("%s:\n  expected %s at \"%s\" with \"%s\"\n  got      %s at \"%s\": %s\n", name,
                    kiln_result_name(code), pointer ? pointer : "*", fragment ? fragment : "",
                    kiln_result_name(l.code), l.err.json_pointer, l.err.message);
        bad = true;
    }
    if (bad) mismatches++;
    if (out) {
        if (bad) fail_msg("%s: cannot go on", name);
        *out = l;
    } else if (l.scene) {
        kt_load_done(&l);
    }
}

static void run_cases(const hostile_case *cases, size_t n)
{
    mismatches = 0;
    for (size_t i = 0; i < n; i++) {
        char *text = document(cases[i].edits);
        expect_bytes(cases[i].name, text, strlen(text), NULL, cases[i].code, cases[i].pointer,
                     cases[i].fragment, NULL);
        free(text);
    }
    if (mismatches) fail_msg("%zu of %zu cases went wrong", mismatches, n);
}

#define RUN(cases) run_cases(cases, sizeof cases / sizeof cases[0])

/* Warning containing fragment present? */
static bool has_warning(const kiln_scene *s, const char *fragment)
{
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (strstr(s->warnings[i], fragment)) return true;
    return false;
}

/* ---- the cases ------------------------------------------------------------------------------- */

static void base_document_loads(void **state)
{
    (void)state;
    char *text = document(NULL);
    kt_load l;
    expect_bytes("base", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    assert_int_equal(l.scene->mesh_count, 1);
    assert_int_equal(l.scene->meshes[0].primitives[0].index_count, 3);
    assert_int_equal(l.scene->warning_count, 0);
    kt_load_done(&l);
    assert_null(l.problem);
    free(text);
}

static const hostile_case graph_cases[] = {
    {"two-node cycle without a root",
     {{"/nodes", "[{\"children\":[1]},{\"children\":[0]}]"}, {"/scenes", NULL}, {"/scene", NULL}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "cycle"},
    {"two-node cycle listed in a scene",
     {{"/nodes", "[{\"children\":[1]},{\"children\":[0]}]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "cycle"},
    {"three-node cycle beside a root",
     {{"/nodes", "[{\"mesh\":0},{\"children\":[2]},{\"children\":[3]},{\"children\":[1]}]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/1",
     "cycle"},
    {"node with two parents",
     {{"/nodes", "[{\"children\":[2]},{\"children\":[2]},{\"mesh\":0}]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/1/children/0",
     "two parents"},
    {"node that is its own child",
     {{"/nodes/0/children", "[0]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/children/0",
     "own child"},
    {"child listed twice",
     {{"/nodes", "[{\"children\":[1,1]},{}]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/children/1",
     "node 1 appears twice among the children of node 0: each child is listed once"},
    {"scene root that has a parent",
     {{"/nodes", "[{\"children\":[1]},{\"mesh\":0}]"}, {"/scenes/0/nodes", "[1]"}},
     KILN_E_IMPORT_FAILED,
     "/scenes/0/nodes/0",
     "has parent 0"},
    {"scene lists a node twice",
     {{"/nodes/-", "{}"}, {"/scenes/0/nodes", "[0,0]"}},
     KILN_E_IMPORT_FAILED,
     "/scenes/0/nodes/1",
     "listed twice"},
    /* Issue 18: more children than nodes is a broken hierarchy, not a limit of kiln's. */
    {"more children than nodes: itself twice",
     {{"/nodes/0/children", "[0,0]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/children/0",
     "node 0 is its own child: the node hierarchy must not contain cycles"},
    {"more children than nodes: one child three times",
     {{"/nodes", "[{\"children\":[1,1,1]},{}]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/children/1",
     "node 1 appears twice among the children of node 0"},
    {"scene lists more nodes than there are",
     {{"/scenes/0/nodes", "[0,0]"}},
     KILN_E_IMPORT_FAILED,
     "/scenes/0/nodes/1",
     "node 0 is listed twice"},
    {"scene lists a node in a file without nodes",
     {{"/nodes", NULL}},
     KILN_E_IMPORT_FAILED,
     "/scenes/0/nodes/0",
     "not a node index: the file has no \"nodes\""},
    {"matrix of 17 numbers",
     {{"/nodes/0/matrix", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1, 0]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/matrix",
     "\"matrix\" must be an array of 16 numbers"},
    {"matrix and TRS together",
     {{"/nodes/0/matrix", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]"},
      {"/nodes/0/translation", "[1,2,3]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "not both"},
    {"matrix of 15 numbers",
     {{"/nodes/0/matrix", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/matrix",
     "array of 16"},
    {"zero rotation quaternion",
     {{"/nodes/0/rotation", "[0,0,0,0]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "unit quaternion"},
    {"skin on a node without a mesh",
     {{"/nodes", "[{\"mesh\":0},{\"skin\":0}]"}, {"/skins", "[{\"joints\":[0]}]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/1",
     "needs a \"mesh\""},
};

static void node_graphs_are_checked(void **state)
{
    (void)state;
    RUN(graph_cases);
}

static const hostile_case index_cases[] = {
    {"node mesh", {{"/nodes/0/mesh", "1"}}, KILN_E_IMPORT_FAILED, "/nodes/0/mesh", "below 1"},
    {"negative node mesh",
     {{"/nodes/0/mesh", "-1"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/mesh",
     "below 1"},
    {"fractional index",
     {{"/nodes/0/mesh", "0.5"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/mesh",
     "below 1"},
    {"string index",
     {{"/nodes/0/mesh", "\"0\""}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/mesh",
     "below 1"},
    {"material without materials",
     {{"/meshes/0/primitives/0/material", "0"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/material",
     "does not have"},
    {"material past the end",
     {{"/materials", "[{}]"}, {"/meshes/0/primitives/0/material", "1"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/material",
     "below 1"},
    {"POSITION accessor",
     {{"/meshes/0/primitives/0/attributes/POSITION", "12"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/attributes/POSITION",
     "below 12"},
    {"NORMAL accessor",
     {{"/meshes/0/primitives/0/attributes/NORMAL", "99"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/attributes/NORMAL",
     "below 12"},
    {"indices accessor",
     {{"/meshes/0/primitives/0/indices", "40"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/indices",
     "below 12"},
    {"morph target accessor",
     {{"/meshes/0/primitives/0/targets", "[{\"POSITION\":77}]"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/targets/0/POSITION",
     "below 12"},
    {"accessor bufferView",
     {{"/accessors/0/bufferView", "13"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/bufferView",
     "below 13"},
    {"bufferView buffer",
     {{"/bufferViews/0/buffer", "1"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/buffer",
     "below 1"},
    {"texture without textures",
     {{"/materials", "[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}]"}},
     KILN_E_IMPORT_FAILED,
     "/materials/0/pbrMetallicRoughness/baseColorTexture/index",
     "does not have"},
    {"normal texture past the end",
     {{"/textures", "[{}]"}, {"/materials", "[{\"normalTexture\":{\"index\":2}}]"}},
     KILN_E_IMPORT_FAILED,
     "/materials/0/normalTexture/index",
     "below 1"},
    {"texture image",
     {{"/textures", "[{\"source\":0}]"}},
     KILN_E_IMPORT_FAILED,
     "/textures/0/source",
     "does not have"},
    {"texture sampler",
     {{"/samplers", "[{}]"}, {"/textures", "[{\"sampler\":1}]"}},
     KILN_E_IMPORT_FAILED,
     "/textures/0/sampler",
     "below 1"},
    {"image bufferView",
     {{"/images", "[{\"bufferView\":13,\"mimeType\":\"image/png\"}]"}},
     KILN_E_IMPORT_FAILED,
     "/images/0/bufferView",
     "below 13"},
    {"node skin", {{"/nodes/0/skin", "0"}}, KILN_E_IMPORT_FAILED, "/nodes/0/skin", "does not have"},
    {"node camera",
     {{"/cameras", "[{\"type\":\"perspective\",\"perspective\":{\"yfov\":1,\"znear\":0.1}}]"},
      {"/nodes/0/camera", "2"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/camera",
     "below 1"},
    {"node light",
     {{"/nodes/0/extensions", "{\"KHR_lights_punctual\":{\"light\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/extensions/KHR_lights_punctual/light",
     "does not have"},
    {"node child",
     {{"/nodes/0/children", "[3]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/children/0",
     "below 1"},
    {"node in a scene",
     {{"/scenes/0/nodes/0", "1"}},
     KILN_E_IMPORT_FAILED,
     "/scenes/0/nodes/0",
     "below 1"},
    {"default scene", {{"/scene", "1"}}, KILN_E_IMPORT_FAILED, "/scene", "below 1"},
    {"skin joint",
     {{"/skins", "[{\"joints\":[0,4]}]"}},
     KILN_E_IMPORT_FAILED,
     "/skins/0/joints/1",
     "below 1"},
    {"skin skeleton",
     {{"/skins", "[{\"joints\":[0],\"skeleton\":2}]"}},
     KILN_E_IMPORT_FAILED,
     "/skins/0/skeleton",
     "below 1"},
    {"skin inverseBindMatrices",
     {{"/skins", "[{\"joints\":[0],\"inverseBindMatrices\":50}]"}},
     KILN_E_IMPORT_FAILED,
     "/skins/0/inverseBindMatrices",
     "below 12"},
    {"channel sampler",
     {{"/animations",
       "[{\"channels\":[{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
       "\"samplers\":[{\"input\":2,\"output\":3}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/channels/0/sampler",
     "below 1"},
    {"channel node",
     {{"/animations",
       "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":4,\"path\":\"translation\"}}],"
       "\"samplers\":[{\"input\":2,\"output\":3}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/channels/0/target/node",
     "below 1"},
    {"animation sampler input",
     {{"/animations",
       "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
       "\"samplers\":[{\"input\":50,\"output\":3}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0/input",
     "below 12"},
    {"animation sampler output",
     {{"/animations",
       "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
       "\"samplers\":[{\"input\":2,\"output\":12}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0/output",
     "below 12"},
    {"sparse indices bufferView",
     {{"/accessors/0/sparse", "{\"count\":1,\"indices\":{\"bufferView\":99,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/indices/bufferView",
     "below 13"},
    {"sparse values bufferView",
     {{"/accessors/0/sparse", "{\"count\":1,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":13}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/values/bufferView",
     "below 13"},
    {"Draco bufferView",
     {{"/extensionsUsed", "[\"KHR_draco_mesh_compression\"]"},
      {"/meshes/0/primitives/0/extensions",
       "{\"KHR_draco_mesh_compression\":{\"bufferView\":99,\"attributes\":{\"POSITION\":0}}}"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression/bufferView",
     "below 13"},
    {"meshopt buffer",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions", "{\"EXT_meshopt_compression\":{\"buffer\":3,\"byteLength\":36,"
                                    "\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression/buffer",
     "below 1"},
    {"index value past the vertices",
     {{"/meshes/0/primitives/0/indices", "8"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/indices",
     "not below the vertex count 3"},
    {"joint past the skin's joints",
     {{"/skins", "[{\"joints\":[0]}]"},
      {"/nodes/0/skin", "0"},
      {"/meshes/0/primitives/0/attributes/JOINTS_0", "11"},
      {"/meshes/0/primitives/0/attributes/WEIGHTS_0", "5"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "names joint 5"},
};

static void indices_out_of_range_are_refused(void **state)
{
    (void)state;
    RUN(index_cases);
}

static const hostile_case range_cases[] = {
    {"accessor past its view",
     {{"/accessors/0/count", "4"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0",
     "run past the end of bufferView 0"},
    {"accessor offset past its view",
     {{"/accessors/0/byteOffset", "4"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0",
     "run past the end of bufferView 0"},
    {"accessor offset beyond 4 GiB",
     {{"/accessors/0/byteOffset", "8589934592"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0",
     "3 elements of 12 bytes from byteOffset 8589934592 run past the end of bufferView 0"},
    {"sparse indices offset beyond 4 GiB",
     {{"/accessors/0/sparse", "{\"count\":1,\"indices\":{\"bufferView\":1,"
                              "\"byteOffset\":8589934592,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/indices",
     "1 indices run past bufferView 1"},
    {"view beyond 2 GiB",
     {{"/bufferViews/0/byteLength", "4294967296"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0",
     "bytes 0..4294967296 lie past the end of buffer 0 (320 bytes)"},
    {"strided accessor past its view",
     {{"/bufferViews/0/byteStride", "16"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0",
     "run past the end of bufferView 0"},
    {"byteStride below the element size",
     {{"/bufferViews/0/byteStride", "8"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0",
     "smaller than one element"},
    {"byteStride not a multiple of 4",
     {{"/bufferViews/0/byteStride", "14"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/byteStride",
     "multiple of 4"},
    {"byteStride above 252",
     {{"/bufferViews/0/byteStride", "256"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/byteStride",
     "\"byteStride\" 256 is not a multiple of 4 in [4, 252]"},
    {"view past its buffer",
     {{"/bufferViews/0/byteLength", "321"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0",
     "past the end of buffer 0"},
    {"view offset past its buffer",
     {{"/bufferViews/10/byteOffset", "316"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/10",
     "past the end of buffer 0"},
    {"view of length 0",
     {{"/bufferViews/0/byteLength", "0"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/byteLength",
     "at least 1"},
    {"view without byteLength",
     {{"/bufferViews/0/byteLength", NULL}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/byteLength",
     "missing"},
    {"buffer shorter than its byteLength",
     {{"/buffers/0/byteLength", "400"}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "fewer than its byteLength 400"},
    {"data URI longer than byteLength",
     {{"/buffers/0/byteLength", "308"}, {"/bufferViews/12", NULL}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "more than byteLength (308)"},
    {"buffer byteLength above 2 GiB",
     {{"/buffers/0/byteLength", "2147483649"}},
     KILN_E_LIMIT,
     "/buffers/0/byteLength",
     "\"byteLength\" is 2147483649, above kiln's limit of 2147483648"},
    {"sparse indices past their view",
     {{"/accessors/0/sparse", "{\"count\":3,\"indices\":{\"bufferView\":7,\"byteOffset\":2,"
                              "\"componentType\":5123},\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/indices",
     "run past bufferView 7"},
    {"sparse values past their view",
     {{"/accessors/0/sparse", "{\"count\":3,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":2}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/values",
     "run past bufferView 2"},
    {"meshopt view larger than its data",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions",
       "{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":300,"
       "\"byteLength\":36,\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression",
     "past the end of buffer 0"},
    {"meshopt count times stride past the view",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions",
       "{\"EXT_meshopt_compression\":{\"buffer\":0,"
       "\"byteLength\":36,\"byteStride\":12,\"count\":4,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression",
     "count * byteStride (48) differs from the view's byteLength (36)"},
    {"meshopt stride differing from the view's",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/byteStride", "12"},
      {"/bufferViews/0/extensions",
       "{\"EXT_meshopt_compression\":{\"buffer\":0,"
       "\"byteLength\":36,\"byteStride\":4,\"count\":9,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression",
     "byteStride 4 differs from the view's byteStride 12"},
    {"meshopt data that is not meshopt",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions",
       "{\"EXT_meshopt_compression\":{\"buffer\":0,"
       "\"byteLength\":36,\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression",
     "damaged"},
};

static void ranges_past_their_ends_are_refused(void **state)
{
    (void)state;
    RUN(range_cases);
}

#define ANIM(sampler)                                                                              \
    "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"           \
    "\"samplers\":[" sampler "]}]"

static const hostile_case count_cases[] = {
    {"accessor count 0",
     {{"/accessors/0/count", "0"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/count",
     "at least 1"},
    {"accessor count above the limit",
     {{"/accessors/0/count", "100000001"}},
     KILN_E_LIMIT,
     "/accessors/0/count",
     "\"count\" is 100000001, above kiln's limit of 100000000"},
    {"negative accessor count",
     {{"/accessors/0/count", "-3"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/count",
     "non-negative integer"},
    {"fractional accessor count",
     {{"/accessors/0/count", "2.5"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/count",
     "non-negative integer"},
    {"accessor without count",
     {{"/accessors/0/count", NULL}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/count",
     "missing"},
    {"sparse count above count",
     {{"/accessors/0/sparse", "{\"count\":4,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/count",
     "sparse \"count\" 4 is more than the accessor's 3 elements: sparse indices must strictly "
     "increase below the accessor's count"},
    {"sparse count 0",
     {{"/accessors/0/sparse", "{\"count\":0,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/count",
     "at least 1"},
    {"sparse indices not increasing",
     {{"/accessors/0/sparse", "{\"count\":2,\"indices\":{\"bufferView\":7,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/indices",
     "not strictly increasing"},
    {"sparse index past count",
     {{"/accessors/0/sparse", "{\"count\":3,\"indices\":{\"bufferView\":10,\"componentType\":5123},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/indices",
     "out of range"},
    {"sparse without values",
     {{"/accessors/0/sparse",
       "{\"count\":1,\"indices\":{\"bufferView\":1,\"componentType\":5123}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse",
     "\"values\" are required"},
    {"TRIANGLES indices not a multiple of 3",
     {{"/accessors/1/count", "2"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0",
     "not a multiple of 3"},
    {"TRIANGLES vertices not a multiple of 3",
     {{"/meshes/0/primitives/0/indices", NULL}, {"/accessors/0/count", "2"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0",
     "2 vertices, not a multiple of 3"},
    {"attribute count differs from POSITION",
     {{"/meshes/0/primitives/0/attributes/NORMAL", "3"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/attributes/NORMAL",
     "POSITION has 3"},
    {"mesh without primitives",
     {{"/meshes/0/primitives", "[]"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0",
     "at least one"},
    {"skin without joints",
     {{"/skins", "[{\"joints\":[]}]"}},
     KILN_E_IMPORT_FAILED,
     "/skins/0",
     "at least one node"},
    {"inverse bind matrices of the wrong type",
     {{"/skins", "[{\"joints\":[0],\"inverseBindMatrices\":2}]"}},
     KILN_E_IMPORT_FAILED,
     "/skins/0/inverseBindMatrices",
     "must be MAT4"},
    {"mesh weights without targets",
     {{"/meshes/0/weights", "[0.5]"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0",
     "1 values for 0 morph targets"},
    {"node weights without targets",
     {{"/nodes/0/weights", "[1]"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "0 morph targets"},
    {"animation without channels",
     {{"/animations", "[{\"channels\":[],\"samplers\":[]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0",
     "at least one"},
    {"animation output count",
     {{"/animations", ANIM("{\"input\":2,\"output\":0}")}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0/output",
     "\"output\" has 3 elements; 2 keys need 2"},
    {"animation times decreasing",
     {{"/animations", ANIM("{\"input\":9,\"output\":3}")}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0",
     "decreasing"},
    {"CUBICSPLINE with one key",
     {{"/accessors/2/count", "1"},
      {"/animations", ANIM("{\"input\":2,\"output\":3,\"interpolation\":\"CUBICSPLINE\"}")}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0",
     "at least 2 keys"},
    {"weights animated without morph targets",
     {{"/animations",
       "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
       "\"samplers\":[{\"input\":2,\"output\":2}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/channels/0/target",
     "no morph targets"},
    {"morph target counts differ between primitives",
     {{"/meshes/0/primitives/-",
       "{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":0}]}"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/1",
     "1 morph targets; the mesh's other primitives have 0"},
};

static void bad_counts_are_refused(void **state)
{
    (void)state;
    RUN(count_cases);
}

static const hostile_case enum_cases[] = {
    {"componentType INT (not glTF 2.0)",
     {{"/accessors/0/componentType", "5124"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/componentType",
     "5124 is not one of"},
    /* Values past 32 bits name the enum they miss, not a limit (and are not cut to 32 bits:
     * 4294972422 is 2^32 + 5126). */
    {"componentType past 32 bits",
     {{"/accessors/0/componentType", "4294972422"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/componentType",
     "\"componentType\" 4294972422 is not one of 5120, 5121, 5122, 5123, 5125, 5126"},
    {"primitive mode past 32 bits",
     {{"/meshes/0/primitives/0/mode", "4294967296"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/mode",
     "\"mode\" 4294967296 is not 0..6"},
    {"wrapS past 32 bits",
     {{"/samplers", "[{\"wrapS\":4294977793}]"}},
     KILN_E_IMPORT_FAILED,
     "/samplers/0/wrapS",
     "\"wrapS\" 4294977793 is not 10497 (REPEAT)"},
    {"texCoord 300",
     {{"/textures", "[{}]"},
      {"/materials", "[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,"
                     "\"texCoord\":300}}}]"}},
     KILN_E_IMPORT_UNSUPPORTED,
     "/materials/0/pbrMetallicRoughness/baseColorTexture",
     "texture coordinate set 300; kiln keeps sets 0.."},
    {"meshopt byteStride above 256",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions",
       "{\"EXT_meshopt_compression\":{\"buffer\":0,"
       "\"byteLength\":36,\"byteStride\":260,\"count\":3,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression/byteStride",
     "\"byteStride\" 260 is above 256, the largest EXT_meshopt_compression allows"},
    {"meshopt count above kiln's limit",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions",
       "{\"EXT_meshopt_compression\":{\"buffer\":0,"
       "\"byteLength\":36,\"byteStride\":12,\"count\":100000001,\"mode\":\"ATTRIBUTES\"}}"}},
     KILN_E_LIMIT,
     "/bufferViews/0/extensions/EXT_meshopt_compression/count",
     "\"count\" is 100000001, above kiln's limit of 100000000"},
    {"componentType as a string",
     {{"/accessors/0/componentType", "\"5126\""}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/componentType",
     "non-negative integer"},
    {"accessor type VEC5",
     {{"/accessors/0/type", "\"VEC5\""}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/type",
     "VEC5"},
    {"accessor type lower case",
     {{"/accessors/0/type", "\"vec3\""}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/type",
     "vec3"},
    {"accessor without type",
     {{"/accessors/0/type", NULL}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/type",
     "missing"},
    {"normalized floats",
     {{"/accessors/0/normalized", "true"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/normalized",
     "not allowed for FLOAT"},
    {"indices of floats",
     {{"/accessors/-", "{\"bufferView\":0,\"componentType\":5126,\"count\":9,\"type\":\"SCALAR\"}"},
      {"/meshes/0/primitives/0/indices", "12"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/indices",
     "UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT"},
    {"indices of VEC3",
     {{"/meshes/0/primitives/0/indices", "0"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/indices",
     "SCALAR"},
    {"sparse index componentType",
     {{"/accessors/0/sparse", "{\"count\":1,\"indices\":{\"bufferView\":1,\"componentType\":5126},"
                              "\"values\":{\"bufferView\":0}}"}},
     KILN_E_IMPORT_FAILED,
     "/accessors/0/sparse/indices/componentType",
     "5121, 5123 or 5125"},
    {"primitive mode 7",
     {{"/meshes/0/primitives/0/mode", "7"}},
     KILN_E_IMPORT_FAILED,
     "/meshes/0/primitives/0/mode",
     "not 0..6"},
    {"magFilter",
     {{"/samplers", "[{\"magFilter\":9984}]"}},
     KILN_E_IMPORT_FAILED,
     "/samplers/0/magFilter",
     "9984 is not 9728"},
    {"minFilter",
     {{"/samplers", "[{\"minFilter\":1}]"}},
     KILN_E_IMPORT_FAILED,
     "/samplers/0/minFilter",
     "1 is not 9728"},
    {"wrapS",
     {{"/samplers", "[{\"wrapS\":0}]"}},
     KILN_E_IMPORT_FAILED,
     "/samplers/0/wrapS",
     "0 is not 10497"},
    {"wrapT",
     {{"/samplers", "[{\"wrapT\":10496}]"}},
     KILN_E_IMPORT_FAILED,
     "/samplers/0/wrapT",
     "10496 is not 10497"},
    {"alphaMode",
     {{"/materials", "[{\"alphaMode\":\"CLIP\"}]"}},
     KILN_E_IMPORT_FAILED,
     "/materials/0/alphaMode",
     "\"CLIP\" is not OPAQUE"},
    {"alphaMode as a number",
     {{"/materials", "[{\"alphaMode\":1}]"}},
     KILN_E_IMPORT_FAILED,
     "/materials/0/alphaMode",
     "must be a string"},
    {"interpolation",
     {{"/animations", ANIM("{\"input\":2,\"output\":3,\"interpolation\":\"CUBIC\"}")}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0/interpolation",
     "\"CUBIC\" is not LINEAR"},
    {"channel path as a number",
     {{"/animations", "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":3}}],"
                      "\"samplers\":[{\"input\":2,\"output\":3}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/channels/0/target/path",
     "must be a string"},
    {"channel without path",
     {{"/animations", "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0}}],"
                      "\"samplers\":[{\"input\":2,\"output\":3}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/channels/0/target/path",
     "missing"},
    {"rotation output of VEC3",
     {{"/animations",
       "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}],"
       "\"samplers\":[{\"input\":2,\"output\":3}]}]"}},
     KILN_E_IMPORT_FAILED,
     "/animations/0/samplers/0/output",
     "must be VEC4"},
    {"camera type",
     {{"/cameras", "[{\"type\":\"fisheye\"}]"}},
     KILN_E_IMPORT_FAILED,
     "/cameras/0/type",
     "\"perspective\" or \"orthographic\""},
    {"camera yfov 0",
     {{"/cameras", "[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0,\"znear\":0.1}}]"}},
     KILN_E_IMPORT_FAILED,
     "/cameras/0/perspective",
     "yfov > 0"},
    {"light type",
     {{"/extensions", "{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"area\"}]}}"}},
     KILN_E_IMPORT_FAILED,
     "/extensions/KHR_lights_punctual/lights/0/type",
     "\"directional\""},
    {"spot cones inverted",
     {{"/extensions", "{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"spot\","
                      "\"spot\":{\"innerConeAngle\":0.5,\"outerConeAngle\":0.4}}]}}"}},
     KILN_E_IMPORT_FAILED,
     "/extensions/KHR_lights_punctual/lights/0",
     "inner < outer"},
    {"meshopt mode",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions", "{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteLength\":36,"
                                    "\"byteStride\":12,\"count\":3,\"mode\":\"QUADS\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression/mode",
     "\"QUADS\""},
    {"meshopt filter",
     {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
      {"/bufferViews/0/extensions", "{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteLength\":36,"
                                    "\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\","
                                    "\"filter\":\"BLUR\"}}"}},
     KILN_E_IMPORT_FAILED,
     "/bufferViews/0/extensions/EXT_meshopt_compression/filter",
     "\"BLUR\""},
    {"texCoord set 4",
     {{"/textures", "[{}]"},
      {"/materials",
       "[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,\"texCoord\":4}}}]"}},
     KILN_E_IMPORT_UNSUPPORTED,
     "/materials/0/pbrMetallicRoughness/baseColorTexture",
     "texture coordinate set 4"},
    {"name that is not a string",
     {{"/nodes/0/name", "7"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0/name",
     "must be a string"},
    {"name with a NUL (jansson refuses \\u0000)",
     {{"/nodes/0/name", "\"a\\u0000b\""}},
     KILN_E_IMPORT_FAILED,
     "",
     "\\u0000 is not allowed"},
    {"doubleSided as a number",
     {{"/materials", "[{\"doubleSided\":1}]"}},
     KILN_E_IMPORT_FAILED,
     "/materials/0/doubleSided",
     "true or false"},
    {"factor not finite (1e39)",
     {{"/materials", "[{\"alphaCutoff\":1e39}]"}},
     KILN_E_IMPORT_FAILED,
     "/materials/0/alphaCutoff",
     "not a finite float"},
};

static void bad_enum_and_type_values_are_refused(void **state)
{
    (void)state;
    RUN(enum_cases);
}

static const hostile_case document_cases[] = {
    {"bad base64 character",
     {{"/buffers/0/uri", "\"data:application/octet-stream;base64,AAA*\""},
      {"/buffers/0/byteLength", "3"},
      {"/bufferViews", "[{\"buffer\":0,\"byteLength\":3}]"},
      {"/meshes/0/primitives/0/attributes/POSITION", "0"}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "not in the base64 alphabet"},
    {"base64 padding in the middle",
     {{"/buffers/0/uri", "\"data:application/octet-stream;base64,AA==AAAA\""},
      {"/buffers/0/byteLength", "3"},
      {"/bufferViews", "[{\"buffer\":0,\"byteLength\":3}]"}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "padding"},
    {"base64 of one character",
     {{"/buffers/0/uri", "\"data:application/octet-stream;base64,AAAAA\""},
      {"/buffers/0/byteLength", "3"},
      {"/bufferViews", "[{\"buffer\":0,\"byteLength\":3}]"}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "group of one character"},
    {"data URI without a comma",
     {{"/buffers/0/uri", "\"data:application/octet-stream;base64\""}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "','"},
    {"image data URI with bad base64",
     {{"/images", "[{\"uri\":\"data:image/png;base64,iVBO!\"}]"}},
     KILN_E_IMPORT_FAILED,
     "/images/0",
     "base64 alphabet"},
    {"image with a uri and a bufferView",
     {{"/images", "[{\"uri\":\"data:image/png;base64,AAAA\",\"bufferView\":0}]"}},
     KILN_E_IMPORT_FAILED,
     "/images/0",
     "not both"},
    {"image bufferView without mimeType",
     {{"/images", "[{\"bufferView\":0}]"}},
     KILN_E_IMPORT_FAILED,
     "/images/0",
     "mimeType"},
    {"required unknown extension",
     {{"/extensionsUsed", "[\"KHR_kiln_never_heard_of\"]"},
      {"/extensionsRequired", "[\"KHR_kiln_never_heard_of\"]"}},
     KILN_E_IMPORT_UNSUPPORTED,
     "/extensionsRequired/0",
     "KHR_kiln_never_heard_of"},
    {"extensionsRequired not an array",
     {{"/extensionsRequired", "\"KHR_x\""}},
     KILN_E_IMPORT_FAILED,
     "/extensionsRequired",
     "must be an array"},
    {"extension name not a string",
     {{"/extensionsUsed", "[1]"}},
     KILN_E_IMPORT_FAILED,
     "/extensionsUsed/0",
     "must be a string"},
    {"asset missing", {{"/asset", NULL}}, KILN_E_IMPORT_FAILED, "/asset", "missing"},
    {"asset version missing",
     {{"/asset/version", NULL}},
     KILN_E_IMPORT_FAILED,
     "/asset/version",
     "missing"},
    {"glTF 1.0",
     {{"/asset/version", "\"1.0\""}},
     KILN_E_IMPORT_UNSUPPORTED,
     "/asset/version",
     "glTF 1.0"},
    {"minVersion 2.1",
     {{"/asset/minVersion", "\"2.1\""}},
     KILN_E_IMPORT_UNSUPPORTED,
     "/asset/minVersion",
     "glTF 2.1"},
    {"version not a number pair",
     {{"/asset/version", "\"two\""}},
     KILN_E_IMPORT_FAILED,
     "/asset/version",
     "not a <major>.<minor>"},
    {"external buffer without a folder",
     {{"/buffers/0/uri", "\"buffer.bin\""}},
     KILN_E_OUTPUT_REFUSED,
     "/buffers/0",
     "no folder"},
    {"buffer without uri outside a GLB",
     {{"/buffers/0/uri", NULL}},
     KILN_E_IMPORT_FAILED,
     "/buffers/0",
     "not the GLB's binary chunk"},
    {"top-level array of the wrong type",
     {{"/nodes", "{}"}},
     KILN_E_IMPORT_FAILED,
     "/nodes",
     "must be an array"},
    {"node that is not an object",
     {{"/nodes/0", "5"}},
     KILN_E_IMPORT_FAILED,
     "/nodes/0",
     "not an object"},
};

static void malformed_documents_are_refused(void **state)
{
    (void)state;
    RUN(document_cases);
}

/* Whole texts that are not editable documents. */
static void broken_json_is_refused(void **state)
{
    (void)state;
    mismatches = 0;
    static const struct {
        const char *name, *text;
        kiln_result code;
        const char *pointer, *fragment;
    } cases[] = {
        {"empty object", "{}", KILN_E_IMPORT_FAILED, "/asset", "\"asset\" is missing"},
        {"duplicate keys", "{\"asset\":{\"version\":\"2.0\"},\"asset\":{}}", KILN_E_IMPORT_FAILED,
         "", "duplicate"},
        {"trailing garbage", "{\"asset\":{\"version\":\"2.0\"}} x", KILN_E_IMPORT_FAILED, "",
         "end of file"},
        {"unterminated", "{\"asset\":{\"version\":\"2.0\"", KILN_E_IMPORT_FAILED, "", "line 1"},
        {"array document", "[]", KILN_E_IMPORT_UNSUPPORTED, "", "not a model"},
        {"empty input", "", KILN_E_IMPORT_UNSUPPORTED, "", "not a model"},
        {"invalid UTF-8", "{\"asset\":{\"version\":\"2.0\",\"generator\":\"\xff\"}}",
         KILN_E_IMPORT_FAILED, "", "unable to decode byte 0xff"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bytes(cases[i].name, cases[i].text, strlen(cases[i].text), NULL, cases[i].code,
                     cases[i].pointer, cases[i].fragment, NULL);
    assert_int_equal(mismatches, 0);
}

/* 100 000 nested arrays: jansson's depth limit stops the parse; no stack overflow. */
static void deep_json_nesting_is_refused(void **state)
{
    (void)state;
    mismatches = 0;
    size_t depth = 100000;
    char *text = malloc(2 * depth + 64);
    assert_non_null(text);
    char *o = text + sprintf(text, "{\"asset\":{\"version\":\"2.0\"},\"extras\":");
    for (size_t i = 0; i < depth; i++) *o++ = '[';
    for (size_t i = 0; i < depth; i++) *o++ = ']';
    *o++ = '}';
    expect_bytes("deep nesting", text, (size_t)(o - text), NULL, KILN_E_IMPORT_FAILED, "", "depth",
                 NULL);
    /* 1000 levels are legal JSON and load (the importer ignores extras). */
    o = text + sprintf(text, "{\"asset\":{\"version\":\"2.0\"},\"extras\":");
    for (size_t i = 0; i < 1000; i++) *o++ = '[';
    for (size_t i = 0; i < 1000; i++) *o++ = ']';
    *o++ = '}';
    expect_bytes("1000 levels", text, (size_t)(o - text), NULL, KILN_OK, "", NULL, NULL);
    free(text);
    assert_int_equal(mismatches, 0);
}

/* A chain of 100 000 nodes, each the child of the one before: nothing recurses per level (a
 * recursive walk would need ~10 MB of stack). Most of the time is jansson's parse. */
static void long_node_chain_loads(void **state)
{
    (void)state;
    size_t n = 100000;
    char *nodes = malloc(n * 24 + 16), *o = nodes;
    assert_non_null(nodes);
    *o++ = '[';
    for (size_t i = 0; i < n; i++)
        o += i + 1 < n ? sprintf(o, "{\"children\":[%zu]},", i + 1) : sprintf(o, "{\"mesh\":0}");
    *o++ = ']', *o = '\0';
    edit_op edits[] = {{"/nodes", nodes}, {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("long node chain", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    assert_int_equal(l.scene->node_count, n);
    assert_int_equal(l.scene->nodes[n - 1].parent, (int32_t)(n - 2));
    assert_true(l.scene->has_bounds);
    kt_load_done(&l);
    assert_null(l.problem);
    free(text);
    free(nodes);
}

static void unknown_optional_extension_is_a_warning(void **state)
{
    (void)state;
    edit_op edits[] = {{"/extensionsUsed", "[\"KHR_kiln_never_heard_of\"]"},
                       {"/nodes/0/extensions", "{\"KHR_kiln_never_heard_of\":{\"x\":1}}"},
                       {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("optional extension", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    assert_true(has_warning(l.scene, "KHR_kiln_never_heard_of"));
    assert_int_equal(l.scene->extensions_used_count, 1);
    kt_load_done(&l);
    free(text);
}

static void unknown_channel_path_is_a_warning(void **state)
{
    (void)state;
    edit_op edits[] = {
        {"/animations",
         "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"pointer\"}}],"
         "\"samplers\":[{\"input\":2,\"output\":3}]}]"},
        {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("path pointer", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    assert_true(has_warning(l.scene, "\"pointer\" is not supported"));
    assert_int_equal(l.scene->animations[0].channel_count, 0);
    kt_load_done(&l);
    free(text);
}

static void nan_positions_are_sanitised_with_a_warning(void **state)
{
    (void)state;
    edit_op edits[] = {{"/meshes/0/primitives/0/attributes/POSITION", "7"}, {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("NaN positions", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    const kiln_scene_primitive *p = &l.scene->meshes[0].primitives[0];
    assert_true(p->flags & KILN_SCENE_PRIM_POSITIONS_SANITIZED);
    for (int i = 0; i < 9; i++) assert_true(isfinite(p->positions[i]));
    assert_true(p->positions[0] == 0.0f && p->positions[4] == 0.0f && p->positions[3] == 1.0f);
    assert_true(has_warning(l.scene, "2 position coordinates were NaN or infinite"));
    kt_load_done(&l);
    free(text);
}

static void weights_are_renormalised_with_a_warning(void **state)
{
    (void)state;
    edit_op edits[] = {{"/skins", "[{\"joints\":[0]}]"},
                       {"/nodes/0/skin", "0"},
                       {"/meshes/0/primitives/0/attributes/JOINTS_0", "4"},
                       {"/meshes/0/primitives/0/attributes/WEIGHTS_0", "10"},
                       {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("weights", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    const kiln_scene_primitive *p = &l.scene->meshes[0].primitives[0];
    assert_true(p->flags & KILN_SCENE_PRIM_WEIGHTS_RENORMALIZED);
    assert_true(has_warning(l.scene, "renormalised"));
    assert_true(p->weights[0][0] == 1.0f);                             /* 0.5 alone */
    assert_true(p->weights[0][4] == 1.0f);                             /* none: all to slot 0 */
    assert_true(p->weights[0][8] == 0.5f && p->weights[0][9] == 0.5f); /* 2 + 2 */
    kt_load_done(&l);
    free(text);
}

/* Valid but uncommon: RGB colours get A = 1; UV and colour sets past the kept ones are dropped
 * with a warning; a texture without a source is a warning. */
static void uncommon_attribute_sets_load_with_warnings(void **state)
{
    (void)state;
    edit_op edits[] = {
        {"/accessors/-", "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"}"},
        {"/meshes/0/primitives/0/attributes",
         "{\"POSITION\":0,\"COLOR_0\":0,\"COLOR_1\":0,"
         "\"COLOR_2\":0,\"TEXCOORD_0\":12,\"TEXCOORD_1\":12,"
         "\"TEXCOORD_2\":12,\"TEXCOORD_3\":12,\"TEXCOORD_4\":12}"},
        {"/textures", "[{}]"},
        {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("uncommon sets", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    const kiln_scene_primitive *p = &l.scene->meshes[0].primitives[0];
    assert_int_equal(p->color_count, 2);
    assert_int_equal(p->texcoord_count, 4);
    assert_true(p->colors[0][3] == 1.0f && p->colors[0][4] == 1.0f && p->colors[0][7] == 1.0f);
    assert_true(has_warning(l.scene, "TEXCOORD_4 and later UV sets dropped"));
    assert_true(has_warning(l.scene, "COLOR_2 and later colour sets dropped"));
    assert_true(has_warning(l.scene, "/textures/0: no \"source\""));
    kt_load_done(&l);
    free(text);
}

/* 300 dropped POINTS primitives: warnings stop at 256, the last one counting the rest. */
static void warnings_are_capped(void **state)
{
    (void)state;
    size_t n = 300;
    char *prims = malloc(n * 48 + 8), *o = prims;
    *o++ = '[';
    for (size_t i = 0; i < n; i++)
        o += sprintf(o, "%s{\"attributes\":{\"POSITION\":0},\"mode\":0}", i ? "," : "");
    *o++ = ']', *o = '\0';
    edit_op edits[] = {{"/meshes/0/primitives", prims}, {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    expect_bytes("300 warnings", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    assert_int_equal(l.scene->warning_count, 256);
    assert_non_null(strstr(l.scene->warnings[255], "45 more warnings"));
    assert_int_equal(l.scene->meshes[0].primitive_count, 0);
    kt_load_done(&l);
    free(text);
    free(prims);
}

/* ---- GLB containers -------------------------------------------------------------------------- */

static void put_u32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16),
    b[3] = (uint8_t)(v >> 24);
}

/* A GLB of json (padded with spaces) and bin (padded with zeros; NULL = no BIN chunk). */
static uint8_t *make_glb(const char *json, const uint8_t *bin, size_t bin_size, size_t *size)
{
    size_t jn = strlen(json), jp = (jn + 3) & ~(size_t)3, bp = (bin_size + 3) & ~(size_t)3;
    *size = 12 + 8 + jp + (bin ? 8 + bp : 0);
    uint8_t *g = calloc(1, *size);
    assert_non_null(g);
    memcpy(g, "glTF", 4);
    put_u32(g + 4, 2);
    put_u32(g + 8, (uint32_t)*size);
    put_u32(g + 12, (uint32_t)jp);
    memcpy(g + 16, "JSON", 4);
    memset(g + 20, ' ', jp);
    memcpy(g + 20, json, jn);
    if (bin) {
        uint8_t *c = g + 20 + jp;
        put_u32(c, (uint32_t)bp);
        memcpy(c + 4, "BIN\0", 4);
        memcpy(c + 8, bin, bin_size);
    }
    return g;
}

/* The base document with its buffer in the BIN chunk. */
static uint8_t *base_glb(size_t *size, uint8_t *bin)
{
    edit_op edits[] = {{"/buffers/0/uri", NULL}, {NULL, NULL}};
    char *json = document(edits);
    make_buffer(bin);
    uint8_t *g = make_glb(json, bin, BUF_SIZE, size);
    free(json);
    return g;
}

static void truncated_and_damaged_glbs_are_refused(void **state)
{
    (void)state;
    mismatches = 0;
    uint8_t bin[BUF_SIZE];
    size_t size;
    uint8_t *g = base_glb(&size, bin);
    size_t json_len = (size_t)(g[12] | g[13] << 8);
    size_t bin_at = 20 + json_len;
    expect_bytes("valid GLB", g, size, NULL, KILN_OK, "", NULL, NULL);

    expect_bytes("GLB header of 8 bytes", g, 8, NULL, KILN_E_IMPORT_FAILED, "",
                 "header is truncated", NULL);
    expect_bytes("GLB of 4 bytes", g, 4, NULL, KILN_E_IMPORT_FAILED, "", "header is truncated",
                 NULL);
    expect_bytes("GLB cut in the JSON chunk", g, 100, NULL, KILN_E_IMPORT_FAILED, "",
                 "the header says", NULL);
    uint8_t *d = malloc(size);
    assert_non_null(d);

#define DAMAGED(name, code, pointer, fragment, ...)                                                \
    do {                                                                                           \
        memcpy(d, g, size);                                                                        \
        __VA_ARGS__;                                                                               \
        expect_bytes(name, d, size, NULL, code, pointer, fragment, NULL);                          \
    } while (0)

    DAMAGED("GLB version 1", KILN_E_IMPORT_UNSUPPORTED, "", "GLB version 1", put_u32(d + 4, 1));
    DAMAGED("GLB version 3", KILN_E_IMPORT_UNSUPPORTED, "", "GLB version 3", put_u32(d + 4, 3));
    DAMAGED("GLB length past the data", KILN_E_IMPORT_FAILED, "", "the header says",
            put_u32(d + 8, (uint32_t)size + 4));
    DAMAGED("GLB length 4 GiB - 1", KILN_E_IMPORT_FAILED, "", "the header says",
            put_u32(d + 8, 0xFFFFFFFFu));
    DAMAGED("GLB length below 20", KILN_E_IMPORT_FAILED, "", "no JSON chunk", put_u32(d + 8, 16));
    DAMAGED("JSON chunk length past the end", KILN_E_IMPORT_FAILED, "",
            "chunk 0 at byte 12 is truncated", put_u32(d + 12, (uint32_t)size));
    DAMAGED("JSON chunk length 4 GiB - 1", KILN_E_IMPORT_FAILED, "",
            "chunk 0 at byte 12 is truncated", put_u32(d + 12, 0xFFFFFFFFu));
    DAMAGED("BIN chunk length past the end", KILN_E_IMPORT_FAILED, "", "chunk 1",
            put_u32(d + bin_at, BUF_SIZE + 8));
    DAMAGED("BIN chunk header cut", KILN_E_IMPORT_FAILED, "", "chunk 1",
            put_u32(d + 8, (uint32_t)bin_at + 4));
    DAMAGED("first chunk is BIN", KILN_E_IMPORT_FAILED, "", "not JSON", memcpy(d + 16, "BIN\0", 4));
    DAMAGED("second chunk is JSON", KILN_E_IMPORT_FAILED, "", "repeats the JSON chunk",
            memcpy(d + bin_at + 4, "JSON", 4));
    DAMAGED("JSON chunk of invalid JSON", KILN_E_IMPORT_FAILED, "", "line 1", d[20] = '[');
    DAMAGED("unknown chunk instead of BIN", KILN_E_IMPORT_FAILED, "/buffers/0", "no binary chunk",
            memcpy(d + bin_at + 4, "XTRA", 4));
    /* Cut the BIN chunk short (header and chunk length agree): views are past the data. */
    DAMAGED("BIN chunk shorter than byteLength", KILN_E_IMPORT_FAILED, "/buffers/0",
            "fewer than its byteLength", put_u32(d + 8, (uint32_t)size - 64);
            put_u32(d + bin_at, BUF_SIZE - 64));
#undef DAMAGED
    expect_bytes("GLB cut at the BIN chunk", g, bin_at, NULL, KILN_E_IMPORT_FAILED, "",
                 "the header says", NULL);
    free(d);

    /* A BIN chunk larger than byteLength + 3. */
    uint8_t big[BUF_SIZE + 8];
    memcpy(big, bin, BUF_SIZE);
    memset(big + BUF_SIZE, 0, 8);
    edit_op edits[] = {{"/buffers/0/uri", NULL}, {NULL, NULL}};
    char *json = document(edits);
    size_t bsize;
    uint8_t *b = make_glb(json, big, sizeof big, &bsize);
    expect_bytes("BIN chunk longer than byteLength", b, bsize, NULL, KILN_E_IMPORT_FAILED,
                 "/buffers/0", "the GLB binary chunk has 328 bytes", NULL);
    free(b);
    /* No BIN chunk at all. */
    b = make_glb(json, NULL, 0, &bsize);
    expect_bytes("GLB without BIN", b, bsize, NULL, KILN_E_IMPORT_FAILED, "/buffers/0",
                 "no binary chunk", NULL);
    free(b);
    free(json);
    /* A trailing unknown chunk is skipped, as the specification asks. */
    uint8_t *t = malloc(size + 12);
    memcpy(t, g, size);
    put_u32(t + size, 4);
    memcpy(t + size + 4, "XTRA", 4);
    memset(t + size + 8, 0, 4);
    put_u32(t + 8, (uint32_t)size + 12);
    expect_bytes("unknown trailing chunk", t, size + 12, NULL, KILN_OK, "", NULL, NULL);
    free(t);
    free(g);
    assert_int_equal(mismatches, 0);
}

static kiln_result count_dep(void *user, const char *path, kiln_error *err)
{
    (void)path, (void)err;
    (*(size_t *)user)++;
    return KILN_OK;
}

/* kiln_gltf_dependencies reads only the JSON: every cut of a GLB (an exact-size copy, so ASan
 * sees a read past the end) is refused or listed, never read beyond. */
static void dependencies_of_cut_glbs_stay_in_bounds(void **state)
{
    (void)state;
    uint8_t bin[BUF_SIZE];
    size_t size;
    uint8_t *g = base_glb(&size, bin);
    size_t json_end = 20 + (size_t)(g[12] | g[13] << 8);
    for (size_t len = 0; len <= json_end + 8; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, g, len);
        size_t deps = 0;
        kiln_error err;
        kiln_result r = kiln_gltf_dependencies(cut, len, "/", count_dep, &deps, &err);
        if (len < json_end && r == KILN_OK) fail_msg("a GLB cut at %zu gave its dependencies", len);
        if (len >= json_end && r != KILN_OK) fail_msg("cut at %zu: %s", len, err.message);
        assert_int_equal(deps, 0); /* the buffer is the BIN chunk */
        free(cut);
    }
    free(g);
}

/* ---- URIs that leave the model's folder ------------------------------------------------------ */

static void uris_escaping_the_folder_are_refused(void **state)
{
    (void)state;
    mismatches = 0;
    char *root = kt_tempdir("gltf-uri");
    char *model = kt_format("%s/model", root), *outside = kt_format("%s/outside", root);
    char *secret = kt_format("%s/secret.bin", outside);
    char *inside = kt_format("%s/inside.bin", model), *link = kt_format("%s/link.bin", model);
    char *img_link = kt_format("%s/img.png", model);
    uint8_t bin[BUF_SIZE];
    make_buffer(bin);
    kt_write_file(secret, bin, sizeof bin);
    kt_write_file(inside, bin, sizeof bin);
    assert_int_equal(symlink(secret, link), 0);
    assert_int_equal(symlink(secret, img_link), 0);

    static const struct {
        const char *name, *at, *value;
        kiln_result code;
        const char *pointer, *fragment;
    } cases[] = {
        {"buffer ../", "/buffers/0/uri", "\"../outside/secret.bin\"", KILN_E_OUTPUT_REFUSED,
         "/buffers/0", "../outside/secret.bin"},
        {"buffer a/../../", "/buffers/0/uri", "\"a/../../outside/secret.bin\"",
         KILN_E_OUTPUT_REFUSED, "/buffers/0", "a/../../outside/secret.bin"},
        {"buffer %2e%2e/", "/buffers/0/uri", "\"%2e%2e/outside/secret.bin\"", KILN_E_OUTPUT_REFUSED,
         "/buffers/0", "%2e%2e/outside/secret.bin"},
        {"buffer /etc/passwd", "/buffers/0/uri", "\"/etc/passwd\"", KILN_E_OUTPUT_REFUSED,
         "/buffers/0", "/etc/passwd"},
        {"buffer file:///etc/passwd", "/buffers/0/uri", "\"file:///etc/passwd\"",
         KILN_E_OUTPUT_REFUSED, "/buffers/0", "file:///etc/passwd"},
        {"buffer symlink out", "/buffers/0/uri", "\"link.bin\"", KILN_E_OUTPUT_REFUSED,
         "/buffers/0", "link.bin"},
        {"buffer backslash", "/buffers/0/uri", "\"..\\\\outside\\\\secret.bin\"",
         KILN_E_OUTPUT_REFUSED, "/buffers/0", "backslash"},
        {"buffer missing inside", "/buffers/0/uri", "\"missing.bin\"", KILN_E_ASSET_IO,
         "/buffers/0", "missing.bin"},
        {"image ../", "/images", "[{\"uri\":\"../outside/secret.bin\"}]", KILN_E_OUTPUT_REFUSED,
         "/images/0", "../outside/secret.bin"},
        {"image symlink out", "/images", "[{\"uri\":\"img.png\"}]", KILN_E_OUTPUT_REFUSED,
         "/images/0", "img.png"},
        {"image absolute", "/images", "[{\"uri\":\"/etc/passwd\"}]", KILN_E_OUTPUT_REFUSED,
         "/images/0", "/etc/passwd"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        edit_op edits[] = {{cases[i].at, cases[i].value}, {NULL, NULL}};
        char *text = document(edits);
        expect_bytes(cases[i].name, text, strlen(text), model, cases[i].code, cases[i].pointer,
                     cases[i].fragment, NULL);
        free(text);
    }
    /* The same buffer inside the folder loads, and is listed as a file read. */
    edit_op ok[] = {{"/buffers/0/uri", "\"inside.bin\""}, {NULL, NULL}};
    char *text = document(ok);
    kt_load l;
    expect_bytes("buffer inside", text, strlen(text), model, KILN_OK, "", NULL, &l);
    assert_int_equal(l.scene->file_count, 1);
    assert_non_null(strstr(l.scene->files[0], "inside.bin"));
    kt_load_done(&l);
    free(text);
    /* Images inside the folder: one PNG is read and decoded, a missing one is a warning. */
    static const uint8_t px[16] = {1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 0};
    char *png = kt_format("%s/sub dir/tex.png", model);
    kt_write_png(png, px, 2, 2, 4);
    edit_op imgs[] = {{"/images", "[{\"uri\":\"sub%20dir/tex.png\"},{\"uri\":\"missing.png\"}]"},
                      {NULL, NULL}};
    text = document(imgs);
    expect_bytes("images inside", text, strlen(text), model, KILN_OK, "", NULL, &l);
    assert_int_equal(l.scene->image_count, 2);
    assert_int_equal(l.scene->images[0].width, 2);
    assert_string_equal(l.scene->images[0].uri, "sub dir/tex.png");
    assert_true(l.scene->images[0].has_alpha);
    assert_null(l.scene->images[1].encoded);
    assert_true(has_warning(l.scene, "/images/1: image \"missing.png\" cannot be read"));
    kt_load_done(&l);
    free(text);
    free(png);
    /* kiln_scene_load of a file refuses the same way (the folder is the file's). */
    edit_op bad[] = {{"/buffers/0/uri", "\"link.bin\""}, {NULL, NULL}};
    text = document(bad);
    char *path = kt_format("%s/m.gltf", model);
    kt_write_file(path, text, strlen(text));
    kiln_scene *s = NULL;
    kiln_error err;
    assert_int_equal(kiln_scene_load(path, NULL, &s, &err), KILN_E_OUTPUT_REFUSED);
    assert_null(s);
    assert_string_equal(err.json_pointer, "/buffers/0");
    assert_non_null(strstr(err.message, "link.bin"));
    free(path);
    free(text);
    kt_rmtree(root);
    free(root), free(model), free(outside), free(secret), free(inside), free(link), free(img_link);
    assert_int_equal(mismatches, 0);
}

/* ---- huge declared sizes --------------------------------------------------------------------- */

static void expect_small(const char *name, const edit_op *edits, size_t limit, kiln_result code,
                         const char *pointer, const char *fragment, size_t max_peak)
{
    char *text = document(edits);
    kt_load l;
    memset(&l, 0, sizeof l);
    l.memory_limit = limit;
    kt_load_run(&l, text, strlen(text));
    note_time(name, l.seconds);
    if (l.problem) fail_msg("%s: %s", name, l.problem);
    if (l.code != code || strcmp(l.err.json_pointer, pointer) != 0 ||
        !strstr(l.err.message, fragment))
        fail_msg("%s:\n  expected %s at \"%s\" with \"%s\"\n  got      %s at \"%s\": %s", name,
                 kiln_result_name(code), pointer, fragment, kiln_result_name(l.code),
                 l.err.json_pointer, l.err.message);
    if (l.peak_bytes > max_peak)
        fail_msg("%s: the load held %zu bytes at its peak (at most %zu expected)", name,
                 l.peak_bytes, max_peak);
    if (l.seconds > 0.25 * time_scale())
        fail_msg("%s: %.3f s is not failing fast", name, l.seconds);
    free(text);
}

#define MIB ((size_t)1 << 20)

/* A JSON array of n copies of item. */
static char *json_list(const char *item, size_t n)
{
    size_t len = strlen(item);
    char *out = malloc(n * (len + 1) + 2), *o = out;
    assert_non_null(out);
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        memcpy(o, item, len), o += len;
        *o++ = i + 1 < n ? ',' : ']';
    }
    *o = '\0';
    return out;
}

/* Issue 18: a list longer than one of kiln's caps is E_LIMIT only where the cap bounds memory
 * or time; weights that do not match the morph targets break a rule of the file whatever their
 * number, and say so. */
static void long_lists_say_which_rule_or_limit(void **state)
{
    (void)state;
    mismatches = 0;
    char *zeros = json_list("0", 1025), *names = json_list("\"EXT_x\"", 1001);
    const edit_op node_weights[] = {{"/nodes/0/weights", zeros}, {NULL, NULL}};
    const edit_op mesh_weights[] = {{"/meshes/0/weights", zeros}, {NULL, NULL}};
    const edit_op used[] = {{"/extensionsUsed", names}, {NULL, NULL}};
    struct {
        const char *name;
        const edit_op *edits;
        kiln_result code;
        const char *pointer, *fragment;
    } cases[] = {
        {"node weights of 1025", node_weights, KILN_E_IMPORT_FAILED, "/nodes/0",
         "\"weights\" has 1025 values; the mesh has 0 morph targets"},
        {"mesh weights of 1025", mesh_weights, KILN_E_IMPORT_FAILED, "/meshes/0",
         "\"weights\" has 1025 values for 0 morph targets"},
        {"1001 extensions used", used, KILN_E_LIMIT, "/extensionsUsed",
         "\"extensionsUsed\" has 1001 entries, above kiln's limit of 1000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = document(cases[i].edits);
        expect_bytes(cases[i].name, text, strlen(text), NULL, cases[i].code, cases[i].pointer,
                     cases[i].fragment, NULL);
        free(text);
    }
    free(zeros);
    free(names);
    if (mismatches) fail_msg("%zu cases went wrong", mismatches);
}

static void huge_declared_counts_fail_fast_without_allocating(void **state)
{
    (void)state;
    /* Positions: 1e8 VEC3 floats would be 1.2 GB; the view holds 36 bytes. With kiln's default
     * memory limit (4 GiB) nothing may be allocated for them either. */
    edit_op positions[] = {
        {"/accessors/0/count", "99999999"}, {"/meshes/0/primitives/0/indices", NULL}, {NULL, NULL}};
    expect_small("1e8 positions over 36 bytes", positions, 0, KILN_E_IMPORT_FAILED, "/accessors/0",
                 "run past the end of bufferView 0", MIB);
    expect_small("1e8 positions, 64 MiB limit", positions, 64 * MIB, KILN_E_IMPORT_FAILED,
                 "/accessors/0", "run past the end of bufferView 0", MIB);
    /* Indices (read as integers into scratch memory). */
    edit_op indices[] = {{"/accessors/1/count", "99999999"}, {NULL, NULL}};
    expect_small("1e8 indices over 6 bytes", indices, 0, KILN_E_IMPORT_FAILED, "/accessors/1",
                 "run past the end of bufferView 1", MIB);
    /* Animation keys. */
    edit_op keys[] = {{"/accessors/2/count", "100000000"},
                      {"/accessors/3/count", "100000000"},
                      {"/animations", ANIM("{\"input\":2,\"output\":3}")},
                      {NULL, NULL}};
    expect_small("1e8 keys over 8 bytes", keys, 0, KILN_E_IMPORT_FAILED, "/accessors/2",
                 "run past the end of bufferView 2", MIB);
    /* Inverse bind matrices (MAT4: 6.4 GB declared). */
    edit_op ibm[] = {{"/accessors/6/count", "100000000"},
                     {"/skins", "[{\"joints\":[0],\"inverseBindMatrices\":6}]"},
                     {NULL, NULL}};
    expect_small("1e8 matrices over 64 bytes", ibm, 0, KILN_E_IMPORT_FAILED, "/accessors/6",
                 "run past the end of bufferView 6", MIB);
    /* A sparse accessor without a view really is 1e8 zeros: the limit stops it before any
     * allocation. */
    edit_op sparse[] = {{"/accessors/0/count", "99999999"},
                        {"/accessors/0/bufferView", NULL},
                        {"/accessors/0/sparse",
                         "{\"count\":1,\"indices\":{\"bufferView\":1,"
                         "\"componentType\":5123},\"values\":{\"bufferView\":0}}"},
                        {"/meshes/0/primitives/0/indices", NULL},
                        {NULL, NULL}};
    expect_small("1e8 sparse zeros, 64 MiB limit", sparse, 64 * MIB, KILN_E_LIMIT, "",
                 "memory limit", MIB);
    /* A meshopt view of 2 GiB declared over a never-loaded fallback buffer. */
    edit_op meshopt[] = {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
                         {"/buffers/-", "{\"byteLength\":2147483648}"},
                         {"/bufferViews/0",
                          "{\"buffer\":1,\"byteLength\":2147483648,\"extensions\":{"
                          "\"EXT_meshopt_compression\":{\"buffer\":0,\"byteLength\":36,"
                          "\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\"}}}"},
                         {NULL, NULL}};
    expect_small("meshopt view of 2 GiB, count 3", meshopt, 0, KILN_E_IMPORT_FAILED,
                 "/bufferViews/0/extensions/EXT_meshopt_compression", "differs from the view's",
                 MIB);
    /* ... and with count * byteStride = 2 GiB: 36 compressed bytes cannot hold that. */
    edit_op meshopt2[] = {{"/extensionsUsed", "[\"EXT_meshopt_compression\"]"},
                          {"/buffers/-", "{\"byteLength\":2147483648}"},
                          {"/bufferViews/0",
                           "{\"buffer\":1,\"byteLength\":2147483648,\"extensions\":{"
                           "\"EXT_meshopt_compression\":{\"buffer\":0,\"byteLength\":36,"
                           "\"byteStride\":256,\"count\":8388608,\"mode\":\"ATTRIBUTES\"}}}"},
                          {NULL, NULL}};
    expect_small("meshopt view of 2 GiB, full count", meshopt2, 0, KILN_E_IMPORT_FAILED,
                 "/bufferViews/0/extensions/EXT_meshopt_compression",
                 "36 compressed bytes cannot hold 2147483648 bytes", MIB);
}

/* ---- seeds: valid documents for the fuzzer --------------------------------------------------- */

/* A data URI of bytes with a media type (malloc'd). */
static char *data_uri(const char *media, const uint8_t *p, size_t n)
{
    char *b64 = base64(p, n), *uri = kt_format("data:%s;base64,%s", media, b64);
    free(b64);
    return uri;
}

/* Writes bytes to $KILN_GLTF_WRITE_SEEDS/<name> when that is set (fuzz/corpus/gltf is filled
 * this way: KILN_GLTF_WRITE_SEEDS=$PWD/fuzz/corpus/gltf build/tests/gltf_robust/test_gltf_hostile).
 */
static void maybe_write_seed(const char *name, const void *data, size_t size)
{
    const char *dir = getenv("KILN_GLTF_WRITE_SEEDS");
    if (!dir || !*dir) return;
    char *path = kt_format("%s/%s", dir, name);
    kt_write_file(path, data, size);
    free(path);
}

/* The meshopt seed's edits: positions and indices of the base triangle, compressed with
 * meshoptimizer's encoders into a second buffer. */
static char *meshopt_edits(edit_op *e, char **owned)
{
    uint8_t b[BUF_SIZE];
    make_buffer(b);
    uint8_t packed[512];
    size_t vn = meshopt_encodeVertexBuffer(packed, sizeof packed, b + BUF_POSITIONS, 3, 12);
    assert_true(vn > 0);
    size_t at = (vn + 3) & ~(size_t)3;
    const unsigned int tri[3] = {0, 1, 2};
    size_t in = meshopt_encodeIndexBuffer(packed + at, sizeof packed - at, tri, 3);
    assert_true(in > 0);
    size_t total = at + in;
    char *uri = data_uri("application/octet-stream", packed, total);
    owned[0] = kt_format("{\"byteLength\":%zu,\"uri\":\"%s\"}", total, uri);
    owned[1] = kt_format("{\"EXT_meshopt_compression\":{\"buffer\":1,\"byteLength\":%zu,"
                         "\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\"}}",
                         vn);
    owned[2] = kt_format("{\"EXT_meshopt_compression\":{\"buffer\":1,\"byteOffset\":%zu,"
                         "\"byteLength\":%zu,\"byteStride\":2,\"count\":3,\"mode\":\"TRIANGLES\"}}",
                         at, in);
    e[0] = (edit_op){"/extensionsUsed", "[\"EXT_meshopt_compression\"]"};
    e[1] = (edit_op){"/buffers/-", owned[0]};
    e[2] = (edit_op){"/bufferViews/0/extensions", owned[1]};
    e[3] = (edit_op){"/bufferViews/1/extensions", owned[2]};
    e[4] = (edit_op){NULL, NULL};
    return uri;
}

/* A 2x2 RGBA PNG as a data URI (written with the tests' PNG writer, read back). */
static char *png_uri(void)
{
    static const uint8_t px[16] = {255, 0, 0,   255, 0,   255, 0,   128,
                                   0,   0, 255, 255, 255, 255, 255, 0};
    char *dir = kt_tempdir("gltf-seed");
    char *path = kt_format("%s/t.png", dir);
    kt_write_png(path, px, 2, 2, 4);
    size_t n;
    uint8_t *png = kt_read_file(path, &n);
    assert_non_null(png);
    char *uri = data_uri("image/png", png, n);
    free(png);
    free(path);
    kt_rmtree(dir);
    free(dir);
    return uri;
}

#define ANIMS(channel, sampler)                                                                    \
    "[{\"name\":\"a\",\"channels\":[" channel "],\"samplers\":[" sampler "]}]"

static void seed_documents_load(void **state)
{
    (void)state;
    mismatches = 0;
    char *png = png_uri();
    char *images = kt_format("[{\"uri\":\"%s\",\"name\":\"checker\"}]", png);
    char *owned[3];
    edit_op meshopt[5];
    char *meshopt_uri = meshopt_edits(meshopt, owned);
    struct {
        const char *name;
        edit_op edits[10];
    } seeds[] = {
        {"triangle.gltf", {{NULL, NULL}}},
        {"skin_anim.gltf",
         {{"/skins", "[{\"joints\":[0],\"inverseBindMatrices\":6,\"skeleton\":0}]"},
          {"/nodes", "[{\"children\":[1],\"translation\":[1,2,3]},{\"mesh\":0,\"skin\":0}]"},
          {"/meshes/0/primitives/0/attributes/JOINTS_0", "4"},
          {"/meshes/0/primitives/0/attributes/WEIGHTS_0", "5"},
          {"/animations", ANIMS("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
                                "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"scale\"}}",
                                "{\"input\":2,\"output\":3},"
                                "{\"input\":2,\"output\":3,\"interpolation\":\"STEP\"}")},
          {NULL, NULL}}},
        {"sparse.gltf",
         {{"/accessors/0/sparse", "{\"count\":2,\"indices\":{\"bufferView\":1,\"byteOffset\":2,"
                                  "\"componentType\":5123},\"values\":{\"bufferView\":3}}"},
          {NULL, NULL}}},
        {"viewless_sparse.gltf",
         {{"/accessors/0/bufferView", NULL},
          {"/accessors/0/sparse", "{\"count\":2,\"indices\":{\"bufferView\":1,\"byteOffset\":2,"
                                  "\"componentType\":5123},\"values\":{\"bufferView\":3}}"},
          {NULL, NULL}}},
        {"morph.gltf",
         {{"/meshes/0/primitives/0/targets", "[{\"POSITION\":0}]"},
          {"/meshes/0/weights", "[0.5]"},
          {"/meshes/0/extras", "{\"targetNames\":[\"up\"]}"},
          {"/nodes/0/weights", "[0.25]"},
          {"/animations", ANIMS("{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}",
                                "{\"input\":2,\"output\":2}")},
          {NULL, NULL}}},
        {"textured.gltf",
         {{"/images", images},
          {"/samplers",
           "[{\"magFilter\":9728,\"minFilter\":9987,\"wrapS\":33071,\"wrapT\":33648}]"},
          {"/textures", "[{\"source\":0,\"sampler\":0}]"},
          {"/accessors/-",
           "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"}"},
          {"/meshes/0/primitives/0/attributes/TEXCOORD_0", "12"},
          {"/meshes/0/primitives/0/material", "0"},
          {"/extensionsUsed", "[\"KHR_texture_transform\",\"KHR_materials_emissive_strength\","
                              "\"KHR_materials_unlit\"]"},
          {"/materials", "[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,"
                         "\"extensions\":{\"KHR_texture_transform\":{\"offset\":[0.5,0],"
                         "\"rotation\":1,\"scale\":[2,2]}}},\"baseColorFactor\":[1,0.5,0.5,1]},"
                         "\"normalTexture\":{\"index\":0,\"scale\":0.5},\"alphaMode\":\"MASK\","
                         "\"emissiveFactor\":[1,1,1],\"extensions\":{"
                         "\"KHR_materials_emissive_strength\":{\"emissiveStrength\":4},"
                         "\"KHR_materials_unlit\":{}}}]"},
          {NULL, NULL}}},
        {"camera_light.gltf",
         {{"/extensionsUsed", "[\"KHR_lights_punctual\"]"},
          {"/extensions", "{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"spot\","
                          "\"spot\":{\"outerConeAngle\":0.5}},{\"type\":\"point\",\"range\":4}]}}"},
          {"/cameras", "[{\"type\":\"perspective\",\"perspective\":{\"yfov\":1,\"znear\":0.1}},"
                       "{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":1,\"ymag\":1,"
                       "\"znear\":0,\"zfar\":10}}]"},
          {"/nodes", "[{\"mesh\":0,\"children\":[1,2]},{\"camera\":1,\"matrix\":[0,1,0,0,-1,0,0,0,"
                     "0,0,1,0,1,2,3,1]},{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}},"
                     "\"rotation\":[0,0.7071068,0,0.7071068]}]"},
          {NULL, NULL}}},
        {"modes.gltf",
         {{"/meshes/0/primitives/-", "{\"attributes\":{\"POSITION\":0},\"mode\":5}"},
          {"/meshes/0/primitives/-", "{\"attributes\":{\"POSITION\":0},\"mode\":6}"},
          {"/meshes/0/primitives/-", "{\"attributes\":{\"POSITION\":0},\"mode\":0}"},
          {"/meshes/0/primitives/-", "{\"attributes\":{\"POSITION\":0},\"mode\":3,\"indices\":1}"},
          {NULL, NULL}}},
        {"quantized.gltf",
         {{"/extensionsUsed", "[\"KHR_mesh_quantization\"]"},
          {"/extensionsRequired", "[\"KHR_mesh_quantization\"]"},
          {"/accessors/-", "{\"bufferView\":4,\"componentType\":5121,\"normalized\":true,"
                           "\"count\":3,\"type\":\"VEC3\"}"},
          {"/bufferViews/4/byteStride", "4"},
          {"/meshes/0/primitives/0/attributes/NORMAL", "12"},
          {NULL, NULL}}},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        char *text = document(seeds[i].edits);
        expect_bytes(seeds[i].name, text, strlen(text), NULL, KILN_OK, "", NULL, NULL);
        maybe_write_seed(seeds[i].name, text, strlen(text));
        free(text);
    }
    char *text = document(meshopt);
    expect_bytes("meshopt.gltf", text, strlen(text), NULL, KILN_OK, "", NULL, NULL);
    maybe_write_seed("meshopt.gltf", text, strlen(text));
    free(text);
    /* The base document as a GLB; and with the fuzzer's option byte (1: no pixels). */
    uint8_t bin[BUF_SIZE];
    size_t size;
    uint8_t *glb = base_glb(&size, bin);
    expect_bytes("triangle.glb", glb, size, NULL, KILN_OK, "", NULL, NULL);
    maybe_write_seed("triangle.glb", glb, size);
    free(glb);
    edit_op tex[] = {{"/images", images}, {NULL, NULL}};
    text = document(tex);
    char *flagged = kt_format("%c%s", 1, text);
    maybe_write_seed("textured_no_pixels.flag1", flagged, strlen(text) + 1);
    free(flagged);
    free(text);
    free(meshopt_uri), free(owned[0]), free(owned[1]), free(owned[2]);
    free(images);
    free(png);
    assert_int_equal(mismatches, 0);
}

/* 30 000 scenes over 30 000 nodes: the roots of each scene are checked for repeats without
 * memory per (scene, node) pair (that would be 900 MB from a 250 KB file). */
static void many_scenes_over_many_nodes_stay_small(void **state)
{
    (void)state;
    size_t n = 30000;
    char *nodes = malloc(n * 3 + 16), *scenes = malloc(n * 3 + 16), *o = nodes, *q = scenes;
    assert_true(nodes && scenes);
    *o++ = '[', *q++ = '[';
    for (size_t i = 0; i < n; i++) {
        o += sprintf(o, "%s", i ? ",{}" : "{}");
        q += sprintf(q, "%s", i ? ",{}" : "{}");
    }
    *o++ = ']', *q++ = ']', *o = *q = '\0';
    edit_op edits[] = {{"/nodes", nodes}, {"/scenes", scenes}, {NULL, NULL}};
    char *text = document(edits);
    kt_load l;
    memset(&l, 0, sizeof l);
    kt_load_run(&l, text, strlen(text));
    note_time("30000 scenes", l.seconds);
    if (l.problem || l.code != KILN_OK)
        fail_msg("30000 scenes: %s %s", kiln_result_name(l.code),
                 l.problem ? l.problem : l.err.message);
    if (l.peak_bytes > 16 * MIB)
        fail_msg("30000 scenes: the load held %zu bytes at its peak", l.peak_bytes);
    free(text);
    free(nodes);
    free(scenes);
}

/* Work per (instance, primitive) pair must not multiply: 10 000 nodes sharing a mesh of 10 000
 * primitives (a 0.8 MB file) is 10^8 pairs for the scene bounds; 20 000 skinned nodes sharing
 * a 60 000-vertex mesh is 5 * 10^9 joint checks. Each must load in well under a second. */
static void many_instances_of_big_meshes_load_fast(void **state)
{
    (void)state;
    size_t n = 10000;
    char *prims = malloc(n * 32 + 16), *nodes = malloc(n * 80 + 128), *o = prims, *q = nodes;
    assert_true(prims && nodes);
    *o++ = '[', *q++ = '[';
    for (size_t i = 0; i < n; i++) {
        o += sprintf(o, "%s{\"attributes\":{\"POSITION\":0}}", i ? "," : "");
        q += sprintf(q, "%s{\"mesh\":0,\"rotation\":[0,0.38268343,0,0.92387953]}", i ? "," : "");
    }
    *o++ = ']', *q++ = ']', *o = *q = '\0';
    edit_op shared[] = {{"/meshes/0/primitives", prims},
                        {"/nodes", nodes},
                        {"/scenes", NULL},
                        {"/scene", NULL},
                        {NULL, NULL}};
    char *text = document(shared);
    kt_load l;
    expect_bytes("10^4 nodes x 10^4 primitives", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    /* The triangle (0,0,0) (1,0,0) (0,1,0) turned 45 degrees about +Y. */
    assert_true(l.scene->has_bounds);
    assert_true(fabsf(l.scene->bounds_max[0] - 0.70710677f) < 1e-4f);
    assert_true(fabsf(l.scene->bounds_min[2] + 0.70710677f) < 1e-4f);
    assert_true(fabsf(l.scene->bounds_max[1] - 1.0f) < 1e-6f);
    kt_load_done(&l);
    free(text);

    size_t skinned = 20000;
    q = nodes;
    *q++ = '[';
    for (size_t i = 0; i < skinned; i++) q += sprintf(q, "%s{\"mesh\":0,\"skin\":0}", i ? "," : "");
    *q++ = ']', *q = '\0';
    edit_op skin[] = {
        {"/accessors/-", "{\"componentType\":5126,\"count\":60000,\"type\":\"VEC3\"}"},
        {"/accessors/-", "{\"componentType\":5121,\"count\":60000,\"type\":\"VEC4\"}"},
        {"/accessors/-", "{\"componentType\":5126,\"count\":60000,\"type\":\"VEC4\"}"},
        {"/meshes/0/primitives/0",
         "{\"attributes\":{\"POSITION\":12,\"JOINTS_0\":13,\"WEIGHTS_0\":14}}"},
        {"/skins", "[{\"joints\":[0]}]"},
        {"/nodes", nodes},
        {"/scenes", NULL},
        {"/scene", NULL},
        {NULL, NULL}};
    text = document(skin);
    expect_bytes("2 * 10^4 skinned nodes x 60 000 vertices", text, strlen(text), NULL, KILN_OK, "",
                 NULL, &l);
    assert_int_equal(l.scene->node_count, skinned);
    kt_load_done(&l);
    free(text);

    /* 10 000 channels sharing one sampler of 100 000 keys: the keys are checked once. */
    size_t channels = 10000;
    q = nodes;
    q += sprintf(q, "[{\"channels\":[");
    for (size_t i = 0; i < channels; i++)
        q += sprintf(q, "%s{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}",
                     i ? "," : "");
    sprintf(q, "],\"samplers\":[{\"input\":12,\"output\":13}]}]");
    edit_op anim[] = {
        {"/accessors/-", "{\"componentType\":5126,\"count\":100000,\"type\":\"SCALAR\"}"},
        {"/accessors/-", "{\"componentType\":5126,\"count\":100000,\"type\":\"VEC3\"}"},
        {"/animations", nodes},
        {NULL, NULL}};
    text = document(anim);
    expect_bytes("10^4 channels x 10^5 keys", text, strlen(text), NULL, KILN_OK, "", NULL, &l);
    assert_int_equal(l.scene->animations[0].channel_count, channels);
    kt_load_done(&l);
    free(text);
    free(prims);
    free(nodes);
}

static int report_times(void **state)
{
    (void)state;
    printf("[ TIMES    ] %zu loads; slowest %.1f ms (%s)\n", loads_run, slowest_seconds * 1e3,
           slowest_case ? slowest_case : "-");
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base_document_loads),
        cmocka_unit_test(node_graphs_are_checked),
        cmocka_unit_test(indices_out_of_range_are_refused),
        cmocka_unit_test(ranges_past_their_ends_are_refused),
        cmocka_unit_test(bad_counts_are_refused),
        cmocka_unit_test(bad_enum_and_type_values_are_refused),
        cmocka_unit_test(malformed_documents_are_refused),
        cmocka_unit_test(broken_json_is_refused),
        cmocka_unit_test(deep_json_nesting_is_refused),
        cmocka_unit_test(long_node_chain_loads),
        cmocka_unit_test(unknown_optional_extension_is_a_warning),
        cmocka_unit_test(unknown_channel_path_is_a_warning),
        cmocka_unit_test(nan_positions_are_sanitised_with_a_warning),
        cmocka_unit_test(weights_are_renormalised_with_a_warning),
        cmocka_unit_test(uncommon_attribute_sets_load_with_warnings),
        cmocka_unit_test(warnings_are_capped),
        cmocka_unit_test(truncated_and_damaged_glbs_are_refused),
        cmocka_unit_test(dependencies_of_cut_glbs_stay_in_bounds),
        cmocka_unit_test(uris_escaping_the_folder_are_refused),
        cmocka_unit_test(long_lists_say_which_rule_or_limit),
        cmocka_unit_test(huge_declared_counts_fail_fast_without_allocating),
        cmocka_unit_test(many_scenes_over_many_nodes_stay_small),
        cmocka_unit_test(many_instances_of_big_meshes_load_fast),
        cmocka_unit_test(seed_documents_load),
    };
    return cmocka_run_group_tests(tests, NULL, report_times);
}
