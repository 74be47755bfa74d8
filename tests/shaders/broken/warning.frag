#version 450
// A warning (an unknown extension asked for with "warn", line 4): with warnings as errors (the
// default) the cook fails; with warnings_as_errors false it cooks and keeps the warning.
#extension GL_EXT_no_such_extension : warn
layout(location = 0) out vec4 out_color;

void main() { out_color = vec4(1.0); }
