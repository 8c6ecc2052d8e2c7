/*
 * regs.h - the BAR0 register file mechanism.
 *
 * Each hardware block describes its registers in one const table of EmuReg (a dispatch table in
 * the style of e1000e/igb) and registers it with emu_regfile_add() together with its own state
 * pointer. A register is a scalar or a 1-D/2-D array; each element has 32 bits of storage.
 * Offsets are resolved through a two-level page table whose cells name the register and the
 * element, so an MMIO access finds both with two loads.
 * Accesses to offsets no block declared read 0, are dropped on write, and are traced.
 */
#ifndef IRDMA_EMU_REGS_H
#define IRDMA_EMU_REGS_H

#include <glib.h>
#include "core/host.h"

typedef struct EmuReg EmuReg;
typedef struct EmuRegFile EmuRegFile;

/* @idx is the flat element index: outer * count + inner. @val of a write is already masked
 * with wmask and merged with the read-only bits of the stored value. */
typedef uint32_t (*EmuRegReadFn)(void *blk, const EmuReg *r, unsigned idx);
typedef void (*EmuRegWriteFn)(void *blk, const EmuReg *r, unsigned idx, uint32_t val);

struct EmuReg {
    const char *name;
    uint32_t base;          /* offset of element 0 */
    uint32_t count;         /* elements of the inner dimension (0 means 1) */
    uint32_t stride;        /* bytes between inner elements */
    uint32_t count2;        /* elements of the outer dimension (0 means 1) */
    uint32_t stride2;       /* bytes between outer elements */
    uint32_t reset;         /* value after a device reset */
    uint32_t wmask;         /* bits a write may change */
    EmuRegReadFn read;      /* NULL: return the stored value */
    EmuRegWriteFn write;    /* NULL: store the merged value */
};

/* Size of the register space the file covers (BAR0). */
#define EMU_REGFILE_SPAN   (32u << 20)

EmuRegFile *emu_regfile_new(const IrdmaHost *host);
void emu_regfile_free(EmuRegFile *rf);

/* Declare @n registers of one block; @blk is passed to its handlers. Overlapping declarations
 * are a programming error and abort at start-up (static tables, not guest data). */
void emu_regfile_add(EmuRegFile *rf, const EmuReg *table, size_t n, void *blk);

/* Calls @fn for every declared register, in declaration order (tools/list-model prints them). */
void emu_regfile_foreach(EmuRegFile *rf, void (*fn)(const EmuReg *r, void *opaque), void *opaque);

/* Put every register back to its reset value. */
void emu_regfile_reset(EmuRegFile *rf);
/* The same for the @n registers of one block's @table (a PF reset of that block). */
void emu_regfile_reset_regs(EmuRegFile *rf, const EmuReg *table, size_t n);

/* Guest access, 32-bit, offset within BAR0. */
uint32_t emu_regfile_read(EmuRegFile *rf, uint32_t off);
void emu_regfile_write(EmuRegFile *rf, uint32_t off, uint32_t val);

/* Stored value of element @idx of @r, for handlers and the device's own updates. */
uint32_t emu_reg_get(EmuRegFile *rf, const EmuReg *r, unsigned idx);
void emu_reg_set(EmuRegFile *rf, const EmuReg *r, unsigned idx, uint32_t val);

/* Field helpers: @mask is the in-place field mask (contiguous bits). */
static inline uint32_t emu_field_get(uint32_t reg, uint32_t mask)
{
    return (reg & mask) >> __builtin_ctz(mask);
}

static inline uint32_t emu_field_set(uint32_t reg, uint32_t mask, uint32_t v)
{
    return (reg & ~mask) | ((v << __builtin_ctz(mask)) & mask);
}

/* Split 40-bit statistics counters (ice_hw_autogen.h GLPRT_*, GLV_*): a register of @n
 * instances at an 8-byte stride, each instance's low 32 bits in its L register and its high 8
 * bits in the H register 4 bytes above (the outer dimension: element @idx < @n is an L half). */
#define EMU_SPLIT40_STRIDE      8
#define EMU_SPLIT40_HALVES      2
#define EMU_SPLIT40_HALF_STRIDE 4
#define EMU_SPLIT40_MASK        ((1ull << 40) - 1)
#define EMU_SPLIT40_LOW_BITS    32

#define EMU_REG_SPLIT40(nm, off, n, fn) \
    { .name = nm, .base = off, .count = n, .stride = EMU_SPLIT40_STRIDE, \
      .count2 = EMU_SPLIT40_HALVES, .stride2 = EMU_SPLIT40_HALF_STRIDE, .read = fn }

static inline bool emu_split40_is(const EmuReg *r)
{
    return r->count2 == EMU_SPLIT40_HALVES && r->stride2 == EMU_SPLIT40_HALF_STRIDE;
}

/* The instance element @idx of a split 40-bit register @r belongs to. */
static inline unsigned emu_split40_counter(const EmuReg *r, unsigned idx)
{
    return idx % r->count;
}

/* What element @idx of @r reads of its instance's counter @v (wrapping at 40 bits). */
static inline uint32_t emu_split40_read(const EmuReg *r, unsigned idx, uint64_t v)
{
    v &= EMU_SPLIT40_MASK;
    return idx / r->count ? (uint32_t)(v >> EMU_SPLIT40_LOW_BITS) : (uint32_t)v;
}

#endif
