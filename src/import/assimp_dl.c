/* assimp_dl.c — libassimp loaded at run time in the guarded child (see assimp_dl.h). */
#include "import/assimp_dl.h"

#include <string.h>

#include "core/dl.h"

bool kiln_assimp_dl_load(const char *library, assimp_api *api, char *why, size_t why_size)
{
    memset(api, 0, sizeof *api);
    if (!library) library = ASSIMP_DL_DEFAULT;
    api->handle = kiln_dl_open(library, why, why_size);
    if (!api->handle) return false;
#define SYM(field) kiln_dl_sym(api->handle, "ai" #field, &api->field, sizeof api->field, why, why_size)
    return SYM(ImportFileExWithProperties) && SYM(ReleaseImport) && SYM(GetErrorString) &&
           SYM(CreatePropertyStore) && SYM(ReleasePropertyStore) && SYM(SetImportPropertyInteger) &&
           SYM(GetMaterialString) && SYM(GetMaterialColor) && SYM(GetMaterialFloatArray) &&
           SYM(GetMaterialIntegerArray) && SYM(GetMaterialTextureCount) && SYM(GetMaterialTexture);
#undef SYM
}
