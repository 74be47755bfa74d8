/* sniff.c — kiln_sniff_describe: the signatures of the files kiln reads or writes, in the order
 * the importers and the inspector test them (images first: a Radiance HDR header starts with '#',
 * which an OBJ comment does too). */
#include "import/sniff.h"

#include <stdint.h>
#include <string.h>

#include "codec/vk_format.h"
#include "import/assimp.h"
#include "import/gltf.h"
#include "import/image.h"

const char *kiln_sniff_describe(const void *data, size_t size)
{
    const uint8_t *p = data;
    if (!p) return NULL;
    const char *image = kiln_image_format_description(kiln_image_detect(p, size, NULL));
    if (image) return image;
    if (size >= sizeof kiln_ktx2_identifier &&
        !memcmp(p, kiln_ktx2_identifier, sizeof kiln_ktx2_identifier))
        return "a KTX2 texture";
    if (size >= 4 && !memcmp(p, "KILN", 4)) return "a kiln container";
    if (size >= 4 && !memcmp(p, "KPAK", 4)) return "a kiln pack";
    if (size >= 4 && !memcmp(p, "glTF", 4)) return "a GLB file";
    if (kiln_gltf_detect(p, size)) return "a JSON document";
    switch (kiln_assimp_detect(p, size)) {
    case KILN_ASSIMP_FBX:
        return "an FBX file";
    case KILN_ASSIMP_OBJ:
        return "an OBJ file";
    case KILN_ASSIMP_NONE:
        break;
    }
    return NULL;
}
