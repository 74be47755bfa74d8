/* basis.h — what the two Basis Universal codecs (UASTC: uastc.h; ETC1S in BasisLZ: basislz.h)
 * share: the GPU formats one of their images is transcoded to. The runtime asks the renderer
 * which of these it samples and transcodes a universal texture to the best one at load time;
 * the cook decodes to RGBA8 to re-encode. Part of libkiln_rt: libc only. */
#ifndef KILN_CODEC_BASIS_H
#define KILN_CODEC_BASIS_H

/* A transcode target. Block targets write ceil(w/4) x ceil(h/4) blocks in row-major order
 * (8 bytes for BC1, BC4, ETC1, EAC R11; 16 for the others); RGBA8 writes w x h texels, 4 bytes
 * each, row-major, tightly packed. Which source channels a target keeps (BC4, BC5, EAC: R, or
 * R and G, or alpha) is the reference tool's (basisu -unpack) choice; each codec's header says. */
typedef enum kiln_basis_target {
    KILN_BASIS_TARGET_RGBA8 = 0,
    KILN_BASIS_TARGET_ASTC_4X4, /* ASTC 4x4 LDR */
    KILN_BASIS_TARGET_BC7,
    KILN_BASIS_TARGET_BC1,       /* colour only */
    KILN_BASIS_TARGET_BC3,       /* BC1 colour + BC4-style alpha */
    KILN_BASIS_TARGET_BC4,       /* one channel */
    KILN_BASIS_TARGET_BC5,       /* two channels */
    KILN_BASIS_TARGET_ETC1,      /* ETC1 RGB (also valid ETC2 RGB8) */
    KILN_BASIS_TARGET_ETC2_RGBA, /* EAC alpha block + ETC1/ETC2 colour block */
    KILN_BASIS_TARGET_EAC_R11,
    KILN_BASIS_TARGET_EAC_RG11,
    KILN_BASIS_TARGET_COUNT
} kiln_basis_target;

#endif
