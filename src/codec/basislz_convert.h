/* basislz_convert.h — ETC1S blocks (one endpoint and one selector from the codebooks) to the
 * transcode targets, block by block. Private to src/codec/basislz_*.c. */
#ifndef KILN_CODEC_BASISLZ_CONVERT_H
#define KILN_CODEC_BASISLZ_CONVERT_H

#include "codec/basislz_internal.h"

/* The four colours of an endpoint, ascending (selector 0..3: -b, -a, +a, +b), clamped. */
void kiln_etc1s_colours(const kiln_etc1s_endpoint *e, uint8_t colours[4][3]);
/* The 16 texels of an ETC1S block, row by row, alpha 255. */
void kiln_etc1s_decode(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s,
                       uint8_t rgba[64]);

/* A target's converters: colour writes the block from the colour slice's block (has_alpha: the
 * file has alpha slices and alpha() follows); alpha, NULL when the target keeps no alpha, adds
 * the alpha slice's block to it. */
typedef struct kiln_blz_conv {
    void (*colour)(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk,
                   bool has_alpha);
    void (*alpha)(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s, uint8_t *blk);
} kiln_blz_conv;

/* ASTC 4x4 needs both slices' blocks at once (16 bytes out): the colour block and the alpha block
 * (ae and as NULL when the file has no alpha). */
void kiln_etc1s_to_astc(const kiln_etc1s_endpoint *e, const kiln_etc1s_selector *s,
                        const kiln_etc1s_endpoint *ae, const kiln_etc1s_selector *as, uint8_t *blk);

/* NULL for RGBA8 and ASTC (the transcoder calls those itself) and (the transcoder writes texels
 * itself) for targets not implemented. */
const kiln_blz_conv *kiln_blz_conv_for(kiln_basis_target target);

#endif
