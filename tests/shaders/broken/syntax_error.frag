#version 450
// A syntax error on line 5 (a missing semicolon): the cook fails naming the file and line.
layout(location = 0) out vec4 out_color;

void main() { out_color = vec4(1.0) }
