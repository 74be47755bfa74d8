/* inspect_image.c — the inspect document of a source image (inspect.h): what the decoder finds
 * (format, size, the source's channels and bits, the pixel type kiln converts to, alpha). */
#include "pipeline/inspect.h"

#include "import/image.h"

kiln_result kiln_inspect_image(const uint8_t *data, size_t size, const char *name, json_t **out,
                               kiln_error *err)
{
    kiln_image_opts o = {0};
    o.name_hint = name;
    kiln_image img;
    kiln_result r = kiln_image_decode(data, size, &o, &img, err);
    if (r != KILN_OK) return r;
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
    *out = j;
    return KILN_OK;
}
