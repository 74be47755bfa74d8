/* bc1_portable.c — src/process/bc1.c compiled a second time with KILN_BC1_PORTABLE (no SIMD)
 * and its encoder renamed (the decoder is in src/codec), so one test binary holds both paths. */
#include "bc1_portable.h"

#define KILN_BC1_PORTABLE     1
#define kiln_bc1_encode_block kiln_bc1_encode_block_portable
#include "process/bc1.c"
