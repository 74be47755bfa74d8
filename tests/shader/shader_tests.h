/* shader_tests.h — the groups of tests/shader (compile, validate, reflect; the corpus). */
#ifndef KILN_TEST_SHADER_TESTS_H
#define KILN_TEST_SHADER_TESTS_H

int kt_shader_unit_tests(void);
int kt_shader_corpus_tests(void);

#endif
