/* view_glfw.h — GLFW for `kiln view`, opened at run time (view_glfw.c): the kiln command maps no
 * window-system library at start-up (tests/cli/kiln_starts_without_heavy_libraries.sh), as it
 * opens libspng or libcurl only where they are used. GLFW's header gives the types (__typeof__:
 * a changed signature fails to compile). Built only where GLFW's and Vulkan's headers were found
 * (KILN_HAVE_GLFW). */
#ifndef KILN_TOOLS_VIEW_GLFW_H
#define KILN_TOOLS_VIEW_GLFW_H

#define GLFW_INCLUDE_VULKAN /* glfwCreateWindowSurface is declared with Vulkan's types only */
#include <GLFW/glfw3.h>

#include "kiln/kiln.h"

#define KILN_GLFW_FUNCTIONS(X)                                                                     \
    X(glfwInit)                                                                                    \
    X(glfwTerminate)                                                                               \
    X(glfwGetError)                                                                                \
    X(glfwVulkanSupported)                                                                         \
    X(glfwGetRequiredInstanceExtensions)                                                           \
    X(glfwWindowHint)                                                                              \
    X(glfwCreateWindow)                                                                            \
    X(glfwDestroyWindow)                                                                           \
    X(glfwWindowShouldClose)                                                                       \
    X(glfwSetWindowShouldClose)                                                                    \
    X(glfwSetWindowTitle)                                                                          \
    X(glfwGetFramebufferSize)                                                                      \
    X(glfwSetWindowSize)                                                                           \
    X(glfwSetWindowUserPointer)                                                                    \
    X(glfwGetWindowUserPointer)                                                                    \
    X(glfwPollEvents)                                                                              \
    X(glfwWaitEvents)                                                                              \
    X(glfwSetKeyCallback)                                                                          \
    X(glfwSetMouseButtonCallback)                                                                  \
    X(glfwSetCursorPosCallback)                                                                    \
    X(glfwSetScrollCallback)                                                                       \
    X(glfwGetTime)                                                                                 \
    X(glfwCreateWindowSurface)

typedef struct kiln_glfw {
    void *lib;
#define KILN_GLFW_MEMBER(fn) __typeof__(&fn) fn;
    KILN_GLFW_FUNCTIONS(KILN_GLFW_MEMBER)
#undef KILN_GLFW_MEMBER
} kiln_glfw;

/* Opens libglfw.so.3 and fills g. Errors: KILN_E_IMPORT_UNSUPPORTED (no library, or one that
 * lacks a function: the message says which and names the Debian package). */
kiln_result kiln_glfw_open(kiln_glfw *g, kiln_error *err);
/* Forgets the library after glfwTerminate, without unloading it: X11 (and the drivers GLFW
 * loaded) keep blocks hanging off their statics after glfwTerminate; unloaded, those become
 * unreachable and LeakSanitizer reports them with no module to name (measured: 46 KB in 790
 * blocks for one window). The command ends soon after; nothing is lost by keeping it mapped. */
void kiln_glfw_close(kiln_glfw *g);

/* The user pointer of a window, for GLFW's input callbacks, which get only the window: GLFW is
 * looked up again (dlopen RTLD_NOLOAD: already loaded, nothing mapped) since kiln keeps no global
 * state where a callback could find the table. NULL when GLFW is not loaded. */
void *kiln_glfw_user_pointer(GLFWwindow *window);

/* GLFW's last error as text ("no error" when none). */
const char *kiln_glfw_error(const kiln_glfw *g);

#endif
