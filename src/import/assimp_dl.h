/* assimp_dl.h — libassimp's C API as a table of function pointers, filled by dlopen in the
 * guarded child (assimp_read.c) so that no kiln process links libassimp: its 10 MB of C++
 * cost every `kiln` run ~2.7 ms of relocations at start-up, for a library only an FBX or OBJ
 * import uses, and only ever in the child. assimp's own headers give the types. */
#ifndef KILN_IMPORT_ASSIMP_DL_H
#define KILN_IMPORT_ASSIMP_DL_H

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <stdbool.h>
#include <stddef.h>

/* The soname Debian's libassimp5 installs (5.x keep the C API used here). */
#define ASSIMP_DL_DEFAULT "libassimp.so.5"

/* The functions kiln calls. __typeof__ takes each type from assimp's own declaration, so a
 * header that changes a signature fails to compile instead of calling through a wrong type. */
typedef struct assimp_api {
    void *handle;
    __typeof__(&aiImportFileExWithProperties) ImportFileExWithProperties;
    __typeof__(&aiReleaseImport) ReleaseImport;
    __typeof__(&aiGetErrorString) GetErrorString;
    __typeof__(&aiCreatePropertyStore) CreatePropertyStore;
    __typeof__(&aiReleasePropertyStore) ReleasePropertyStore;
    __typeof__(&aiSetImportPropertyInteger) SetImportPropertyInteger;
    __typeof__(&aiGetMaterialString) GetMaterialString;
    __typeof__(&aiGetMaterialColor) GetMaterialColor;
    __typeof__(&aiGetMaterialFloatArray) GetMaterialFloatArray;
    __typeof__(&aiGetMaterialIntegerArray) GetMaterialIntegerArray;
    __typeof__(&aiGetMaterialTextureCount) GetMaterialTextureCount;
    __typeof__(&aiGetMaterialTexture) GetMaterialTexture;
} assimp_api;

/* Loads library (NULL: ASSIMP_DL_DEFAULT) with RTLD_NOW | RTLD_LOCAL and fills api. false
 * with why (dlerror's text, or the missing symbol) when the library or a function is missing.
 * Only called in the child: the library stays loaded until the process exits. */
bool kiln_assimp_dl_load(const char *library, assimp_api *api, char *why, size_t why_size);

#endif
