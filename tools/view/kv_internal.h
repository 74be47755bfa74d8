/* kv_internal.h — what kv's files share: the context and the small helpers every object needs
 * (allocation through the caller's hooks, memory types, buffers, one-shot command buffers). */
#ifndef KV_INTERNAL_H
#define KV_INTERNAL_H

#include <pthread.h>

#include "kv.h"
#include "kv_error.h"
#include "kv_vk.h"

/* The kiln_vk_formats kv can upload, in one table (kv_format.c). */
#define KV_FORMAT_COUNT 25

struct kv_context {
    kiln_allocator allocator;
    kv_vk vk;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    bool validation;
    bool presentation;    /* VK_KHR_swapchain enabled (kv_present.c) */
    uint32_t api_version; /* what the instance asked for, then min(that, the device's) */
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    uint32_t queue_family;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    /* supports_format's answers, made once (job threads read them). */
    uint32_t formats[KV_FORMAT_COUNT];
    bool sampled[KV_FORMAT_COUNT];
    /* The messenger's record: it may run on any thread that calls Vulkan. */
    pthread_mutex_t messages_lock;
    kv_messages messages;
    /* Mesh drawing's layouts and fallbacks, made on first use (kv_scene.h). */
    struct kv_layouts *layouts;
};

void *kv_alloc(kv_context *ctx, size_t size);
void *kv_calloc(kv_context *ctx, size_t size);
void kv_free(kv_context *ctx, void *p, size_t size);

/* The debug-utils messenger's callback (kv_messages.c); user data is the context. */
VKAPI_ATTR VkBool32 VKAPI_CALL kv_on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT types,
                                             const VkDebugUtilsMessengerCallbackDataEXT *data,
                                             void *user);
void kv_messenger_info(kv_context *ctx, VkDebugUtilsMessengerCreateInfoEXT *info);

/* Fills the supports table (kv_format.c). */
void kv_formats_query(kv_context *ctx);

/* The callbacks (kv_texture.c, kv_shader.c); user is the context. */
kiln_result kv_create_texture(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                              kiln_error *err);
void kv_destroy_texture(void *user, krt_handle h, void *gpu);
kiln_result kv_create_shader(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                             kiln_error *err);
void kv_destroy_shader(void *user, krt_handle h, void *gpu);

/* Memory: a type index among `bits` with the properties, or UINT32_MAX. */
uint32_t kv_memory_type(const kv_context *ctx, uint32_t bits, VkMemoryPropertyFlags props);
/* Allocates and binds memory for an image (device-local). */
kiln_result kv_image_memory(kv_context *ctx, VkImage image, VkDeviceMemory *out, kiln_error *err);

/* A host-visible, coherent buffer of `size` bytes, mapped. */
typedef struct kv_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
} kv_buffer;
kiln_result kv_buffer_create(kv_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                             kv_buffer *out, kiln_error *err);
void kv_buffer_destroy(kv_context *ctx, kv_buffer *b);

/* One-shot commands: begin gives a recording command buffer; end submits it, waits on a fence
 * and frees it (also when recording failed: pass ok = false to only free). */
kiln_result kv_once_begin(kv_context *ctx, VkCommandBuffer *out, kiln_error *err);
kiln_result kv_once_end(kv_context *ctx, VkCommandBuffer cmd, bool ok, kiln_error *err);

/* A layout transition of every level of a colour image. */
void kv_image_barrier(kv_context *ctx, VkCommandBuffer cmd, VkImage image,
                      VkImageAspectFlags aspect, uint32_t levels, VkImageLayout from,
                      VkImageLayout to, VkAccessFlags src_access, VkAccessFlags dst_access,
                      VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage);

#endif
