/* kv_vk.c — see kv_vk.h. */
#include "kv_vk.h"

#include <dlfcn.h>
#include <string.h>

#include "kv.h"
#include "kv_error.h"

kiln_result kv_vk_open(kv_vk *vk, const char *loader, kiln_error *err)
{
    memset(vk, 0, sizeof *vk);
    const char *name = loader ? loader : "libvulkan.so.1";
    vk->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!vk->lib)
        return kv_error(err, KV_E_UNAVAILABLE,
                        "vulkan: no loader: cannot open %s (install libvulkan1)", name);
    /* POSIX: a function pointer from dlsym goes through a data pointer. */
    void *sym = dlsym(vk->lib, "vkGetInstanceProcAddr");
    memcpy(&vk->vkGetInstanceProcAddr, &sym, sizeof sym);
    if (!vk->vkGetInstanceProcAddr) {
        kv_vk_close(vk);
        return kv_error(err, KV_E_UNAVAILABLE, "vulkan: %s has no vkGetInstanceProcAddr", name);
    }
#define KV_LOAD(fn) vk->fn = (PFN_##fn)vk->vkGetInstanceProcAddr(NULL, #fn);
    KV_VK_GLOBAL(KV_LOAD)
#undef KV_LOAD
    if (!vk->vkCreateInstance || !vk->vkEnumerateInstanceLayerProperties ||
        !vk->vkEnumerateInstanceExtensionProperties) {
        kv_vk_close(vk);
        return kv_error(err, KV_E_UNAVAILABLE, "vulkan: %s lacks the global entry points", name);
    }
    return KILN_OK;
}

kiln_result kv_vk_load_instance(kv_vk *vk, VkInstance instance, kiln_error *err)
{
#define KV_LOAD(fn) vk->fn = (PFN_##fn)vk->vkGetInstanceProcAddr(instance, #fn);
    KV_VK_INSTANCE(KV_LOAD)
#undef KV_LOAD
#define KV_CHECK(fn)                                                                               \
    if (!vk->fn && strcmp(#fn, "vkCreateDebugUtilsMessengerEXT") != 0 &&                           \
        strcmp(#fn, "vkDestroyDebugUtilsMessengerEXT") != 0)                                       \
        return kv_error(err, KV_E_UNAVAILABLE, "vulkan: the instance lacks %s", #fn);
    KV_VK_INSTANCE(KV_CHECK)
#undef KV_CHECK
    return KILN_OK;
}

kiln_result kv_vk_load_device(kv_vk *vk, VkDevice device, kiln_error *err)
{
#define KV_LOAD(fn)                                                                                \
    vk->fn = (PFN_##fn)vk->vkGetDeviceProcAddr(device, #fn);                                       \
    if (!vk->fn) return kv_error(err, KV_E_UNAVAILABLE, "vulkan: the device lacks %s", #fn);
    KV_VK_DEVICE(KV_LOAD)
#undef KV_LOAD
    return KILN_OK;
}

void kv_vk_close(kv_vk *vk)
{
    if (vk->lib) dlclose(vk->lib);
    memset(vk, 0, sizeof *vk);
}

const char *kv_vk_result_name(VkResult r)
{
    switch (r) {
#define KV_NAME(x)                                                                                 \
    case x:                                                                                        \
        return #x;
        KV_NAME(VK_SUCCESS)
        KV_NAME(VK_NOT_READY)
        KV_NAME(VK_TIMEOUT)
        KV_NAME(VK_INCOMPLETE)
        KV_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        KV_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        KV_NAME(VK_ERROR_INITIALIZATION_FAILED)
        KV_NAME(VK_ERROR_DEVICE_LOST)
        KV_NAME(VK_ERROR_MEMORY_MAP_FAILED)
        KV_NAME(VK_ERROR_LAYER_NOT_PRESENT)
        KV_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        KV_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        KV_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        KV_NAME(VK_ERROR_TOO_MANY_OBJECTS)
        KV_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
#undef KV_NAME
    default:
        return "VkResult (other)";
    }
}

kiln_result kv_vk_fail(kiln_error *err, VkResult r, const char *what)
{
    kiln_result code = (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
                           ? KILN_E_OUT_OF_MEMORY
                           : KILN_E_INTERNAL;
    return kv_error(err, code, "vulkan: %s: %s (%d)", what, kv_vk_result_name(r), (int)r);
}
