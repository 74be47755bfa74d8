/* bc7_private.h — the BC7 encoder's logical block and packer; the tables it shares with the
 * decoder are in format/bc7_tables.h. */
#ifndef KILN_PROCESS_BC7_PRIVATE_H
#define KILN_PROCESS_BC7_PRIVATE_H

#include <stdint.h>

#include "codec/bc7_tables.h"

/* Everything a BC7 block holds, in logical form; kiln_bc7_pack writes it out. endpoint
 * codes are without p-bits, indices hold all their bits (anchor texels must have the top bit
 * clear: the encoder swaps endpoints to make it so). */
typedef struct kiln_bc7_block {
    unsigned mode, partition, rotation, isb;
    uint8_t ep[3][2][4]; /* [subset][endpoint][R,G,B,A] codes */
    uint8_t pbit[3][2];  /* [subset][endpoint]; shared p-bits repeat the value */
    uint8_t index[16];   /* primary */
    uint8_t index2[16];  /* secondary (modes 4 and 5) */
} kiln_bc7_block;

void kiln_bc7_pack(const kiln_bc7_block *b, uint8_t out[16]);

#endif
