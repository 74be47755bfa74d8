/* dl.c — see dl.h. */
#include "core/dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *kiln_dl_open(const char *library, char *why, size_t why_size)
{
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : library);
    }
    return handle;
}

bool kiln_dl_sym(void *handle, const char *name, void *fn, size_t fn_size, char *why,
                 size_t why_size)
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
