/* assimp.c — the entry of the FBX and OBJ importer: detection by content, the confirmation of
 * bytes a file name chose this importer for, the guarded child (assimp_guard.c), its blob read
 * into a doc (assimp_blob_read.c) and the scene built from that (assimp_scene.c); the dependency
 * list for cache keys from the same child run. */
#include "import/assimp_private.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/file.h"
#include "core/path.h"
#include "import/fbx_blend.h"
#include "import/fbx_legacy.h"
#include "import/fbx_tree.h"
#include "import/sniff.h"

/* The child's default deadline grows with the model's size: TIMEOUT_FLOOR_MS, plus
 * TIMEOUT_PER_MIB_MS for each MiB, at most TIMEOUT_CEILING_MS. assimp reads OBJ and FBX here at
 * 3 to 7 MB/s, process start included (corpus FBX 0.74 MB: 0.23 s; generated 20 MB OBJ: 4.7 s),
 * so the deadline stays 5 to 40 times what an honest file needs on a busy machine, while a child
 * that hangs on a small file is ended in seconds rather than after a flat minute. */
#define TIMEOUT_FLOOR_MS     10000u
#define TIMEOUT_PER_MIB_MS   1000u
#define TIMEOUT_CEILING_MS   (30u * 60u * 1000u)
#define DEFAULT_CHILD_MEMORY ((size_t)8 << 30)
#define MAX_BLOB             ((size_t)4 << 30)

static const char fbx_magic[] = "Kaydara FBX Binary  ";

/* Is the start of p (n bytes) the OBJ keyword kw followed by a blank? */
static bool keyword(const uint8_t *p, size_t n, const char *kw)
{
    size_t k = strlen(kw);
    return n > k && !memcmp(p, kw, k) && (p[k] == ' ' || p[k] == '\t');
}

/* Where the first statement of OBJ text starts: past a UTF-8 BOM, blank lines and comment lines,
 * within the first head bytes (head when there is none there). */
static size_t first_statement(const uint8_t *p, size_t head)
{
    size_t i = head >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
    while (i < head) {
        while (i < head && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
        if (i < head && p[i] == '#') {
            while (i < head && p[i] != '\n') i++;
            continue;
        }
        break;
    }
    return i;
}

/* Does the start of ASCII FBX text (one of its markers) lie in the first head bytes? */
static bool ascii_fbx(const uint8_t *p, size_t head)
{
    size_t i = head >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
    if (head - i >= 5 && !memcmp(p + i, "; FBX", 5)) return true;
    for (size_t k = i; k + 18 <= head; k++)
        if (!memcmp(p + k, "FBXHeaderExtension", 18)) return true;
    return false;
}

kiln_assimp_format kiln_assimp_detect(const void *data, size_t size)
{
    const uint8_t *p = data;
    if (!p) return KILN_ASSIMP_NONE;
    if (size >= sizeof fbx_magic && !memcmp(p, fbx_magic, sizeof fbx_magic - 1))
        return KILN_ASSIMP_FBX;
    /* Text formats only from here. Some exporters (ZBrush) end a text file with NUL bytes: they
     * are padding, not a sign of binary data. */
    while (size && !p[size - 1]) size--;
    size_t head = size < 4096 ? size : 4096;
    for (size_t i = 0; i < head; i++)
        if (!p[i]) return KILN_ASSIMP_NONE;
    if (ascii_fbx(p, head)) return KILN_ASSIMP_FBX;
    /* OBJ: the first statement (after blank and comment lines) is an OBJ keyword. */
    static const char *const kws[] = {"v",      "vt",  "vn",   "vp",  "f",      "l",
                                      "p",      "o",   "g",    "s",   "mtllib", "usemtl",
                                      "cstype", "deg", "curv", "surf"};
    size_t i = first_statement(p, head);
    for (size_t k = 0; i < head && k < sizeof kws / sizeof *kws; k++)
        if (keyword(p + i, head - i, kws[k])) return KILN_ASSIMP_OBJ;
    return KILN_ASSIMP_NONE;
}

static bool is_letter(uint8_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Why OBJ bytes are not OBJ text, or NULL when they may be: the first statement (within the
 * first 4 KiB) must start with a keyword, letters, digits and '_' from a letter, followed by a
 * blank or the end of its line. What follows is the parser's to judge: assimp reads files with
 * trailing NUL bytes or junk that kiln's detection would not call text. */
static const char *obj_refusal(const uint8_t *p, size_t size, char *why, size_t cap)
{
    size_t head = size < 4096 ? size : 4096;
    size_t i = first_statement(p, head);
    if (i == head) return NULL; /* only comments and blanks: the parser says what it makes of it */
    size_t k = i;
    while (k < head &&
           (is_letter(p[k]) || (k > i && ((p[k] >= '0' && p[k] <= '9') || p[k] == '_'))))
        k++;
    if (k > i && (k == head || p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\n'))
        return NULL;
    snprintf(why, cap,
             "the first statement is not an OBJ keyword followed by a blank (byte 0x%02X "
             "at offset %zu)",
             (unsigned)p[k], k);
    return why;
}

kiln_result kiln_assimp_confirm(const void *data, size_t size, kiln_assimp_format format,
                                kiln_error *err)
{
    const uint8_t *p = data;
    if (format != KILN_ASSIMP_FBX && format != KILN_ASSIMP_OBJ)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "not an FBX or OBJ file");
    const char *name = kiln_assimp_format_name(format);
    if (!p || !size)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "not an %s file: it is empty", name);
    /* Bytes of another format kiln knows are named: that is the likeliest mistake. */
    const char *other = kiln_sniff_describe(p, size);
    if (other && kiln_assimp_detect(p, size) != format)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "not an %s file: the bytes are %s",
                              name, other);
    char why[128];
    if (format == KILN_ASSIMP_FBX) {
        bool binary = size >= sizeof fbx_magic && !memcmp(p, fbx_magic, sizeof fbx_magic - 1);
        if (binary || ascii_fbx(p, size < 4096 ? size : 4096)) return KILN_OK;
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "not an FBX file: neither the binary FBX header nor ASCII FBX "
                              "(\"; FBX\" or FBXHeaderExtension) in its first 4096 bytes");
    }
    const char *bad = obj_refusal(p, size, why, sizeof why);
    return bad ? kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "not an OBJ file: %s", bad)
               : KILN_OK;
}

const char *kiln_assimp_format_name(kiln_assimp_format f)
{
    return f == KILN_ASSIMP_FBX ? "FBX" : f == KILN_ASSIMP_OBJ ? "OBJ" : "unknown";
}

uint32_t kiln_assimp_default_timeout_ms(size_t size)
{
    uint64_t mib = (uint64_t)size >> 20;
    uint64_t ms = TIMEOUT_FLOOR_MS + mib * TIMEOUT_PER_MIB_MS;
    return ms > TIMEOUT_CEILING_MS ? TIMEOUT_CEILING_MS : (uint32_t)ms;
}

/* opts with its defaults filled in; size: the model's bytes, which the deadline scales with. */
static kiln_assimp_opts resolve(const kiln_assimp_opts *opts, size_t size)
{
    kiln_assimp_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    if (!o.timeout_ms) o.timeout_ms = kiln_assimp_default_timeout_ms(size);
    if (!o.child_memory) o.child_memory = DEFAULT_CHILD_MEMORY;
    if (!o.animation_fps || o.animation_fps > 240) o.animation_fps = 30;
    return o;
}

/* Runs the child and returns its blob (allocated from a). */
static kiln_result run(const void *data, size_t size, kiln_assimp_format format,
                       const char *base_dir, const kiln_assimp_opts *o, size_t max_bytes,
                       const kiln_allocator *a, uint8_t **blob, size_t *n, size_t *cap,
                       kiln_error *err)
{
    if (format != KILN_ASSIMP_FBX && format != KILN_ASSIMP_OBJ)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "not an FBX or OBJ file");
    assimp_job job = {data, size, format, base_dir, o->skip_animations, o->library};
    return kiln_assimp_guard_run(&job, o->timeout_ms, o->child_memory, max_bytes, a, blob, n, cap,
                                 err);
}

kiln_result kiln_assimp_build_blob(const uint8_t *blob, size_t size, const char *base_dir,
                                   const kiln_assimp_opts *opts, uint32_t flags, kiln_scene *scene,
                                   kiln_error *err)
{
    kiln_arena *sa = kiln_scene_arena(scene);
    kiln_arena tmp;
    kiln_arena_init(&tmp, &sa->allocator, sa->limit);
    assimp_doc doc;
    kiln_result r = kiln_assimp_blob_read(blob, size, scene, &tmp, &doc, err);
    if (r == KILN_OK) r = kiln_assimp_build(&doc, base_dir, opts, flags, scene, err);
    kiln_arena_release(&tmp);
    return r;
}

kiln_result kiln_assimp_import(const void *data, size_t size, kiln_assimp_format format,
                               const char *base_dir, const kiln_assimp_opts *opts, uint32_t flags,
                               kiln_scene *scene, kiln_error *err)
{
    /* The file's name chose this importer; its bytes may still be something else. */
    kiln_result r = kiln_assimp_confirm(data, size, format, err);
    if (r != KILN_OK) return r;
    kiln_assimp_opts o = resolve(opts, size);
    /* The folder as an absolute real path: the files listed are then absolute and resolved, as
     * the glTF importer lists them, and a file whose real path leaves it is not read. */
    char real_dir[KILN_PATH_MAX], abs_dir[KILN_PATH_MAX];
    if (base_dir && kiln_path_absolute(base_dir, abs_dir, sizeof abs_dir, NULL) == KILN_OK &&
        kiln_path_resolve(abs_dir, real_dir, sizeof real_dir, NULL) == KILN_OK)
        base_dir = real_dir;
    /* FBX 6.x, which assimp 5.2 cannot read, goes to kiln's own bounded reader (fbx_legacy.c),
     * in this process: it runs no code but kiln's. */
    uint32_t version = format == KILN_ASSIMP_FBX ? kiln_fbx_sniff_version(data, size) : 0;
    if (version && version < KILN_FBX_LEGACY_BELOW)
        return kiln_fbx_legacy_import(data, size, base_dir, &o, flags, scene, err);
    kiln_arena *arena = kiln_scene_arena(scene);
    const kiln_allocator *a = &arena->allocator;
    size_t max = arena->limit && arena->limit < MAX_BLOB ? arena->limit : MAX_BLOB;
    uint8_t *blob;
    size_t n, cap;
    r = run(data, size, format, base_dir, &o, max, a, &blob, &n, &cap, err);
    if (r != KILN_OK) return r;
    r = kiln_assimp_build_blob(blob, n, base_dir, &o, flags, scene, err);
    kiln_free(a, blob, cap);
    /* assimp 5.2 drops the blend shapes of many FBX 7 files: kiln's own reader adds them. */
    if (r == KILN_OK && format == KILN_ASSIMP_FBX)
        r = kiln_fbx_blend_shapes(data, size, &o, scene, err);
    if (r == KILN_OK && !scene->generator[0])
        scene->generator =
            format == KILN_ASSIMP_FBX ? "FBX (through assimp)" : "OBJ (through assimp)";
    return r;
}

kiln_result kiln_assimp_dependencies(const void *data, size_t size, kiln_assimp_format format,
                                     const char *base_dir, const kiln_assimp_opts *opts,
                                     kiln_gltf_dep_fn fn, void *user, kiln_error *err)
{
    /* The files of the scene an import without pixels builds: the child's list, then each
     * texture's candidates up to the one found. */
    kiln_scene *scene;
    kiln_result r = kiln_scene_create(NULL, (size_t)4 << 30, &scene, err);
    if (r != KILN_OK) return r;
    r = kiln_assimp_import(data, size, format, base_dir, opts, KILN_SCENE_LOAD_NO_IMAGES, scene,
                           err);
    for (uint32_t i = 0; r == KILN_OK && i < scene->file_count; i++)
        r = fn(user, scene->files[i], err);
    kiln_scene_free(scene);
    return r;
}
