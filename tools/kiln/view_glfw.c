/* view_glfw.c — libglfw.so.3 opened with dlopen when `kiln view` starts (view_glfw.h says why). */
#ifdef KILN_HAVE_GLFW
#include <dlfcn.h>
#include <string.h>

#include "thumbnail.h"
#include "view_glfw.h"

kiln_result kiln_glfw_open(kiln_glfw *g, kiln_error *err)
{
    memset(g, 0, sizeof *g);
    void *lib = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                "kiln view needs GLFW (Debian package libglfw3): %.150s",
                                dlerror());
    const char *missing = NULL;
    /* POSIX: a void * from dlsym converts to a function pointer. */
#define KILN_GLFW_LOAD(fn)                                                                         \
    {                                                                                              \
        void *s = dlsym(lib, #fn);                                                                 \
        if (!s && !missing) missing = #fn;                                                         \
        memcpy(&g->fn, &s, sizeof s);                                                              \
    }
    KILN_GLFW_FUNCTIONS(KILN_GLFW_LOAD)
#undef KILN_GLFW_LOAD
    if (missing) {
        dlclose(lib);
        memset(g, 0, sizeof *g);
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                "kiln view needs GLFW 3.3 or later: libglfw.so.3 lacks %s",
                                missing);
    }
    g->lib = lib;
    return KILN_OK;
}

void kiln_glfw_close(kiln_glfw *g)
{
    memset(g, 0, sizeof *g); /* not dlclose: view_glfw.h says why */
}

void *kiln_glfw_user_pointer(GLFWwindow *window)
{
    void *lib = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib) return NULL;
    void *s = dlsym(lib, "glfwGetWindowUserPointer");
    __typeof__(&glfwGetWindowUserPointer) get = NULL;
    memcpy(&get, &s, sizeof s);
    void *user = get ? get(window) : NULL;
    dlclose(lib); /* drops the reference this call took; the library stays loaded */
    return user;
}

const char *kiln_glfw_error(const kiln_glfw *g)
{
    const char *text = NULL;
    if (g->glfwGetError) g->glfwGetError(&text);
    return text ? text : "no error";
}
#endif
