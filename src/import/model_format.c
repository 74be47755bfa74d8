/* model_format.c — the model importer of a file name or of its bytes (model_format.h). */
#include "import/model_format.h"

#include <strings.h>

#include "core/path.h"
#include "import/gltf.h"

/* One list: the extension at i reads with the format at i. */
const char *const kiln_model_extensions[] = {"gltf", "glb", "fbx", "obj", NULL};
static const kiln_model_format extension_formats[] = {
    KILN_MODEL_FORMAT_GLTF, KILN_MODEL_FORMAT_GLTF, KILN_MODEL_FORMAT_FBX, KILN_MODEL_FORMAT_OBJ};
_Static_assert(sizeof extension_formats / sizeof extension_formats[0] + 1 ==
                   sizeof kiln_model_extensions / sizeof kiln_model_extensions[0],
               "a format per extension");

kiln_model_format kiln_model_format_of_name(const char *name)
{
    if (!name) return KILN_MODEL_FORMAT_NONE;
    const char *ext = kiln_path_extension(name);
    for (size_t i = 0; kiln_model_extensions[i]; i++)
        if (!strcasecmp(ext, kiln_model_extensions[i])) return extension_formats[i];
    return KILN_MODEL_FORMAT_NONE;
}

kiln_model_format kiln_model_format_of_bytes(const void *data, size_t size)
{
    if (kiln_gltf_detect(data, size)) return KILN_MODEL_FORMAT_GLTF;
    switch (kiln_assimp_detect(data, size)) {
    case KILN_ASSIMP_FBX:
        return KILN_MODEL_FORMAT_FBX;
    case KILN_ASSIMP_OBJ:
        return KILN_MODEL_FORMAT_OBJ;
    case KILN_ASSIMP_NONE:
        break;
    }
    return KILN_MODEL_FORMAT_NONE;
}

kiln_model_format kiln_model_format_choose(const char *name, const void *data, size_t size)
{
    kiln_model_format f = kiln_model_format_of_name(name);
    return f != KILN_MODEL_FORMAT_NONE ? f : kiln_model_format_of_bytes(data, size);
}

kiln_assimp_format kiln_model_format_assimp(kiln_model_format f)
{
    return f == KILN_MODEL_FORMAT_FBX   ? KILN_ASSIMP_FBX
           : f == KILN_MODEL_FORMAT_OBJ ? KILN_ASSIMP_OBJ
                                        : KILN_ASSIMP_NONE;
}
