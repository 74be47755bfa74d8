/* cooked_texture.c — the texture kind: a KTX2 file (ktx2_read.c), referring to nothing. Labels:
 * "texture" (an image source's one artifact) and "image" (a model's images, one per role).
 * inspect describes the header (format by its vk_format.h name, size, shape when not 2D, colour
 * space, supercompression, KTXorientation and KTXwriter) and the level index. */
#include "codec/cooked_kind.h"
#include "codec/describe.h"
#include "codec/ktx2_basis.h"
#include "codec/vk_format.h"
#include "core/reader.h"

static kiln_result read(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err)
{
    (void)flags; /* KTX2 has no checksum of its own to skip */
    return kiln_ktx2_read(data, size, view, err);
}

/* A Basis Universal texture's channels and, for ETC1S, the sizes of its BasisLZ codebooks and
 * tables (the global data's header, which kiln_ktx2_read bounded). */
static void describe_basis(const kiln_ktx2_info *info, kiln_describe *d)
{
    static const char *const channels[] = {"rgb", "rgba", "rrr", "rrrg", "rg"};
    kiln_describe_object(d, "basis");
    kiln_describe_cstring(d, "channels",
                          info->basis_channels < 5 ? channels[info->basis_channels] : "invalid");
    if (info->sgd && info->sgd_size >= KILN_BASISLZ_HEADER_SIZE) {
        const uint8_t *g = info->sgd;
        kiln_describe_int(d, "endpoints", kiln_load_u16le(g));
        kiln_describe_int(d, "selectors", kiln_load_u16le(g + 2));
        kiln_describe_int(d, "endpoint_bytes", kiln_load_u32le(g + 4));
        kiln_describe_int(d, "selector_bytes", kiln_load_u32le(g + 8));
        kiln_describe_int(d, "table_bytes", kiln_load_u32le(g + 12));
        kiln_describe_int(d, "images",
                          (int64_t)kiln_ktx2_basislz_image_count(
                              info->level_count, info->face_count, info->layer_count, info->depth));
    }
    kiln_describe_end(d);
}

static void describe(const void *view, kiln_describe *d)
{
    const kiln_ktx2_info *info = view;
    const kiln_vk_format_info *f = kiln_vk_format_find(info->vk_format);
    kiln_describe_int(d, "vk_format", info->vk_format);
    kiln_describe_cstring(d, "format",
                          f                                      ? f->name
                          : info->basis == KILN_KTX2_BASIS_UASTC ? "UASTC"
                          : info->basis == KILN_KTX2_BASIS_ETC1S ? "ETC1S"
                                                                 : "unknown");
    kiln_describe_int(d, "width", info->width);
    kiln_describe_int(d, "height", info->height);
    if (info->shape != KILN_TEXTURE_SHAPE_2D) { /* 2D files describe as they always have */
        kiln_describe_cstring(d, "shape", kiln_texture_shape_name(info->shape));
        kiln_describe_int(d, "faces", info->face_count);
        kiln_describe_int(d, "layers", info->layer_count);
        kiln_describe_int(d, "depth", info->depth);
    }
    kiln_describe_bool(d, "srgb", info->srgb);
    kiln_describe_cstring(d, "supercompression",
                          info->supercompression == KILN_KTX2_SUPERCOMPRESSION_ZSTD      ? "zstd"
                          : info->supercompression == KILN_KTX2_SUPERCOMPRESSION_BASISLZ ? "basislz"
                                                                                         : "none");
    if (info->basis != KILN_KTX2_BASIS_NONE) describe_basis(info, d);
    kiln_describe_cstring(d, "orientation", info->orientation);
    kiln_describe_cstring(d, "writer", info->writer);
    kiln_describe_array(d, "levels");
    for (uint32_t i = 0; i < info->level_count && i < KILN_KTX2_MAX_LEVELS; i++) {
        const kiln_ktx2_level *lv = &info->levels[i];
        kiln_describe_object(d, NULL);
        kiln_describe_int(d, "width", lv->width);
        kiln_describe_int(d, "height", lv->height);
        if (info->shape == KILN_TEXTURE_SHAPE_VOLUME) kiln_describe_int(d, "depth", lv->depth);
        kiln_describe_int(d, "size", (int64_t)lv->size);
        kiln_describe_int(d, "uncompressed_size", (int64_t)lv->uncompressed_size);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
}

/* "specular", "irradiance", "brdf": an environment's lighting (docs/ibl.md). */
static const char *const labels[] = {"image", "texture", "specular", "irradiance", "brdf", NULL};

const kiln_cooked_kind kiln_cooked_kind_texture = {
    .name = "texture",
    .fourcc = KILN_PACK_KIND_KTX2,
    .labels = labels,
    .view_size = sizeof(kiln_ktx2_info),
    .read = read,
    .refs = NULL,
    .describe = describe,
};
