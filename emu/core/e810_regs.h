/*
 * e810_regs.h - BAR0 offsets and fields of the E810 LAN function, as the ice 6.1 driver uses
 * them (drivers/net/ethernet/intel/ice/ice_hw_autogen.h). Facts of the hardware interface.
 */
#ifndef IRDMA_EMU_E810_REGS_H
#define IRDMA_EMU_E810_REGS_H

#define BIT32(n)                    (1u << (n))
#define MASK32(hi, lo)              ((~0u >> (31 - (hi))) & ~((1u << (lo)) - 1))

/* Admin queue (driver -> firmware: ATQ; firmware -> driver events: ARQ) */
#define PF_FW_ATQBAL                0x00080000
#define PF_FW_ARQBAL                0x00080080
#define PF_FW_ATQBAH                0x00080100
#define PF_FW_ARQBAH                0x00080180
#define PF_FW_ATQLEN                0x00080200
#define PF_FW_ARQLEN                0x00080280
#define PF_FW_ATQH                  0x00080300
#define PF_FW_ARQH                  0x00080380
#define PF_FW_ATQT                  0x00080400
#define PF_FW_ARQT                  0x00080480
#define PF_FW_xQLEN_LEN_M           MASK32(9, 0)
#define PF_FW_xQLEN_VFE_M           BIT32(28)
#define PF_FW_xQLEN_OVFL_M          BIT32(29)
#define PF_FW_xQLEN_CRIT_M          BIT32(30)
#define PF_FW_xQLEN_ENABLE_M        BIT32(31)
#define PF_FW_xQH_M                 MASK32(9, 0)
#define PF_FW_xQT_M                 MASK32(9, 0)

/* PF <-> VF mailbox queue, same layout as the AQ registers */
#define PF_MBX_ATQBAL               0x0022E100
#define PF_MBX_ARQBAL               0x0022E380
#define PF_MBX_ATQBAH               0x0022E180
#define PF_MBX_ARQBAH               0x0022E400
#define PF_MBX_ATQLEN               0x0022E200
#define PF_MBX_ARQLEN               0x0022E480
#define PF_MBX_ATQH                 0x0022E280
#define PF_MBX_ARQH                 0x0022E500
#define PF_MBX_ATQT                 0x0022E300
#define PF_MBX_ARQT                 0x0022E580

/* Reset and function identity */
#define PFGEN_CTRL                  0x00091000
#define PFGEN_CTRL_PFSWR_M          BIT32(0)
#define PF_FUNC_RID                 0x0009E880
#define PF_FUNC_RID_FUNC_NUM_M      MASK32(2, 0)
#define GLGEN_STAT                  0x000B612C   /* ice_flush() reads it after writes */
#define GLGEN_RSTCTL                0x000B8180
#define GLGEN_RSTAT                 0x000B8188
#define GLGEN_RSTAT_DEVSTATE_M      MASK32(1, 0)
#define GLGEN_RSTAT_RESET_TYPE_M    MASK32(3, 2)
#define GLGEN_RTRIG                 0x000B8190
#define GLGEN_RTRIG_CORER_M         BIT32(0)
#define GLGEN_RTRIG_GLOBR_M         BIT32(1)

/* NVM status */
#define GLNVM_ULD                   0x000B6008
#define GLNVM_ULD_PCIER_DONE_M      BIT32(0)
#define GLNVM_ULD_PCIER_DONE_1_M    BIT32(1)
#define GLNVM_ULD_CORER_DONE_M      BIT32(3)
#define GLNVM_ULD_GLOBR_DONE_M      BIT32(4)
#define GLNVM_ULD_POR_DONE_M        BIT32(5)
#define GLNVM_ULD_POR_DONE_1_M      BIT32(8)
#define GLNVM_ULD_PCIER_DONE_2_M    BIT32(9)
#define GLNVM_ULD_PE_DONE_M         BIT32(10)
#define GLNVM_GENS                  0x000B6100
#define GLNVM_GENS_SR_SIZE_M        MASK32(7, 5)
#define GLNVM_FLA                   0x000B6108
#define GLNVM_FLA_LOCKED_M          BIT32(6)
/* Firmware state: FW_MODES 0 = normal (not recovery, not rollback), FW_LOADING clear = the
 * PHY firmware is up (ice 6.12 ice_wait_for_fw, 7.3 ice_wait_fw_load poll it at probe). */
#define GL_MNG_FWSM                 0x000B6134
#define GL_MNG_FWSM_FW_MODES_M      MASK32(2, 0)
#define GL_MNG_FWSM_FW_LOADING_M    BIT32(30)

/* LAN queues */
#define LAN_NUM_RXQ                 2048
#define LAN_NUM_TXQ                 16384
#define QRX_CTRL(q)                 (0x00120000 + 4 * (q))
#define QRX_CTRL_QENA_REQ_M         BIT32(0)
#define QRX_CTRL_FAST_QDIS_M        BIT32(1)
#define QRX_CTRL_QENA_STAT_M        BIT32(2)
#define QRX_CONTEXT(i, q)           (0x00280000 + 8192 * (i) + 4 * (q))
#define QRX_CONTEXT_DWORDS          8
#define QRX_TAIL(q)                 (0x00290000 + 4 * (q))
#define QRXFLXP_CNTXT(q)            (0x00480000 + 4 * (q))
#define QTX_COMM_DBELL(q)           (0x002C0000 + 4 * (q))
#define QTX_COMM_HEAD(q)            (0x000E0000 + 4 * (q))
#define QINT_TQCTL(q)               (0x00140000 + 4 * (q))
#define QINT_RQCTL(q)               (0x00150000 + 4 * (q))

/* Miscellaneous PF/port registers ice reads or programs at probe */
#define GL_PWR_MODE_CTL             0x000B820C
#define GLGEN_CLKSTAT_SRC           0x000B826C
#define GLPCI_CNF2                  0x000BE004
#define PFPM_WUS                    0x0009DB80
#define GL_MDCK_TX_TDPU             0x00049348
#define PFQF_FD_ENA                 0x0043A000
#define GLQF_FD_SIZE                0x00460010
#define GL_PREEXT_L2_PMASK0(i)      (0x0020F0FC + 4 * (i))
#define GL_PREEXT_L2_PMASK1(i)      (0x0020F108 + 4 * (i))
#define PRTMAC_HSEC_CTL_TX_PAUSE_QUANTA(i)        (0x001E36E0 + 32 * (i))
#define PRTMAC_HSEC_CTL_TX_PAUSE_REFRESH_TIMER(i) (0x001E3800 + 32 * (i))

/* The MAC's statistics, per port: split 40-bit counters (core/regs.h, EMU_SPLIT40_*), the L
 * register of port i here and its H register 4 bytes above. */
#define GLPRT_PORT_COUNT            8
#define GLPRT_GORCL(i)              (0x00380000 + 8 * (i))
#define GLPRT_PRC64L(i)             (0x00380900 + 8 * (i))
#define GLPRT_PRC127L(i)            (0x00380940 + 8 * (i))
#define GLPRT_PRC255L(i)            (0x00380980 + 8 * (i))
#define GLPRT_PRC511L(i)            (0x003809C0 + 8 * (i))
#define GLPRT_PRC1023L(i)           (0x00380A00 + 8 * (i))
#define GLPRT_PRC1522L(i)           (0x00380A40 + 8 * (i))
#define GLPRT_PRC9522L(i)           (0x00380A80 + 8 * (i))
#define GLPRT_GOTCL(i)              (0x00380B40 + 8 * (i))
#define GLPRT_PTC64L(i)             (0x00380B80 + 8 * (i))
#define GLPRT_PTC127L(i)            (0x00380BC0 + 8 * (i))
#define GLPRT_PTC255L(i)            (0x00380C00 + 8 * (i))
#define GLPRT_PTC511L(i)            (0x00380C40 + 8 * (i))
#define GLPRT_PTC1023L(i)           (0x00380C80 + 8 * (i))
#define GLPRT_PTC1522L(i)           (0x00380CC0 + 8 * (i))
#define GLPRT_PTC9522L(i)           (0x00380D00 + 8 * (i))
#define GLPRT_UPTCL(i)              (0x003811C0 + 8 * (i))
#define GLPRT_MPTCL(i)              (0x00381200 + 8 * (i))
#define GLPRT_BPTCL(i)              (0x00381240 + 8 * (i))
#define GLPRT_UPRCL(i)              (0x00381300 + 8 * (i))
#define GLPRT_MPRCL(i)              (0x00381340 + 8 * (i))
#define GLPRT_BPRCL(i)              (0x00381380 + 8 * (i))

/* Interrupts */
#define GLINT_NUM_VECTORS           2048
#define GLINT_DYN_CTL(n)            (0x00160000 + 4 * (n))
#define GLINT_DYN_CTL_INTENA_M      BIT32(0)
#define GLINT_DYN_CTL_CLEARPBA_M    BIT32(1)
#define GLINT_DYN_CTL_SWINT_TRIG_M  BIT32(2)
#define GLINT_DYN_CTL_ITR_INDX_M    MASK32(4, 3)
#define GLINT_DYN_CTL_INTERVAL_M    MASK32(16, 5)
#define GLINT_DYN_CTL_SW_ITR_INDX_ENA_M BIT32(24)
#define GLINT_DYN_CTL_SW_ITR_INDX_M MASK32(26, 25)
#define GLINT_DYN_CTL_WB_ON_ITR_M   BIT32(30)
#define GLINT_DYN_CTL_INTENA_MSK_M  BIT32(31)
#define GLINT_ITR(i, n)             (0x00154000 + 8192 * (i) + 4 * (n))
#define GLINT_ITR_COUNT             3
#define GLINT_RATE(n)               (0x0015A000 + 4 * (n))
#define GLINT_VECT2FUNC(n)          (0x00162000 + 4 * (n))
#define GLINT_CTL                   0x0016CC54
#define GLINT_CTL_DIS_AUTOMASK_M    BIT32(0)
#define PFINT_FW_CTL                0x0016C800
#define PFINT_OICR_ENA              0x0016C900
#define PFINT_OICR                  0x0016CA00
#define PFINT_OICR_CTL              0x0016CA80
#define PFINT_MBX_CTL               0x0016B280
#define PFINT_SB_CTL                0x0016B600
/* The *_CTL cause registers share one layout. */
#define PFINT_CTL_MSIX_INDX_M       MASK32(10, 0)
#define PFINT_CTL_ITR_INDX_M        MASK32(12, 11)
#define PFINT_CTL_CAUSE_ENA_M       BIT32(30)
#define PFINT_OICR_ECC_ERR_M        BIT32(16)
#define PFINT_OICR_MAL_DETECT_M     BIT32(19)
#define PFINT_OICR_GRST_M           BIT32(20)
#define PFINT_OICR_PCI_EXCEPTION_M  BIT32(21)
#define PFINT_OICR_HMC_ERR_M        BIT32(26)
#define PFINT_OICR_PE_PUSH_M        BIT32(27)
#define PFINT_OICR_PE_CRITERR_M     BIT32(28)
#define PFINT_OICR_VFLR_M           BIT32(29)
#define PFINT_OICR_SWINT_M          BIT32(31)

#endif
