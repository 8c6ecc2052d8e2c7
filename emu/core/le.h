/* le.h - little-endian loads and stores on byte buffers (descriptors, AQ buffers, contexts). */
#ifndef IRDMA_EMU_LE_H
#define IRDMA_EMU_LE_H

#include <stdint.h>
#include <string.h>

static inline uint16_t ld16(const void *p)
{
    const uint8_t *b = p;
    return (uint16_t)(b[0] | (b[1] << 8));
}

static inline uint32_t ld32(const void *p)
{
    const uint8_t *b = p;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static inline uint64_t ld64(const void *p)
{
    return ld32(p) | ((uint64_t)ld32((const uint8_t *)p + 4) << 32);
}

static inline void st16(void *p, uint16_t v)
{
    uint8_t *b = p;
    b[0] = v;
    b[1] = v >> 8;
}

static inline void st32(void *p, uint32_t v)
{
    st16(p, v);
    st16((uint8_t *)p + 2, v >> 16);
}

static inline void st64(void *p, uint64_t v)
{
    st32(p, v);
    st32((uint8_t *)p + 4, v >> 32);
}

/* Field of @width bits at bit @lsb of a packed little-endian context (queue contexts). */
static inline uint64_t ld_bits(const uint8_t *ctx, unsigned lsb, unsigned width)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < width; i++) {
        unsigned b = lsb + i;

        v |= (uint64_t)((ctx[b / 8] >> (b % 8)) & 1) << i;
    }
    return v;
}

#endif
