/* test_fbx.c — the assimp importer's own rules: texture name candidates (never absolute, never
 * ".."), detection by content, kiln's space (units, up axis, scale), textures found by bare name
 * and in textures/, the dependency list, the guarded child (a timeout, damaged files, a file
 * assimp refuses), and the parent's blob reader refusing every truncated blob. Tests that read
 * corpus files skip themselves when it is absent. */
#include "support.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "import/assimp.h"
#include "import/assimp_private.h"
#include "import/scene_build.h"
#include "kiln/kiln_scene.h"

typedef struct names {
    char list[8][256];
    uint32_t count;
} names;

static bool collect(void *user, const char *rel)
{
    names *n = user;
    snprintf(n->list[n->count++], sizeof n->list[0], "%s", rel);
    return false;
}

static void texture_candidates_never_leave_the_folder(void **state)
{
    (void)state;
    names n = {0};
    assert_int_equal(kiln_assimp_texture_candidates("D:\\projects\\OBJ\\drkwood2.jpg", collect, &n),
                     2);
    assert_string_equal(n.list[0], "drkwood2.jpg");
    assert_string_equal(n.list[1], "textures/drkwood2.jpg");
    memset(&n, 0, sizeof n);
    assert_int_equal(
        kiln_assimp_texture_candidates("..\\..\\..\\Desktop\\uv_test.png", collect, &n), 2);
    assert_string_equal(n.list[0], "uv_test.png");
    memset(&n, 0, sizeof n);
    assert_int_equal(kiln_assimp_texture_candidates("/etc/passwd", collect, &n), 2);
    assert_string_equal(n.list[0], "passwd");
    memset(&n, 0, sizeof n);
    assert_int_equal(kiln_assimp_texture_candidates(".\\maps\\wall.png", collect, &n), 3);
    assert_string_equal(n.list[0], "maps/wall.png");
    assert_string_equal(n.list[1], "wall.png");
    assert_string_equal(n.list[2], "textures/wall.png");
    memset(&n, 0, sizeof n);
    assert_int_equal(kiln_assimp_texture_candidates("C:wall.png", collect, &n), 2);
    assert_string_equal(n.list[0], "wall.png");
    memset(&n, 0, sizeof n);
    assert_int_equal(kiln_assimp_texture_candidates("maps/..", collect, &n), 0);
    assert_int_equal(kiln_assimp_texture_candidates("", collect, &n), 0);
}

static void detection_is_by_content(void **state)
{
    (void)state;
    static const char bin[] = "Kaydara FBX Binary  \0\x1a\0";
    assert_int_equal(kiln_assimp_detect(bin, sizeof bin), KILN_ASSIMP_FBX);
    static const char ascii[] = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n";
    assert_int_equal(kiln_assimp_detect(ascii, strlen(ascii)), KILN_ASSIMP_FBX);
    static const char obj[] = "# made by hand\n\nmtllib a.mtl\nv 0 0 0\n";
    assert_int_equal(kiln_assimp_detect(obj, strlen(obj)), KILN_ASSIMP_OBJ);
    static const char json[] = "{\"asset\":{}}";
    assert_int_equal(kiln_assimp_detect(json, strlen(json)), KILN_ASSIMP_NONE);
    static const char png[] = "\x89PNG\r\n\x1a\n\0\0";
    assert_int_equal(kiln_assimp_detect(png, sizeof png), KILN_ASSIMP_NONE);
    assert_int_equal(kiln_assimp_detect("vertex", 6), KILN_ASSIMP_NONE);
    /* NUL bytes that end a text file (ZBrush writes one) are padding, not binary data. */
    static const char padded[] = "# ZBrush\nv 0 0 0\n\0\0";
    assert_int_equal(kiln_assimp_detect(padded, sizeof padded), KILN_ASSIMP_OBJ);
    static const char inner[] = "v 0 0 0\n\0f 1 1 1\n";
    assert_int_equal(kiln_assimp_detect(inner, sizeof inner - 1), KILN_ASSIMP_NONE);
}

/* The name chose the importer: only evidence refutes it, and the refusal names the importer and,
 * when kiln knows, what the bytes are. */
static void confirmation_refutes_only_on_evidence(void **state)
{
    (void)state;
    kiln_error err;
    static const char inner[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\n\0\x1a junk\nf 1 2 3\n";
    assert_int_equal(kiln_assimp_confirm(inner, sizeof inner - 1, KILN_ASSIMP_OBJ, &err), KILN_OK);
    static const char odd[] = "# a comment\r\nnewkeyword 1 2\n";
    assert_int_equal(kiln_assimp_confirm(odd, strlen(odd), KILN_ASSIMP_OBJ, &err), KILN_OK);
    static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    assert_int_equal(kiln_assimp_confirm(png, sizeof png - 1, KILN_ASSIMP_OBJ, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_string_equal(err.message, "not an OBJ file: the bytes are a PNG image");
    static const char bin[] = "Kaydara FBX Binary  \0\x1a\0";
    assert_int_equal(kiln_assimp_confirm(bin, sizeof bin, KILN_ASSIMP_OBJ, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_string_equal(err.message, "not an OBJ file: the bytes are an FBX file");
    assert_int_equal(kiln_assimp_confirm(bin, sizeof bin, KILN_ASSIMP_FBX, &err), KILN_OK);
    static const char hdr[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n";
    assert_int_equal(kiln_assimp_confirm(hdr, strlen(hdr), KILN_ASSIMP_OBJ, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "Radiance HDR"));
    static const char nul[] = "\0v 0 0 0\n";
    assert_int_equal(kiln_assimp_confirm(nul, sizeof nul - 1, KILN_ASSIMP_OBJ, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "not an OBJ file: the first statement"));
    static const char obj[] = "v 0 0 0\n";
    assert_int_equal(kiln_assimp_confirm(obj, strlen(obj), KILN_ASSIMP_FBX, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_string_equal(err.message, "not an FBX file: the bytes are an OBJ file");
    assert_int_equal(kiln_assimp_confirm("hello", 5, KILN_ASSIMP_FBX, &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "not an FBX file: neither"));
    assert_int_equal(kiln_assimp_confirm("", 0, KILN_ASSIMP_OBJ, &err), KILN_E_IMPORT_UNSUPPORTED);
}

/* A scene from a corpus file with the given options (NULL: defaults). */
static kiln_scene *import(const char *rel, const kiln_assimp_opts *o, kiln_result *code,
                          kiln_error *err)
{
    char *path = kt_corpus_path(rel);
    size_t size;
    void *data = kt_read_file(path, &size);
    if (!data) fail_msg("cannot read %s", path);
    char *dir = strdup(path);
    *strrchr(dir, '/') = '\0';
    kiln_scene *s;
    assert_int_equal(kiln_scene_create(NULL, 0, &s, err), KILN_OK);
    *code = kiln_assimp_import(data, size, kiln_assimp_detect(data, size), dir, o, 0, s, err);
    free(dir);
    free(data);
    free(path);
    return s;
}

static void height_and_depth(const kiln_scene *s, float *h, float *d)
{
    assert_true(s->has_bounds);
    *h = s->bounds_max[1] - s->bounds_min[1];
    *d = s->bounds_max[2] - s->bounds_min[2];
}

static void fbx_units_and_axes_reach_kiln_space(void **state)
{
    (void)state;
    if (!getenv("KILN_CORPUS")) skip();
    kiln_error err;
    kiln_result r;
    /* Maya: centimetres, +Y up: the 1-unit cube is 1 cm. */
    kiln_scene *s = import("fbx/ufbx/maya_cube_7500_binary.fbx", NULL, &r, &err);
    assert_int_equal(r, KILN_OK);
    float h, d;
    height_and_depth(s, &h, &d);
    assert_true(fabsf(h - 0.01f) < 1e-5f && fabsf(d - 0.01f) < 1e-5f);
    kiln_scene_free(s);
    kiln_assimp_opts o = {0};
    o.scale = 100;
    s = import("fbx/ufbx/maya_cube_7500_binary.fbx", &o, &r, &err);
    height_and_depth(s, &h, &d);
    assert_true(fabsf(h - 1.0f) < 1e-4f);
    kiln_scene_free(s);
    /* 3ds Max: +Z up, metres. Auto trusts the header ((x, y, z) becomes (x, z, -y)); "y"
     * keeps the file's axes; "z" is what the header says here. */
    float lo[3][3], hi[3][3];
    for (int up = 0; up < 3; up++) {
        o = (kiln_assimp_opts){0};
        o.up_axis = up;
        s = import("fbx/assimp/embedded_ascii/box.FBX", &o, &r, &err);
        assert_int_equal(r, KILN_OK);
        assert_true(s->has_bounds);
        memcpy(lo[up], s->bounds_min, sizeof lo[up]);
        memcpy(hi[up], s->bounds_max, sizeof hi[up]);
        kiln_scene_free(s);
    }
    const float eps = 1e-4f;
    assert_true(fabsf(lo[0][0] - lo[1][0]) < eps && fabsf(hi[0][0] - hi[1][0]) < eps);
    assert_true(fabsf(lo[0][1] - lo[1][2]) < eps && fabsf(hi[0][1] - hi[1][2]) < eps);
    assert_true(fabsf(lo[0][2] + hi[1][1]) < eps && fabsf(hi[0][2] + lo[1][1]) < eps);
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(lo[0][k] - lo[2][k]) < eps && fabsf(hi[0][k] - hi[2][k]) < eps);
    (void)height_and_depth;
}

static void embedded_texture_is_used(void **state)
{
    (void)state;
    if (!getenv("KILN_CORPUS")) skip();
    kiln_error err;
    kiln_result r;
    kiln_scene *s = import("fbx/assimp/embedded_ascii/box.FBX", NULL, &r, &err);
    assert_int_equal(r, KILN_OK);
    assert_int_equal(s->image_count, 1);
    assert_int_equal(s->images[0].source, KILN_SCENE_IMAGE_BUFFER_VIEW);
    assert_string_equal(s->images[0].mime_type, "image/png");
    assert_true(s->images[0].encoded_size > 1000);
    assert_int_equal(s->images[0].width, 512); /* decoded: pixels were asked for */
    assert_int_equal(s->materials[0].textures[KILN_SCENE_SLOT_BASE_COLOR].texture, 0);
    kiln_scene_free(s);
}

/* spider.fbx names absolute Windows paths; its textures are found by bare name when they sit
 * beside the model or in textures/, and each candidate looked at is a dependency. */
static void absolute_texture_paths_are_found_by_bare_name(void **state)
{
    (void)state;
    if (!getenv("KILN_CORPUS")) skip();
    char *dir = kt_tempdir("fbx_tex");
    char *src = kt_corpus_path("fbx/assimp/spider.fbx");
    size_t size;
    void *data = kt_read_file(src, &size);
    char *p = kt_format("%s/spider.fbx", dir);
    kt_write_file(p, data, size);
    free(p);
    const char *beside[] = {"drkwood2.jpg", "wal67ar_small.jpg"};
    for (int i = 0; i < 2; i++) {
        char *from = kt_format("%s/obj/spider/%s", getenv("KILN_CORPUS"), beside[i]);
        size_t n;
        void *b = kt_read_file(from, &n);
        char *to = kt_format("%s/%s%s", dir, i ? "textures/" : "", beside[i]);
        if (i) {
            char *tdir = kt_format("%s/textures", dir);
            char *cmd = kt_format("mkdir -p '%s'", tdir);
            assert_int_equal(system(cmd), 0);
            free(cmd);
            free(tdir);
        }
        kt_write_file(to, b, n);
        free(b), free(from), free(to);
    }
    kiln_scene *s;
    kiln_error err;
    assert_int_equal(kiln_scene_create(NULL, 0, &s, &err), KILN_OK);
    assert_int_equal(kiln_assimp_import(data, size, KILN_ASSIMP_FBX, dir, NULL,
                                        KILN_SCENE_LOAD_NO_PIXELS, s, &err),
                     KILN_OK);
    uint32_t found = 0, missing = 0;
    for (uint32_t i = 0; i < s->image_count; i++) {
        if (s->images[i].encoded_size) found++;
        else missing++;
    }
    assert_int_equal(found, 2);
    assert_int_equal(missing, 2);
    bool warned = false, in_textures = false;
    for (uint32_t i = 0; i < s->warning_count; i++)
        warned = warned || strstr(s->warnings[i], "SpiderTex.jpg\" not found") != NULL;
    for (uint32_t i = 0; i < s->file_count; i++) {
        assert_true(strncmp(s->files[i], dir, strlen(dir)) == 0); /* never outside the folder */
        in_textures = in_textures || strstr(s->files[i], "/textures/wal67ar_small.jpg") != NULL;
    }
    assert_true(warned);
    assert_true(in_textures);
    kiln_scene_free(s);
    free(data);
    free(src);
    kt_rmtree(dir);
    free(dir);
}

static kiln_result on_dep(void *user, const char *path, kiln_error *err)
{
    (void)err;
    names *n = user;
    const char *base = strrchr(path, '/');
    if (n->count < 8) snprintf(n->list[n->count], sizeof n->list[0], "%s", base ? base + 1 : path);
    n->count++;
    return KILN_OK;
}

static void obj_dependencies_are_its_mtl_and_textures(void **state)
{
    (void)state;
    if (!getenv("KILN_CORPUS")) skip();
    char *path = kt_corpus_path("obj/spider/spider.obj");
    size_t size;
    void *data = kt_read_file(path, &size);
    *strrchr(path, '/') = '\0';
    names n = {0};
    kiln_error err;
    assert_int_equal(
        kiln_assimp_dependencies(data, size, KILN_ASSIMP_OBJ, path, NULL, on_dep, &n, &err),
        KILN_OK);
    assert_int_equal(n.count, 6); /* spider.mtl and five JPEGs, each found on the first try */
    assert_string_equal(n.list[0], "spider.mtl");
    free(data);
    free(path);
}

static void guarded_child_times_out(void **state)
{
    (void)state;
    if (!getenv("KILN_CORPUS")) skip();
    kiln_assimp_opts o = {0};
    o.timeout_ms = 1;
    kiln_error err;
    kiln_result r;
    kiln_scene *s = import("fbx/ufbx/maya_kenney_character_7700_binary.fbx", &o, &r, &err);
    assert_int_equal(r, KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "did not finish"));
    kiln_scene_free(s);
}

static void damaged_files_are_errors(void **state)
{
    (void)state;
    if (!getenv("KILN_CORPUS")) skip();
    char *path = kt_corpus_path("fbx/ufbx/maya_cube_7500_binary.fbx");
    size_t size;
    uint8_t *data = kt_read_file(path, &size);
    /* Truncated at a few lengths, and with bytes flipped past the header. */
    size_t cuts[] = {30, 200, size / 3, size / 2, size - 10};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        kiln_scene *s;
        kiln_error err;
        assert_int_equal(kiln_scene_create(NULL, 0, &s, &err), KILN_OK);
        kiln_result r = kiln_assimp_import(data, cuts[i], KILN_ASSIMP_FBX, NULL, NULL, 0, s, &err);
        assert_true(r == KILN_OK || r == KILN_E_IMPORT_FAILED);
        kiln_scene_free(s);
    }
    kiln_scene *s;
    kiln_error err;
    static const char junk[] = "v 1 2\nf 1 2 9 x\nusemtl\nmtllib ../../etc/passwd\n";
    assert_int_equal(kiln_scene_create(NULL, 0, &s, &err), KILN_OK);
    kiln_result r =
        kiln_assimp_import(junk, strlen(junk), KILN_ASSIMP_OBJ, "/tmp", NULL, 0, s, &err);
    assert_true(r == KILN_OK || r == KILN_E_IMPORT_FAILED);
    for (uint32_t i = 0; r == KILN_OK && i < s->file_count; i++)
        assert_null(strstr(s->files[i], "passwd"));
    kiln_scene_free(s);
    free(data);
    free(path);
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char *p = kt_format("%s/%s", dir, name);
    kt_write_file(p, text, strlen(text));
    free(p);
}

static void link_to(const char *dir, const char *name, const char *target)
{
    char *p = kt_format("%s/%s", dir, name);
    assert_int_equal(symlink(target, p), 0);
    free(p);
}

/* The folder given relative to the current one still lists absolute, resolved files (as glTF
 * does), and a .mtl or texture that is a symlink leading out of the folder is not read. */
static void files_are_absolute_and_symlinks_stay_inside(void **state)
{
    (void)state;
    char *top = kt_tempdir("fbx_links");
    char real_top[4096];
    assert_non_null(realpath(top, real_top));
    char *model = kt_format("%s/model", real_top);
    char *cmd = kt_format("mkdir -p '%s'", model);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    write_text(real_top, "outside.mtl", "newmtl m\nmap_Kd inside.png\n");
    write_text(real_top, "secret.png", "not for kiln");
    write_text(model, "inside.mtl", "newmtl m\nmap_Kd tex.png\n");
    link_to(model, "link.mtl", "../outside.mtl");
    link_to(model, "tex.png", "../secret.png");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(real_top), 0);
    static const char *const objs[] = {
        "mtllib link.mtl\nusemtl m\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
        "mtllib inside.mtl\nusemtl m\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
    };
    for (int i = 0; i < 2; i++) {
        kiln_scene *s;
        kiln_error err;
        assert_int_equal(kiln_scene_create(NULL, 0, &s, &err), KILN_OK);
        kiln_result r = kiln_assimp_import(objs[i], strlen(objs[i]), KILN_ASSIMP_OBJ, "model", NULL,
                                           0, s, &err);
        if (r != KILN_OK) fail_msg("obj %d: %s", i, err.message);
        assert_true(s->file_count >= 1);
        for (uint32_t k = 0; k < s->file_count; k++)
            if (strncmp(s->files[k], model, strlen(model)) != 0 ||
                s->files[k][strlen(model)] != '/')
                fail_msg("obj %d: file %s is not under %s", i, s->files[k], model);
        for (uint32_t k = 0; k < s->image_count; k++)
            assert_int_equal(s->images[k].encoded_size, 0);
        bool said = false;
        for (uint32_t k = 0; k < s->warning_count; k++)
            said = said || strstr(s->warnings[k], i ? "symlink leading out" : "link.mtl") != NULL;
        if (!said) fail_msg("obj %d: no warning about the symlink", i);
        kiln_scene_free(s);
    }
    assert_int_equal(chdir(cwd), 0);
    kt_rmtree(top);
    free(model);
    free(top);
}

static const char triangle_obj[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

static kiln_result import_triangle(const char *library, kiln_error *err)
{
    kiln_scene *s;
    assert_int_equal(kiln_scene_create(NULL, 0, &s, err), KILN_OK);
    kiln_assimp_opts o = {0};
    o.library = library;
    kiln_result r = kiln_assimp_import(triangle_obj, strlen(triangle_obj), KILN_ASSIMP_OBJ, NULL,
                                       &o, 0, s, err);
    if (r == KILN_OK) assert_int_equal(s->mesh_count, 1);
    kiln_scene_free(s);
    return r;
}

/* libassimp is loaded only in the child: the test process (like every kiln process) never has
 * it mapped, before or after an import. */
static void assimp_is_never_loaded_in_the_caller(void **state)
{
    (void)state;
    assert_null(dlopen("libassimp.so.5", RTLD_NOW | RTLD_NOLOAD));
    kiln_error err;
    assert_int_equal(import_triangle(NULL, &err), KILN_OK);
    assert_null(dlopen("libassimp.so.5", RTLD_NOW | RTLD_NOLOAD));
}

static void missing_libassimp_is_unsupported(void **state)
{
    (void)state;
    kiln_error err;
    assert_int_equal(import_triangle("libassimp-kiln-missing.so.5", &err),
                     KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "FBX/OBJ import needs libassimp5 ("));
    assert_non_null(strstr(err.message, "libassimp-kiln-missing.so.5"));
    /* A library without assimp's functions: the first missing one is named. */
    assert_int_equal(import_triangle("libc.so.6", &err), KILN_E_IMPORT_UNSUPPORTED);
    assert_non_null(strstr(err.message, "aiImportFileExWithProperties"));
}

/* The first n bytes of a blob of `size` (n may be size + 1: one byte more) through the blob
 * reader and the build: the whole blob builds, anything else is refused as damaged. */
static void blob_cut(const char *seed, const uint8_t *blob, size_t n, size_t size)
{
    kiln_scene *scene;
    kiln_error err;
    assert_int_equal(kiln_scene_create(NULL, 0, &scene, NULL), KILN_OK);
    kiln_assimp_opts o = {0};
    kiln_result r =
        kiln_assimp_build_blob(blob, n, NULL, &o, KILN_SCENE_LOAD_NO_PIXELS, scene, &err);
    if (n == size) {
        if (r != KILN_OK) fail_msg("%s: %s", seed, err.message);
        assert_true(scene->node_count > 0 && scene->mesh_count > 0);
    } else {
        if (r != KILN_E_IMPORT_FAILED || !strstr(err.message, "assimp's result is damaged"))
            fail_msg("%s cut at %zu of %zu: %s (%s)", seed, n, size, kiln_result_name(r),
                     r ? err.message : "built");
        if (n > size) assert_non_null(strstr(err.message, "trailing bytes"));
    }
    kiln_scene_free(scene);
}

/* The blob reader (assimp_blob_read.c) over real blobs of the child (the fuzz seeds): the whole
 * blob builds; every prefix of it (every length for the small ones, every 61st for the skinned
 * one) and the blob with one byte more are refused as damaged, never built. */
static void blob_reader_refuses_every_truncation(void **state)
{
    (void)state;
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src || !*src) skip();
    static const char *const seeds[] = {"box_fbx", "cube_usemtl_obj", "vertexcolors_obj",
                                        "sausage_skin_clips_fbx"};
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        char *path = kt_format("%s/fuzz/corpus/fbx/blob_%s.kasb", src, seeds[i]);
        size_t size;
        uint8_t *blob = kt_read_file(path, &size);
        assert_non_null(blob);
        uint8_t *longer = calloc(1, size + 1);
        assert_non_null(longer);
        memcpy(longer, blob, size);
        size_t step = size > 4096 ? 61 : 1;
        for (size_t n = 0; n < size; n += step) blob_cut(seeds[i], longer, n, size);
        blob_cut(seeds[i], longer, size, size);
        blob_cut(seeds[i], longer, size + 1, size);
        free(longer);
        free(blob);
        free(path);
    }
}

/* KILN_WRITE_FUZZ_SEEDS=1: fuzz/corpus/fbx/blob_<name>.kasb, the child's blobs of a few corpus
 * files (small ones: a seed's size bounds libFuzzer's inputs), so fuzz_fbx also mutates the blob
 * reader (assimp_blob_read.c) and the build of its doc (assimp_scene.c) directly. */
static void write_blob_seeds(void **state)
{
    (void)state;
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS"), *src = getenv("KILN_SOURCE_DIR");
    if (!on || strcmp(on, "1") != 0 || !src || !getenv("KILN_CORPUS")) skip();
    static const char *const files[][2] = {
        {"fbx/assimp/box.fbx", "box_fbx"},
        {"fbx/ufbx/blender_279_sausage_7400_binary.fbx", "sausage_skin_clips_fbx"},
        {"obj/cube_usemtl/cube_usemtl.obj", "cube_usemtl_obj"},
        {"obj/cube_with_vertexcolors/cube_with_vertexcolors.obj", "vertexcolors_obj"},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *path = kt_corpus_path(files[i][0]);
        size_t size;
        uint8_t *data = kt_read_file(path, &size);
        assert_non_null(data);
        assimp_job job = {data, size, kiln_assimp_detect(data, size), NULL, false, NULL};
        uint8_t *blob;
        size_t n, cap;
        kiln_error err;
        kiln_allocator libc = {0};
        assert_int_equal(kiln_assimp_guard_run(&job, 60000, (size_t)8 << 30, (size_t)64 << 20,
                                               &libc, &blob, &n, &cap, &err),
                         KILN_OK);
        char *out = kt_format("%s/fuzz/corpus/fbx/blob_%s.kasb", src, files[i][1]);
        kt_write_file(out, blob, n);
        printf("%s: %zu bytes\n", out, n);
        kiln_free(&libc, blob, cap);
        free(out);
        free(data);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texture_candidates_never_leave_the_folder),
        cmocka_unit_test(detection_is_by_content),
        cmocka_unit_test(confirmation_refutes_only_on_evidence),
        cmocka_unit_test(fbx_units_and_axes_reach_kiln_space),
        cmocka_unit_test(embedded_texture_is_used),
        cmocka_unit_test(absolute_texture_paths_are_found_by_bare_name),
        cmocka_unit_test(obj_dependencies_are_its_mtl_and_textures),
        cmocka_unit_test(guarded_child_times_out),
        cmocka_unit_test(damaged_files_are_errors),
        cmocka_unit_test(assimp_is_never_loaded_in_the_caller),
        cmocka_unit_test(missing_libassimp_is_unsupported),
        cmocka_unit_test(files_are_absolute_and_symlinks_stay_inside),
        cmocka_unit_test(blob_reader_refuses_every_truncation),
        cmocka_unit_test(write_blob_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
