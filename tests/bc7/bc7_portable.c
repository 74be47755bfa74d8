/* bc7_portable.c — kiln's BC7 encoder compiled a second time with its run-time SIMD dispatch
 * turned off (KILN_BC7_PORTABLE) and its entry points renamed, so that test_bc7 can require the
 * portable path and the dispatched one (AVX2 where the CPU has it) to give identical bytes. */
#define KILN_BC7_PORTABLE     1
#define kiln_bc7_encode_block kiln_bc7_encode_block_portable
#define kiln_bc7_pack         kiln_bc7_pack_portable
#include "process/bc7_encode.c"
