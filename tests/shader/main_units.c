/* main_units.c — the shader unit tests. */
#include "support.h"

#include "shader_tests.h"

int main(void) { return kt_shader_unit_tests() ? 1 : 0; }
