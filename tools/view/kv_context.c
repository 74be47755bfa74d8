/* kv_context.c — the headless Vulkan context: instance (with the validation layer and a
 * messenger when present), a physical device with a graphics queue, the device, its queue and a
 * command pool. Headless unless the caller asks for presentation (kv_present.c). */
#include <stdio.h>
#include <string.h>

#include "kv_internal.h"
#include "kv_scene.h"

#define KV_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

static bool has_layer(kv_context *ctx, const char *name)
{
    uint32_t n = 0;
    if (ctx->vk.vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) return false;
    VkLayerProperties *p = kv_alloc(ctx, n * sizeof *p);
    if (!p) return false;
    bool found = false;
    if (ctx->vk.vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].layerName, name) == 0;
    kv_free(ctx, p, n * sizeof *p);
    return found;
}

/* Whether the loader, or the layer when given, offers the instance extension. */
static bool has_extension(kv_context *ctx, const char *layer, const char *name)
{
    uint32_t n = 0;
    if (ctx->vk.vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *p = kv_alloc(ctx, n * sizeof *p);
    if (!p) return false;
    bool found = false;
    if (ctx->vk.vkEnumerateInstanceExtensionProperties(layer, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].extensionName, name) == 0;
    kv_free(ctx, p, n * sizeof *p);
    return found;
}

static kiln_result create_instance(kv_context *ctx, const kv_context_desc *d, kiln_error *err)
{
    uint32_t version = VK_API_VERSION_1_0;
    if (ctx->vk.vkEnumerateInstanceVersion) ctx->vk.vkEnumerateInstanceVersion(&version);
    if (VK_API_VERSION_MAJOR(version) == 1 && VK_API_VERSION_MINOR(version) < 1)
        return kv_error(err, KV_E_UNAVAILABLE,
                        "vulkan: the loader offers Vulkan %u.%u; kv needs 1.1",
                        VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
    /* The newest version both know, up to 1.3: kiln cooks SPIR-V for Vulkan 1.2 by default
     * (SPIR-V 1.5), which a 1.1 device must refuse (kv_shader.c checks). */
    ctx->api_version = version < VK_API_VERSION_1_3 ? version : VK_API_VERSION_1_3;
    bool layer = !d->no_validation && has_layer(ctx, KV_VALIDATION_LAYER);
    if (d->require_validation && !layer)
        return kv_error(err, KV_E_UNAVAILABLE,
                        "vulkan: %s is not installed (Debian: vulkan-validationlayers)",
                        KV_VALIDATION_LAYER);
    bool debug =
        has_extension(ctx, NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
        (layer && has_extension(ctx, KV_VALIDATION_LAYER, VK_EXT_DEBUG_UTILS_EXTENSION_NAME));

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "kiln view",
        .pEngineName = "kiln",
        .apiVersion = ctx->api_version,
    };
    const char *layers[] = {KV_VALIDATION_LAYER};
    const char *extensions[17] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    uint32_t extension_count = debug ? 1 : 0;
    if (d->instance_extension_count > 16)
        return kv_error(err, KILN_E_USAGE, "kv_context_desc: more than 16 instance extensions");
    for (uint32_t i = 0; i < d->instance_extension_count; i++) {
        if (!has_extension(ctx, NULL, d->instance_extensions[i]))
            return kv_error(err, KV_E_UNAVAILABLE, "vulkan: the loader lacks %s",
                            d->instance_extensions[i]);
        extensions[extension_count++] = d->instance_extensions[i];
    }
    VkDebugUtilsMessengerCreateInfoEXT messenger;
    kv_messenger_info(ctx, &messenger);
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = debug ? &messenger : NULL, /* messages of vkCreate/DestroyInstance too */
        .pApplicationInfo = &app,
        .enabledLayerCount = layer ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = extension_count,
        .ppEnabledExtensionNames = extensions,
    };
    VkResult r = ctx->vk.vkCreateInstance(&info, NULL, &ctx->instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return kv_error(err, KV_E_UNAVAILABLE, "vulkan: no driver (Debian: mesa-vulkan-drivers)");
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateInstance");
    ctx->validation = layer;
    kiln_result k = kv_vk_load_instance(&ctx->vk, ctx->instance, err);
    if (k) return k;
    if (debug && ctx->vk.vkCreateDebugUtilsMessengerEXT) {
        r = ctx->vk.vkCreateDebugUtilsMessengerEXT(ctx->instance, &messenger, NULL,
                                                   &ctx->messenger);
        if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDebugUtilsMessengerEXT");
    }
    return KILN_OK;
}

/* The first device (in the loader's order) with Vulkan 1.1 and a graphics queue. */
static kiln_result pick_device(kv_context *ctx, kiln_error *err)
{
    uint32_t n = 0;
    VkResult r = ctx->vk.vkEnumeratePhysicalDevices(ctx->instance, &n, NULL);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkEnumeratePhysicalDevices");
    if (n == 0)
        return kv_error(err, KV_E_UNAVAILABLE,
                        "vulkan: no physical device (Debian: mesa-vulkan-drivers for lavapipe)");
    VkPhysicalDevice *devices = kv_alloc(ctx, n * sizeof *devices);
    if (!devices) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    r = ctx->vk.vkEnumeratePhysicalDevices(ctx->instance, &n, devices);
    for (uint32_t i = 0; r >= 0 && i < n && !ctx->physical; i++) {
        VkPhysicalDeviceProperties p;
        ctx->vk.vkGetPhysicalDeviceProperties(devices[i], &p);
        if (VK_API_VERSION_MAJOR(p.apiVersion) == 1 && VK_API_VERSION_MINOR(p.apiVersion) < 1)
            continue;
        uint32_t qn = 0;
        ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &qn, NULL);
        VkQueueFamilyProperties q[16];
        if (qn > 16) qn = 16;
        ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &qn, q);
        for (uint32_t f = 0; f < qn; f++) {
            if (q[f].queueCount > 0 && (q[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
                ctx->physical = devices[i];
                ctx->properties = p;
                if (p.apiVersion < ctx->api_version) ctx->api_version = p.apiVersion;
                ctx->queue_family = f;
                break;
            }
        }
    }
    kv_free(ctx, devices, n * sizeof *devices);
    if (r < 0) return kv_vk_fail(err, r, "vkEnumeratePhysicalDevices");
    if (!ctx->physical)
        return kv_error(err, KV_E_UNAVAILABLE,
                        "vulkan: none of %u devices has Vulkan 1.1 and a graphics queue", n);
    ctx->vk.vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);
    return KILN_OK;
}

static kiln_result create_device(kv_context *ctx, kiln_error *err)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = ctx->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkPhysicalDeviceFeatures have, want;
    ctx->vk.vkGetPhysicalDeviceFeatures(ctx->physical, &have);
    memset(&want, 0, sizeof want);
    /* Sampled block formats need their family's feature on. */
    want.textureCompressionBC = have.textureCompressionBC;
    want.textureCompressionETC2 = have.textureCompressionETC2;
    want.textureCompressionASTC_LDR = have.textureCompressionASTC_LDR;
    const char *swapchain[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = ctx->presentation ? 1 : 0,
        .ppEnabledExtensionNames = swapchain,
        .pEnabledFeatures = &want,
    };
    VkResult r = ctx->vk.vkCreateDevice(ctx->physical, &info, NULL, &ctx->device);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDevice");
    kiln_result k = kv_vk_load_device(&ctx->vk, ctx->device, err);
    if (k) return k;
    ctx->vk.vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    r = ctx->vk.vkCreateCommandPool(ctx->device, &pool, NULL, &ctx->pool);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateCommandPool");
    return KILN_OK;
}

kiln_result kv_context_create(const kv_context_desc *desc, kv_context **out, kiln_error *err)
{
    *out = NULL;
    kv_context_desc d;
    memset(&d, 0, sizeof d);
    if (desc) {
        size_t size = desc->struct_size ? desc->struct_size : sizeof d;
        if (size > sizeof d)
            return kv_error(err, KILN_E_USAGE, "kv_context_desc: struct_size too large");
        memcpy(&d, desc, size);
    }
    kv_context boot;
    memset(&boot, 0, sizeof boot);
    boot.allocator = d.allocator;
    kv_context *ctx = kv_calloc(&boot, sizeof *ctx);
    if (!ctx) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    ctx->allocator = d.allocator;
    pthread_mutex_init(&ctx->messages_lock, NULL);
    kiln_result k = kv_vk_open(&ctx->vk, d.loader, err);
    ctx->presentation = d.instance_extension_count > 0;
    if (!k) k = create_instance(ctx, &d, err);
    if (!k) k = pick_device(ctx, err);
    if (!k) k = create_device(ctx, err);
    if (k) {
        kv_context_destroy(ctx);
        return k;
    }
    kv_formats_query(ctx);
    *out = ctx;
    return KILN_OK;
}

uint32_t kv_context_destroy_checked(kv_context *ctx)
{
    if (!ctx) return 0;
    uint32_t before = 0, after = 0;
    pthread_mutex_lock(&ctx->messages_lock);
    before = ctx->messages.errors + ctx->messages.warnings;
    pthread_mutex_unlock(&ctx->messages_lock);
    if (ctx->device) {
        ctx->vk.vkDeviceWaitIdle(ctx->device);
        kv_layouts_destroy(ctx);
        if (ctx->pool) ctx->vk.vkDestroyCommandPool(ctx->device, ctx->pool, NULL);
        ctx->vk.vkDestroyDevice(ctx->device, NULL);
    }
    /* The validation layer's object tracker reports what is still alive when the device goes:
     * a buffer, image, pipeline ... kv (or its caller) did not destroy. */
    pthread_mutex_lock(&ctx->messages_lock);
    after = ctx->messages.errors + ctx->messages.warnings;
    for (uint32_t i = before; i < after && i < ctx->messages.kept; i++)
        fprintf(stderr, "kv: at device destruction: %s\n", ctx->messages.text[i]);
    pthread_mutex_unlock(&ctx->messages_lock);
    if (ctx->instance) {
        if (ctx->messenger)
            ctx->vk.vkDestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, NULL);
        ctx->vk.vkDestroyInstance(ctx->instance, NULL);
    }
    kv_vk_close(&ctx->vk);
    pthread_mutex_destroy(&ctx->messages_lock);
    kv_context boot = {.allocator = ctx->allocator};
    kv_free(&boot, ctx, sizeof *ctx);
    return after - before;
}

void kv_context_destroy(kv_context *ctx) { (void)kv_context_destroy_checked(ctx); }

const char *kv_device_name(const kv_context *ctx) { return ctx->properties.deviceName; }
bool kv_validation_enabled(const kv_context *ctx) { return ctx->validation; }
uint32_t kv_api_version(const kv_context *ctx) { return ctx->api_version; }
