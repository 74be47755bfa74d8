/* test_main.c — runs the cube and IBL groups; the exit status counts failures. */
#include "support.h"

#include "ibl_tests.h"

int main(void)
{
    int failed = 0;
    failed += kt_cube_tests();
    failed += kt_ibl_tests();
    return failed ? 1 : 0;
}
