/*
 * irdma-sim: QEMU glue for the E810 + RDMA device model.
 *
 * This file only adapts QEMU to the QEMU-independent core in emu/: it creates the PCI function
 * (BAR0 registers, BAR3 MSI-X, PCIe and DSN capabilities), implements the core's host
 * operations on pci_dma_*, msix_notify, a QEMUTimer and a NIC, and turns each core trace event
 * into its own QEMU trace event (irdma_sim_<name>, hw/trace-events is generated from the
 * catalogue emu/core/trace_events.h) and, for guest errors and what the model does not
 * implement, a -d guest_errors / -d unimp log line. Device behaviour lives in emu/.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "exec/cpu-common.h"
#include "qemu/module.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qapi/visitor.h"
#include "qom/object.h"
#include "hw/pci/pci.h"
#include "hw/pci/pci_bus.h"
#include "hw/pci/pcie.h"
#include "hw/pci/pcie_regs.h"
#include "hw/pci/msix.h"
#include "migration/vmstate.h"
#include "net/net.h"
#include "trace.h"
#include "irdma-sim-compat.h"

#include "emu/device.h"
#include "emu/core/trace.h"

#define TYPE_IRDMA_SIM "irdma-sim"
OBJECT_DECLARE_SIMPLE_TYPE(IrdmaSimState, IRDMA_SIM)

/* Config-space layout: standard capabilities, then the DSN extended capability. */
#define IRDMA_SIM_CAP_PCIE      0xa0
/* The link as trained (Link Status), in the trace's words: Gen4 x16. */
#define IRDMA_SIM_LINK_GTS      16
#define IRDMA_SIM_LINK_WIDTH    16
#define IRDMA_SIM_CAP_MSIX      0x70
#define IRDMA_SIM_EXTCAP_DSN    0x100

struct IrdmaSimState {
    PCIDevice parent_obj;

    MemoryRegion bar0;
    MemoryRegion msix_bar;
    QEMUTimer *event_timer;
    QEMUTimer *turn_timer;          /* model timing under -icount, vCPUs to share: see
                                     * irdma_sim_pass_turn() */
    NICState *nic;
    NICConf conf;
    uint32_t msix_vectors;
    uint32_t link_speed_mbps;
    char *timing_mode;              /* "auto", "model" or "inline" */
    bool vcpu_turns;                /* vcpu-turns: see irdma_sim_pass_turn() */
    int64_t turns_until;            /* vcpu-turns: turns bounded until then (virtual ns) */
    IrdmaTimingParams timing;       /* the timing-* properties */
    char *faults;                   /* the fault plan's file, or NULL */

    IrdmaDev *core;
};

/* ---- host operations for the core ---- */

static int host_dma_read(void *opaque, uint64_t gpa, void *buf, size_t len)
{
    IrdmaSimState *s = opaque;
    MemTxResult r = pci_dma_read(PCI_DEVICE(s), gpa, buf, len);

    if (r != MEMTX_OK) {
        trace_irdma_sim_dma_error("read", gpa, len);
        return -1;
    }
    return 0;
}

static int host_dma_write(void *opaque, uint64_t gpa, const void *buf, size_t len)
{
    IrdmaSimState *s = opaque;
    MemTxResult r = pci_dma_write(PCI_DEVICE(s), gpa, buf, len);

    if (r != MEMTX_OK) {
        trace_irdma_sim_dma_error("write", gpa, len);
        return -1;
    }
    return 0;
}

static const void *host_dma_map(void *opaque, uint64_t gpa, size_t *len)
{
    IrdmaSimState *s = opaque;
    dma_addr_t plen = *len;
    ram_addr_t offset;
    void *p = pci_dma_map(PCI_DEVICE(s), gpa, &plen, DMA_DIRECTION_TO_DEVICE);

    if (!p) {
        return NULL;
    }
    /* Guest RAM only: anything else maps through QEMU's one bounce buffer, not to be held. */
    if (!qemu_ram_block_from_host(p, false, &offset)) {
        pci_dma_unmap(PCI_DEVICE(s), p, plen, DMA_DIRECTION_TO_DEVICE, 0);
        return NULL;
    }
    *len = plen;
    return p;
}

static void host_dma_unmap(void *opaque, const void *p, size_t len)
{
    IrdmaSimState *s = opaque;

    pci_dma_unmap(PCI_DEVICE(s), (void *)p, len, DMA_DIRECTION_TO_DEVICE, 0);
}

static void host_msix_notify(void *opaque, unsigned vector)
{
    IrdmaSimState *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);

    if (vector >= s->msix_vectors || !msix_enabled(pdev)) {
        trace_irdma_sim_msix_dropped(vector);
        return;
    }
    trace_irdma_sim_msix(vector);
    msix_notify(pdev, vector);
}

static uint64_t host_clock_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void host_timer_arm(void *opaque, uint64_t deadline_ns)
{
    IrdmaSimState *s = opaque;

    timer_mod(s->event_timer, deadline_ns > INT64_MAX ? INT64_MAX : (int64_t)deadline_ns);
}

static void host_timer_cancel(void *opaque)
{
    IrdmaSimState *s = opaque;

    timer_del(s->event_timer);
}

static void host_send_frame(void *opaque, const void *frame, size_t len)
{
    IrdmaSimState *s = opaque;

    trace_irdma_sim_tx_frame(len);
    qemu_send_packet(qemu_get_queue(s->nic), frame, len);
}

/* Whether the QEMU trace event of catalogue entry @event is on. */
static bool emu_event_traced(EmuTraceId event)
{
    switch (event) {
#define EMU_TRACE_STATE(id, name, block, kind) \
    case TR_##id: \
        return trace_event_get_state_backends(TRACE_IRDMA_SIM_##id);
    EMU_TRACE_EVENTS(EMU_TRACE_STATE)
#undef EMU_TRACE_STATE
    case TR__COUNT:
        break;
    }
    return false;
}

/* The qemu_log_mask() class an event of the catalogue is also logged under, or 0. */
static int emu_event_log_mask(EmuTraceId event)
{
    switch (emu_trace_events[event].kind) {
    case EMU_TRACE_GUEST_ERROR:
        return LOG_GUEST_ERROR;
    case EMU_TRACE_UNIMP:
        return LOG_UNIMP;
    case EMU_TRACE_NORMAL:
        break;
    }
    return 0;
}

static bool host_trace_enabled(void *opaque, EmuTraceId event)
{
    int mask = emu_event_log_mask(event);

    return emu_event_traced(event) || (mask && qemu_loglevel_mask(mask));
}

static void host_trace(void *opaque, EmuTraceId event, const char *detail)
{
    int mask = emu_event_log_mask(event);

    switch (event) {
#define EMU_TRACE_EMIT(id, name, block, kind) \
    case TR_##id: \
        trace_irdma_sim_##name(detail); \
        break;
    EMU_TRACE_EVENTS(EMU_TRACE_EMIT)
#undef EMU_TRACE_EMIT
    case TR__COUNT:
        break;
    }
    if (mask) {
        qemu_log_mask(mask, "irdma-sim: %s: %s\n", emu_trace_events[event].name, detail);
    }
}

static const IrdmaHostOps irdma_sim_host_ops = {
    .dma_read = host_dma_read,
    .dma_write = host_dma_write,
    .dma_map = host_dma_map,
    .dma_unmap = host_dma_unmap,
    .msix_notify = host_msix_notify,
    .clock_ns = host_clock_ns,
    .timer_arm = host_timer_arm,
    .timer_cancel = host_timer_cancel,
    .send_frame = host_send_frame,
    .trace_enabled = host_trace_enabled,
    .trace = host_trace,
};

/*
 * Under -icount QEMU runs the vCPUs in turn, in one thread, each up to the virtual clock's next
 * deadline. The vCPU whose turn begins at an expired deadline spends that turn running the
 * timers (with no instructions to run), so the vCPU that ran up to the device's deadline can run
 * again, until the next one: often the guest's next tick. A process polling on another vCPU for
 * what the device has just placed (perftest's latency tools: one process per vCPU) would see it
 * milliseconds late, and measure QEMU's turn order, not the device. A timer due 1 ns later,
 * set after each of the device's events and each register write, ends the turn there and makes
 * the next turn run timers, so the turns pass on (property vcpu-turns, off by default). Not
 * 0 ns: a timer due at once may be run by the main loop at any host moment, and two runs then
 * differed at once; 1 ns ahead, two of three pairs of runs gave one digest and one pair did
 * not, so with it a run of more than one vCPU is not sure to repeat. Both places are needed:
 * ib_write_lat / ib_send_lat medians (2 B, timing=model, 2 vCPUs) were 3999 / 2001 us with the
 * events' timer alone, 2.25 / 1999.86 us with the register writes' alone, 1.99 / 2.34 us with
 * both (without either, ib_write_lat 1999.82 us). Model timing only: with inline timing the
 * device places everything within the register write, and there the turns passed on made
 * ib_write_lat 5999.88 us instead of 0.72. QEMU 11 gives each vCPU of a round the same budget,
 * the round's deadline divided among them, worked out before the first runs: the vCPU after
 * the one the timer stopped no longer stops at it, and a polling process may spin through its
 * whole share (ib_write_lat 30.9 us). So while the device is busy (IRDMA_SIM_TURNS_AFTER_NS
 * after its last event or register write) the timer also comes back every IRDMA_SIM_TURN_NS,
 * which bounds every round.
 */
#define IRDMA_SIM_TURN_NS           1000
#define IRDMA_SIM_TURNS_AFTER_NS    200000
static void irdma_sim_turn_timer(void *opaque)
{
    IrdmaSimState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    /* Being due was its purpose; while the device is busy it also bounds every turn. */
    if (now < s->turns_until) {
        timer_mod_ns(s->turn_timer, now + IRDMA_SIM_TURN_NS);
    }
}

static void irdma_sim_pass_turn(IrdmaSimState *s)
{
    if (s->turn_timer) {
        int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

        s->turns_until = now + IRDMA_SIM_TURNS_AFTER_NS;
        timer_mod_ns(s->turn_timer, now + 1);
    }
}

/*
 * The core runs from its timer and from the NIC as well as from MMIO, and its DMA must not
 * reach its own BARs from there either: QEMU's memory core refuses a device's re-entrant MMIO
 * only while one of its MMIO accesses (or guarded bottom halves) is in progress. Without this,
 * a ring, buffer or MSI-X address a guest points at BAR0 makes the core run a register write
 * (a PF reset, say) in the middle of an operation that the timer started: under timing=model
 * every command is such an operation. The DMA is refused instead (a DMA error to the core, as
 * it is from MMIO), so the device behaves the same whatever started the operation.
 */
static bool irdma_sim_guard_enter(IrdmaSimState *s)
{
    MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
    bool engaged = guard->engaged_in_io;

    guard->engaged_in_io = true;
    return engaged;
}

static void irdma_sim_guard_exit(IrdmaSimState *s, bool engaged)
{
    DEVICE(s)->mem_reentrancy_guard.engaged_in_io = engaged;
}

static void irdma_sim_event_timer(void *opaque)
{
    IrdmaSimState *s = opaque;
    bool engaged = irdma_sim_guard_enter(s);

    irdma_dev_timer_expired(s->core);
    irdma_sim_guard_exit(s, engaged);
    irdma_sim_pass_turn(s);
}

/* ---- BAR0 ---- */

static uint64_t irdma_sim_bar0_read(void *opaque, hwaddr addr, unsigned size)
{
    IrdmaSimState *s = opaque;
    uint32_t val = irdma_dev_mmio_read(s->core, addr);

    trace_irdma_sim_mmio_read(addr, val);
    return val;
}

static void irdma_sim_bar0_write(void *opaque, hwaddr addr, uint64_t val, unsigned size)
{
    IrdmaSimState *s = opaque;

    trace_irdma_sim_mmio_write(addr, val);
    irdma_dev_mmio_write(s->core, addr, val);
    irdma_sim_pass_turn(s);
}

static const MemoryRegionOps irdma_sim_bar0_ops = {
    .read = irdma_sim_bar0_read,
    .write = irdma_sim_bar0_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* The driver uses 32-bit accesses (and readq on a few counters): split wider ones. */
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* ---- the NIC ---- */

/* The device takes every frame: what finds no queue or descriptor is dropped and counted by
 * the core, as the hardware's receive FIFO would. */
static ssize_t irdma_sim_receive(NetClientState *nc, const uint8_t *buf, size_t size)
{
    IrdmaSimState *s = qemu_get_nic_opaque(nc);
    bool engaged = irdma_sim_guard_enter(s);

    trace_irdma_sim_rx_frame(size);
    irdma_dev_receive(s->core, buf, size);
    irdma_sim_guard_exit(s, engaged);
    return size;
}

static void irdma_sim_link_status_changed(NetClientState *nc)
{
    IrdmaSimState *s = qemu_get_nic_opaque(nc);
    bool engaged = irdma_sim_guard_enter(s);

    trace_irdma_sim_link(!nc->link_down);
    irdma_dev_set_carrier(s->core, !nc->link_down);
    irdma_sim_guard_exit(s, engaged);
}

static NetClientInfo irdma_sim_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = irdma_sim_receive,
    .link_status_changed = irdma_sim_link_status_changed,
};

/* ---- PCI device ---- */

/* Device serial number as the E810 derives it from its MAC: mac[0..2] ff ff mac[3..5]. */
static uint64_t irdma_sim_dsn(const uint8_t *mac)
{
    return ((uint64_t)mac[0] << 56) | ((uint64_t)mac[1] << 48) | ((uint64_t)mac[2] << 40) |
           (0xffffULL << 24) | ((uint64_t)mac[3] << 16) | ((uint64_t)mac[4] << 8) | mac[5];
}

/*
 * The E810 is a PCIe 4.0 x16 card: an Endpoint whose link trained at 16 GT/s x16, wherever it
 * is placed. QEMU's pcie_endpoint_cap_init() would make it a Root Complex Integrated Endpoint
 * on a root bus (q35's pcie.0 without a root port), a type that has no link: Linux then reads
 * no Link Capabilities or Status of it and ice reports "0.000 Gb/s available PCIe bandwidth
 * (... x255 link)". So the capability is always the Endpoint's, with its link filled in
 * (QEMU fills endpoints as 2.5 GT/s x1).
 */
static int irdma_sim_pcie_cap_init(PCIDevice *pdev, Error **errp)
{
    if (pcie_cap_init(pdev, IRDMA_SIM_CAP_PCIE, PCI_EXP_TYPE_ENDPOINT, 0, errp) < 0) {
        return -1;
    }
    trace_irdma_sim_pcie_link(pci_get_bus(pdev)->parent_dev ? "bus of a port" : "root bus",
                              IRDMA_SIM_LINK_GTS, IRDMA_SIM_LINK_WIDTH);
    return 0;
}

static void irdma_sim_fill_link(PCIDevice *pdev)
{
    uint8_t *exp_cap = pdev->config + pdev->exp.exp_cap;

    pci_long_test_and_clear_mask(exp_cap + PCI_EXP_LNKCAP, PCI_EXP_LNKCAP_MLW | PCI_EXP_LNKCAP_SLS);
    pci_long_test_and_set_mask(exp_cap + PCI_EXP_LNKCAP,
                               QEMU_PCI_EXP_LNKCAP_MLW(QEMU_PCI_EXP_LNK_X16) |
                               QEMU_PCI_EXP_LNKCAP_MLS(QEMU_PCI_EXP_LNK_16GT));
    pci_set_long(exp_cap + PCI_EXP_LNKCAP2, PCI_EXP_LNKCAP2_SLS_2_5GB | PCI_EXP_LNKCAP2_SLS_5_0GB |
                 PCI_EXP_LNKCAP2_SLS_8_0GB | PCI_EXP_LNKCAP2_SLS_16_0GB);
    pci_word_test_and_clear_mask(exp_cap + PCI_EXP_LNKSTA, PCI_EXP_LNKSTA_NLW | PCI_EXP_LNKSTA_CLS);
    pci_word_test_and_set_mask(exp_cap + PCI_EXP_LNKSTA,
                               QEMU_PCI_EXP_LNKSTA_NLW(QEMU_PCI_EXP_LNK_X16) |
                               QEMU_PCI_EXP_LNKSTA_CLS(QEMU_PCI_EXP_LNK_16GT));
}

/* Function-level reset (DEVCTL.BCR_FLR): the PCI core resets the device through qdev. */
static void irdma_sim_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val, int len)
{
    pci_default_write_config(pdev, addr, val, len);
    pcie_cap_flr_write_config(pdev, addr, val, len);
}

/* The device's counters, read-only for test harnesses (qom-get): "x-" and the core's name. */
static void irdma_sim_add_counter(void *opaque, const char *name, uint64_t *value)
{
    g_autofree char *prop = g_strdup_printf("x-%s", name);

    object_property_add_uint64_ptr(OBJECT(opaque), prop, value, OBJ_PROP_FLAG_READ);
}

static void irdma_sim_add_counters(IrdmaSimState *s)
{
    irdma_dev_foreach_counter(s->core, irdma_sim_add_counter, s);
}

/* timing=auto: the model under -icount, where the virtual clock is the guest's own time;
 * inline otherwise, where it is host time and the guest runs far slower than hardware. */
static bool irdma_sim_timing_mode(IrdmaSimState *s, IrdmaTimingMode *mode, Error **errp)
{
    if (!s->timing_mode || !strcmp(s->timing_mode, "auto")) {
        *mode = icount_enabled() ? TIMING_MODEL : TIMING_INLINE;
        return true;
    }
    if (!timing_mode_parse(s->timing_mode, mode)) {
        error_setg(errp, "irdma-sim: timing=%s is not one of auto, model, inline",
                   s->timing_mode);
        return false;
    }
    return true;
}

static void irdma_sim_realize(PCIDevice *pdev, Error **errp)
{
    IrdmaSimState *s = IRDMA_SIM(pdev);
    IrdmaDevConfig cfg;
    g_autoptr(GError) gerr = NULL;
    uint8_t bar_type = PCI_BASE_ADDRESS_SPACE_MEMORY | PCI_BASE_ADDRESS_MEM_TYPE_64 |
                       PCI_BASE_ADDRESS_MEM_PREFETCH;

    irdma_dev_config_init(&cfg);
    cfg.msix_vectors = s->msix_vectors;
    cfg.link_speed_mbps = s->link_speed_mbps;
    cfg.timing = s->timing;
    if (!irdma_sim_timing_mode(s, &cfg.timing_mode, errp)) {
        return;
    }
    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    memcpy(cfg.mac, s->conf.macaddr.a, sizeof(cfg.mac));
    s->core = irdma_dev_new(&irdma_sim_host_ops, s, &cfg, &gerr);
    if (!s->core) {
        error_setg(errp, "irdma-sim: %s", gerr->message);
        return;
    }

    if (s->faults && *s->faults && !irdma_dev_set_faults(s->core, s->faults, &gerr)) {
        error_setg(errp, "irdma-sim: faults=%s: %s", s->faults, gerr->message);
        goto fail;
    }

    pci_config_set_revision(pdev->config, IRDMA_PCI_REVISION);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_VENDOR_ID, IRDMA_PCI_SUBSYS_VENDOR_ID);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_ID, IRDMA_PCI_SUBSYS_ID);
    pdev->config[PCI_INTERRUPT_PIN] = 1;

    memory_region_init_io(&s->bar0, OBJECT(s), &irdma_sim_bar0_ops, s, "irdma-sim-bar0",
                          IRDMA_BAR0_SIZE);
    pci_register_bar(pdev, 0, bar_type, &s->bar0);
    memory_region_init(&s->msix_bar, OBJECT(s), "irdma-sim-msix", IRDMA_MSIX_BAR_SIZE);
    pci_register_bar(pdev, IRDMA_MSIX_BAR, bar_type, &s->msix_bar);

    if (irdma_sim_pcie_cap_init(pdev, errp) < 0) {
        error_prepend(errp, "irdma-sim: failed to add the PCIe capability: ");
        goto fail;
    }
    irdma_sim_fill_link(pdev);
    pcie_cap_flr_init(pdev);
    if (msix_init(pdev, s->msix_vectors, &s->msix_bar, IRDMA_MSIX_BAR, IRDMA_MSIX_TABLE_OFFSET,
                  &s->msix_bar, IRDMA_MSIX_BAR, IRDMA_MSIX_PBA_OFFSET, IRDMA_SIM_CAP_MSIX,
                  errp) < 0) {
        goto fail_pcie;
    }
    for (unsigned v = 0; v < s->msix_vectors; v++) {
        msix_vector_use(pdev, v);
    }
    pcie_dev_ser_num_init(pdev, IRDMA_SIM_EXTCAP_DSN, irdma_sim_dsn(cfg.mac));

    irdma_sim_add_counters(s);
    s->event_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, irdma_sim_event_timer, s);
    if (s->vcpu_turns && cfg.timing_mode == TIMING_MODEL && icount_enabled() &&
        current_machine->smp.cpus > 1) {
        s->turn_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, irdma_sim_turn_timer, s);
    }
    s->nic = qemu_new_nic(&irdma_sim_net_info, &s->conf, object_get_typename(OBJECT(s)),
                          DEVICE(s)->id, &DEVICE(s)->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);
    irdma_dev_set_carrier(s->core, !qemu_get_queue(s->nic)->link_down);
    return;

fail_pcie:
    pcie_cap_exit(pdev);
fail:
    irdma_dev_free(s->core);
    s->core = NULL;
}

static void irdma_sim_exit(PCIDevice *pdev)
{
    IrdmaSimState *s = IRDMA_SIM(pdev);

    qemu_del_nic(s->nic);
    /* The core cancels its timer through the host ops, so free it before the timer. */
    irdma_dev_free(s->core);
    timer_free(s->event_timer);
    if (s->turn_timer) {
        timer_free(s->turn_timer);
    }
    msix_unuse_all_vectors(pdev);
    msix_uninit(pdev, &s->msix_bar, &s->msix_bar);
    pcie_cap_exit(pdev);
}

static void irdma_sim_qdev_reset(DeviceState *dev)
{
    IrdmaSimState *s = IRDMA_SIM(dev);

    irdma_dev_reset(s->core);
}

static const VMStateDescription irdma_sim_vmstate = {
    .name = TYPE_IRDMA_SIM,
    .unmigratable = 1,
};

static IRDMA_SIM_PROPERTY irdma_sim_properties[] = {
    DEFINE_NIC_PROPERTIES(IrdmaSimState, conf),
    DEFINE_PROP_UINT32("msix-vectors", IrdmaSimState, msix_vectors,
                       IRDMA_MSIX_VECTORS_DEFAULT),
    DEFINE_PROP_UINT32("speed", IrdmaSimState, link_speed_mbps, IRDMA_LINK_SPEED_DEFAULT),
    DEFINE_PROP_STRING("timing", IrdmaSimState, timing_mode),
    DEFINE_PROP_BOOL("vcpu-turns", IrdmaSimState, vcpu_turns, false),
    IRDMA_SIM_PROPS_END
};

/* The timing-* properties, one per row of the core's parameter table (emu/core/timing.h); the
 * core checks their ranges when it is created. */
static void irdma_sim_get_timing(Object *obj, Visitor *v, const char *name, void *opaque,
                                 Error **errp)
{
    IrdmaSimState *s = IRDMA_SIM(obj);

    visit_type_uint64(v, name, timing_param_ptr(&s->timing, opaque), errp);
}

static void irdma_sim_set_timing(Object *obj, Visitor *v, const char *name, void *opaque,
                                 Error **errp)
{
    IrdmaSimState *s = IRDMA_SIM(obj);

    if (DEVICE(obj)->realized) {
        error_setg(errp, "irdma-sim: %s cannot change once the device is realized", name);
        return;
    }
    visit_type_uint64(v, name, timing_param_ptr(&s->timing, opaque), errp);
}

static void irdma_sim_add_timing_properties(ObjectClass *klass)
{
    for (size_t i = 0; i < timing_param_count; i++) {
        const TimingParamInfo *info = &timing_params[i];
        g_autofree char *name = g_strdup_printf("timing-%s", info->name);
        g_autofree char *desc = g_strdup_printf("%s (default %" PRIu64 "; %s)", info->unit,
                                                info->def, info->source);

        object_class_property_add(klass, name, "uint64", irdma_sim_get_timing,
                                  irdma_sim_set_timing, NULL, (void *)info);
        object_class_property_set_description(klass, name, desc);
    }
}

/* faults=FILE: the fault plan (docs/faults.md), loaded at realize; set again at run time
 * (qom-set) it replaces the plan and starts a new fault log, or with "" removes it. A bad plan
 * is refused with its file and line, and the running one stays. */
static char *irdma_sim_get_faults(Object *obj, Error **errp)
{
    return g_strdup(IRDMA_SIM(obj)->faults ? IRDMA_SIM(obj)->faults : "");
}

static void irdma_sim_set_faults(Object *obj, const char *path, Error **errp)
{
    IrdmaSimState *s = IRDMA_SIM(obj);
    g_autoptr(GError) gerr = NULL;

    if (DEVICE(obj)->realized) {
        if (!irdma_dev_set_faults(s->core, path, &gerr)) {
            error_setg(errp, "irdma-sim: faults=%s: %s", path, gerr->message);
            return;
        }
        trace_irdma_sim_faults(path);
    }
    g_free(s->faults);
    s->faults = g_strdup(path);
}

static char *irdma_sim_get_fault_log(Object *obj, Error **errp)
{
    return g_strdup(irdma_dev_fault_log(IRDMA_SIM(obj)->core));
}

static void irdma_sim_instance_init(Object *obj)
{
    IrdmaSimState *s = IRDMA_SIM(obj);

    timing_params_default(&s->timing);
}

static void irdma_sim_class_init(ObjectClass *klass, IRDMA_SIM_CLASS_DATA *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);

    pc->realize = irdma_sim_realize;
    pc->exit = irdma_sim_exit;
    pc->config_write = irdma_sim_write_config;
    pc->vendor_id = IRDMA_PCI_VENDOR_ID;
    pc->device_id = IRDMA_PCI_DEVICE_ID;
    pc->class_id = PCI_CLASS_NETWORK_ETHERNET;
    dc->desc = "Intel E810 Ethernet + RDMA (irdma) device model";
    irdma_sim_set_reset(dc, irdma_sim_qdev_reset);
    dc->vmsd = &irdma_sim_vmstate;
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    device_class_set_props(dc, irdma_sim_properties);
    irdma_sim_add_timing_properties(klass);
    object_class_property_add_str(klass, "faults", irdma_sim_get_faults, irdma_sim_set_faults);
    object_class_property_set_description(klass, "faults",
                                          "fault plan file (docs/faults.md); qom-set to change");
    object_class_property_add_str(klass, "x-fault-log", irdma_sim_get_fault_log, NULL);
}

static const TypeInfo irdma_sim_info = {
    .name = TYPE_IRDMA_SIM,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(IrdmaSimState),
    .instance_init = irdma_sim_instance_init,
    .class_init = irdma_sim_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void irdma_sim_register_types(void)
{
    type_register_static(&irdma_sim_info);
}

type_init(irdma_sim_register_types)
