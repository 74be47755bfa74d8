/* kv.h — tools/view, kiln's Vulkan reference renderer (docs/rendering.md): a headless Vulkan
 * context, the renderer side of libkiln_rt's callbacks for textures and shaders, an offscreen
 * target with read-back, and a textured quad drawn with kiln-cooked shaders. It is a client of
 * the public headers only (kiln_rt.h, kiln_format.h). Thread rules: one thread (the renderer
 * thread) for everything except kv_supports_format, which any thread may call. */
#ifndef KV_H
#define KV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_rt.h"

/* The stable code kv reports when Vulkan is not usable here: no loader (libvulkan.so.1), no
 * Vulkan 1.1 instance, no physical device with a graphics queue. Tests skip (exit 77) on it.
 * kiln_result has no code of its own for it (yet): kv uses "a feature it lacks". */
#define KV_E_UNAVAILABLE KILN_E_IMPORT_UNSUPPORTED

typedef struct kv_context kv_context;

/* What the debug-utils messenger saw: every warning and error, counted, the first few kept. */
#define KV_MAX_KEPT_MESSAGES 8
typedef struct kv_messages {
    uint32_t warnings, errors;
    uint32_t kept;
    char text[KV_MAX_KEPT_MESSAGES][512];
} kv_messages;

typedef struct kv_context_desc {
    uint32_t struct_size;     /* sizeof(kv_context_desc); 0 is taken as the current size */
    kiln_allocator allocator; /* all NULL = libc */
    const char *loader;       /* the Vulkan loader to open; NULL = "libvulkan.so.1" */
    bool no_validation;       /* do not enable VK_LAYER_KHRONOS_validation even when present */
    bool require_validation;  /* fail (KV_E_UNAVAILABLE) when the layer is absent */
} kv_context_desc;

/* Creates the instance (Vulkan 1.1+, the validation layer when present, a messenger), picks a
 * physical device with a graphics queue, makes the device, its queue and a command pool.
 * Errors: KV_E_UNAVAILABLE (see above), KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (a Vulkan call
 * failed: the message names it and its VkResult). */
kiln_result kv_context_create(const kv_context_desc *desc, kv_context **out, kiln_error *err);
void kv_context_destroy(kv_context *ctx); /* NULL is a no-op; waits for the device first */

/* The device's name and whether the validation layer is on. */
const char *kv_device_name(const kv_context *ctx);
bool kv_validation_enabled(const kv_context *ctx);
/* The Vulkan version in use (VK_MAKE_API_VERSION): the lower of the loader's and the device's,
 * at most 1.3. Shaders cooked for a newer target are refused by create_shader. */
uint32_t kv_api_version(const kv_context *ctx);

/* A copy of the messages so far (the messenger also runs during instance creation and
 * destruction of the objects made after it). */
void kv_messages_get(kv_context *ctx, kv_messages *out);

/* Whether a kiln_vk_format can be sampled with linear filtering on this device (a table made
 * at creation; any thread). */
bool kv_supports_format(const kv_context *ctx, uint32_t vk_format);

/* ---- offscreen target ---------------------------------------------------------------------- */

/* An R8G8B8A8_SRGB colour image and a depth image of one size, with the render pass and
 * framebuffer that draw into them. */
typedef struct kv_target kv_target;
kiln_result kv_target_create(kv_context *ctx, uint32_t width, uint32_t height, kv_target **out,
                             kiln_error *err);
void kv_target_destroy(kv_context *ctx, kv_target *t);
void kv_target_size(const kv_target *t, uint32_t *width, uint32_t *height);
/* Copies the colour image into rgba (width * height * 4 bytes, rows top to bottom, sRGB-encoded
 * as stored). Errors: KILN_E_USAGE (size too small), KILN_E_INTERNAL. */
kiln_result kv_target_read(kv_context *ctx, kv_target *t, uint8_t *rgba, size_t size,
                           kiln_error *err);

/* ---- libkiln_rt's renderer callbacks ------------------------------------------------------- */

/* Fills the renderer's callbacks for textures (create/destroy, supports_format) and shaders
 * (create/destroy), with ctx as user pointer. Meshes and materials: not yet (NULL). */
void kv_renderer_fill(kv_context *ctx, krt_renderer *r, krt_renderer_shaders *s);

/* The objects the callbacks make (krt_gpu returns them). */
typedef struct kv_texture kv_texture;
typedef struct kv_shader kv_shader;
uint32_t kv_texture_format(const kv_texture *t); /* the kiln_vk_format uploaded */

/* ---- drawing ------------------------------------------------------------------------------- */

/* A pipeline for a textured quad covering the target: the vertex shader makes the four corners
 * from gl_VertexIndex, the fragment shader samples set 0 binding 0 (a combined image sampler with
 * nearest filtering; tools/view/shaders/quad.frag reads level 0). Both shaders' variant
 * "default" (else variant 0). The pipeline works with any kv_target (they share one render
 * pass layout). Errors: KILN_E_USAGE (not a vertex and a fragment shader), Vulkan failures. */
typedef struct kv_quad kv_quad;
kiln_result kv_quad_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                           const kv_shader *frag, kv_quad **out, kiln_error *err);
void kv_quad_destroy(kv_context *ctx, kv_quad *q);
/* Clears the target and draws the quad sampling tex; waits for the GPU. */
kiln_result kv_quad_draw(kv_context *ctx, kv_quad *q, kv_target *t, const kv_texture *tex,
                         kiln_error *err);

/* ---- output -------------------------------------------------------------------------------- */

/* Writes RGBA8 pixels as a PNG (libspng). Errors: KILN_E_ASSET_IO, KILN_E_INTERNAL. */
kiln_result kv_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                         kiln_error *err);

#endif
