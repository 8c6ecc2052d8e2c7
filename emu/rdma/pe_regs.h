/*
 * pe_regs.h - the RDMA engine's BAR0 registers as the gen2 irdma driver uses them
 * (icrdma_hw.h): the CQP create handshake (CCQPHIGH/LOW/STATUS), the CQP doorbell and tail,
 * the CQ arm/ack and AEQ credit doorbells, the QP doorbell (and the user doorbell page's
 * copies of the QP and CQ-arm doorbells), the readiness registers probe
 * checks (GLPE_CPUSTATUS*, GLPCI_LBARCTRL), the CEQ/AEQ interrupt routing (GLINT_CEQCTL,
 * PFINT_AEQCTL) and the HMC PD invalidate.
 *
 * The offsets of all of them are here; each doorbell is declared in the register table of the
 * block it rings (cqp.c: the CQP handshake, doorbell, tail and error codes; cq.c: CQ arm and
 * ack; ceq.c: AEQ credits; sq.c: the QP doorbell), so no block calls back up through this one.
 * pe_regs.c declares the rest.
 *
 * Gen2 programs SDs only through the UPDATE_PE_SDS CQP op, so the PFHMC_SDCMD/SDDATA registers
 * of gen1 are not part of this block (no irdma 6.1 gen2 path touches them).
 */
#ifndef IRDMA_EMU_PE_REGS_H
#define IRDMA_EMU_PE_REGS_H

#include "core/dev.h"

#define PFPE_CQPDB                  0x00500800
#define PFPE_CQPTAIL                0x00500880
#define PFPE_CQPTAIL_WQTAIL_M       0x000007ffu
#define PFPE_CQPTAIL_OP_ERR_M       0x80000000u
#define PFPE_CQPDB_WQHEAD_M         0x000007ffu
#define PFPE_CCQPSTATUS             0x0050a000
#define PFPE_CCQPSTATUS_DONE_M      0x00000001u
#define PFPE_CCQPSTATUS_ERR_M       0x80000000u
#define PFPE_CCQPLOW                0x0050a080
#define PFPE_CCQPHIGH               0x0050a100
#define PFPE_CQPERRCODES            0x0050a200
#define PFPE_CQPERRCODES_MINOR_M    0x0000ffffu
#define PFPE_CQPERRCODES_MAJOR_M    0xffff0000u
#define PFPE_CQARM                  0x00502c00
#define PFPE_CQACK                  0x00502c80
#define PFPE_AEQALLOC               0x00502d00
#define PFPE_WQEALLOC               0x00504400
#define PFPE_WQEALLOC_QPID_M        0x0003ffffu
/* The doorbell page user space maps (ICRDMA_DB_ADDR_OFFSET, 8 MiB - 64 KiB): libirdma writes
 * the QP id at +0 and the CQ id at +0x40, as the kernel does at WQEALLOC and CQARM. */
#define PE_UDB_PAGE                 0x007f0000
#define PE_UDB_WQEALLOC             (PE_UDB_PAGE + 0x00)
#define PE_UDB_CQARM                (PE_UDB_PAGE + 0x40)
#define GLPCI_LBARCTRL              0x0009de74
#define GLPCI_LBARCTRL_PE_DB_SIZE_M 0x00000030u
#define GLPCI_LBARCTRL_PE_DB_8M     2
#define GLPE_CPUSTATUS0             0x0050ba5c
#define GLPE_CPUSTATUS1             0x0050ba60
#define GLPE_CPUSTATUS2             0x0050ba64
#define GLPE_CPUSTATUS_READY        0x80
#define GLPE_CRITERR                0x00534000
/* What the HMC latched with its OICR HMC_ERR cause (read by irdma from 7.x on). */
#define PFHMC_ERRORINFO             0x00520400
#define PFHMC_ERRORDATA             0x00520500
#define GLINT_CEQCTL(n)             (0x0015c000 + 4 * (n))
#define GLINT_CEQCTL_COUNT          2048
#define PFINT_AEQCTL                0x0016cb00
/* GLINT_CEQCTL / PFINT_AEQCTL use the PFINT_*_CTL layout (PFINT_CTL_* in e810_regs.h). */
#define PFHMC_PDINV                 0x00520300
#define PFHMC_PDINV_PMSDIDX_M       0x00000fffu
#define PFHMC_PDINV_PMSDPARTSEL_M   0x00008000u
#define PFHMC_PDINV_PMPDIDX_M       0x01ff0000u
#define VSIQF_PE_CTL1(v)            (0x00414000 + 4 * (v))
#define VSIQF_PE_CTL1_COUNT         768
#define GLHMC_VFPDINV(i)            (0x00528300 + 4 * (i))
#define GLHMC_VFPDINV_COUNT         32

/* The block's registers, in pe_regs.c's table order. */
typedef enum PeReg {
    PE_LBARCTRL, PE_CPUSTATUS0, PE_CPUSTATUS1, PE_CPUSTATUS2, PE_CRITERR, PE_HMC_ERRORINFO, PE_HMC_ERRORDATA,
    PE_CEQCTL, PE_AEQCTL, PE_PDINV, PE_VSIQF_PE_CTL1, PE_VFPDINV,
    PE_NUM_REGS
} PeReg;

void pe_regs_init(IrdmaDev *d);
/* PF reset: every register of the block back to its reset value. */
void pe_regs_reset(IrdmaDev *d);

/* Device-side access (@idx is the array element, 0 for scalars). */
uint32_t pe_reg_get(IrdmaDev *d, PeReg r, unsigned idx);
void pe_reg_set(IrdmaDev *d, PeReg r, unsigned idx, uint32_t val);

#endif
