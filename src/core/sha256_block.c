/* sha256_block.c — the SHA-256 compression function (FIPS 180-4 §6.2.2) over whole 64-byte
 * blocks: a portable version, and one on the x86 SHA extensions (SHA256RNDS2/MSG1/MSG2), chosen
 * once per call by what the CPU reports. Both give the same state; tests/core compares them.
 * kiln carries its own instead of linking OpenSSL: libcrypto's start-up (loading, relocating and
 * fetching the algorithm from its provider) cost about 1.8 ms per `kiln` process, a third of a
 * small model's cook, and the runtime may not link it at all. */
#include "core/sha256_block.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#define KILN_SHA256_X86 1
#endif

const uint32_t kiln_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

void kiln_sha256_blocks_portable(uint32_t s[8], const uint8_t *p, size_t blocks)
{
    for (; blocks; blocks--, p += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
                   (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                          kiln_sha256_k[i] + w[i];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g, g = f, f = e, e = d + t1;
            d = c, c = b, b = a, a = t1 + t2;
        }
        s[0] += a, s[1] += b, s[2] += c, s[3] += d;
        s[4] += e, s[5] += f, s[6] += g, s[7] += h;
    }
}

#ifdef KILN_SHA256_X86
/* The SHA extensions keep the state as two vectors, (A, B, E, F) and (C, D, G, H), highest lane
 * first; SHA256RNDS2 runs two rounds from the low two lanes of message + constant. Message words
 * are big-endian in the block. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
blocks_shani(uint32_t s[8], const uint8_t *p, size_t blocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&s[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&s[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; blocks; blocks--, p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i w[4]; /* ring of the last 16 message words, 4 per vector */
#pragma GCC unroll 16
        for (int g = 0; g < 16; g++) {
            if (g < 4) {
                w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
            } else {
                /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four lanes at a time:
                 * w[g%4] holds words t-16.., w[(g+1)%4] t-12.., (g+2)%4 t-8.., (g+3)%4 t-4.. */
                __m128i t = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
                w[g & 3] = _mm_sha256msg2_epu32(t, w[(g + 3) & 3]);
            }
            __m128i wk =
                _mm_add_epi32(w[g & 3], _mm_loadu_si128((const __m128i *)&kiln_sha256_k[4 * g]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    dcba = _mm_blend_epi16(feba, dchg, 0xF0);
    hgfe = _mm_alignr_epi8(dchg, feba, 8);
    _mm_storeu_si128((__m128i *)&s[0], dcba);
    _mm_storeu_si128((__m128i *)&s[4], hgfe);
}
#endif

#ifdef KILN_SHA256_X86
static bool cpu_has_sha(void)
{
    /* CPUID directly: clang's __builtin_cpu_supports does not know "sha". Leaf 1: ECX bit 9
     * SSSE3, bit 19 SSE4.1; leaf 7 sub-leaf 0: EBX bit 29 SHA. */
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19))) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 29)) != 0;
}
#endif

bool kiln_sha256_has_extensions(void)
{
#ifdef KILN_SHA256_X86
    /* CPUID traps to the hypervisor in a virtual machine (tens of microseconds): asked once per
     * process and remembered. The answer is a property of the machine, the same for every
     * thread, so the only state is this idempotent cache (0 unknown, 1 no, 2 yes). */
    static _Atomic int known;
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (k == 0) {
        k = cpu_has_sha() ? 2 : 1;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k == 2;
#else
    return false;
#endif
}

void kiln_sha256_blocks(uint32_t s[8], const uint8_t *p, size_t blocks, bool extensions)
{
#ifdef KILN_SHA256_X86
    if (extensions) {
        blocks_shani(s, p, blocks);
        return;
    }
#else
    (void)extensions;
#endif
    kiln_sha256_blocks_portable(s, p, blocks);
}
