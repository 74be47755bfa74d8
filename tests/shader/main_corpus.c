/* main_corpus.c — the shader corpus test (its own executable: it takes the longest). */
#include "support.h"

#include "shader_tests.h"

int main(void) { return kt_shader_corpus_tests() ? 1 : 0; }
