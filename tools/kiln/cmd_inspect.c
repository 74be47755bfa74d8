/* cmd_inspect.c — kiln inspect FILE: what an image, a KTX2 file, a kiln container (any cooked
 * kind) or a glTF 2.0 model holds. The kind is told by content (KTX2 identifier, "KILN" magic,
 * GLB magic or a JSON object), never by the name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/error.h"
#include "core/file.h"
#include "codec/vk_format.h"
#include "import/assimp.h"
#include "import/gltf.h"
#include "import/image.h"
#include "inspect_container.h"
#include "inspect_model.h"
#include "inspect_pack.h"
#include "process/block.h"
#include "process/half.h"

#define INSPECT_MAX_SIZE ((size_t)2 << 30)

static const uint8_t ktx2_id[12] = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'};

/* Level 0 of a KTX2 file decoded to RGBA8 with kiln's own decoders (RGBA16F clamped to [0,1]
 * and quantised linearly). *out is malloc'd, width * height * 4 bytes. */
static kiln_result decode_level0(const kiln_ktx2_info *info, uint8_t **out, kiln_error *err)
{
    const kiln_ktx2_level *lv = &info->levels[0];
    /* A few hundred bytes of zstd can claim gigabytes: decode what a texture kiln writes can be. */
    if ((uint64_t)info->width * info->height > (uint64_t)16384 * 16384 ||
        lv->uncompressed_size > ((size_t)1 << 30))
        return kiln_error_set(err, KILN_E_LIMIT, "level 0 (%ux%u, %zu bytes) is too large to decode "
                              "for --compare", info->width, info->height, lv->uncompressed_size);
    uint8_t *raw = malloc(lv->uncompressed_size ? lv->uncompressed_size : 1);
    size_t texels = (size_t)info->width * info->height;
    uint8_t *rgba = malloc(texels * 4);
    kiln_result r;
    if (raw && rgba)
        r = kiln_ktx2_level_copy(info, 0, raw, lv->uncompressed_size, err);
    else
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (r == KILN_OK) {
        int block = -1;
        switch (info->vk_format) {
        case KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK:
        case KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK: block = KILN_BLOCK_BC1; break;
        case KILN_VK_FORMAT_BC4_UNORM_BLOCK: block = KILN_BLOCK_BC4; break;
        case KILN_VK_FORMAT_BC5_UNORM_BLOCK: block = KILN_BLOCK_BC5; break;
        case KILN_VK_FORMAT_BC7_UNORM_BLOCK:
        case KILN_VK_FORMAT_BC7_SRGB_BLOCK: block = KILN_BLOCK_BC7; break;
        case KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK:
        case KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK: block = KILN_BLOCK_ASTC4X4; break;
        default: break;
        }
        if (block >= 0) {
            r = kiln_blocks_decode((kiln_block_format)block, raw, lv->uncompressed_size,
                                   info->width, info->height, info->srgb, rgba, err);
        } else if (info->vk_format == KILN_VK_FORMAT_R16G16B16A16_SFLOAT) {
            for (size_t i = 0; i < texels * 4; i++) {
                float f = kiln_half_to_float((uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8));
                rgba[i] = (uint8_t)(f <= 0.0f ? 0 : f >= 1.0f ? 255 : (int)(f * 255.0f + 0.5f));
            }
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

/* PSNR of a KTX2 file's level 0 against a source image of the same size (8-bit sources). */
static json_t *compare_with(const kiln_ktx2_info *info, const char *source, kiln_result *r,
                            kiln_error *err)
{
    kiln_mapped_file m;
    *r = kiln_file_map(source, INSPECT_MAX_SIZE, &m, err);
    if (*r != KILN_OK) return NULL;
    kiln_image_opts o = {0};
    o.name_hint = source;
    kiln_image img;
    *r = kiln_image_decode(m.data, m.size, &o, &img, err);
    kiln_file_unmap(&m);
    if (*r != KILN_OK) return NULL;
    uint8_t *dec = NULL;
    if (img.type != KILN_PIXEL_U8 || img.width != info->width || img.height != info->height) {
        *r = kiln_error_set(err, KILN_E_USAGE,
                            "--compare needs an 8-bit image of the texture's size (%ux%u); %s is "
                            "%ux%u of %s", info->width, info->height, source, img.width,
                            img.height, img.type == KILN_PIXEL_U8 ? "8-bit channels" : "wider channels");
        kiln_image_free(&img);
        return NULL;
    }
    *r = decode_level0(info, &dec, err);
    if (*r != KILN_OK) {
        kiln_image_free(&img);
        return NULL;
    }
    /* BC4 keeps R, BC5 R and G: compare the channels the format stores. */
    int channels = info->vk_format == KILN_VK_FORMAT_BC4_UNORM_BLOCK   ? 1
                   : info->vk_format == KILN_VK_FORMAT_BC5_UNORM_BLOCK ? 2
                                                                       : 3;
    const uint8_t *src = img.pixels;
    double sq = 0, sq_a = 0;
    size_t texels = (size_t)img.width * img.height;
    for (size_t i = 0; i < texels; i++) {
        for (int c = 0; c < channels; c++) {
            double d = (double)src[i * 4 + c] - dec[i * 4 + c];
            sq += d * d;
        }
        double da = (double)src[i * 4 + 3] - dec[i * 4 + 3];
        sq_a += da * da;
    }
    json_t *j = json_object();
    json_object_set_new(j, "source", json_string(source));
    json_object_set_new(j, "channels", json_integer(channels));
    json_object_set_new(j, "psnr", json_real(psnr_of(sq, (double)texels * channels)));
    if (img.has_alpha && channels == 3)
        json_object_set_new(j, "psnr_alpha", json_real(psnr_of(sq_a, (double)texels)));
    free(dec);
    kiln_image_free(&img);
    return j;
}

static json_t *inspect_ktx2(const uint8_t *data, size_t size, const char *compare, kiln_result *r,
                            kiln_error *err)
{
    kiln_ktx2_info info;
    *r = kiln_ktx2_read(data, size, &info, err);
    if (*r != KILN_OK) return NULL;
    json_t *cmp = NULL;
    if (compare) {
        cmp = compare_with(&info, compare, r, err);
        if (!cmp) return NULL;
    }
    const kiln_vk_format_info *f = kiln_vk_format_find(info.vk_format);
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("ktx2"));
    json_object_set_new(j, "vk_format", json_integer(info.vk_format));
    json_object_set_new(j, "format", json_string(f ? f->name : "unknown"));
    json_object_set_new(j, "width", json_integer(info.width));
    json_object_set_new(j, "height", json_integer(info.height));
    json_object_set_new(j, "srgb", json_boolean(info.srgb));
    json_object_set_new(j, "supercompression",
                        json_string(info.supercompression == KILN_KTX2_SUPERCOMPRESSION_ZSTD ? "zstd" : "none"));
    json_object_set_new(j, "orientation", json_string(info.orientation));
    json_object_set_new(j, "writer", json_string(info.writer));
    json_t *levels = json_array();
    for (uint32_t i = 0; i < info.level_count; i++) {
        json_t *l = json_object();
        json_object_set_new(l, "width", json_integer(info.levels[i].width));
        json_object_set_new(l, "height", json_integer(info.levels[i].height));
        json_object_set_new(l, "size", json_integer((json_int_t)info.levels[i].size));
        json_object_set_new(l, "uncompressed_size", json_integer((json_int_t)info.levels[i].uncompressed_size));
        json_array_append_new(levels, l);
    }
    json_object_set_new(j, "levels", levels);
    if (cmp) json_object_set_new(j, "compare", cmp);
    return j;
}

static json_t *inspect_image(const uint8_t *data, size_t size, const char *name, kiln_result *r,
                             kiln_error *err)
{
    kiln_image_opts o = {0};
    o.name_hint = name;
    kiln_image img;
    *r = kiln_image_decode(data, size, &o, &img, err);
    if (*r != KILN_OK) return NULL;
    static const char *const types[] = {"u8", "u16", "f32"};
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("image"));
    json_object_set_new(j, "format", json_string(kiln_image_format_name(img.format)));
    json_object_set_new(j, "width", json_integer(img.width));
    json_object_set_new(j, "height", json_integer(img.height));
    json_object_set_new(j, "channels", json_integer(img.source_channels));
    json_object_set_new(j, "bits", json_integer(img.source_bits));
    json_object_set_new(j, "pixel_type", json_string(types[img.type <= 2 ? img.type : 2]));
    json_object_set_new(j, "has_alpha", json_boolean(img.has_alpha));
    kiln_image_free(&img);
    return j;
}

int kiln_cmd_inspect(int argc, char **argv)
{
    kiln_cli c = {.command = "inspect"};
    if (!kiln_cli_parse(&c, argc, argv, "--compare")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    kiln_error err;
    int code;
    if (c.positional_count != 1) {
        return kiln_cli_usage(&c, "inspect takes exactly one FILE");
    }
    const char *path = c.positional[0];
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(path, INSPECT_MAX_SIZE, &m, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
        kiln_cli_free(&c);
        return code;
    }
    bool is_ktx2 = m.size >= 12 && !memcmp(m.data, ktx2_id, 12);
    bool is_container = !is_ktx2 && m.size >= 4 && !memcmp(m.data, "KILN", 4);
    bool is_pack = !is_ktx2 && m.size >= 4 && !memcmp(m.data, "KPAK", 4);
    /* Models by content, in kiln_scene_load's order: glTF, then FBX or OBJ. */
    const char *model = NULL;
    if (!is_ktx2 && !is_container && !is_pack) {
        kiln_assimp_format other = KILN_ASSIMP_NONE;
        if (kiln_gltf_detect(m.data, m.size))
            model = m.size >= 4 && !memcmp(m.data, "glTF", 4) ? "glb" : "gltf";
        else if ((other = kiln_assimp_detect(m.data, m.size)) != KILN_ASSIMP_NONE)
            model = other == KILN_ASSIMP_FBX ? "fbx" : "obj";
    }
    bool is_model = model != NULL;
    json_t *j = NULL;
    if (!is_ktx2 && c.compare) {
        r = kiln_error_set(&err, KILN_E_USAGE, "--compare works on a KTX2 file");
    } else if (is_container) {
        j = kiln_inspect_container(m.data, m.size, &r, &err);
    } else if (is_pack) {
        j = kiln_inspect_pack(m.data, m.size, &r, &err);
    } else if (is_model) {
        /* The loader reads the file again, with the buffers and images beside it. */
        kiln_file_unmap(&m);
        j = kiln_inspect_model(path, model, &r, &err);
    } else {
        j = is_ktx2 ? inspect_ktx2(m.data, m.size, c.compare, &r, &err)
                    : inspect_image(m.data, m.size, path, &r, &err);
    }
    if (!is_model) kiln_file_unmap(&m);
    if (!j) {
        code = kiln_cli_fail(&c, r, &err);
        kiln_cli_free(&c);
        return code;
    }
    json_object_set_new(j, "command", json_string("inspect"));
    json_object_set_new(j, "file", json_string(path));
    if (c.json) {
        /* A container's reals are float32 values kept as their shortest decimals. */
        size_t real = is_container ? JSON_REAL_PRECISION(KILN_INSPECT_CONTAINER_REAL_PRECISION) : 0;
        char *s = json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2) | real);
        kiln_cli_print_json(s);
        free(s);
    } else if (is_container) {
        kiln_inspect_container_print(j, path);
    } else if (is_pack) {
        kiln_inspect_pack_print(j, path);
    } else if (is_model) {
        kiln_inspect_model_print(j, path);
    } else if (is_ktx2) {
        printf("%s: KTX2 %s %lldx%lld, %zu levels, %s, supercompression %s, writer \"%s\"\n", path,
               json_string_value(json_object_get(j, "format")), json_integer_value(json_object_get(j, "width")),
               json_integer_value(json_object_get(j, "height")), json_array_size(json_object_get(j, "levels")),
               json_is_true(json_object_get(j, "srgb")) ? "sRGB" : "linear",
               json_string_value(json_object_get(j, "supercompression")),
               json_string_value(json_object_get(j, "writer")));
        size_t i;
        json_t *l;
        json_array_foreach(json_object_get(j, "levels"), i, l)
            printf("  level %zu: %lldx%lld, %lld bytes\n", i, json_integer_value(json_object_get(l, "width")),
                   json_integer_value(json_object_get(l, "height")), json_integer_value(json_object_get(l, "size")));
        json_t *cmp = json_object_get(j, "compare");
        if (cmp) {
            printf("  level 0 against %s: PSNR %.2f dB over %lld channel(s)",
                   json_string_value(json_object_get(cmp, "source")),
                   json_real_value(json_object_get(cmp, "psnr")),
                   json_integer_value(json_object_get(cmp, "channels")));
            if (json_object_get(cmp, "psnr_alpha"))
                printf(", alpha %.2f dB", json_real_value(json_object_get(cmp, "psnr_alpha")));
            putchar('\n');
        }
    } else {
        printf("%s: %s image %lldx%lld, %lld channels of %lld bits%s\n", path,
               json_string_value(json_object_get(j, "format")), json_integer_value(json_object_get(j, "width")),
               json_integer_value(json_object_get(j, "height")), json_integer_value(json_object_get(j, "channels")),
               json_integer_value(json_object_get(j, "bits")),
               json_is_true(json_object_get(j, "has_alpha")) ? ", with alpha" : "");
    }
    json_decref(j);
    kiln_cli_free(&c);
    return KILN_EXIT_OK;
}
