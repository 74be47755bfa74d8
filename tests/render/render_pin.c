/* render_pin.c — see render_pin.h. */
#include "render_pin.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

void render_pin_drivers(void)
{
    const char *list = getenv("KILN_RENDER_PIN");
    if (!list) return;
    char name[256];
    while (*list) {
        size_t n = strcspn(list, ":");
        if (n > 0 && n < sizeof name) {
            memcpy(name, list, n);
            name[n] = '\0';
            (void)dlopen(name, RTLD_NOW | RTLD_LOCAL); /* kept open on purpose */
        }
        list += n;
        if (*list == ':') list++;
    }
}
