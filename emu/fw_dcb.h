/*
 * fw_dcb.h - DCB and the LLDP agent: firmware-LLDP or software-DCBX mode (PRTDCB_GENS), the local/remote MIBs, ETS/PFC configuration applied to the scheduler TCs and PRTDCB_TUP2TC; AQ 0x0302/0x0303, 0x040E, 0x0A00-0x0A0A.
 */
#ifndef IRDMA_EMU_FW_DCB_H
#define IRDMA_EMU_FW_DCB_H

#include "aq.h"

typedef struct FwDcb FwDcb;

extern const AqOpcodeTable fw_dcb_opcodes;

FwDcb *fw_dcb_new(IrdmaDev *d);
void fw_dcb_free(FwDcb *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
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
