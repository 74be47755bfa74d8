// unlit_texture.hlsl — a pixel shader in HLSL: the base colour texture times a factor, no
// lighting (the renderer's "unlit" debug view and KHR_materials_unlit). Entry point PSMain;
// Vulkan bindings through [[vk::binding(binding, set)]], the parameter block first.

struct UnlitParams
{
    float4 base_color_factor;
    float alpha_cutoff;
};

[[vk::binding(0, 1)]] ConstantBuffer<UnlitParams> params;
[[vk::binding(1, 1)]] Texture2D base_color_texture;
[[vk::binding(2, 1)]] SamplerState base_color_sampler;

struct PSInput
{
    [[vk::location(0)]] float3 world_position : POSITION0;
    [[vk::location(3)]] float2 uv0 : TEXCOORD0;
};

float4 PSMain(PSInput input) : SV_Target0
{
    float4 color = params.base_color_factor * base_color_texture.Sample(base_color_sampler, input.uv0);
    clip(color.a - params.alpha_cutoff);
    return color;
}
