/* device.c - creation, reset and MMIO entry points of the device core (see device.h). */
#include "device.h"
#include "core/ids.h"
#include "pf.h"
#include "fw/aq.h"
#include "fw/ctlq.h"
#include "fw/fw.h"
#include "fw/nvm.h"
#include "fw/sched.h"
#include "fw/pkg.h"
#include "fw/dcb.h"
#include "fw/link.h"
#include "fw/switch.h"
#include "core/e810_regs.h"
#include "core/intr.h"
#include "lan/lan.h"
#include "lan/lan_rx.h"
#include "lan/lan_stats.h"
#include "rdma/roce.h"
#include "port/wire.h"
#include "core/fault.h"
#include "lan/lan_tx.h"
#include "rdma/pe_regs.h"
#include "rdma/cqp.h"
#include "rdma/hmc.h"
#include "rdma/qp.h"
#include "rdma/sq.h"
#include "rdma/ws.h"
#include "rdma/mr.h"
#include "rdma/ah.h"
#include "rdma/ltab.h"
#include "rdma/stats.h"
#include "rdma/cq.h"
#include "rdma/ceq.h"
#include "core/trace.h"

G_DEFINE_QUARK(irdma-dev-error-quark, irdma_dev_error)

/* ---- the host operations, with the guest-visible effects recorded ---- */

#define FNV64_OFFSET  0xcbf29ce484222325ull
#define FNV64_PRIME   0x100000001b3ull

typedef enum EffectKind {
    EFFECT_DMA_WRITE = 1,
    EFFECT_MSIX,
    EFFECT_FRAME,
} EffectKind;

/* FNV-1a's step on a whole word, then a fold so high bits reach the low ones: this runs for
 * every DMA write and frame, where a byte at a time cost 16 % of a small WRITE. */
static void mix_u64(uint64_t *h, uint64_t v)
{
    *h = (*h ^ v) * FNV64_PRIME;
    *h ^= *h >> 32;
}

/* The host's clock, read once per activation: a 64 B WRITE read it seven times, and in QEMU each
 * read is a clock_gettime(). */
static inline uint64_t now_ns(IrdmaDev *d)
{
    if (!d->activation_depth) {
        return d->outer.ops->clock_ns(d->outer.opaque);
    }
    if (!d->activation_has_now) {
        d->activation_now_ns = d->outer.ops->clock_ns(d->outer.opaque);
        d->activation_has_now = true;
    }
    return d->activation_now_ns;
}

static inline void record(IrdmaDev *d, EffectKind kind, uint64_t where, uint64_t len)
{
    uint64_t now = now_ns(d);

    mix_u64(&d->effects.digest, now);
    mix_u64(&d->effects.digest, kind);
    mix_u64(&d->effects.digest, where);
    mix_u64(&d->effects.digest, len);
    d->effects.count++;
    d->effects.last_ns = now;
}

/* A DMA fails as an unbacked address does: when the fault plan says so, and always on a
 * surprise-removed device, which is off the bus. */
static bool dma_fails(IrdmaDev *d, FaultEvent ev, uint64_t gpa, size_t len)
{
    const FaultAction *fa;

    if (fault_quiet(&d->fault)) {
        return false;
    }
    fa = fault_check(d, ev, 0, 0);
    if ((fa && fa->kind == FAULT_FAIL) || fault_removed(d)) {
        emu_trace(&d->host, TR_DEV_DMA_FAILED, "%s 0x%" G_GINT64_MODIFIER "x len=%zu: %s",
                  ev == FAULT_ON_DMA_READ ? "read" : "write", gpa, len,
                  fault_removed(d) ? "removed" : "by the fault plan");
        return true;
    }
    return false;
}

static int rec_dma_read(void *opaque, uint64_t gpa, void *buf, size_t len)
{
    IrdmaDev *d = opaque;

    if (dma_fails(d, FAULT_ON_DMA_READ, gpa, len)) {
        return -1;
    }
    return d->outer.ops->dma_read(d->outer.opaque, gpa, buf, len);
}

static int rec_dma_write(void *opaque, uint64_t gpa, const void *buf, size_t len)
{
    IrdmaDev *d = opaque;

    if (dma_fails(d, FAULT_ON_DMA_WRITE, gpa, len)) {
        return -1;
    }
    record(d, EFFECT_DMA_WRITE, gpa, len);
    /* Every device write passes here: looped payload in flight that it would change is copied
     * first (roce.h, RoceTrain). */
    buf = roce_dma_write_guard(d, gpa, buf, len);
    return d->outer.ops->dma_write(d->outer.opaque, gpa, buf, len);
}

static const void *rec_dma_map(void *opaque, uint64_t gpa, size_t *len)
{
    IrdmaDev *d = opaque;

    /* A fault plan sees every DMA, and a removed device makes none: no mapping around them,
     * the callers fall back to dma_read. */
    if (!d->outer.ops->dma_map || !fault_quiet(&d->fault)) {
        return NULL;
    }
    return d->outer.ops->dma_map(d->outer.opaque, gpa, len);
}

static void rec_dma_unmap(void *opaque, const void *p, size_t len)
{
    IrdmaDev *d = opaque;

    d->outer.ops->dma_unmap(d->outer.opaque, p, len);
}

static void msix_send(IrdmaDev *d, unsigned vector)
{
    if (fault_removed(d)) {
        return;
    }
    record(d, EFFECT_MSIX, vector, 0);
    d->outer.ops->msix_notify(d->outer.opaque, vector);
}

static void msix_deferred(IrdmaDev *d, const void *payload)
{
    msix_send(d, *(const unsigned *)payload);
}

static void rec_msix_notify(void *opaque, unsigned vector)
{
    IrdmaDev *d = opaque;
    const FaultAction *fa = fault_check(d, FAULT_ON_IRQ, vector, 0);

    switch (fa ? fa->kind : FAULT_NONE) {
    case FAULT_DROP:
        emu_trace(&d->host, TR_DEV_MSIX_DROPPED, "vector %u by the fault plan", vector);
        return;
    case FAULT_DELAY:
        fault_defer(d, fa, msix_deferred, &vector, sizeof(vector));
        return;
    case FAULT_DUPLICATE:
        msix_send(d, vector);
        break;
    default:
        break;
    }
    msix_send(d, vector);
}

static uint64_t rec_clock_ns(void *opaque)
{
    return now_ns(opaque);
}

/* A host call into the device (MMIO, a received frame) begins; activation_end() ends it. The
 * time is read anew. */
static void activation_begin(IrdmaDev *d)
{
    if (d->activation_depth++ == 0) {
        d->activation_has_now = false;
    }
}

static void activation_end(IrdmaDev *d)
{
    d->activation_depth--;
}

static void rec_timer_arm(void *opaque, uint64_t deadline_ns)
{
    IrdmaDev *d = opaque;

    d->outer.ops->timer_arm(d->outer.opaque, deadline_ns);
}

static void rec_timer_cancel(void *opaque)
{
    IrdmaDev *d = opaque;

    d->outer.ops->timer_cancel(d->outer.opaque);
}

static void rec_send_frame(void *opaque, const void *frame, size_t len)
{
    IrdmaDev *d = opaque;

    if (fault_removed(d)) {
        return;
    }
    record(d, EFFECT_FRAME, 0, len);
    d->outer.ops->send_frame(d->outer.opaque, frame, len);
}

static bool rec_trace_enabled(void *opaque, EmuTraceId event)
{
    IrdmaDev *d = opaque;

    return d->outer.ops->trace_enabled(d->outer.opaque, event);
}

static void rec_trace(void *opaque, EmuTraceId event, const char *detail)
{
    IrdmaDev *d = opaque;

    d->outer.ops->trace(d->outer.opaque, event, detail);
}

static const IrdmaHostOps recording_host_ops = {
    .dma_read = rec_dma_read,
    .dma_write = rec_dma_write,
    .dma_map = rec_dma_map,
    .dma_unmap = rec_dma_unmap,
    .msix_notify = rec_msix_notify,
    .clock_ns = rec_clock_ns,
    .timer_arm = rec_timer_arm,
    .timer_cancel = rec_timer_cancel,
    .send_frame = rec_send_frame,
    .trace_enabled = rec_trace_enabled,
    .trace = rec_trace,
};

void irdma_dev_config_init(IrdmaDevConfig *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->msix_vectors = IRDMA_MSIX_VECTORS_DEFAULT;
    cfg->link_speed_mbps = IRDMA_LINK_SPEED_DEFAULT;
    cfg->timing_mode = TIMING_INLINE;
    timing_params_default(&cfg->timing);
}

static bool config_valid(const IrdmaDevConfig *cfg, GError **errp)
{
    if (cfg->msix_vectors < IRDMA_MSIX_VECTORS_MIN || cfg->msix_vectors > IRDMA_MSIX_VECTORS_MAX) {
        g_set_error(errp, IRDMA_DEV_ERROR, 0, "msix-vectors=%u is out of range [%u, %u]",
                    cfg->msix_vectors, IRDMA_MSIX_VECTORS_MIN, IRDMA_MSIX_VECTORS_MAX);
        return false;
    }
    if (!fw_link_speed_supported(cfg->link_speed_mbps)) {
        g_set_error(errp, IRDMA_DEV_ERROR, 0,
                    "speed=%u is not a port speed of the model (10000, 25000, 50000, 100000)",
                    cfg->link_speed_mbps);
        return false;
    }
    if (cfg->mac[0] & 1) {
        g_set_error(errp, IRDMA_DEV_ERROR, 0,
                    "mac=%02x:%02x:%02x:%02x:%02x:%02x is a multicast address",
                    cfg->mac[0], cfg->mac[1], cfg->mac[2], cfg->mac[3], cfg->mac[4], cfg->mac[5]);
        return false;
    }
    return timing_params_valid(&cfg->timing, errp);
}

static const PfResets pf_resets = {
    .pf_reset = irdma_dev_pf_reset,
    .core_reset = irdma_dev_core_reset,
};

/* The admin queue's tail registers ring the AQ engine. */
static void atq_doorbell(IrdmaDev *d)
{
    aq_atq_tail_written(d->aq);
}

static void arq_doorbell(IrdmaDev *d)
{
    aq_arq_tail_written(d->aq);
}

static const CtlqDoorbells ctlq_doorbells = { .atq_tail = atq_doorbell, .arq_tail = arq_doorbell };

/* The wire's link is the PHY model's; received frames go to LAN Rx, looped ones to the RDMA
 * engine. */
static bool wire_link_up(IrdmaDev *d)
{
    return fw_link_is_up(d->link);
}

static bool wire_mac_loopback(IrdmaDev *d)
{
    return fw_link_mac_loopback(d->link);
}

static void wire_to_lan(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    lan_rx_frame(d->lan_rx, frame, len);
}

static const WireHandlers wire_handlers = {
    .link_up = wire_link_up,
    .mac_loopback = wire_mac_loopback,
    .rx_frame = wire_to_lan,
    .rx_looped = roce_rx_looped,
    .rx_train = roce_rx_train,
    .train_free = roce_train_free,
};

const FaultVocab irdma_dev_fault_vocab = {
    .cqp = &cqp_fault_opcodes,
    .wqe = &sq_fault_opcodes,
};

/* A fault plan's OICR cause (action oicr) with what the PE block latches along with it:
 * GLPE_CRITERR for a PE critical error, PFHMC_ERRORINFO for an HMC error. */
static void fault_latch_oicr(IrdmaDev *d, uint32_t cause, uint32_t value)
{
    if (cause & PFINT_OICR_PE_CRITERR_M) {
        pe_reg_set(d, PE_CRITERR, 0, value);
    }
    if (cause & PFINT_OICR_HMC_ERR_M) {
        pe_reg_set(d, PE_HMC_ERRORINFO, 0, value);
    }
}

IrdmaDev *irdma_dev_new(const IrdmaHostOps *ops, void *opaque, const IrdmaDevConfig *cfg,
                        GError **errp)
{
    IrdmaDev *d;

    if (!config_valid(cfg, errp)) {
        return NULL;
    }
    d = g_new0(IrdmaDev, 1);
    d->outer = (IrdmaHost) { .ops = ops, .opaque = opaque };
    d->host = (IrdmaHost) { .ops = &recording_host_ops, .opaque = d };
    d->effects.digest = FNV64_OFFSET;
    d->cfg = *cfg;
    timing_init(&d->timing, cfg->timing_mode, &cfg->timing, cfg->link_speed_mbps);
    d->regs = emu_regfile_new(&d->host);
    emu_event_queue_init(&d->events, &d->host);
    pf_block_init(d, &pf_resets);
    ctlq_block_init(d, &ctlq_doorbells);
    lan_block_init(d);
    d->intr = intr_new(d);
    d->aq = aq_new(d);
    d->lan_tx = lan_tx_new(d);
    d->lan_rx = lan_rx_new(d, roce_rx_frame);
    d->lan_stats = lan_stats_new(d);
    d->fw = fw_general_new(d);
    d->nvm = fw_nvm_new(d);
    d->sched = fw_sched_new(d);
    d->pkg = fw_pkg_new(d);
    d->dcb = fw_dcb_new(d);
    d->link = fw_link_new(d);
    d->sw = fw_switch_new(d);
    pe_regs_init(d);
    d->cqp = cqp_new(d);
    sq_block_init(d);
    d->hmc = hmc_new(d);
    d->cqs = cq_block_new(d);
    d->eqs = eqs_new(d);
    d->qps = qp_block_new(d);
    d->ws = ws_new(d);
    d->mrs = mr_block_new(d);
    d->ahs = ah_block_new(d);
    d->ltab = ltab_new(d);
    d->stats = stats_new(d);
    d->roce = roce_new(d);
    d->wire = wire_new(d, &wire_handlers);
    fault_state_init(&d->fault);
    d->fault.latch_oicr = fault_latch_oicr;
    return d;
}

void irdma_dev_free(IrdmaDev *d)
{
    if (!d) {
        return;
    }
    fault_state_destroy(d);
    wire_free(d->wire);
    roce_free(d->roce);
    stats_free(d->stats);
    ltab_free(d->ltab);
    ah_block_free(d->ahs);
    mr_block_free(d->mrs);
    ws_free(d->ws);
    qp_block_free(d->qps);
    eqs_free(d->eqs);
    cq_block_free(d->cqs);
    hmc_free(d->hmc);
    cqp_free(d->cqp);
    fw_switch_free(d->sw);
    fw_link_free(d->link);
    fw_dcb_free(d->dcb);
    fw_pkg_free(d->pkg);
    fw_sched_free(d->sched);
    fw_nvm_free(d->nvm);
    fw_general_free(d->fw);
    lan_rx_free(d->lan_rx);
    lan_tx_free(d->lan_tx);
    lan_stats_free(d->lan_stats);
    aq_free(d->aq);
    intr_free(d->intr);
    emu_event_queue_destroy(&d->events);
    emu_regfile_free(d->regs);
    g_free(d);
}

/* What a PF reset and a function reset both drop. Blocks cancel their own events first, so
 * none of them is left holding a handle to an event cancelled under it. */
static void reset_pf_state(IrdmaDev *d)
{
    lan_tx_reset(d->lan_tx);
    lan_rx_reset(d->lan_rx);
    aq_pf_reset(d->aq);
    /* The RDMA engine is PF state: the driver re-creates everything after a reset. */
    cqp_reset(d->cqp);
    stats_reset(d->stats);
    fault_drop_deferred(d);
    wire_reset(d->wire);
    timing_reset(&d->timing);
    cqp_objects_reset(d);
    pe_regs_reset(d);
    intr_reset(d->intr);
    fw_pf_reset(d);
}

void irdma_dev_reset(IrdmaDev *d)
{
    emu_trace(&d->host, TR_DEV_RESET, "function reset");
    fault_reset(d);
    reset_pf_state(d);
    lan_stats_reset(d->lan_stats);
    wire_stats_clear(d->wire);
    emu_event_cancel_all(&d->events);
    emu_regfile_reset(d->regs);
}

void irdma_dev_pf_reset(IrdmaDev *d)
{
    d->pf_resets++;
    reset_pf_state(d);
    ctlq_pf_reset(d);
    lan_pf_reset(d);
}

void irdma_dev_core_reset(IrdmaDev *d)
{
    irdma_dev_pf_reset(d);
    intr_regs_reset(d->intr);
}

static uint32_t mmio_read(IrdmaDev *d, uint32_t off)
{
    const FaultAction *fa = fault_check(d, FAULT_ON_REG_READ, off, 0);
    uint32_t val;

    if (fault_removed(d)) {
        return FAULT_REMOVED_READ;
    }
    val = emu_regfile_read(d->regs, off);
    if (fa && fa->kind == FAULT_CORRUPT) {
        emu_trace(&d->host, TR_DEV_MMIO_READ_CORRUPTED,
                  "0x%08x: 0x%08x -> 0x%08x by the fault plan",
                  off, val, fa->value);
        val = fa->value;
    }
    return val;
}

uint32_t irdma_dev_mmio_read(IrdmaDev *d, uint32_t off)
{
    uint32_t val;

    activation_begin(d);
    val = mmio_read(d, off);
    activation_end(d);
    return val;
}

static void mmio_write(IrdmaDev *d, uint32_t off, uint32_t val)
{
    const FaultAction *fa = fault_check(d, FAULT_ON_REG_WRITE, off, 0);

    if (fault_removed(d)) {
        return;
    }
    if (fa && (fa->kind == FAULT_DROP || fa->kind == FAULT_CORRUPT)) {
        emu_trace(&d->host, TR_DEV_MMIO_WRITE_FAULTED, "0x%08x: 0x%08x %s by the fault plan", off,
                  val, fa->kind == FAULT_DROP ? "dropped" : "replaced");
        if (fa->kind == FAULT_DROP) {
            return;
        }
        val = fa->value;
    }
    emu_regfile_write(d->regs, off, val);
}

void irdma_dev_mmio_write(IrdmaDev *d, uint32_t off, uint32_t val)
{
    activation_begin(d);
    mmio_write(d, off, val);
    activation_end(d);
}

void irdma_dev_set_carrier(IrdmaDev *d, bool up)
{
    fw_link_set_carrier(d->link, up);
}

void irdma_dev_receive(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    activation_begin(d);
    wire_receive(d, frame, len);
    activation_end(d);
}

/* Not an activation: a run of the event queue reads the clock as it goes, so what an event
 * schedules for now is due after the run (on a clock that runs: QEMU without -icount), and the
 * host's main loop has its turn between, say, two bursts of a large READ's answer. */
void irdma_dev_timer_expired(IrdmaDev *d)
{
    emu_event_queue_run(&d->events);
}

bool irdma_dev_set_faults(IrdmaDev *d, const char *path, GError **errp)
{
    FaultPlan *plan = NULL;

    if (*path && !(plan = fault_plan_load(&irdma_dev_fault_vocab, path, errp))) {
        return false;
    }
    fault_set_plan(d, plan);
    return true;
}

const char *irdma_dev_fault_log(IrdmaDev *d)
{
    return fault_log(d);
}

void irdma_dev_foreach_counter(IrdmaDev *d,
                               void (*fn)(void *opaque, const char *name, uint64_t *value),
                               void *opaque)
{
    const struct {
        const char *name;
        uint64_t *value;
    } counters[] = {
        /* the RDMA teardown leak checks */
        { "rdma-teardowns", &d->rdma_teardowns },
        { "rdma-leaked", &d->rdma_leaked },
        /* the LAN engines */
        { "lan-tx-frames", &lan_tx_stats(d->lan_tx)->frames },
        { "lan-rx-frames", &lan_rx_stats(d->lan_rx)->frames },
        { "lan-rx-no-desc", &lan_rx_stats(d->lan_rx)->no_desc },
        { "lan-rx-filtered", &lan_rx_stats(d->lan_rx)->filtered },
        /* the QP suspend/resume flows: SUSPEND_QP and SQD, RESUME_QP, AE 0x900 posted */
        { "rdma-suspends", &d->qp_suspends },
        { "rdma-resumes", &d->qp_resumes },
        { "rdma-suspend-aes", &d->qp_suspend_aes },
        /* the RoCEv2 packet path */
        { "roce-tx-frames", &roce_stats(d->roce)->tx_frames },
        { "roce-rx-frames", &roce_stats(d->roce)->rx_frames },
        { "roce-loopback-frames", &roce_stats(d->roce)->loopback_frames },
        { "roce-rx-bad-icrc", &roce_stats(d->roce)->rx_bad_icrc },
        /* frames the wire's queues had no room for (timing=model) */
        { "wire-dropped", &wire_stats(d->wire)->dropped },
        /* the device's own suspend and resume latencies (virtual ns; the timing model's
         * under -icount) */
        { "suspend-latency-count", &d->suspend_latency.count },
        { "suspend-latency-total-ns", &d->suspend_latency.total_ns },
        { "suspend-latency-min-ns", &d->suspend_latency.min_ns },
        { "suspend-latency-max-ns", &d->suspend_latency.max_ns },
        { "resume-latency-count", &d->resume_latency.count },
        { "resume-latency-total-ns", &d->resume_latency.total_ns },
        { "resume-latency-min-ns", &d->resume_latency.min_ns },
        { "resume-latency-max-ns", &d->resume_latency.max_ns },
        /* what the guest saw, for the determinism check under -icount */
        { "effects", &d->effects.count },
        { "effects-digest", &d->effects.digest },
        { "effects-last-ns", &d->effects.last_ns },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(counters); i++) {
        fn(opaque, counters[i].name, counters[i].value);
    }
}
