/* rt_type_texture.c — the texture type: a KTX2 file (the texture cooked kind) decoded into
 * krt_texture_data — levels without supercompression, BC/ASTC levels transcoded to RGBA8 when
 * the renderer cannot sample them, Basis Universal textures transcoded to the best format it
 * samples — and handed to the renderer's *_texture callbacks. Loose
 * files are checked against the manifest's digest (KTX2 has no checksum of its own); the CPU
 * data may go after upload; materials build their objects from a texture's, so a reload
 * rebuilds them; the fallback texture stands in while one is not ready. */
#include <string.h>

#include "codec/cooked_kind.h"
#include "codec/vk_format.h"
#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

/* One block for all of a texture's decoded levels: one allocation and, when large, huge pages
 * for the whole chain rather than for level 0 alone. */
/* What the header says: format, size, shape, key/values, and the levels as stored. */
static void fill_from_header(krt_texture_data *t, const kiln_ktx2_info *ktx)
{
    t->vk_format = ktx->vk_format;
    t->width = ktx->width;
    t->height = ktx->height;
    t->level_count = ktx->level_count;
    t->srgb = ktx->srgb;
    t->block_width = ktx->block_width;
    t->block_height = ktx->block_height;
    t->block_size = ktx->block_size;
    t->shape = ktx->shape;
    t->face_count = ktx->face_count;
    t->layer_count = ktx->layer_count;
    t->depth = ktx->depth;
    t->kv_data = ktx->kv_data;
    t->kv_size = ktx->kv_size;
    uint32_t levels =
        ktx->level_count < KILN_KTX2_MAX_LEVELS ? ktx->level_count : KILN_KTX2_MAX_LEVELS;
    for (uint32_t l = 0; l < levels; l++) t->levels[l] = ktx->levels[l];
}

static kiln_result decode_levels(krt_asset *a, const kiln_allocator *al, kiln_error *err)
{
    krt_texture_decoded *x = &a->data.texture;
    const kiln_ktx2_info *ktx = &x->view;
    krt_texture_data *t = &x->data;
    fill_from_header(t, ktx);
    uint32_t levels =
        ktx->level_count < KILN_KTX2_MAX_LEVELS ? ktx->level_count : KILN_KTX2_MAX_LEVELS;
    if (ktx->supercompression == KILN_KTX2_SUPERCOMPRESSION_NONE) return KILN_OK;
    size_t total = 0;
    for (uint32_t l = 0; l < levels; l++)
        if (!kiln_size_add(total, ktx->levels[l].uncompressed_size, &total))
            return kiln_error_set(err, KILN_E_LIMIT, "the levels are too large together");
    x->level_block = kiln_alloc_large(al, total ? total : 1);
    if (!x->level_block)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for %zu bytes of levels",
                              total);
    x->level_block_size = total ? total : 1;
    a->dec.resident += x->level_block_size;
    size_t at = 0;
    for (uint32_t l = 0; l < levels; l++) {
        size_t n = ktx->levels[l].uncompressed_size;
        kiln_result r = kiln_ktx2_level_copy(ktx, l, x->level_block + at, n, err);
        if (r) return r;
        t->levels[l].data = x->level_block + at;
        t->levels[l].size = n;
        at += n;
    }
    return KILN_OK;
}

/* Block formats, and the packed HDR ones (RGB9E5, B10G11R11) that a CPU fallback also decodes. */
static bool is_block_format(uint32_t f)
{
    const kiln_vk_format_info *info = kiln_vk_format_find(f);
    return info && (info->block_width > 1 || info->block_height > 1 ||
                    f == KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 ||
                    f == KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32);
}

/* The renderer cannot sample this BC/ASTC texture: every level to RGBA8 (sRGB stays sRGB), or
 * for HDR formats to RGBA16F, on the job's thread. The block data is dropped once its level is
 * decoded. */
static kiln_result transcode_texture(krt_asset *a, const kiln_allocator *al, kiln_error *err)
{
    krt_texture_decoded *x = &a->data.texture;
    krt_texture_data *t = &x->data;
    uint32_t to = kiln_transcode_rgba8_format(t->vk_format);
    /* HDR formats (BC6H, RGB9E5, B10G11R11) become RGBA16F: 8 bytes a texel. */
    bool hdr = to == KILN_VK_FORMAT_UNDEFINED;
    if (hdr) to = kiln_transcode_rgba16f_format(t->vk_format);
    size_t texel_size = hdr ? 8 : 4;
    if (to == KILN_VK_FORMAT_UNDEFINED)
        return kiln_error_set(
            err, KILN_E_IMPORT_UNSUPPORTED,
            "the renderer cannot sample vkFormat %u and this build cannot transcode it",
            t->vk_format);
    uint32_t levels = t->level_count < KILN_KTX2_MAX_LEVELS ? t->level_count : KILN_KTX2_MAX_LEVELS;
    /* Every image of every level (faces, layers, slices), each decoded on its own. */
    size_t sizes[KILN_KTX2_MAX_LEVELS], images[KILN_KTX2_MAX_LEVELS], total = 0;
    for (uint32_t l = 0; l < levels; l++) {
        const kiln_ktx2_level *lv = &t->levels[l];
        images[l] = kiln_ktx2_level_images(&x->view, l);
        if (!kiln_size_mul((size_t)lv->width, lv->height, &sizes[l]) ||
            !kiln_size_mul(sizes[l], texel_size, &sizes[l]) ||
            !kiln_size_add(total, sizes[l] * images[l], &total) ||
            sizes[l] > SIZE_MAX / (images[l] ? images[l] : 1))
            return kiln_error_set(err, KILN_E_LIMIT, "level %u is too large to transcode", l);
    }
    x->transcode_block = kiln_alloc_large(al, total ? total : 1);
    if (!x->transcode_block)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                              "out of memory transcoding %zu bytes of levels", total);
    x->transcode_block_size = total ? total : 1;
    a->dec.resident += x->transcode_block_size;
    size_t at = 0;
    for (uint32_t l = 0; l < levels; l++) {
        kiln_ktx2_level *lv = &t->levels[l];
        if (lv->image_size * images[l] > lv->size)
            return kiln_error_set(err, KILN_E_FORMAT_INVALID,
                                  "level %u holds %zu bytes, %zu images of %zu expected", l,
                                  lv->size, images[l], lv->image_size);
        for (size_t i = 0; i < images[l]; i++) {
            const uint8_t *src = lv->data + i * lv->image_size;
            uint8_t *dst = x->transcode_block + at + i * sizes[l];
            kiln_result r = hdr ? kiln_transcode_rgba16f(t->vk_format, src, lv->image_size,
                                                         lv->width, lv->height, dst, sizes[l], err)
                                : kiln_transcode_rgba8(t->vk_format, src, lv->image_size, lv->width,
                                                       lv->height, dst, sizes[l], err);
            if (r) return r;
        }
        lv->data = x->transcode_block + at;
        lv->size = lv->uncompressed_size = sizes[l] * images[l];
        lv->image_size = sizes[l];
        at += sizes[l] * images[l];
    }
    if (x->level_block) { /* the unpacked blocks are not needed any more */
        kiln_free_large(al, x->level_block, x->level_block_size);
        a->dec.resident -= x->level_block_size;
        x->level_block = NULL;
        x->level_block_size = 0;
    }
    t->vk_format = to;
    t->block_width = t->block_height = 1;
    t->block_size = (uint8_t)texel_size;
    a->dec.transcoded = true;
    return KILN_OK;
}

/* A Basis Universal texture: the first of its targets (kiln_basis_targets, best first) that the
 * renderer samples — RGBA8 when it has no supports_format, since then nothing says what the GPU
 * takes — every level transcoded on this job's thread into one block. */
static kiln_result decode_basis(krt_asset *a, const krt_renderer *rd, const kiln_allocator *al,
                                kiln_error *err)
{
    krt_texture_decoded *x = &a->data.texture;
    const kiln_ktx2_info *ktx = &x->view;
    krt_texture_data *t = &x->data;
    uint32_t to = kiln_basis_pick_target(ktx, rd->supports_format, rd->user);
    const kiln_vk_format_info *f = kiln_vk_format_find(to);
    if (KILN_NEVER(!f))
        return kiln_error_set(err, KILN_E_INTERNAL, "a Basis texture without targets");
    uint32_t levels =
        ktx->level_count < KILN_KTX2_MAX_LEVELS ? ktx->level_count : KILN_KTX2_MAX_LEVELS;
    size_t sizes[KILN_KTX2_MAX_LEVELS], total = 0;
    for (uint32_t l = 0; l < levels; l++) {
        sizes[l] = kiln_basis_level_size(ktx, l, to);
        if (!kiln_size_add(total, sizes[l], &total))
            return kiln_error_set(err, KILN_E_LIMIT, "the levels are too large together");
    }
    kiln_basis *b = NULL;
    kiln_result r = kiln_basis_open(ktx, al, &b, err);
    if (r != KILN_OK) return r;
    x->transcode_block = kiln_alloc_large(al, total ? total : 1);
    if (!x->transcode_block) {
        kiln_basis_close(b);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                              "out of memory for %zu bytes of transcoded levels", total);
    }
    x->transcode_block_size = total ? total : 1;
    a->dec.resident += x->transcode_block_size;
    size_t at = 0;
    for (uint32_t l = 0; r == KILN_OK && l < levels; l++) {
        r = kiln_basis_transcode(b, l, to, x->transcode_block + at, sizes[l], err);
        kiln_ktx2_level *lv = &t->levels[l];
        *lv = ktx->levels[l];
        lv->data = x->transcode_block + at;
        lv->size = lv->uncompressed_size = sizes[l];
        lv->image_size = sizes[l] / kiln_ktx2_level_images(ktx, l);
        at += sizes[l];
    }
    kiln_basis_close(b);
    if (r != KILN_OK) return r;
    t->vk_format = to;
    t->block_width = f->block_width;
    t->block_height = f->block_height;
    t->block_size = f->block_size;
    a->dec.transcoded = true;
    return KILN_OK;
}

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_texture_decoded *d = &a->data.texture;
    const krt_renderer *rd = x->renderer;
    kiln_result r =
        krt_type_texture.kind->read(a->dec.file, a->dec.file_size, x->flags, &d->view, err);
    if (!r && d->view.basis != KILN_KTX2_BASIS_NONE) {
        /* The levels' shape comes from the file; their bytes and format from the transcode. */
        fill_from_header(&d->data, &d->view);
        return decode_basis(a, rd, x->alloc, err);
    }
    if (!r) r = decode_levels(a, x->alloc, err);
    if (!r && rd->supports_format && is_block_format(d->data.vk_format) &&
        !rd->supports_format(rd->user, d->data.vk_format))
        r = transcode_texture(a, x->alloc, err);
    return r;
}

static const void *view(const krt_asset *a) { return &a->data.texture.view; }

static void free_blocks(krt_asset *a, const kiln_allocator *al)
{
    krt_texture_decoded *d = &a->data.texture;
    kiln_free_large(al, d->level_block, d->level_block_size);
    kiln_free_large(al, d->transcode_block, d->transcode_block_size);
}

/* No pointer into the record: the levels point into the file or the blocks. */
static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_texture_decoded, a->data.texture, b->data.texture);
}

KRT_TYPE_RENDERER_OPS(texture)

static void *fallback_gpu(const krt_context *c) { return c->fb_texture_ok ? c->fb_texture : NULL; }

const krt_type_ops krt_type_texture = {
    .kind = &kiln_cooked_kind_texture,
    .flags = KRT_TYPE_OPS_DIGEST | KRT_TYPE_OPS_CPU_DROP | KRT_TYPE_OPS_REBUILD_DEPENDENTS,
    .decode = decode,
    .view = view,
    .free = free_blocks,
    .swap = swap,
    .create = create,
    .replace = replace,
    .destroy = destroy,
    .fallback_gpu = fallback_gpu,
};

KRT_TYPE_API(texture, KRT_TYPE_TEXTURE, krt_texture_data, a->data.texture.data)
