/* shader_toolchain.c — kiln_shader_toolchain (see shader_compile.h): the versions of what turns
 * a shader source into bytes, for cache keys. Its own file: libspirv.h defines a constant with
 * external linkage in C, so only one translation unit may include it next to another
 * (shader_validate.c is the other one; they are never linked twice). */
#include <shaderc/shaderc.h>
#include <stdio.h>

#include "process/shader_compile.h"

/* SPIRV-Tools' version, through the one file that includes libspirv.h (shader_validate.c). */
const char *kiln_spirv_tools_version(void);

const char *kiln_shader_toolchain(char *out, size_t cap)
{
    if (!out || cap == 0) return out;
    unsigned spv = 0, rev = 0;
    shaderc_get_spv_version(&spv, &rev);
    /* shaderc has no run-time version call: the pkg-config version it was built against, with
     * the SPIR-V version and revision the loaded library reports; SPIRV-Cross's is its C API
     * version from pkg-config (only kiln_shader_reflect calls SPIRV-Cross). */
    snprintf(out, cap, "shaderc %s (spirv 0x%x r%u); spirv-tools %s; spirv-cross %s",
             KILN_SHADERC_VERSION, spv, rev, kiln_spirv_tools_version(), KILN_SPIRV_CROSS_VERSION);
    return out;
}
