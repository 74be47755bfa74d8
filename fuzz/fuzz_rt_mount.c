/* fuzz_rt_mount.c — libFuzzer target over libkiln_rt's mounted readers, through kiln_rt.h only:
 * the input becomes a one-entry kiln cache folder (a record, its manifest, the cooked files),
 * which is mounted; then every artifact the manifest lists (at most MAX_LOADS) is loaded by name
 * or id, waited for, checked and released. Any input must end in mount errors, failed loads or
 * ready assets: never a crash, a hang, a leak or a handle left loading.
 *
 * Input: [options byte] record SEP manifest SEP file0 SEP file1 ... (SEP below). The record is
 * written as assets/<GUID>.json, the manifest as objects/<KEY[0..2]>/<KEY>/manifest.json, file i
 * as objects/<KEY[0..2]>/<KEY>/<i> (the seeds' manifests name their files "0", "1", ...), so a
 * record whose key is KEY reaches the entry (the record's guid is its own: cooked files name
 * their dependencies by ids made from it; the file name GUID.json does not matter). Options: bit 0
 * verification off (a fuzzer cannot forge the SHA-256 and checksums, so most file mutations need
 * it), bit 1 mount twice (override), bit 2 load by asset id instead of name, bit 3 release each
 * handle at once, before it finished, bit 4 reload every ready asset and poll for changes (the
 * reload paths read the same bytes again), bit 5 keep released assets resident (budget) and load
 * everything a second time, bit 6 pack mode: the rest of the input is one .kpak file, mounted with
 * krt_mount_pack, and every entry its table lists (read with the public pack reader, structure
 * only) is loaded, bit 7 unmount after the loads: a second mount (bit 1) going leaves as many
 * artifacts listed, the last one going leaves none, and a third unmount is KILN_E_USAGE. A
 * damaged record or manifest is skipped (the mount succeeds): krt_mount_skipped's entries are
 * checked, and loads of the skipped entry's names end failed like any other. Seeds:
 * fuzz/corpus/rt_mount/, written from a real cook by tests/runtime_e2e (KILN_WRITE_FUZZ_SEEDS=1):
 * cache entries and packs of single sources; the smallest ones (up to 8 KiB) also with bit 7
 * (*_unmount*.seed). */
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiln/kiln_rt.h"

#define SEP       "\n@@kiln-part@@\n"
#define GUID      "0123456789abcdef0123456789abcdef"
#define KEY       "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define MAX_FILES 16
#define MAX_LOADS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *find_sep(const uint8_t *p, const uint8_t *end)
{
    size_t n = sizeof SEP - 1;
    for (; (size_t)(end - p) >= n; p++)
        if (p[0] == SEP[0] && memcmp(p, SEP, n) == 0) return p;
    return NULL;
}

static bool write_file(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return false;
    bool ok = size == 0 || write(fd, data, size) == (ssize_t)size;
    close(fd);
    return ok;
}

/* The names the manifest lists, read with jansson (independent of the runtime's own tokenizer):
 * "path#label" from the record's path, ids from the record's guid. */
typedef struct listed {
    char name[1100];
    uint64_t id;
} listed;

static size_t list_outputs(const char *record, size_t record_size, const char *manifest,
                           size_t manifest_size, listed *out)
{
    json_t *r = json_loadb(record, record_size, 0, NULL);
    json_t *m = json_loadb(manifest, manifest_size, 0, NULL);
    size_t n = 0;
    const char *path = json_string_value(json_object_get(r, "path"));
    const char *guid = json_string_value(json_object_get(r, "guid"));
    json_t *outs = json_object_get(m, "outputs");
    size_t i;
    json_t *o;
    json_array_foreach (outs, i, o) {
        const char *label = json_string_value(json_object_get(o, "label"));
        if (!label || !path || n == MAX_LOADS) continue;
        snprintf(out[n].name, sizeof out[n].name, "%s#%s", path, label);
        out[n].id = guid ? kiln_asset_id(guid, label) : 0;
        n++;
    }
    json_decref(r);
    json_decref(m);
    return n;
}

/* Loads every listed name, waits, checks each handle's state, error and getter, releases. */
static void load_and_check(krt_context *ctx, uint8_t options, const listed *names,
                           size_t name_count)
{
    krt_handle h[MAX_LOADS];
    kiln_error err;
    for (size_t i = 0; i < name_count; i++) {
        uint64_t id = names[i].id;
        krt_type type = KRT_TYPE_NONE;
        if (options & 4) {
            type = krt_lookup_id(ctx, id);
        } else if (krt_lookup(ctx, names[i].name, &id)) {
            type = krt_lookup_id(ctx, id);
        }
        /* unknown: an id must be refused; a name of a skipped entry takes its label's type and
         * ends failed, any other is refused */
        if (type == KRT_TYPE_NONE && (options & 4)) type = KRT_TYPE_TEXTURE;
        h[i] = (options & 4) ? krt_load_id(ctx, type, id, &err)
                             : krt_load(ctx, type, names[i].name, &err);
        if (h[i].id && (options & 8)) {
            if (krt_release(ctx, h[i], &err) != KILN_OK) abort();
            h[i].id = 0;
        }
    }
    krt_finish(ctx);
    if (options & 16) { /* reload what is ready, then poll: the same bytes go through again */
        for (size_t i = 0; i < name_count; i++)
            if (h[i].id && krt_state_of(ctx, h[i]) == KRT_STATE_READY &&
                krt_reload(ctx, h[i], &err) != KILN_OK)
                abort();
        size_t reloads = 0;
        (void)krt_poll_changes(ctx, &reloads, &err);
        krt_finish(ctx);
    }
    for (size_t i = 0; i < name_count; i++) {
        if (!h[i].id) continue;
        krt_state st = krt_state_of(ctx, h[i]);
        kiln_error e;
        kiln_result code = krt_error(ctx, h[i], &e);
        if (getenv("KILN_FUZZ_VERBOSE")) /* to review the seeds: what each load ended as */
            fprintf(stderr, "%s: %s %s\n", names[i].name,
                    st == KRT_STATE_READY ? "ready" : "failed", e.message);
        if (st == KRT_STATE_FAILED) {
            if (code == KILN_OK || !e.message[0]) abort();
        } else if (st == KRT_STATE_READY) {
            if (code != KILN_OK) abort();
            /* the getter of its type agrees */
            union {
                krt_texture_data t;
                krt_mesh_data m;
                krt_material_data mat;
                krt_scene_data s;
                krt_shader_data sh;
                krt_vgeo_data vg;
            } u;
            const kiln_skeleton_view *sk;
            const kiln_clip_view *cl;
            kiln_result g = KILN_OK;
            switch (krt_handle_type(h[i])) {
            case KRT_TYPE_TEXTURE:
                g = krt_get_texture(ctx, h[i], &u.t, &e);
                break;
            case KRT_TYPE_MESH:
                g = krt_get_mesh(ctx, h[i], &u.m, &e);
                break;
            case KRT_TYPE_MATERIAL:
                g = krt_get_material(ctx, h[i], &u.mat, &e);
                break;
            case KRT_TYPE_SKELETON:
                g = krt_get_skeleton(ctx, h[i], &sk, &e);
                break;
            case KRT_TYPE_CLIP:
                g = krt_get_clip(ctx, h[i], &cl, &e);
                break;
            case KRT_TYPE_SCENE:
                g = krt_get_scene(ctx, h[i], &u.s, &e);
                break;
            case KRT_TYPE_SHADER:
                g = krt_get_shader(ctx, h[i], &u.sh, &e);
                break;
            case KRT_TYPE_VGEO:
                g = krt_get_vgeo(ctx, h[i], &u.vg, &e);
                if (g == KILN_OK && (!u.vg.view || krt_state_of(ctx, u.vg.mesh) != KRT_STATE_READY))
                    abort();
                break;
            default:
                abort();
            }
            if (g != KILN_OK) abort();
        } else {
            abort(); /* krt_finish left it loading, or the handle went stale */
        }
        if (krt_release(ctx, h[i], &err) != KILN_OK) abort();
    }
    krt_finish(ctx);
}

static bool count_one(void *user, const krt_artifact_info *info)
{
    (void)user;
    if (!info->name || !info->name[0] || !info->file || info->type <= KRT_TYPE_NONE ||
        info->type >= KRT_TYPE_COUNT)
        abort();
    return true;
}

/* Options bit 7: the mounts go again, one at a time (the first krt_unmount of two rebuilds the
 * table from the other, as a poll does). */
static void unmount_all(krt_context *ctx, const char *path, uint8_t options)
{
    kiln_error err;
    size_t before = krt_mount_list(ctx, count_one, NULL);
    if (options & 2) {
        if (krt_unmount(ctx, path, &err) != KILN_OK) abort();
        if (krt_mount_list(ctx, count_one, NULL) != before) abort();
    }
    if (krt_unmount(ctx, path, &err) != KILN_OK) abort();
    if (krt_mount_list(ctx, count_one, NULL) != 0) abort();
    if (krt_unmount(ctx, path, &err) != KILN_E_USAGE) abort();
    if (krt_mount_skipped(ctx, NULL, NULL) != 0) abort(); /* they went with their mounts */
}

/* A damaged record or manifest is skipped, not a mount error: each skip names a file of the
 * mounted folder, an asset path only for a manifest, a code a skip can have and a reason that
 * does not repeat the file. */
static bool check_skip(void *user, const krt_skipped_info *info)
{
    const char *root = user;
    if (!info->mount || strcmp(info->mount, root) != 0 || !info->file ||
        strncmp(info->file, root, strlen(root)) != 0 || !info->asset || !info->reason ||
        !info->reason[0] || strstr(info->reason, info->file))
        abort();
    bool manifest = strstr(info->file, "/manifest.json") != NULL;
    if (manifest != (info->asset[0] != 0)) abort();
    if (info->code != KILN_E_CACHE_CORRUPT && info->code != KILN_E_ASSET_IO &&
        !(manifest && info->code == KILN_E_FORMAT_VERSION))
        abort();
    if (getenv("KILN_FUZZ_VERBOSE"))
        fprintf(stderr, "skipped %s: %s\n", info->file + strlen(root), info->reason);
    return true;
}

static kiln_result mount(krt_context *ctx, const char *path, bool pack, kiln_error *err)
{
    size_t count = 0;
    return pack ? krt_mount_pack(ctx, path, &count, err) : krt_mount_cache(ctx, path, &count, err);
}

static void run(const char *path, bool pack, uint8_t options, const listed *names,
                size_t name_count)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    d.queue_capacity = 4;       /* some jobs run inline */
    d.max_file_size = 4u << 20; /* inputs are far smaller */
    d.no_verify = options & 1;
    if (options & 32) d.budget_bytes = UINT64_MAX;
    krt_context *ctx = NULL;
    kiln_error err;
    if (krt_create(&d, &ctx, &err) != KILN_OK) abort();
    kiln_result r = mount(ctx, path, pack, &err);
    if (r == KILN_OK && (options & 2)) r = mount(ctx, path, pack, &err);
    if (r != KILN_OK) {
        if (getenv("KILN_FUZZ_VERBOSE")) fprintf(stderr, "mount: %s\n", err.message);
        if (r != KILN_E_CACHE_CORRUPT && r != KILN_E_LIMIT && r != KILN_E_ASSET_IO &&
            !(pack && (r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION)))
            abort();
        if (!err.message[0]) abort();
        krt_destroy(ctx);
        return;
    }
    /* one record and one entry: at most one skip each, the same file not listed twice even
     * when mounted twice (a later mount's replaces it) */
    if (krt_mount_skipped(ctx, pack ? NULL : check_skip, (void *)path) > 2 ||
        (pack && krt_mount_skipped(ctx, NULL, NULL) != 0))
        abort();
    load_and_check(ctx, options, names, name_count);
    if (options & 32) load_and_check(ctx, options, names, name_count); /* from what stayed */
    if (krt_mount_skipped(ctx, pack ? NULL : check_skip, (void *)path) > 2) abort();
    if (options & 128) unmount_all(ctx, path, options);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(ctx, &st);
    /* Nothing is referenced any more; with a budget, released assets may stay resident. */
    if (!(options & 32) && st.live_assets != 0) abort();
    krt_destroy(ctx);
}

/* The entries a pack's table lists (structure checks only, as the runtime without
 * verification), or none when the table is not a pack's. */
static size_t list_pack(const uint8_t *data, size_t size, listed *out)
{
    kiln_pack p;
    kiln_error err;
    if (kiln_pack_open_memory(data, size, KILN_PACK_SKIP_CHECKSUM, &p, &err) != KILN_OK) return 0;
    size_t n = 0;
    for (uint32_t i = 0; i < p.entry_count && n < MAX_LOADS; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(&p, i);
        snprintf(out[n].name, sizeof out[n].name, "%.*s", (int)e.name_size, e.name);
        out[n++].id = e.asset_id;
    }
    return n;
}

/* Pack mode: the input is one .kpak file in a fresh folder. */
static void run_pack(const uint8_t *data, size_t size, uint8_t options)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    char root[256], path[300];
    snprintf(root, sizeof root, "%s/kiln-fuzz-rt-XXXXXX", base);
    if (!mkdtemp(root)) return;
    snprintf(path, sizeof path, "%s/in.kpak", root);
    listed *names = calloc(MAX_LOADS, sizeof *names);
    if (names && write_file(path, data, size))
        run(path, true, options, names, list_pack(data, size, names));
    free(names);
    unlink(path);
    rmdir(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t options = data[0];
    if (options & 64) {
        run_pack(data + 1, size - 1, options);
        return 0;
    }
    const uint8_t *p = data + 1, *end = data + size;
    const uint8_t *part[2 + MAX_FILES];
    size_t part_size[2 + MAX_FILES], parts = 0;
    while (parts < 2 + MAX_FILES) {
        const uint8_t *s = find_sep(p, end);
        part[parts] = p;
        part_size[parts++] = (s ? s : end) - p;
        if (!s) break;
        p = s + sizeof SEP - 1;
    }
    if (parts < 2) return 0;

    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    char root[256], assets[300], objects[300], kk[320], entry[400], path[480];
    snprintf(root, sizeof root, "%s/kiln-fuzz-rt-XXXXXX", base);
    if (!mkdtemp(root)) return 0;
    snprintf(assets, sizeof assets, "%s/assets", root);
    snprintf(objects, sizeof objects, "%s/objects", root);
    snprintf(kk, sizeof kk, "%s/%.2s", objects, KEY);
    snprintf(entry, sizeof entry, "%s/%s", kk, KEY);
    bool ok = mkdir(assets, 0755) == 0 && mkdir(objects, 0755) == 0 && mkdir(kk, 0755) == 0 &&
              mkdir(entry, 0755) == 0;
    snprintf(path, sizeof path, "%s/%s.json", assets, GUID);
    ok = ok && write_file(path, part[0], part_size[0]);
    snprintf(path, sizeof path, "%s/manifest.json", entry);
    ok = ok && write_file(path, part[1], part_size[1]);
    for (size_t i = 2; i < parts && ok; i++) {
        snprintf(path, sizeof path, "%s/%zu", entry, i - 2);
        ok = write_file(path, part[i], part_size[i]);
    }
    if (ok) {
        listed *names = calloc(MAX_LOADS, sizeof *names);
        if (names) {
            size_t n = list_outputs((const char *)part[0], part_size[0], (const char *)part[1],
                                    part_size[1], names);
            run(root, false, options, names, n);
            free(names);
        }
    }
    /* Remove exactly what was written. */
    for (size_t i = 2; i < parts; i++) {
        snprintf(path, sizeof path, "%s/%zu", entry, i - 2);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/manifest.json", entry);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s.json", assets, GUID);
    unlink(path);
    rmdir(entry);
    rmdir(kk);
    rmdir(objects);
    rmdir(assets);
    rmdir(root);
    return 0;
}
