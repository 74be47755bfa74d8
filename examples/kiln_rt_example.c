/* kiln_rt_example.c — the afternoon-adoption path for libkiln_rt: mount cooked data, load assets
 * by name with all their dependencies through the built-in job pool, hand them to a renderer
 * (here one that only counts and logs what it gets), wait, report, release. docs/runtime-guide.md
 * walks through it line by line.
 *
 *   kiln-rt-example [-v] [--no-verify] [--platform P] [--watch] MOUNT NAME...
 *
 * MOUNT is a .kpak pack (`kiln pack`) or a kiln cache folder (a project's .kiln/cache). NAME is
 * "path#label" as `kiln import` prints it (models/fox.glb#scene, models/fox.glb#clip0,
 * wall.png#texture, shaders/pbr.frag#shader, materials/red.kmat#typed_material). One line per
 * NAME: NAME: ready (1 meshes, 576 triangles, 1 textures, 1 materials, 24 joints, 3 clips) —
 * with ", 2 shaders" at the end when shaders are among them (a typed material counts as a
 * material, with its shaders and textures) — or NAME: failed: E_CACHE_CORRUPT: ... A damaged cache
 * entry the mount skipped is said on stderr ("kiln-rt-example: skipped FILE (PATH): CODE: REASON");
 * its assets fail, the others load. Exit status: 0 when every NAME is ready, 1 when some failed, 2
 * for bad usage or mount. -v logs each renderer callback on stderr.
 * --watch keeps the assets loaded after the report and applies hot reloads (the cache changed by
 * `kiln watch` or `kiln import`) until SIGINT or SIGTERM, one line per reload applied:
 * NAME: reloaded (texture 64x64, 7 levels), NAME: reloaded (shader, 2 variants); the exit
 * status is then 0.
 * Uses only the public header and links only kiln_rt. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kiln/kiln_rt.h"

/* ---- a recording renderer ------------------------------------------------------------------
 * An engine would create GPU buffers and textures here. Every callback runs on the thread that
 * calls krt_update / krt_finish (main() below), so this state needs no lock. */
typedef struct recorder {
    bool verbose;
    int textures, meshes, materials, shaders; /* created and not yet destroyed */
    size_t texture_bytes, mesh_bytes;
    /* --watch: the names loaded, to say which one a reload replaced */
    char **names;
    const krt_handle *handles;
    size_t name_count;
} recorder;

static const char *name_of(const recorder *r, krt_handle h)
{
    for (size_t i = 0; i < r->name_count; i++)
        if (r->handles[i].id == h.id) return r->names[i];
    return NULL; /* a dependency of one of them */
}

static kiln_result create_texture(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                                  kiln_error *err)
{
    recorder *r = user;
    size_t bytes = 0;
    for (uint32_t i = 0; i < d->level_count; i++) bytes += d->levels[i].uncompressed_size;
    r->textures++;
    r->texture_bytes += bytes;
    if (r->verbose)
        fprintf(stderr, "create_texture  %016llx %ux%u, %u levels, VkFormat %u, %zu bytes\n",
                (unsigned long long)h.id, d->width, d->height, d->level_count, d->vk_format, bytes);
    *gpu = r; /* the engine's texture object; any pointer (or NULL) */
    return KILN_OK;
}

static kiln_result create_mesh(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                               kiln_error *err)
{
    recorder *r = user;
    size_t bytes = 0;
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++)
        bytes += d->streams[s] ? d->stream_sizes[s] : 0;
    r->meshes++;
    r->mesh_bytes += bytes;
    if (r->verbose)
        fprintf(stderr, "create_mesh     %016llx %u vertices, %u triangles, %u LODs, %zu bytes\n",
                (unsigned long long)h.id, d->view->vertex_count, d->view->levels[0].index_count / 3,
                d->view->level_count, bytes);
    *gpu = r;
    return KILN_OK;
}

static kiln_result create_material(void *user, krt_handle h, const krt_material_data *d, void **gpu,
                                   kiln_error *err)
{
    recorder *r = user;
    r->materials++;
    if (r->verbose) { /* texture_gpu[s]: what create_texture returned, textures come first */
        int n = 0;
        for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) n += d->textures[s].id != 0;
        fprintf(stderr, "create_material %016llx \"%s\", %d textures\n", (unsigned long long)h.id,
                d->material->name, n);
    }
    *gpu = r;
    return KILN_OK;
}

/* A shader: an engine makes a VkShaderModule per variant it uses from words/word_count (host
 * order, 4-byte aligned: what vkCreateShaderModule takes) and lays out its descriptor sets and
 * push constants from the reflection, read through the view (kiln_shader_binding_at ...). */
static kiln_result create_shader(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                                 kiln_error *err)
{
    recorder *r = user;
    r->shaders++;
    if (r->verbose) {
        fprintf(stderr,
                "create_shader   %016llx entry \"%s\", %u variants:", (unsigned long long)h.id,
                d->view->entry, d->variant_count);
        for (uint32_t i = 0; i < d->variant_count; i++) {
            kiln_shader_variant_info v = kiln_shader_variant_at(d->view, i);
            fprintf(stderr, " %s (%zu words, %u bindings)", d->variants[i].name,
                    d->variants[i].word_count, v.binding_count);
        }
        fprintf(stderr, "\n");
    }
    *gpu = r;
    return KILN_OK;
}

/* A typed material: an engine builds a pipeline from the two variants' modules (the shaders'
 * objects, made first) and a descriptor set from the textures' objects, and uploads the
 * parameter block as it is (view->material.block, or its slot of krt_material_blocks). */
static kiln_result create_typed_material(void *user, krt_handle h, const krt_typed_material_data *d,
                                         void **gpu, kiln_error *err)
{
    recorder *r = user;
    r->materials++;
    if (r->verbose)
        fprintf(stderr,
                "create_typed_material %016llx variants \"%s\" + \"%s\", %u-byte block, %u "
                "textures\n",
                (unsigned long long)h.id, d->vertex_variant->name, d->fragment_variant->name,
                d->view->material.block_size, d->texture_count);
    *gpu = r;
    return KILN_OK;
}
static void destroy_typed_material(void *user, krt_handle h, void *gpu)
{
    ((recorder *)user)->materials--;
}

/* Hot reload (--watch): the engine would upload the new data into its object here. */
static kiln_result replace_texture(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                                   kiln_error *err)
{
    const char *name = name_of(user, h);
    if (name)
        printf("%s: reloaded (texture %ux%u, %u levels)\n", name, d->width, d->height,
               d->level_count);
    fflush(stdout);
    return KILN_OK;
}

static kiln_result replace_mesh(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                                kiln_error *err)
{
    const char *name = name_of(user, h);
    if (name) printf("%s: reloaded (mesh, %u vertices)\n", name, d->view->vertex_count);
    fflush(stdout);
    return KILN_OK;
}

static kiln_result replace_shader(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                                  kiln_error *err)
{
    const char *name = name_of(user, h);
    if (name) printf("%s: reloaded (shader, %u variants)\n", name, d->variant_count);
    fflush(stdout);
    return KILN_OK;
}

static void destroy_texture(void *user, krt_handle h, void *gpu) { ((recorder *)user)->textures--; }
static void destroy_mesh(void *user, krt_handle h, void *gpu) { ((recorder *)user)->meshes--; }
static void destroy_material(void *user, krt_handle h, void *gpu)
{
    ((recorder *)user)->materials--;
}
static void destroy_shader(void *user, krt_handle h, void *gpu) { ((recorder *)user)->shaders--; }

/* ---- mounting ------------------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A pack (what a game ships: mapped, its entries used in place) or a cache folder (what the
 * editor and the kiln command write). Mount several and later ones override earlier ones. */
static kiln_result mount(krt_context *ctx, const char *path, const char *platform, size_t *count,
                         kiln_error *err)
{
    if (ends_with(path, ".kpak")) return krt_mount_pack(ctx, path, count, err);
    /* a cache keeps records per platform: NULL mounts what `kiln import` without --platform made */
    return krt_mount_cache_platform(ctx, path, platform, count, err);
}

/* A cache mount skips what is damaged (a manifest that is not JSON, of another version, of
 * another entry; a record that cannot be read) and mounts the rest: say what it skipped. */
static bool print_skipped(void *user, const krt_skipped_info *s)
{
    (void)user;
    fprintf(stderr, "kiln-rt-example: skipped %s%s%s%s: %s: %s\n", s->file, s->asset[0] ? " (" : "",
            s->asset, s->asset[0] ? ")" : "", kiln_result_name(s->code), s->reason);
    return true;
}

/* ---- what one asset brought in --------------------------------------------------------------
 * Walks the asset and its dependencies through the getters, counting each distinct asset once
 * (two primitives sharing a material count it once). */
typedef struct totals {
    uint64_t seen[1024];
    size_t seen_count;
    unsigned meshes, textures, materials, clips, shaders;
    unsigned long long triangles, joints;
} totals;

static bool first_visit(totals *t, krt_handle h)
{
    if (h.id == 0) return false;
    for (size_t i = 0; i < t->seen_count; i++)
        if (t->seen[i] == h.id) return false;
    if (t->seen_count < sizeof t->seen / sizeof t->seen[0]) t->seen[t->seen_count++] = h.id;
    return true;
}

static void count_asset(krt_context *ctx, krt_handle h, totals *t)
{
    if (!first_visit(t, h)) return;
    kiln_error err;
    switch (krt_handle_type(h)) {
    case KRT_TYPE_TEXTURE:
        t->textures++;
        break;
    case KRT_TYPE_MATERIAL: {
        krt_material_data m;
        if (krt_get_material(ctx, h, &m, &err) != KILN_OK) return;
        t->materials++;
        for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) count_asset(ctx, m.textures[s], t);
        break;
    }
    case KRT_TYPE_MESH: {
        krt_mesh_data m;
        if (krt_get_mesh(ctx, h, &m, &err) != KILN_OK) return;
        t->meshes++;
        t->triangles += m.view->levels[0].index_count / 3; /* level 0: the full mesh */
        count_asset(ctx, m.material, t);
        break;
    }
    case KRT_TYPE_SKELETON: {
        const kiln_skeleton_view *s;
        if (krt_get_skeleton(ctx, h, &s, &err) == KILN_OK) t->joints += s->joint_count;
        break;
    }
    case KRT_TYPE_CLIP:
        t->clips++;
        break;
    case KRT_TYPE_SHADER:
        t->shaders++;
        break;
    case KRT_TYPE_TYPED_MATERIAL: { /* a .kmat: its two shaders and its textures */
        krt_typed_material_data m;
        if (krt_get_typed_material(ctx, h, &m, &err) != KILN_OK) return;
        t->materials++;
        count_asset(ctx, m.vertex, t);
        count_asset(ctx, m.fragment, t);
        for (uint32_t i = 0; i < m.texture_count; i++) count_asset(ctx, m.textures[i], t);
        break;
    }
    case KRT_TYPE_VGEO: { /* a mesh's cluster DAG: the mesh it draws from */
        krt_vgeo_data g;
        if (krt_get_vgeo(ctx, h, &g, &err) == KILN_OK) count_asset(ctx, g.mesh, t);
        break;
    }
    case KRT_TYPE_SCENE: {
        krt_scene_data s;
        if (krt_get_scene(ctx, h, &s, &err) != KILN_OK) return;
        for (uint32_t i = 0; i < s.view->primitive_count; i++) count_asset(ctx, s.primitives[i], t);
        for (uint32_t i = 0; i < s.skeleton_count; i++) count_asset(ctx, s.skeletons[i], t);
        for (uint32_t i = 0; i < s.view->clip_count; i++) count_asset(ctx, s.clips[i], t);
        break;
    }
    default:
        break;
    }
}

/* ---- main ---------------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr,
            "usage: kiln-rt-example [-v] [--no-verify] [--platform P] [--watch] MOUNT NAME...\n"
            "  MOUNT    a .kpak pack or a kiln cache folder (a project's .kiln/cache)\n"
            "  NAME     an asset as path#label, e.g. models/fox.glb#scene\n"
            "  --watch  apply hot reloads until SIGINT or SIGTERM\n");
    return 2;
}

/* --watch: poll the mounts for changed cooked data and apply the reloads, as a game does once
 * per frame, until SIGINT or SIGTERM. */
static void watch_reloads(krt_context *ctx)
{
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, &old); /* taken below with sigtimedwait: no handler needed */
    printf("watching for reloads\n");
    fflush(stdout);
    for (;;) {
        kiln_error err;
        if (krt_poll_changes(ctx, NULL, &err) != KILN_OK)
            fprintf(stderr, "kiln-rt-example: %s: %s\n", kiln_result_name(err.code), err.message);
        krt_update(ctx); /* replace callbacks run here */
        struct timespec frame = {0, 50 * 1000 * 1000};
        if (sigtimedwait(&stop, NULL, &frame) >= 0) break; /* a "frame" of 50 ms */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(int argc, char **argv)
{
    recorder rec = {0};
    krt_desc desc = {0};
    desc.struct_size = sizeof desc;
    bool watch = false;
    int a = 1;
    const char *platform = NULL;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (strcmp(argv[a], "-v") == 0) rec.verbose = true;
        else if (strcmp(argv[a], "--platform") == 0 && a + 1 < argc) platform = argv[++a];
        else if (strcmp(argv[a], "--no-verify") == 0) desc.no_verify = true;
        else if (strcmp(argv[a], "--watch") == 0) watch = true;
        else return usage();
    }
    if (argc - a < 2) return usage();
    const char *mount_path = argv[a++];
    char **names = argv + a;
    size_t name_count = (size_t)(argc - a);

    /* 1. A context: the built-in job pool (jobs all NULL) and our renderer. */
    desc.renderer = (krt_renderer){
        .create_texture = create_texture,
        .destroy_texture = destroy_texture,
        .create_mesh = create_mesh,
        .destroy_mesh = destroy_mesh,
        .create_material = create_material,
        .destroy_material = destroy_material,
        .user = &rec,
    };
    /* Shaders' callbacks are a member of their own, after the others (older programs pass a
     * struct_size that ends before it); their user pointer is renderer.user. */
    desc.renderer_shaders = (krt_renderer_shaders){
        .create_shader = create_shader,
        .destroy_shader = destroy_shader,
        .create_typed_material = create_typed_material,
        .destroy_typed_material = destroy_typed_material,
    };
    if (watch) {
        desc.renderer.replace_texture = replace_texture;
        desc.renderer.replace_mesh = replace_mesh;
        desc.renderer_shaders.replace_shader = replace_shader;
    }
    krt_context *ctx = NULL;
    kiln_error err;
    if (krt_create(&desc, &ctx, &err) != KILN_OK) {
        fprintf(stderr, "kiln-rt-example: %s: %s\n", kiln_result_name(err.code), err.message);
        return 2;
    }

    /* 2. Mount what we were given. */
    size_t artifacts = 0;
    if (mount(ctx, mount_path, platform, &artifacts, &err) != KILN_OK) {
        bool path = err.path[0] && !strstr(err.message, err.path); /* named once */
        fprintf(stderr, "kiln-rt-example: cannot mount %s: %s: %s%s%s%s\n", mount_path,
                kiln_result_name(err.code), err.message, path ? " (" : "", path ? err.path : "",
                path ? ")" : "");
        krt_destroy(ctx);
        return 2;
    }
    if (rec.verbose) fprintf(stderr, "mounted %s: %zu artifacts\n", mount_path, artifacts);
    krt_mount_skipped(ctx, print_skipped, NULL); /* the rest mounted; their assets fail */

    /* 3. Start every load: each returns a handle at once; jobs read, verify and decode on the
     * pool's threads and pull in dependencies (scene -> meshes -> materials -> textures). The
     * type comes from the mount, so any artifact name works here. */
    enum { MAX_NAMES = 64 };
    if (name_count > MAX_NAMES) {
        fprintf(stderr, "kiln-rt-example: at most %d names\n", MAX_NAMES);
        krt_destroy(ctx);
        return 2;
    }
    krt_handle handles[MAX_NAMES];
    kiln_error load_errors[MAX_NAMES];
    for (size_t i = 0; i < name_count; i++) {
        uint64_t id = 0;
        krt_type type = krt_lookup(ctx, names[i], &id) ? krt_lookup_id(ctx, id) : KRT_TYPE_NONE;
        handles[i] = krt_load(ctx, type, names[i], &load_errors[i]);
    }

    /* 4. Wait. A game calls krt_update(ctx) once per frame on its render thread instead; here
     * krt_finish does that until nothing is loading. Create callbacks run inside it. */
    krt_finish(ctx);

    /* 5. Report each asset. */
    int failed = 0;
    for (size_t i = 0; i < name_count; i++) {
        kiln_error e = load_errors[i];
        if (handles[i].id == 0 || krt_state_of(ctx, handles[i]) != KRT_STATE_READY) {
            if (handles[i].id != 0) krt_error(ctx, handles[i], &e);
            /* err.path names the file concerned when the message does not already */
            bool path = e.path[0] && !strstr(e.message, e.path);
            printf("%s: failed: %s: %s%s%s%s\n", names[i], kiln_result_name(e.code), e.message,
                   path ? " (" : "", path ? e.path : "", path ? ")" : "");
            failed++;
            continue;
        }
        totals t;
        memset(&t, 0, sizeof t);
        count_asset(ctx, handles[i], &t);
        printf("%s: ready (%u meshes, %llu triangles, %u textures, %u materials, %llu joints, %u "
               "clips",
               names[i], t.meshes, t.triangles, t.textures, t.materials, t.joints, t.clips);
        if (t.shaders) printf(", %u shaders", t.shaders); /* the line stays as it was without */
        printf(")\n");
    }

    /* With --watch: keep them, and apply hot reloads until stopped. */
    if (watch) {
        rec.names = names;
        rec.handles = handles;
        rec.name_count = name_count;
        fflush(stdout);
        watch_reloads(ctx);
        failed = 0;
    }

    /* 6. Release: one krt_release per load. At zero the asset's dependencies are released too and
     * the destroy callbacks run in the next krt_update. */
    for (size_t i = 0; i < name_count; i++)
        if (handles[i].id != 0) krt_release(ctx, handles[i], NULL);
    krt_finish(ctx);
    if (rec.verbose)
        fprintf(stderr,
                "renderer: %zu texture bytes, %zu mesh bytes created; live after release: "
                "%d textures, %d meshes, %d materials, %d shaders\n",
                rec.texture_bytes, rec.mesh_bytes, rec.textures, rec.meshes, rec.materials,
                rec.shaders);
    krt_destroy(ctx);
    return failed ? 1 : 0;
}
