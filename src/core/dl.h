/* dl.h — a shared library opened at run time and its functions taken by name: how kiln keeps
 * libraries a command may never need out of its start-up (libspng, OpenEXRCore, libastcenc,
 * libcurl; libassimp in the FBX child). Each user keeps its own table of functions. */
#ifndef KILN_CORE_DL_H
#define KILN_CORE_DL_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dlopen(library, RTLD_NOW | RTLD_LOCAL), or NULL with why (dlerror's text, which names the
 * library). */
void *kiln_dl_open(const char *library, char *why, size_t why_size);

/* Stores the address of function name from handle into *fn (a function pointer of fn_size
 * bytes): dlsym gives an object pointer, which POSIX lets convert to a function pointer and ISO
 * C does not, so the bytes are copied rather than cast. false with why when it is missing. */
bool kiln_dl_sym(void *handle, const char *name, void *fn, size_t fn_size, char *why,
                 size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
