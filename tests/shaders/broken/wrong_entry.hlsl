// An HLSL pixel shader whose entry point is PSMain, cooked with the default entry point "main":
// the compiler finds no such function. (glslang only warns, "Entry point not found", and emits an
// empty "main"; kiln refuses it even where warnings are not errors.)
float4 PSMain() : SV_Target0
{
    return float4(1.0, 0.0, 1.0, 1.0);
}
