/* assimp_dl.c — libassimp loaded at run time in the guarded child (see assimp_dl.h), through
 * core/dl.h's one pattern for libraries opened at run time. */
#include "import/assimp_dl.h"

#include "core/dl.h"

#define E(field) KILN_DL_ENTRY(assimp_api, field, "ai" #field)
static const kiln_dl_entry entries[] = {
    E(ImportFileExWithProperties), E(ReleaseImport),           E(GetErrorString),
    E(CreatePropertyStore),        E(ReleasePropertyStore),    E(SetImportPropertyInteger),
    E(GetMaterialString),          E(GetMaterialColor),        E(GetMaterialFloatArray),
    E(GetMaterialIntegerArray),    E(GetMaterialTextureCount), E(GetMaterialTexture),
};
#undef E

bool kiln_assimp_dl_load(const char *library, assimp_api *api, char *why, size_t why_size)
{
    void *handle;
    bool ok = kiln_dl_load_table(library ? library : ASSIMP_DL_DEFAULT, entries,
                                 sizeof entries / sizeof entries[0], api, sizeof *api, &handle, why,
                                 why_size);
    api->handle = handle;
    return ok;
}
