/*
 * crc32.h - CRC-32 as zlib computes it (IEEE 802.3 polynomial, bit-reflected, pre- and
 * post-inverted), for the RoCEv2 ICRC. On x86-64 CPUs with PCLMULQDQ it folds 16 bytes per
 * carry-less multiplication instead of zlib's table lookups per byte, and with VPCLMULQDQ on
 * AVX-512 64 bytes (buffers of 512 bytes and more), eight registers side by side from 1 KiB.
 */
#ifndef IRDMA_EMU_CRC32_H
#define IRDMA_EMU_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* emu_crc32() takes whole blocks of this many bytes fast; a tail byte by byte. */
#define EMU_CRC32_BLOCK 16

/* The same as zlib's crc32_z(@crc, @buf, @len): 0 starts a CRC, the result continues one. */
uint32_t emu_crc32(uint32_t crc, const uint8_t *buf, size_t len);

#endif
