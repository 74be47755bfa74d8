#version 450
// Includes a file that does not exist (line 4): the error names this file and the line.
#extension GL_GOOGLE_include_directive : require
#include "no_such_file.glsl"
layout(location = 0) out vec4 out_color;

void main() { out_color = vec4(1.0); }
