/* dl.h — a shared library opened at run time and its functions taken by name: how kiln keeps
 * libraries a command may never need out of its start-up (libspng, OpenEXRCore, libastcenc,
 * libcurl; libassimp in the FBX child).
 *
 * One pattern for all of them: the library's functions are a struct of function pointers (its
 * API table, typed from the library's own header with __typeof__), described by a list of
 * kiln_dl_entry (symbol name, field offset) and filled all at once by kiln_dl_load_table. A
 * library the cook opens on first use keeps its table in a kiln_dl_lazy: filled once, by
 * whichever thread needs it first, and only read after. Those tables are process-wide, as the
 * library they describe is; they never change once filled, so no caller can see them change. */
#ifndef KILN_CORE_DL_H
#define KILN_CORE_DL_H

#include <pthread.h>
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

/* One function of an API table: its symbol in the library and its field's offset. */
typedef struct kiln_dl_entry {
    const char *symbol;
    size_t offset;
} kiln_dl_entry;
#define KILN_DL_ENTRY(table_type, field, symbol)                                                   \
    {                                                                                              \
        symbol, offsetof(table_type, field)                                                        \
    }

/* Opens library and fills every entry of table (table_size bytes): all or nothing — on failure
 * the table is zeroed, the library closed, and why says what was missing. *handle (may be NULL)
 * receives the library's handle; it stays open for the process's life otherwise. */
bool kiln_dl_load_table(const char *library, const kiln_dl_entry *entries, size_t count,
                        void *table, size_t table_size, void **handle, char *why, size_t why_size);

/* A table filled on first use. */
typedef struct kiln_dl_lazy {
    pthread_mutex_t lock;
    int state;     /* 0 not tried yet, 1 loaded, 2 failed (read with acquire) */
    char why[200]; /* why it failed */
} kiln_dl_lazy;
#define KILN_DL_LAZY_INIT                                                                          \
    {                                                                                              \
        PTHREAD_MUTEX_INITIALIZER, 0, ""                                                           \
    }

/* Fills table from library the first time (kiln_dl_load_table) and says whether it is loaded;
 * later calls only read the outcome. On false, lazy->why says why. */
bool kiln_dl_lazy_load(kiln_dl_lazy *lazy, const char *library, const kiln_dl_entry *entries,
                       size_t count, void *table, size_t table_size);

#ifdef __cplusplus
}
#endif

#endif
