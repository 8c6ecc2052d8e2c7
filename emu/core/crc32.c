/* crc32.c - CRC-32, zlib's, folded with PCLMULQDQ where the CPU has it, and 64 bytes per
 * multiplication with VPCLMULQDQ on AVX-512 (see crc32.h). */
#include <stdbool.h>
#include <zlib.h>
#include "core/crc32.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32_CLMUL 1
#endif

#ifdef CRC32_CLMUL
#include <immintrin.h>

/*
 * Folding (Intel, "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction",
 * 2009), the bit-reflected variant. A 128-bit lane of the remainder is carried D bits further
 * down the message by multiplying its two 64-bit halves by x^(D+32) and x^(D-32) mod P and
 * adding the two products to the lane D bits on; the last lane is reduced to 96, then 64 bits
 * and brought to 32 by Barrett reduction. In the reflected domain the low half of a register is
 * the higher-degree one, and a carry-less product of two reflected operands comes out one bit
 * short: each constant is (x^E mod P) bit-reflected over 32 bits, shifted left by one.
 */
#define CLMUL_X544     0x154442bd4ull   /* x^(4*128+32) mod P: four lanes on */
#define CLMUL_X480     0x1c6e41596ull   /* x^(4*128-32) mod P */
#define CLMUL_X160     0x1751997d0ull   /* x^(128+32) mod P: one lane on */
#define CLMUL_X96      0x0ccaa009eull   /* x^(128-32) mod P: 128 -> 96 bits */
#define CLMUL_X64      0x163cd6124ull   /* x^64 mod P: 96 -> 64 bits */
#define CLMUL_MU       0x1f7011641ull   /* floor(x^64 / P), bit-reflected over 33 bits */
#define CLMUL_POLY     0x1db710641ull   /* P, bit-reflected over 33 bits */
#define CLMUL_LANE     EMU_CRC32_BLOCK  /* bytes per 128-bit lane */
#define CLMUL_LANES    4                /* lanes folded side by side (multiplier latency) */
/* AVX-512: a 512-bit register holds four lanes; four registers are folded side by side, eight
 * on long buffers (on cores whose multiplier has a long latency, such as AMD's Zen 4, four
 * chains leave it idle half the time: 4 KiB at 27 against 47 GB/s). */
#define CLMUL_X2080    0x11542778aull   /* x^(16*128+32) mod P: four registers on */
#define CLMUL_X2016    0x1322d1430ull   /* x^(16*128-32) mod P */
#define CLMUL_X4128    0x01072db28ull   /* x^(32*128+32) mod P: eight registers on */
#define CLMUL_X4064    0x1d741f35cull   /* x^(32*128-32) mod P */
#define CLMUL_ZMM      64               /* bytes per 512-bit register */
#define CLMUL_ZMMS     4                /* registers folded side by side */
#define CLMUL_ZMMS_LONG 8               /* ... on buffers of CLMUL_ZMM_LONG bytes and more */
#define CLMUL_ZMM_MIN  (2 * CLMUL_ZMMS * CLMUL_ZMM)   /* shorter buffers take 128-bit lanes */
#define CLMUL_ZMM_LONG (2 * CLMUL_ZMMS_LONG * CLMUL_ZMM)
#define CLMUL_ZMM_TARGET "avx512f,avx512vl,vpclmulqdq,pclmul"

/* Chosen once, when the program is loaded. */
static bool crc32_use_clmul, crc32_use_zmm;

static void __attribute__((constructor)) crc32_select(void)
{
    __builtin_cpu_init();
    crc32_use_clmul = __builtin_cpu_supports("pclmul");
    crc32_use_zmm = crc32_use_clmul && __builtin_cpu_supports("avx512f") &&
                    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("vpclmulqdq");
}

__attribute__((target("pclmul")))
static inline __m128i lane_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

/* @x carried on by the distance @k holds (low half: x^(D+32), high: x^(D-32)), plus @next. */
__attribute__((target("pclmul")))
static inline __m128i fold(__m128i x, __m128i k, __m128i next)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
                                       _mm_clmulepi64_si128(x, k, 0x11)), next);
}

/* The low 32 bits of @x, the rest zero. */
__attribute__((target("pclmul")))
static inline __m128i low32(__m128i x)
{
    return _mm_cvtsi32_si128(_mm_cvtsi128_si32(x));
}

/* @x, the first lane (the CRC register added), carried over the @len bytes at @p that follow
 * it (a multiple of CLMUL_LANE) and reduced: the CRC register, not inverted. */
__attribute__((target("pclmul")))
static uint32_t crc32_lanes(__m128i x, const uint8_t *p, size_t len)
{
    const __m128i k4 = _mm_set_epi64x(CLMUL_X480, CLMUL_X544);
    const __m128i k1 = _mm_set_epi64x(CLMUL_X96, CLMUL_X160);
    const __m128i k64 = _mm_set_epi64x(0, CLMUL_X64);
    const __m128i barrett = _mm_set_epi64x(CLMUL_MU, CLMUL_POLY);

    if (len >= (CLMUL_LANES - 1) * CLMUL_LANE) {
        __m128i x1 = lane_load(p), x2 = lane_load(p + CLMUL_LANE);
        __m128i x3 = lane_load(p + 2 * CLMUL_LANE);

        p += (CLMUL_LANES - 1) * CLMUL_LANE;
        len -= (CLMUL_LANES - 1) * CLMUL_LANE;
        for (; len >= CLMUL_LANES * CLMUL_LANE; p += CLMUL_LANES * CLMUL_LANE,
                                                len -= CLMUL_LANES * CLMUL_LANE) {
            x = fold(x, k4, lane_load(p));
            x1 = fold(x1, k4, lane_load(p + CLMUL_LANE));
            x2 = fold(x2, k4, lane_load(p + 2 * CLMUL_LANE));
            x3 = fold(x3, k4, lane_load(p + 3 * CLMUL_LANE));
        }
        x = fold(fold(fold(x, k1, x1), k1, x2), k1, x3);
    }
    for (; len; p += CLMUL_LANE, len -= CLMUL_LANE) {
        x = fold(x, k1, lane_load(p));
    }
    /* 128 -> 96 bits: the low (higher-degree) half times x^96 onto the high half. */
    x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(x, k1, 0x10));
    /* 96 -> 64 bits. */
    x = _mm_xor_si128(_mm_srli_si128(x, 4), _mm_clmulepi64_si128(low32(x), k64, 0x00));
    /* Barrett: q = (low 32 bits) * mu, remainder = x - q * P, in bits 32..63. */
    x = _mm_xor_si128(x, _mm_clmulepi64_si128(
            low32(_mm_clmulepi64_si128(low32(x), barrett, 0x10)), barrett, 0x00));
    return _mm_cvtsi128_si32(_mm_srli_si128(x, 4));
}

/* The CRC register (not inverted) @crc carried over @len bytes: a multiple of CLMUL_LANE. */
__attribute__((target("pclmul")))
static uint32_t crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc32_lanes(_mm_xor_si128(lane_load(p), _mm_cvtsi32_si128(crc)), p + CLMUL_LANE,
                       len - CLMUL_LANE);
}

/* fold() on the four lanes of a 512-bit register at once. */
__attribute__((target(CLMUL_ZMM_TARGET)))
static inline __m512i fold_zmm(__m512i x, __m512i k, __m512i next)
{
    /* 0x96: the three-way exclusive or. */
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
                                     _mm512_clmulepi64_epi128(x, k, 0x11), next, 0x96);
}

/* Every lane selected: the zero-masking forms of the broadcast and the extraction, which GCC 12
 * writes without the undefined-value operand its plain forms trip -Wuninitialized with. */
#define ALL_LANES16 ((__mmask16)0xffff)
#define ALL_LANES8  ((__mmask8)0xff)

/* @regs registers at *@p (the first with @crc added) folded side by side, @kregs carrying
 * each @regs registers on, for as long as *@len holds @regs more, then into one; *@p and *@len
 * past what was taken. Inlined with @regs a constant, so that the registers stay registers. */
__attribute__((target(CLMUL_ZMM_TARGET), always_inline))
static inline __m512i fold_side_by_side(const uint8_t **p, size_t *len, uint32_t crc,
                                        unsigned regs, __m512i kregs)
{
    const __m512i k4 = _mm512_maskz_broadcast_i32x4(ALL_LANES16,
                                                    _mm_set_epi64x(CLMUL_X480, CLMUL_X544));
    const size_t step = regs * CLMUL_ZMM;
    __m512i x[CLMUL_ZMMS_LONG];

#pragma GCC unroll 8
    for (unsigned i = 0; i < regs; i++) {
        x[i] = _mm512_loadu_si512(*p + i * CLMUL_ZMM);
    }
    x[0] = _mm512_xor_si512(x[0], _mm512_zextsi128_si512(_mm_cvtsi32_si128(crc)));
    for (*p += step, *len -= step; *len >= step; *p += step, *len -= step) {
#pragma GCC unroll 8
        for (unsigned i = 0; i < regs; i++) {
            x[i] = fold_zmm(x[i], kregs, _mm512_loadu_si512(*p + i * CLMUL_ZMM));
        }
    }
#pragma GCC unroll 8
    for (unsigned i = 1; i < regs; i++) {
        x[0] = fold_zmm(x[0], k4, x[i]);
    }
    return x[0];
}

/* crc32_clmul() for @len of at least CLMUL_ZMM_MIN: four or eight registers of four lanes folded
 * side by side, then one, whose lanes are folded into one for crc32_lanes() with the rest. */
__attribute__((target(CLMUL_ZMM_TARGET)))
static uint32_t crc32_zmm(uint32_t crc, const uint8_t *p, size_t len)
{
    const __m512i k4 = _mm512_maskz_broadcast_i32x4(ALL_LANES16,
                                                    _mm_set_epi64x(CLMUL_X480, CLMUL_X544));
    __m512i x;
    __m128i k1, lane;

    if (len >= CLMUL_ZMM_LONG) {
        x = fold_side_by_side(&p, &len, crc, CLMUL_ZMMS_LONG, _mm512_maskz_broadcast_i32x4(
                                  ALL_LANES16, _mm_set_epi64x(CLMUL_X4064, CLMUL_X4128)));
    } else {
        x = fold_side_by_side(&p, &len, crc, CLMUL_ZMMS, _mm512_maskz_broadcast_i32x4(
                                  ALL_LANES16, _mm_set_epi64x(CLMUL_X2016, CLMUL_X2080)));
    }
    for (; len >= CLMUL_ZMM; p += CLMUL_ZMM, len -= CLMUL_ZMM) {
        x = fold_zmm(x, k4, _mm512_loadu_si512(p));
    }
    /* Its four lanes, carried onto the last, stand for the message so far. */
    k1 = _mm_set_epi64x(CLMUL_X96, CLMUL_X160);
    lane = _mm512_castsi512_si128(x);
    lane = fold(lane, k1, _mm512_maskz_extracti32x4_epi32(ALL_LANES8, x, 1));
    lane = fold(lane, k1, _mm512_maskz_extracti32x4_epi32(ALL_LANES8, x, 2));
    lane = fold(lane, k1, _mm512_maskz_extracti32x4_epi32(ALL_LANES8, x, 3));
    /* crc32_lanes() and the caller run SSE code: with the upper halves of the vector
     * registers left dirty, every SSE instruction after this would wait on a merge with them. */
    _mm256_zeroupper();
    return crc32_lanes(lane, p, len);
}
#endif

uint32_t emu_crc32(uint32_t crc, const uint8_t *buf, size_t len)
{
#ifdef CRC32_CLMUL
    if (crc32_use_clmul && len >= CLMUL_LANE) {
        size_t n = len & ~(size_t)(CLMUL_LANE - 1);

        crc = ~(crc32_use_zmm && n >= CLMUL_ZMM_MIN ? crc32_zmm : crc32_clmul)(~crc, buf, n);
        buf += n;
        len -= n;
    }
#endif
    /* The tail, and everything on other CPUs. */
    return crc32_z(crc, buf, len);
}
