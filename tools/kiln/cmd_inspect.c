/* cmd_inspect.c — kiln inspect FILE: what an image or a KTX2 file holds. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/file.h"
#include "format/vk_format.h"
#include "import/image.h"

#define INSPECT_MAX_SIZE ((size_t)2 << 30)

static const uint8_t ktx2_id[12] = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'};

static json_t *inspect_ktx2(const uint8_t *data, size_t size, kiln_result *r, kiln_error *err)
{
    kiln_ktx2_info info;
    *r = kiln_ktx2_read(data, size, &info, err);
    if (*r != KILN_OK) return NULL;
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
    if (!kiln_cli_parse(&c, argc, argv, "")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    kiln_error err;
    int code;
    if (c.positional_count != 1) {
        kiln_error e = {.code = KILN_E_USAGE};
        snprintf(e.message, sizeof e.message, "inspect takes exactly one FILE");
        code = kiln_cli_fail(&c, KILN_E_USAGE, &e);
        kiln_cli_free(&c);
        return code;
    }
    const char *path = c.positional[0];
    kiln_mapped_file m;
    kiln_result r = kiln_file_map(path, INSPECT_MAX_SIZE, &m, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
        kiln_cli_free(&c);
        return code;
    }
    json_t *j = m.size >= 12 && !memcmp(m.data, ktx2_id, 12) ? inspect_ktx2(m.data, m.size, &r, &err)
                                                              : inspect_image(m.data, m.size, path, &r, &err);
    kiln_file_unmap(&m);
    if (!j) {
        code = kiln_cli_fail(&c, r, &err);
        kiln_cli_free(&c);
        return code;
    }
    json_object_set_new(j, "command", json_string("inspect"));
    json_object_set_new(j, "file", json_string(path));
    if (c.json) {
        char *s = json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2));
        kiln_cli_print_json(s);
        free(s);
    } else if (!strcmp(json_string_value(json_object_get(j, "type")), "ktx2")) {
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
