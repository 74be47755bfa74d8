/* thumbnail_texture.c — `kiln thumbnail` for a texture: one mip level fitted into --size, drawn
 * by kv (tools/view/kv_texture_view.c) over a checkerboard and read back. The texture on the GPU
 * is the one libkiln_rt uploaded through kv's create_texture (an artifact of the project: every
 * level, formats the device cannot sample transcoded on the CPU by libkiln_rt); a KTX2 file
 * outside a project is uploaded here through the same callback, transcoded with the same public
 * function (kiln_transcode_rgba8) when the device cannot sample its format. How a texel becomes
 * a colour follows the cooked format (kv_view_mode_for): docs/rendering.md "kiln thumbnail". */
#ifdef KILN_HAVE_VIEW
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"
#include "thumbnail.h"

/* "bc7", "bc7 (linear)" (the linear one of a format with an sRGB variant), "rgba16f", "RG16F";
 * into buf. */
static const char *format_name(uint32_t vk_format, char *buf, size_t cap)
{
    bool srgb = false, has_srgb = false;
    const char *name = kiln_vk_format_label(vk_format, &srgb, &has_srgb);
    if (!name) snprintf(buf, cap, "vkFormat %u", vk_format);
    else snprintf(buf, cap, "%s%s", name, has_srgb && !srgb ? " (linear)" : "");
    return buf;
}

/* The whole file, or NULL with err filled (cooked textures are at most a few hundred MiB). */
static uint8_t *read_all(const char *path, size_t *size, kiln_error *err)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    uint8_t *b = n >= 0 && f && fseek(f, 0, SEEK_SET) == 0 ? malloc(n ? (size_t)n : 1) : NULL;
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        if (f) fclose(f);
        kiln_thumb_error(err, KILN_E_ASSET_IO, "cannot read %.200s", path);
        snprintf(err->path, sizeof err->path, "%s", path);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return b;
}

/* The format a Basis Universal texture reaches the device in: the first of its targets the
 * device samples (RGBA8 when none), as libkiln_rt chooses with kv's supports_format. */
static bool device_samples(void *kv, uint32_t vk_format)
{
    return kv_supports_format(kv, vk_format);
}

static uint32_t basis_target(const kiln_thumb_job *job, const kiln_ktx2_info *info)
{
    return kiln_basis_pick_target(info, device_samples, job->kv);
}

/* A Basis Universal file outside a project: every level transcoded to basis_target. */
static kiln_result basis_texture_data(const kiln_thumb_job *job, const kiln_ktx2_info *info,
                                      krt_texture_data *d, uint8_t **block, kiln_error *err)
{
    uint32_t to = basis_target(job, info), bw = 0, bh = 0, bytes = 0;
    if (!kiln_vk_format_block(to, &bw, &bh, &bytes))
        return kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: no target", job->name);
    size_t offsets[KILN_KTX2_MAX_LEVELS], sizes[KILN_KTX2_MAX_LEVELS], total = 0;
    for (uint32_t l = 0; l < info->level_count; l++) {
        offsets[l] = total;
        sizes[l] = kiln_basis_level_size(info, l, to);
        total += (sizes[l] + 15) & ~(size_t)15;
    }
    uint8_t *b = malloc(total ? total : 1);
    if (!b) return kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_basis *basis = NULL;
    kiln_result r = kiln_basis_open(info, NULL, &basis, err);
    for (uint32_t l = 0; l < info->level_count && !r; l++) {
        r = kiln_basis_transcode(basis, l, to, b + offsets[l], sizes[l], err);
        d->levels[l] = info->levels[l];
        d->levels[l].data = b + offsets[l];
        d->levels[l].size = d->levels[l].uncompressed_size = sizes[l];
        d->levels[l].image_size = sizes[l] / kiln_ktx2_level_images(info, l);
    }
    kiln_basis_close(basis);
    if (r) {
        free(b);
        return r;
    }
    d->vk_format = to;
    d->width = info->width;
    d->height = info->height;
    d->level_count = info->level_count;
    d->srgb = info->srgb;
    d->block_width = bw;
    d->block_height = bh;
    d->block_size = bytes;
    d->shape = info->shape;
    d->face_count = info->face_count;
    d->layer_count = info->layer_count;
    d->depth = info->depth;
    *block = b;
    return KILN_OK;
}

/* A KTX2 file outside a project: its levels as create_texture takes them (supercompression
 * undone; transcoded to RGBA8, or RGBA16F for HDR formats, when the device cannot sample the
 * format, as libkiln_rt does).
 * *block holds every level's bytes; free() it after the upload. */
static kiln_result texture_data(const kiln_thumb_job *job, const kiln_ktx2_info *info,
                                krt_texture_data *d, uint8_t **block, kiln_error *err)
{
    memset(d, 0, sizeof *d);
    *block = NULL;
    if (info->basis != KILN_KTX2_BASIS_NONE) return basis_texture_data(job, info, d, block, err);
    char fname[48];
    bool transcode = !kv_supports_format(job->kv, info->vk_format);
    uint32_t to = transcode ? kiln_transcode_rgba8_format(info->vk_format) : info->vk_format;
    /* HDR formats (BC6H, RGB9E5, B10G11R11) become RGBA16F, 8 bytes a texel. */
    bool hdr = transcode && to == 0;
    if (hdr) to = kiln_transcode_rgba16f_format(info->vk_format);
    size_t texel_size = hdr ? 8 : 4;
    if (transcode && to == 0)
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                "%.200s: the device cannot sample %s and kiln cannot transcode it",
                                job->name, format_name(info->vk_format, fname, sizeof fname));
    size_t offsets[KILN_KTX2_MAX_LEVELS], total = 0;
    for (uint32_t l = 0; l < info->level_count; l++) {
        offsets[l] = total;
        size_t n = transcode ? (size_t)info->levels[l].width * info->levels[l].height * texel_size *
                                   kiln_ktx2_level_images(info, l)
                             : info->levels[l].uncompressed_size;
        total += (n + 15) & ~(size_t)15;
    }
    uint8_t *b = malloc(total ? total : 1);
    uint8_t *packed = transcode ? NULL : b;
    size_t packed_max = 0;
    if (transcode) /* the largest level's blocks, undone from supercompression */
        for (uint32_t l = 0; l < info->level_count; l++)
            if (info->levels[l].uncompressed_size > packed_max)
                packed_max = info->levels[l].uncompressed_size;
    if (transcode) packed = malloc(packed_max ? packed_max : 1);
    if (!b || !packed) {
        free(b);
        if (transcode) free(packed);
        return kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    kiln_result r = KILN_OK;
    for (uint32_t l = 0; l < info->level_count && !r; l++) {
        const kiln_ktx2_level *lv = &info->levels[l];
        uint8_t *dst = transcode ? packed : b + offsets[l];
        r = kiln_ktx2_level_copy(info, l, dst, lv->uncompressed_size, err);
        size_t n = lv->uncompressed_size, image = lv->image_size;
        if (transcode) { /* each face, layer or slice on its own */
            image = (size_t)lv->width * lv->height * texel_size;
            n = image * kiln_ktx2_level_images(info, l);
            for (uint32_t i = 0; !r && i < kiln_ktx2_level_images(info, l); i++)
                r = hdr ? kiln_transcode_rgba16f(info->vk_format, packed + i * lv->image_size,
                                                 lv->image_size, lv->width, lv->height,
                                                 b + offsets[l] + i * image, image, err)
                        : kiln_transcode_rgba8(info->vk_format, packed + i * lv->image_size,
                                               lv->image_size, lv->width, lv->height,
                                               b + offsets[l] + i * image, image, err);
        }
        d->levels[l] = *lv;
        d->levels[l].data = b + offsets[l];
        d->levels[l].size = d->levels[l].uncompressed_size = n;
        d->levels[l].image_size = image;
    }
    if (transcode) free(packed);
    if (r) {
        free(b);
        return r;
    }
    d->vk_format = to;
    d->width = info->width;
    d->height = info->height;
    d->level_count = info->level_count;
    d->srgb = info->srgb;
    d->block_width = transcode ? 1 : info->block_width;
    d->block_height = transcode ? 1 : info->block_height;
    d->block_size = transcode ? (uint8_t)texel_size : info->block_size;
    d->shape = info->shape;
    d->face_count = info->face_count;
    d->layer_count = info->layer_count;
    d->depth = info->depth;
    *block = b;
    return KILN_OK;
}

static kiln_result draw(const kiln_thumb_job *job, const kv_texture *tex, bool volume, uint32_t w,
                        uint32_t h, kv_view_mode mode, kiln_thumb_image *out, kiln_error *err)
{
    const kv_shader *vert = NULL, *frag = NULL;
    kiln_result r = kiln_thumb_shader(job->rt, "shaders/thumb_texture.vert#shader", &vert, err);
    if (!r)
        r = kiln_thumb_shader(job->rt,
                              volume ? "shaders/thumb_volume.frag#shader"
                                     : "shaders/thumb_texture.frag#shader",
                              &frag, err);
    if (r) return r;
    kv_target *target = NULL;
    kv_texture_view *view = NULL;
    r = kv_target_create(job->kv, w, h, &target, err);
    if (!r) r = kv_texture_view_create(job->kv, target, vert, frag, &view, err);
    if (!r)
        r = kv_texture_view_draw(job->kv, view, target, tex, job->opts->level, job->opts->layer,
                                 mode, err);
    size_t n = (size_t)w * h * 4;
    uint8_t *rgba = r ? NULL : malloc(n);
    if (!r && !rgba) r = kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (!r) r = kv_target_read(job->kv, target, rgba, n, err);
    kv_texture_view_destroy(job->kv, view);
    kv_target_destroy(job->kv, target);
    if (r) {
        free(rgba);
        return r;
    }
    out->rgba = rgba;
    out->width = w;
    out->height = h;
    return KILN_OK;
}

kiln_result kiln_thumb_texture(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    /* The cooked file's header: the format it was cooked in (a CPU fallback uploads another)
     * and the levels. */
    size_t size = 0;
    uint8_t *bytes = read_all(job->file, &size, err);
    if (!bytes) return err->code;
    kiln_ktx2_info info;
    kiln_result r = kiln_ktx2_read(bytes, size, &info, err);
    if (r) {
        snprintf(err->path, sizeof err->path, "%s", job->file);
        free(bytes);
        return r;
    }
    uint32_t level = job->opts->level;
    if (level >= info.level_count) {
        free(bytes);
        return kiln_thumb_error(err, KILN_E_USAGE, "--level %u: %.200s has %u level%s (0..%u)",
                                level, job->name, info.level_count,
                                info.level_count == 1 ? "" : "s", info.level_count - 1);
    }
    uint32_t lw = info.levels[level].width, lh = info.levels[level].height, w, h;
    kv_fit_size(lw, lh, job->opts->size, &w, &h);
    kv_view_mode mode = kv_view_mode_for(info.basis ? basis_target(job, &info) : info.vk_format);

    const kv_texture *tex = NULL;
    void *own = NULL;    /* the object made here for a file outside a project */
    if (job->asset_id) { /* libkiln_rt loads it and uploads it through kv's create_texture */
        krt_handle th = krt_load_id(job->rt, KRT_TYPE_TEXTURE, job->asset_id, err);
        if (!th.id) r = err->code;
        if (!r) {
            krt_finish(job->rt);
            if (krt_state_of(job->rt, th) != KRT_STATE_READY && !(r = krt_error(job->rt, th, err)))
                r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: still loading", job->name);
        }
        if (!r && !(tex = krt_gpu(job->rt, th)))
            r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s: no texture on the GPU", job->name);
    } else {
        krt_texture_data d;
        uint8_t *block = NULL;
        r = texture_data(job, &info, &d, &block, err);
        if (!r)
            r = job->renderer->create_texture(job->renderer->user, (krt_handle){0}, &d, &own, err);
        free(block);
        tex = own;
    }
    bool volume = info.shape == KILN_TEXTURE_SHAPE_VOLUME;
    char fname[64];
    if (info.basis) { /* "UASTC as BC7_SRGB": the file's format and what the device got */
        char target[48];
        snprintf(fname, sizeof fname, "%s as %s",
                 info.basis == KILN_KTX2_BASIS_UASTC ? "UASTC" : "ETC1S",
                 format_name(basis_target(job, &info), target, sizeof target));
    } else {
        format_name(info.vk_format, fname, sizeof fname);
    }
    if (!r) r = draw(job, tex, volume, w, h, mode, out, err);
    if (own) job->renderer->destroy_texture(job->renderer->user, (krt_handle){0}, own);
    if (!r && info.shape == KILN_TEXTURE_SHAPE_2D)
        snprintf(out->what, sizeof out->what, "%s %ux%u, %u level%s; level %u (%ux%u)", fname,
                 info.width, info.height, info.level_count, info.level_count == 1 ? "" : "s", level,
                 lw, lh);
    else if (!r)
        snprintf(out->what, sizeof out->what, "%s %ux%u %s, %u level%s; level %u (%ux%u), %s %u",
                 fname, info.width, info.height, kiln_texture_shape_name(info.shape),
                 info.level_count, info.level_count == 1 ? "" : "s", level, lw, lh,
                 volume                                   ? "slice"
                 : info.shape == KILN_TEXTURE_SHAPE_ARRAY ? "layer"
                                                          : "face",
                 job->opts->layer);
    free(bytes);
    return r;
}
#endif
