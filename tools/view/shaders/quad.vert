#version 450
// A quad covering the target, made from gl_VertexIndex (4 vertices, triangle strip): no vertex
// buffer. uv (0,0) is the top-left corner (KTX2 rows run top to bottom).
layout(location = 0) out vec2 uv;

void main()
{
    vec2 corner = vec2(float(gl_VertexIndex & 1), float((gl_VertexIndex >> 1) & 1));
    uv = corner;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.5, 1.0);
}
