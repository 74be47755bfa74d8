/* files_tests.h — the two halves of the core_files test program. */
#ifndef KILN_TEST_FILES_TESTS_H
#define KILN_TEST_FILES_TESTS_H

#include <stddef.h>

extern const struct CMUnitTest path_tests[];
extern const size_t path_test_count;
extern const struct CMUnitTest file_tests[];
extern const size_t file_test_count;

#endif
