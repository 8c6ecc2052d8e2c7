/*
 * fw/dcb.h - DCB and the firmware LLDP agent.
 *
 * The agent runs by default (PRTDCB_GENS.DCBX_STATUS = DONE): the driver reads the local MIB
 * (0x0A00) and takes the IEEE DCBX configuration from it; there is no peer, so the remote MIB
 * is absent (ENOENT) and CEE is not negotiated (0x0A07 ENOENT). Once the driver stops the agent
 * (0x0A05, "fw-lldp-agent off") the status reads DIS and the driver owns DCB: it sends its
 * configuration as TLVs (0x0A08 set_local_mib). The ETS part of the configuration in force
 * decides which TCs exist in the Tx scheduler, the UP->TC map the hardware uses (PRTDCB_TUP2TC,
 * which irdma reads through ice) and what query_port_ets (0x040E) reports.
 * AQ: 0x0302/0x0303 PFC mode, 0x040E query_port_ets, 0x0A00 get_lldp_mib, 0x0A01 MIB change
 * events, 0x0A05/0x0A06 agent stop/start, 0x0A07 CEE config, 0x0A08 set_local_mib,
 * 0x0A09 DCBX agent stop/start, 0x0A0A LLDP Rx filter.
 */
#ifndef IRDMA_EMU_FW_DCB_H
#define IRDMA_EMU_FW_DCB_H

#include "fw/aq.h"

typedef struct FwDcb FwDcb;

extern const AqOpcodeTable fw_dcb_opcodes;

FwDcb *fw_dcb_new(IrdmaDev *d);
void fw_dcb_free(FwDcb *s);
/* PF reset / clear_pf_cfg: MIB-change events and the Rx filter go; the port's DCB stays. */
void fw_dcb_pf_reset(FwDcb *s);

/* The ETS configuration in force, as the scheduler and query_port_ets need it. */
typedef struct FwEtsCfg {
    uint8_t tc_bitmap;        /* enabled TCs */
    uint8_t up2tc[8];         /* user priority -> TC */
    uint8_t tc_bw[8];         /* percent per TC */
    uint8_t tsa[8];           /* transmission selection algorithm per TC */
} FwEtsCfg;

void fw_dcb_get_ets(FwDcb *s, FwEtsCfg *out);

#endif
