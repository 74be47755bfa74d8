/* render_fixture.h — what the render tests share: the Vulkan drivers named in $KILN_RENDER_PIN
 * kept loaded for the whole test, a context under the validation layer (or a skip), and the
 * check that the messenger saw nothing. */
#ifndef RENDER_FIXTURE_H
#define RENDER_FIXTURE_H

#include "kv.h"

/* Opens each library of $KILN_RENDER_PIN (names separated by ':'; absent ones are ignored) and
 * never closes it. Why: the Vulkan loader unloads the driver in vkDestroyInstance, and lavapipe
 * (Mesa 22.3) leaves a 128-byte block of its own behind each time; unloaded, LeakSanitizer can
 * neither name the module nor be told to ignore it. Pinned, the block stays reachable from the
 * driver's statics and the reports show only kiln's own leaks. */
void render_pin_drivers(void);

/* A context with the validation layer required, or exit 77 (a line on stdout says why) when
 * this machine has no Vulkan loader, device or layer; any other failure fails the test. */
kv_context *render_context_or_skip(void);

/* Fails the test when the messenger recorded a warning or an error (each one printed). */
void render_assert_no_messages(kv_context *ctx);

#endif
