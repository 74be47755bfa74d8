/* test_gltf_assimp.c — differential check of kiln's glTF importer against assimp (Debian's
 * libassimp 5.2.5) on every .gltf/.glb of the corpus.
 *
 * Each file is loaded by kiln (kiln_scene_load, KILN_SCENE_LOAD_NO_PIXELS) and by assimp
 * (aiImportFile with aiProcess_Triangulate only: no JoinIdenticalVertices, which would merge
 * vertices, and no SortByPType/FindDegenerates, which would split or drop faces). What is compared,
 * and what each side means by it:
 *
 *   triangles  kiln: index_count / 3 summed over every primitive of every mesh (meshes once, not
 *              per node instance, as an aiScene lists each aiMesh once); assimp: 3-index faces
 *              summed over the aiMeshes that hold triangles.
 *   vertices   kiln: vertex_count summed over primitives; assimp: mNumVertices summed over the
 *              triangle aiMeshes. assimp makes one aiMesh per glTF primitive and keeps the
 *              primitive's vertices as the accessor has them (indexed, not unshared).
 *   nodes      kiln: node_count (every node of the file); assimp: the size of the tree under
 *              mRootNode. assimp uses the scene's single root as mRootNode, else (0 or 2+ roots)
 *              adds a node "ROOT" above them; a mesh with several primitives stays one node that
 *              lists several aiMeshes (no child nodes).
 *   geometry   each kiln primitive is paired with an unused assimp triangle mesh of the same size
 *              (assimp orders aiMeshes by first reference from the node tree, not by the file's
 *              mesh order): positions equal within 1e-6 relative, triangles equal up to rotation
 *              (both convert strips and fans with the spec's winding, starting at another corner).
 *
 * Where the two differ the table below names the file and the kind of difference, and the test
 * asserts the explained relation exactly (e.g. assimp nodes == kiln nodes + 1). A difference the
 * table does not explain fails, and so does an explanation that no longer holds or names a file
 * the corpus lacks. A table of every file is printed. Skips (77) when the corpus is absent. */
#include "support.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kiln/kiln_scene.h"

/* ---- the explained differences --------------------------------------------------------------- */

enum {
    /* The scene has 0 or 2+ root nodes: assimp adds its own root "ROOT" (no meshes) above them.
     * Relation: assimp nodes == kiln nodes + 1, ROOT's children == kiln's root_count. */
    D_ROOT_NODE = 1u << 0,
    /* POINTS / LINES / LINE_LOOP / LINE_STRIP primitives: kiln drops them with a warning (it keeps
     * triangles, docs/gltf.md), assimp keeps each as a point or line aiMesh. Relation: assimp's
     * non-triangle meshes == kiln stats.dropped_primitives, their vertices == kiln stats.vertices
     * minus the kept primitives' vertex_count; triangle counts agree. */
    D_POINTS_LINES = 1u << 1,
    /* KHR_mesh_quantization with integer POSITION: assimp 5.2 reads the integers' bytes as floats
     * (tiny or denormal garbage); kiln converts them. Relation: counts and triangles agree,
     * positions differ; kiln's world bounds equal those of the unquantized sibling file (`sibling`)
     * within 1e-3 of its extent, so kiln is the right one. */
    D_ASSIMP_NO_DEQUANT = 1u << 2,
    /* NaN/Inf positions: kiln sets each such coordinate to 0 with a warning and the primitive
     * flag KILN_SCENE_PRIM_POSITIONS_SANITIZED; assimp keeps them. Relation: counts agree, finite
     * coordinates equal, kiln has 0 wherever assimp has a non-finite value (at least one). */
    D_KILN_SANITIZES = 1u << 3,
    /* kiln refuses the file (kiln_code at kiln_pointer), assimp reads it; assimp's counts are
     * pinned in assimp_tris / assimp_verts / assimp_nodes. */
    D_KILN_REJECTS = 1u << 4,
    /* assimp refuses the file (its message holds assimp_error); kiln reads it. */
    D_ASSIMP_FAILS = 1u << 5,
    /* Both refuse the file: kiln with kiln_code at kiln_pointer, assimp with assimp_error. */
    D_BOTH_FAIL = 1u << 6,
};

typedef struct explained {
    const char *file;         /* relative to the corpus's gltf/ folder */
    unsigned kinds;           /* D_* */
    const char *why;          /* printed with the table */
    kiln_result kiln_code;    /* D_KILN_REJECTS, D_BOTH_FAIL */
    const char *kiln_pointer; /* JSON pointer of kiln's error */
    const char *assimp_error; /* substring of aiGetErrorString(): D_ASSIMP_FAILS, D_BOTH_FAIL */
    long assimp_tris, assimp_verts, assimp_nodes; /* D_KILN_REJECTS: what assimp makes of it */
    const char *sibling; /* D_ASSIMP_NO_DEQUANT: the same model without quantization */
} explained;

#define ROOTS(n) .kinds = D_ROOT_NODE, .why = n " root nodes: assimp adds \"ROOT\" above them"

static const explained k_explained[] = {
    {.file = "AlphaBlendModeTest/glTF/AlphaBlendModeTest.gltf", ROOTS("9")},
    {.file = "BoxAnimated/glTF-Binary/BoxAnimated.glb", ROOTS("2")},
    {.file = "BoxAnimated/glTF-Embedded/BoxAnimated.gltf", ROOTS("2")},
    {.file = "BoxAnimated/glTF/BoxAnimated.gltf", ROOTS("2")},
    {.file = "Cameras/glTF-Embedded/Cameras.gltf", ROOTS("3")},
    {.file = "Cameras/glTF/Cameras.gltf", ROOTS("3")},
    {.file = "EmissiveStrengthTest/glTF-Binary/EmissiveStrengthTest.glb", ROOTS("6")},
    {.file = "EmissiveStrengthTest/glTF/EmissiveStrengthTest.gltf", ROOTS("6")},
    {.file = "Fox/glTF-Binary/Fox.glb", ROOTS("2")},
    {.file = "Fox/glTF/Fox.gltf", ROOTS("2")},
    {.file = "InterpolationTest/glTF-Binary/InterpolationTest.glb", ROOTS("12")},
    {.file = "InterpolationTest/glTF/InterpolationTest.gltf", ROOTS("12")},
    {.file = "MultiUVTest/glTF-Binary/MultiUVTest.glb", ROOTS("2")},
    {.file = "MultiUVTest/glTF-Embedded/MultiUVTest.gltf", ROOTS("2")},
    {.file = "MultiUVTest/glTF/MultiUVTest.gltf", ROOTS("2")},
    {.file = "OrientationTest/glTF-Binary/OrientationTest.glb", ROOTS("13")},
    {.file = "OrientationTest/glTF-Embedded/OrientationTest.gltf", ROOTS("13")},
    {.file = "OrientationTest/glTF/OrientationTest.gltf", ROOTS("13")},
    {.file = "SimpleSkin/glTF-Embedded/SimpleSkin.gltf", ROOTS("2")},
    {.file = "SimpleSkin/glTF/SimpleSkin.gltf", ROOTS("2")},
    {.file = "TextureTransformTest/glTF/TextureTransformTest.gltf", ROOTS("6")},
    {.file = "VertexColorTest/glTF-Binary/VertexColorTest.glb", ROOTS("2")},
    {.file = "VertexColorTest/glTF-Embedded/VertexColorTest.gltf", ROOTS("2")},
    {.file = "VertexColorTest/glTF/VertexColorTest.gltf", ROOTS("2")},
    {.file = "MeshPrimitiveModes/glTF-Embedded/MeshPrimitiveModes.gltf",
     .kinds = D_ROOT_NODE | D_POINTS_LINES,
     .why = "7 root nodes: assimp adds \"ROOT\"; POINTS, LINES, LINE_LOOP, LINE_STRIP: kiln "
            "drops them, assimp keeps 4 point/line meshes"},
    {.file = "MeshPrimitiveModes/glTF/MeshPrimitiveModes.gltf",
     .kinds = D_ROOT_NODE | D_POINTS_LINES,
     .why = "7 root nodes: assimp adds \"ROOT\"; POINTS, LINES, LINE_LOOP, LINE_STRIP: kiln "
            "drops them, assimp keeps 4 point/line meshes"},
    {.file = "AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf",
     .kinds = D_ASSIMP_NO_DEQUANT,
     .why = "KHR_mesh_quantization uint16 positions: assimp 5.2 reads their bytes as floats; kiln "
            "converts them (its bounds equal the unquantized file's)",
     .sibling = "AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"},
    {.file = "Pirate-meshopt/glTF-Binary/pirate.glb",
     .kinds = D_ASSIMP_FAILS,
     .why = "EXT_meshopt_compression: assimp 5.2 lacks it and refuses the uri-less fallback "
            "buffer; kiln decodes it",
     .assimp_error = "missing the \"uri\" attribute"},
    {.file = "assimp-BoxWithInfinites/glTF-Binary/BoxWithInfinites.glb",
     .kinds = D_KILN_SANITIZES,
     .why = "Inf positions: kiln sets them to 0 with a warning, assimp keeps them"},
    {.file = "assimp-IndexOutOfRange/glTF/IndexOutOfRange.gltf",
     .kinds = D_KILN_REJECTS,
     .why = "index 255 >= 24 vertices (invalid per the spec): kiln refuses the file, assimp "
            "drops the one bad triangle and keeps 11",
     .kiln_code = KILN_E_IMPORT_FAILED,
     .kiln_pointer = "/meshes/0/primitives/0/indices",
     .assimp_tris = 11,
     .assimp_verts = 24,
     .assimp_nodes = 2},
    {.file = "assimp-IndexOutOfRange/glTF/AllIndicesOutOfRange.gltf",
     .kinds = D_BOTH_FAIL,
     .why = "every index is 65535 >= 24 vertices: kiln refuses it, assimp drops every face "
            "and then refuses the empty mesh",
     .kiln_code = KILN_E_IMPORT_FAILED,
     .kiln_pointer = "/meshes/0/primitives/0/indices",
     .assimp_error = "has no faces"},
    {.file = "assimp-RecursiveNodes/glTF/RecursiveNodes.gltf",
     .kinds = D_BOTH_FAIL,
     .why = "node 0 is its own child: both refuse the cycle",
     .kiln_code = KILN_E_IMPORT_FAILED,
     .kiln_pointer = "/nodes/0",
     .assimp_error = "recursive reference"},
    {.file = "assimp-TestNoRootNode/glTF/NoScene.gltf",
     .kinds = D_BOTH_FAIL,
     .why = "\"scene\": 0 without a \"scenes\" array (invalid per the spec): both refuse it",
     .kiln_code = KILN_E_IMPORT_FAILED,
     .kiln_pointer = "/scene",
     .assimp_error = "No scene"},
    {.file = "assimp-TestNoRootNode/glTF/SceneWithoutNodes.gltf",
     .kinds = D_ROOT_NODE,
     .why = "a scene without nodes: kiln has 0 nodes, assimp an empty \"ROOT\" (and flags the "
            "scene incomplete)"},
};

#define N_EXPLAINED (sizeof k_explained / sizeof k_explained[0])

static const explained *find_explained(const char *rel)
{
    for (size_t i = 0; i < N_EXPLAINED; i++)
        if (strcmp(k_explained[i].file, rel) == 0) return &k_explained[i];
    return NULL;
}

/* ---- the corpus's model files ---------------------------------------------------------------- */

typedef struct file_list {
    char **paths; /* relative to the gltf folder, sorted */
    size_t count, cap;
} file_list;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void collect(const char *root, const char *rel, file_list *list)
{
    char *dir_path = rel[0] ? kt_format("%s/%s", root, rel) : kt_format("%s", root);
    DIR *dir = opendir(dir_path);
    if (!dir) fail_msg("cannot list %s", dir_path);
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL) {
        if (ent->d_name[0] == '.') continue;
        char *child = rel[0] ? kt_format("%s/%s", rel, ent->d_name) : kt_format("%s", ent->d_name);
        char *full = kt_format("%s/%s", root, child);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(root, child, list);
            free(child);
        } else if (has_suffix(child, ".gltf") || has_suffix(child, ".glb")) {
            if (list->count == list->cap) {
                list->cap = list->cap ? list->cap * 2 : 64;
                list->paths = realloc(list->paths, list->cap * sizeof *list->paths);
                assert_non_null(list->paths);
            }
            list->paths[list->count++] = child;
        } else {
            free(child);
        }
        free(full);
    }
    closedir(dir);
    free(dir_path);
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_list(file_list *list)
{
    for (size_t i = 0; i < list->count; i++) free(list->paths[i]);
    free(list->paths);
}

/* ---- counting -------------------------------------------------------------------------------- */

typedef struct kiln_side {
    kiln_scene *scene; /* NULL when refused */
    kiln_error err;
    kiln_result code;
    long nodes, roots, prims, verts, tris, dropped, declared_verts;
} kiln_side;

typedef struct assimp_side {
    const struct aiScene *scene; /* NULL when refused */
    char error[256];
    long nodes, tri_meshes, verts, tris, other_faces, line_meshes, line_verts;
    bool synthetic_root; /* mRootNode is "ROOT" without meshes */
    long root_children;
} assimp_side;

static kiln_side load_kiln(const char *path)
{
    kiln_side k;
    memset(&k, 0, sizeof k);
    kiln_scene_opts opts = {0};
    opts.flags = KILN_SCENE_LOAD_NO_PIXELS;
    k.code = kiln_scene_load(path, &opts, &k.scene, &k.err);
    if (k.code != KILN_OK) return k;
    const kiln_scene *s = k.scene;
    k.nodes = s->node_count;
    k.roots = s->root_count;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++) {
            const kiln_scene_primitive *prim = &s->meshes[m].primitives[p];
            k.prims++;
            k.verts += prim->vertex_count;
            k.tris += prim->index_count / 3;
        }
    }
    k.dropped = (long)s->stats.dropped_primitives;
    k.declared_verts = (long)s->stats.vertices;
    return k;
}

static long tree_size(const struct aiNode *node)
{
    long n = 1;
    for (unsigned i = 0; i < node->mNumChildren; i++) n += tree_size(node->mChildren[i]);
    return n;
}

static assimp_side load_assimp(const char *path)
{
    assimp_side a;
    memset(&a, 0, sizeof a);
    a.scene = aiImportFile(path, aiProcess_Triangulate);
    if (!a.scene) {
        snprintf(a.error, sizeof a.error, "%s", aiGetErrorString());
        return a;
    }
    const struct aiScene *s = a.scene;
    a.nodes = s->mRootNode ? tree_size(s->mRootNode) : 0;
    if (s->mRootNode) {
        a.synthetic_root =
            strcmp(s->mRootNode->mName.data, "ROOT") == 0 && s->mRootNode->mNumMeshes == 0;
        a.root_children = s->mRootNode->mNumChildren;
    }
    for (unsigned i = 0; i < s->mNumMeshes; i++) {
        const struct aiMesh *m = s->mMeshes[i];
        if (m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) {
            a.tri_meshes++;
            a.verts += m->mNumVertices;
            for (unsigned f = 0; f < m->mNumFaces; f++) {
                if (m->mFaces[f].mNumIndices == 3) a.tris++;
                else a.other_faces++;
            }
        } else {
            a.line_meshes++;
            a.line_verts += m->mNumVertices;
        }
    }
    return a;
}

/* ---- geometry -------------------------------------------------------------------------------- */

typedef enum geometry {
    GEOM_SAME = 0,      /* positions equal, triangles equal up to rotation */
    GEOM_POSITIONS = 1, /* triangles equal, some position differs */
    GEOM_SANITIZED = 2, /* triangles equal; equal where assimp's are finite, kiln 0 elsewhere */
    GEOM_TRIANGLES = 3, /* some triangle differs */
} geometry;

static bool same_float(float a, float b)
{
    float scale = fabsf(a) > 1.0f ? fabsf(a) : 1.0f;
    return fabsf(a - b) <= 1e-6f * scale;
}

static bool same_triangle(const uint32_t *k, const unsigned *a)
{
    for (int r = 0; r < 3; r++)
        if (k[0] == a[r] && k[1] == a[(r + 1) % 3] && k[2] == a[(r + 2) % 3]) return true;
    return false;
}

/* Compares one kiln primitive with one assimp triangle mesh of the same size; *nonfinite counts
 * assimp's non-finite coordinates (kiln's are then expected to be 0). */
static geometry compare_geometry(const kiln_scene_primitive *p, const struct aiMesh *m,
                                 long *nonfinite)
{
    for (uint32_t t = 0; t < p->index_count / 3; t++)
        if (!same_triangle(&p->indices[3 * t], m->mFaces[t].mIndices)) return GEOM_TRIANGLES;
    bool positions_differ = false, sanitized = false;
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        const float av[3] = {m->mVertices[v].x, m->mVertices[v].y, m->mVertices[v].z};
        for (int c = 0; c < 3; c++) {
            float kv = p->positions[3 * v + c];
            if (!isfinite(av[c])) {
                (*nonfinite)++;
                if (kv == 0.0f) sanitized = true;
                else positions_differ = true;
            } else if (!same_float(kv, av[c])) {
                positions_differ = true;
            }
        }
    }
    if (positions_differ) return GEOM_POSITIONS;
    return sanitized ? GEOM_SANITIZED : GEOM_SAME;
}

/* Pairs every kiln primitive with an unused assimp triangle mesh of equal vertex and triangle
 * counts, preferring one whose geometry is the same. Returns the worst geometry seen; *unpaired
 * counts primitives that found no mesh of their size. */
static geometry pair_primitives(const kiln_scene *ks, const struct aiScene *as, long *unpaired,
                                long *nonfinite)
{
    bool *used = calloc(as->mNumMeshes + 1, sizeof *used);
    assert_non_null(used);
    geometry worst = GEOM_SAME;
    for (uint32_t mi = 0; mi < ks->mesh_count; mi++) {
        for (uint32_t pi = 0; pi < ks->meshes[mi].primitive_count; pi++) {
            const kiln_scene_primitive *p = &ks->meshes[mi].primitives[pi];
            long best = -1;
            geometry best_geom = GEOM_TRIANGLES;
            long best_nonfinite = 0;
            for (unsigned ai = 0; ai < as->mNumMeshes && best_geom != GEOM_SAME; ai++) {
                const struct aiMesh *m = as->mMeshes[ai];
                if (used[ai] || !(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) ||
                    m->mNumVertices != p->vertex_count ||
                    (uint64_t)m->mNumFaces * 3 != p->index_count)
                    continue;
                long nf = 0;
                geometry g = compare_geometry(p, m, &nf);
                if (best < 0 || g < best_geom) {
                    best = ai;
                    best_geom = g;
                    best_nonfinite = nf;
                }
            }
            if (best < 0) {
                (*unpaired)++;
                continue;
            }
            used[best] = true;
            *nonfinite += best_nonfinite;
            if (best_geom > worst) worst = best_geom;
        }
    }
    free(used);
    return worst;
}

static bool world_bounds_close(const kiln_scene *a, const kiln_scene *b)
{
    if (!a->has_bounds || !b->has_bounds) return false;
    for (int c = 0; c < 3; c++) {
        float extent = b->bounds_max[c] - b->bounds_min[c];
        float tol = 1e-3f * (extent > 1e-6f ? extent : 1.0f);
        if (fabsf(a->bounds_min[c] - b->bounds_min[c]) > tol ||
            fabsf(a->bounds_max[c] - b->bounds_max[c]) > tol)
            return false;
    }
    return true;
}

/* ---- one file -------------------------------------------------------------------------------- */

typedef struct report {
    char *problems; /* malloc'd, one line each; NULL when the file passes */
} report;

static void problem(report *r, const char *rel, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *line = kt_format("%s%s: %s\n", r->problems ? r->problems : "", rel, msg);
    free(r->problems);
    r->problems = line;
}

static const char *kinds_text(unsigned kinds, char *buf, size_t size)
{
    static const char *const names[] = {"root-node",    "points-lines", "no-dequant", "sanitizes",
                                        "kiln-rejects", "assimp-fails", "both-fail"};
    buf[0] = '\0';
    if (!kinds) {
        snprintf(buf, size, "agree");
        return buf;
    }
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(kinds & (1u << i))) continue;
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? "," : "", names[i]);
    }
    return buf;
}

static void print_row(const char *rel, const kiln_side *k, const assimp_side *a, unsigned kinds)
{
    char kn[16], an[16], kt[16], at[16], kv[16], av[16], kinds_buf[96];
    if (k->scene) {
        snprintf(kn, sizeof kn, "%ld", k->nodes);
        snprintf(kt, sizeof kt, "%ld", k->tris);
        snprintf(kv, sizeof kv, "%ld", k->verts);
    } else {
        snprintf(kn, sizeof kn, "-");
        snprintf(kt, sizeof kt, "%s", kiln_result_name(k->code));
        snprintf(kv, sizeof kv, "-");
    }
    if (a->scene) {
        snprintf(an, sizeof an, "%ld", a->nodes);
        snprintf(at, sizeof at, "%ld", a->tris);
        snprintf(av, sizeof av, "%ld", a->verts);
    } else {
        snprintf(an, sizeof an, "-");
        snprintf(at, sizeof at, "FAILED");
        snprintf(av, sizeof av, "-");
    }
    char lines[32] = "";
    if (a->line_meshes) snprintf(lines, sizeof lines, " +%ld pt/line meshes", a->line_meshes);
    print_message("%-60s %5s %5s %8s %8s %7s %7s  %s%s\n", rel, kn, an, kt, at, kv, av,
                  kinds_text(kinds, kinds_buf, sizeof kinds_buf), lines);
}

static void check_file(const char *root, const char *rel, report *r)
{
    char *path = kt_format("%s/%s", root, rel);
    kiln_side k = load_kiln(path);
    assimp_side a = load_assimp(path);
    const explained *ex = find_explained(rel);
    unsigned kinds = ex ? ex->kinds : 0;
    print_row(rel, &k, &a, kinds);
    if (ex) print_message("    why: %s\n", ex->why);

    /* Refusals first: they decide what else can be compared. */
    bool kiln_should_fail = kinds & (D_KILN_REJECTS | D_BOTH_FAIL);
    bool assimp_should_fail = kinds & (D_ASSIMP_FAILS | D_BOTH_FAIL);
    if (!k.scene && !kiln_should_fail)
        problem(r, rel, "kiln refused it: %s %s (%s)", kiln_result_name(k.code), k.err.message,
                k.err.json_pointer);
    if (k.scene && kiln_should_fail)
        problem(r, rel, "kiln read it; the table says it refuses it with %s at %s",
                kiln_result_name(ex->kiln_code), ex->kiln_pointer);
    if (!k.scene && kiln_should_fail &&
        (k.code != ex->kiln_code || strcmp(k.err.json_pointer, ex->kiln_pointer) != 0))
        problem(r, rel, "kiln refused it with %s at \"%s\" (%s); expected %s at \"%s\"",
                kiln_result_name(k.code), k.err.json_pointer, k.err.message,
                kiln_result_name(ex->kiln_code), ex->kiln_pointer);
    if (!a.scene && !assimp_should_fail) problem(r, rel, "assimp refused it: %s", a.error);
    if (a.scene && assimp_should_fail)
        problem(r, rel, "assimp read it; the table says it refuses it (\"%s\")", ex->assimp_error);
    if (!a.scene && assimp_should_fail && !strstr(a.error, ex->assimp_error))
        problem(r, rel, "assimp refused it with \"%s\", not for \"%s\"", a.error, ex->assimp_error);

    if (k.scene && !a.scene && assimp_should_fail) {
        /* Only kiln's side: its decoded counts must be the ones the file declares. */
        if (k.dropped != 0 || k.verts != k.declared_verts ||
            k.tris != (long)k.scene->stats.triangles)
            problem(r, rel,
                    "kiln's decoded counts (%ld vertices, %ld triangles) are not the "
                    "declared ones (%ld, %ld)",
                    k.verts, k.tris, k.declared_verts, (long)k.scene->stats.triangles);
    }
    if (!k.scene && a.scene && (kinds & D_KILN_REJECTS)) {
        if (a.tris != ex->assimp_tris || a.verts != ex->assimp_verts || a.nodes != ex->assimp_nodes)
            problem(r, rel,
                    "assimp made %ld triangles, %ld vertices, %ld nodes; the table says "
                    "%ld, %ld, %ld",
                    a.tris, a.verts, a.nodes, ex->assimp_tris, ex->assimp_verts, ex->assimp_nodes);
    }

    if (k.scene && a.scene) {
        /* Nodes. */
        long extra_nodes = (kinds & D_ROOT_NODE) ? 1 : 0;
        if (a.nodes != k.nodes + extra_nodes)
            problem(r, rel, "nodes: assimp %ld, kiln %ld (%s)", a.nodes, k.nodes,
                    extra_nodes ? "expected kiln + 1 for assimp's ROOT" : "unexplained");
        if ((kinds & D_ROOT_NODE) && (!a.synthetic_root || a.root_children != k.roots))
            problem(r, rel,
                    "assimp's root is \"%s\" with %ld children; expected its own \"ROOT\" "
                    "above kiln's %ld roots",
                    a.scene->mRootNode->mName.data, a.root_children, k.roots);
        if (!(kinds & D_ROOT_NODE) && k.roots != 1)
            problem(r, rel, "kiln has %ld roots but the table expects no \"ROOT\" from assimp",
                    k.roots);

        /* Triangles and vertices. */
        if (a.tris != k.tris || a.other_faces != 0)
            problem(r, rel, "triangles: assimp %ld (+%ld other faces), kiln %ld", a.tris,
                    a.other_faces, k.tris);
        if (a.verts != k.verts) problem(r, rel, "vertices: assimp %ld, kiln %ld", a.verts, k.verts);
        if (a.tri_meshes != k.prims)
            problem(r, rel, "assimp has %ld triangle meshes, kiln %ld primitives", a.tri_meshes,
                    k.prims);
        if (kinds & D_POINTS_LINES) {
            if (a.line_meshes == 0 || a.line_meshes != k.dropped ||
                a.line_verts != k.declared_verts - k.verts)
                problem(r, rel,
                        "points/lines: assimp %ld meshes with %ld vertices; kiln dropped "
                        "%ld primitives with %ld vertices",
                        a.line_meshes, a.line_verts, k.dropped, k.declared_verts - k.verts);
        } else if (a.line_meshes != 0 || k.dropped != 0) {
            problem(r, rel, "points/lines unexplained: assimp %ld meshes, kiln dropped %ld",
                    a.line_meshes, k.dropped);
        }

        /* Geometry, primitive by primitive. */
        long unpaired = 0, nonfinite = 0;
        geometry g = pair_primitives(k.scene, a.scene, &unpaired, &nonfinite);
        if (unpaired)
            problem(r, rel, "%ld kiln primitives have no assimp mesh of their size", unpaired);
        geometry expected = GEOM_SAME;
        if (kinds & D_ASSIMP_NO_DEQUANT) expected = GEOM_POSITIONS;
        if (kinds & D_KILN_SANITIZES) expected = GEOM_SANITIZED;
        if (g != expected)
            problem(r, rel, "geometry: %s (expected %s)",
                    g == GEOM_SAME        ? "same"
                    : g == GEOM_POSITIONS ? "positions differ"
                    : g == GEOM_SANITIZED ? "kiln 0 where assimp is not finite"
                                          : "triangles differ",
                    expected == GEOM_SAME        ? "same"
                    : expected == GEOM_POSITIONS ? "positions differ"
                                                 : "kiln 0 where assimp is not finite");
        if (kinds & D_KILN_SANITIZES) {
            bool flagged = false;
            for (uint32_t m = 0; m < k.scene->mesh_count; m++)
                for (uint32_t p = 0; p < k.scene->meshes[m].primitive_count; p++)
                    if (k.scene->meshes[m].primitives[p].flags &
                        KILN_SCENE_PRIM_POSITIONS_SANITIZED)
                        flagged = true;
            if (!flagged || nonfinite == 0 || k.scene->warning_count == 0)
                problem(r, rel,
                        "sanitizing: %ld non-finite coordinates in assimp, kiln flag %d, "
                        "%u warnings",
                        nonfinite, flagged, k.scene->warning_count);
            else
                print_message("    %ld non-finite coordinates in assimp are 0 in kiln\n",
                              nonfinite);
        }
        if (kinds & D_ASSIMP_NO_DEQUANT) {
            char *sib_path = kt_format("%s/%s", root, ex->sibling);
            kiln_side sib = load_kiln(sib_path);
            if (!sib.scene || !world_bounds_close(k.scene, sib.scene))
                problem(r, rel, "kiln's world bounds differ from those of %s", ex->sibling);
            else print_message("    kiln's world bounds match %s's\n", ex->sibling);
            kiln_scene_free(sib.scene);
            free(sib_path);
        }
    }

    kiln_scene_free(k.scene);
    if (a.scene) aiReleaseImport(a.scene);
    free(path);
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void every_corpus_model_agrees_with_assimp_or_the_table_explains_why(void **state)
{
    (void)state;
    char *root = kt_corpus_path("gltf");
    assert_non_null(root);
    file_list list = {0};
    collect(root, "", &list);
    qsort(list.paths, list.count, sizeof *list.paths, compare_paths);
    assert_true(list.count > 0);

    print_message("%-60s %5s %5s %8s %8s %7s %7s  %s\n", "file", "nodes", "", "tris", "", "verts",
                  "", "difference");
    print_message("%-60s %5s %5s %8s %8s %7s %7s\n", "", "kiln", "ai", "kiln", "ai", "kiln", "ai");
    report r = {NULL};
    size_t explained_files = 0;
    for (size_t i = 0; i < list.count; i++) {
        check_file(root, list.paths[i], &r);
        if (find_explained(list.paths[i])) explained_files++;
    }
    /* Every explanation must name a file that is there: a stale table fails too. */
    for (size_t e = 0; e < N_EXPLAINED; e++) {
        bool found = false;
        for (size_t i = 0; i < list.count && !found; i++)
            found = strcmp(list.paths[i], k_explained[e].file) == 0;
        if (!found) problem(&r, k_explained[e].file, "named in the table, not in the corpus");
    }
    print_message("%zu files: %zu where kiln and assimp agree on every count and on the "
                  "geometry, %zu that differ as the table explains\n",
                  list.count, list.count - explained_files, explained_files);
    free_list(&list);
    free(root);
    if (r.problems) {
        print_error("%s", r.problems);
        free(r.problems);
        fail_msg("kiln and assimp differ in ways the table does not explain (above)");
    }
}

int main(void)
{
    kt_require_corpus();
    char *gltf = kt_corpus_path("gltf");
    struct stat st;
    if (!gltf || stat(gltf, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("no glTF corpus at %s: skipped\n", gltf ? gltf : "(unset)");
        free(gltf);
        return 77;
    }
    free(gltf);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_corpus_model_agrees_with_assimp_or_the_table_explains_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
