/* render_pin.h — keeps the Vulkan drivers named in $KILN_RENDER_PIN loaded for the whole test. */
#ifndef RENDER_PIN_H
#define RENDER_PIN_H

/* Opens each library of $KILN_RENDER_PIN (names separated by ':'; absent ones are ignored) and
 * never closes it. Why: the Vulkan loader unloads the driver in vkDestroyInstance, and lavapipe
 * (Mesa 22.3) leaves a 128-byte block of its own behind each time; unloaded, LeakSanitizer can
 * neither name the module nor be told to ignore it. Pinned, the block stays reachable from the
 * driver's statics and the reports show only kiln's own leaks. */
void render_pin_drivers(void);

#endif
