/* process_tests.h — the cmocka groups of the texture-processing test executable. */
#ifndef KILN_TEST_PROCESS_TESTS_H
#define KILN_TEST_PROCESS_TESTS_H

#include <stdint.h>

int kt_srgb_tests(void);
int kt_half_tests(void);
int kt_mip_tests(void);
int kt_texture_tests(void);
int kt_texture_shape_tests(void);

/* xorshift64*: a fixed, seeded sequence so failures reproduce. */
static inline uint32_t kt_rand(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (uint32_t)((*state * 0x2545F4914F6CDD1DULL) >> 32);
}

#endif
