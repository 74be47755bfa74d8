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

bool kiln_dl_load_table(const char *library, const kiln_dl_entry *entries, size_t count,
                        void *table, size_t table_size, void **handle, char *why, size_t why_size)
{
    memset(table, 0, table_size);
    if (handle) *handle = NULL;
    void *lib = kiln_dl_open(library, why, why_size);
    if (!lib) return false;
    for (size_t i = 0; i < count; i++) {
        void *fn;
        if (entries[i].offset > table_size - sizeof fn ||
            !kiln_dl_sym(lib, entries[i].symbol, &fn, sizeof fn, why, why_size)) {
            if (entries[i].offset > table_size - sizeof fn)
                snprintf(why, why_size, "%s: entry outside its table", entries[i].symbol);
            memset(table, 0, table_size);
            dlclose(lib);
            return false;
        }
        memcpy((char *)table + entries[i].offset, &fn, sizeof fn);
    }
    if (handle) *handle = lib;
    return true;
}

bool kiln_dl_lazy_load(kiln_dl_lazy *lazy, const char *library, const kiln_dl_entry *entries,
                       size_t count, void *table, size_t table_size)
{
    int state = __atomic_load_n(&lazy->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&lazy->lock);
        state = lazy->state;
        if (state == 0) {
            bool ok = kiln_dl_load_table(library, entries, count, table, table_size, NULL,
                                         lazy->why, sizeof lazy->why);
            state = ok ? 1 : 2;
            __atomic_store_n(&lazy->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lazy->lock);
    }
    return state == 1;
}
