/* kv_pipeline.h — one graphics pipeline for kv's draws (the quad, the texture view, the scene
 * renderer): a vertex and a fragment shader's default variants, no vertex input (every shader
 * makes or pulls its vertices), one viewport and scissor (dynamic), one sample, one colour
 * attachment, for the target's render pass. The states that differ are the fields below. */
#ifndef KV_PIPELINE_H
#define KV_PIPELINE_H

#include "kv_internal.h"
#include "kv_shader.h"

typedef struct kv_pipeline_desc {
    const kv_shader *vert, *frag;
    VkPipelineLayout layout;
    VkRenderPass pass;
    VkPrimitiveTopology topology;
    VkCullModeFlags cull;
    VkFrontFace front_face;
    bool depth_test, depth_write;
    VkCompareOp depth_compare;
    bool blend; /* straight alpha: colour src_alpha / 1 - src_alpha, alpha 1 / 1 - src_alpha */
} kv_pipeline_desc;

kiln_result kv_pipeline_create(kv_context *ctx, const kv_pipeline_desc *d, VkPipeline *out,
                               kiln_error *err);

#endif
