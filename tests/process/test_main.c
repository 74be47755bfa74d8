/* test_main.c — runs every texture-processing group; the exit status counts failures. */
#include "support.h"

#include "process_tests.h"

int main(void)
{
    int failed = 0;
    failed += kt_srgb_tests();
    failed += kt_half_tests();
    failed += kt_mip_tests();
    failed += kt_texture_tests();
    failed += kt_texture_shape_tests();
    return failed ? 1 : 0;
}
