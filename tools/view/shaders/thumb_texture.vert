#version 450
// kiln thumbnail (textures): a triangle covering the target, made from gl_VertexIndex (3
// vertices, no vertex buffer). The fragment shader works in pixel coordinates (gl_FragCoord).

void main()
{
    vec2 corner = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.5, 1.0);
}
