#version 450
// Reaches out of the project with ../ (line 5): kiln refuses it before reading anything, as it
// refuses a glTF URI that leaves the model's folder.
#extension GL_GOOGLE_include_directive : require
#include "../../../../outside.glsl"
layout(location = 0) out vec4 out_color;

void main() { out_color = vec4(1.0); }
