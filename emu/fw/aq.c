/* aq.c - admin queue engine (see aq.h). */
#include "fw/aq.h"
#include "fw/ctlq.h"
#include "core/e810_regs.h"
#include "fw/fw.h"
#include "fw/nvm.h"
#include "fw/sched.h"
#include "fw/pkg.h"
#include "fw/dcb.h"
#include "fw/link.h"
#include "fw/switch.h"
#include "core/intr.h"
#include "core/le.h"
#include "core/trace.h"

typedef struct AqEvent {
    uint16_t opcode;
    uint8_t params[AQ_PARAMS_SIZE];
    uint16_t len;
    uint8_t data[];
} AqEvent;

/* Events kept while the driver has posted no ARQ slot; past this the oldest are dropped, as
 * a real ARQ overflows. */
#define AQ_MAX_PENDING_EVENTS 64

struct AqEngine {
    IrdmaDev *d;
    GHashTable *opcodes;        /* opcode -> const AqOpcode * */
    EmuEvent *process_ev;       /* scheduled ATQ processing, or NULL */
    bool delayed;               /* process_ev is a fault-plan delay of the command at head */
    bool until_next;            /* ... which also waits for a command posted behind it */
    GQueue events;              /* AqEvent * waiting for an ARQ slot */
    uint8_t buf[AQ_MAX_BUF];
};

static const AqOpcodeTable *const opcode_tables[] = {
    &fw_general_opcodes,
    &fw_nvm_opcodes,
    &fw_sched_opcodes,
    &fw_pkg_opcodes,
    &fw_dcb_opcodes,
    &fw_link_opcodes,
    &fw_switch_opcodes,
};

const AqOpcodeTable *const *aq_opcode_tables(size_t *n)
{
    *n = G_N_ELEMENTS(opcode_tables);
    return opcode_tables;
}

AqEngine *aq_new(IrdmaDev *d)
{
    AqEngine *aq = g_new0(AqEngine, 1);

    aq->d = d;
    aq->opcodes = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_queue_init(&aq->events);
    for (size_t t = 0; t < G_N_ELEMENTS(opcode_tables); t++) {
        for (size_t i = 0; i < opcode_tables[t]->n; i++) {
            const AqOpcode *op = &opcode_tables[t]->ops[i];

            if (g_hash_table_contains(aq->opcodes, GUINT_TO_POINTER(op->opcode))) {
                g_error("irdma-emu: AQ opcode 0x%04x (%s) has two handlers", op->opcode, op->name);
            }
            g_hash_table_insert(aq->opcodes, GUINT_TO_POINTER(op->opcode), (gpointer)op);
        }
    }
    return aq;
}

void aq_free(AqEngine *aq)
{
    if (!aq) {
        return;
    }
    if (aq->process_ev) {
        emu_event_cancel(&aq->d->events, aq->process_ev);
    }
    g_queue_clear_full(&aq->events, g_free);
    g_hash_table_destroy(aq->opcodes);
    g_free(aq);
}

void aq_pf_reset(AqEngine *aq)
{
    if (aq->process_ev) {
        emu_event_cancel(&aq->d->events, aq->process_ev);
        aq->process_ev = NULL;
    }
    aq->delayed = aq->until_next = false;
    g_queue_clear_full(&aq->events, g_free);
}

const AqOpcode *aq_lookup(const AqEngine *aq, uint16_t opcode)
{
    return g_hash_table_lookup(aq->opcodes, GUINT_TO_POINTER(opcode));
}

/* Checks the buffer flags and length against what the opcode takes; AQ_RC_OK if they fit. */
static uint16_t check_buffer(const AqOpcode *op, const AqCmd *c)
{
    bool has_buf = c->flags & AQ_FLAG_BUF;
    bool rd = c->flags & AQ_FLAG_RD;

    if (op->buf == AQ_BUF_NONE || (op->buf == AQ_BUF_OUT_OPT && !has_buf)) {
        return AQ_RC_OK;
    }
    if (!has_buf || c->buf_len < op->min_len) {
        return AQ_RC_EINVAL;
    }
    if ((op->buf == AQ_BUF_IN || op->buf == AQ_BUF_INOUT) && !rd) {
        return AQ_RC_EINVAL;
    }
    return AQ_RC_OK;
}

static uint16_t execute(AqEngine *aq, AqCmd *c, uint64_t buf_addr)
{
    IrdmaDev *d = aq->d;
    const AqOpcode *op = aq_lookup(aq, c->opcode);
    uint16_t rc;

    if (!op) {
        /* "Bad opcode": what ice 7.3 takes as a firmware without the command
         * (ice_dpll_is_pps_phase_monitor). */
        emu_trace(&d->host, TR_ERR_AQ_UNKNOWN_OPCODE, "opcode=0x%04x: ESRCH", c->opcode);
        return AQ_RC_ESRCH;
    }
    if (c->flags & AQ_FLAG_BUF) {
        if (c->buf_len > AQ_MAX_BUF || (c->buf_len > AQ_LARGE_BUF && !(c->flags & AQ_FLAG_LB))) {
            emu_trace(&d->host, TR_ERR_AQ_BAD_BUFFER, "%s datalen=%u flags=0x%04x", op->name,
                      c->buf_len, c->flags);
            return AQ_RC_EINVAL;
        }
        if ((c->flags & AQ_FLAG_RD) &&
            d->host.ops->dma_read(d->host.opaque, buf_addr, c->buf, c->buf_len) < 0) {
            emu_trace(&d->host, TR_AQ_DMA_ERROR, "%s buffer read at 0x%" G_GINT64_MODIFIER "x",
                      op->name, buf_addr);
            return AQ_RC_EFAULT;
        }
    }
    rc = check_buffer(op, c);
    if (rc != AQ_RC_OK) {
        emu_trace(&d->host, TR_ERR_AQ_BAD_BUFFER, "%s datalen=%u flags=0x%04x (wants %s, >= %u)",
                  op->name, c->buf_len, c->flags,
                  op->buf == AQ_BUF_OUT ? "output" : "input", op->min_len);
        return rc;
    }
    rc = op->handler(d, c);
    emu_trace(&d->host, TR_AQ_CMD, "%s (0x%04x) datalen=%u -> rc=%u resp_len=%u", op->name,
              c->opcode, c->buf_len, rc, c->resp_len);
    if (c->resp_len > c->buf_len) {
        c->resp_len = c->buf_len;
    }
    if ((op->buf == AQ_BUF_OUT || op->buf == AQ_BUF_INOUT || op->buf == AQ_BUF_OUT_OPT) &&
        c->resp_len &&
        d->host.ops->dma_write(d->host.opaque, buf_addr, c->buf, c->resp_len) < 0) {
        emu_trace(&d->host, TR_AQ_DMA_ERROR, "%s buffer write at 0x%" G_GINT64_MODIFIER "x",
                  op->name, buf_addr);
        return AQ_RC_EFAULT;
    }
    return rc;
}

typedef enum SlotResult {
    SLOT_DONE,
    SLOT_UNREACHABLE,           /* the ring itself cannot be read or written */
    SLOT_DELAYED,               /* the fault plan holds the command back */
} SlotResult;

static void process_atq(void *opaque);

/* Runs the descriptor at ring slot @slot. */
static SlotResult process_slot(AqEngine *aq, uint64_t ring, unsigned slot)
{
    const FaultAction *fa;
    IrdmaDev *d = aq->d;
    uint8_t desc[AQ_DESC_SIZE];
    uint64_t desc_addr = ring + (uint64_t)slot * AQ_DESC_SIZE;
    AqCmd c = { .buf = aq->buf };
    uint64_t buf_addr;
    uint16_t rc, flags;

    if (d->host.ops->dma_read(d->host.opaque, desc_addr, desc, sizeof(desc)) < 0) {
        return SLOT_UNREACHABLE;
    }
    c.opcode = ld16(desc + AQ_DESC_OPCODE);
    c.flags = ld16(desc + AQ_DESC_FLAGS);
    memcpy(c.params, desc + AQ_DESC_PARAMS, AQ_PARAMS_SIZE);
    buf_addr = ((uint64_t)ld32(c.params + AQ_PARAM_ADDR_H) << 32) |
               ld32(c.params + AQ_PARAM_ADDR_L);
    c.buf_len = (c.flags & AQ_FLAG_BUF) ? ld16(desc + AQ_DESC_DATALEN) : 0;
    c.resp_len = c.buf_len;
    memset(aq->buf, 0, sizeof(aq->buf));

    /* A delayed command waits at head, as on slow firmware. */
    fa = fault_check_held(d, &aq->delayed, FAULT_ON_AQ, c.opcode, 0);
    if (fa && fa->kind == FAULT_DELAY) {
        aq->process_ev = emu_event_schedule(&d->events, fault_delay_ns(d, fa), process_atq, aq);
        aq->until_next = fa->until_next;
        emu_trace(&d->host, TR_AQ_CMD_DELAYED, "opcode=0x%04x by the fault plan%s", c.opcode,
                  fa->until_next ? ", and until a command is posted behind it" : "");
        return SLOT_DELAYED;
    }
    if (fa && fa->kind == FAULT_ERROR) {
        rc = fa->maj;                   /* the plan's return code, the command not run */
        emu_trace(&d->host, TR_AQ_CMD_FAILED, "opcode=0x%04x -> rc=%u by the fault plan",
                  c.opcode, rc);
    } else {
        rc = execute(aq, &c, buf_addr);
    }
    if (rc != AQ_RC_OK) {
        c.resp_len = (c.flags & AQ_FLAG_BUF) ? c.resp_len : 0;
    }
    /* Indirect commands keep their buffer address in the response. */
    if (c.flags & AQ_FLAG_BUF) {
        st32(c.params + AQ_PARAM_ADDR_H, buf_addr >> 32);
        st32(c.params + AQ_PARAM_ADDR_L, buf_addr);
    }
    flags = c.flags | AQ_FLAG_DD | AQ_FLAG_CMP | (rc ? AQ_FLAG_ERR : 0);
    st16(desc + AQ_DESC_FLAGS, flags);
    st16(desc + AQ_DESC_DATALEN, (c.flags & AQ_FLAG_BUF) ? c.resp_len : ld16(desc + AQ_DESC_DATALEN));
    st16(desc + AQ_DESC_RETVAL, rc);
    memcpy(desc + AQ_DESC_PARAMS, c.params, AQ_PARAMS_SIZE);
    return d->host.ops->dma_write(d->host.opaque, desc_addr, desc, sizeof(desc)) == 0 ?
           SLOT_DONE : SLOT_UNREACHABLE;
}

/* Processing of the command at the ATQ head, after its modelled firmware time. */
static void schedule_head(AqEngine *aq)
{
    IrdmaDev *d = aq->d;
    uint64_t ring = ((uint64_t)ctlq_get(d, CTLQ_ATQBAH) << 32) | ctlq_get(d, CTLQ_ATQBAL);
    uint64_t desc_addr = ring + (uint64_t)ctlq_get(d, CTLQ_ATQH) * AQ_DESC_SIZE;
    uint8_t desc[AQ_DESC_SIZE];
    uint16_t buf_len = 0;

    /* An unreadable slot is found (and reported) when the command runs. */
    if (d->host.ops->dma_read(d->host.opaque, desc_addr, desc, sizeof(desc)) == 0 &&
        (ld16(desc + AQ_DESC_FLAGS) & AQ_FLAG_BUF)) {
        buf_len = ld16(desc + AQ_DESC_DATALEN);
    }
    aq->process_ev = emu_event_schedule(&d->events, timing_aq_cmd_ns(&d->timing, buf_len),
                                        process_atq, aq);
}

static void process_atq(void *opaque)
{
    AqEngine *aq = opaque;
    IrdmaDev *d = aq->d;
    uint32_t len_reg = ctlq_get(d, CTLQ_ATQLEN);
    unsigned len = emu_field_get(len_reg, PF_FW_xQLEN_LEN_M);
    unsigned head = ctlq_get(d, CTLQ_ATQH);
    unsigned tail = ctlq_get(d, CTLQ_ATQT);
    uint64_t ring = ((uint64_t)ctlq_get(d, CTLQ_ATQBAH) << 32) | ctlq_get(d, CTLQ_ATQBAL);

    aq->process_ev = NULL;
    if (!(len_reg & PF_FW_xQLEN_ENABLE_M) || len == 0) {
        /* Not a guest error: ice clears the ring registers, tail too, with the queue off. */
        emu_trace(&d->host, TR_AQ_ATQ_DISABLED, "tail=%u len=0x%08x: ignored", tail, len_reg);
        return;
    }
    if (head >= len || tail >= len) {
        emu_trace(&d->host, TR_ERR_AQ_ATQ_BAD_INDEX, "head=%u tail=%u len=%u: critical error",
                  head, tail, len);
        ctlq_set(d, CTLQ_ATQLEN, len_reg | PF_FW_xQLEN_CRIT_M);
        return;
    }
    /* A delay until-next: ice serialises its commands, so the next one shows it gave up. */
    if (aq->delayed && aq->until_next && (head + 1) % len == tail) {
        emu_trace(&d->host, TR_AQ_CMD_DELAYED, "ATQ slot %u: its delay is over, held until a "
                  "command is posted behind it", head);
        return;
    }
    aq->until_next = false;
    /* At most one lap per doorbell: head reaches tail in fewer than len steps. */
    while (head != tail) {
        SlotResult res = process_slot(aq, ring, head);

        if (res == SLOT_DELAYED) {
            return;
        }
        if (res == SLOT_UNREACHABLE) {
            emu_trace(&d->host, TR_AQ_DMA_ERROR, "ATQ slot %u at 0x%" G_GINT64_MODIFIER "x: "
                      "critical error", head, ring + (uint64_t)head * AQ_DESC_SIZE);
            ctlq_set(d, CTLQ_ATQLEN, len_reg | PF_FW_xQLEN_CRIT_M);
            return;
        }
        head = (head + 1) % len;
        ctlq_set(d, CTLQ_ATQH, head);
        /* Modelled firmware answers one command at a time. */
        if (d->timing.mode == TIMING_MODEL && head != tail) {
            schedule_head(aq);
            return;
        }
    }
}

void aq_atq_tail_written(AqEngine *aq)
{
    /* Inline timing: the commands run in the doorbell write. ice polls each one for 1 s of
     * host time with its vCPU holding QEMU's BQL at every register read, and two guests
     * booting on two host CPUs have starved the main loop's timer that long (ice_init_hw
     * failed with -EIO in a pair run). */
    if (aq->delayed && aq->process_ev) {
        return;                 /* the delayed command's event runs up to the new tail */
    }
    if (aq->d->timing.mode == TIMING_INLINE) {
        if (aq->process_ev) {
            emu_event_cancel(&aq->d->events, aq->process_ev);
        }
        process_atq(aq);
        return;
    }
    if (!aq->process_ev) {
        schedule_head(aq);
    }
}

/* Writes queued events into posted ARQ slots; raises the AQ interrupt if any went out. */
static void deliver_events(AqEngine *aq)
{
    IrdmaDev *d = aq->d;
    uint32_t len_reg = ctlq_get(d, CTLQ_ARQLEN);
    unsigned len = emu_field_get(len_reg, PF_FW_xQLEN_LEN_M);
    uint64_t ring = ((uint64_t)ctlq_get(d, CTLQ_ARQBAH) << 32) | ctlq_get(d, CTLQ_ARQBAL);
    bool delivered = false;

    if (!(len_reg & PF_FW_xQLEN_ENABLE_M) || len == 0) {
        return;
    }
    while (!g_queue_is_empty(&aq->events)) {
        unsigned head = ctlq_get(d, CTLQ_ARQH);
        unsigned tail = ctlq_get(d, CTLQ_ARQT);
        uint8_t desc[AQ_DESC_SIZE];
        uint64_t desc_addr = ring + (uint64_t)head * AQ_DESC_SIZE;
        AqEvent *ev;
        uint64_t buf_addr;
        uint16_t room, n;

        if (head >= len || tail >= len || head == tail) {
            break;          /* no posted slot (or a bad index): keep the event */
        }
        if (d->host.ops->dma_read(d->host.opaque, desc_addr, desc, sizeof(desc)) < 0) {
            emu_trace(&d->host, TR_AQ_DMA_ERROR, "ARQ slot %u: critical error", head);
            ctlq_set(d, CTLQ_ARQLEN, len_reg | PF_FW_xQLEN_CRIT_M);
            break;
        }
        ev = g_queue_pop_head(&aq->events);
        room = ld16(desc + AQ_DESC_DATALEN);
        buf_addr = ((uint64_t)ld32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_H) << 32) |
                   ld32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L);
        n = MIN(room, ev->len);
        if (n && d->host.ops->dma_write(d->host.opaque, buf_addr, ev->data, n) < 0) {
            n = 0;
        }
        st16(desc + AQ_DESC_FLAGS, AQ_FLAG_DD | AQ_FLAG_CMP | (n ? AQ_FLAG_BUF : 0));
        st16(desc + AQ_DESC_OPCODE, ev->opcode);
        st16(desc + AQ_DESC_DATALEN, n);
        st16(desc + AQ_DESC_RETVAL, 0);
        memcpy(desc + AQ_DESC_PARAMS, ev->params, AQ_PARAM_ADDR_H);
        d->host.ops->dma_write(d->host.opaque, desc_addr, desc, sizeof(desc));
        emu_trace(&d->host, TR_AQ_EVENT, "opcode=0x%04x len=%u into ARQ slot %u", ev->opcode, n,
                  head);
        g_free(ev);
        ctlq_set(d, CTLQ_ARQH, (head + 1) % len);
        delivered = true;
    }
    if (delivered) {
        intr_raise_fw(d);
    }
}

void aq_arq_tail_written(AqEngine *aq)
{
    deliver_events(aq);
}

void aq_post_event(AqEngine *aq, uint16_t opcode, const uint8_t params[AQ_PARAMS_SIZE],
                   const void *data, uint16_t len)
{
    AqEvent *ev = g_malloc0(sizeof(*ev) + len);

    ev->opcode = opcode;
    if (params) {
        memcpy(ev->params, params, AQ_PARAMS_SIZE);
    }
    ev->len = len;
    if (len) {
        memcpy(ev->data, data, len);
    }
    if (g_queue_get_length(&aq->events) >= AQ_MAX_PENDING_EVENTS) {
        AqEvent *old = g_queue_pop_head(&aq->events);

        emu_trace(&aq->d->host, TR_AQ_EVENT_OVERFLOW, "dropped opcode=0x%04x", old->opcode);
        g_free(old);
    }
    g_queue_push_tail(&aq->events, ev);
    deliver_events(aq);
}
