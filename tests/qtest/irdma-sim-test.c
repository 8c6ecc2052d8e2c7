/*
 * QTest testcase for irdma-sim, the Intel E810 + RDMA (irdma) device model.
 *
 * Drives the PCI function as the ice driver first meets it, with no guest: its PCI identity,
 * BAR sizes and capabilities; the reset values of the registers ice reads before its first
 * admin command; one admin queue round trip (get_version) with the ring in guest memory; a
 * PF software reset; the MSI-X table and PBA, and a software interrupt through them; accesses
 * the register BAR does not accept (wrong sizes, unaligned, past its end), after which QEMU
 * still runs and the registers read as before.
 *
 * Register offsets and the admin queue interface come from the device core's headers (emu/
 * beneath the device's directory, on the include path the test's meson entry gives); the
 * values asserted are what the drivers expect of them.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/libqos-pc.h"
#include "libqos/pci.h"
#include "hw/pci/pci_ids.h"
#include "hw/pci/pci_regs.h"
#include "irdma-sim-test-compat.h"

#include "core/ids.h"
#include "core/e810_regs.h"
#include "fw/aq_defs.h"
#include "fw/fw.h"

/* The device's slot on q35's root bus. */
#define IRDMA_SIM_SLOT          4
#define IRDMA_SIM_DEVFN         QPCI_DEVFN(IRDMA_SIM_SLOT, 0)

/* Config space as hw/irdma-sim.c lays it out. */
#define IRDMA_SIM_CAP_MSIX      0x70
#define IRDMA_SIM_CAP_PCIE      0xa0
#define IRDMA_SIM_LINK_SPEED    4       /* Link Status speed code 4: 16 GT/s (PCIe 4.0) */
#define IRDMA_SIM_LINK_WIDTH    16

/* What ice reads of the registers it polls at probe (ice_hw_autogen.h). */
#define GLGEN_RSTCTL_GRSTDEL_M  0x3fu   /* global reset delay: ice adds it to its timeout */
#define GLPCI_CNF2_CACHELINE_SIZE_M 0x2u /* set: 128-byte lines, ice warns of Tx timeouts */
#define GLNVM_ULD_ALL_DONE      (GLNVM_ULD_PCIER_DONE_M | GLNVM_ULD_PCIER_DONE_1_M | \
                                 GLNVM_ULD_CORER_DONE_M | GLNVM_ULD_GLOBR_DONE_M | \
                                 GLNVM_ULD_POR_DONE_M | GLNVM_ULD_POR_DONE_1_M | \
                                 GLNVM_ULD_PCIER_DONE_2_M | GLNVM_ULD_PE_DONE_M)
#define GLNVM_GENS_SR_SIZE_64K  6       /* shadow RAM of 2^6 x 512 words (ice_init_nvm) */

/* ice_aqc_get_ver: the response's params. */
#define GET_VER_ROM_VER         0
#define GET_VER_FW_BUILD        4
#define GET_VER_FW_MAJOR        9
#define GET_VER_FW_MINOR        10
#define GET_VER_FW_PATCH        11
#define GET_VER_API_MAJOR       13
#define GET_VER_API_MINOR       14
#define GET_VER_API_PATCH       15
/* ice_aq_ver_check: API major 1; a minor more than 2 from 5 draws a warning at probe. */
#define ICE_EXP_API_MAJOR       1
#define ICE_EXP_API_MINOR       5
#define ICE_API_MINOR_SLACK     2

/* The admin queue ring the test posts commands on, and an opcode no E810 firmware has. */
#define AQ_RING_LEN             8
#define AQ_OPCODE_NONE          0x7fff
#define AQ_COOKIE_H             0xc00c1e01u
#define AQ_COOKIE_L             0xc00c1e02u
/* Polling for the ATQ head: virtual-clock steps (timing=model runs commands on that clock). */
#define AQ_POLL_STEP_NS         (100 * 1000)
#define AQ_POLL_STEPS           1000

/* The message data of the MSI-X vector the test unmasks; a software interrupt as ice
 * triggers one (ice_trigger_sw_intr: no ITR). */
#define MSIX_TEST_DATA          0x4a5b6c7du
#define SWINT_TRIGGER           (GLINT_DYN_CTL_ITR_INDX_M | GLINT_DYN_CTL_SWINT_TRIG_M | \
                                 GLINT_DYN_CTL_INTENA_M)

typedef struct IrdmaSimTest {
    QOSState *qs;
    QTestState *qts;
    QPCIDevice *dev;
    QPCIBar bar0;
} IrdmaSimTest;

/* Boots q35 with the device (plus @props, ",name=value..." or "") on the root bus. */
static void start(IrdmaSimTest *t, const char *props)
{
    t->qs = qtest_pc_boot("-machine q35 -nodefaults -device irdma-sim,addr=0x%x.0%s",
                          IRDMA_SIM_SLOT, props);
    t->qts = t->qs->qts;
    t->dev = qpci_device_find(t->qs->pcibus, IRDMA_SIM_DEVFN);
    g_assert_nonnull(t->dev);
}

/* start(), then the function enabled (memory, bus master) and BAR0 mapped. */
static void start_mapped(IrdmaSimTest *t, const char *props)
{
    start(t, props);
    qpci_device_enable(t->dev);
    t->bar0 = qpci_iomap(t->dev, 0, NULL);
}

static void stop(IrdmaSimTest *t)
{
    g_free(t->dev);
    qtest_shutdown(t->qs);
}

/* The field @mask (contiguous bits) of @reg, shifted down. */
static uint32_t field(uint32_t reg, uint32_t mask)
{
    return (reg & mask) >> __builtin_ctz(mask);
}

static uint32_t rd32(IrdmaSimTest *t, uint32_t reg)
{
    return qpci_io_readl(t->dev, t->bar0, reg);
}

static void wr32(IrdmaSimTest *t, uint32_t reg, uint32_t val)
{
    qpci_io_writel(t->dev, t->bar0, reg, val);
}

/* ---- PCI ---- */

static void test_pci_identity(void)
{
    IrdmaSimTest t;

    start(&t, "");
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_VENDOR_ID), ==, IRDMA_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_DEVICE_ID), ==, IRDMA_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readb(t.dev, PCI_REVISION_ID), ==, IRDMA_PCI_REVISION);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_CLASS_DEVICE), ==,
                    PCI_CLASS_NETWORK_ETHERNET);
    g_assert_cmphex(qpci_config_readb(t.dev, PCI_CLASS_PROG), ==, 0);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    IRDMA_PCI_SUBSYS_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_SUBSYSTEM_ID), ==, IRDMA_PCI_SUBSYS_ID);
    g_assert_cmphex(qpci_config_readb(t.dev, PCI_HEADER_TYPE) & PCI_HEADER_TYPE_MASK, ==,
                    PCI_HEADER_TYPE_NORMAL);
    g_assert_cmphex(qpci_config_readb(t.dev, PCI_INTERRUPT_PIN), ==, 1);
    g_assert_cmphex(qpci_config_readw(t.dev, PCI_STATUS) & PCI_STATUS_CAP_LIST, ==,
                    PCI_STATUS_CAP_LIST);
    stop(&t);
}

/* The size a 64-bit memory BAR decodes, by the sizing protocol; checks its type bits. */
static uint64_t bar64_size(QPCIDevice *dev, int bar)
{
    uint8_t lo = PCI_BASE_ADDRESS_0 + bar * 4, hi = lo + 4;
    uint32_t type = PCI_BASE_ADDRESS_SPACE_MEMORY | PCI_BASE_ADDRESS_MEM_TYPE_64 |
                    PCI_BASE_ADDRESS_MEM_PREFETCH;
    uint64_t mask;

    g_assert_cmphex(qpci_config_readl(dev, lo) & ~PCI_BASE_ADDRESS_MEM_MASK, ==, type);
    qpci_config_writel(dev, lo, UINT32_MAX);
    qpci_config_writel(dev, hi, UINT32_MAX);
    mask = ((uint64_t)qpci_config_readl(dev, hi) << 32) |
           (qpci_config_readl(dev, lo) & PCI_BASE_ADDRESS_MEM_MASK);
    qpci_config_writel(dev, lo, 0);
    qpci_config_writel(dev, hi, 0);
    return ~mask + 1;
}

/* A BAR register that decodes nothing reads 0 whatever is written. */
static void assert_bar_unused(QPCIDevice *dev, int bar)
{
    uint8_t reg = PCI_BASE_ADDRESS_0 + bar * 4;

    qpci_config_writel(dev, reg, UINT32_MAX);
    g_assert_cmphex(qpci_config_readl(dev, reg), ==, 0);
}

static void test_pci_bars(void)
{
    IrdmaSimTest t;

    start(&t, "");
    g_assert_cmphex(bar64_size(t.dev, 0), ==, IRDMA_BAR0_SIZE);
    g_assert_cmphex(bar64_size(t.dev, IRDMA_MSIX_BAR), ==, IRDMA_MSIX_BAR_SIZE);
    /* BAR1 and BAR4 are the upper halves of BAR0 and BAR3. */
    assert_bar_unused(t.dev, 2);
    assert_bar_unused(t.dev, 5);
    g_assert_cmphex(qpci_config_readl(t.dev, PCI_ROM_ADDRESS), ==, 0);
    stop(&t);
}

/* PCIe Endpoint with FLR, its link trained at 16 GT/s x16 wherever it sits. */
static void test_pci_express(void)
{
    IrdmaSimTest t;
    uint8_t cap;
    uint16_t flags, lnksta;
    uint32_t lnkcap;

    start(&t, "");
    cap = qpci_find_capability(t.dev, PCI_CAP_ID_EXP, 0);
    g_assert_cmphex(cap, ==, IRDMA_SIM_CAP_PCIE);
    flags = qpci_config_readw(t.dev, cap + PCI_EXP_FLAGS);
    g_assert_cmphex(field(flags, PCI_EXP_FLAGS_TYPE), ==, PCI_EXP_TYPE_ENDPOINT);
    g_assert_cmphex(qpci_config_readl(t.dev, cap + PCI_EXP_DEVCAP) & PCI_EXP_DEVCAP_FLR, ==,
                    PCI_EXP_DEVCAP_FLR);
    lnkcap = qpci_config_readl(t.dev, cap + PCI_EXP_LNKCAP);
    g_assert_cmpuint(field(lnkcap, PCI_EXP_LNKCAP_SLS), ==, IRDMA_SIM_LINK_SPEED);
    g_assert_cmpuint(field(lnkcap, PCI_EXP_LNKCAP_MLW), ==, IRDMA_SIM_LINK_WIDTH);
    lnksta = qpci_config_readw(t.dev, cap + PCI_EXP_LNKSTA);
    g_assert_cmpuint(field(lnksta, PCI_EXP_LNKSTA_CLS), ==, IRDMA_SIM_LINK_SPEED);
    g_assert_cmpuint(field(lnksta, PCI_EXP_LNKSTA_NLW), ==, IRDMA_SIM_LINK_WIDTH);
    stop(&t);
}

/* ---- registers after reset ---- */

/* What ice_check_reset, ice_init_nvm and ice_init_hw read before the first admin command. */
static void assert_probe_registers(IrdmaSimTest *t)
{
    uint32_t fwsm = rd32(t, GL_MNG_FWSM);

    g_assert_cmphex(field(rd32(t, GLGEN_RSTAT), GLGEN_RSTAT_DEVSTATE_M), ==, 0);
    g_assert_cmphex(field(rd32(t, GLGEN_RSTCTL), GLGEN_RSTCTL_GRSTDEL_M), ==, 0);
    g_assert_cmphex(rd32(t, GLNVM_ULD) & GLNVM_ULD_ALL_DONE, ==, GLNVM_ULD_ALL_DONE);
    g_assert_cmphex(fwsm & GL_MNG_FWSM_FW_MODES_M, ==, 0);
    g_assert_cmphex(fwsm & GL_MNG_FWSM_FW_LOADING_M, ==, 0);
    g_assert_cmphex(field(rd32(t, PF_FUNC_RID), PF_FUNC_RID_FUNC_NUM_M), ==, 0);
    g_assert_cmphex(field(rd32(t, GLNVM_GENS), GLNVM_GENS_SR_SIZE_M), ==,
                    GLNVM_GENS_SR_SIZE_64K);
    g_assert_cmphex(rd32(t, GLNVM_FLA) & GLNVM_FLA_LOCKED_M, ==, GLNVM_FLA_LOCKED_M);
    g_assert_cmphex(rd32(t, GLPCI_CNF2) & GLPCI_CNF2_CACHELINE_SIZE_M, ==, 0);
    g_assert_cmphex(rd32(t, PFGEN_CTRL) & PFGEN_CTRL_PFSWR_M, ==, 0);
}

/* The admin queue and mailbox rings: off, empty, no address. */
static void assert_queues_clear(IrdmaSimTest *t)
{
    static const uint32_t regs[] = {
        PF_FW_ATQBAL, PF_FW_ATQBAH, PF_FW_ATQLEN, PF_FW_ATQH, PF_FW_ATQT,
        PF_FW_ARQBAL, PF_FW_ARQBAH, PF_FW_ARQLEN, PF_FW_ARQH, PF_FW_ARQT,
        PF_MBX_ATQBAL, PF_MBX_ATQBAH, PF_MBX_ATQLEN, PF_MBX_ATQH, PF_MBX_ATQT,
        PF_MBX_ARQBAL, PF_MBX_ARQBAH, PF_MBX_ARQLEN, PF_MBX_ARQH, PF_MBX_ARQT,
    };

    for (size_t i = 0; i < ARRAY_SIZE(regs); i++) {
        g_assert_cmphex(rd32(t, regs[i]), ==, 0);
    }
}

static void test_reset_values(void)
{
    IrdmaSimTest t;

    start_mapped(&t, "");
    assert_probe_registers(&t);
    assert_queues_clear(&t);
    stop(&t);
}

/* PFGEN_CTRL.PFSWR (ice_pf_reset): done before the driver's first poll, the rings cleared. */
static void test_pf_reset(void)
{
    IrdmaSimTest t;

    start_mapped(&t, "");
    wr32(&t, PF_FW_ATQBAL, 0x1000);
    wr32(&t, PF_FW_ATQLEN, AQ_RING_LEN | PF_FW_xQLEN_ENABLE_M);
    wr32(&t, PF_MBX_ARQBAL, 0x2000);
    g_assert_cmphex(rd32(&t, PF_FW_ATQBAL), ==, 0x1000);
    wr32(&t, PFGEN_CTRL, PFGEN_CTRL_PFSWR_M);
    assert_probe_registers(&t);
    assert_queues_clear(&t);
    stop(&t);
}

/* ---- admin queue ---- */

/* Programs the ATQ at @ring as ice_init_sq does: disabled, head and tail 0, base, enabled. */
static void atq_program(IrdmaSimTest *t, uint64_t ring)
{
    wr32(t, PF_FW_ATQLEN, 0);
    wr32(t, PF_FW_ATQH, 0);
    wr32(t, PF_FW_ATQT, 0);
    wr32(t, PF_FW_ATQBAL, (uint32_t)ring);
    wr32(t, PF_FW_ATQBAH, ring >> 32);
    wr32(t, PF_FW_ATQLEN, AQ_RING_LEN | PF_FW_xQLEN_ENABLE_M);
    g_assert_cmphex(rd32(t, PF_FW_ATQBAL), ==, (uint32_t)ring);
    g_assert_cmphex(rd32(t, PF_FW_ATQLEN), ==, AQ_RING_LEN | PF_FW_xQLEN_ENABLE_M);
}

/* Programs an ATQ of AQ_RING_LEN zeroed descriptors in guest memory; returns its address. */
static uint64_t atq_setup(IrdmaSimTest *t)
{
    size_t size = AQ_RING_LEN * AQ_DESC_SIZE;
    uint64_t ring = guest_alloc(&t->qs->alloc, size);

    qtest_memset(t->qts, ring, 0, size);
    atq_program(t, ring);
    return ring;
}

/* Writes a direct command into slot @slot, as ice_aq_send_cmd does (SI set, cookie). */
static void atq_put(IrdmaSimTest *t, uint64_t ring, unsigned slot, uint16_t opcode)
{
    uint8_t desc[AQ_DESC_SIZE] = { 0 };

    stw_le_p(desc + AQ_DESC_FLAGS, AQ_FLAG_SI);
    stw_le_p(desc + AQ_DESC_OPCODE, opcode);
    stl_le_p(desc + AQ_DESC_COOKIE_H, AQ_COOKIE_H);
    stl_le_p(desc + AQ_DESC_COOKIE_L, AQ_COOKIE_L);
    qtest_memwrite(t->qts, ring + slot * AQ_DESC_SIZE, desc, sizeof(desc));
}

/* Waits for ATQH to reach @head, stepping the virtual clock; false if it does not. */
static bool atq_wait_head(IrdmaSimTest *t, uint32_t head)
{
    for (int i = 0; i < AQ_POLL_STEPS; i++) {
        if (rd32(t, PF_FW_ATQH) == head) {
            return true;
        }
        qtest_clock_step(t->qts, AQ_POLL_STEP_NS);
    }
    return rd32(t, PF_FW_ATQH) == head;
}

/* A little-endian dword of a descriptor (QEMU's ldl_le_p returns a signed int). */
static uint32_t le32_at(const uint8_t *p)
{
    return (uint32_t)ldl_le_p(p);
}

/* The written-back descriptor of slot @slot: done, completed, cookie kept; its flags. */
static uint16_t atq_done(IrdmaSimTest *t, uint64_t ring, unsigned slot, uint16_t opcode,
                         uint8_t desc[AQ_DESC_SIZE])
{
    uint16_t flags;

    qtest_memread(t->qts, ring + slot * AQ_DESC_SIZE, desc, AQ_DESC_SIZE);
    flags = lduw_le_p(desc + AQ_DESC_FLAGS);
    g_assert_cmphex(flags & (AQ_FLAG_DD | AQ_FLAG_CMP), ==, AQ_FLAG_DD | AQ_FLAG_CMP);
    g_assert_cmphex(lduw_le_p(desc + AQ_DESC_OPCODE), ==, opcode);
    g_assert_cmphex(le32_at(desc + AQ_DESC_COOKIE_H), ==, AQ_COOKIE_H);
    g_assert_cmphex(le32_at(desc + AQ_DESC_COOKIE_L), ==, AQ_COOKIE_L);
    return flags;
}

/* Command @opcode in slot @slot, the tail moved past it, the head awaited: the written-back
 * descriptor's flags (atq_done). */
static uint16_t atq_round_trip(IrdmaSimTest *t, uint64_t ring, unsigned slot, uint16_t opcode,
                               uint8_t desc[AQ_DESC_SIZE])
{
    atq_put(t, ring, slot, opcode);
    wr32(t, PF_FW_ATQT, slot + 1);
    g_assert_true(atq_wait_head(t, slot + 1));
    return atq_done(t, ring, slot, opcode, desc);
}

static void assert_get_version(const uint8_t desc[AQ_DESC_SIZE])
{
    const uint8_t *p = desc + AQ_DESC_PARAMS;

    g_assert_cmphex(le32_at(p + GET_VER_ROM_VER), ==, FW_ROM_VER);
    g_assert_cmphex(le32_at(p + GET_VER_FW_BUILD), ==, FW_VER_BUILD);
    g_assert_cmpuint(p[GET_VER_FW_MAJOR], ==, FW_VER_MAJOR);
    g_assert_cmpuint(p[GET_VER_FW_MINOR], ==, FW_VER_MINOR);
    g_assert_cmpuint(p[GET_VER_FW_PATCH], ==, FW_VER_PATCH);
    g_assert_cmpuint(p[GET_VER_API_MAJOR], ==, ICE_EXP_API_MAJOR);
    g_assert_cmpuint(p[GET_VER_API_MINOR], <=, ICE_EXP_API_MINOR + ICE_API_MINOR_SLACK);
    g_assert_cmpuint(p[GET_VER_API_MINOR] + ICE_API_MINOR_SLACK, >=, ICE_EXP_API_MINOR);
    g_assert_cmpuint(p[GET_VER_API_MINOR], ==, FW_API_MINOR);
    g_assert_cmpuint(p[GET_VER_API_PATCH], ==, FW_API_PATCH);
}

/* get_version (0x0001), the first command ice sends: descriptor DD|CMP, rc 0, versions. */
static void test_aq_get_version(void)
{
    IrdmaSimTest t;
    uint8_t desc[AQ_DESC_SIZE];
    uint64_t ring;

    start_mapped(&t, "");
    ring = atq_setup(&t);
    g_assert_cmphex(atq_round_trip(&t, ring, 0, AQC_GET_VER, desc) & AQ_FLAG_ERR, ==, 0);
    g_assert_cmpuint(lduw_le_p(desc + AQ_DESC_RETVAL), ==, AQ_RC_OK);
    assert_get_version(desc);
    /* The next command follows in the next slot. */
    atq_round_trip(&t, ring, 1, AQC_GET_VER, desc);
    assert_get_version(desc);
    stop(&t);
}

/* timing=model: the command completes after the modelled firmware time, on the virtual
 * clock, not in the doorbell write. */
static void test_aq_model_timing(void)
{
    IrdmaSimTest t;
    uint8_t desc[AQ_DESC_SIZE];
    uint64_t ring;

    start_mapped(&t, ",timing=model");
    ring = atq_setup(&t);
    atq_put(&t, ring, 0, AQC_GET_VER);
    wr32(&t, PF_FW_ATQT, 1);
    g_assert_cmpuint(rd32(&t, PF_FW_ATQH), ==, 0);
    g_assert_true(atq_wait_head(&t, 1));
    atq_done(&t, ring, 0, AQC_GET_VER, desc);
    assert_get_version(desc);
    stop(&t);
}

/* An opcode the firmware lacks is answered "bad opcode" (ESRCH) with ERR; a tail past the
 * ring's end is a critical error (ATQLEN.ATQCRIT), the head left where it was. */
static void test_aq_errors(void)
{
    IrdmaSimTest t;
    uint8_t desc[AQ_DESC_SIZE];
    uint64_t ring;

    start_mapped(&t, "");
    ring = atq_setup(&t);
    g_assert_cmphex(atq_round_trip(&t, ring, 0, AQ_OPCODE_NONE, desc) & AQ_FLAG_ERR, ==,
                    AQ_FLAG_ERR);
    g_assert_cmpuint(lduw_le_p(desc + AQ_DESC_RETVAL), ==, AQ_RC_ESRCH);

    wr32(&t, PF_FW_ATQT, AQ_RING_LEN);
    g_assert_cmphex(rd32(&t, PF_FW_ATQLEN) & PF_FW_xQLEN_CRIT_M, ==, PF_FW_xQLEN_CRIT_M);
    g_assert_cmpuint(rd32(&t, PF_FW_ATQH), ==, 1);
    stop(&t);
}

/*
 * The device's DMA does not reach its own registers: an ATQ placed on BAR0, its slot 0 on
 * PFGEN_CTRL (the write-back would set PFSWR), cannot be read or written back, a critical error
 * with the head left at 0 and no PF reset (the mailbox ring's base, which one clears, is kept).
 * The same inline, where the doorbell write runs the command, and under timing=model, where
 * the device's timer does.
 */
static void test_aq_ring_on_own_bar(gconstpointer props)
{
    IrdmaSimTest t;
    uint64_t ring;

    start_mapped(&t, props);
    ring = t.bar0.addr + PFGEN_CTRL;
    wr32(&t, PF_MBX_ARQBAL, 0x2000);
    atq_program(&t, ring);
    wr32(&t, PF_FW_ATQT, 1);
    for (int i = 0; i < AQ_POLL_STEPS; i++) {
        qtest_clock_step(t.qts, AQ_POLL_STEP_NS);
    }
    g_assert_cmphex(rd32(&t, PF_MBX_ARQBAL), ==, 0x2000);
    g_assert_cmphex(rd32(&t, PF_FW_ATQLEN), ==,
                    AQ_RING_LEN | PF_FW_xQLEN_ENABLE_M | PF_FW_xQLEN_CRIT_M);
    g_assert_cmpuint(rd32(&t, PF_FW_ATQH), ==, 0);
    stop(&t);
}

/* ---- MSI-X ---- */

static void assert_msix_layout(IrdmaSimTest *t, unsigned vectors)
{
    uint8_t cap = qpci_find_capability(t->dev, PCI_CAP_ID_MSIX, 0);

    g_assert_cmphex(cap, ==, IRDMA_SIM_CAP_MSIX);
    g_assert_cmpuint(qpci_msix_table_size(t->dev), ==, vectors);
    g_assert_cmphex(qpci_config_readl(t->dev, cap + PCI_MSIX_TABLE), ==,
                    IRDMA_MSIX_TABLE_OFFSET | IRDMA_MSIX_BAR);
    g_assert_cmphex(qpci_config_readl(t->dev, cap + PCI_MSIX_PBA), ==,
                    IRDMA_MSIX_PBA_OFFSET | IRDMA_MSIX_BAR);
    g_assert_cmphex(qpci_config_readw(t->dev, cap + PCI_MSIX_FLAGS) &
                    (PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL), ==, 0);
}

/* The table of the default 1024 vectors and the PBA in BAR3; every vector masked and none
 * pending after reset. */
static void test_msix_table(void)
{
    IrdmaSimTest t;

    start_mapped(&t, "");
    assert_msix_layout(&t, IRDMA_MSIX_VECTORS_DEFAULT);
    qpci_msix_enable(t.dev);
    g_assert_cmphex(t.dev->msix_table_off, ==, IRDMA_MSIX_TABLE_OFFSET);
    g_assert_cmphex(t.dev->msix_pba_off, ==, IRDMA_MSIX_PBA_OFFSET);
    for (unsigned v = 0; v < IRDMA_MSIX_VECTORS_DEFAULT; v += IRDMA_MSIX_VECTORS_DEFAULT - 1) {
        g_assert_true(qpci_msix_masked(t.dev, v));
        g_assert_false(qpci_msix_pending(t.dev, v));
    }
    qpci_msix_disable(t.dev);
    stop(&t);
}

/* The msix-vectors property sizes the table. */
static void test_msix_vectors_property(void)
{
    IrdmaSimTest t;
    g_autofree char *props = g_strdup_printf(",msix-vectors=%u", IRDMA_MSIX_VECTORS_MIN);

    start_mapped(&t, props);
    assert_msix_layout(&t, IRDMA_MSIX_VECTORS_MIN);
    stop(&t);
}

/* GLINT_DYN_CTL.SWINT_TRIG: on a masked vector the message waits in the PBA; on an unmasked
 * one it is written to the table entry's address (here guest memory). */
static void test_msix_swint(void)
{
    IrdmaSimTest t;
    uint64_t entry = 2 * PCI_MSIX_ENTRY_SIZE, msg;

    start_mapped(&t, "");
    qpci_msix_enable(t.dev);
    wr32(&t, GLINT_DYN_CTL(1), SWINT_TRIGGER);
    g_assert_true(qpci_msix_pending(t.dev, 1));

    msg = guest_alloc(&t.qs->alloc, sizeof(uint32_t));
    qtest_writel(t.qts, msg, 0);
    qpci_io_writel(t.dev, t.dev->msix_table_bar, entry + PCI_MSIX_ENTRY_LOWER_ADDR,
                   (uint32_t)msg);
    qpci_io_writel(t.dev, t.dev->msix_table_bar, entry + PCI_MSIX_ENTRY_UPPER_ADDR, msg >> 32);
    qpci_io_writel(t.dev, t.dev->msix_table_bar, entry + PCI_MSIX_ENTRY_DATA, MSIX_TEST_DATA);
    qpci_io_writel(t.dev, t.dev->msix_table_bar, entry + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
    g_assert_false(qpci_msix_masked(t.dev, 2));
    wr32(&t, GLINT_DYN_CTL(2), SWINT_TRIGGER);
    g_assert_cmphex(qtest_readl(t.qts, msg), ==, MSIX_TEST_DATA);
    g_assert_false(qpci_msix_pending(t.dev, 2));
    qpci_msix_disable(t.dev);
    stop(&t);
}

/* ---- accesses BAR0 does not take ---- */

/*
 * BAR0 takes aligned 4- and 8-byte accesses (an 8-byte one as two registers). Byte and word
 * accesses and unaligned ones are refused by QEMU's memory core and never reach the model;
 * accesses past the BAR's end reach no register. None of them stops QEMU or changes a
 * register; afterwards the registers read as before and QMP still answers.
 */
static void test_bar0_bad_access(void)
{
    IrdmaSimTest t;
    const uint32_t val = 0x12345670, last = IRDMA_BAR0_SIZE - 4;
    QDict *resp;

    start_mapped(&t, "");
    wr32(&t, PF_FW_ATQBAL, val);

    for (unsigned i = 0; i < 4; i++) {
        qpci_io_readb(t.dev, t.bar0, PF_FW_ATQBAL + i);
        qpci_io_writeb(t.dev, t.bar0, PF_FW_ATQBAL + i, 0xff);
    }
    for (unsigned i = 0; i < 4; i += 2) {
        qpci_io_readw(t.dev, t.bar0, PF_FW_ATQBAL + i);
        qpci_io_writew(t.dev, t.bar0, PF_FW_ATQBAL + i, 0xffff);
    }
    for (unsigned i = 1; i < 4; i++) {
        qpci_io_readl(t.dev, t.bar0, PF_FW_ATQBAL + i);
        qpci_io_writel(t.dev, t.bar0, PF_FW_ATQBAL + i, UINT32_MAX);
        qpci_io_readq(t.dev, t.bar0, PF_FW_ATQBAL + i);
        qpci_io_writeq(t.dev, t.bar0, PF_FW_ATQBAL + i, UINT64_MAX);
    }
    g_assert_cmphex(rd32(&t, PF_FW_ATQBAL), ==, val);

    /* 8 bytes: ATQBAL and the undeclared dword above it, which reads 0. */
    qpci_io_writeq(t.dev, t.bar0, PF_FW_ATQBAL, 0xffffffff00000000ull | val);
    g_assert_cmphex(qpci_io_readq(t.dev, t.bar0, PF_FW_ATQBAL), ==, val);

    /* The last dword, one straddling the end, and past the end. */
    g_assert_cmphex(rd32(&t, last), ==, 0);
    wr32(&t, last, UINT32_MAX);
    qpci_io_readq(t.dev, t.bar0, last);
    qpci_io_writeq(t.dev, t.bar0, last, UINT64_MAX);
    qpci_io_readl(t.dev, t.bar0, IRDMA_BAR0_SIZE);
    qpci_io_writel(t.dev, t.bar0, IRDMA_BAR0_SIZE, UINT32_MAX);
    qpci_io_readq(t.dev, t.bar0, IRDMA_BAR0_SIZE);
    qpci_io_writeq(t.dev, t.bar0, IRDMA_BAR0_SIZE + 2, UINT64_MAX);

    g_assert_cmphex(rd32(&t, PF_FW_ATQBAL), ==, val);
    assert_probe_registers(&t);
    resp = qtest_qmp(t.qts, "{ 'execute': 'query-status' }");
    g_assert_true(qdict_haskey(resp, "return"));
    qobject_unref(resp);
    stop(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/irdma-sim/pci/identity", test_pci_identity);
    qtest_add_func("/irdma-sim/pci/bars", test_pci_bars);
    qtest_add_func("/irdma-sim/pci/express", test_pci_express);
    qtest_add_func("/irdma-sim/regs/reset-values", test_reset_values);
    qtest_add_func("/irdma-sim/regs/pf-reset", test_pf_reset);
    qtest_add_func("/irdma-sim/aq/get-version", test_aq_get_version);
    qtest_add_func("/irdma-sim/aq/model-timing", test_aq_model_timing);
    qtest_add_func("/irdma-sim/aq/errors", test_aq_errors);
    qtest_add_data_func("/irdma-sim/aq/ring-on-own-bar/inline", "", test_aq_ring_on_own_bar);
    qtest_add_data_func("/irdma-sim/aq/ring-on-own-bar/model", ",timing=model",
                        test_aq_ring_on_own_bar);
    qtest_add_func("/irdma-sim/msix/table", test_msix_table);
    qtest_add_func("/irdma-sim/msix/vectors-property", test_msix_vectors_property);
    qtest_add_func("/irdma-sim/msix/swint", test_msix_swint);
    qtest_add_func("/irdma-sim/bar0/bad-access", test_bar0_bad_access);

    return g_test_run();
}
