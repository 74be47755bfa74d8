/* assimp_dl.c — libassimp loaded at run time in the guarded child (see assimp_dl.h). */
#include "import/assimp_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* dlsym returns an object pointer; POSIX guarantees it converts to a function pointer, which
 * ISO C leaves undefined: copy the bytes instead of casting. */
static bool sym(void *handle, const char *name, void *fn, size_t fn_size, char *why, size_t why_size)
{
    dlerror();
    void *p = dlsym(handle, name);
    if (!p) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : name);
        return false;
    }
    if (fn_size != sizeof p) {
        snprintf(why, why_size, "function pointers differ in size from data pointers");
        return false;
    }
    memcpy(fn, &p, sizeof p);
    return true;
}

bool kiln_assimp_dl_load(const char *library, assimp_api *api, char *why, size_t why_size)
{
    memset(api, 0, sizeof *api);
    if (!library) library = ASSIMP_DL_DEFAULT;
    api->handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!api->handle) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : library);
        return false;
    }
#define SYM(field) sym(api->handle, "ai" #field, &api->field, sizeof api->field, why, why_size)
    return SYM(ImportFileExWithProperties) && SYM(ReleaseImport) && SYM(GetErrorString) &&
           SYM(CreatePropertyStore) && SYM(ReleasePropertyStore) && SYM(SetImportPropertyInteger) &&
           SYM(GetMaterialString) && SYM(GetMaterialColor) && SYM(GetMaterialFloatArray) &&
           SYM(GetMaterialIntegerArray) && SYM(GetMaterialTextureCount) && SYM(GetMaterialTexture);
#undef SYM
}
