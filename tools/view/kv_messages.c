/* kv_messages.c — the debug-utils messenger: counts every warning and error the validation
 * layer (or the loader, or the driver) reports, and keeps the first few for the report. */
#include <stdio.h>
#include <string.h>

#include "kv_internal.h"

VKAPI_ATTR VkBool32 VKAPI_CALL kv_on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT types,
                                             const VkDebugUtilsMessengerCallbackDataEXT *data,
                                             void *user)
{
    kv_context *ctx = user;
    bool error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
    bool warning = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) != 0;
    if (!error && !warning) return VK_FALSE;
    pthread_mutex_lock(&ctx->messages_lock);
    kv_messages *m = &ctx->messages;
    if (error) m->errors++;
    else m->warnings++;
    if (m->kept < KV_MAX_KEPT_MESSAGES) {
        snprintf(m->text[m->kept], sizeof m->text[m->kept], "%s %s: %s",
                 error ? "error" : "warning",
                 data && data->pMessageIdName ? data->pMessageIdName : "-",
                 data && data->pMessage ? data->pMessage : "");
        m->kept++;
    }
    pthread_mutex_unlock(&ctx->messages_lock);
    return VK_FALSE; /* never abort the call: the test decides */
}

void kv_messenger_info(kv_context *ctx, VkDebugUtilsMessengerCreateInfoEXT *info)
{
    memset(info, 0, sizeof *info);
    info->sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    info->messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info->messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info->pfnUserCallback = kv_on_message;
    info->pUserData = ctx;
}

void kv_messages_get(kv_context *ctx, kv_messages *out)
{
    pthread_mutex_lock(&ctx->messages_lock);
    *out = ctx->messages;
    pthread_mutex_unlock(&ctx->messages_lock);
}
