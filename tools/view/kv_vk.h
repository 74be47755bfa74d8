/* kv_vk.h — the Vulkan entry points kv uses, loaded at run time from the loader (dlopen), so that
 * a machine without libvulkan.so.1 gets a clear error instead of a program that does not start. */
#ifndef KV_VK_H
#define KV_VK_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "kiln/kiln_format.h"

/* Global functions (no instance). */
#define KV_VK_GLOBAL(X)                                                                            \
    X(vkCreateInstance)                                                                            \
    X(vkEnumerateInstanceVersion)                                                                  \
    X(vkEnumerateInstanceLayerProperties)                                                          \
    X(vkEnumerateInstanceExtensionProperties)

/* Instance functions. */
#define KV_VK_INSTANCE(X)                                                                          \
    X(vkDestroyInstance)                                                                           \
    X(vkEnumeratePhysicalDevices)                                                                  \
    X(vkGetPhysicalDeviceProperties)                                                               \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                                    \
    X(vkGetPhysicalDeviceMemoryProperties)                                                         \
    X(vkGetPhysicalDeviceFormatProperties)                                                         \
    X(vkGetPhysicalDeviceFeatures)                                                                 \
    X(vkCreateDevice)                                                                              \
    X(vkGetDeviceProcAddr)                                                                         \
    X(vkCreateDebugUtilsMessengerEXT)                                                              \
    X(vkDestroyDebugUtilsMessengerEXT)

/* Device functions. */
#define KV_VK_DEVICE(X)                                                                            \
    X(vkDestroyDevice)                                                                             \
    X(vkGetDeviceQueue)                                                                            \
    X(vkDeviceWaitIdle)                                                                            \
    X(vkQueueSubmit)                                                                               \
    X(vkQueueWaitIdle)                                                                             \
    X(vkCreateCommandPool)                                                                         \
    X(vkDestroyCommandPool)                                                                        \
    X(vkAllocateCommandBuffers)                                                                    \
    X(vkFreeCommandBuffers)                                                                        \
    X(vkBeginCommandBuffer)                                                                        \
    X(vkEndCommandBuffer)                                                                          \
    X(vkCreateFence)                                                                               \
    X(vkDestroyFence)                                                                              \
    X(vkWaitForFences)                                                                             \
    X(vkAllocateMemory)                                                                            \
    X(vkFreeMemory)                                                                                \
    X(vkMapMemory)                                                                                 \
    X(vkUnmapMemory)                                                                               \
    X(vkCreateBuffer)                                                                              \
    X(vkDestroyBuffer)                                                                             \
    X(vkGetBufferMemoryRequirements)                                                               \
    X(vkBindBufferMemory)                                                                          \
    X(vkCreateImage)                                                                               \
    X(vkDestroyImage)                                                                              \
    X(vkGetImageMemoryRequirements)                                                                \
    X(vkBindImageMemory)                                                                           \
    X(vkCreateImageView)                                                                           \
    X(vkDestroyImageView)                                                                          \
    X(vkCreateSampler)                                                                             \
    X(vkDestroySampler)                                                                            \
    X(vkCreateShaderModule)                                                                        \
    X(vkDestroyShaderModule)                                                                       \
    X(vkCreateRenderPass)                                                                          \
    X(vkDestroyRenderPass)                                                                         \
    X(vkCreateFramebuffer)                                                                         \
    X(vkDestroyFramebuffer)                                                                        \
    X(vkCreateDescriptorSetLayout)                                                                 \
    X(vkDestroyDescriptorSetLayout)                                                                \
    X(vkCreatePipelineLayout)                                                                      \
    X(vkDestroyPipelineLayout)                                                                     \
    X(vkCreateGraphicsPipelines)                                                                   \
    X(vkDestroyPipeline)                                                                           \
    X(vkCreateDescriptorPool)                                                                      \
    X(vkDestroyDescriptorPool)                                                                     \
    X(vkAllocateDescriptorSets)                                                                    \
    X(vkUpdateDescriptorSets)                                                                      \
    X(vkCmdPipelineBarrier)                                                                        \
    X(vkCmdCopyBufferToImage)                                                                      \
    X(vkCmdCopyImageToBuffer)                                                                      \
    X(vkCmdBeginRenderPass)                                                                        \
    X(vkCmdEndRenderPass)                                                                          \
    X(vkCmdBindPipeline)                                                                           \
    X(vkCmdBindDescriptorSets)                                                                     \
    X(vkCmdSetViewport)                                                                            \
    X(vkCmdSetScissor)                                                                             \
    X(vkCmdDraw)                                                                                   \
    X(vkCmdDrawIndexed)                                                                            \
    X(vkCmdBindIndexBuffer)                                                                        \
    X(vkCmdPushConstants)                                                                          \
    X(vkResetDescriptorPool)

#define KV_VK_MEMBER(name) PFN_##name name;
typedef struct kv_vk {
    void *lib; /* the loader's dlopen handle */
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    KV_VK_GLOBAL(KV_VK_MEMBER)
    KV_VK_INSTANCE(KV_VK_MEMBER)
    KV_VK_DEVICE(KV_VK_MEMBER)
} kv_vk;
#undef KV_VK_MEMBER

/* Opens the loader and fills the global functions. Errors: KV_E_UNAVAILABLE. */
kiln_result kv_vk_open(kv_vk *vk, const char *loader, kiln_error *err);
/* The instance functions (the debug-utils pair may stay NULL without the extension). */
kiln_result kv_vk_load_instance(kv_vk *vk, VkInstance instance, kiln_error *err);
kiln_result kv_vk_load_device(kv_vk *vk, VkDevice device, kiln_error *err);
void kv_vk_close(kv_vk *vk);

/* Fills err for a failed Vulkan call: KILN_E_OUT_OF_MEMORY for the out-of-memory results,
 * KILN_E_INTERNAL otherwise; the message is "vulkan: <what>: <VkResult name>". */
kiln_result kv_vk_fail(kiln_error *err, VkResult r, const char *what);
const char *kv_vk_result_name(VkResult r);

#endif
