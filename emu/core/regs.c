/* regs.c - register file: declaration, lookup and dispatch (see regs.h). */
#include <string.h>
#include "core/regs.h"
#include "core/trace.h"

#define PAGE_SHIFT   12
#define PAGE_DWORDS  (1u << (PAGE_SHIFT - 2))
#define NUM_PAGES    (EMU_REGFILE_SPAN >> PAGE_SHIFT)

/* A page cell names the register and its element: (owner + 1) << CELL_OWNER_SHIFT | element,
 * 0 for a dword no block declared. One load finds both, with no per-element table to build. */
#define CELL_OWNER_SHIFT  20
#define CELL_ELEM_MASK    ((1u << CELL_OWNER_SHIFT) - 1)
#define MAX_OWNERS        ((1u << (32 - CELL_OWNER_SHIFT)) - 1)

typedef struct RegOwner {
    const EmuReg *reg;
    void *blk;
    uint32_t first;           /* slot of element 0 in vals */
} RegOwner;

struct EmuRegFile {
    const IrdmaHost *host;
    uint32_t *page[NUM_PAGES];    /* per 4 KiB: a cell per dword */
    GArray *vals;                 /* uint32_t per element of every register */
    GArray *owners;               /* RegOwner, in declaration order */
};

static uint32_t reg_count(const EmuReg *r)
{
    return r->count ? r->count : 1;
}

static uint32_t reg_count2(const EmuReg *r)
{
    return r->count2 ? r->count2 : 1;
}

static uint32_t reg_elems(const EmuReg *r)
{
    return reg_count(r) * reg_count2(r);
}

EmuRegFile *emu_regfile_new(const IrdmaHost *host)
{
    EmuRegFile *rf = g_new0(EmuRegFile, 1);

    rf->host = host;
    rf->vals = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    rf->owners = g_array_new(FALSE, FALSE, sizeof(RegOwner));
    return rf;
}

void emu_regfile_free(EmuRegFile *rf)
{
    for (unsigned i = 0; i < NUM_PAGES; i++) {
        g_free(rf->page[i]);
    }
    g_array_free(rf->vals, TRUE);
    g_array_free(rf->owners, TRUE);
    g_free(rf);
}

static void map_cell(EmuRegFile *rf, uint32_t off, uint32_t cell, const EmuReg *r)
{
    uint32_t **page = &rf->page[off >> PAGE_SHIFT];
    uint32_t *c;

    if (off >= EMU_REGFILE_SPAN || (off & 3)) {
        g_error("irdma-emu: register %s element at 0x%x outside BAR0 or unaligned", r->name, off);
    }
    if (!*page) {
        *page = g_new0(uint32_t, PAGE_DWORDS);
    }
    c = &(*page)[(off & ((1u << PAGE_SHIFT) - 1)) >> 2];
    if (*c) {
        g_error("irdma-emu: register %s overlaps another at 0x%x", r->name, off);
    }
    *c = cell;
}

void emu_regfile_add(EmuRegFile *rf, const EmuReg *table, size_t n, void *blk)
{
    uint32_t first = rf->vals->len, total = first;

    /* The table's values in one allocation rather than a regrowth per register. */
    for (size_t i = 0; i < n; i++) {
        total += reg_elems(&table[i]);
    }
    g_array_set_size(rf->vals, total);
    for (size_t i = 0; i < n; i++) {
        const EmuReg *r = &table[i];
        uint32_t elems = reg_elems(r), owner = rf->owners->len, e = 0;
        RegOwner o = { .reg = r, .blk = blk, .first = first };
        uint32_t *v = &g_array_index(rf->vals, uint32_t, first);

        if (owner >= MAX_OWNERS || elems > CELL_ELEM_MASK + 1) {
            g_error("irdma-emu: register %s: more registers or elements than a cell names",
                    r->name);
        }
        g_array_append_val(rf->owners, o);
        /* Outer, then inner: element outer * count + inner, without a division per element. */
        for (uint32_t outer = 0; outer < reg_count2(r); outer++) {
            for (uint32_t inner = 0; inner < reg_count(r); inner++, e++) {
                v[e] = r->reset;
                map_cell(rf, r->base + inner * r->stride + outer * r->stride2,
                         (owner + 1) << CELL_OWNER_SHIFT | e, r);
            }
        }
        first += elems;
    }
}

void emu_regfile_foreach(EmuRegFile *rf, void (*fn)(const EmuReg *r, void *opaque), void *opaque)
{
    for (unsigned i = 0; i < rf->owners->len; i++) {
        fn(g_array_index(rf->owners, RegOwner, i).reg, opaque);
    }
}

/* Every element of @o's register to its reset value. */
static void owner_reset(EmuRegFile *rf, const RegOwner *o)
{
    uint32_t *v = &g_array_index(rf->vals, uint32_t, o->first);

    for (uint32_t e = 0, elems = reg_elems(o->reg); e < elems; e++) {
        v[e] = o->reg->reset;
    }
}

void emu_regfile_reset(EmuRegFile *rf)
{
    for (unsigned i = 0; i < rf->owners->len; i++) {
        owner_reset(rf, &g_array_index(rf->owners, RegOwner, i));
    }
}

/* The cell of @off: 0 when no block declared it. */
static uint32_t lookup(const EmuRegFile *rf, uint32_t off)
{
    const uint32_t *page;

    if (off >= EMU_REGFILE_SPAN) {
        return 0;
    }
    page = rf->page[off >> PAGE_SHIFT];
    return page ? page[(off & ((1u << PAGE_SHIFT) - 1)) >> 2] : 0;
}

static const RegOwner *cell_owner(const EmuRegFile *rf, uint32_t cell)
{
    return &g_array_index(rf->owners, RegOwner, (cell >> CELL_OWNER_SHIFT) - 1);
}

uint32_t emu_regfile_read(EmuRegFile *rf, uint32_t off)
{
    uint32_t cell = lookup(rf, off & ~3u), e = cell & CELL_ELEM_MASK;
    const RegOwner *o;

    if (!cell) {
        emu_trace(rf->host, TR_ERR_REG_READ_UNIMPLEMENTED, "off=0x%06x", off);
        return 0;
    }
    o = cell_owner(rf, cell);
    if (o->reg->read) {
        return o->reg->read(o->blk, o->reg, e);
    }
    return g_array_index(rf->vals, uint32_t, o->first + e);
}

void emu_regfile_write(EmuRegFile *rf, uint32_t off, uint32_t val)
{
    uint32_t cell = lookup(rf, off & ~3u), e = cell & CELL_ELEM_MASK;
    const RegOwner *o;
    uint32_t *stored;
    uint32_t merged;

    if (!cell) {
        emu_trace(rf->host, TR_ERR_REG_WRITE_UNIMPLEMENTED, "off=0x%06x val=0x%08x", off, val);
        return;
    }
    o = cell_owner(rf, cell);
    stored = &g_array_index(rf->vals, uint32_t, o->first + e);
    merged = (*stored & ~o->reg->wmask) | (val & o->reg->wmask);
    if (o->reg->write) {
        o->reg->write(o->blk, o->reg, e, merged);
    } else {
        *stored = merged;
    }
}

/* @r's owner, found through element 0. */
static const RegOwner *reg_owner(const EmuRegFile *rf, const EmuReg *r)
{
    uint32_t cell = lookup(rf, r->base);
    const RegOwner *o = cell ? cell_owner(rf, cell) : NULL;

    if (!o || o->reg != r) {
        g_error("irdma-emu: register %s was never declared", r->name);
    }
    return o;
}

void emu_regfile_reset_regs(EmuRegFile *rf, const EmuReg *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        owner_reset(rf, reg_owner(rf, &table[i]));
    }
}

static uint32_t *elem_storage(EmuRegFile *rf, const EmuReg *r, unsigned idx)
{
    if (idx >= reg_elems(r)) {
        g_error("irdma-emu: register %s has no element %u", r->name, idx);
    }
    return &g_array_index(rf->vals, uint32_t, reg_owner(rf, r)->first + idx);
}

uint32_t emu_reg_get(EmuRegFile *rf, const EmuReg *r, unsigned idx)
{
    return *elem_storage(rf, r, idx);
}

void emu_reg_set(EmuRegFile *rf, const EmuReg *r, unsigned idx, uint32_t val)
{
    *elem_storage(rf, r, idx) = val;
}
