/* astc_decode.c — ASTC 4x4 LDR block decoder, written from the Khronos Data Format
 * Specification's ASTC chapter (the same text as KHR_texture_compression_astc_hdr, appendix C.2):
 * block mode (C.2.10), colour endpoint modes (C.2.11), integer sequence encoding with trits and
 * quints (C.2.12), endpoint unquantization (C.2.13) and the LDR endpoint modes (C.2.14), weight
 * decoding, unquantization and infill (C.2.16-18), weight application (C.2.19), dual planes
 * (C.2.20), partition pattern generation with hash52 (C.2.21), data size determination (C.2.22),
 * void-extent blocks (C.2.23) and every illegal encoding of C.2.24, which decodes to the LDR error
 * colour, opaque magenta, as do HDR endpoint modes (only the texels of their partition) and HDR
 * void-extent blocks.
 *
 * Output is 8 bits a channel. With sRGB the specification hands the top 8 bits of the 16-bit
 * interpolation to sRGB conversion: those are the texels (equal to interpolating the 8-bit
 * endpoints, which is how it is computed). For linear LDR the specification's result is FP16 (the
 * UNORM16 value C / 65536 truncated to FP16, 65535 giving 1.0); the texel is that value times 255
 * rounded to nearest, which is what libastcenc's 8-bit output gives, so the two agree bit for bit
 * (tests/transcode compares them on encoded images and on random blocks). Reads never leave the
 * 16 bytes: every field position below comes from validated sizes that fit in 128 bits. */
#include <string.h>

#include "codec/block_decode.h"

/* ---- bits ----------------------------------------------------------------------------------- */

/* The 128 bits of a block, bit 0 being the low bit of byte 0. */
typedef struct astc_block {
    uint64_t lo, hi;
} astc_block;

/* n (<= 32) bits starting at bit pos; bits at 128 and above read as zero. */
static uint32_t astc_bits(const astc_block *b, unsigned pos, unsigned n)
{
    uint64_t v;
    if (pos >= 128) return 0;
    if (pos >= 64) v = b->hi >> (pos - 64);
    else if (pos == 0) v = b->lo;
    else v = (b->lo >> pos) | (b->hi << (64 - pos));
    return n >= 32 ? (uint32_t)v : (uint32_t)v & ((1u << n) - 1);
}

static uint64_t reverse64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    x = ((x >> 8) & 0x00FF00FF00FF00FFull) | ((x & 0x00FF00FF00FF00FFull) << 8);
    x = ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
    return (x >> 32) | (x << 32);
}

/* ---- integer sequence encoding (C.2.12) ----------------------------------------------------- */

/* The ranges of integer sequences, in increasing size: levels = (1, 3 or 5) * 2^bits. */
typedef struct astc_range {
    uint8_t trits, quints, bits; /* trits/quints: 0 or 1 */
    uint16_t levels;
} astc_range;

enum { ASTC_RANGE_COUNT = 21, ASTC_RANGE_MIN_COLOR = 4 /* 0..5: C.2.24 rejects fewer levels */ };

static const astc_range k_ranges[ASTC_RANGE_COUNT] = {
    {0, 0, 1, 2},   {1, 0, 0, 3},   {0, 0, 2, 4},   {0, 1, 0, 5},  {1, 0, 1, 6},  {0, 0, 3, 8},
    {0, 1, 1, 10},  {1, 0, 2, 12},  {0, 0, 4, 16},  {0, 1, 2, 20}, {1, 0, 3, 24}, {0, 0, 5, 32},
    {0, 1, 3, 40},  {1, 0, 4, 48},  {0, 0, 6, 64},  {0, 1, 4, 80}, {1, 0, 5, 96}, {0, 0, 7, 128},
    {0, 1, 5, 160}, {1, 0, 6, 192}, {0, 0, 8, 256},
};

/* Bits that `count` values of range r take (C.2.22). */
static unsigned ise_size(const astc_range *r, unsigned count)
{
    return count * r->bits + (r->trits ? (count * 8 + 4) / 5 : 0) +
           (r->quints ? (count * 7 + 2) / 3 : 0);
}

/* Five trits from the 8 bits T (C.2.12). */
static void trits_from(unsigned T, unsigned t[5])
{
    unsigned C;
    if (((T >> 2) & 7) == 7) {
        C = ((T >> 5) << 2) | (T & 3);
        t[4] = t[3] = 2;
    } else {
        C = T & 31;
        if (((T >> 5) & 3) == 3) {
            t[4] = 2;
            t[3] = (T >> 7) & 1;
        } else {
            t[4] = (T >> 7) & 1;
            t[3] = (T >> 5) & 3;
        }
    }
    if ((C & 3) == 3) {
        t[2] = 2;
        t[1] = (C >> 4) & 1;
        t[0] = (((C >> 3) & 1) << 1) | (((C >> 2) & 1) & ~((C >> 3) & 1));
    } else if (((C >> 2) & 3) == 3) {
        t[2] = 2;
        t[1] = 2;
        t[0] = C & 3;
    } else {
        t[2] = (C >> 4) & 1;
        t[1] = (C >> 2) & 3;
        t[0] = (((C >> 1) & 1) << 1) | ((C & 1) & ~((C >> 1) & 1));
    }
}

/* Three quints from the 7 bits Q (C.2.12; the text's "q2 = T[6:5]" means Q[6:5]). */
static void quints_from(unsigned Q, unsigned q[3])
{
    unsigned b0 = Q & 1, b3 = (Q >> 3) & 1, b4 = (Q >> 4) & 1;
    if (((Q >> 1) & 3) == 3 && ((Q >> 5) & 3) == 0) {
        q[2] = (b0 << 2) | ((b4 & ~b0 & 1) << 1) | (b3 & ~b0 & 1);
        q[1] = q[0] = 4;
        return;
    }
    unsigned C;
    if (((Q >> 1) & 3) == 3) {
        q[2] = 4;
        C = (((Q >> 3) & 3) << 3) | ((~(Q >> 5) & 3) << 1) | b0;
    } else {
        q[2] = (Q >> 5) & 3;
        C = Q & 31;
    }
    if ((C & 7) == 5) {
        q[1] = 4;
        q[0] = (C >> 3) & 3;
    } else {
        q[1] = (C >> 3) & 3;
        q[0] = C & 7;
    }
}

/* Decodes `count` values of range r stored from bit `start` of b: the high part (trit or quint)
 * to hi[], the low bits to lo[]. A final partial group reads only the bits of its values (the
 * trit or quint bits after each present value lie inside the sequence's size); the rest of its
 * packed T or Q field is zero, as the specification says. */
static void ise_decode(const astc_block *b, unsigned start, const astc_range *r, unsigned count,
                       uint8_t *hi, uint8_t *lo)
{
    static const uint8_t tbits[5] = {2, 2, 1, 2, 1}; /* T bits after each of 5 values */
    static const uint8_t qbits[3] = {3, 2, 2};       /* Q bits after each of 3 values */
    unsigned n = r->bits, pos = start;
    unsigned group = r->trits ? 5 : r->quints ? 3 : 1;
    const uint8_t *xbits = r->trits ? tbits : qbits;
    for (unsigned g = 0; g < count; g += group) {
        unsigned m[5] = {0}, packed = 0, shift = 0, h[5] = {0};
        for (unsigned i = 0; i < group && g + i < count; i++) {
            m[i] = astc_bits(b, pos, n);
            pos += n;
            if (group > 1) {
                packed |= astc_bits(b, pos, xbits[i]) << shift;
                pos += xbits[i];
                shift += xbits[i];
            }
        }
        if (r->trits) trits_from(packed, h);
        else if (r->quints) quints_from(packed, h);
        for (unsigned i = 0; i < group && g + i < count; i++) {
            hi[g + i] = (uint8_t)h[i];
            lo[g + i] = (uint8_t)m[i];
        }
    }
}

/* ---- unquantization (C.2.13, C.2.17) -------------------------------------------------------- */

/* Replicates the n-bit value v (1 <= n) to `to` bits from its most significant bit. */
static unsigned replicate(unsigned v, unsigned n, unsigned to)
{
    if (2 * n >= to) return ((v << (to - n)) | (v >> (2 * n - to))) & ((1u << to) - 1);
    unsigned out = 0;
    int shift = (int)to - (int)n;
    while (shift > -(int)n) {
        out |= shift >= 0 ? v << shift : v >> -shift;
        shift -= (int)n;
    }
    return out & ((1u << to) - 1);
}

/* A colour endpoint value of range r (trit/quint hi, low bits lo) to 0..255 (table C.2.16). */
static unsigned unquantize_color(const astc_range *r, unsigned hi, unsigned lo)
{
    if (!r->trits && !r->quints) return replicate(lo, r->bits, 8);
    unsigned a = lo & 1, x = lo >> 1, A = a ? 0x1FF : 0, B = 0, C = 0;
    if (r->trits) {
        switch (r->bits) {
        case 1:
            C = 204;
            break;
        case 2:
            B = (x << 8) | (x << 4) | (x << 2) | (x << 1);
            C = 93;
            break;
        case 3:
            B = (x << 7) | (x << 2) | x;
            C = 44;
            break;
        case 4:
            B = (x << 6) | x;
            C = 22;
            break;
        case 5:
            B = (x << 5) | (x >> 2);
            C = 11;
            break;
        default:
            B = (x << 4) | (x >> 4);
            C = 5;
            break; /* 6 bits */
        }
    } else {
        switch (r->bits) {
        case 1:
            C = 113;
            break;
        case 2:
            B = (x << 8) | (x << 3) | (x << 2);
            C = 54;
            break;
        case 3:
            B = (x << 7) | (x << 1) | (x >> 1);
            C = 26;
            break;
        case 4:
            B = (x << 6) | (x >> 1);
            C = 13;
            break;
        default:
            B = (x << 5) | (x >> 3);
            C = 6;
            break; /* 5 bits */
        }
    }
    unsigned T = hi * C + B;
    T ^= A;
    return (A & 0x80) | ((T & 0x1FF) >> 2);
}

/* A weight of range r to 0..64 (C.2.17). */
static unsigned unquantize_weight(const astc_range *r, unsigned hi, unsigned lo)
{
    unsigned T;
    if (!r->trits && !r->quints) {
        T = replicate(lo, r->bits, 6);
    } else if (r->bits == 0) {
        static const uint8_t t3[3] = {0, 32, 63}, q5[5] = {0, 16, 32, 47, 63};
        T = r->trits ? t3[hi] : q5[hi];
    } else {
        unsigned a = lo & 1, x = lo >> 1, A = a ? 0x7F : 0, B = 0, C;
        if (r->trits) {
            switch (r->bits) {
            case 1:
                C = 50;
                break;
            case 2:
                B = (x << 6) | (x << 2) | x;
                C = 23;
                break;
            default:
                B = (x << 5) | x;
                C = 11;
                break; /* 3 bits */
            }
        } else {
            switch (r->bits) {
            case 1:
                C = 28;
                break;
            default:
                B = (x << 6) | (x << 1);
                C = 13;
                break; /* 2 bits */
            }
        }
        T = hi * C + B;
        T ^= A;
        T = (A & 0x20) | ((T & 0x7F) >> 2);
    }
    return T > 32 ? T + 1 : T;
}

/* ---- endpoints (C.2.14) --------------------------------------------------------------------- */

static int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

static void bit_transfer_signed(int *a, int *b)
{
    *b >>= 1;
    *b |= *a & 0x80;
    *a >>= 1;
    *a &= 0x3F;
    if (*a & 0x20) *a -= 0x40;
}

static void set4(int e[4], int r, int g, int b, int a)
{
    e[0] = r;
    e[1] = g;
    e[2] = b;
    e[3] = a;
}

/* blue_contract of the specification: more precision near grey. */
static void set4_bc(int e[4], int r, int g, int b, int a)
{
    set4(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

/* Endpoints of an LDR mode from its values v (0..255); false for the HDR modes (2, 3, 7, 11, 14,
 * 15), which the LDR profile decodes to the error colour. */
static bool decode_endpoints(unsigned cem, const uint8_t *vals, int e0[4], int e1[4])
{
    int v[8];
    for (unsigned i = 0; i < 2 * (cem / 4 + 1); i++) v[i] = vals[i];
    switch (cem) {
    case 0:
        set4(e0, v[0], v[0], v[0], 255);
        set4(e1, v[1], v[1], v[1], 255);
        return true;
    case 1: {
        int l0 = (v[0] >> 2) | (v[1] & 0xC0), l1 = l0 + (v[1] & 0x3F);
        if (l1 > 255) l1 = 255;
        set4(e0, l0, l0, l0, 255);
        set4(e1, l1, l1, l1, 255);
        return true;
    }
    case 4:
        set4(e0, v[0], v[0], v[0], v[2]);
        set4(e1, v[1], v[1], v[1], v[3]);
        return true;
    case 5:
        bit_transfer_signed(&v[1], &v[0]);
        bit_transfer_signed(&v[3], &v[2]);
        set4(e0, v[0], v[0], v[0], v[2]);
        set4(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
        break;
    case 6:
        set4(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 255);
        set4(e1, v[0], v[1], v[2], 255);
        return true;
    case 8:
    case 12: {
        int a0 = cem == 12 ? v[6] : 255, a1 = cem == 12 ? v[7] : 255;
        if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
            set4(e0, v[0], v[2], v[4], a0);
            set4(e1, v[1], v[3], v[5], a1);
        } else {
            set4_bc(e0, v[1], v[3], v[5], a1);
            set4_bc(e1, v[0], v[2], v[4], a0);
        }
        return true;
    }
    case 9:
    case 13: {
        bit_transfer_signed(&v[1], &v[0]);
        bit_transfer_signed(&v[3], &v[2]);
        bit_transfer_signed(&v[5], &v[4]);
        int a0 = 255, a1 = 255;
        if (cem == 13) {
            bit_transfer_signed(&v[7], &v[6]);
            a0 = v[6];
            a1 = v[6] + v[7];
        }
        if (v[1] + v[3] + v[5] >= 0) {
            set4(e0, v[0], v[2], v[4], a0);
            set4(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
        } else {
            set4_bc(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
            set4_bc(e1, v[0], v[2], v[4], a0);
        }
        break;
    }
    case 10:
        set4(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]);
        set4(e1, v[0], v[1], v[2], v[5]);
        return true;
    default:
        return false;
    }
    for (int c = 0; c < 4; c++) {
        e0[c] = clamp255(e0[c]);
        e1[c] = clamp255(e1[c]);
    }
    return true;
}

/* ---- partitions (C.2.21) -------------------------------------------------------------------- */

static uint32_t hash52(uint32_t p)
{
    p ^= p >> 15;
    p -= p << 17;
    p += p << 7;
    p += p << 4;
    p ^= p >> 5;
    p += p << 16;
    p ^= p >> 7;
    p ^= p >> 3;
    p ^= p << 6;
    p ^= p >> 17;
    return p;
}

/* The partition of each texel of a 4x4 block (select_partition with small_block set, as the
 * block has fewer than 31 texels, and z = 0). */
void kiln_astc_partition_4x4(unsigned seed, unsigned count, uint8_t part[16])
{
    seed += (count - 1) * 1024;
    uint32_t rnum = hash52(seed);
    unsigned s[8];
    for (unsigned i = 0; i < 8; i++) {
        s[i] = (rnum >> (4 * i)) & 0xF;
        s[i] *= s[i];
    }
    unsigned sh1, sh2;
    if (seed & 1) {
        sh1 = (seed & 2) ? 4 : 5;
        sh2 = count == 3 ? 6 : 5;
    } else {
        sh1 = count == 3 ? 6 : 5;
        sh2 = (seed & 2) ? 4 : 5;
    }
    /* seed9..seed12 multiply z, which is 0 for 2D blocks. */
    for (unsigned i = 0; i < 16; i++) {
        unsigned x = (i & 3) << 1, y = (i >> 2) << 1; /* small_block doubles the coordinates */
        unsigned a = ((s[0] >> sh1) * x + (s[1] >> sh2) * y + (rnum >> 14)) & 0x3F;
        unsigned b = ((s[2] >> sh1) * x + (s[3] >> sh2) * y + (rnum >> 10)) & 0x3F;
        unsigned c = ((s[4] >> sh1) * x + (s[5] >> sh2) * y + (rnum >> 6)) & 0x3F;
        unsigned d = ((s[6] >> sh1) * x + (s[7] >> sh2) * y + (rnum >> 2)) & 0x3F;
        if (count < 4) d = 0;
        if (count < 3) c = 0;
        part[i] = a >= b && a >= c && a >= d ? 0 : b >= c && b >= d ? 1 : c >= d ? 2 : 3;
    }
}

/* ---- output --------------------------------------------------------------------------------- */

/* A UNORM16 interpolation result as 8 bits in the linear LDR profile: C / 65536 truncated to
 * FP16 (below 2048 the value is exact: a subnormal or a normal with at most 11 significant bits),
 * then times 255 rounded to nearest. FP16 keeps 11 significant bits; the product needs at most
 * 19, so it is exact, and the only exact half, 0.5 * 255, rounds up under either tie rule. The
 * specification's special case, 65535 as 1.0, needs no code: 65535 truncates to 65504, which
 * gives 255 as 1.0 does. */
static uint8_t unorm16_to_u8(unsigned c)
{
#if defined(__GNUC__)
    unsigned top = 31u - (unsigned)__builtin_clz(c | 1u);
#else
    unsigned top = 15;
    while (top > 0 && !(c >> top)) top--;
#endif
    unsigned drop = top > 10 ? top - 10 : 0; /* keep the top 11 significant bits */
    c &= ~0u << drop;
    return (uint8_t)((c * 255u + 32768u) >> 16);
}

static void error_block(uint8_t rgba[64])
{
    for (int i = 0; i < 16; i++) {
        rgba[4 * i + 0] = 255;
        rgba[4 * i + 1] = 0;
        rgba[4 * i + 2] = 255;
        rgba[4 * i + 3] = 255;
    }
}

/* ---- blocks --------------------------------------------------------------------------------- */

/* Void-extent block (C.2.23): one UNORM16 colour, or the error colour. */
static void decode_void_extent(const astc_block *in, bool srgb, uint8_t rgba[64])
{
    unsigned min_s = astc_bits(in, 12, 13), max_s = astc_bits(in, 25, 13);
    unsigned min_t = astc_bits(in, 38, 13), max_t = astc_bits(in, 51, 13);
    bool all_ones = min_s == 0x1FFF && max_s == 0x1FFF && min_t == 0x1FFF && max_t == 0x1FFF;
    if (astc_bits(in, 9, 1) /* HDR: FP16 colour */ || astc_bits(in, 10, 2) != 3 ||
        (!all_ones && (min_s >= max_s || min_t >= max_t))) {
        error_block(rgba);
        return;
    }
    uint8_t px[4];
    for (unsigned c = 0; c < 4; c++) {
        unsigned v = astc_bits(in, 64 + 16 * c, 16);
        px[c] = srgb ? (uint8_t)(v >> 8) : unorm16_to_u8(v);
    }
    for (int i = 0; i < 16; i++) memcpy(rgba + 4 * i, px, 4);
}

/* What the block mode (C.2.10) says; false for reserved modes. */
typedef struct astc_mode {
    unsigned grid_w, grid_h;
    bool dual;
    unsigned weight_range; /* index into k_ranges */
} astc_mode;

static bool decode_block_mode(unsigned m, astc_mode *out)
{
    unsigned r, h = (m >> 9) & 1, a = (m >> 5) & 3, b = (m >> 7) & 3;
    out->dual = (m >> 10) & 1;
    if (m & 3) {
        r = ((m >> 4) & 1) | ((m & 3) << 1);
        switch ((m >> 2) & 3) {
        case 0:
            out->grid_w = b + 4;
            out->grid_h = a + 2;
            break;
        case 1:
            out->grid_w = b + 8;
            out->grid_h = a + 2;
            break;
        case 2:
            out->grid_w = a + 2;
            out->grid_h = b + 8;
            break;
        default:
            if ((m >> 8) & 1) {
                out->grid_w = ((m >> 7) & 1) + 2;
                out->grid_h = a + 2;
            } else {
                out->grid_w = a + 2;
                out->grid_h = ((m >> 7) & 1) + 6;
            }
            break;
        }
    } else {
        r = ((m >> 4) & 1) | (((m >> 2) & 3) << 1);
        if (((m >> 2) & 3) == 0) return false; /* R2 = R1 = 0: reserved */
        switch ((m >> 7) & 3) {
        case 0:
            out->grid_w = 12;
            out->grid_h = a + 2;
            break;
        case 1:
            out->grid_w = a + 2;
            out->grid_h = 12;
            break;
        case 2:
            out->grid_w = a + 6;
            out->grid_h = ((m >> 9) & 3) + 6;
            h = 0;
            out->dual = false;
            break;
        default:
            if (((m >> 5) & 3) == 0) {
                out->grid_w = 6;
                out->grid_h = 10;
            } else if (((m >> 5) & 3) == 1) {
                out->grid_w = 10;
                out->grid_h = 6;
            } else {
                return false; /* reserved (the void-extent pattern was caught before) */
            }
            break;
        }
    }
    out->weight_range = (r - 2) + 6 * h; /* r >= 2 here: R2 R1 are never both zero */
    return true;
}

void kiln_astc_decode_block(const uint8_t *bytes, bool srgb, uint8_t rgba[64])
{
    astc_block blk = {0, 0}, *in = &blk;
    for (int i = 7; i >= 0; i--) {
        blk.lo = blk.lo << 8 | bytes[i];
        blk.hi = blk.hi << 8 | bytes[8 + i];
    }
    unsigned mode_bits = astc_bits(in, 0, 11);
    if ((mode_bits & 0x1FF) == 0x1FC) {
        decode_void_extent(in, srgb, rgba);
        return;
    }
    astc_mode mode;
    if (!decode_block_mode(mode_bits, &mode) || mode.grid_w > 4 || mode.grid_h > 4) {
        error_block(rgba);
        return;
    }
    unsigned partitions = astc_bits(in, 11, 2) + 1;
    unsigned weight_count = mode.grid_w * mode.grid_h * (mode.dual ? 2u : 1u);
    const astc_range *wr = &k_ranges[mode.weight_range];
    unsigned weight_bits = ise_size(wr, weight_count);
    if (weight_count > 64 || weight_bits < 24 || weight_bits > 96 ||
        (mode.dual && partitions == 4)) {
        error_block(rgba);
        return;
    }

    /* Colour endpoint modes (C.2.11). */
    unsigned cem[4], extra_cem_bits = 0, seed = 0, color_start = 17;
    if (partitions == 1) {
        cem[0] = astc_bits(in, 13, 4);
    } else {
        seed = astc_bits(in, 13, 10);
        color_start = 29;
        unsigned field = astc_bits(in, 23, 6);
        if ((field & 3) == 0) {
            for (unsigned p = 0; p < partitions; p++) cem[p] = field >> 2;
        } else {
            extra_cem_bits = 3 * partitions - 4;
            unsigned all = (field >> 2) |
                           astc_bits(in, 128 - weight_bits - extra_cem_bits, extra_cem_bits) << 4;
            unsigned base = (field & 3) - 1;
            for (unsigned p = 0; p < partitions; p++) {
                unsigned c = (all >> p) & 1, m = (all >> (partitions + 2 * p)) & 3;
                cem[p] = ((base + c) << 2) | m;
            }
        }
    }
    unsigned value_count = 0;
    for (unsigned p = 0; p < partitions; p++) value_count += 2 * (cem[p] / 4 + 1);
    unsigned ccs_bits = mode.dual ? 2 : 0;
    int remaining = 128 - (int)weight_bits - (int)color_start - (int)extra_cem_bits - (int)ccs_bits;
    if (value_count > 18 || remaining < 0) {
        error_block(rgba);
        return;
    }
    unsigned color_range = ASTC_RANGE_COUNT;
    for (unsigned r = ASTC_RANGE_COUNT; r-- > ASTC_RANGE_MIN_COLOR;)
        if (ise_size(&k_ranges[r], value_count) <= (unsigned)remaining) {
            color_range = r;
            break;
        }
    if (color_range == ASTC_RANGE_COUNT) {
        error_block(rgba);
        return;
    }
    unsigned ccs = mode.dual ? astc_bits(in, 128 - weight_bits - extra_cem_bits - 2, 2) : 4;

    /* Endpoints of each partition; ok[p] false for HDR modes. */
    uint8_t hi[64], lo[64], vals[18];
    ise_decode(in, color_start, &k_ranges[color_range], value_count, hi, lo);
    for (unsigned i = 0; i < value_count; i++)
        vals[i] = (uint8_t)unquantize_color(&k_ranges[color_range], hi[i], lo[i]);
    int e0[4][4], e1[4][4];
    bool ok[4];
    for (unsigned p = 0, v = 0; p < partitions; p++) {
        ok[p] = decode_endpoints(cem[p], vals + v, e0[p], e1[p]);
        v += 2 * (cem[p] / 4 + 1);
    }

    /* Weights: an integer sequence read from bit 127 downwards (C.2.16). */
    const astc_block rev = {reverse64(blk.hi), reverse64(blk.lo)};
    ise_decode(&rev, 0, wr, weight_count, hi, lo);
    /* Grid weights per plane, padded so the infill's neighbours past the last row and column
     * (whose factors are zero) stay inside the array. */
    uint8_t grid[2][16 + 8] = {{0}};
    unsigned planes = mode.dual ? 2 : 1, plane_shift = mode.dual ? 1 : 0;
    for (unsigned i = 0; i < weight_count; i++)
        grid[i & plane_shift][i >> plane_shift] = (uint8_t)unquantize_weight(wr, hi[i], lo[i]);

    /* Infill (C.2.18) for a 4x4 footprint: Ds = Dt = (1024 + 2) / 3 = 342. */
    uint8_t weight[2][16];
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned gs = (342 * x * (mode.grid_w - 1) + 32) >> 6;
            unsigned gt = (342 * y * (mode.grid_h - 1) + 32) >> 6;
            unsigned js = gs >> 4, fs = gs & 0xF, jt = gt >> 4, ft = gt & 0xF;
            unsigned w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11;
            unsigned w00 = 16 - fs - ft + w11, v0 = js + jt * mode.grid_w;
            for (unsigned p = 0; p < planes; p++) {
                const uint8_t *g = grid[p];
                weight[p][y * 4 + x] =
                    (uint8_t)((g[v0] * w00 + g[v0 + 1] * w01 + g[v0 + mode.grid_w] * w10 +
                               g[v0 + mode.grid_w + 1] * w11 + 8) >>
                              4);
            }
        }

    /* Interpolation (C.2.19) with the plane of each channel (C.2.20). */
    uint8_t part[16] = {0};
    if (partitions > 1) kiln_astc_partition_4x4(seed, partitions, part);
    for (unsigned i = 0; i < 16; i++) {
        unsigned p = part[i];
        uint8_t *px = rgba + 4 * i;
        if (!ok[p]) {
            px[0] = 255, px[1] = 0, px[2] = 255, px[3] = 255;
            continue;
        }
        unsigned w[4];
        for (unsigned c = 0; c < 4; c++) w[c] = weight[c == ccs][i];
        if (srgb) {
            for (unsigned c = 0; c < 4; c++)
                px[c] =
                    (uint8_t)(((unsigned)e0[p][c] * (64 - w[c]) + (unsigned)e1[p][c] * w[c] + 32) >>
                              6);
        } else {
            for (unsigned c = 0; c < 4; c++)
                px[c] = unorm16_to_u8(((unsigned)e0[p][c] * 257 * (64 - w[c]) +
                                       (unsigned)e1[p][c] * 257 * w[c] + 32) >>
                                      6);
        }
    }
}
