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

#endif
