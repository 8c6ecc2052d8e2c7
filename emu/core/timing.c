/* timing.c - the timing model's parameters and costs (see timing.h, docs/timing.md). */
#include "core/timing.h"
#include "core/inet.h"

#define NS_PER_US           1000ull
#define ETH_MIN_FRAME       64       /* with the FCS */
#define ETH_PREAMBLE_IFG    20       /* preamble + SFD (8) and the inter-frame gap (12) */

/* One QP's payload rate: Intel's E810-CQDA2 moves about 49 Gb/s through a single QP of
 * ib_send_bw at 100 GbE (two QPs about 88, three about 91; docs/timing.md). */
#define E810_ONE_QP_MBPS    49000

#define PARAM(field, name_, dflt, lo, hi, unit_, src) \
    { .name = (name_), .offset = offsetof(IrdmaTimingParams, field), .def = (dflt), \
      .min = (lo), .max = (hi), .unit = (unit_), .source = (src) }

const TimingParamInfo timing_params[] = {
    PARAM(clock_mhz, "clock-mhz", 800, 1, 10000, "MHz",
          "assumption: Intel publishes no clock for the E810's RDMA engine"),
    PARAM(aq_cmd_ns, "aq-cmd-ns", 10000, 0, 1000000000, "ns",
          "assumption: a firmware round trip; ice checks every 100 us (ICE_CTL_Q_SQ_CMD_USEC)"),
    PARAM(aq_buf_ns_per_kib, "aq-buf-ns-per-kib", 1000, 0, 1000000000, "ns/KiB",
          "assumption: firmware copies buffers at about 1 GB/s"),
    PARAM(cqp_wqe_cycles, "cqp-wqe-cycles", 800, 0, 100000000, "cycles",
          "assumption: 1 us, a context read-modify-write and the CCQ CQE"),
    PARAM(cqp_qp_cycles, "cqp-qp-cycles", 2400, 0, 100000000, "cycles",
          "assumption: 3 us, a QP context of 512 bytes read and written back"),
    PARAM(cqp_hmc_cycles, "cqp-hmc-cycles", 16000, 0, 100000000, "cycles",
          "assumption: 20 us, the HMC function table and its segment descriptors"),
    PARAM(wqe_cycles, "wqe-cycles", 100, 0, 100000000, "cycles",
          "assumption: 125 ns to decode a WQE and resolve its STags"),
    PARAM(pkt_cycles, "pkt-cycles", 100, 0, 100000000, "cycles",
          "assumption: 125 ns per packet, the RoCEv2 headers and the ICRC"),
    PARAM(pcie_read_ns, "pcie-read-ns", 800, 0, 1000000000, "ns",
          "Neugebauer et al., SIGCOMM 2018: PCIe read latency 0.5-1 us on Gen3 hosts"),
    PARAM(pcie_write_ns, "pcie-write-ns", 400, 0, 1000000000, "ns",
          "assumption: half a read round trip (a posted write goes one way)"),
    PARAM(pcie_mbps, "pcie-mbps", 220000, 1000, 10000000, "Mb/s",
          "PCIe 4.0 x16: 252 Gb/s after 128b/130b, less ~12 % TLP headers at 256-byte payloads"),
    PARAM(qp_mbps, "qp-mbps", E810_ONE_QP_MBPS, 1000, 10000000, "Mb/s",
          "Intel support article 000059783: one QP of ib_send_bw on an E810-CQDA2, ~49 Gb/s"),
    PARAM(wire_ns, "wire-ns", 500, 0, 1000000000, "ns",
          "assumption: MAC, PHY and RS-FEC at both ends, 2 m of cable"),
    PARAM(rc_rto_ns, "rc-rto-ns", 100000000, 1000, 100000000000ull, "ns",
          "assumption: 100 ms; the QP's timeout field is not modelled"),
};
const size_t timing_param_count = G_N_ELEMENTS(timing_params);

uint64_t *timing_param_ptr(IrdmaTimingParams *p, const TimingParamInfo *info)
{
    return (uint64_t *)((char *)p + info->offset);
}

void timing_params_default(IrdmaTimingParams *p)
{
    for (size_t i = 0; i < timing_param_count; i++) {
        *timing_param_ptr(p, &timing_params[i]) = timing_params[i].def;
    }
}

bool timing_params_valid(const IrdmaTimingParams *p, GError **errp)
{
    for (size_t i = 0; i < timing_param_count; i++) {
        const TimingParamInfo *info = &timing_params[i];
        uint64_t v = *timing_param_ptr((IrdmaTimingParams *)p, info);

        if (v < info->min || v > info->max) {
            g_set_error(errp, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "timing-%s=%" G_GUINT64_FORMAT " is out of range [%" G_GUINT64_FORMAT
                        ", %" G_GUINT64_FORMAT "] %s", info->name, v, info->min, info->max,
                        info->unit);
            return false;
        }
    }
    return true;
}

bool timing_mode_parse(const char *s, IrdmaTimingMode *mode)
{
    if (!g_strcmp0(s, "model")) {
        *mode = TIMING_MODEL;
    } else if (!g_strcmp0(s, "inline")) {
        *mode = TIMING_INLINE;
    } else {
        return false;
    }
    return true;
}

void timing_stat_add(TimingStat *s, uint64_t ns)
{
    s->min_ns = s->count ? MIN(s->min_ns, ns) : ns;
    s->max_ns = MAX(s->max_ns, ns);
    s->total_ns += ns;
    s->count++;
}

void timing_init(IrdmaTiming *t, IrdmaTimingMode mode, const IrdmaTimingParams *p,
                 uint64_t link_mbps)
{
    t->mode = mode;
    t->p = *p;
    t->link_mbps = link_mbps;
    timing_reset(t);
}

void timing_reset(IrdmaTiming *t)
{
    t->tx_dma.free_at = t->rx_dma.free_at = t->wire.free_at = 0;
}

static bool modelled(const IrdmaTiming *t)
{
    return t->mode == TIMING_MODEL;
}

uint64_t timing_cycles_ns(const IrdmaTiming *t, uint64_t cycles)
{
    return cycles * NS_PER_US / t->p.clock_mhz;
}

/* @bits at @mbps (bits per microsecond), rounded up. */
static uint64_t bits_ns(uint64_t bits, uint64_t mbps)
{
    return (bits * NS_PER_US + mbps - 1) / mbps;
}

/* Start no earlier than @ready, after what the unit already has; busy for @busy_ns. */
static uint64_t reserve(TimingUnit *u, uint64_t ready, uint64_t busy_ns)
{
    uint64_t start = MAX(ready, u->free_at);

    u->free_at = start + busy_ns;
    return u->free_at;
}

/* Every command costs the same firmware round trip; a buffer adds its copy. */
uint64_t timing_aq_cmd_ns(const IrdmaTiming *t, uint16_t buf_len)
{
    if (!modelled(t)) {
        return 0;
    }
    return t->p.aq_cmd_ns + (uint64_t)buf_len * t->p.aq_buf_ns_per_kib / 1024;
}

uint64_t timing_cqp_wqe_ns(const IrdmaTiming *t, TimingCqpClass cls)
{
    uint64_t cycles;

    if (!modelled(t)) {
        return 0;
    }
    switch (cls) {
    case TIMING_CQP_QP:
        cycles = t->p.cqp_qp_cycles;
        break;
    case TIMING_CQP_HMC:
        cycles = t->p.cqp_hmc_cycles;
        break;
    default:
        cycles = t->p.cqp_wqe_cycles;
        break;
    }
    /* The WQE is read, processed, and its CCQ CQE written. */
    return t->p.pcie_read_ns + timing_cycles_ns(t, cycles) + t->p.pcie_write_ns;
}

uint64_t timing_sq_fetch_ns(const IrdmaTiming *t)
{
    return modelled(t) ? t->p.pcie_read_ns + timing_cycles_ns(t, t->p.wqe_cycles) : 0;
}

uint64_t timing_desc_fetch_ns(const IrdmaTiming *t)
{
    return modelled(t) ? t->p.pcie_read_ns : 0;
}

uint64_t timing_qp_wait_ns(const IrdmaTiming *t, const TimingUnit *qp, uint64_t now)
{
    return modelled(t) && qp->free_at > now ? qp->free_at - now : 0;
}

void timing_qp_issue(IrdmaTiming *t, TimingUnit *qp, uint64_t now, size_t payload_bytes)
{
    if (modelled(t)) {
        reserve(qp, now, bits_ns(payload_bytes * 8, t->p.qp_mbps));
    }
}

uint64_t timing_tx_frame(IrdmaTiming *t, uint64_t now, size_t dma_bytes, size_t frame_len)
{
    uint64_t ready = now, wire_bytes = MAX(frame_len + ETH_FCS_LEN, ETH_MIN_FRAME) +
                                       ETH_PREAMBLE_IFG;

    if (!modelled(t)) {
        return now;
    }
    if (dma_bytes) {
        ready = reserve(&t->tx_dma, now, bits_ns(dma_bytes * 8, t->p.pcie_mbps)) +
                t->p.pcie_read_ns;
    }
    ready += timing_cycles_ns(t, t->p.pkt_cycles);
    return reserve(&t->wire, ready, bits_ns(wire_bytes * 8, t->link_mbps));
}

uint64_t timing_rx_frame(IrdmaTiming *t, uint64_t now, size_t frame_len)
{
    if (!modelled(t)) {
        return now;
    }
    return reserve(&t->rx_dma, now + timing_cycles_ns(t, t->p.pkt_cycles),
                   bits_ns(frame_len * 8, t->p.pcie_mbps)) + t->p.pcie_write_ns;
}

uint64_t timing_wire_backlog_ns(const IrdmaTiming *t, uint64_t now)
{
    return t->wire.free_at > now ? t->wire.free_at - now : 0;
}
