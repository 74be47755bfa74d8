/* inspect_ktx2.c — the inspect document of a KTX2 texture (inspect.h): what the texture kind
 * describes (the header and level index as kiln_ktx2_read finds them) and, with a source image
 * to compare with, the PSNR of level 0 decoded by kiln's own block decoders (the encoder's
 * quality, measured). */
#include "pipeline/inspect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codec/texture_format.h"
#include "core/error.h"
#include "core/file.h"
#include "import/image.h"
#include "process/block.h"
#include "process/half.h"

/* The largest source image --compare reads (as kiln inspect maps any file). */
#define COMPARE_MAX_SIZE ((size_t)2 << 30)

/* Level 0 of a KTX2 file decoded to RGBA8 with kiln's own decoders (RGBA16F clamped to [0,1]
 * and quantised linearly). *out is malloc'd, width * height * 4 bytes. */
static kiln_result decode_level0(const kiln_ktx2_info *info, uint8_t **out, kiln_error *err)
{
    const kiln_ktx2_level *lv = &info->levels[0];
    /* A few hundred bytes of zstd can claim gigabytes: decode what a texture kiln writes can be. */
    if ((uint64_t)info->width * info->height > (uint64_t)16384 * 16384 ||
        lv->uncompressed_size > ((size_t)1 << 30))
        return kiln_error_set(err, KILN_E_LIMIT,
                              "level 0 (%ux%u, %zu bytes) is too large to decode "
                              "for --compare",
                              info->width, info->height, lv->uncompressed_size);
    uint8_t *raw = malloc(lv->uncompressed_size ? lv->uncompressed_size : 1);
    size_t texels = (size_t)info->width * info->height;
    uint8_t *rgba = malloc(texels * 4);
    kiln_result r;
    if (raw && rgba) r = kiln_ktx2_level_copy(info, 0, raw, lv->uncompressed_size, err);
    else r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    /* The format table names the decoder: block formats through the cook's own block decoders
     * (kiln_blocks_decode), HDR formats to half floats and those clamped, RGBA8 as it is. */
    kiln_texture_format f = kiln_texture_format_of_vk(info->vk_format, NULL);
    const kiln_texture_format_info *row = kiln_texture_format_get(f);
    if (r == KILN_OK && !row)
        r = kiln_error_set(err, KILN_E_USAGE, "--compare cannot decode VkFormat %u",
                           info->vk_format);
    if (r == KILN_OK) {
        if (row->hdr) {
            /* To halves first: RGBA16F as stored, BC6H / ASTC HDR through the block decoders,
             * RGB9E5 / B10G11R11 through the row's texel decoder. */
            uint16_t *half = malloc(texels * 8);
            if (!half) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
            else if (f == KILN_TEXFMT_RGBA16F)
                for (size_t i = 0; i < texels * 4; i++)
                    half[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
            else if (kiln_block_bytes(f))
                r = kiln_blocks_decode_half(f, raw, lv->uncompressed_size, info->width,
                                            info->height, half, err);
            else kiln_texture_format_decode_level_half(f, raw, info->width, info->height, half);
            for (size_t i = 0; r == KILN_OK && i < texels * 4; i++) {
                float h = kiln_half_to_float(half[i]);
                rgba[i] = (uint8_t)(h <= 0.0f ? 0 : h >= 1.0f ? 255 : (int)(h * 255.0f + 0.5f));
            }
            free(half);
        } else if (kiln_block_bytes(f)) {
            r = kiln_blocks_decode(f, raw, lv->uncompressed_size, info->width, info->height,
                                   info->srgb, rgba, err);
        } else {
            memcpy(rgba, raw, texels * 4);
        }
    }
    free(raw);
    if (r != KILN_OK) {
        free(rgba);
        return r;
    }
    *out = rgba;
    return KILN_OK;
}

static double psnr_of(double sq, double count)
{
    if (count <= 0) return 0;
    if (sq <= 0) return 99.0; /* identical: reported as 99 dB, as many tools do */
    return 10.0 * log10(255.0 * 255.0 * count / sq);
}

/* Level 0's first image of a Basis texture transcoded to vk_format and decoded to RGBA8 (*out
 * malloc'd, width * height * 4 bytes): what a GPU that samples vk_format sees. */
static kiln_result decode_basis_target(const kiln_ktx2_info *info, uint32_t vk_format,
                                       uint8_t **out, kiln_error *err)
{
    size_t need = kiln_basis_level_size(info, 0, vk_format);
    size_t texels = (size_t)info->width * info->height;
    if ((uint64_t)info->width * info->height > (uint64_t)16384 * 16384 || need > ((size_t)1 << 31))
        return kiln_error_set(err, KILN_E_LIMIT,
                              "level 0 (%ux%u) is too large to decode for "
                              "--compare",
                              info->width, info->height);
    uint8_t *level = malloc(need ? need : 1), *rgba = malloc(texels * 4);
    kiln_basis *b = NULL;
    kiln_result r = level && rgba ? kiln_basis_open(info, NULL, &b, err)
                                  : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (r == KILN_OK) r = kiln_basis_transcode(b, 0, vk_format, level, need, err);
    /* the first image of the level: its first face, layer or slice */
    size_t image = need / kiln_ktx2_level_images(info, 0);
    if (r == KILN_OK)
        r = kiln_transcode_rgba8(vk_format, level, image, info->width, info->height, rgba,
                                 texels * 4, err);
    kiln_basis_close(b);
    free(level);
    if (r != KILN_OK) {
        free(rgba);
        return r;
    }
    *out = rgba;
    return KILN_OK;
}

/* Squared errors of the first `channels` channels and of alpha, decoded against source. */
static void squared_errors(const uint8_t *src, const uint8_t *dec, size_t texels, int channels,
                           double *sq, double *sq_a)
{
    *sq = *sq_a = 0;
    for (size_t i = 0; i < texels; i++) {
        for (int c = 0; c < channels; c++) {
            double d = (double)src[i * 4 + c] - dec[i * 4 + c];
            *sq += d * d;
        }
        double da = (double)src[i * 4 + 3] - dec[i * 4 + 3];
        *sq_a += da * da;
    }
}

/* Every target of a Basis texture, best first, with its PSNR against source: "targets". */
static kiln_result compare_basis_targets(const kiln_ktx2_info *info, const kiln_image *img,
                                         int channels, json_t *j, kiln_error *err)
{
    uint32_t t[KILN_BASIS_MAX_TARGETS];
    size_t n = kiln_basis_targets(info, t, KILN_BASIS_MAX_TARGETS);
    json_t *list = json_array();
    json_object_set_new(j, "targets", list);
    size_t texels = (size_t)img->width * img->height;
    for (size_t i = 0; i < n && i < KILN_BASIS_MAX_TARGETS; i++) {
        uint8_t *dec = NULL;
        kiln_result r = decode_basis_target(info, t[i], &dec, err);
        if (r != KILN_OK) return r;
        double sq, sq_a;
        /* BC4 / EAC R11 keep R, BC5 / EAC RG11 R and G */
        uint32_t bw = 0, bh = 0, bytes = 0;
        kiln_vk_format_block(t[i], &bw, &bh, &bytes);
        int ch =
            t[i] == KILN_VK_FORMAT_BC4_UNORM_BLOCK || t[i] == KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK ? 1
            : t[i] == KILN_VK_FORMAT_BC5_UNORM_BLOCK ||
                    t[i] == KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK
                ? 2
                : channels;
        squared_errors(img->pixels, dec, texels, ch, &sq, &sq_a);
        free(dec);
        json_t *e = json_object();
        json_object_set_new(e, "format", json_string(kiln_vk_format_label(t[i], NULL, NULL)));
        json_object_set_new(e, "vk_format", json_integer(t[i]));
        json_object_set_new(e, "psnr", json_real(psnr_of(sq, (double)texels * ch)));
        if (img->has_alpha && ch == 3)
            json_object_set_new(e, "psnr_alpha", json_real(psnr_of(sq_a, (double)texels)));
        json_array_append_new(list, e);
    }
    return KILN_OK;
}

/* PSNR of a KTX2 file's level 0 against a source image of the same size (8-bit sources). */
static kiln_result compare_with(const kiln_ktx2_info *info, const char *source, json_t **out,
                                kiln_error *err)
{
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(source, COMPARE_MAX_SIZE, &m, err);
    if (r != KILN_OK) return r;
    kiln_image_opts o = {0};
    o.name_hint = source;
    kiln_image img;
    r = kiln_image_decode(m.data, m.size, &o, &img, err);
    kiln_file_unmap(&m);
    if (r != KILN_OK) return r;
    uint8_t *dec = NULL;
    if (img.type != KILN_PIXEL_U8 || img.width != info->width || img.height != info->height) {
        r = kiln_error_set(err, KILN_E_USAGE,
                           "--compare needs an 8-bit image of the texture's size (%ux%u); %s is "
                           "%ux%u of %s",
                           info->width, info->height, source, img.width, img.height,
                           img.type == KILN_PIXEL_U8 ? "8-bit channels" : "wider channels");
        kiln_image_free(&img);
        return r;
    }
    /* A Basis texture is compared as RGBA8 (its own decode), then target by target. */
    uint32_t basis_rgba8 =
        info->srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM;
    r = info->basis ? decode_basis_target(info, basis_rgba8, &dec, err)
                    : decode_level0(info, &dec, err);
    if (r != KILN_OK) {
        kiln_image_free(&img);
        return r;
    }
    /* Compare the colour channels the format stores (BC4 keeps R, BC5 R and G); alpha apart. */
    const kiln_texture_format_info *row =
        kiln_texture_format_get(kiln_texture_format_of_vk(info->vk_format, NULL));
    int channels = row && row->channels < 3 ? row->channels : 3;
    if (info->basis == KILN_KTX2_BASIS_ETC1S || info->basis == KILN_KTX2_BASIS_UASTC)
        channels = info->basis_channels == KILN_BASIS_CHANNELS_RRR ? 1
                   : info->basis_channels == KILN_BASIS_CHANNELS_RG ||
                           info->basis_channels == KILN_BASIS_CHANNELS_RRRG
                       ? 2
                       : 3;
    double sq = 0, sq_a = 0;
    size_t texels = (size_t)img.width * img.height;
    squared_errors(img.pixels, dec, texels, channels, &sq, &sq_a);
    json_t *j = json_object();
    json_object_set_new(j, "source", json_string(source));
    json_object_set_new(j, "channels", json_integer(channels));
    json_object_set_new(j, "psnr", json_real(psnr_of(sq, (double)texels * channels)));
    if (img.has_alpha && channels == 3)
        json_object_set_new(j, "psnr_alpha", json_real(psnr_of(sq_a, (double)texels)));
    if (info->basis && (r = compare_basis_targets(info, &img, channels, j, err)) != KILN_OK) {
        json_decref(j);
        free(dec);
        kiln_image_free(&img);
        return r;
    }
    free(dec);
    kiln_image_free(&img);
    *out = j;
    return KILN_OK;
}

kiln_result kiln_inspect_ktx2(const uint8_t *data, size_t size, const char *compare, json_t **out,
                              kiln_error *err)
{
    kiln_ktx2_info info;
    kiln_result r = kiln_ktx2_read(data, size, &info, err);
    if (r != KILN_OK) return r;
    json_t *cmp = NULL;
    if (compare && (r = compare_with(&info, compare, &cmp, err)) != KILN_OK) return r;
    /* The texture kind describes the header and levels: its members are the document's own. */
    const kiln_cooked_kind *texture = kiln_cooked_kind_of_fourcc(KILN_PACK_KIND_KTX2);
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("ktx2"));
    if ((r = kiln_inspect_describe(texture, &info, j, err)) != KILN_OK) {
        json_decref(j);
        json_decref(cmp);
        return r;
    }
    if (cmp) json_object_set_new(j, "compare", cmp);
    *out = j;
    return KILN_OK;
}
