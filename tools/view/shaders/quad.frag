#version 450
// Samples level 0 of the texture at the quad's uv (nearest: a target of the texture's size
// reads each texel once).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main()
{
    color = textureLod(tex, uv, 0.0);
}
