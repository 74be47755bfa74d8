/* ibl_tests.h — the cmocka groups of the cube and IBL test executable, and what they share. */
#ifndef KILN_TEST_IBL_TESTS_H
#define KILN_TEST_IBL_TESTS_H

#include <stdint.h>

#define KT_PI 3.14159265358979323846

int kt_cube_tests(void);
int kt_ibl_tests(void);

/* xorshift64*: a fixed, seeded sequence so failures reproduce. */
static inline double kt_rand01(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (double)((*state * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
