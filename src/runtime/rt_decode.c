/* rt_decode.c — what a load job does with a file: read it, verify it against the manifest
 * (size; SHA-256 for KTX2; the container checksum for the rest), validate it with the format
 * reader and decode it (KTX2 levels without supercompression, BC/ASTC levels transcoded to
 * RGBA8 when the renderer cannot sample them, mesh streams unpacked). */
#include <stddef.h>
#include <string.h>

#include "codec/vk_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"
#include "runtime/rt_asset.h"

static kiln_result add_dep(krt_asset *a, size_t *cap, uint64_t id, uint32_t type,
                           const kiln_allocator *al, kiln_error *err)
{
    if (a->dep_count == *cap) {
        size_t n = *cap ? *cap * 2 : 8;
        if (n > (1u << 24)) return kiln_error_set(err, KILN_E_LIMIT, "too many dependencies");
        uint64_t *ids = kiln_alloc(al, n * sizeof *ids);
        uint32_t *types = kiln_alloc(al, n * sizeof *types);
        if (!ids || !types) {
            kiln_free(al, ids, n * sizeof *ids);
            kiln_free(al, types, n * sizeof *types);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for dependencies");
        }
        if (a->dep_count) {
            memcpy(ids, a->dep_ids, a->dep_count * sizeof *ids);
            memcpy(types, a->dep_types, a->dep_count * sizeof *types);
        }
        kiln_free(al, a->dep_ids, *cap * sizeof *ids);
        kiln_free(al, a->dep_types, *cap * sizeof *types);
        a->dep_ids = ids;
        a->dep_types = types;
        *cap = n;
        a->dep_cap = n;
    }
    a->dep_ids[a->dep_count] = id;
    a->dep_types[a->dep_count++] = type;
    return KILN_OK;
}

/* One block for all of a texture's decoded levels: one allocation and, when large, huge pages
 * for the whole chain rather than for level 0 alone. */
static kiln_result decode_texture(krt_asset *a, const kiln_allocator *al, kiln_error *err)
{
    kiln_result r = kiln_ktx2_read(a->file, a->file_size, &a->ktx, err);
    if (r) return r;
    krt_texture_data *t = &a->texture;
    t->vk_format = a->ktx.vk_format;
    t->width = a->ktx.width;
    t->height = a->ktx.height;
    t->level_count = a->ktx.level_count;
    t->srgb = a->ktx.srgb;
    t->block_width = a->ktx.block_width;
    t->block_height = a->ktx.block_height;
    t->block_size = a->ktx.block_size;
    uint32_t levels =
        a->ktx.level_count < KILN_KTX2_MAX_LEVELS ? a->ktx.level_count : KILN_KTX2_MAX_LEVELS;
    for (uint32_t l = 0; l < levels; l++)
        t->levels[l] = a->ktx.levels[l];
    if (a->ktx.supercompression == KILN_KTX2_SUPERCOMPRESSION_NONE) return KILN_OK;
    size_t total = 0;
    for (uint32_t l = 0; l < levels; l++)
        if (!kiln_size_add(total, a->ktx.levels[l].uncompressed_size, &total))
            return kiln_error_set(err, KILN_E_LIMIT, "the levels are too large together");
    a->level_block = kiln_alloc_large(al, total ? total : 1);
    if (!a->level_block)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for %zu bytes of levels",
                              total);
    a->level_block_size = total ? total : 1;
    a->resident += a->level_block_size;
    size_t at = 0;
    for (uint32_t l = 0; l < levels; l++) {
        size_t n = a->ktx.levels[l].uncompressed_size;
        if ((r = kiln_ktx2_level_copy(&a->ktx, l, a->level_block + at, n, err))) return r;
        t->levels[l].data = a->level_block + at;
        t->levels[l].size = n;
        at += n;
    }
    return KILN_OK;
}

static bool is_block_format(uint32_t f)
{
    const kiln_vk_format_info *info = kiln_vk_format_find(f);
    return info && (info->block_width > 1 || info->block_height > 1);
}

/* The renderer cannot sample this BC/ASTC texture: every level to RGBA8 (sRGB stays sRGB), on
 * the job's thread. The block data is dropped once its level is decoded. */
static kiln_result transcode_texture(krt_asset *a, const kiln_allocator *al, kiln_error *err)
{
    krt_texture_data *t = &a->texture;
    uint32_t to = kiln_transcode_rgba8_format(t->vk_format);
    if (to == KILN_VK_FORMAT_UNDEFINED)
        return kiln_error_set(
            err, KILN_E_IMPORT_UNSUPPORTED,
            "the renderer cannot sample vkFormat %u and this build cannot transcode it",
            t->vk_format);
    uint32_t levels = t->level_count < KILN_KTX2_MAX_LEVELS ? t->level_count : KILN_KTX2_MAX_LEVELS;
    size_t sizes[KILN_KTX2_MAX_LEVELS], total = 0;
    for (uint32_t l = 0; l < levels; l++) {
        const kiln_ktx2_level *lv = &t->levels[l];
        if (!kiln_size_mul((size_t)lv->width, lv->height, &sizes[l]) ||
            !kiln_size_mul(sizes[l], 4, &sizes[l]) || !kiln_size_add(total, sizes[l], &total))
            return kiln_error_set(err, KILN_E_LIMIT, "level %u is too large to transcode", l);
    }
    a->transcode_block = kiln_alloc_large(al, total ? total : 1);
    if (!a->transcode_block)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                              "out of memory transcoding %zu bytes of levels", total);
    a->transcode_block_size = total ? total : 1;
    a->resident += a->transcode_block_size;
    size_t at = 0;
    for (uint32_t l = 0; l < levels; l++) {
        kiln_ktx2_level *lv = &t->levels[l];
        kiln_result r = kiln_transcode_rgba8(t->vk_format, lv->data, lv->size, lv->width,
                                             lv->height, a->transcode_block + at, sizes[l], err);
        if (r) return r;
        lv->data = a->transcode_block + at;
        lv->size = lv->uncompressed_size = sizes[l];
        at += sizes[l];
    }
    if (a->level_block) { /* the unpacked blocks are not needed any more */
        kiln_free_large(al, a->level_block, a->level_block_size);
        a->resident -= a->level_block_size;
        a->level_block = NULL;
        a->level_block_size = 0;
    }
    t->vk_format = to;
    t->block_width = t->block_height = 1;
    t->block_size = 4;
    a->transcoded = true;
    return KILN_OK;
}

/* Streams stored raw are used in place; the others (meshopt-compressed, or stored in a size
 * that is not count x stride) are unpacked into one block for the mesh, each at a 16-byte
 * aligned offset. */
static kiln_result decode_mesh(krt_asset *a, uint32_t flags, size_t *cap, const kiln_allocator *al,
                               kiln_error *err)
{
    kiln_result r = kiln_mesh_read(a->file, a->file_size, flags, &a->mesh_view, err);
    if (r) return r;
    a->mesh.view = &a->mesh_view;
    size_t sizes[KILN_MESH_STREAM_COUNT] = {0}, offsets[KILN_MESH_STREAM_COUNT] = {0}, total = 0;
    bool unpack[KILN_MESH_STREAM_COUNT] = {false};
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        const kiln_mesh_stream *st = &a->mesh_view.streams[s];
        if (st->format == KILN_MESH_FORMAT_NONE) continue;
        if (!kiln_size_mul((size_t)st->count, st->stride, &sizes[s]) || st->count > SIZE_MAX)
            return kiln_error_set(err, KILN_E_LIMIT, "stream %d is too large", s);
        if (sizes[s] == 0) continue;
        a->mesh.stream_sizes[s] = sizes[s];
        if (!(a->mesh_view.flags & KILN_MESH_COMPRESSED) && st->size == sizes[s]) {
            a->mesh.streams[s] = st->data; /* used in place */
            continue;
        }
        unpack[s] = true;
        offsets[s] = (total + 15) & ~(size_t)15;
        if (offsets[s] < total || !kiln_size_add(offsets[s], sizes[s], &total))
            return kiln_error_set(err, KILN_E_LIMIT, "the streams are too large together");
    }
    if (total) {
        a->stream_block = kiln_alloc_large(al, total);
        if (!a->stream_block)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                  "out of memory for %zu bytes of streams", total);
        a->stream_block_size = total;
        a->resident += total;
    }
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        if (!unpack[s]) continue;
        uint8_t *dst = a->stream_block + offsets[s];
        if ((r = kiln_mesh_unpack(&a->mesh_view, (kiln_mesh_stream_id)s, dst, sizes[s], err)))
            return r;
        a->mesh.streams[s] = dst;
    }
    if (a->mesh_view.material)
        return add_dep(a, cap, a->mesh_view.material, KRT_TYPE_MATERIAL, al, err);
    return KILN_OK;
}

static kiln_result decode_scene(krt_asset *a, uint32_t flags, size_t *cap, const kiln_allocator *al,
                                kiln_error *err)
{
    kiln_result r = kiln_cooked_scene_read(a->file, a->file_size, flags, &a->scene_view, err);
    if (r) return r;
    kiln_cooked_scene_view *v = &a->scene_view;
    for (uint32_t i = 0; i < v->primitive_count && !r; i++)
        r = add_dep(a, cap, kiln_cooked_scene_primitive(v, i), KRT_TYPE_MESH, al, err);
    for (uint32_t i = 0; i < v->clip_count && !r; i++)
        r = add_dep(a, cap, kiln_cooked_scene_clip(v, i), KRT_TYPE_CLIP, al, err);
    size_t first_skel = a->dep_count;
    for (uint32_t i = 0; i < v->node_count && !r; i++) {
        uint64_t s = kiln_cooked_scene_node(v, i).skeleton;
        if (!s) continue;
        bool seen = false;
        for (size_t k = first_skel; k < a->dep_count && !seen; k++)
            seen = a->dep_ids[k] == s;
        if (!seen) r = add_dep(a, cap, s, KRT_TYPE_SKELETON, al, err);
    }
    a->scene.view = v;
    a->scene.skeleton_count = (uint32_t)(a->dep_count - first_skel);
    return r;
}

/* An entry of a mounted pack: raw ones in place (the mapping), compressed ones decompressed
 * here; kiln_pack_entry_view/_read check the entry's XXH3-64 either way. */
static kiln_result read_pack_entry(krt_asset *a, const krt_source *src, uint64_t max_file_size,
                                   const kiln_allocator *al, kiln_error *err)
{
    kiln_pack_entry e = kiln_pack_entry_at(src->pack, src->entry);
    if (e.size > max_file_size)
        return kiln_error_set(err, KILN_E_LIMIT, "%s: %s is %zu bytes, above max_file_size",
                              src->path, e.name ? e.name : "entry", e.size);
    if (e.compression == KILN_PACK_RAW) {
        const uint8_t *data;
        kiln_result r = kiln_pack_entry_view(src->pack, src->entry, &data, err);
        if (r) return r;
        a->file = (uint8_t *)(uintptr_t)data;
        a->file_size = e.size;
        a->file_borrowed = true;
        return KILN_OK;
    }
    a->file = kiln_alloc_large(al, e.size + 1);
    if (!a->file) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for %s", e.name);
    a->file_size = e.size;
    a->resident += e.size;
    return kiln_pack_entry_read(src->pack, src->entry, a->file, e.size, err);
}

/* Files below this size are read into memory; larger ones are mapped. Setting up, touching and
 * tearing down a mapping costs ~13 us however small the file, on this project's VMs, where a
 * read of 16 KiB into reused heap memory costs ~6 us; a larger file is better mapped (no copy,
 * and no fresh memory to fault in). Materials, skeletons, clips, scenes and small meshes are
 * read. */
#define KRT_READ_BELOW ((uint64_t)16 << 10)
_Static_assert(KRT_READ_BELOW < KILN_LARGE_BLOCK, "a read file must stay a kiln_alloc block");

/* A loose cache file: read (small) or mapped, never rewritten in place — kiln publishes by
 * rename — so a mapping stays valid. Its size is checked against the manifest by the caller. */
static kiln_result read_loose_file(krt_asset *a, const krt_source *src, uint64_t max_file_size,
                                   const kiln_allocator *al, kiln_error *err)
{
    const char *path = src->path;
    if (src->size < KRT_READ_BELOW) {
        uint8_t *data;
        size_t n;
        kiln_result r = kiln_file_read(path, (size_t)src->size, al, &data, &n, err);
        if (r == KILN_E_LIMIT) {
            kiln_error_set(err, KILN_E_CACHE_CORRUPT,
                           "%s is larger than the %llu bytes its manifest says", path,
                           (unsigned long long)src->size);
            kiln_error_at_path(err, path);
            return KILN_E_CACHE_CORRUPT;
        }
        if (r) return r;
        /* freed by krt_asset_free_data with kiln_free_large(file_size + 1): below
         * KILN_LARGE_BLOCK that is kiln_free, as kiln_file_read allocated it */
        a->file = data;
        a->file_size = n;
        a->resident += n;
        return KILN_OK;
    }
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(
        path, max_file_size > SIZE_MAX - 1 ? SIZE_MAX - 1 : (size_t)max_file_size, &m, err);
    if (r) return r;
    a->file = (uint8_t *)(uintptr_t)m.data;
    a->file_size = m.size;
    a->file_mapped = m.mapping != NULL;
    a->file_borrowed = m.mapping == NULL; /* an empty file maps to a static "" */
    a->resident += a->file_size;
    return KILN_OK;
}

/* A KTX2 file has no checksum of its own: the manifest's digest is the check (a pack's entries
 * carry their own XXH3-64, checked as they are read). XXH3-128 where the manifest has it (memory
 * speed), else SHA-256 (kiln's own, SHA-NI when present: ~1.3 GB/s). */
static bool file_matches(const krt_asset *a, const krt_source *src)
{
    if (src->has_xxh3) {
        uint8_t x[16];
        kiln_xxh3_128(a->file, a->file_size, x);
        return memcmp(x, src->xxh3_128, 16) == 0;
    }
    uint8_t d[32];
    kiln_sha256_bytes(a->file, a->file_size, d, NULL);
    return memcmp(d, src->sha256, 32) == 0;
}

kiln_result krt_asset_decode(krt_asset *a, const krt_source *src, bool verify,
                             uint64_t max_file_size, const krt_renderer *rd,
                             const kiln_allocator *al, kiln_error *err)
{
    const char *path = src->path;
    kiln_result r;
    if (src->pack) {
        r = read_pack_entry(a, src, max_file_size, al, err);
        if (r) {
            if (err && !err->path[0]) kiln_error_at_path(err, path);
            return r;
        }
    } else {
        r = read_loose_file(a, src, max_file_size, al, err);
        if (r) return r;
        if (a->file_size != src->size) {
            kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s is %zu bytes, the manifest says %llu",
                           path, a->file_size, (unsigned long long)src->size);
            kiln_error_at_path(err, path);
            return KILN_E_CACHE_CORRUPT;
        }
    }
    /* A pack entry's bytes were checked against its own XXH3-64 as they were read: the
     * container's checksum over the same bytes would be a second pass for nothing. */
    uint32_t flags = verify && !src->pack ? 0 : KILN_CONTAINER_SKIP_CHECKSUM;
    size_t cap = 0;
    switch (a->type) {
    case KRT_TYPE_TEXTURE:
        if (verify && !src->pack && !file_matches(a, src)) {
            kiln_error_set(err, KILN_E_CACHE_CORRUPT, "%s does not match the %s of its manifest",
                           path, src->has_xxh3 ? "XXH3-128" : "SHA-256");
            kiln_error_at_path(err, path);
            return KILN_E_CACHE_CORRUPT;
        }
        r = decode_texture(a, al, err);
        if (!r && rd->supports_format && is_block_format(a->texture.vk_format) &&
            !rd->supports_format(rd->user, a->texture.vk_format))
            r = transcode_texture(a, al, err);
        break;
    case KRT_TYPE_MESH:
        r = decode_mesh(a, flags, &cap, al, err);
        break;
    case KRT_TYPE_MATERIAL:
        r = kiln_material_read(a->file, a->file_size, flags, &a->material_view, err);
        for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT && !r; s++)
            if (a->material_view.material.textures[s].image)
                r = add_dep(a, &cap, a->material_view.material.textures[s].image, KRT_TYPE_TEXTURE,
                            al, err);
        a->material.material = &a->material_view.material;
        break;
    case KRT_TYPE_SKELETON:
        r = kiln_skeleton_read(a->file, a->file_size, flags, &a->skeleton, err);
        break;
    case KRT_TYPE_CLIP:
        r = kiln_clip_read(a->file, a->file_size, flags, &a->clip, err);
        break;
    case KRT_TYPE_SCENE:
        r = decode_scene(a, flags, &cap, al, err);
        break;
    default:
        r = kiln_error_set(err, KILN_E_INTERNAL, "asset of unknown type %u", a->type);
    }
    if (r && err && !err->path[0]) kiln_error_at_path(err, path);
    if (r == KILN_OK && a->dep_count) {
        a->deps = kiln_calloc(al, a->dep_count, sizeof *a->deps);
        if (!a->deps)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for dependencies");
    }
    a->dep_cap = cap;
    return r;
}

void krt_asset_link_deps(krt_asset *a)
{
    size_t k = 0;
    switch (a->type) {
    case KRT_TYPE_MESH:
        if (a->dep_count) a->mesh.material = a->deps[0];
        break;
    case KRT_TYPE_MATERIAL:
        for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++)
            if (a->material_view.material.textures[s].image && k < a->dep_count)
                a->material.textures[s] = a->deps[k++];
        break;
    case KRT_TYPE_SCENE:
        a->scene.primitives = a->deps;
        a->scene.clips = a->deps + a->scene_view.primitive_count;
        a->scene.skeletons = a->deps + a->scene_view.primitive_count + a->scene_view.clip_count;
        break;
    default:
        break;
    }
}

void krt_asset_free_data(krt_asset *a, const kiln_allocator *al)
{
    kiln_free_large(al, a->level_block, a->level_block_size);
    kiln_free_large(al, a->stream_block, a->stream_block_size);
    kiln_free_large(al, a->transcode_block, a->transcode_block_size);
    if (a->file && a->file_mapped) {
        kiln_mapped_file m = {a->file, a->file_size, a->file}; /* as kiln_file_map gave it */
        kiln_file_unmap(&m);
    } else if (a->file && !a->file_borrowed) {
        kiln_free_large(al, a->file, a->file_size + 1);
    }
    kiln_free(al, a->dep_ids, a->dep_cap * sizeof *a->dep_ids);
    kiln_free(al, a->dep_types, a->dep_cap * sizeof *a->dep_types);
    kiln_free(al, a->deps, a->dep_count * sizeof *a->deps);
    /* keep identity and bookkeeping; clear what was decoded */
    size_t off = offsetof(krt_asset, file);
    memset((uint8_t *)a + off, 0, sizeof *a - off);
}

/* The views hold pointers into the file (which moves with the data) except these three, which
 * point into the asset record itself. */
static void fix_self_pointers(krt_asset *a)
{
    if (a->mesh.view) a->mesh.view = &a->mesh_view;
    if (a->material.material) a->material.material = &a->material_view.material;
    if (a->scene.view) a->scene.view = &a->scene_view;
}

void krt_asset_swap_data(krt_asset *a, krt_asset *b)
{
    size_t off = offsetof(krt_asset, file), n = sizeof *a - off;
    uint8_t tmp[sizeof *a];
    memcpy(tmp, (uint8_t *)a + off, n);
    memcpy((uint8_t *)a + off, (uint8_t *)b + off, n);
    memcpy((uint8_t *)b + off, tmp, n);
    fix_self_pointers(a);
    fix_self_pointers(b);
}
