/* regs.c - register file: declaration, lookup and dispatch (see regs.h). */
#include <string.h>
#include "core/regs.h"
#include "core/trace.h"

#define PAGE_SHIFT   12
#define PAGE_DWORDS  (1u << (PAGE_SHIFT - 2))
#define NUM_PAGES    (EMU_REGFILE_SPAN >> PAGE_SHIFT)

typedef struct RegSlotOwner {
    const EmuReg *reg;
    void *blk;
    uint32_t first;           /* slot of element 0 */
} RegSlotOwner;

struct EmuRegFile {
    const IrdmaHost *host;
    uint32_t *page[NUM_PAGES];    /* per 4 KiB: slot + 1 of each dword, 0 = undeclared */
    GArray *vals;                 /* uint32_t per slot */
    GArray *slot_owner;           /* uint32_t per slot: index into owners */
    GArray *owners;               /* RegSlotOwner */
};

static uint32_t reg_count(const EmuReg *r)
{
    return r->count ? r->count : 1;
}

static uint32_t reg_count2(const EmuReg *r)
{
    return r->count2 ? r->count2 : 1;
}

static uint32_t elem_offset(const EmuReg *r, unsigned idx)
{
    return r->base + (idx % reg_count(r)) * r->stride + (idx / reg_count(r)) * r->stride2;
}

EmuRegFile *emu_regfile_new(const IrdmaHost *host)
{
    EmuRegFile *rf = g_new0(EmuRegFile, 1);

    rf->host = host;
    rf->vals = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    rf->slot_owner = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    rf->owners = g_array_new(FALSE, TRUE, sizeof(RegSlotOwner));
    return rf;
}

void emu_regfile_free(EmuRegFile *rf)
{
    for (unsigned i = 0; i < NUM_PAGES; i++) {
        g_free(rf->page[i]);
    }
    g_array_free(rf->vals, TRUE);
    g_array_free(rf->slot_owner, TRUE);
    g_array_free(rf->owners, TRUE);
    g_free(rf);
}

static void map_slot(EmuRegFile *rf, uint32_t off, uint32_t slot, const EmuReg *r)
{
    uint32_t **page = &rf->page[off >> PAGE_SHIFT];
    uint32_t *cell;

    if (off >= EMU_REGFILE_SPAN || (off & 3)) {
        g_error("irdma-emu: register %s element at 0x%x outside BAR0 or unaligned", r->name, off);
    }
    if (!*page) {
        *page = g_new0(uint32_t, PAGE_DWORDS);
    }
    cell = &(*page)[(off & ((1u << PAGE_SHIFT) - 1)) >> 2];
    if (*cell) {
        g_error("irdma-emu: register %s overlaps another at 0x%x", r->name, off);
    }
    *cell = slot + 1;
}

void emu_regfile_add(EmuRegFile *rf, const EmuReg *table, size_t n, void *blk)
{
    for (size_t i = 0; i < n; i++) {
        const EmuReg *r = &table[i];
        uint32_t elems = reg_count(r) * reg_count2(r);
        RegSlotOwner o = { .reg = r, .blk = blk, .first = rf->vals->len };
        uint32_t owner_idx = rf->owners->len;

        g_array_append_val(rf->owners, o);
        g_array_set_size(rf->vals, rf->vals->len + elems);
        for (uint32_t e = 0; e < elems; e++) {
            g_array_append_val(rf->slot_owner, owner_idx);
            g_array_index(rf->vals, uint32_t, o.first + e) = r->reset;
            map_slot(rf, elem_offset(r, e), o.first + e, r);
        }
    }
}

void emu_regfile_foreach(EmuRegFile *rf, void (*fn)(const EmuReg *r, void *opaque), void *opaque)
{
    for (unsigned i = 0; i < rf->owners->len; i++) {
        fn(g_array_index(rf->owners, RegSlotOwner, i).reg, opaque);
    }
}

void emu_regfile_reset(EmuRegFile *rf)
{
    for (unsigned i = 0; i < rf->owners->len; i++) {
        const RegSlotOwner *o = &g_array_index(rf->owners, RegSlotOwner, i);
        uint32_t elems = reg_count(o->reg) * reg_count2(o->reg);

        for (uint32_t e = 0; e < elems; e++) {
            g_array_index(rf->vals, uint32_t, o->first + e) = o->reg->reset;
        }
    }
}

void emu_regfile_reset_regs(EmuRegFile *rf, const EmuReg *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t elems = reg_count(&table[i]) * reg_count2(&table[i]);

        for (uint32_t e = 0; e < elems; e++) {
            emu_reg_set(rf, &table[i], e, table[i].reset);
        }
    }
}

/* Slot of @off, or -1 when no block declared it. */
static int64_t lookup(const EmuRegFile *rf, uint32_t off)
{
    const uint32_t *page;

    if (off >= EMU_REGFILE_SPAN) {
        return -1;
    }
    page = rf->page[off >> PAGE_SHIFT];
    if (!page || !page[(off & ((1u << PAGE_SHIFT) - 1)) >> 2]) {
        return -1;
    }
    return page[(off & ((1u << PAGE_SHIFT) - 1)) >> 2] - 1;
}

static const RegSlotOwner *slot_owner(const EmuRegFile *rf, uint32_t slot)
{
    return &g_array_index(rf->owners, RegSlotOwner,
                          g_array_index(rf->slot_owner, uint32_t, slot));
}

uint32_t emu_regfile_read(EmuRegFile *rf, uint32_t off)
{
    int64_t slot = lookup(rf, off & ~3u);
    const RegSlotOwner *o;

    if (slot < 0) {
        emu_trace(rf->host, TR_ERR_REG_READ_UNIMPLEMENTED, "off=0x%06x", off);
        return 0;
    }
    o = slot_owner(rf, slot);
    if (o->reg->read) {
        return o->reg->read(o->blk, o->reg, slot - o->first);
    }
    return g_array_index(rf->vals, uint32_t, slot);
}

void emu_regfile_write(EmuRegFile *rf, uint32_t off, uint32_t val)
{
    int64_t slot = lookup(rf, off & ~3u);
    const RegSlotOwner *o;
    uint32_t *stored;
    uint32_t merged;

    if (slot < 0) {
        emu_trace(rf->host, TR_ERR_REG_WRITE_UNIMPLEMENTED, "off=0x%06x val=0x%08x", off, val);
        return;
    }
    o = slot_owner(rf, slot);
    stored = &g_array_index(rf->vals, uint32_t, slot);
    merged = (*stored & ~o->reg->wmask) | (val & o->reg->wmask);
    if (o->reg->write) {
        o->reg->write(o->blk, o->reg, slot - o->first, merged);
    } else {
        *stored = merged;
    }
}

static uint32_t *elem_storage(EmuRegFile *rf, const EmuReg *r, unsigned idx)
{
    int64_t slot = lookup(rf, elem_offset(r, idx));

    if (slot < 0 || slot_owner(rf, slot)->reg != r) {
        g_error("irdma-emu: register %s[%u] was never declared", r->name, idx);
    }
    return &g_array_index(rf->vals, uint32_t, slot);
}

uint32_t emu_reg_get(EmuRegFile *rf, const EmuReg *r, unsigned idx)
{
    return *elem_storage(rf, r, idx);
}

void emu_reg_set(EmuRegFile *rf, const EmuReg *r, unsigned idx, uint32_t val)
{
    *elem_storage(rf, r, idx) = val;
}
