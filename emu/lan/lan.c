/* lan.c - LAN queue registers (see lan.h). */
#include "lan/lan.h"
#include "lan/lan_rx.h"
#include "lan/lan_tx.h"
#include "fw/fw.h"
#include "core/e810_regs.h"
#include "core/trace.h"

#define QINT_CTL_WMASK (PFINT_CTL_MSIX_INDX_M | PFINT_CTL_ITR_INDX_M | PFINT_CTL_CAUSE_ENA_M)

/* QENA_STAT follows QENA_REQ at once: the driver polls 50 x 20-40 us and fails open otherwise.
 * A queue is disabled the same way, which also stops its (future) descriptor engine. */
static void qrx_ctrl_write(void *blk, const EmuReg *r, unsigned q, uint32_t val)
{
    IrdmaDev *d = blk;
    bool ena = val & QRX_CTRL_QENA_REQ_M;

    val = (val & ~QRX_CTRL_QENA_STAT_M) | (ena ? QRX_CTRL_QENA_STAT_M : 0);
    if (ena != !!(emu_reg_get(d->regs, r, q) & QRX_CTRL_QENA_STAT_M)) {
        emu_trace(&d->host, TR_LAN_RXQ, "queue %u %s", q, ena ? "enabled" : "disabled");
        lan_rx_queue_enable(d->lan_rx, q, ena);
    }
    emu_reg_set(d->regs, r, q, val);
}

static void qrx_tail_write(void *blk, const EmuReg *r, unsigned q, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, q, val);
    lan_rx_tail(d->lan_rx, q, val);
}

static void qtx_dbell_write(void *blk, const EmuReg *r, unsigned q, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, q, val);
    lan_tx_doorbell(d->lan_tx, q, val);
}

static const EmuReg lan_regs[] = {
    { .name = "QRX_CTRL", .base = QRX_CTRL(0), .count = LAN_NUM_RXQ, .stride = 4,
      .wmask = QRX_CTRL_QENA_REQ_M | QRX_CTRL_FAST_QDIS_M, .write = qrx_ctrl_write },
    { .name = "QRX_CONTEXT", .base = QRX_CONTEXT(0, 0), .count = LAN_NUM_RXQ, .stride = 4,
      .count2 = QRX_CONTEXT_DWORDS, .stride2 = 8192, .wmask = ~0u },
    { .name = "QRX_TAIL", .base = QRX_TAIL(0), .count = LAN_NUM_RXQ, .stride = 4,
      .wmask = 0x1fff, .write = qrx_tail_write },
    { .name = "QRXFLXP_CNTXT", .base = QRXFLXP_CNTXT(0), .count = LAN_NUM_RXQ, .stride = 4,
      .wmask = 0xfff },
    { .name = "QTX_COMM_DBELL", .base = QTX_COMM_DBELL(0), .count = LAN_NUM_TXQ, .stride = 4,
      .wmask = 0x1fff, .write = qtx_dbell_write },
    { .name = "QTX_COMM_HEAD", .base = QTX_COMM_HEAD(0), .count = LAN_NUM_TXQ, .stride = 4 },
    { .name = "QINT_TQCTL", .base = QINT_TQCTL(0), .count = LAN_NUM_TXQ, .stride = 4,
      .wmask = QINT_CTL_WMASK },
    { .name = "QINT_RQCTL", .base = QINT_RQCTL(0), .count = LAN_NUM_RXQ, .stride = 4,
      .wmask = QINT_CTL_WMASK },
    /* Bandwidth class 0: 200G; ITR/INTRL granularity follows from it. */
    { .name = "GL_PWR_MODE_CTL", .base = GL_PWR_MODE_CTL },
    { .name = "GLGEN_CLKSTAT_SRC", .base = GLGEN_CLKSTAT_SRC },
    { .name = "GLPCI_CNF2", .base = GLPCI_CNF2 },
    { .name = "PFPM_WUS", .base = PFPM_WUS },
    { .name = "GL_MDCK_TX_TDPU", .base = GL_MDCK_TX_TDPU, .wmask = ~0u },
    { .name = "PFQF_FD_ENA", .base = PFQF_FD_ENA, .wmask = 0x1 },
    { .name = "GLQF_FD_SIZE", .base = GLQF_FD_SIZE,
      .reset = FW_FD_GUARANTEED | (FW_FD_BEST_EFFORT << 16) },
    { .name = "GL_PREEXT_L2_PMASK0", .base = GL_PREEXT_L2_PMASK0(0), .wmask = ~0u },
    { .name = "GL_PREEXT_L2_PMASK1", .base = GL_PREEXT_L2_PMASK1(0), .wmask = ~0u },
    { .name = "PRTMAC_HSEC_CTL_TX_PAUSE_QUANTA", .base = PRTMAC_HSEC_CTL_TX_PAUSE_QUANTA(0),
      .count = 9, .stride = 32, .wmask = 0xffff },
    { .name = "PRTMAC_HSEC_CTL_TX_PAUSE_REFRESH_TIMER",
      .base = PRTMAC_HSEC_CTL_TX_PAUSE_REFRESH_TIMER(0), .count = 9, .stride = 32,
      .wmask = 0xffff },
};

void lan_block_init(IrdmaDev *d)
{
    emu_regfile_add(d->regs, lan_regs, G_N_ELEMENTS(lan_regs), d);
}

void lan_pf_reset(IrdmaDev *d)
{
    emu_regfile_reset_regs(d->regs, lan_regs, G_N_ELEMENTS(lan_regs));
}
