/* assimp_textures.c — texture files named by an FBX or MTL, found next to the model: the stored
 * relative name, the bare file name, then textures/<bare name>. FBX files often store the
 * artist's absolute path (spider.fbx: D:\projects\...\drkwood2.jpg); such names and names with
 * ".." are never followed, only their bare file name is looked for in the model's folder. Every
 * candidate looked at is a dependency: a file appearing there later changes the cook. */
#include "import/assimp_private.h"

#include <stdio.h>
#include <string.h>

#include "core/file.h"
#include "core/path.h"

uint32_t kiln_assimp_texture_candidates(const char *name, assimp_candidate_fn fn, void *user)
{
    char norm[KILN_PATH_MAX];
    size_t n = strlen(name);
    if (!n || n >= sizeof norm) return 0;
    for (size_t i = 0; i <= n; i++) norm[i] = name[i] == '\\' ? '/' : name[i];
    char *rel = norm;
    while (rel[0] == '.' && rel[1] == '/') rel += 2;
    const char *bare = strrchr(rel, '/');
    bare = bare ? bare + 1 : rel;
    /* "C:" of "C:file.png" is a drive, not part of the name. */
    if (bare == rel && bare[0] && bare[1] == ':') bare += 2;
    if (!*bare || !strcmp(bare, ".") || !strcmp(bare, "..")) return 0;
    uint32_t count = 0;
    char buf[KILN_PATH_MAX];
    /* A drive ("D:/...") makes a name absolute on Windows, whatever kiln_path_is_safe_relative
     * sees on POSIX. */
    if (strcmp(rel, bare) != 0 && !strchr(rel, ':') && kiln_path_is_safe_relative(rel)) {
        count++;
        if (fn(user, rel)) return count;
    }
    count++;
    if (fn(user, bare)) return count;
    if (snprintf(buf, sizeof buf, "textures/%s", bare) < (int)sizeof buf) {
        count++;
        fn(user, buf);
    }
    return count;
}

typedef struct lookup {
    kiln_scene *scene;
    const char *base_dir;
    char found[KILN_PATH_MAX]; /* the candidate that exists, relative */
    char path[KILN_PATH_MAX];  /* and its absolute path */
    char tried[512];           /* the candidates, for the warning */
    bool oom;
    bool outside; /* a candidate was a symlink out of the folder */
} lookup;

static bool try_candidate(void *user, const char *rel)
{
    lookup *l = user;
    size_t used = strlen(l->tried);
    snprintf(l->tried + used, sizeof l->tried - used, "%s%s", used ? ", " : "", rel);
    char path[KILN_PATH_MAX];
    if (kiln_path_join(l->base_dir, rel, path, sizeof path, NULL) != KILN_OK) return false;
    if (!kiln_scene_add_file(l->scene, path)) {
        l->oom = true;
        return true;
    }
    if (!kiln_file_exists(path)) return false;
    /* A symlink may lead anywhere: only a file whose real path stays in the folder is read. */
    char real[KILN_PATH_MAX];
    if (kiln_path_resolve(path, real, sizeof real, NULL) != KILN_OK ||
        !kiln_path_is_within(l->base_dir, real)) {
        l->outside = true;
        return false;
    }
    snprintf(l->found, sizeof l->found, "%s", rel);
    snprintf(l->path, sizeof l->path, "%s", path);
    return true;
}

kiln_result kiln_assimp_texture_file(kiln_scene *scene, const char *base_dir, const char *name,
                                     uint32_t flags, kiln_scene_image *img, kiln_error *err)
{
    kiln_arena *a = kiln_scene_arena(scene);
    img->source = KILN_SCENE_IMAGE_FILE;
    if (!base_dir) {
        if (!(img->uri = kiln_arena_strdup(a, name)))
            return kiln_scene_alloc_error(scene, err, "an image name");
        if (!kiln_scene_warn(scene, "texture \"%s\" not read: no folder to look in", name))
            return kiln_scene_alloc_error(scene, err, "a warning");
        return KILN_OK;
    }
    lookup l;
    memset(&l, 0, sizeof l);
    l.scene = scene;
    l.base_dir = base_dir;
    uint32_t n = kiln_assimp_texture_candidates(name, try_candidate, &l);
    if (l.oom) return kiln_scene_alloc_error(scene, err, "the file list");
    if (!l.found[0]) {
        if (!(img->uri = kiln_arena_strdup(a, name)))
            return kiln_scene_alloc_error(scene, err, "an image name");
        bool ok = n ? kiln_scene_warn(scene,
                                      "texture \"%s\" not found next to the model (looked "
                                      "for %s%s)",
                                      name, l.tried,
                                      l.outside ? "; a symlink leading out of the folder is not "
                                                  "followed"
                                                : "")
                    : kiln_scene_warn(scene, "texture \"%s\" has no file name to look for", name);
        if (!ok) return kiln_scene_alloc_error(scene, err, "a warning");
        return KILN_OK;
    }
    if (!(img->uri = kiln_arena_strdup(a, l.found)) || !(img->path = kiln_arena_strdup(a, l.path)))
        return kiln_scene_alloc_error(scene, err, "an image path");
    if (flags & KILN_SCENE_LOAD_NO_IMAGES) return KILN_OK;
    kiln_allocator al = kiln_arena_allocator(a);
    uint8_t *data;
    size_t size;
    kiln_error ferr;
    if (kiln_file_read(l.path, ASSIMP_MAX_FILE, &al, &data, &size, &ferr) != KILN_OK) {
        if (ferr.code == KILN_E_OUT_OF_MEMORY || ferr.code == KILN_E_LIMIT) {
            if (err) *err = ferr;
            return ferr.code;
        }
        if (!kiln_scene_warn(scene, "texture \"%s\" cannot be read: %s", l.found, ferr.message))
            return kiln_scene_alloc_error(scene, err, "a warning");
        return KILN_OK;
    }
    img->encoded = data;
    img->encoded_size = size;
    return KILN_OK;
}
